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
	struct op_call *next;
};

static const char *risk_words(enum security_risk r)
{
	return r == RISK_LOW ? "low" : r == RISK_MEDIUM ? "medium" : "high";
}

static void policy_args(const struct controller_op_args *in, struct rest_args *out)
{
	out->policy = in->policy;
	out->threshold = in->threshold;
}

static void policy_said(const struct op_call *call, const struct rest_result *r, struct buf *out)
{
	(void)r;
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
			   call->args.threshold == RISK_HIGH || call->args.threshold == RISK_ABSENT ||
					   call->args.threshold == RISK_UNKNOWN
				   ? "" : " or higher");
		break;
	}
}

static const struct op_row {
	const char *name;       /* "this server has no NAME" */
	const char *words;      /* "could not WORDS" */
	const char *conflict;   /* what a 409 means; NULL: "the conversation is busy" */
	enum rest_call rest;
	void (*args)(const struct controller_op_args *in, struct rest_args *out);
	void (*said)(const struct op_call *call, const struct rest_result *r, struct buf *out);
} ops[CONTROLLER_OP_COUNT] = {
	[CONTROLLER_OP_POLICY] = { "confirmation policy", "change the confirmation policy", NULL,
				   REST_SET_CONFIRMATION_POLICY, policy_args, policy_said },
};

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
		buf_printf(out, "this server has no %s", row->name);
		return;
	case REST_NOT_FOUND:
		buf_printf(out, "could not %s: the server no longer has this conversation",
			   row->words);
		return;
	case REST_CONFLICT:
		buf_printf(out, "could not %s: %s", row->words,
			   row->conflict ? row->conflict : "the conversation is busy");
		return;
	case REST_INVALID:
		buf_printf(out, "could not %s: the server refused the values given", row->words);
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
		buf_printf(out, "could not %s: the server failed (an internal error)", row->words);
	else
		buf_printf(out, "could not %s: the server refused it", row->words);
}

static void op_free(struct op_call *call)
{
	free(call->text);
	free(call);
}

static void op_answered(void *ctx, struct rest_result *r)
{
	struct op_call *call = ctx;
	struct controller *c = call->c;
	if (!c) {
		op_free(call);
		return;
	}
	for (struct op_call **p = &c->op_calls; *p; p = &(*p)->next) {
		if (*p == call) {
			*p = call->next;
			break;
		}
	}
	const struct op_row *row = &ops[call->op];
	struct buf words, clean;
	buf_init(&words);
	buf_init(&clean);
	struct controller_op_result res = { .op = call->op, .ok = r->outcome == REST_OK };
	if (res.ok)
		row->said(call, r, &words);
	else
		failure_words(c, row, r, &words);
	controller_clean(c, words.data ? words.data : "", words.len, &clean);
	res.words = buf_cstr(&clean);
	call->done(call->ctx, &res);
	buf_fini(&words);
	buf_fini(&clean);
	op_free(call);
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

	struct rest_server srv = {
		.loop = c->loop, .url = c->o->server, .api_key = c->api_key,
		.insecure = c->o->insecure,
	};
	struct rest_args ra = { .id = c->o->conversation_id };
	if (ops[op].args)
		ops[op].args(&call->args, &ra);
	if (rest_call(&srv, ops[op].rest, &ra, op_answered, call) != 0) {
		struct rest_response raw = { .status = 0, .error = "could not start the request" };
		struct rest_result r;
		rest_result_decode(ops[op].rest, &raw, &r);
		op_answered(call, &r);
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
