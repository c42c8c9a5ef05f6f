/* tether confirm|reject|pause|resume|interrupt ID: one REST answer or control, then exit;
 * tether usage ID: the conversation's usage from its ConversationInfo. */
#include "commands.h"
#include "app.h"
#include "clean.h"
#include "diagnose.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many of the newest events confirm and reject read to find the actions waiting. */
#define PENDING_SCAN 100

struct control_run {
	struct command_run run;
	struct event_page page;         /* confirm, reject: the newest events */
	const struct event *pending[PENDING_SCAN]; /* the actions waiting, oldest first (in page) */
	size_t npending;
};

static const char *const names[] = {
	[CMD_CONFIRM] = "confirm", [CMD_REJECT] = "reject", [CMD_PAUSE] = "pause",
	[CMD_RESUME] = "resume", [CMD_INTERRUPT] = "interrupt", [CMD_USAGE] = "usage",
};

static void finish(struct control_run *r, int code)
{
	command_finish(&r->run, code);
}

/* One line naming the command, the server and the conversation, and the cause in words:
 * diagnose.c words it as everywhere else; another HTTP status adds the server's own words. */
static void fail(struct control_run *r, const struct rest_result *res)
{
	const struct rest_response *resp = res->raw;
	struct buf url, line, cause, scratch;
	buf_init(&url);
	buf_init(&line);
	buf_init(&cause);
	buf_init(&scratch);
	url_describe(r->run.o->server, &url);
	struct diag_about about = {
		.server = buf_cstr(&url),
		.conversation_id = r->run.o->conversation_id,
		.has_key = r->run.srv.api_key != NULL,
	};
	int code = EXIT_RUNTIME;
	if (res->outcome == REST_NOT_FOUND) {
		diag_not_found(&line, &about);
		code = EXIT_NOT_FOUND;
	} else if (res->outcome == REST_NO_ANSWER || res->outcome == REST_AUTH) {
		if (resp->error)
			clean_text(r->run.masks, resp->error, strlen(resp->error), &scratch, &cause);
		diag_rest_failure(&line, &about, resp, buf_cstr(&cause));
		if (res->outcome == REST_AUTH)
			code = EXIT_AUTH;
	} else {
		/* The server's words, on the same line: at most 200 bytes, line breaks as spaces. */
		buf_printf(&line, "the server at %s answered HTTP %d for conversation %s", about.server,
			   resp->status, about.conversation_id);
		struct buf body;
		buf_init(&body);
		buf_append(&body, resp->body ? resp->body : "",
			   resp->body && resp->body_len < 200 ? resp->body_len : resp->body ? 200 : 0);
		for (size_t k = 0; k < body.len; k++)
			if (body.data[k] == '\n' || body.data[k] == '\r' || body.data[k] == '\t')
				body.data[k] = ' ';
		while (body.len && body.data[body.len - 1] == ' ')
			body.data[--body.len] = '\0';
		if (body.len)
			buf_printf(&line, ": %s", buf_cstr(&body));
		buf_fini(&body);
	}
	clean_eprintf(r->run.masks, "%s: %s", r->run.name, buf_cstr(&line));
	buf_fini(&scratch);
	buf_fini(&cause);
	buf_fini(&line);
	buf_fini(&url);
	finish(r, code);
}

static void control_done(void *ctx, struct rest_result *res)
{
	struct control_run *r = ctx;
	bool ok = res->outcome == REST_OK;
	/* 409: a run is already under way, which is what resume asks for. */
	if (r->run.o->command == CMD_RESUME && res->outcome == REST_CONFLICT)
		ok = true;
	if (!ok) {
		fail(r, res);
		return;
	}
	if (!r->run.o->quiet) {
		const char *id = r->run.o->conversation_id;
		if (r->run.o->command == CMD_PAUSE)
			printf("paused: %s (the run stops after the current step)\n", id);
		else if (r->run.o->command == CMD_INTERRUPT)
			printf("interrupted: %s (the run stopped)\n", id);
		else if (res->outcome == REST_CONFLICT)
			printf("resumed: %s (a run was already under way)\n", id);
		else
			printf("resumed: %s (a run started)\n", id);
	}
	finish(r, command_flush_stdout());
}

