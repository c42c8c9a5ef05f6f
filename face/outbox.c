#include "outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long a message waits for the socket before it goes through REST. */
static const int64_t FALLBACK_AFTER_US = 3 * 1000000;

/* A message not known to be sent yet. */
struct held {
	char *text;
	uint64_t number;            /* submission order */
	bool in_flight;             /* a REST send is under way */
	bool failed;                /* the last REST send failed; it waits again */
};

struct rest_send {
	struct outbox *box;         /* NULL once the outbox is gone */
	char *text;
};

struct outbox {
	struct loop *loop;
	struct session *session;
	const char *server_url, *conversation_id, *api_key;
	bool insecure;
	bool rest_fallback;
	bool hold;                  /* nothing goes out: actions may wait for confirmation */
	void (*on_error)(void *ctx, const char *line);
	void *ctx;
	struct held *held;          /* not handed to the socket yet, oldest first */
	size_t nheld;
	/* handed to the session, oldest first: its queue is first in, first out, so the last
	 * session_pending_messages of them are not written yet, the others are sent */
	struct held *handed;
	size_t nhanded;
	uint64_t submitted;         /* messages so far: the next one's number */
	struct loop_timer *fallback;
	struct rest_send **calls;   /* in flight, so destroy can detach them */
	struct outbox **status_check; /* the status request in flight: *status_check = NULL detaches */
	size_t ncalls;
};

static void held_remove(struct outbox *b, const char *text)
{
	for (size_t i = 0; i < b->nheld; i++) {
		if (b->held[i].text == text) {
			free(b->held[i].text);
			memmove(b->held + i, b->held + i + 1, (b->nheld - i - 1) * sizeof *b->held);
			b->nheld--;
			return;
		}
	}
}

/* Forgets the handed messages the session has written: all but its last pending ones. */
static void handed_prune(struct outbox *b)
{
	size_t pending = session_pending_messages(b->session);
	if (pending >= b->nhanded)
		return;
	size_t sent = b->nhanded - pending;
	for (size_t i = 0; i < sent; i++)
		free(b->handed[i].text);
	memmove(b->handed, b->handed + sent, pending * sizeof *b->handed);
	b->nhanded = pending;
}

/* Gives msg to the session (which writes it once synced); text now belongs to handed. */
static void hand_to_socket(struct outbox *b, struct held msg)
{
	handed_prune(b);
	session_send_user_message(b->session, msg.text);
	msg.in_flight = msg.failed = false;
	b->handed = xrealloc(b->handed, (b->nhanded + 1) * sizeof *b->handed);
	b->handed[b->nhanded++] = msg;
}

static void call_forget(struct outbox *b, struct rest_send *call)
{
	for (size_t i = 0; i < b->ncalls; i++) {
		if (b->calls[i] == call) {
			b->calls[i] = b->calls[--b->ncalls];
			return;
		}
	}
}

static void rest_sent(void *ctx, struct rest_result *res)
{
	const struct rest_response *r = res->raw;
	struct rest_send *call = ctx;
	struct outbox *b = call->box;
	if (b) {
		call_forget(b, call);
		bool ok = res->outcome == REST_OK;
		for (size_t i = 0; i < b->nheld; i++) {
			if (b->held[i].text != call->text)
				continue;
			if (ok) {
				held_remove(b, call->text);
			} else {
				b->held[i].in_flight = false;
				b->held[i].failed = true;
				/* The socket may have come back meanwhile. */
				if (session_is_live(b->session)) {
					struct held msg = b->held[i];
					memmove(b->held + i, b->held + i + 1,
						(b->nheld - i - 1) * sizeof *b->held);
					b->nheld--;
					hand_to_socket(b, msg);
				} else {
					loop_timer_schedule(b->fallback, FALLBACK_AFTER_US);
				}
				if (b->on_error) {
					char line[200];
					snprintf(line, sizeof line,
						 "sending through REST failed (%s); the message waits for the connection",
						 r->status ? "HTTP error" : (r->error ? r->error : "no response"));
					b->on_error(b->ctx, line);
				}
			}
			break;
		}
	}
	free(call);
}

static void send_through_rest(struct outbox *b);

/* A call that did not start is answered like one unanswered. */
static void not_started(enum rest_call call, rest_result_fn done, void *ctx)
{
	struct rest_response raw = {.status = 0, .error = "could not start the request"};
	struct rest_result r;
	rest_result_decode(call, &raw, &r);
	done(ctx, &r);
	rest_result_fini(&r);
}

static struct rest_server server_of(const struct outbox *b)
{
	return (struct rest_server){
		.loop = b->loop, .url = b->server_url, .api_key = b->api_key, .insecure = b->insecure,
	};
}

/* A message reaches the agent-server with run = true, and a run executes the actions that
 * wait for confirmation: while the socket is down the status is not known, so REST asks it
 * first. */
static void status_checked(void *ctx, struct rest_result *r)
{
	struct outbox **slot = ctx, *b = *slot;
	free(slot);
	if (!b)
		return;
	b->status_check = NULL;
	const struct conversation_page *p = &r->conversations;
	bool waiting = r->outcome == REST_OK && p->count == 1 &&
		       p->items[0].run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION;
	if (session_is_live(b->session) || b->hold)
		return;
	if (waiting) {
		if (b->on_error)
			b->on_error(b->ctx, "the message waits: actions wait for confirmation, and a "
					    "message would allow them");
		loop_timer_schedule(b->fallback, FALLBACK_AFTER_US);
		return;
	}
	send_through_rest(b);
}

