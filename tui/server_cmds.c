/* server_cmds: the commands that ask the server to act on the conversation on screen —
 * /policy, /rename, /delete (after a question naming the title), /ask (the answer a side
 * note of this client, never part of the conversation), /compact, /goal, /model; each says
 * what the server did once it answered. */
#include "bindings.h"
#include "board_view.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The server's answer: what it did, or why not, as a notice. */
static void op_done(void *ctx, const struct controller_op_result *r)
{
	struct conv *v = ctx;
	if (v == v->u->cur)
		ui_notice(&v->u->ui, "%s", r->words);
	else
		ui_notice(&v->u->ui, "%s: %s", conv_name(v), r->words);
}

/* Sends op for the conversation on screen, saying what is under way (busy: already asked). */
static void start(struct tui *u, enum controller_op op, const struct controller_op_args *a,
		  controller_op_fn done, const char *asking, const char *busy)
{
	if (controller_op(u->cur->ctl, op, a, done, u->cur))
		ui_notice(&u->ui, "%s", asking);
	else
		ui_notice(&u->ui, "%s", busy);
}

/* Whether the word at *s (up to a blank) is w; moves *s past it and the blanks after. */
static bool word_is(const char **s, const char *w)
{
	size_t n = strcspn(*s, " \t\n");
	if (n != strlen(w) || strncmp(*s, w, n) != 0)
		return false;
	*s += n;
	*s += strspn(*s, " \t\n");
	return true;
}

static void cmd_policy(struct tui *u, const char *arg)
{
	struct controller_op_args a = { .threshold = RISK_THRESHOLD_HIGH };
	const char *s = arg;
	if (word_is(&s, "always"))
		a.policy = CONFIRMATION_POLICY_ALWAYS;
	else if (word_is(&s, "never"))
		a.policy = CONFIRMATION_POLICY_NEVER;
	else if (word_is(&s, "risky")) {
		a.policy = CONFIRMATION_POLICY_RISKY;
		if (word_is(&s, "low"))
			a.threshold = RISK_THRESHOLD_LOW;
		else if (word_is(&s, "medium"))
			a.threshold = RISK_THRESHOLD_MEDIUM;
		else
			word_is(&s, "high");
	} else
		s = "?";
	if (*s) {
		ui_notice(&u->ui, "/policy takes always, never, or risky [low|medium|high]");
		return;
	}
	start(u, CONTROLLER_OP_POLICY, &a, op_done,
	      "asking the server to change the confirmation policy…",
	      "a policy change is already on its way to the server");
}

static void cmd_analyzer(struct tui *u, const char *arg)
{
	struct controller_op_args a = { 0 };
	const char *s = arg;
	if (word_is(&s, "llm"))
		a.analyzer = SECURITY_ANALYZER_LLM;
	else if (word_is(&s, "pattern"))
		a.analyzer = SECURITY_ANALYZER_PATTERN;
	else if (word_is(&s, "none"))
		a.analyzer = SECURITY_ANALYZER_NONE;
	else
		s = "?";
	if (*s) {
		ui_notice(&u->ui, "/analyzer takes llm, pattern or none");
		return;
	}
	start(u, CONTROLLER_OP_ANALYZER, &a, op_done,
	      "asking the server to change the security analyzer…",
	      "a security analyzer change is already on its way");
}

static void cmd_rename(struct tui *u, const char *arg)
{
	if (!*arg) {
		ui_notice(&u->ui, "/rename takes the new title");
		return;
	}
	struct controller_op_args a = { .text = arg };
	start(u, CONTROLLER_OP_RENAME, &a, op_done, "renaming…", "a rename is already on its way");
}

/* ------------------------------------------------------------------ /delete */

/* The conversation is gone from the server: closed here (the last one open: the board). */
static void deleted(void *ctx, const struct controller_op_result *r)
{
	struct conv *v = ctx;
	struct tui *u = v->u;
	if (!r->ok) {
		op_done(ctx, r);
		return;
	}
	char *words = xstrdup(r->words);
	if (u->nconvs > 1) {
		if (u->cur != v)
			tui_switch(u, v);
		tui_close_current(u);
		ui_notice(&u->ui, "%s", words);
	} else {
		ui_notice(&u->ui, "%s (Ctrl-G: the board; /quit leaves)", words);
	}
	free(words);
}

