/* What the user asks the server to do to the conversation (the TUI's /policy …): one row per
 * operation — its REST call, its arguments and what the server's answer means in words.
 * Nothing here says an HTTP status: the outcome of the call is said as what happened. */
#include "controller_int.h"

#include <stdlib.h>
#include <string.h>

/* One operation in flight; c is NULL once the controller is gone (done never runs). */
struct op_call {
	struct controller *c;
	enum controller_op op;
	struct controller_op_args args;
	char *text;                     /* args.text, owned */
	controller_op_fn done;
	void *ctx;
	bool unsupported;               /* the server said the route is missing (a 405…) */
	struct op_call *next;
};

static const char *risk_words(enum risk_threshold r)
{
	return r == RISK_THRESHOLD_LOW ? "low" : r == RISK_THRESHOLD_MEDIUM ? "medium" : "high";
}

static void policy_said(struct controller *c, const struct op_call *call,
			const struct rest_result *r, struct buf *out)
{
	(void)r;
	c->policy_known = true;
	c->confirmation = call->args.policy;
	switch (call->args.policy) {
	case CONFIRMATION_POLICY_ALWAYS:
		buf_puts(out, "the server now asks before every action");
		break;
	case CONFIRMATION_POLICY_NEVER:
		buf_puts(out, "the server now runs every action without asking");
		break;
	case CONFIRMATION_POLICY_RISKY:
		buf_printf(out, "the server now asks before actions of %s risk%s and of unknown risk",
			   risk_words(call->args.threshold),
			   call->args.threshold == RISK_THRESHOLD_HIGH ? "" : " or higher");
		break;
	}
}

static void analyzer_said(struct controller *c, const struct op_call *call,
			  const struct rest_result *r, struct buf *out)
{
	static const char *const words[] = {
		[SECURITY_ANALYZER_NONE] = "the server no longer rates the actions' risk (no "
					   "security analyzer)",
		[SECURITY_ANALYZER_LLM] = "the server now has the LLM rate each action's risk",
		[SECURITY_ANALYZER_PATTERN] = "the server now rates each action's risk by known "
					      "patterns",
	};
	(void)c, (void)r;
	buf_puts(out, words[call->args.analyzer]);
}

/* The server keeps the title stripped of blanks at its ends: so does the status line. */
static void rename_said(struct controller *c, const struct op_call *call,
			const struct rest_result *r, struct buf *out)
{
	(void)r;
	const char *t = call->text ? call->text : "";
	t += strspn(t, " \t\n");
	size_t n = strlen(t);
	while (n && strchr(" \t\n", t[n - 1]))
		n--;
	struct buf clean;
	buf_init(&clean);
	controller_clean(c, t, n, &clean);
	free(c->title);
	c->title = buf_steal(&clean);
	ctl_changed(c);
	buf_printf(out, "renamed: the conversation is now “%s”", c->title);
}

static void delete_said(struct controller *c, const struct op_call *call,
			const struct rest_result *r, struct buf *out)
{
	(void)c, (void)r;
	buf_printf(out, "the server deleted “%s”", call->text ? call->text : "");
}

static void ask_said(struct controller *c, const struct op_call *call,
		     const struct rest_result *r, struct buf *out)
{
	(void)c, (void)call;
	buf_puts(out, r->answer ? r->answer : "");
}

static void condense_said(struct controller *c, const struct op_call *call,
			  const struct rest_result *r, struct buf *out)
{
	(void)c, (void)call, (void)r;
	buf_puts(out, "the server condensed the history the agent sees (the transcript keeps "
		      "every event)");
}

static void goal_said(struct controller *c, const struct op_call *call,
		      const struct rest_result *r, struct buf *out)
{
	(void)c, (void)r;
	buf_printf(out, "goal set: the agent works toward “%s” until a judge finds it done",
		   call->text ? call->text : "");
}

