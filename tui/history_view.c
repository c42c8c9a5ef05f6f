/* history_view: the view's side of history not loaded. When the rows shown come within a
 * screen of a gap, its page is asked for (one at a time); the gap row says what happens
 * ("loading…", why it failed); a page that lands above moves nothing (the viewport anchors at
 * an item's uid and does not count the page as new output below). After each page and each
 * move of the view, items far from it are dropped down to history_memory. */
#include "conv.h"
#include "history_view.h"
#include "search.h"
#include "outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_note(struct conv *v, const char *note)
{
	snprintf(v->history.note, sizeof v->history.note, "%s", note ? note : "");
	v->vp.gap_note = note ? v->history.note : NULL;
}

/* The items the last frame showed, [first, last]; false when it showed none. */
static bool shown_items(struct tui *u, size_t *first, size_t *last)
{
	size_t count = transcript_count(u->cur->t);
	if (!u->paint.nrows || !count)
		return false;
	*first = u->paint.rows[0].item;
	*last = u->paint.rows[u->paint.nrows - 1].item;
	if (*first >= count)
		*first = count - 1;
	if (*last >= count)
		*last = count - 1;
	return true;
}

/* Where v's view is (never 0): items are trimmed again once it changes. */
static uint64_t conv_place(const struct conv *v)
{
	return v->vp.follow ? 1 : v->vp.top_uid * 65599u + v->vp.top_row + 2;
}

static uint64_t view_place(const struct tui *u)
{
	return conv_place(u->cur);
}

/* Only right after a frame: the rows it showed give the items to keep. */
size_t history_view_trim(struct tui *u)
{
	size_t first, last, screen = (size_t)(u->cur->vp.height > 0 ? u->cur->vp.height : 1);
	if (!shown_items(u, &first, &last))
		return 0;
	size_t keep_first = first > screen ? first - screen : 0;
	size_t max_bytes = (size_t)u->o->history_memory_mb << 20;
	size_t dropped = transcript_trim(u->cur->t, keep_first, last + screen, max_bytes,
					 HISTORY_KEEP_TAIL);
	if (dropped)
		ui_schedule_frame(&u->ui);
	return dropped;
}

static void page_done(void *ctx, const struct history_page_result *r)
{
	struct conv *v = ctx;
	if (r->error) {
		char note[sizeof v->history.note];
		snprintf(note, sizeof note, "could not load: %s · scroll to retry", r->error);
		set_note(v, note);
		v->history.failed_at = v->vp.scrolls + 1;
		ui_schedule_frame(&v->u->ui);
		return;
	}
	v->history.failed_at = 0;
	v->history.landed_us = v->history.asked_us; /* timed until the frame that shows it */
	/* History, not news: the lines of the page are no "new below". */
	v->vp.seen_generation += r->lines;
	if (!r->added && !r->placed) {
		/* The server had nothing more there (unreadable events, a shorter log): the gap
		 * stays, and is not asked for again from this anchor. */
		v->history.dead_seq = v->history.asked_seq;
		v->history.dead_before = v->history.asked_before;
		set_note(v, "not available from the server");
	} else {
		set_note(v, NULL);
	}
	/* Trimmed after the next frame: the rows shown now are from before the page. */
	v->history.trimmed_at = 0;
	ui_schedule_frame(&v->u->ui);
}

/* A page of the window the open did not replay: history, not news, and nothing to say (a
 * failure leaves the gap, which says it once the reader scrolls to it). */
static void window_done(void *ctx, const struct history_page_result *r)
{
	struct conv *v = ctx;
	if (r->error)
		return;
	v->vp.seen_generation += r->lines;
	v->history.trimmed_at = 0;
	ui_schedule_frame(&v->u->ui);
}

/* True when events older than the first loaded durable are not loaded. */
static bool first_missing(struct transcript *t)
{
	long i = transcript_first_durable(t);
	return i >= 0 && transcript_missing_before(t, (size_t)i) > 0;
}

static void first_done(void *ctx, const struct history_page_result *r)
{
	struct conv *v = ctx;
	if (r->error) {
		char note[sizeof v->history.note];
		snprintf(note, sizeof note, "could not load the first events: %s", r->error);
		set_note(v, note);
		ui_schedule_frame(&v->u->ui);
		return;
	}
	set_note(v, NULL);
	v->vp.seen_generation += r->lines;
	/* Still where Ctrl-Home put it (the reader did not move meanwhile): the first event. */
	if (v->history.first_at == conv_place(v) && transcript_count(v->t))
		viewport_show_item(&v->vp, v->t, 0);
	v->history.first_at = 0;
	v->history.trimmed_at = 0;
	ui_schedule_frame(&v->u->ui);
}

