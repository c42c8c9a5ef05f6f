/* The REST catch-up before every events-socket connection (issue 26): the count, then
 * events/search newest first for the events after the cursor (every one for the whole
 * history), kept to be delivered after the sync; the newest event's timestamp is where the
 * socket resends from. A failure ends the attempt as a connection that could not start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

/* The REST catch-up of one connection: the count, then pages newest first. */
struct legacy_fetch {
	int64_t count;                  /* events/count; -1 unknown */
	int64_t want;                   /* events after the cursor; -1 every one */
	bool resume;                    /* a reconnect: the walk stops at a delivered event */
	int64_t known_at;               /* resume: index of the first delivered event, or -1 */
	char *page_id;
	char **events;                  /* newest first */
	size_t len, cap;
};

static void fetch_free(struct legacy_fetch *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->len; i++)
		free(f->events[i]);
	free(f->events);
	free(f->page_id);
	free(f);
}

void legacy_cancel(struct session *s, bool all)
{
	s->dial_waits = false;
	if (s->fetch)
		s->fetch->s = NULL;
	s->fetch = NULL;
	fetch_free(s->catchup);
	s->catchup = NULL;
	if (all && s->probe) {
		s->probe->s = NULL;
		s->probe = NULL;
	}
}

/* The catch-up failed: the attempt ends as a connection that could not start would. */
static void fetch_failed(struct session *s, const struct rest_result *r)
{
	char why[256];
	const char *said = r->detail ? r->detail : r->raw && r->raw->error ? r->raw->error : NULL;

	legacy_cancel(s, false);
	if (r->outcome == REST_AUTH)
		s->http_status = 401;
	else if (r->outcome == REST_NOT_FOUND)
		s->http_status = 404;
	s->cause = r->outcome == REST_NO_ANSWER && r->raw ? r->raw->cause : NET_CAUSE_NONE;
	snprintf(why, sizeof why, "the history could not be read over REST (%s%s%.160s)",
		 rest_call_name(r->call), said ? ": " : "", said ? said : "");
	session_set_reason(s, why, strlen(why));
	session_conn_end(s, NULL, true);
}

/* Everything fetched: the cursor below the tail, the tail kept for after the sync, and the
 * newest event's timestamp as where the socket resends from. */
static void fetch_finish(struct session *s)
{
	struct legacy_fetch *f = s->catchup;
	size_t tail = f->want < 0 || (uint64_t)f->want > f->len ? f->len : (size_t)f->want;
	if (f->resume)
		tail = f->known_at >= 0 ? (size_t)f->known_at : f->len;
	/* every event read: the log as REST walked it, whatever the count said before */
	int64_t end = f->count >= 0 && f->want >= 0 ? f->count : (int64_t)f->len;
	struct legacy_peek p;
	struct codec_error err;

	/* A reconnect's cursor counts what was delivered: the tail is what comes after it. */
	if (!f->resume) {
		s->has_cursor = true;
		s->cursor = end - 1 - (int64_t)tail;
	}
	for (size_t i = f->len; i-- > 0;) {
		if (i < tail) {
			legacy_rx_tail_push(&s->legacy, f->events[i]);
		} else if (legacy_peek_decode(f->events[i], strlen(f->events[i]), &p, &err) == 0) {
			legacy_rx_known(&s->legacy, p.id, NULL);
			legacy_peek_fini(&p);
		}
	}
	if (f->len && legacy_peek_decode(f->events[0], strlen(f->events[0]), &p, &err) == 0) {
		legacy_rx_known(&s->legacy, NULL, p.timestamp);
		legacy_peek_fini(&p);
	}
	net_log("session: history through REST: %zu events, %zu after the cursor %lld", f->len,
		tail, (long long)s->cursor);
	legacy_cancel(s, false);
	legacy_dial(s);
}

static void fetch_page(struct session *s);