static void goal_stop_said(struct controller *c, const struct op_call *call,
			   const struct rest_result *r, struct buf *out)
{
	(void)c, (void)call, (void)r;
	buf_puts(out, "goal stopped: no further round starts (a run under way goes to its end)");
}

static void goal_resume_said(struct controller *c, const struct op_call *call,
			     const struct rest_result *r, struct buf *out)
{
	(void)c, (void)call, (void)r;
	buf_puts(out, "goal resumed: the agent works toward it again");
}

/* The status line's model comes with the server's state update of the agent (controller.c
 * set_agent), not from a list that may be stale (upstream-25-26 2.11). */
static void model_said(struct controller *c, const struct op_call *call,
		       const struct rest_result *r, struct buf *out)
{
	(void)c, (void)r;
	buf_printf(out, "the conversation now runs on the LLM profile “%s”", call->text);
}

static void models_said(struct controller *c, const struct op_call *call,
			const struct rest_result *r, struct buf *out)
{
	(void)call;
	const struct profile_list *l = &r->profiles;
	if (!l->count) {
		buf_puts(out, "the server has no LLM profiles");
		return;
	}
	buf_puts(out, "LLM profiles:");
	for (size_t i = 0; i < l->count; i++) {
		const struct llm_profile *p = &l->llms[i];
		buf_puts(out, i ? ", " : " ");
		controller_clean(c, p->name ? p->name : "", p->name ? strlen(p->name) : 0, out);
		if (p->model && *p->model) {
			buf_puts(out, " (");
			controller_clean(c, p->model, strlen(p->model), out);
			buf_puts(out, ")");
		}
		if (l->active && p->name && !strcmp(l->active, p->name))
			buf_puts(out, " [the server's default]");
	}
	buf_puts(out, " — /model PROFILE switches");
}

void ctl_op_fini(struct controller *c)
{
	free(c->model);
	c->model = NULL;
}

static const struct op_row {
	const char *name;       /* "this server has no NAME" */
	const char *words;      /* "could not WORDS" */
	const char *conflict;   /* what a 409 means; NULL: "the conversation is busy" */
	const char *refused;    /* what a 400 means; NULL: the server's own words */
	enum rest_call rest;
	void (*said)(struct controller *c, const struct op_call *call,
		     const struct rest_result *r, struct buf *out);
} ops[CONTROLLER_OP_COUNT] = {
	[CONTROLLER_OP_POLICY] = { "confirmation policy", "change the confirmation policy", NULL,
				   NULL, REST_SET_CONFIRMATION_POLICY, policy_said },
	[CONTROLLER_OP_RENAME] = { "renaming", "rename the conversation", NULL, NULL, REST_RENAME,
				   rename_said },
	[CONTROLLER_OP_DELETE] = { "deleting", "delete the conversation", NULL, NULL, REST_DELETE,
				   delete_said },
	[CONTROLLER_OP_ASK] = { "asking aside", "ask the agent aside", NULL, NULL, REST_ASK_AGENT,
				ask_said },
	[CONTROLLER_OP_COMPACT] = { "compacting (condense)", "compact the conversation",
				    "the agent is busy", NULL, REST_CONDENSE, condense_said },
	[CONTROLLER_OP_GOAL] = { "goals", "set the goal",
				 "a run or a goal is already going (/goal stop, or wait)", NULL,
				 REST_GOAL_START, goal_said },
	[CONTROLLER_OP_GOAL_STOP] = { "goals", "stop the goal", NULL, NULL, REST_GOAL_STOP,
				      goal_stop_said },
	[CONTROLLER_OP_GOAL_RESUME] = { "goals", "resume the goal",
					"a run or a goal is already going",
					"there is no goal to resume (none was set, or it ended)",
					REST_GOAL_RESUME, goal_resume_said },
	[CONTROLLER_OP_MODEL] = { "LLM profile switching", "switch the model", NULL, NULL,
				  REST_SWITCH_PROFILE, model_said },
	[CONTROLLER_OP_ANALYZER] = { "security analyzer", "set the security analyzer", NULL, NULL,
				     REST_SET_SECURITY_ANALYZER, analyzer_said },
	[CONTROLLER_OP_MODELS] = { "LLM profiles", "list the LLM profiles", NULL, NULL,
				   REST_LIST_LLM_PROFILES, models_said },
};

