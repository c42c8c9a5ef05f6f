/* server_cmds: the commands that ask the server to act on the conversation on screen —
 * /policy, /rename, /delete (after a question naming the title), /ask (the answer a side
 * note of this client, never part of the conversation), /compact, /goal, /model; each says
 * what the server did once it answered. */
#include "bindings.h"
#include "board_view.h"

#include <stdlib.h>
#include <string.h>

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

static void delete_close(struct tui *u)
{
	layers_pop(&u->layers, &delete_layer);
	u->deleting = NULL;
	ui_schedule_frame(&u->ui);
}

static enum layer_key delete_key(struct tui *u, const struct key_event *ev)
{
	struct conv *v = u->deleting;
	delete_close(u);
	if (ev->kind != KEYS_CHAR || ev->mods || (ev->cp != 'y' && ev->cp != 'Y')) {
		ui_notice(&u->ui, "kept: nothing was deleted");
		return LAYER_KEY_TAKEN;
	}
	struct controller_op_args a = { .text = conv_name(v) };
	start(u, CONTROLLER_OP_DELETE, &a, deleted, "deleting…", "already deleting…");
	return LAYER_KEY_TAKEN;
}

static struct editor *delete_editor(struct tui *u)
{
	editor_clear(&u->answer);
	return &u->answer;
}

static const char *delete_prefix(struct tui *u, char *buf, size_t size)
{
	snprintf(buf, size, "delete “%s” from the server for good? y deletes, any other key keeps "
		 "it ", u->deleting ? conv_name(u->deleting) : "");
	return buf;
}

const struct layer delete_layer = {
	.name = "delete",
	.key = delete_key,
	.editor = delete_editor,
	.prefix = delete_prefix,
	.close = delete_close,
};

void slash_cmd_delete(struct tui *u, const char *arg)
{
	(void)arg;
	u->deleting = u->cur;
	layers_push(&u->layers, &delete_layer);
	ui_schedule_frame(&u->ui);
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
	struct item_spec spec = {
		.kind = ITEM_NOTICE, .seq = -1, .title = "aside (not part of the conversation)",
		.text = r->words, .text_len = strlen(r->words),
	};
	transcript_add_event(v->t, &spec);
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

static void cmd_goal(struct tui *u, const char *arg)
{
	const char *s = arg;
	if (!*arg) {
		ui_notice(&u->ui, "/goal takes an objective, or stop, or resume");
		return;
	}
	if (word_is(&s, "stop") && !*s)
		start(u, CONTROLLER_OP_GOAL_STOP, NULL, op_done, "stopping the goal…",
		      "already stopping the goal…");
	else if ((s = arg, word_is(&s, "resume")) && !*s)
		start(u, CONTROLLER_OP_GOAL_RESUME, NULL, op_done, "resuming the goal…",
		      "already resuming the goal…");
	else
		start(u, CONTROLLER_OP_GOAL, &(struct controller_op_args){ .text = arg }, op_done,
		      "setting the goal…", "a goal is already on its way to the server");
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
	COMMAND("policy", "always|never|risky [LEVEL]", cmd_policy,
		"when the agent asks before acting: always, never, or risky from LEVEL (low, "
		"medium, high: the default) up"),
	COMMAND("rename", "TITLE", cmd_rename, "give the conversation a new title"),
	COMMAND("delete", "", slash_cmd_delete,
		"delete the conversation from the server, once you said y to its title"),
	COMMAND("ask", "QUESTION", cmd_ask,
		"ask the agent aside: the answer is a note here, never part of the conversation"),
	COMMAND("compact", "", cmd_compact,
		"condense the history the agent sees (the transcript keeps everything)"),
	COMMAND("goal", "OBJECTIVE|stop|resume", cmd_goal,
		"let the agent work toward OBJECTIVE round after round until a judge finds it "
		"done; stop or resume that loop"),
	COMMAND("model", "[PROFILE]", cmd_model,
		"list the server's LLM profiles, or run the conversation on PROFILE (the status "
		"line names the model)"),
};
const size_t server_cmd_bindings_count = sizeof server_cmd_bindings / sizeof *server_cmd_bindings;
