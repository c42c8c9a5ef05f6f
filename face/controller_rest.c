/* The user's controls: REST calls about the conversation, and sending messages. */
#include "controller_int.h"
#include "exit_code.h"
#include "diagnose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ REST controls */

/* One REST call in flight; c is NULL once the controller is gone. */
struct rest_call {
	struct controller *c;
	char *what;                     /* its name in messages */
	const char *kind;               /* calls of one kind are coalesced while one is in flight */
	char *then_send;                /* a message to send once this call succeeded */
	bool then_accept;               /* accept the pending actions once this call succeeded */
	bool auto_answer;               /* --on-confirm accept|reject: a failure ends the run */
	struct rest_call *next;
};

static void call_free(struct rest_call *call)
{
	free(call->what);
	free(call->then_send);
	free(call);
}

/* Allowing, rejecting and changing the policy are one kind: the first answer in flight wins. */
static const char answer_kind[] = "confirmation answer";
/* The conversation lookup after the socket's 404. */
static const char socket_check_kind[] = "socket check";
/* events/count at the start: the TUI opens on the tail. */
static const char count_kind[] = "count";

static void socket_check_done(struct controller *c, const struct rest_response *r);
static void count_done(struct controller *c, const struct rest_response *r);

/* What the user asked for, in words, for "could not …". */
static const char *call_words(const char *what)
{
	static const struct {
		const char *what, *words;
	} words[] = {
		{ "pause", "pause the agent" },
		{ "interrupt", "interrupt the agent" },
		{ "resume", "resume the agent" },
		{ "confirm", "allow the waiting actions" },
		{ "reject", "reject the waiting actions" },
		{ "confirmation policy", "change the confirmation policy" },
	};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (!strcmp(words[i].what, what))
			return words[i].words;
	return what;
}

/* A call answered with an error or not at all: a refused key ends the run at once, whatever
 * the call (the socket would only find out later, or wait for an auth timeout); the title
 * is cosmetic and fails silently; anything else is one error item. */
static void call_failed(struct controller *c, struct rest_call *call, const struct rest_response *r)
{
	struct diag_about about = ctl_about(c);
	struct buf line;
	if (c->finished)
		return;
	buf_init(&line);
	if (r->status == 401 || r->status == 403) {
		diag_auth(&line, &about);
		controller_fail(c, buf_cstr(&line), EXIT_AUTH);
	} else if (!strcmp(call->what, "title")) {
		/* nothing: the status line shows the id instead */
	} else if (!strcmp(call->kind, answer_kind) && call->then_accept &&
		   (r->status == 404 || r->status == 405)) {
		buf_printf(&line, "this server cannot change the confirmation policy (HTTP %d); "
			   "the actions still wait", r->status);
		ctl_add_error_item(c, call->what, buf_cstr(&line));
	} else {
		buf_printf(&line, "could not %s: ", call_words(call->what));
		if (r->status == 0)
			buf_puts(&line, r->error ? r->error : "no answer from the server");
		else
			buf_printf(&line, "the server answered HTTP %d %.*s", r->status,
				   (int)(r->body_len > 200 ? 200 : r->body_len), r->body ? r->body : "");
		/* --on-confirm's answer failed: the actions would wait for nobody (exit 1). */
		if (call->auto_answer)
			controller_fail(c, buf_cstr(&line), EXIT_RUNTIME);
		else
			ctl_add_error_item(c, call->what, buf_cstr(&line));
	}
	buf_fini(&line);
}

static void rest_done(void *ctx, const struct rest_response *r)
{
	struct rest_call *call = ctx;
	struct controller *c = call->c;
	if (!c) {
		call_free(call);
		return;
	}
	for (struct rest_call **p = &c->rest_calls; *p; p = &(*p)->next) {
		if (*p == call) {
			*p = call->next;
			break;
		}
	}
	if (call->kind == socket_check_kind) {
		socket_check_done(c, r);
	} else if (call->kind == count_kind) {
		count_done(c, r);
	} else if (r->status < 200 || r->status >= 300) {
		call_failed(c, call, r);
		if (call->then_send)
			CTL_SINKS(c, unsent, call->then_send);
	} else if (call->then_send) {
		controller_send(c, call->then_send);
	} else if (call->then_accept) {
		controller_confirm(c, true, NULL);
	} else if (!strcmp(call->what, "title") && r->body) {
		struct conversation_info *items = NULL;
		size_t n = 0;
		char *next = NULL;
		struct codec_error err;
		if (conversation_list_decode(r->body, r->body_len, &items, &n, &next, &err) == 0 &&
		    n == 1 && items[0].title) {
			struct buf t;
			buf_init(&t);
			controller_clean(c, items[0].title, strlen(items[0].title), &t);
			free(c->title);
			c->title = buf_steal(&t);
			ctl_changed(c);
		}
		conversation_infos_free(items, n);
		free(next);
	}
	call_free(call);
}

void ctl_rest_detach(struct controller *c)
{
	for (struct rest_call *call = c->rest_calls; call; call = call->next)
		call->c = NULL;
	c->rest_calls = NULL;
}

/* A new call of kind, or NULL while one of that kind is in flight: a burst of Esc is one
 * interrupt, not 200. */