/* The server's own words about a refusal or a failure (cleaned), after ": "; nothing when
 * it gave none. */
static void server_words(struct controller *c, const struct rest_result *r, struct buf *out)
{
	if (!r->detail || !*r->detail)
		return;
	size_t n = strlen(r->detail);
	buf_puts(out, ": the server says “");
	controller_clean(c, r->detail, n > 200 ? 200 : n, out);
	buf_puts(out, n > 200 ? "…”" : "”");
}

/* Why op failed, in words: what the outcome means, never a status code alone. */
static void failure_words(struct controller *c, const struct op_row *row,
			  const struct rest_result *r, struct buf *out)
{
	struct diag_about about = ctl_about(c);
	switch (r->outcome) {
	case REST_AUTH:
		diag_auth(out, &about);
		return;
	case REST_UNSUPPORTED:
		if (c->server_version.known || c->server_version.text[0])
			buf_printf(out, "this server (version %s) has no %s", c->server_version.text,
				   row->name);
		else
			buf_printf(out, "this server has no %s", row->name);
		return;
	case REST_NOT_FOUND:
		/* a bare "Not Found" is the conversation; other words name what is missing */
		if (r->detail && *r->detail && strcmp(r->detail, "Not Found") != 0) {
			buf_printf(out, "could not %s", row->words);
			server_words(c, r, out);
		} else {
			buf_printf(out, "could not %s: the server no longer has this conversation",
				   row->words);
		}
		return;
	case REST_CONFLICT:
		buf_printf(out, "could not %s: %s", row->words,
			   row->conflict ? row->conflict : "the conversation is busy");
		return;
	case REST_INVALID:
		buf_printf(out, "could not %s: the server refused the values given", row->words);
		return;
	case REST_REFUSED:
		buf_printf(out, "could not %s", row->words);
		if (row->refused)
			buf_printf(out, ": %s", row->refused);
		else
			server_words(c, r, out);
		return;
	case REST_NO_ANSWER:
		buf_printf(out, "could not %s: %s", row->words,
			   r->raw->error ? r->raw->error : "no answer from the server");
		return;
	case REST_BAD_BODY:
		buf_printf(out, "could not %s: the server's answer could not be read", row->words);
		return;
	case REST_HTTP_ERROR:
	case REST_OK:
		break;
	}
	if (r->raw->status >= 500)
		buf_printf(out, "could not %s: the server failed", row->words);
	else
		buf_printf(out, "could not %s: the server refused it", row->words);
	server_words(c, r, out);
}

static void op_free(struct op_call *call)
{
	free(call->text);
	free(call);
}

/* Takes call off the controller's list. */
static void op_unlink(struct controller *c, struct op_call *call)
{
	for (struct op_call **p = &c->op_calls; *p; p = &(*p)->next) {
		if (*p == call) {
			*p = call->next;
			break;
		}
	}
}

/* Says r's outcome to the caller and frees call. */
static void op_report(struct controller *c, struct op_call *call, const struct rest_result *r)
{
	const struct op_row *row = &ops[call->op];
	struct buf words, clean;
	buf_init(&words);
	buf_init(&clean);
	struct controller_op_result res = { .op = call->op, .ok = r->outcome == REST_OK };
	if (res.ok && call->op == CONTROLLER_OP_MODELS)
		res.profiles = &r->profiles;
	if (res.ok)
		row->said(c, call, r, &words);
	else
		failure_words(c, row, r, &words);
	controller_clean(c, words.data ? words.data : "", words.len, &clean);
	res.words = buf_cstr(&clean);
	struct buf text;
	buf_init(&text);
	if (call->text)
		controller_clean(c, call->text, strlen(call->text), &text);
	res.text = buf_cstr(&text);
	call->done(call->ctx, &res);
	buf_fini(&text);
	buf_fini(&words);
	buf_fini(&clean);
	op_free(call);
}

