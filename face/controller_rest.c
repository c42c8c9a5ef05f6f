/* The user's controls: REST calls about the conversation, and sending messages. */
#include "controller_int.h"
#include "exit_code.h"
#include "diagnose.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ REST controls */

/* The controller's REST calls, one row each in calls[]. */
enum ctl_call_kind {
	CALL_PAUSE,
	CALL_INTERRUPT,
	CALL_RESUME,
	CALL_CONFIRM,
	CALL_REJECT,
	CALL_POLICY,
	CALL_TITLE,
	CALL_COUNT,
	CALL_SOCKET_CHECK,
};

/* One REST call in flight; c is NULL once the controller is gone. */
struct ctl_call {
	struct controller *c;
	enum ctl_call_kind kind;
	char *then_send;                /* a message to send once this call succeeded */
	bool then_accept;               /* accept the pending actions once this call succeeded */
	bool auto_answer;               /* --on-confirm accept|reject: a failure ends the run */
	struct ctl_call *next;
};

static void call_free(struct ctl_call *call)
{
	free(call->then_send);
	free(call);
}

static void control_done(struct controller *c, struct ctl_call *call, const struct rest_result *r);
static void title_done(struct controller *c, struct ctl_call *call, const struct rest_result *r);
static void count_done(struct controller *c, struct ctl_call *call, const struct rest_result *r);
static void socket_check_done(struct controller *c, struct ctl_call *call,
			      const struct rest_result *r);

static const struct ctl_call_row {
	const char *what;               /* its name in messages (an error item's title) */
	const char *words;              /* what the user asked for, for "could not …" */
	/* calls of one group are coalesced while one is in flight: allowing, rejecting and
	 * changing the policy are one group, the first answer in flight wins */
	enum ctl_call_kind group;
	enum rest_call rest;
	void (*done)(struct controller *c, struct ctl_call *call, const struct rest_result *r);
} calls[] = {
	[CALL_PAUSE] = { "pause", "pause the agent", CALL_PAUSE, REST_PAUSE, control_done },
	[CALL_INTERRUPT] = { "interrupt", "interrupt the agent", CALL_INTERRUPT, REST_INTERRUPT,
			     control_done },
	[CALL_RESUME] = { "resume", "resume the agent", CALL_RESUME, REST_RUN, control_done },
	[CALL_CONFIRM] = { "confirm", "allow the waiting actions", CALL_CONFIRM,
			   REST_RESPOND_TO_CONFIRMATION, control_done },
	[CALL_REJECT] = { "reject", "reject the waiting actions", CALL_CONFIRM,
			  REST_RESPOND_TO_CONFIRMATION, control_done },
	[CALL_POLICY] = { "confirmation policy", "change the confirmation policy", CALL_CONFIRM,
			  REST_SET_CONFIRMATION_POLICY, control_done },
	[CALL_TITLE] = { "title", "title", CALL_TITLE, REST_GET_CONVERSATION, title_done },
	/* events/count at the start: the TUI opens on the tail */
	[CALL_COUNT] = { "count", "count", CALL_COUNT, REST_COUNT_EVENTS, count_done },
	/* the conversation lookup after the socket's 404 */
	[CALL_SOCKET_CHECK] = { "socket check", "socket check", CALL_SOCKET_CHECK,
				REST_GET_CONVERSATION, socket_check_done },
};

/* A call answered with an error or not at all: a refused key ends the run at once, whatever
 * the call (the socket would only find out later, or wait for an auth timeout); the title
 * is cosmetic and fails silently; anything else is one error item. */
static void call_failed(struct controller *c, struct ctl_call *call, const struct rest_result *r)
{
	const struct ctl_call_row *row = &calls[call->kind];
	struct diag_about about = ctl_about(c);
	const struct rest_response *raw = r->raw;
	struct buf line;
	if (c->finished)
		return;
	buf_init(&line);
	if (r->outcome == REST_AUTH) {
		diag_auth(&line, &about);
		controller_fail(c, buf_cstr(&line), EXIT_AUTH);
	} else if (call->kind == CALL_TITLE) {
		/* nothing: the status line shows the id instead */
	} else if (call->then_accept && r->outcome == REST_UNSUPPORTED) {
		buf_printf(&line, "this server cannot change the confirmation policy (HTTP %d); "
			   "the actions still wait", raw->status);
		ctl_add_error_item(c, row->what, buf_cstr(&line));
	} else {
		buf_printf(&line, "could not %s: ", row->words);
		if (r->outcome == REST_NO_ANSWER)
			buf_puts(&line, raw->error ? raw->error : "no answer from the server");
		else
			buf_printf(&line, "the server answered HTTP %d %.*s", raw->status,
				   (int)(raw->body_len > 200 ? 200 : raw->body_len),
				   raw->body ? raw->body : "");
		/* --on-confirm's answer failed: the actions would wait for nobody (exit 1). */
		if (call->auto_answer)
			controller_fail(c, buf_cstr(&line), EXIT_RUNTIME);
		else
			ctl_add_error_item(c, row->what, buf_cstr(&line));
	}
	buf_fini(&line);
}

