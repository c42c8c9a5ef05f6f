/* history: the history not loaded, on demand (issue 16). A gap of the transcript is asked of
 * REST events/search — at most 100 events next to the gap's anchor, by time — without
 * blocking the loop; the page goes through the controller's event path (cleaned and masked
 * like every event) into the transcript, placed by log order (transcript_place_page). Server
 * search finds an event never loaded and places it by its count of earlier events. One call
 * in flight; the socket and its cursor are never touched. */
#include "controller_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HISTORY_PAGE_MAX 100
/* Pages start at least this far apart (at most 10 a second), whatever asks for them. */
#define HISTORY_PAGE_SPACING_US ((int64_t)100000)

enum history_step {
	STEP_PAGE,              /* a page next to a loaded durable */
	STEP_SEARCH,            /* the newest event matching the needle before a time */
	STEP_PLACE,             /* the found event's seq: how many events are older */
	STEP_FIRST,             /* the oldest page of the log: its events take seqs 0, 1… */
	STEP_AROUND,            /* the page after a placed match, in the search's call */
};

/* The call in flight; c is NULL once the controller is gone. */
struct history_call {
	struct controller *c;
	enum history_step step;
	bool before;
	int64_t anchor_seq;
	char *anchor_id;
	char *needle;
	char *skip_id;                  /* newer search: the current match, not found again */
	char *found_ts;            /* STEP_PLACE: the found event's timestamp */
	struct event_page found;        /* STEP_PLACE: the page holding the found event */
	char *anchor_ts;                /* STEP_PAGE: the anchor's timestamp (copied: trims) */
	int limit;                      /* STEP_PAGE */
	struct history_page_result match; /* STEP_AROUND: the search's result, told at the end */
	struct loop_timer *held;        /* a page held back by the spacing, until it fires */
	history_page_fn done;
	void *ctx;
};

static void history_done(void *ctx, struct rest_result *r);

static void call_free(struct history_call *h)
{
	free(h->anchor_id);
	free(h->needle);
	free(h->skip_id);
	free(h->found_ts);
	free(h->anchor_ts);
	loop_timer_destroy(h->held);
	event_page_fini(&h->found);
	free(h);
}

void ctl_history_detach(struct controller *c)
{
	struct history_call *h = c->history_call;
	c->history_call = NULL;
	if (h && h->held)
		call_free(h); /* never sent: no answer will come to free it */
	else if (h)
		h->c = NULL;  /* its answer is dropped when it comes */
}

void history_cancel(struct controller *c)
{
	ctl_history_detach(c);
}

bool history_busy(const struct controller *c)
{
	return c->history_call != NULL;
}

/* Sends call with a about the conversation, answered to history_done. Returns 0 or -1. */
static int history_send(struct history_call *h, enum rest_call call, const struct event_query *q)
{
	const struct controller *c = h->c;
	struct rest_server srv = ctl_server(c);
	struct rest_args a = {.id = c->o->conversation_id, .query = q};
	return rest_call(&srv, call, &a, history_done, h);
}

/* Why a call failed, in the user's words (clean: no server text). */
static void failure_words(const struct rest_result *r, char *out, size_t n)
{
	if (r->outcome == REST_NO_ANSWER)
		snprintf(out, n, "no answer from the server");
	else if (r->outcome == REST_NOT_FOUND || r->outcome == REST_UNSUPPORTED)
		snprintf(out, n, "this server cannot page history (HTTP %d)", r->raw->status);
	else
		snprintf(out, n, "the server answered HTTP %d", r->raw->status);
}

static void finish(struct history_call *h, const struct history_page_result *res)
{
	struct controller *c = h->c;
	if (c)
		c->history_call = NULL;
	if (c && h->done)
		h->done(h->ctx, res);
	call_free(h);
}

static void fail(struct history_call *h, const char *words)
{
	struct history_page_result res = { .error = words };
	finish(h, &res);
}

/* Places the events of p next to the loaded durable anchor_seq (before: asked newest first)
 * by log order; events that make no item take their seq too (transcript_place_page). Events
 * refused there (their time does not fit their place: a server's page out of order) are
 * said once per conversation, in words. Returns the lines they added (not news). */
