/* tether new|fork|rename|rm|ask|compact|model|goal|policy|server-info: the server's version
 * first (/server_info), then one managing call, said in text or as one JSON object. A route
 * the server lacks is said as "this server (version X) has no …", never as an HTTP status. */
#include "commands.h"
#include "app.h"
#include "clean.h"
#include "diagnose.h"
#include "tty_prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct manage_run {
	struct loop *loop;
	const struct options *o;
	struct rest_server srv;
	const struct mask_set *masks;
	const char *name;               /* the command word */
	int exit_code;
	bool done;
	struct server_version version;
	enum rest_call call;            /* the managing call under way */
	struct rest_args args;
	char *made_id;                  /* new, fork: the conversation made */
	char *title;                    /* rm: the title of the one deleted */
	char *model;                    /* model: the conversation's model */
	char *profile_id;               /* new: the agent profile launched */
	char **new_id;                  /* new: where the id goes for a run that follows */
	loop_log_fn log;                /* --log */
};

static const char *const words[] = {
	[CMD_NEW] = "new", [CMD_FORK] = "fork", [CMD_RENAME] = "rename", [CMD_RM] = "rm",
	[CMD_ASK] = "ask", [CMD_COMPACT] = "compact", [CMD_MODEL] = "model",
	[CMD_GOAL] = "goal", [CMD_POLICY] = "policy", [CMD_SERVER_INFO] = "server-info",
};

static void finish(struct manage_run *r, int code)
{
	r->exit_code = code;
	r->done = true;
	loop_quit(r->loop);
}

/* ------------------------------------------------------------------ output */

/* One answer: a text line, or one JSON object {"type": type, …} (ndjson and json alike). */
struct answer {
	struct manage_run *r;
	struct buf text, json, scratch;
};

static void answer_init(struct answer *a, struct manage_run *r, const char *type)
{
	a->r = r;
	buf_init(&a->text);
	buf_init(&a->json);
	buf_init(&a->scratch);
	buf_puts(&a->json, "{\"type\":");
	json_append_string(&a->json, type, strlen(type));
}

/* A field: its value cleaned (sanitized, masked) in both forms; NULL is null in JSON and
 * nothing in text. */
static void answer_field(struct answer *a, const char *key, const char *value, const char *text_fmt)
{
	struct buf clean;
	buf_init(&clean);
	if (value)
		clean_text(a->r->masks, value, strlen(value), &a->scratch, &clean);
	buf_printf(&a->json, ",\"%s\":", key);
	if (value)
		json_append_string(&a->json, buf_cstr(&clean), clean.len);
	else
		buf_puts(&a->json, "null");
	if (value && text_fmt)
		buf_printf(&a->text, text_fmt, buf_cstr(&clean));
	buf_fini(&clean);
}

static void answer_text(struct answer *a, const char *s)
{
	buf_puts(&a->text, s);
}

/* Writes it (-q: text mode writes nothing) and frees it. */
static void answer_put(struct answer *a)
{
	const struct options *o = a->r->o;
	buf_putc(&a->json, '}');
	if (o->format != FORMAT_TEXT)
		printf("%s\n", buf_cstr(&a->json));
	else if (!o->quiet && a->text.len)
		printf("%s\n", buf_cstr(&a->text));
	buf_fini(&a->text);
	buf_fini(&a->json);
	buf_fini(&a->scratch);
}

/* ------------------------------------------------------------------ failures */

static void server_words(struct manage_run *r, struct buf *url)
{
	buf_init(url);
	url_describe(r->o->server, url);
}

static void say(struct manage_run *r, const char *line)
{
	clean_eprintf(r->masks, "%s: %s", r->name, line);
}