/* A control (pause, interrupt, resume, an answer, the policy): what waited for it follows. */
static void control_done(struct controller *c, struct ctl_call *call, const struct rest_result *r)
{
	if (r->outcome != REST_OK) {
		if (call->kind == CALL_INTERRUPT)
			c->interrupt_asked = false;
		call_failed(c, call, r);
		if (call->then_send)
			CTL_SINKS(c, unsent, call->then_send);
	} else if (call->then_send) {
		controller_send(c, call->then_send);
	} else if (call->then_accept) {
		controller_confirm(c, true, NULL);
	}
}

/* The conversation's title for the status line; a body that does not read leaves the id. */
static void title_done(struct controller *c, struct ctl_call *call, const struct rest_result *r)
{
	if (r->outcome != REST_OK && r->outcome != REST_BAD_BODY) {
		call_failed(c, call, r);
		return;
	}
	const struct conversation_page *p = &r->conversations;
	if (r->outcome == REST_OK && p->count == 1 && p->items[0].model && !c->model) {
		c->model = ctl_cleaned(c, p->items[0].model);
		ctl_changed(c);
	}
	if (r->outcome == REST_OK && p->count == 1 && p->items[0].title) {
		struct buf t;
		buf_init(&t);
		controller_clean(c, p->items[0].title, strlen(p->items[0].title), &t);
		free(c->title);
		c->title = buf_steal(&t);
		ctl_changed(c);
	}
}

static void rest_done(void *ctx, struct rest_result *r)
{
	struct ctl_call *call = ctx;
	struct controller *c = call->c;
	if (!c) {
		call_free(call);
		return;
	}
	for (struct ctl_call **p = &c->rest_calls; *p; p = &(*p)->next) {
		if (*p == call) {
			*p = call->next;
			break;
		}
	}
	calls[call->kind].done(c, call, r);
	call_free(call);
}

void ctl_rest_detach(struct controller *c)
{
	for (struct ctl_call *call = c->rest_calls; call; call = call->next)
		call->c = NULL;
	c->rest_calls = NULL;
}

/* A new call of kind, in flight until its answer. */
static struct ctl_call *call_new(struct controller *c, enum ctl_call_kind kind)
{
	struct ctl_call *call = xcalloc(1, sizeof *call);
	call->c = c;
	call->kind = kind;
	call->next = c->rest_calls;
	c->rest_calls = call;
	return call;
}

/* A new call of kind, or NULL while one of its group is in flight: a burst of Esc is one
 * interrupt, not 200. */
static struct ctl_call *call_begin(struct controller *c, enum ctl_call_kind kind)
{
	for (struct ctl_call *busy = c->rest_calls; busy; busy = busy->next)
		if (calls[busy->kind].group == calls[kind].group)
			return NULL;
	return call_new(c, kind);
}

struct rest_server ctl_server(const struct controller *c)
{
	return (struct rest_server){
		.loop = c->loop, .url = c->o->server, .api_key = c->api_key,
		.insecure = c->o->insecure,
	};
}

/* Sends the call's REST call with a: one that did not start fails like one unanswered. */
static bool call_start(struct controller *c, struct ctl_call *call, struct rest_args a)
{
	struct rest_server srv = ctl_server(c);
	enum rest_call rest = calls[call->kind].rest;
	a.id = c->o->conversation_id;
	if (rest_call(&srv, rest, &a, rest_done, call) != 0) {
		struct rest_response raw = {.status = 0, .error = "could not start the request"};
		struct rest_result r;
		rest_result_decode(rest, &raw, &r);
		rest_done(call, &r);
		rest_result_fini(&r);
	}
	return true;
}

/* The answer to the conversation lookup after the socket's 404: the conversation is there
 * (a server without the session socket) or it is not. */
static void socket_check_done(struct controller *c, struct ctl_call *call,
			      const struct rest_result *r)
{
	struct diag_about about = ctl_about(c);
	struct buf line;
	(void)call;
	if (c->finished)
		return;
	buf_init(&line);
	if (r->outcome == REST_OK || r->outcome == REST_BAD_BODY) {
		diag_no_session_socket(&line, &about);
		controller_fail(c, buf_cstr(&line), EXIT_RUNTIME);
	} else if (r->outcome == REST_AUTH) {
		diag_auth(&line, &about);
		controller_fail(c, buf_cstr(&line), EXIT_AUTH);
	} else {
		diag_not_found(&line, &about);
		controller_fail(c, buf_cstr(&line), EXIT_NOT_FOUND);
	}
	buf_fini(&line);
}

void ctl_check_socket(struct controller *c)
{
	struct ctl_call *call = call_begin(c, CALL_SOCKET_CHECK);
	if (call)
		call_start(c, call, (struct rest_args){ 0 });
}

/* The log's length: the socket resumes a window before its end. Any failure but a refused
 * key (a server without events/count answers 404) opens on the whole history, as before. */