/* ------------------------------------------------------------------ y or n */

static void question_close(struct tui *u)
{
	layers_pop(&u->layers, &question_layer);
	u->asking = NULL;
	free(u->asked_text);
	u->asked_text = NULL;
	ui_schedule_frame(&u->ui);
}

/* Asks y or n before op on the conversation on screen (text: its objective, or NULL). */
static void question_open(struct tui *u, enum controller_op op, const char *text)
{
	u->asking = u->cur;
	u->asked_op = op;
	u->asked_text = text ? xstrdup(text) : NULL;
	layers_push(&u->layers, &question_layer);
	ui_schedule_frame(&u->ui);
}

static void start_goal(struct tui *u, enum controller_op op, const char *objective);

static enum layer_key question_key(struct tui *u, const struct key_event *ev)
{
	struct conv *v = u->asking;
	enum controller_op op = u->asked_op;
	char *text = u->asked_text;
	u->asked_text = NULL;
	question_close(u);
	bool yes = ev->kind == KEYS_CHAR && !ev->mods && (ev->cp == 'y' || ev->cp == 'Y');
	if (!yes)
		ui_notice(&u->ui, "%s", op == CONTROLLER_OP_DELETE ? "kept: nothing was deleted"
			  : "no goal: nothing was sent to the server");
	else if (op == CONTROLLER_OP_DELETE)
		start(u, op, &(struct controller_op_args){ .text = conv_name(v) }, deleted,
		      "deleting…", "already deleting…");
	else
		start_goal(u, op, text);
	free(text);
	return LAYER_KEY_TAKEN;
}

static struct editor *question_editor(struct tui *u)
{
	editor_clear(&u->answer);
	return &u->answer;
}

/* A goal loop judges a run that stopped to wait for confirmation, and runs the conversation
 * again, which runs the waiting actions (upstream-25-26 2.12): the question says so. */
static const char *question_prefix(struct tui *u, char *buf, size_t size)
{
	const char *name = u->asking ? conv_name(u->asking) : "";
	if (u->asked_op == CONTROLLER_OP_DELETE)
		snprintf(buf, size, "delete “%s” from the server for good? y deletes, any other "
			 "key keeps it ", name);
	else
		snprintf(buf, size, "a goal runs the actions your policy would ask about without "
			 "asking: %s the goal? y does, any other key does not ",
			 u->asked_op == CONTROLLER_OP_GOAL_RESUME ? "resume" : "set");
	return buf;
}

const struct layer question_layer = {
	.name = "question",
	.key = question_key,
	.editor = question_editor,
	.prefix = question_prefix,
	.close = question_close,
};

void slash_cmd_delete(struct tui *u, const char *arg)
{
	(void)arg;
	question_open(u, CONTROLLER_OP_DELETE, NULL);
}

/* ------------------------------------------------------------------ /new */

/* A name from the server, sanitized and masked for the screen. */
static char *ctl_cleaned_name(struct tui *u, const char *name)
{
	struct buf b;
	buf_init(&b);
	if (name)
		controller_clean(u->cur->ctl, name, strlen(name), &b);
	char *s = buf_steal(&b);
	return s ? s : xstrdup("");
}

enum { NEW_PROFILES_MAX = 9 };

/* /new under way: the agent profiles the server listed, then the conversation started. u is
 * NULL once the TUI is gone (the answer goes into nothing). */
struct new_conv {
	struct tui *u;
	char *message;                          /* the first message, NULL: none */
	char *ids[NEW_PROFILES_MAX], *names[NEW_PROFILES_MAX];
	size_t n, active;                       /* active: the server's (n: none) */
};

static void new_free(struct new_conv *nc)
{
	for (size_t i = 0; i < nc->n; i++) {
		free(nc->ids[i]);
		free(nc->names[i]);
	}
	free(nc->message);
	free(nc);
}