/* "this server (version X) has no fork": exit 1. */
static void lacks(struct manage_run *r, enum rest_call call)
{
	struct buf line;
	buf_init(&line);
	const char *v = r->version.text[0] ? r->version.text : "of unknown version";
	buf_printf(&line, "this server (%s%s) has no %s", r->version.text[0] ? "version " : "", v,
		   rest_call_name(call));
	if (call == REST_FORK && r->args.event_id && r->version.known)
		buf_puts(&line, " from an event (it would copy the whole conversation; 1.31 and "
				"later fork from an event)");
	say(r, buf_cstr(&line));
	buf_fini(&line);
	finish(r, EXIT_RUNTIME);
}

/* Any failure of res, in words: the server's own where it gave some. */
static void fail(struct manage_run *r, const struct rest_result *res)
{
	const struct rest_response *resp = res->raw;
	struct buf url, line, cause, scratch;
	server_words(r, &url);
	buf_init(&line);
	buf_init(&cause);
	buf_init(&scratch);
	struct diag_about about = {
		.server = buf_cstr(&url),
		.conversation_id = r->args.id,
		.has_key = r->srv.api_key != NULL,
	};
	const char *detail = res->detail ? res->detail : "";
	const char *what = rest_call_name(res->call);
	int code = EXIT_RUNTIME;
	switch (res->outcome) {
	case REST_NO_ANSWER:
	case REST_AUTH:
		if (resp->error)
			clean_text(r->masks, resp->error, strlen(resp->error), &scratch, &cause);
		diag_rest_failure(&line, &about, resp, buf_cstr(&cause));
		code = res->outcome == REST_AUTH ? EXIT_AUTH : EXIT_RUNTIME;
		break;
	case REST_UNSUPPORTED:
		buf_fini(&scratch);
		buf_fini(&cause);
		buf_fini(&line);
		buf_fini(&url);
		lacks(r, res->call);
		return;
	case REST_NOT_FOUND:
		/* upstream's bare 404 names the conversation; other details say what is missing */
		if (!*detail || !strcmp(detail, "Not Found") || !strcmp(detail, "Bad Request") ||
		    strstr(detail, "onversation not found") || res->call == REST_RENAME) {
			diag_not_found(&line, &about);
			code = EXIT_NOT_FOUND;
		} else {
			buf_printf(&line, "the server at %s says: %s", about.server, detail);
		}
		break;
	case REST_BAD_BODY:
		buf_printf(&line, "unexpected answer from %s to the %s: %s", about.server, what,
			   res->err.message);
		break;
	case REST_CONFLICT:
	case REST_INVALID:
	case REST_REFUSED:
		buf_printf(&line, "the server at %s refused the %s: %s", about.server, what,
			   *detail ? detail : "no reason given");
		break;
	default:
		buf_printf(&line, "the server at %s failed the %s (HTTP %d)%s%s", about.server, what,
			   resp->status, *detail ? ": " : "", detail);
		break;
	}
	say(r, buf_cstr(&line));
	buf_fini(&scratch);
	buf_fini(&cause);
	buf_fini(&line);
	buf_fini(&url);
	finish(r, code);
}

static void start(struct manage_run *r, enum rest_call call, rest_result_fn done)
{
	r->call = call;
	if (!rest_call_available(call, &r->args, &r->version)) {
		lacks(r, call);
		return;
	}
	if (rest_call(&r->srv, call, &r->args, done, r) != 0) {
		struct buf url;
		server_words(r, &url);
		struct buf line;
		buf_init(&line);
		buf_printf(&line, "cannot start the %s request to %s", rest_call_name(call),
			   buf_cstr(&url));
		say(r, buf_cstr(&line));
		buf_fini(&line);
		buf_fini(&url);
		finish(r, EXIT_RUNTIME);
	}
}

/* A bare 404 (or ask's 500) from a route an older server may lack: the conversation's own
 * GET tells a missing route from a missing conversation. */
static void probe_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome == REST_OK) {
		lacks(r, r->call);
		return;
	}
	fail(r, res);
}

