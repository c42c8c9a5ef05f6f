/* Branches (issue 25): rewind (navigate HEAD to an earlier event) and fork, asked by the
 * face and answered in words. The server's version comes first (/server_info): a fork from
 * an event on a server before 1.31 would silently fork everything, and a route the server
 * lacks is said with its version, never as an HTTP status. */
#include "controller_int.h"
#include "diagnose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum branch_step { STEP_VERSION, STEP_NAVIGATE, STEP_FORK };

/* One rewind or fork in flight; c is NULL once the controller is gone. */
struct ctl_branch {
	struct controller *c;
	enum branch_step step;
	bool fork;
	char *event_id;                 /* navigate: where to; fork: from (NULL: whole) */
	struct server_version version;
	controller_told_fn told;
	void *ctx;
	struct ctl_branch *next;
};

static void branch_unlink(struct controller *c, struct ctl_branch *b)
{
	for (struct ctl_branch **p = &c->branch_calls; *p; p = &(*p)->next) {
		if (*p == b) {
			*p = b->next;
			return;
		}
	}
}

static void branch_free(struct ctl_branch *b)
{
	free(b->event_id);
	free(b);
}

void ctl_branch_detach(struct controller *c)
{
	for (struct ctl_branch *b = c->branch_calls; b; b = b->next)
		b->c = NULL;
	c->branch_calls = NULL;
}

static void tell(struct ctl_branch *b, bool ok, const char *words, const char *fork_id)
{
	struct controller *c = b->c;
	branch_unlink(c, b);
	b->told(b->ctx, ok, words, fork_id);
	branch_free(b);
}

/* What the call is, in "this server has no …" and "could not …". */
static const char *what(const struct ctl_branch *b)
{
	if (!b->fork)
		return "rewind (navigate)";
	return b->event_id ? "fork from an event" : "fork";
}

/* The server's version for messages: "version 1.30.0", or "an unknown version". */
static void version_words(const struct ctl_branch *b, struct buf *out)
{
	if (b->version.text[0])
		buf_printf(out, "version %s", b->version.text);
	else
		buf_puts(out, "an unknown version");
}

/* A failure in words: the server's own words when it gave some (cleaned), else what
 * happened. */
static void failed(struct ctl_branch *b, const struct rest_result *r)
{
	struct controller *c = b->c;
	struct buf line, detail;
	buf_init(&line);
	buf_init(&detail);
	if (r->detail)
		controller_clean(c, r->detail, strlen(r->detail), &detail);
	switch (r->outcome) {
	case REST_UNSUPPORTED:
		buf_puts(&line, "this server (");
		version_words(b, &line);
		buf_printf(&line, ") has no %s", what(b));
		break;
	case REST_NOT_FOUND:
		if (!b->fork || b->event_id)
			buf_printf(&line, "could not %s: the server knows no such event or "
				   "conversation", what(b));
		else
			buf_printf(&line, "could not %s: the server knows no such conversation",
				   what(b));
		break;
	case REST_NO_ANSWER: {
		struct buf cause;
		buf_init(&cause);
		if (r->raw->error)
			controller_clean(c, r->raw->error, strlen(r->raw->error), &cause);
		buf_printf(&line, "could not %s: %s", what(b),
			   cause.len ? buf_cstr(&cause) : "no answer from the server");
		buf_fini(&cause);
		break;
	}
	case REST_AUTH: {
		struct diag_about about = ctl_about(c);
		diag_auth(&line, &about);
		break;
	}
	case REST_BAD_BODY:
		buf_printf(&line, "could not %s: the server's answer does not read (%s)", what(b),
			   r->err.message);
		break;
	default:
		buf_printf(&line, "could not %s: the server refused it", what(b));
		break;
	}
	if (detail.len && r->outcome != REST_AUTH && r->outcome != REST_UNSUPPORTED)
		buf_printf(&line, " (it said: %s)", buf_cstr(&detail));
	tell(b, false, buf_cstr(&line), NULL);
	buf_fini(&detail);
	buf_fini(&line);
}

static void branch_done(void *ctx, struct rest_result *r);