/* The end of /new: said (words clean, or NULL) and forgotten. */
static void new_end(struct new_conv *nc, const char *words)
{
	struct tui *u = nc->u;
	if (u) {
		u->new_conv = NULL;
		if (words)
			ui_notice(&u->ui, "%s", words);
	}
	new_free(nc);
}

/* Why a call of /new failed, in words (never an HTTP status). */
static void new_failure(struct tui *u, const char *what, const struct rest_result *r,
			struct buf *out)
{
	buf_printf(out, "could not %s: ", what);
	switch (r->outcome) {
	case REST_AUTH:
		buf_puts(out, "the server refused the session API key");
		return;
	case REST_UNSUPPORTED:
		buf_puts(out, "this server has no agent profiles (they came with version 1.29)");
		return;
	case REST_NO_ANSWER:
		buf_puts(out, r->raw->error ? r->raw->error : "no answer from the server");
		return;
	case REST_BAD_BODY:
		buf_puts(out, "the server's answer could not be read");
		return;
	default:
		break;
	}
	buf_puts(out, r->outcome == REST_INVALID ? "the server refused the request"
		 : r->raw->status >= 500 ? "the server failed" : "the server refused it");
	if (r->detail && *r->detail) {
		size_t n = strlen(r->detail);
		buf_puts(out, ": the server says “");
		controller_clean(u->cur->ctl, r->detail, n > 200 ? 200 : n, out);
		buf_puts(out, "”");
	}
}

static void started(void *ctx, struct rest_result *r)
{
	struct new_conv *nc = ctx;
	struct tui *u = nc->u;
	if (!u) {
		new_free(nc);
		return;
	}
	struct buf words;
	buf_init(&words);
	if (r->outcome == REST_OK && r->conversations.count == 1 && r->conversations.items[0].id &&
	    conversation_id_valid(r->conversations.items[0].id)) {
		struct conv *v = conv_open(u, r->conversations.items[0].id, false);
		if (v) {
			tui_switch(u, v);
			buf_printf(&words, "a new conversation, %s", conv_name(v));
		}
		new_end(nc, words.len ? buf_cstr(&words) : NULL);
	} else {
		if (r->outcome == REST_OK)
			buf_puts(&words, "could not start a conversation: the server's answer has no "
					 "conversation id");
		else
			new_failure(u, "start a conversation", r, &words);
		new_end(nc, buf_cstr(&words));
	}
	buf_fini(&words);
}

/* Starts the conversation with profile k of those listed. */
static void new_start(struct new_conv *nc, size_t k)
{
	struct tui *u = nc->u;
	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, "/");
	struct rest_server srv = {
		.loop = u->loop, .url = u->o->server, .api_key = u->api_key,
		.insecure = u->o->insecure,
	};
	struct rest_args a = {
		.profile = nc->ids[k], .working_dir = cwd, .text = nc->message, .autotitle = true,
	};
	ui_notice(&u->ui, "starting a conversation with the agent profile “%s”…", nc->names[k]);
	if (rest_call(&srv, REST_START_CONVERSATION, &a, started, nc) != 0)
		new_end(nc, "could not start a conversation: the request could not be made");
}

static void profiles_listed(void *ctx, struct rest_result *r)
{
	struct new_conv *nc = ctx;
	struct tui *u = nc->u;
	if (!u) {
		new_free(nc);
		return;
	}
	if (r->outcome != REST_OK) {
		struct buf words;
		buf_init(&words);
		new_failure(u, "list the agent profiles", r, &words);
		new_end(nc, buf_cstr(&words));
		buf_fini(&words);
		return;
	}
	const struct profile_list *l = &r->profiles;
	nc->active = NEW_PROFILES_MAX;
	for (size_t i = 0; i < l->count && nc->n < NEW_PROFILES_MAX; i++) {
		if (!l->agents[i].id)
			continue; /* a legacy profile: not launchable by id */
		if (l->active && !strcmp(l->active, l->agents[i].id))
			nc->active = nc->n;
		nc->ids[nc->n] = xstrdup(l->agents[i].id);
		nc->names[nc->n] = ctl_cleaned_name(u, l->agents[i].name);
		nc->n++;
	}
	if (!nc->n) {
		new_end(nc, "the server has no agent profile to start a conversation with");
	} else if (nc->n == 1) {
		new_start(nc, 0);
	} else {
		layers_push(&u->layers, &profile_layer);
		ui_schedule_frame(&u->ui);
	}
}