static bool may_lack(const struct rest_result *res)
{
	bool bare = res->outcome == REST_NOT_FOUND && res->call != REST_RENAME &&
		    res->call != REST_DELETE && (!res->detail || !strcmp(res->detail, "Not Found"));
	return bare || (res->call == REST_ASK_AGENT && res->outcome == REST_HTTP_ERROR &&
			res->raw->status == 500 && res->detail &&
			!strcmp(res->detail, "500: Internal Server Error"));
}

/* Fails, after the probe when the failure may be a missing route. */
static void fail_or_probe(struct manage_run *r, const struct rest_result *res)
{
	if (!may_lack(res) || !r->args.id) {
		fail(r, res);
		return;
	}
	/* ask_agent answers an unknown conversation with a bare 500: the GET says which */
	struct rest_args a = { .id = r->args.id };
	if (rest_call(&r->srv, REST_GET_CONVERSATION, &a, probe_done, r) != 0)
		fail(r, res);
}

/* ------------------------------------------------------------------ answers */

static void said(struct manage_run *r)
{
	finish(r, command_flush_stdout());
}

static void say_conversation(struct manage_run *r, const char *type, const char *id,
			     const char *title)
{
	struct answer a;
	answer_init(&a, r, type);
	answer_field(&a, "id", id, "%s");
	if (r->o->command == CMD_FORK)
		answer_field(&a, "forked_from", r->o->conversation_id, NULL);
	answer_field(&a, "title", title, NULL);
	answer_put(&a);
}

static void renamed_made(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome != REST_OK) {
		fail(r, res);
		return;
	}
	say_conversation(r, "created", r->made_id, r->o->title);
	if (r->new_id) {
		*r->new_id = r->made_id;
		r->made_id = NULL;
	}
	said(r);
}

static void made(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome != REST_OK || res->conversations.count != 1) {
		if (res->outcome == REST_OK)
			res->outcome = REST_BAD_BODY;
		fail_or_probe(r, res);
		return;
	}
	r->made_id = xstrdup(res->conversations.items[0].id);
	if (r->o->command == CMD_FORK) {
		say_conversation(r, "forked", r->made_id, res->conversations.items[0].title);
		said(r);
		return;
	}
	if (r->o->title) {
		/* upstream's start has no title: a PATCH names it */
		r->args = (struct rest_args){ .id = r->made_id, .title = r->o->title };
		start(r, REST_RENAME, renamed_made);
		return;
	}
	renamed_made(r, &(struct rest_result){ .outcome = REST_OK });
}

/* The agent profile to launch with: --profile by name or id, else the active one, else the
 * only one. */
static void agent_profiles_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome != REST_OK) {
		fail(r, res);
		return;
	}
	const struct profile_list *p = &res->profiles;
	const struct agent_profile *pick = NULL;
	const char *want = r->o->profile;
	for (size_t i = 0; i < p->count && !pick; i++) {
		const struct agent_profile *a = &p->agents[i];
		if (want ? (!strcmp(a->name, want) || (a->id && !strcmp(a->id, want)))
			 : (a->id && p->active && !strcmp(a->id, p->active)))
			pick = a;
	}
	if (!pick && !want && p->count == 1)
		pick = &p->agents[0];
	if (!pick || !pick->id) {
		struct buf line, names;
		buf_init(&line);
		buf_init(&names);
		for (size_t i = 0; i < p->count; i++)
			buf_printf(&names, "%s%s", i ? ", " : "", p->agents[i].name);
		if (pick)
			buf_printf(&line, "the agent profile %s has no id and cannot be launched", pick->name);
		else if (want)
			buf_printf(&line, "the server has no agent profile %s (it has: %s)", want,
				   names.len ? buf_cstr(&names) : "none");
		else if (!p->count)
			buf_puts(&line, "the server has no agent profile to start a conversation with");
		else
			buf_printf(&line, "the server has several agent profiles and none is active: "
				   "choose one with --profile NAME (%s)", buf_cstr(&names));
		say(r, buf_cstr(&line));
		buf_fini(&names);
		buf_fini(&line);
		finish(r, want && !pick ? EXIT_NOT_FOUND : EXIT_RUNTIME);
		return;
	}
	static char cwd[4096];
	const char *dir = r->o->workdir;
	if (!dir)
		dir = getcwd(cwd, sizeof cwd) ? cwd : "/";
	r->profile_id = xstrdup(pick->id);
	r->args = (struct rest_args){ .profile = r->profile_id, .working_dir = dir,
				      .text = r->o->nwords ? r->o->words[0] : NULL,
				      .autotitle = !r->o->title };
	start(r, REST_START_CONVERSATION, made);
}