static struct rest_call *call_new(struct controller *c, const char *what, const char *kind)
{
	struct rest_call *call = xcalloc(1, sizeof *call);
	call->c = c;
	call->what = xstrdup(what);
	call->kind = kind;
	call->next = c->rest_calls;
	c->rest_calls = call;
	return call;
}

static struct rest_call *call_begin(struct controller *c, const char *what, const char *kind)
{
	for (struct rest_call *busy = c->rest_calls; busy; busy = busy->next)
		if (!strcmp(busy->kind, kind))
			return NULL;
	return call_new(c, what, kind);
}

/* rc is what the typed call returned: one that did not start fails like one unanswered. */
static bool call_started(struct rest_call *call, int rc)
{
	if (rc != 0) {
		struct rest_response r = {.status = 0, .error = "could not start the request"};
		rest_done(call, &r);
	}
	return true;
}

static struct rest_server server_of(const struct controller *c)
{
	return (struct rest_server){
		.loop = c->loop, .url = c->o->server, .api_key = c->api_key, .insecure = c->o->insecure,
	};
}

/* The answer to the conversation lookup after the socket's 404: the conversation is there
 * (a server without the session socket) or it is not. */
static void socket_check_done(struct controller *c, const struct rest_response *r)
{
	struct diag_about about = ctl_about(c);
	struct buf line;
	if (c->finished)
		return;
	buf_init(&line);
	if (r->status == 200) {
		diag_no_session_socket(&line, &about);
		controller_fail(c, buf_cstr(&line), EXIT_RUNTIME);
	} else if (r->status == 401 || r->status == 403) {
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
	struct rest_call *call = call_begin(c, "socket check", socket_check_kind);
	struct rest_server srv = server_of(c);
	if (call)
		call_started(call, rest_get_conversation(&srv, c->o->conversation_id, rest_done, call));
}

/* The log's length: the socket resumes a window before its end. Any failure but a refused
 * key (a server without events/count answers 404) opens on the whole history, as before. */
static void count_done(struct controller *c, const struct rest_response *r)
{
	int64_t n = 0;
	struct codec_error err;
	if (c->finished)
		return;
	if (r->status == 401 || r->status == 403) {
		struct diag_about about = ctl_about(c);
		struct buf line;
		buf_init(&line);
		diag_auth(&line, &about);
		controller_fail(c, buf_cstr(&line), EXIT_AUTH);
		buf_fini(&line);
		return;
	}
	int64_t after = -1;
	if (r->status == 200 && r->body && event_count_decode(r->body, r->body_len, &n, &err) == 0 &&
	    n - 1 - c->o->history_window >= 0)
		after = n - 1 - c->o->history_window;
	session_set_cursor(c->session, after);
	session_start(c->session);
}

bool ctl_count_events(struct controller *c)
{
	struct rest_call *call = call_begin(c, "count", count_kind);
	struct rest_server srv = server_of(c);
	if (!call)
		return false;
	return call_started(call, rest_count_events(&srv, c->o->conversation_id, NULL, rest_done,
						    call));
}

void ctl_fetch_title(struct controller *c)
{
	struct rest_call *call = call_begin(c, "title", "title");
	struct rest_server srv = server_of(c);
	if (call)
		call_started(call, rest_get_conversation(&srv, c->o->conversation_id, rest_done, call));
}

bool controller_pause(struct controller *c)
{
	struct rest_call *call = call_begin(c, "pause", "pause");
	struct rest_server srv = server_of(c);
	return call && call_started(call, rest_pause(&srv, c->o->conversation_id, rest_done, call));
}

bool controller_interrupt(struct controller *c)
{
	struct rest_call *call = call_begin(c, "interrupt", "interrupt");
	struct rest_server srv = server_of(c);
	if (call)
		c->interrupt_asked = true;
	return call &&
	       call_started(call, rest_interrupt(&srv, c->o->conversation_id, rest_done, call));
}

bool controller_resume(struct controller *c)
{
	struct rest_call *call = call_begin(c, "resume", "resume");
	struct rest_server srv = server_of(c);
	return call && call_started(call, rest_run(&srv, c->o->conversation_id, rest_done, call));
}

static bool confirm_then_send(struct controller *c, bool accept, const char *reason,
			      const char *then_send)
{
	struct rest_call *call = call_begin(c, accept ? "confirm" : "reject", answer_kind);
	struct rest_server srv = server_of(c);
	if (!call)
		return false;
	if (then_send)
		call->then_send = xstrdup(then_send);
	return call_started(call, rest_respond_to_confirmation(&srv, c->o->conversation_id, accept,
								reason, rest_done, call));
}

void ctl_answer_confirmation(struct controller *c, bool accept)
{
	/* Once per waiting period, never coalesced: the server may ask again before the answer
	 * to the last period came back. */
	struct rest_call *call = call_new(c, accept ? "confirm" : "reject", answer_kind);
	struct rest_server srv = server_of(c);
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
	call_started(call, rest_respond_to_confirmation(&srv, c->o->conversation_id, accept, NULL,
							rest_done, call));
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
	struct rest_call *call = call_begin(c, "confirmation policy", answer_kind);
	struct rest_server srv = server_of(c);
	if (!call)
		return false;
	call->then_accept = then_accept;
	return call_started(call, rest_set_confirmation_policy(&srv, c->o->conversation_id, policy,
								rest_done, call));
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