static void profile_close(struct tui *u)
{
	layers_pop(&u->layers, &profile_layer);
	if (u->new_conv)
		new_end(u->new_conv, "no new conversation");
	ui_schedule_frame(&u->ui);
}

static enum layer_key profile_key(struct tui *u, const struct key_event *ev)
{
	struct new_conv *nc = u->new_conv;
	size_t k = nc ? nc->n : 0;
	if (nc && ev->kind == KEYS_CHAR && !ev->mods && ev->cp >= '1' && ev->cp < '1' + nc->n)
		k = ev->cp - '1';
	else if (nc && ev->kind == KEYS_ENTER && nc->active < nc->n)
		k = nc->active;
	if (!nc || k >= nc->n) {
		profile_close(u);
		return LAYER_KEY_TAKEN;
	}
	layers_pop(&u->layers, &profile_layer);
	new_start(nc, k);
	return LAYER_KEY_TAKEN;
}

static const char *profile_prefix(struct tui *u, char *buf, size_t size)
{
	struct new_conv *nc = u->new_conv;
	size_t at = (size_t)snprintf(buf, size, "agent profile?");
	for (size_t i = 0; nc && i < nc->n && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, " %zu %s%s ·", i + 1, nc->names[i],
				       i == nc->active ? " (active)" : "");
	if (at < size)
		snprintf(buf + at, size - at, nc && nc->active < nc->n
					       ? " a digit picks, Enter the active, Esc none "
					       : " a digit picks, Esc none ");
	return buf;
}

const struct layer profile_layer = {
	.name = "profile",
	.key = profile_key,
	.editor = question_editor,
	.prefix = profile_prefix,
	.close = profile_close,
};

static void cmd_new(struct tui *u, const char *arg)
{
	if (u->new_conv) {
		ui_notice(&u->ui, "a new conversation is already being started");
		return;
	}
	struct new_conv *nc = xcalloc(1, sizeof *nc);
	nc->u = u;
	nc->message = *arg ? xstrdup(arg) : NULL;
	struct rest_server srv = {
		.loop = u->loop, .url = u->o->server, .api_key = u->api_key,
		.insecure = u->o->insecure,
	};
	if (rest_call(&srv, REST_LIST_AGENT_PROFILES, NULL, profiles_listed, nc) != 0) {
		new_free(nc);
		ui_notice(&u->ui, "could not ask the server for its agent profiles");
		return;
	}
	u->new_conv = nc;
	ui_notice(&u->ui, "asking the server for its agent profiles…");
}

void server_cmds_fini(struct tui *u)
{
	free(u->asked_text);
	u->asked_text = NULL;
	if (u->new_conv)
		u->new_conv->u = NULL;
	u->new_conv = NULL;
}

/* ------------------------------------------------------------------ /ask */

/* The answer as a note of this client in the conversation that asked: shown, never sent. */
static void answered(void *ctx, const struct controller_op_result *r)
{
	struct conv *v = ctx;
	if (!r->ok) {
		op_done(ctx, r);
		return;
	}
	struct buf text;
	buf_init(&text);
	buf_printf(&text, "you asked: %s\n\n%s", r->text, r->words);
	struct item_spec spec = {
		.kind = ITEM_NOTICE, .seq = -1, .title = "aside (not part of the conversation)",
		.text = buf_cstr(&text), .text_len = text.len,
	};
	transcript_add_event(v->t, &spec);
	buf_fini(&text);
	ui_notice(&v->u->ui, "answered aside: the answer is above, the agent's context unchanged");
	ui_schedule_frame(&v->u->ui);
}