static void done_ok(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome != REST_OK) {
		fail_or_probe(r, res);
		return;
	}
	const struct options *o = r->o;
	struct answer a;
	switch (o->command) {
	case CMD_RENAME:
		answer_init(&a, r, "renamed");
		answer_field(&a, "id", o->conversation_id, "renamed: %s: ");
		answer_field(&a, "title", o->words[0], "%s");
		break;
	case CMD_RM:
		answer_init(&a, r, "deleted");
		answer_field(&a, "id", o->conversation_id, "deleted: %s");
		answer_field(&a, "title", r->title, " (%s)");
		break;
	case CMD_ASK:
		answer_init(&a, r, "answer");
		answer_field(&a, "id", o->conversation_id, NULL);
		answer_field(&a, "question", o->words[0], NULL);
		answer_field(&a, "answer", res->answer, "%s");
		break;
	case CMD_COMPACT:
		answer_init(&a, r, "compacted");
		answer_field(&a, "id", o->conversation_id,
			     "compacted: %s (the server condensed its history)");
		break;
	case CMD_MODEL:
		answer_init(&a, r, "model");
		answer_field(&a, "id", o->conversation_id, "model: %s now uses the LLM profile ");
		answer_field(&a, "profile", o->words[0], "%s");
		break;
	case CMD_GOAL: {
		const char *w = o->words[0];
		bool stop = !strcmp(w, "stop"), resume = !strcmp(w, "resume");
		answer_init(&a, r, "goal");
		answer_field(&a, "id", o->conversation_id, stop ? "goal stopped: %s (a run under "
			     "way goes on to its end)" : resume ? "goal resumed: %s" : "goal set: %s: ");
		answer_field(&a, "action", stop ? "stop" : resume ? "resume" : "start", NULL);
		answer_field(&a, "objective", stop || resume ? NULL : w, "%s");
		break;
	}
	default: /* CMD_POLICY */
		answer_init(&a, r, "policy");
		answer_field(&a, "id", o->conversation_id, "policy: %s ");
		if (!strcmp(o->words[0], "analyzer")) {
			answer_field(&a, "analyzer", o->words[1], "now rates actions with the %s analyzer");
		} else {
			static const char *const levels[] = { "HIGH", "MEDIUM", "LOW" };
			bool risky = !strcasecmp(o->words[0], "risky");
			const char *level = risky ? levels[r->args.threshold] : NULL;
			const char *policy = r->args.policy == CONFIRMATION_POLICY_ALWAYS ? "always"
					     : r->args.policy == CONFIRMATION_POLICY_NEVER ? "never"
					     : "risky";
			answer_field(&a, "policy", policy,
				     !strcmp(policy, "always") ? "now asks before every action"
				     : !strcmp(policy, "never") ? "now never asks" : "now asks at ");
			answer_field(&a, "level", level, "%s risk and above (and unknown risk)");
		}
		break;
	}
	answer_put(&a);
	said(r);
}