static uint64_t place_page(struct controller *c, const struct event_page *p, int64_t anchor_seq,
			   bool before, struct page_placed *out)
{
	uint64_t lines = transcript_lines_added(c->transcript);
	size_t n = p->count ? p->count : 1;
	struct item_spec *specs = xcalloc(n, sizeof *specs);
	struct buf *stores = xcalloc(n, sizeof *stores);
	for (size_t i = 0; i < p->count; i++) {
		const struct event *e = &p->events[i];
		buf_init(&stores[i]);
		if (!ctl_event_to_spec(c, e, -1, &specs[i], &stores[i])) {
			/* No item: its id and time still place it (the spec says no more). */
			specs[i].quiet = true;
			specs[i].id = e->id;
		}
	}
	transcript_place_page(c->transcript, anchor_seq, before, specs, p->count, out);
	for (size_t i = 0; i < p->count; i++)
		buf_fini(&stores[i]);
	free(stores);
	free(specs);
	if (out->refused && !c->history_refusal_said) {
		c->history_refusal_said = true;
		char words[200];
		snprintf(words, sizeof words,
			 "%zu event%s of the server's history left out: dated where %s cannot go "
			 "(its pages are out of order; said once)", out->refused,
			 out->refused == 1 ? "" : "s", out->refused == 1 ? "it" : "they");
		ctl_add_error_item(c, "history out of order", words);
	}
	lines = transcript_lines_added(c->transcript) - lines;
	if (out->added || lines)
		ctl_changed(c);
	return lines;
}

/* The page an answer carries, moved into p; false (the call failed, said) when it is not a
 * page that decoded. */
static bool page_decoded(struct history_call *h, struct rest_result *r, struct event_page *p)
{
	char words[160];
	if (r->outcome == REST_BAD_BODY) {
		fail(h, "the server's page did not decode");
		return false;
	}
	if (r->outcome != REST_OK) {
		failure_words(r, words, sizeof words);
		fail(h, words);
		return false;
	}
	*p = r->events;
	memset(&r->events, 0, sizeof r->events);
	return true;
}

static void page_answer(struct history_call *h, struct rest_result *r)
{
	struct controller *c = h->c;
	struct event_page p;
	if (!page_decoded(h, r, &p))
		return;
	struct page_placed placed;
	uint64_t lines = place_page(c, &p, h->anchor_seq, h->before, &placed);
	struct history_page_result res = {
		.added = placed.added,
		.placed = placed.placed,
		.refused = placed.refused,
		.events = p.count,
		.lines = lines,
	};
	event_page_fini(&p);
	finish(h, &res);
}

static int page_send(struct history_call *h);

/* The page after a placed match is asked at once, from the count's answer: a follow-up on its
 * connection (net/rest.c), where the view would ask it at its next frame on one of its own.
 * False when it could not start: the match is told as it is. */
static bool around_started(struct history_call *h, int64_t seq, const struct event *e,
			   const struct history_page_result *match)
{
	h->step = STEP_AROUND;
	h->before = false;
	h->anchor_seq = seq;
	h->anchor_id = xstrdup(e->id);
	h->limit = HISTORY_PAGE_MAX;
	h->match = *match;
	return page_send(h) == 0;
}

/* The page after the match: placed if it came; the match is told either way (a page that
 * failed leaves its gap, which the view asks again). */
static void around_answer(struct history_call *h, struct rest_result *r)
{
	struct controller *c = h->c;
	struct history_page_result res = h->match;
	struct page_placed placed;
	if (r->outcome == REST_OK)
		res.lines += place_page(c, &r->events, h->anchor_seq, false, &placed);
	finish(h, &res);
}

static void place_answer(struct history_call *h, const struct rest_result *r)
{
	struct controller *c = h->c;
	char words[160];
	if (r->outcome != REST_OK) {
		if (r->outcome != REST_BAD_BODY)
			failure_words(r, words, sizeof words);
		else
			snprintf(words, sizeof words, "the server's count did not decode");
		fail(h, words);
		return;
	}
	int64_t seq = r->count;
	/* The found event is at seq: an island, with gaps around it that the view fills. */
	const struct event *e = &h->found.events[0];
	struct item_spec spec;
	struct buf store;
	buf_init(&store);
	uint64_t lines = transcript_lines_added(c->transcript);
	struct history_page_result res = { .events = 1 };
	if (ctl_event_to_spec(c, e, seq, &spec, &store)) {
		if (transcript_add_event(c->transcript, &spec) != APPLY_DUPLICATE)
			res.added = 1;
	}
	buf_fini(&store);
	long idx = e->id ? transcript_find_id(c->transcript, e->id) : -1;
	if (idx < 0)
		idx = transcript_find_seq(c->transcript, seq);
	res.found = idx >= 0;
	res.found_uid = idx >= 0 ? transcript_uid_at(c->transcript, (size_t)idx) : 0;
	res.lines = transcript_lines_added(c->transcript) - lines;
	if (res.added)
		ctl_changed(c);
	if (res.found && e->id && around_started(h, seq, e, &res))
		return;
	finish(h, &res);
}

