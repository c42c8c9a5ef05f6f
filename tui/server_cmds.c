/* server_cmds: the commands that ask the server to act on the conversation on screen —
 * /policy, /rename, /delete (after a question naming the title), /ask (the answer a side
 * note of this client, never part of the conversation), /compact, /goal (asked about first
 * under a policy that confirms), /model; each says what the server did once it answered. */
#include "bindings.h"
#include "board_view.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

void server_cmd_said(void *ctx, const struct controller_op_result *r)
{
	struct conv *v = ctx;
	if (v == v->u->cur)
		ui_notice(&v->u->ui, "%s", r->words);
	else
		ui_notice(&v->u->ui, "%s: %s", conv_name(v), r->words);
}

void server_cmd_start(struct conv *v, enum controller_op op, const struct controller_op_args *a,
		      controller_op_fn done, const char *asking, const char *busy)
{
	ui_notice(&v->u->ui, "%s", controller_op(v->ctl, op, a, done, v) ? asking : busy);
}

/* server_cmd_start for the conversation on screen. */
static void start(struct tui *u, enum controller_op op, const struct controller_op_args *a,
		  controller_op_fn done, const char *asking, const char *busy)
{
	server_cmd_start(u->cur, op, a, done, asking, busy);
}

char *server_cmd_cleaned(struct conv *v, const char *s)
{
	struct buf b;
	buf_init(&b);
	if (s)
		controller_clean(v->ctl, s, strlen(s), &b);
	char *out = buf_steal(&b);
	return out ? out : xstrdup("");
}

/* Whether the word at *s (up to a blank) is w; moves *s past it and the blanks after. */
static bool word_is(const char **s, const char *w)
{
	size_t n = strcspn(*s, " \t\n");
	if (n != strlen(w) || strncasecmp(*s, w, n) != 0)
		return false;
	*s += n;
	*s += strspn(*s, " \t\n");
	return true;
}

/* The index of the word at *s among words (n of them), *s moved past it; -1: none of them. */
static int word_pick(const char **s, const char *const *words, int n)
{
	for (int i = 0; i < n; i++)
		if (word_is(s, words[i]))
			return i;
	return -1;
}

static void cmd_policy(struct tui *u, const char *arg)
{
	static const char *const policies[] = {
		[CONFIRMATION_POLICY_NEVER] = "never", [CONFIRMATION_POLICY_RISKY] = "risky",
		[CONFIRMATION_POLICY_ALWAYS] = "always",
	};
	static const char *const levels[] = {
		[RISK_THRESHOLD_HIGH] = "high", [RISK_THRESHOLD_MEDIUM] = "medium",
		[RISK_THRESHOLD_LOW] = "low",
	};
	const char *s = arg;
	int policy = word_pick(&s, policies, 3);
	int level = policy == CONFIRMATION_POLICY_RISKY ? word_pick(&s, levels, 3) : -1;
	if (policy < 0 || *s) {
		ui_notice(&u->ui, "/policy takes always, never, or risky [low|medium|high]");
		return;
	}
	struct controller_op_args a = {
		.policy = (enum confirmation_policy)policy,
		.threshold = level < 0 ? RISK_THRESHOLD_HIGH : (enum risk_threshold)level,
	};
	start(u, CONTROLLER_OP_POLICY, &a, server_cmd_said,
	      "asking the server to change the confirmation policy…",
	      "a policy change is already on its way to the server");
}

static void cmd_analyzer(struct tui *u, const char *arg)
{
	static const char *const analyzers[] = {
		[SECURITY_ANALYZER_NONE] = "none", [SECURITY_ANALYZER_LLM] = "llm",
		[SECURITY_ANALYZER_PATTERN] = "pattern",
	};
	const char *s = arg;
	int analyzer = word_pick(&s, analyzers, 3);
	if (analyzer < 0 || *s) {
		ui_notice(&u->ui, "/analyzer takes llm, pattern or none");
		return;
	}
	struct controller_op_args a = { .analyzer = (enum security_analyzer)analyzer };
	start(u, CONTROLLER_OP_ANALYZER, &a, server_cmd_said,
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
	start(u, CONTROLLER_OP_RENAME, &a, server_cmd_said, "renaming…",
	      "a rename is already on its way");
}

/* ------------------------------------------------------------------ /delete */

/* The conversation is gone from the server: closed here (the last one open: the board). */
static void deleted(void *ctx, const struct controller_op_result *r)
{
	struct conv *v = ctx;
	struct tui *u = v->u;
	if (!r->ok) {
		server_cmd_said(ctx, r);
		return;
	}
	char *words = xstrdup(r->words);
	if (tui_close(u, v))
		ui_notice(&u->ui, "%s", words);
	else
		ui_notice(&u->ui, "%s (Ctrl-G: the board; /quit leaves)", words);
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

struct editor *answer_editor(struct tui *u)
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
	.editor = answer_editor,
	.prefix = question_prefix,
	.close = question_close,
};

void slash_cmd_delete(struct tui *u, const char *arg)
{
	(void)arg;
	question_open(u, CONTROLLER_OP_DELETE, NULL);
}

void server_cmds_fini(struct tui *u)
{
	free(u->asked_text);
	u->asked_text = NULL;
	slash_new_fini(u);
	slash_model_fini(u);
}

/* ------------------------------------------------------------------ /ask */

/* The answer as a note of this client in the conversation that asked: shown, never sent. */
static void answered(void *ctx, const struct controller_op_result *r)
{
	struct conv *v = ctx;
	if (!r->ok) {
		server_cmd_said(ctx, r);
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
	start(u, CONTROLLER_OP_COMPACT, NULL, server_cmd_said,
	      "asking the server to condense the history (one LLM call)…",
	      "already compacting…");
}

static void start_goal(struct tui *u, enum controller_op op, const char *objective)
{
	if (op == CONTROLLER_OP_GOAL_RESUME)
		start(u, op, NULL, server_cmd_said, "resuming the goal…", "already resuming the goal…");
	else
		start(u, op, &(struct controller_op_args){ .text = objective }, server_cmd_said,
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
		start(u, CONTROLLER_OP_GOAL_STOP, NULL, server_cmd_said, "stopping the goal…",
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
	if (*arg)
		slash_model_switch(u->cur, arg);
	else
		slash_model_list(u);
}

const struct binding server_cmd_bindings[] = {
	COMMAND("new", "[--title \"TITLE\"] [MESSAGE]", slash_cmd_new,
		"start a conversation (with an agent profile of the server: a choice when it has "
		"several) and show it; MESSAGE is its first, TITLE its title (else the server's)"),
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
		"pick one of the server's LLM profiles by its digit, or run the conversation on "
		"PROFILE (the status line names the model)"),
};
const size_t server_cmd_bindings_count = sizeof server_cmd_bindings / sizeof *server_cmd_bindings;