/* model ID: the LLM profiles, the server's default and the conversation's model. */
static void llm_profiles_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome != REST_OK) {
		fail(r, res);
		return;
	}
	const struct profile_list *p = &res->profiles;
	bool json = r->o->format == FORMAT_JSON;
	if (json)
		putchar('[');
	for (size_t i = 0; i < p->count; i++) {
		const struct llm_profile *l = &p->llms[i];
		struct answer a;
		answer_init(&a, r, "profile");
		answer_field(&a, "name", l->name, "%s");
		answer_field(&a, "model", l->model, "\t%s");
		bool def = p->active && !strcmp(p->active, l->name);
		bool current = r->model && l->model && !strcmp(r->model, l->model);
		buf_printf(&a.json, ",\"default\":%s,\"current\":%s", def ? "true" : "false",
			   current ? "true" : "false");
		if (def)
			answer_text(&a, "\t(the server's default)");
		if (current)
			answer_text(&a, "\t(this conversation's model)");
		if (json && i)
			putchar(',');
		if (json) {
			buf_putc(&a.json, '}');
			fputs(buf_cstr(&a.json), stdout);
			buf_fini(&a.json);
			buf_fini(&a.text);
			buf_fini(&a.scratch);
		} else {
			answer_put(&a);
		}
	}
	if (json)
		puts("]");
	said(r);
}

static void model_conversation_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome != REST_OK) {
		fail(r, res);
		return;
	}
	if (res->conversations.count == 1)
		r->model = xstrdup(res->conversations.items[0].model);
	r->args = (struct rest_args){ 0 };
	start(r, REST_LIST_LLM_PROFILES, llm_profiles_done);
}

/* rm: the title to name, then the question (a terminal) or --yes. */
static void rm_conversation_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome != REST_OK || res->conversations.count != 1) {
		fail(r, res);
		return;
	}
	const char *t = res->conversations.items[0].title;
	r->title = xstrdup(t && *t ? t : NULL);
	if (!r->o->yes) {
		struct buf q, scratch;
		buf_init(&q);
		buf_init(&scratch);
		buf_puts(&q, "Delete the conversation ");
		if (r->title)
			clean_text(r->masks, r->title, strlen(r->title), &scratch, &q);
		else
			buf_puts(&q, "(untitled)");
		buf_printf(&q, " (%s)? [y/N] ", r->o->conversation_id);
		struct tty_value v = { 0 };
		int rc = tty_prompt(buf_cstr(&q), true, &v);
		bool yes = rc == 0 && v.data && (v.data[0] == 'y' || v.data[0] == 'Y');
		tty_value_free(&v);
		buf_fini(&scratch);
		buf_fini(&q);
		if (!yes) {
			say(r, "nothing was deleted");
			finish(r, EXIT_RUNTIME);
			return;
		}
	}
	start(r, REST_DELETE, done_ok);
}