static void search_answer(struct history_call *h, struct rest_result *r)
{
	struct controller *c = h->c;
	if (!page_decoded(h, r, &h->found))
		return;
	/* A newer search skips the current match (asked from its time on). */
	size_t at = 0;
	while (at < h->found.count && h->skip_id && h->found.events[at].id &&
	       !strcmp(h->found.events[at].id, h->skip_id))
		at++;
	struct history_page_result res = { .events = h->found.count - at };
	if (at == h->found.count) {
		finish(h, &res); /* no match in the server's history either */
		return;
	}
	if (at)
		h->found.events[0] = h->found.events[at];
	const struct event *e = &h->found.events[0];
	long idx = e->id ? transcript_find_id(c->transcript, e->id) : -1;
	if (idx >= 0) {
		res.found = true;
		res.found_uid = transcript_uid_at(c->transcript, (size_t)idx);
		finish(h, &res);
		return;
	}
	if (!e->timestamp) {
		fail(h, "the match has no timestamp to place it by");
		return;
	}
	/* Its seq: the events older than it (protocol.md §4.1 counts by timestamp). */
	h->step = STEP_PLACE;
	h->found_ts = xstrdup(e->timestamp);
	struct event_query q = { .timestamp_lt = h->found_ts };
	if (history_send(h, REST_COUNT_EVENTS, &q) != 0) {
		fail(h, "could not start the request");
		return;
	}
}

/* The oldest page of the log, oldest first: event i is seq i (the count of events before
 * it), placed where it belongs whatever is loaded; the rest lies in a gap below it. */
static void first_answer(struct history_call *h, struct rest_result *r)
{
	struct controller *c = h->c;
	struct event_page p;
	if (!page_decoded(h, r, &p))
		return;
	uint64_t lines = transcript_lines_added(c->transcript);
	struct history_page_result res = { .events = p.count };
	for (size_t i = 0; i < p.count; i++) {
		const struct event *e = &p.events[i];
		if (e->id && transcript_find_id(c->transcript, e->id) >= 0)
			continue;
		struct item_spec spec;
		struct buf store;
		buf_init(&store);
		if (ctl_event_to_spec(c, e, (int64_t)i, &spec, &store)) {
			if (transcript_add_event(c->transcript, &spec) != APPLY_DUPLICATE)
				res.added++;
		} else {
			transcript_note_seq(c->transcript, (int64_t)i);
		}
		buf_fini(&store);
	}
	res.lines = transcript_lines_added(c->transcript) - lines;
	event_page_fini(&p);
	if (res.added || res.lines)
		ctl_changed(c);
	finish(h, &res);
}

static void history_done(void *ctx, struct rest_result *r)
{
	struct history_call *h = ctx;
	if (!h->c) {
		call_free(h);
		return;
	}
	switch (h->step) {
	case STEP_PAGE:
		page_answer(h, r);
		break;
	case STEP_SEARCH:
		search_answer(h, r);
		break;
	case STEP_PLACE:
		place_answer(h, r);
		break;
	case STEP_FIRST:
		first_answer(h, r);
		break;
	case STEP_AROUND:
		around_answer(h, r);
		break;
	}
}

static struct history_call *call_begin(struct controller *c, enum history_step step,
				       history_page_fn done, void *ctx)
{
	if (c->history_call || c->finished)
		return NULL;
	struct history_call *h = xcalloc(1, sizeof *h);
	h->c = c;
	h->step = step;
	h->done = done;
	h->ctx = ctx;
	c->history_call = h;
	return h;
}

/* rc is what rest_call returned: one that did not start fails like one unanswered. */
static bool call_started(struct history_call *h, int rc)
{
	if (rc != 0) {
		struct rest_response raw = { .status = 0, .error = "could not start the request" };
		struct rest_result r;
		rest_result_decode(REST_SEARCH_EVENTS, &raw, &r);
		history_done(h, &r);
		rest_result_fini(&r);
	}
	return true;
}

/* Sends the page h describes (STEP_PAGE or STEP_FIRST). */
static int page_send(struct history_call *h)
{
	struct controller *c = h->c;
	/* page_id names the anchor: upstream walks from it instead of from the log's end, so a
	 * page deep in a long history costs what one at its end does. A newer page has no time
	 * bound: an LLM completion log is appended after events dated later than it, and
	 * timestamp__gte the anchor's would leave it out (a gap no page fills). */
	struct event_query q = {
		.page_id = h->anchor_id,
		.limit = h->limit,
		.order = h->before ? EVENT_ORDER_NEWEST_FIRST : EVENT_ORDER_OLDEST_FIRST,
		.timestamp_lte = h->before ? h->anchor_ts : NULL,
	};
	if (h->step == STEP_FIRST)
		q = (struct event_query){ .limit = HISTORY_PAGE_MAX, .order = EVENT_ORDER_OLDEST_FIRST };
	c->history_page_us = clock_now_us();
	return history_send(h, REST_SEARCH_EVENTS, &q);
}