static void fallback_fire(void *arg)
{
	struct outbox *b = arg;
	if (b->hold || b->status_check)
		return;
	if (session_is_live(b->session)) {
		outbox_synced(b);
		return;
	}
	struct outbox **slot = xmalloc(sizeof *slot);
	*slot = b;
	b->status_check = slot;
	struct rest_server srv = server_of(b);
	struct rest_args a = {.id = b->conversation_id};
	if (rest_call(&srv, REST_GET_CONVERSATION, &a, status_checked, slot) != 0)
		not_started(REST_GET_CONVERSATION, status_checked, slot);
}

static void send_through_rest(struct outbox *b)
{
	struct rest_server srv = server_of(b);
	for (size_t i = 0; i < b->nheld; i++) {
		if (b->held[i].in_flight)
			continue;
		struct rest_send *call = xcalloc(1, sizeof *call);
		call->box = b;
		call->text = b->held[i].text;
		b->held[i].in_flight = true;
		b->calls = xrealloc(b->calls, (b->ncalls + 1) * sizeof *b->calls);
		b->calls[b->ncalls++] = call;
		struct rest_args a = {.id = b->conversation_id, .text = call->text};
		if (rest_call(&srv, REST_SEND_MESSAGE, &a, rest_sent, call) != 0)
			not_started(REST_SEND_MESSAGE, rest_sent, call);
	}
}

struct outbox *outbox_create(struct loop *loop, struct session *session, bool rest_fallback,
			     const char *server_url, const char *conversation_id,
			     const char *api_key, bool insecure,
			     void (*on_error)(void *ctx, const char *line), void *ctx)
{
	struct outbox *b = xcalloc(1, sizeof *b);
	b->rest_fallback = rest_fallback;
	b->loop = loop;
	b->session = session;
	b->server_url = server_url;
	b->conversation_id = conversation_id;
	b->api_key = api_key;
	b->insecure = insecure;
	b->on_error = on_error;
	b->ctx = ctx;
	b->fallback = loop_timer_create(loop, fallback_fire, b);
	return b;
}

void outbox_send(struct outbox *b, const char *text)
{
	struct held msg = {.text = xstrdup(text), .number = b->submitted++};
	if (!b->hold && session_is_live(b->session) && b->nheld == 0) {
		hand_to_socket(b, msg);
		return;
	}
	b->held = xrealloc(b->held, (b->nheld + 1) * sizeof *b->held);
	b->held[b->nheld++] = msg;
	if (b->rest_fallback && !loop_timer_pending(b->fallback))
		loop_timer_schedule(b->fallback, FALLBACK_AFTER_US);
}

void outbox_hold(struct outbox *b, bool hold)
{
	if (b->hold == hold)
		return;
	b->hold = hold;
	if (hold || !b->nheld)
		return;
	if (session_is_live(b->session))
		outbox_synced(b);
	else if (b->rest_fallback && !loop_timer_pending(b->fallback))
		loop_timer_schedule(b->fallback, FALLBACK_AFTER_US);
}

void outbox_synced(struct outbox *b)
{
	if (b->hold)
		return;
	/* In order, skipping those REST is carrying: they must not go twice. */
	size_t kept = 0;
	for (size_t i = 0; i < b->nheld; i++) {
		if (b->held[i].in_flight) {
			b->held[kept++] = b->held[i];
			continue;
		}
		hand_to_socket(b, b->held[i]);
	}
	b->nheld = kept;
	if (!kept)
		loop_timer_cancel(b->fallback);
}


static enum outbox_state held_state(const struct outbox *b, const struct held *m)
{
	if (m->in_flight)
		return OUTBOX_SENDING;
	if (b->hold)
		return OUTBOX_HELD;
	return m->failed ? OUTBOX_FAILED : OUTBOX_QUEUED;
}

size_t outbox_unsent(const struct outbox *b, struct outbox_message *out, size_t max)
{
	/* Of those handed to the session, its queue still holds the newest pending. */
	size_t pending = session_pending_messages(b->session);
	size_t i = b->nhanded > pending ? b->nhanded - pending : 0, j = 0, n = 0;
	/* Both lists are in submission order: merged by number, oldest first. */
	while (i < b->nhanded || j < b->nheld) {
		bool take_handed = j == b->nheld ||
				   (i < b->nhanded && b->handed[i].number < b->held[j].number);
		struct outbox_message m;
		if (take_handed) {
			m = (struct outbox_message){b->handed[i++].text, OUTBOX_SENDING};
		} else {
			m = (struct outbox_message){b->held[j].text, held_state(b, &b->held[j])};
			j++;
		}
		if (n < max)
			out[n] = m;
		n++;
	}
	return n;
}

void outbox_destroy(struct outbox *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->ncalls; i++)
		b->calls[i]->box = NULL;
	if (b->status_check)
		*b->status_check = NULL;
	for (size_t i = 0; i < b->nheld; i++)
		free(b->held[i].text);
	free(b->held);
	for (size_t i = 0; i < b->nhanded; i++)
		free(b->handed[i].text);
	free(b->handed);
	free(b->calls);
	loop_timer_destroy(b->fallback);
	free(b);
}