static void start(struct control_run *r, int rc)
{
	if (rc != 0) {
		struct buf url;
		buf_init(&url);
		url_describe(r->run.o->server, &url);
		clean_eprintf(r->run.masks,
			      "%s: cannot start the request to %s about conversation %s",
			      r->run.name, buf_cstr(&url), r->run.o->conversation_id);
		buf_fini(&url);
		finish(r, EXIT_RUNTIME);
	}
}

/* The names upstream's SecurityRisk serializes. */
static const char *const risk_names[] = {
	[RISK_ABSENT] = NULL, [RISK_UNKNOWN] = "UNKNOWN", [RISK_LOW] = "LOW",
	[RISK_MEDIUM] = "MEDIUM", [RISK_HIGH] = "HIGH",
};

/* What was answered, on stdout (--quiet: nothing): a line per action, its tool, risk and
 * tool_call_id, then every argument whole on lines indented by two spaces; all of it clean. */
static void say_answered(struct control_run *r)
{
	bool accept = r->run.o->command == CMD_CONFIRM;
	const char *verb = accept ? "accepted" : "rejected";
	if (r->run.o->quiet)
		return;
	if (!r->npending)
		printf("%s: the actions waiting in %s (none among its last %d events)\n", verb,
		       r->run.o->conversation_id, PENDING_SCAN);
	struct buf line, scratch;
	buf_init(&line);
	buf_init(&scratch);
	for (size_t i = 0; i < r->npending; i++) {
		const struct event *e = r->pending[i];
		const char *risk = risk_names[e->risk];
		buf_printf(&line, "%s: ", verb);
		const char *tool = e->tool_name ? e->tool_name : "tool";
		clean_text(r->run.masks, tool, strlen(tool), &scratch, &line);
		if (risk)
			buf_printf(&line, " [%s]", risk);
		if (e->tool_call_id) {
			buf_putc(&line, ' ');
			clean_text(r->run.masks, e->tool_call_id, strlen(e->tool_call_id), &scratch,
				   &line);
		}
		struct buf whole;
		buf_init(&whole);
		if (e->action_detail)
			clean_text(r->run.masks, e->action_detail, strlen(e->action_detail), &scratch,
				   &whole);
		for (const char *p = buf_cstr(&whole); *p;) {
			size_t n = strcspn(p, "\n");
			buf_puts(&line, "\n  ");
			buf_append(&line, p, n);
			p += n + (p[n] == '\n');
		}
		buf_fini(&whole);
		puts(buf_cstr(&line));
		buf_clear(&line);
	}
	buf_fini(&scratch);
	buf_fini(&line);
}

static void answer_done(void *ctx, struct rest_result *res)
{
	struct control_run *r = ctx;
	if (res->outcome != REST_OK) {
		fail(r, res);
		return;
	}
	say_answered(r);
	finish(r, command_flush_stdout());
}

static bool in_list(const char *id, const char *const *list, size_t n)
{
	for (size_t i = 0; id && i < n; i++)
		if (strcmp(list[i], id) == 0)
			return true;
	return false;
}

/* --expect: the waiting set must be exactly the ids given; else one line says both sets
 * (clean) and nothing is answered. */