static void cmd_ask(struct tui *u, const char *arg)
{
	if (!*arg) {
		ui_notice(&u->ui, "/ask takes a question for the agent, answered aside");
		return;
	}
	struct controller_op_args a = { .text = arg };
	start(u, CONTROLLER_OP_ASK, &a, answered, "asking the agent aside…",
	      "a question aside is already waiting for its answer");
}

/* ------------------------------------------------------------------ the rest */

static void cmd_compact(struct tui *u, const char *arg)
{
	(void)arg;
	start(u, CONTROLLER_OP_COMPACT, NULL, op_done,
	      "asking the server to condense the history (one LLM call)…",
	      "already compacting…");
}

static void start_goal(struct tui *u, enum controller_op op, const char *objective)
{
	if (op == CONTROLLER_OP_GOAL_RESUME)
		start(u, op, NULL, op_done, "resuming the goal…", "already resuming the goal…");
	else
		start(u, op, &(struct controller_op_args){ .text = objective }, op_done,
		      "setting the goal…", "a goal is already on its way to the server");
}

/* A goal (set or resumed) under a policy that confirms is asked about first. */
static void cmd_goal(struct tui *u, const char *arg)
{
	const char *s = arg;
	if (!*arg) {
		ui_notice(&u->ui, "/goal takes an objective, or stop, or resume");
		return;
	}
	if (word_is(&s, "stop") && !*s) {
		start(u, CONTROLLER_OP_GOAL_STOP, NULL, op_done, "stopping the goal…",
		      "already stopping the goal…");
		return;
	}
	enum controller_op op = (s = arg, word_is(&s, "resume")) && !*s ? CONTROLLER_OP_GOAL_RESUME
									 : CONTROLLER_OP_GOAL;
	struct controller_status st;
	controller_status(u->cur->ctl, &st);
	if (st.policy_known && st.confirmation != CONFIRMATION_POLICY_NEVER)
		question_open(u, op, arg);
	else
		start_goal(u, op, arg);
}

static void cmd_model(struct tui *u, const char *arg)
{
	if (!*arg) {
		start(u, CONTROLLER_OP_MODELS, NULL, op_done, "asking the server for its LLM profiles…",
		      "already asking for the LLM profiles…");
		return;
	}
	struct controller_op_args a = { .text = arg };
	start(u, CONTROLLER_OP_MODEL, &a, op_done, "switching the model…",
	      "a model switch is already on its way");
}

const struct binding server_cmd_bindings[] = {
	COMMAND("new", "[MESSAGE]", cmd_new,
		"start a conversation (with an agent profile of the server: a choice when it has "
		"several) and show it; MESSAGE is its first"),
	COMMAND("policy", "always|never|risky [LEVEL]", cmd_policy,
		"when the agent asks before acting: always, never, or risky from LEVEL (low, "
		"medium, high: the default) up"),
	COMMAND("analyzer", "llm|pattern|none", cmd_analyzer,
		"who rates each action's risk for /policy risky: the LLM, known patterns, or none"),
	COMMAND("rename", "TITLE", cmd_rename, "give the conversation a new title"),
	COMMAND("delete", "", slash_cmd_delete,
		"delete the conversation from the server, once you said y to its title"),
	COMMAND("ask", "QUESTION", cmd_ask,
		"ask the agent aside: the answer is a note here, never part of the conversation"),
	COMMAND("compact", "", cmd_compact,
		"condense the history the agent sees (the transcript keeps everything)"),
	COMMAND("goal", "OBJECTIVE|stop|resume", cmd_goal,
		"let the agent work toward OBJECTIVE round after round until a judge finds it "
		"done (asked first under a policy that confirms: the loop runs what it would ask "
		"about); stop or resume that loop"),
	COMMAND("model", "[PROFILE]", cmd_model,
		"list the server's LLM profiles, or run the conversation on PROFILE (the status "
		"line names the model)"),
};
const size_t server_cmd_bindings_count = sizeof server_cmd_bindings / sizeof *server_cmd_bindings;