/* Says what a 404 meant: a route this server lacks (the server said so, or its version is
 * older than the route's first release) or the conversation gone. */
static void report_missing(struct controller *c, struct op_call *call, bool unsupported)
{
	struct rest_response raw = { .status = 404 };
	struct rest_result r = { .call = ops[call->op].rest, .raw = &raw };
	r.outcome = unsupported ? REST_UNSUPPORTED : REST_NOT_FOUND;
	rest_result_by_version(&r, NULL, &c->server_version);  /* a known version decides */
	op_report(c, call, &r);
}

/* The version /server_info gives decides what the 404 meant and names the server. */
static void version_answered(void *ctx, struct rest_result *r)
{
	struct op_call *call = ctx;
	struct controller *c = call->c;
	if (!c) {
		op_free(call);
		return;
	}
	op_unlink(c, call);
	if (r->outcome == REST_OK)
		c->server_version = r->version;
	report_missing(c, call, call->unsupported);
}

static void op_answered(void *ctx, struct rest_result *r)
{
	struct op_call *call = ctx;
	struct controller *c = call->c;
	if (!c) {
		op_free(call);
		return;
	}
	/* A bare 404 is also what a server without the route answers (upstream-25-26 1.3). */
	bool bare = !r->detail || !strcmp(r->detail, "Not Found");
	if (r->outcome == REST_UNSUPPORTED || (r->outcome == REST_NOT_FOUND && bare)) {
		call->unsupported = r->outcome == REST_UNSUPPORTED;
		struct rest_server srv = ctl_server(c);
		if (!c->server_version.text[0] &&
		    rest_call(&srv, REST_SERVER_INFO, NULL, version_answered, call) == 0)
			return;
		op_unlink(c, call);
		report_missing(c, call, call->unsupported);
		return;
	}
	op_unlink(c, call);
	op_report(c, call, r);
}

bool controller_op(struct controller *c, enum controller_op op, const struct controller_op_args *a,
		   controller_op_fn done, void *ctx)
{
	static const struct controller_op_args none;
	if ((unsigned)op >= CONTROLLER_OP_COUNT)
		return false;
	for (struct op_call *busy = c->op_calls; busy; busy = busy->next)
		if (busy->op == op)
			return false;
	struct op_call *call = xcalloc(1, sizeof *call);
	call->c = c;
	call->op = op;
	call->args = a ? *a : none;
	call->text = call->args.text ? xstrdup(call->args.text) : NULL;
	call->args.text = call->text;
	call->done = done;
	call->ctx = ctx;
	call->next = c->op_calls;
	c->op_calls = call;

	struct rest_server srv = ctl_server(c);
	/* each call's body reads only its own fields */
	struct rest_args ra = {
		.id = c->o->conversation_id, .policy = call->args.policy,
		.threshold = call->args.threshold, .analyzer = call->args.analyzer,
		.title = call->text, .text = call->text, .profile = call->text,
	};
	if (rest_call(&srv, ops[op].rest, &ra, op_answered, call) != 0) {
		struct rest_response raw = { .status = 0, .error = "could not start the request" };
		struct rest_result r;
		rest_result_decode(ops[op].rest, &raw, &r);
		op_unlink(c, call);
		op_report(c, call, &r);
		rest_result_fini(&r);
	}
	return true;
}

void ctl_op_detach(struct controller *c)
{
	for (struct op_call *call = c->op_calls; call; call = call->next)
		call->c = NULL;
	c->op_calls = NULL;
}