static bool expected(struct control_run *r)
{
	const char *ids[PENDING_SCAN];
	size_t n = 0;
	for (size_t i = 0; i < r->npending; i++)
		if (r->pending[i]->tool_call_id)
			ids[n++] = r->pending[i]->tool_call_id;
	bool same = n == r->npending;
	for (size_t i = 0; same && i < n; i++)
		same = in_list(ids[i], r->run.o->expects, r->run.o->nexpects);
	for (size_t i = 0; same && i < r->run.o->nexpects; i++)
		same = in_list(r->run.o->expects[i], ids, n);
	if (same)
		return true;
	struct buf waiting, wanted;
	buf_init(&waiting);
	buf_init(&wanted);
	for (size_t i = 0; i < r->npending; i++) {
		const struct event *e = r->pending[i];
		buf_printf(&waiting, "%s%s (%s)", i ? ", " : "", e->tool_call_id ? e->tool_call_id : "no id",
			   e->tool_name ? e->tool_name : "tool");
	}
	for (size_t i = 0; i < r->run.o->nexpects; i++)
		buf_printf(&wanted, "%s%s", i ? ", " : "", r->run.o->expects[i]);
	clean_eprintf(r->run.masks, "%s: the actions waiting in %s are not the ones expected; "
		      "nothing was answered (waiting: %s; --expect: %s)", r->run.name,
		      r->run.o->conversation_id,
		      waiting.len ? buf_cstr(&waiting) : "none found", buf_cstr(&wanted));
	buf_fini(&waiting);
	buf_fini(&wanted);
	return false;
}

/* Upstream's pending actions are the executable ActionEvents (with an action) that no
 * observation, rejection or error answers (get_unmatched_actions; every answer carries the
 * tool_call_id); they are the newest events, so the newest page finds them. The page is
 * newest first: an answer comes before (newer than) its action. */
static void find_pending(struct control_run *r)
{
	const char *answered[PENDING_SCAN];
	size_t nanswered = 0;
	r->npending = 0;
	for (size_t i = 0; i < r->page.count && i < PENDING_SCAN; i++) {
		const struct event *e = &r->page.events[i];
		bool answer = e->kind == EVENT_OBSERVATION || e->kind == EVENT_USER_REJECT ||
			      e->kind == EVENT_AGENT_ERROR;
		if (answer && e->tool_call_id)
			answered[nanswered++] = e->tool_call_id;
		else if (e->kind == EVENT_ACTION && e->action_kind &&
			 !in_list(e->tool_call_id, answered, nanswered))
			r->pending[r->npending++] = e;
	}
	/* Oldest first, as they were asked. */
	for (size_t i = 0; i < r->npending / 2; i++) {
		const struct event *t = r->pending[i];
		r->pending[i] = r->pending[r->npending - 1 - i];
		r->pending[r->npending - 1 - i] = t;
	}
}

static void unexpected(struct control_run *r, const char *why)
{
	struct buf url;
	buf_init(&url);
	url_describe(r->run.o->server, &url);
	clean_eprintf(r->run.masks, "%s: unexpected answer from %s about conversation %s: %s",
		      r->run.name, buf_cstr(&url), r->run.o->conversation_id, why);
	buf_fini(&url);
	finish(r, EXIT_RUNTIME);
}

/* The server's strings of the usage, sanitized and masked in place. */
static void clean_usage(struct control_run *r, struct usage_stats *u)
{
	struct buf scratch, out;
	buf_init(&scratch);
	buf_init(&out);
	for (size_t i = 0; i < u->count; i++) {
		char **s[] = { &u->entries[i].usage_id, &u->entries[i].model };
		for (size_t k = 0; k < 2; k++) {
			if (!*s[k])
				continue;
			buf_clear(&out);
			clean_text(r->run.masks, *s[k], strlen(*s[k]), &scratch, &out);
			free(*s[k]);
			*s[k] = xstrdup(buf_cstr(&out));
		}
	}
	buf_fini(&scratch);
	buf_fini(&out);
}

/* The one conversation res answers with, or NULL when r has failed and said why. */
static struct conversation_info *one_conversation(struct control_run *r, struct rest_result *res)
{
	bool bad = res->outcome == REST_BAD_BODY;
	if (!bad && res->outcome != REST_OK) {
		fail(r, res);
		return NULL;
	}
	if (bad || res->conversations.count != 1) {
		unexpected(r, bad ? res->err.message : "not one conversation");
		return NULL;
	}
	return &res->conversations.items[0];
}