/* The version, then the command's own calls. */
static void version_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	const struct options *o = r->o;
	if (res->outcome == REST_NO_ANSWER || res->outcome == REST_AUTH) {
		fail(r, res);
		return;
	}
	/* another answer: a server without /server_info is of unknown version */
	if (res->outcome == REST_OK)
		r->version = res->version;
	if (o->log_path && r->log) {
		char line[96];
		snprintf(line, sizeof line, "server version: %s",
			 r->version.text[0] ? r->version.text : "unknown (no /server_info answer)");
		r->log(0, line);
	}
	if (o->command == CMD_SERVER_INFO) {
		if (res->outcome != REST_OK) {
			fail(r, res);
			return;
		}
		struct answer a;
		struct buf url;
		server_words(r, &url);
		answer_init(&a, r, "server");
		answer_field(&a, "url", buf_cstr(&url), "%s: ");
		answer_field(&a, "version", r->version.text, "version %s");
		buf_printf(&a.json, ",\"known\":%s", r->version.known ? "true" : "false");
		answer_put(&a);
		buf_fini(&url);
		said(r);
		return;
	}
	r->args = (struct rest_args){ .id = o->conversation_id };
	switch (o->command) {
	case CMD_NEW:
		r->args.id = NULL;
		start(r, REST_LIST_AGENT_PROFILES, agent_profiles_done);
		break;
	case CMD_FORK:
		r->args.title = o->title;
		r->args.event_id = o->from_event;
		start(r, REST_FORK, made);
		break;
	case CMD_RENAME:
		r->args.title = o->words[0];
		start(r, REST_RENAME, done_ok);
		break;
	case CMD_RM:
		if (!o->yes && !isatty(STDIN_FILENO)) {
			say(r, "refusing to delete without --yes when stdin is not a terminal");
			finish(r, EXIT_USAGE);
			break;
		}
		start(r, REST_GET_CONVERSATION, rm_conversation_done);
		break;
	case CMD_ASK:
		r->args.text = o->words[0];
		start(r, REST_ASK_AGENT, done_ok);
		break;
	case CMD_COMPACT:
		start(r, REST_CONDENSE, done_ok);
		break;
	case CMD_MODEL:
		if (o->nwords) {
			r->args.profile = o->words[0];
			start(r, REST_SWITCH_PROFILE, done_ok);
		} else if (!rest_call_available(REST_LIST_LLM_PROFILES, NULL, &r->version)) {
			lacks(r, REST_LIST_LLM_PROFILES);
		} else {
			start(r, REST_GET_CONVERSATION, model_conversation_done);
		}
		break;
	case CMD_GOAL:
		if (!strcmp(o->words[0], "stop")) {
			start(r, REST_GOAL_STOP, done_ok);
		} else if (!strcmp(o->words[0], "resume")) {
			start(r, REST_GOAL_RESUME, done_ok);
		} else {
			r->args.text = o->words[0];
			start(r, REST_GOAL_START, done_ok);
		}
		break;
	default: /* CMD_POLICY; its words were checked with the options */
		if (!strcmp(o->words[0], "analyzer")) {
			const char *k = o->words[1];
			r->args.analyzer = !strcasecmp(k, "llm") ? SECURITY_ANALYZER_LLM
					   : !strcasecmp(k, "pattern") ? SECURITY_ANALYZER_PATTERN
					   : SECURITY_ANALYZER_NONE;
			start(r, REST_SET_SECURITY_ANALYZER, done_ok);
			break;
		}
		r->args.policy = !strcasecmp(o->words[0], "always") ? CONFIRMATION_POLICY_ALWAYS
				 : !strcasecmp(o->words[0], "never") ? CONFIRMATION_POLICY_NEVER
				 : CONFIRMATION_POLICY_RISKY;
		if (o->nwords > 1)
			r->args.threshold = !strcasecmp(o->words[1], "low") ? RISK_THRESHOLD_LOW
					    : !strcasecmp(o->words[1], "medium") ? RISK_THRESHOLD_MEDIUM
					    : RISK_THRESHOLD_HIGH;
		start(r, REST_SET_CONFIRMATION_POLICY, done_ok);
		break;
	}
}

int cmd_manage_run(const struct options *o, loop_log_fn log, const char *api_key,
		   const struct mask_set *masks, char **new_id)
{
	int exit_code;
	struct loop *loop = command_loop(o, log, masks, &exit_code);
	if (!loop)
		return exit_code;
	struct manage_run r = {
		.loop = loop, .o = o, .masks = masks, .name = words[o->command],
		.exit_code = EXIT_RUNTIME, .new_id = new_id, .log = log,
		.srv = {.loop = loop, .url = o->server, .api_key = api_key, .insecure = o->insecure},
	};
	r.call = REST_SERVER_INFO;
	if (rest_call(&r.srv, REST_SERVER_INFO, NULL, version_done, &r) != 0) {
		say(&r, "cannot start the request for the server's version");
		r.exit_code = EXIT_RUNTIME;
		r.done = true;
	}
	if (!r.done)
		loop_run(loop);
	loop_destroy(loop);
	free(r.made_id);
	free(r.title);
	free(r.model);
	free(r.profile_id);
	return r.exit_code;
}
