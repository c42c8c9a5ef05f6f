/* server_cmds: the commands that ask the server to act on the conversation on screen
 * (/policy …); each says what the server did once it answered. */
#include "bindings.h"

#include <string.h>

/* The server's answer: what it did, or why not, as a notice. */
static void op_done(void *ctx, const struct controller_op_result *r)
{
	struct tui *u = ctx;
	ui_notice(&u->ui, "%s", r->words);
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
	if (controller_op(u->cur->ctl, CONTROLLER_OP_POLICY, &a, op_done, u))
		ui_notice(&u->ui, "asking the server to change the confirmation policy…");
	else
		ui_notice(&u->ui, "a policy change is already on its way to the server");
}

const struct binding server_cmd_bindings[] = {
	COMMAND("policy", "always|never|risky [LEVEL]", cmd_policy,
		"when the agent asks before acting: always, never, or risky from LEVEL (low, "
		"medium, high: the default) up"),
};
const size_t server_cmd_bindings_count = sizeof server_cmd_bindings / sizeof *server_cmd_bindings;