static void branch_send(struct ctl_branch *b, enum rest_call call, struct rest_args a)
{
	struct controller *c = b->c;
	struct rest_server srv = ctl_server(c);
	a.id = c->o->conversation_id;
	if (rest_call(&srv, call, &a, branch_done, b) != 0) {
		struct rest_response raw = { .status = 0, .error = "could not start the request" };
		struct rest_result res;
		rest_result_decode(call, &raw, &res);
		branch_done(b, &res);
		rest_result_fini(&res);
	}
}

/* The version is known (or could not be): the call itself, unless the server lacks it. */
static void after_version(struct ctl_branch *b)
{
	enum rest_call call = b->fork ? REST_FORK : REST_NAVIGATE;
	struct rest_args a = { .event_id = b->event_id };
	if (!rest_call_available(call, &a, &b->version)) {
		struct buf line;
		buf_init(&line);
		buf_puts(&line, "this server (");
		version_words(b, &line);
		if (b->fork && b->event_id && rest_call_available(call, NULL, &b->version))
			buf_puts(&line, ") cannot fork from an event (it would fork everything): "
				 "/fork with no item focused forks the whole conversation");
		else
			buf_printf(&line, ") has no %s", what(b));
		tell(b, false, buf_cstr(&line), NULL);
		buf_fini(&line);
		return;
	}
	b->step = b->fork ? STEP_FORK : STEP_NAVIGATE;
	branch_send(b, call, a);
}

static void navigated(struct ctl_branch *b, const struct rest_result *r)
{
	struct controller *c = b->c;
	const char *leaf = b->event_id;
	if (r->conversations.count == 1 && r->conversations.items[0].leaf_event_id)
		leaf = r->conversations.items[0].leaf_event_id;
	transcript_set_head(c->transcript, leaf, false, HEAD_NAVIGATED);
	ctl_changed(c);
	tell(b, true, "the server moved the conversation's head back; the later events stay on "
		      "the server as another branch", NULL);
}

static void forked(struct ctl_branch *b, const struct rest_result *r)
{
	struct controller *c = b->c;
	const char *id = r->conversations.count == 1 ? r->conversations.items[0].id : NULL;
	if (!id || !conversation_id_valid(id)) {
		tell(b, false, "could not fork: the server's answer names no conversation", NULL);
		return;
	}
	struct buf line;
	buf_init(&line);
	buf_printf(&line, "forked%s: the new conversation is %s",
		   b->event_id ? " from here" : "", id);
	(void)c;
	tell(b, true, buf_cstr(&line), id);
	buf_fini(&line);
}

static void branch_done(void *ctx, struct rest_result *r)
{
	struct ctl_branch *b = ctx;
	if (!b->c) {
		branch_free(b);
		return;
	}
	switch (b->step) {
	case STEP_VERSION:
		/* No version (a proxy, an old server without it): try, and say what comes. */
		if (r->outcome == REST_OK)
			b->version = r->version;
		after_version(b);
		return;
	case STEP_NAVIGATE:
		if (r->outcome == REST_OK)
			navigated(b, r);
		else
			failed(b, r);
		return;
	case STEP_FORK:
		if (r->outcome == REST_OK)
			forked(b, r);
		else
			failed(b, r);
		return;
	}
}

static bool branch_begin(struct controller *c, bool fork, const char *event_id,
			 controller_told_fn told, void *ctx)
{
	for (struct ctl_branch *b = c->branch_calls; b; b = b->next)
		if (b->fork == fork)
			return false;
	struct ctl_branch *b = xcalloc(1, sizeof *b);
	b->c = c;
	b->fork = fork;
	b->event_id = event_id ? xstrdup(event_id) : NULL;
	b->told = told;
	b->ctx = ctx;
	b->next = c->branch_calls;
	c->branch_calls = b;
	branch_send(b, REST_SERVER_INFO, (struct rest_args){ 0 });
	return true;
}

bool controller_navigate(struct controller *c, const char *event_id, controller_told_fn told,
			 void *ctx)
{
	if (!event_id)
		return false;
	return branch_begin(c, false, event_id, told, ctx);
}

bool controller_fork(struct controller *c, const char *from_event_id, controller_told_fn told,
		     void *ctx)
{
	return branch_begin(c, true, from_event_id, told, ctx);
}