/* tether usage: ConversationInfo.stats (upstream's ConversationInfo.metrics is always null). */
static void usage_done(void *ctx, struct rest_result *res)
{
	struct control_run *r = ctx;
	struct conversation_info *ci = one_conversation(r, res);
	if (!ci)
		return;
	clean_usage(r, &ci->stats);
	struct buf b;
	buf_init(&b);
	if (r->run.o->format == FORMAT_TEXT) {
		if (!ci->has_stats)
			buf_puts(&b, "no usage reported: the server's answer has no stats for this "
				      "conversation\n");
		else
			usage_put_report(&b, &ci->stats);
	} else {
		const char *id = r->run.o->conversation_id;
		buf_puts(&b, r->run.o->format == FORMAT_NDJSON ? "{\"type\":\"usage\",\"id\":"
							      : "{\"id\":");
		json_append_string(&b, id, strlen(id));
		buf_printf(&b, ",\"reported\":%s,", ci->has_stats ? "true" : "false");
		usage_put_json(&b, &ci->stats);
		buf_puts(&b, "}\n");
	}
	fwrite(b.data, 1, b.len, stdout);
	buf_fini(&b);
	finish(r, command_flush_stdout());
}

/* The newest events: which actions wait, then the answer to exactly those (--expect). */
static void events_done(void *ctx, struct rest_result *res)
{
	struct control_run *r = ctx;
	if (res->outcome == REST_BAD_BODY) {
		unexpected(r, res->err.message);
		return;
	}
	if (res->outcome != REST_OK) {
		fail(r, res);
		return;
	}
	r->page = res->events;
	memset(&res->events, 0, sizeof res->events);
	find_pending(r);
	if (r->run.o->nexpects && !expected(r)) {
		finish(r, EXIT_RUNTIME);
		return;
	}
	bool accept = r->run.o->command == CMD_CONFIRM;
	struct rest_args a = {.id = r->run.o->conversation_id, .accept = accept,
			      .reason = accept ? NULL : r->run.o->reason};
	start(r, rest_call(&r->run.srv, REST_RESPOND_TO_CONFIRMATION, &a, answer_done, r));
}

/* confirm and reject answer only what is pending: the conversation's status says whether
 * anything is. */
static void status_done(void *ctx, struct rest_result *res)
{
	struct control_run *r = ctx;
	struct conversation_info *ci = one_conversation(r, res);
	if (!ci)
		return;
	if (ci->run_status != RUN_STATUS_WAITING_FOR_CONFIRMATION) {
		clean_eprintf(r->run.masks, "nothing is waiting for confirmation in %s",
			      r->run.o->conversation_id);
		finish(r, EXIT_RUNTIME);
		return;
	}
	struct event_query q = { .limit = PENDING_SCAN, .order = EVENT_ORDER_NEWEST_FIRST };
	struct rest_args a = {.id = r->run.o->conversation_id, .query = &q};
	start(r, rest_call(&r->run.srv, REST_SEARCH_EVENTS, &a, events_done, r));
}

int cmd_control_run(const struct options *o, loop_log_fn log, const char *api_key,
		    const struct mask_set *masks)
{
	int exit_code;
	struct loop *loop = command_loop(o, log, masks, &exit_code);
	if (!loop)
		return exit_code;
	struct control_run r = { 0 };
	command_run_init(&r.run, loop, o, api_key, masks, names[o->command]);
	struct rest_args a = {.id = o->conversation_id};
	switch (o->command) {
	case CMD_CONFIRM:
	case CMD_REJECT:
		start(&r, rest_call(&r.run.srv, REST_GET_CONVERSATION, &a, status_done, &r));
		break;
	case CMD_PAUSE:
		start(&r, rest_call(&r.run.srv, REST_PAUSE, &a, control_done, &r));
		break;
	case CMD_RESUME:
		start(&r, rest_call(&r.run.srv, REST_RUN, &a, control_done, &r));
		break;
	case CMD_USAGE:
		start(&r, rest_call(&r.run.srv, REST_GET_CONVERSATION, &a, usage_done, &r));
		break;
	default:
		start(&r, rest_call(&r.run.srv, REST_INTERRUPT, &a, control_done, &r));
		break;
	}
	if (!r.run.done)
		loop_run(loop);
	loop_destroy(loop);
	event_page_fini(&r.page);
	return r.run.exit_code;
}