static void page_unheld(void *arg)
{
	struct history_call *h = arg;
	loop_timer_destroy(h->held);
	h->held = NULL;
	call_started(h, page_send(h));
}

/* Sends the page now, or once HISTORY_PAGE_SPACING_US have passed since the last one. */
static bool page_start(struct history_call *h)
{
	struct controller *c = h->c;
	int64_t wait = c->history_page_us + HISTORY_PAGE_SPACING_US - clock_now_us();
	if (!c->history_page_us || wait <= 0)
		return call_started(h, page_send(h));
	h->held = loop_timer_create(c->loop, page_unheld, h);
	loop_timer_schedule(h->held, wait);
	return true;
}

bool history_fetch_gap(struct controller *c, const struct history_gap *gap,
		       history_page_fn done, void *ctx)
{
	if (!gap->anchor_timestamp || gap->missing <= 0)
		return false;
	struct history_call *h = call_begin(c, STEP_PAGE, done, ctx);
	if (!h)
		return false;
	h->before = gap->before;
	h->anchor_seq = gap->anchor_seq;
	h->anchor_id = gap->anchor_id ? xstrdup(gap->anchor_id) : NULL;
	h->anchor_ts = xstrdup(gap->anchor_timestamp);
	/* Asked inclusively, so events sharing the anchor's time are not skipped: the anchor
	 * comes back too (first, from upstream, whose page_id starts the walk at it). Loaded
	 * events inside the gap (ones that make no item) come back too: the page spans it. */
	int64_t want = (gap->span > gap->missing ? gap->span : gap->missing) + 1;
	h->limit = want < HISTORY_PAGE_MAX ? (int)want : HISTORY_PAGE_MAX;
	return page_start(h);
}

bool history_fetch_window(struct controller *c, history_page_fn done, void *ctx)
{
	if (c->window_from < 0 || c->history_call)
		return false;
	long i = transcript_first_durable(c->transcript);
	struct history_gap gap;
	/* The gap above the oldest loaded durable (not one below it). Each page must bring the
	 * window nearer: the same anchor again (a page failed or was empty, a trim dropped it)
	 * ends the paging here; the view's gaps take over. */
	if (i < 0 || !transcript_gap_near(c->transcript, (size_t)i, (size_t)i, 0, &gap) || !gap.before ||
	    gap.anchor_seq <= c->window_from || gap.anchor_seq >= c->window_anchor) {
		c->window_from = -1;
		return false;
	}
	/* The seqs from the anchor down to the window's first, and those of them still missing:
	 * the gap's loaded seqs (events that make no item, paged or replayed) sit right above
	 * the anchor. The page asks the whole stretch, those too, as every gap's page does. */
	int64_t stretch = gap.anchor_seq - c->window_from;
	int64_t want = stretch - (gap.span - gap.missing);
	if (want <= 0) {
		c->window_from = -1;
		return false;
	}
	c->window_anchor = gap.anchor_seq;
	if (gap.missing > want)
		gap.missing = want;
	if (gap.span > stretch)
		gap.span = stretch;
	if (!history_fetch_gap(c, &gap, done, ctx)) {
		c->window_from = -1;
		return false;
	}
	return true;
}

bool history_fetch_first(struct controller *c, history_page_fn done, void *ctx)
{
	struct history_call *h = call_begin(c, STEP_FIRST, done, ctx);
	return h && page_start(h);
}

bool history_search(struct controller *c, const char *needle, const char *ts,
		    const char *skip_id, history_page_fn done, void *ctx)
{
	if (!needle || !*needle)
		return false;
	struct history_call *h = call_begin(c, STEP_SEARCH, done, ctx);
	if (!h)
		return false;
	h->needle = xstrdup(needle);
	h->skip_id = skip_id ? xstrdup(skip_id) : NULL;
	/* Newer: from ts on, oldest first; the match at ts itself (and its equals) come too. */
	struct event_query q = {
		.limit = skip_id ? 2 : 1,
		.order = skip_id ? EVENT_ORDER_OLDEST_FIRST : EVENT_ORDER_NEWEST_FIRST,
		.body = h->needle,
		.timestamp_lt = skip_id ? NULL : ts,
		.timestamp_gte = skip_id ? ts : NULL,
	};
	return call_started(h, history_send(h, REST_SEARCH_EVENTS, &q));
}