static void page_done(void *ctx, struct rest_result *r)
{
	struct session *s = legacy_ticket_end(ctx);
	if (!s)
		return;
	s->fetch = NULL;
	if (r->outcome != REST_OK) {
		fetch_failed(s, r);
		return;
	}
	struct legacy_fetch *f = s->catchup;
	for (size_t i = 0; i < r->events.count; i++) {
		char *json = event_page_event_json(&r->events, i);
		if (!json)
			continue;
		if (f->len == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 64;
			f->events = xrealloc(f->events, f->cap * sizeof *f->events);
		}
		if (f->resume && f->known_at < 0 && r->events.events[i].id &&
		    recent_ids_has(&s->legacy.seen, r->events.events[i].id))
			f->known_at = (int64_t)f->len;
		f->events[f->len++] = json;
	}
	free(f->page_id);
	f->page_id = r->events.next_page_id && r->events.count ? xstrdup(r->events.next_page_id) : NULL;
	/* one event at least: its timestamp is where the socket resumes */
	bool enough = f->resume ? f->known_at >= 0
				: f->want >= 0 && f->len >= (size_t)(f->want > 0 ? f->want : 1);
	if (enough || !f->page_id)
		fetch_finish(s);
	else
		fetch_page(s);
}

static void fetch_page(struct session *s)
{
	struct legacy_fetch *f = s->catchup;
	struct rest_server srv = legacy_server_of(s);
	/* a reconnect asks one more: the last delivered event, which marks where the tail ends */
	int64_t left = f->want < 0 ? 100 : (f->want > 0 ? f->want : 1) + f->resume - (int64_t)f->len;
	struct event_query q = { .page_id = f->page_id, .limit = left > 100 ? 100 : (int)left,
				 .order = EVENT_ORDER_NEWEST_FIRST };
	struct rest_args a = { .id = s->cfg.conversation_id, .query = &q };

	s->fetch = legacy_ticket_new(s);
	if (rest_call(&srv, REST_SEARCH_EVENTS, &a, page_done, s->fetch) < 0) {
		struct rest_result r = { .call = REST_SEARCH_EVENTS, .outcome = REST_NO_ANSWER };
		free(s->fetch);
		s->fetch = NULL;
		fetch_failed(s, &r);
	}
}

static void count_done(void *ctx, struct rest_result *r)
{
	struct session *s = legacy_ticket_end(ctx);
	if (!s)
		return;
	s->fetch = NULL;
	struct legacy_fetch *f = s->catchup;
	if (r->outcome == REST_AUTH || r->outcome == REST_NOT_FOUND) {
		fetch_failed(s, r);
		return;
	}
	/* Without a count every event is read (the cursor cannot be placed); so is the whole
	 * history, whose oldest events a count made before the walk could leave out. */
	f->count = r->outcome == REST_OK && r->count >= 0 ? r->count : -1;
	if (f->count < 0 || (s->has_cursor && s->cursor < 0))
		f->want = -1;
	else if (!s->has_cursor)
		f->want = 0;            /* --no-history: live from the log's end */
	else
		f->want = s->cursor + 1 >= f->count ? 0 : f->count - 1 - s->cursor;
	if (f->count == 0 && f->want >= 0) {
		fetch_finish(s);
		return;
	}
	fetch_page(s);
}

void legacy_fetch_start(struct session *s)
{
	struct rest_server srv = legacy_server_of(s);
	struct rest_args a = { .id = s->cfg.conversation_id };

	s->catchup = xcalloc(1, sizeof *s->catchup);
	s->catchup->count = -1;
	/* after a connection that knew events: the ids it delivered bound the tail, not the
	 * count (an event appended between the count and the walk would push one out) */
	s->catchup->resume = s->has_cursor && s->legacy.last_ts[0];
	s->catchup->known_at = -1;
	s->fetch = legacy_ticket_new(s);
	if (rest_call(&srv, REST_COUNT_EVENTS, &a, count_done, s->fetch) < 0) {
		struct rest_result r = { .call = REST_COUNT_EVENTS, .outcome = REST_NO_ANSWER };
		free(s->fetch);
		s->fetch = NULL;
		fetch_failed(s, &r);
	}
}