static void count_done(struct controller *c, struct ctl_call *call, const struct rest_result *r)
{
	(void)call;
	if (c->finished)
		return;
	if (r->outcome == REST_AUTH) {
		struct diag_about about = ctl_about(c);
		struct buf line;
		buf_init(&line);
		diag_auth(&line, &about);
		controller_fail(c, buf_cstr(&line), EXIT_AUTH);
		buf_fini(&line);
		return;
	}
	/* The socket replays a screen's tail, which is all the first frame shows; the rest of
	 * the window is paged in after it (history_fetch_window), off the path to that frame. */
	int64_t window = c->o->history_window, tail = window;
	if (c->policy.open_tail > 0 && c->policy.open_tail < window)
		tail = c->policy.open_tail;
	int64_t after = -1;
	if (r->outcome == REST_OK && r->count - 1 - tail >= 0) {
		after = r->count - 1 - tail;
		if (tail < window) {
			c->window_from = r->count - window > 0 ? r->count - window : 0;
			c->window_anchor = INT64_MAX;
		}
	}
	session_set_cursor(c->session, after);
	session_start(c->session);
}

bool ctl_count_events(struct controller *c)
{
	struct ctl_call *call = call_begin(c, CALL_COUNT);
	return call && call_start(c, call, (struct rest_args){ 0 });
}

void ctl_fetch_title(struct controller *c)
{
	struct ctl_call *call = call_begin(c, CALL_TITLE);
	if (call)
		call_start(c, call, (struct rest_args){ 0 });
}

bool controller_pause(struct controller *c)
{
	struct ctl_call *call = call_begin(c, CALL_PAUSE);
	return call && call_start(c, call, (struct rest_args){ 0 });
}

bool controller_interrupt(struct controller *c)
{
	/* One per run: the server took it, and the status that says so may still be on its way
	 * (the socket is read at the next frame); a new run, or a failed call, asks again. */
	if (c->interrupt_asked)
		return true;
	struct ctl_call *call = call_begin(c, CALL_INTERRUPT);
	if (call)
		c->interrupt_asked = true;
	return call && call_start(c, call, (struct rest_args){ 0 });
}

bool controller_resume(struct controller *c)
{
	struct ctl_call *call = call_begin(c, CALL_RESUME);
	return call && call_start(c, call, (struct rest_args){ 0 });
}

static bool confirm_then_send(struct controller *c, bool accept, const char *reason,
			      const char *then_send)
{
	struct ctl_call *call = call_begin(c, accept ? CALL_CONFIRM : CALL_REJECT);
	if (!call)
		return false;
	if (then_send)
		call->then_send = xstrdup(then_send);
	return call_start(c, call, (struct rest_args){ .accept = accept, .reason = reason });
}

void ctl_answer_confirmation(struct controller *c, bool accept)
{
	/* Once per waiting period, never coalesced: the server may ask again before the answer
	 * to the last period came back. */
	struct ctl_call *call = call_new(c, accept ? CALL_CONFIRM : CALL_REJECT);
	call->auto_answer = true;
	struct item_info infos[CTL_ACTIONS_MAX];
	char *ids[CTL_ACTIONS_MAX];
	size_t n = transcript_pending_infos(c->transcript, infos, CTL_ACTIONS_MAX), nids = 0;
	for (size_t i = 0; i < n && i < CTL_ACTIONS_MAX; i++)
		if (infos[i].tool_call_id)
			ids[nids++] = ctl_cleaned(c, infos[i].tool_call_id);
	/* Said as it goes out: the run may end before the server's reply (a failure is fatal). */
	CTL_SINKS(c, answered, accept, (const char *const *)ids, nids);
	for (size_t i = 0; i < nids; i++)
		free(ids[i]);
	call_start(c, call, (struct rest_args){ .accept = accept });
}

bool controller_confirm(struct controller *c, bool accept, const char *reason)
{
	return confirm_then_send(c, accept, reason, NULL);
}

bool controller_confirm_and_send(struct controller *c, const char *text)
{
	return confirm_then_send(c, true, NULL, text);
}

bool controller_set_confirmation_policy(struct controller *c, enum confirmation_policy policy,
					bool then_accept)
{
	struct ctl_call *call = call_begin(c, CALL_POLICY);
	if (!call)
		return false;
	call->then_accept = then_accept;
	return call_start(c, call, (struct rest_args){ .policy = policy });
}

bool ctl_blank(const char *text, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\r\n", text[i]) || !text[i])
			return false;
	return true;
}

void controller_send(struct controller *c, const char *text)
{
	if (!text || ctl_blank(text, strlen(text)))
		return;
	c->sent_anything = true;
	/* Only what the server shows after this message went out may end the run (cli.md). */
	c->busy_since_send = false;
	if (c->policy.until == UNTIL_IDLE || c->policy.until == UNTIL_FINISHED)
		ctl_echo_expect(c, text);
	outbox_send(c->outbox, text);
	ctl_changed(c);
}