void history_view_go_first(struct tui *u)
{
	struct conv *v = u->cur;
	if (!transcript_count(v->t))
		return;
	viewport_show_item(&v->vp, v->t, 0);
	v->history.want_first = first_missing(v->t);
	if (v->history.want_first) {
		/* Whatever page was on its way is not the one wanted now (a search's call is). */
		if (!v->search.server_searching)
			history_cancel(v->ctl);
		set_note(v, "loading the first events…");
	}
	ui_schedule_frame(&u->ui);
}

/* A gap between rows shown is filled from above: the page lands under the item the view is
 * anchored at and pushes the gap row down and away. Filled from below, every page would land
 * under the gap row, which would stay in view until the whole gap was loaded. */
static void fill_from_above(struct transcript *t, struct history_gap *gap)
{
	struct item_info info;
	for (size_t i = gap->at_index; i-- > 0;) {
		transcript_item(t, i, &info);
		if (info.seq < 0)
			continue;
		if (info.timestamp) {
			gap->before = false;
			gap->anchor_seq = info.seq;
			gap->anchor_timestamp = info.timestamp;
			gap->anchor_id = info.id;
		}
		return;
	}
}

void history_view_check(struct tui *u, const struct controller_status *st)
{
	size_t first, last;
	/* While a connection replays, its items are still coming in below: not a gap yet. */
	search_server_resume(u);
	if (st->syncing || !shown_items(u, &first, &last))
		return;
	/* The frame that first shows the conversation goes out alone: pages (their requests,
	 * decoding and placing, the server's work for them) start a frame later, so they do not
	 * compete with the terminal drawing it. */
	if (!u->cur->history.shown_frame) {
		u->cur->history.shown_frame = u->frames;
		ui_schedule_frame(&u->ui);
		return;
	}
	if (u->frames == u->cur->history.shown_frame)
		return;
	if (view_place(u) != u->cur->history.trimmed_at) {
		u->cur->history.trimmed_at = view_place(u);
		if (history_view_trim(u))
			return; /* indices moved: the next frame shows where things are */
	}
	if (history_busy(u->cur->ctl))
		return;
	if (u->cur->history.want_first) {
		u->cur->history.want_first = false;
		u->cur->history.first_at = view_place(u);
		if (!history_fetch_first(u->cur->ctl, first_done, u->cur))
			set_note(u->cur, NULL);
		ui_schedule_frame(&u->ui);
		return;
	}
	if (u->cur->history.failed_at && u->cur->history.failed_at == u->cur->vp.scrolls + 1)
		return; /* failed: asked again when the reader scrolls (even at the top) */
	struct history_gap gap;
	if (!transcript_gap_near(u->cur->t, first, last, (size_t)(u->cur->vp.height > 0 ? u->cur->vp.height : 1),
				 &gap)) {
		/* Nothing near the view to load: the rest of the opening's window, if any. */
		history_fetch_window(u->cur->ctl, window_done, u->cur);
		return;
	}
	if (!u->cur->vp.follow && gap.at_index > first && gap.at_index <= last)
		fill_from_above(u->cur->t, &gap);
	if (gap.anchor_seq == u->cur->history.dead_seq && gap.before == u->cur->history.dead_before)
		return;
	u->cur->history.asked_seq = gap.anchor_seq;
	u->cur->history.asked_us = clock_now_us();
	u->cur->history.asked_before = gap.before;
	if (history_fetch_gap(u->cur->ctl, &gap, page_done, u->cur)) {
		if (history_busy(u->cur->ctl))
			set_note(u->cur, "loading…");
	} else {
		/* No time to page by (the anchor event had none): not asked again. */
		u->cur->history.dead_seq = gap.anchor_seq;
		u->cur->history.dead_before = gap.before;
		set_note(u->cur, "not available from the server");
	}
	ui_schedule_frame(&u->ui);
}

void history_view_painted(struct tui *u, int64_t now_us)
{
	if (!u->cur->history.landed_us)
		return;
	if (!u->cur->history.page_us)
		u->cur->history.page_us = xcalloc(HISTORY_TIMES, sizeof *u->cur->history.page_us);
	if (u->cur->history.npages < HISTORY_TIMES)
		u->cur->history.page_us[u->cur->history.npages++] = now_us - u->cur->history.landed_us;
	u->cur->history.landed_us = 0;
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void history_view_write_stats(struct tui *u)
{
	FILE *f = outfile_open_stats();
	if (!f)
		return;
	size_t n = u->cur->history.npages;
	if (n)
		qsort(u->cur->history.page_us, n, sizeof *u->cur->history.page_us, by_value);
	double p50 = n ? (double)u->cur->history.page_us[(n - 1) / 2] / 1000.0 : 0;
	double p99 = n ? (double)u->cur->history.page_us[(size_t)((double)(n - 1) * 0.99)] / 1000.0 : 0;
	double max = n ? (double)u->cur->history.page_us[n - 1] / 1000.0 : 0;
	fprintf(f, "{\"history_pages\":%zu,\"page_p50_ms\":%.1f,\"page_p99_ms\":%.1f,"
		   "\"page_max_ms\":%.1f}\n", n, p50, p99, max);
	fclose(f);
}
