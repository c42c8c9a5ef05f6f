/* search: finding text in the transcript from the input line — newest match first, then
 * older or newer ones, and back to where the reader was on Esc. Past the oldest match loaded,
 * the server's history is searched (events/search with body: messages only) and the match
 * is loaded where it belongs, an island the view then fills around. */
#include "conv.h"
#include "search.h"

#include <string.h>

/* The server is asked once typing pauses this long: a query typed on asks once, not once a
 * key. */
#define SEARCH_SERVER_PAUSE_US ((int64_t)250000)

static void show_match(struct tui *u, long idx)
{
	u->cur->search.match = idx;
	u->cur->search.match_uid = idx >= 0 ? transcript_uid_at(u->cur->t, (size_t)idx) : 0;
	if (idx >= 0)
		viewport_show_item(&u->cur->vp, u->cur->t, (size_t)idx);
}

/* The current match's index now (pages and trims move indices; uids stay). */
static void refresh_match(struct tui *u)
{
	if (u->cur->search.match_uid)
		u->cur->search.match = transcript_index_of(u->cur->t, u->cur->search.match_uid);
	if (u->cur->search.match < 0)
		u->cur->search.match_uid = 0;
}

static bool searching(const struct tui *u)
{
	return layers_top(&u->layers) == &search_layer;
}

static void search_server(struct tui *u);
static void search_server_dir(struct tui *u, bool newer);

static void server_found(void *ctx, const struct history_page_result *r)
{
	struct conv *v = ctx;
	struct tui *u = v->u;
	v->search.server_searching = false;
	v->vp.seen_generation += r->lines; /* history, not news below */
	ui_schedule_frame(&u->ui);
	if (v != u->cur)
		return; /* the user left that conversation (and its search) meanwhile */
	bool current = searching(u) && !strcmp(v->search.server_needle, editor_text(&u->query));
	if (!current) {
		/* Typed on meanwhile: the query now, if nothing loaded matches it. */
		if (searching(u) && u->cur->search.search_failed)
			search_server(u);
		return;
	}
	if (r->error) {
		ui_notice(&u->ui, "could not search the server's history: %s", r->error);
		return;
	}
	long idx = r->found ? transcript_index_of(u->cur->t, r->found_uid) : -1;
	if (idx < 0) {
		u->cur->search.search_failed = u->cur->search.match < 0;
		ui_notice(&u->ui, "no other match in the whole history");
		return;
	}
	u->cur->search.search_failed = false;
	show_match(u, idx);
}

/* The oldest timestamp at or above item idx (from the top when idx < 0): the server is
 * asked for matches before it. NULL when no item above has one. */
static const char *time_before(struct tui *u, long idx)
{
	size_t count = transcript_count(u->cur->t);
	size_t from = idx >= 0 && (size_t)idx < count ? (size_t)idx : 0;
	struct item_info info;
	for (size_t i = from; i < count; i++) {
		transcript_item(u->cur->t, i, &info);
		if (info.timestamp)
			return info.timestamp;
	}
	return NULL;
}

/* Local matches ran out: asks the server for the newest match older than what is loaded
 * (than the current match, once one was found), or the next newer than the current match. */
static void search_server_dir(struct tui *u, bool newer)
{
	const char *needle = editor_text(&u->query);
	u->cur->search.server_search_wanted = false;
	if (!*needle || u->cur->search.server_searching)
		return;
	snprintf(u->cur->search.server_needle, sizeof u->cur->search.server_needle, "%s", needle);
	if (strlen(needle) >= sizeof u->cur->search.server_needle)
		return; /* too long to be a message's words */
	const char *ts = time_before(u, u->cur->search.match >= 0 ? u->cur->search.match : 0);
	const char *skip = NULL;
	struct item_info info;
	if (newer) {
		if (u->cur->search.match < 0)
			return;
		transcript_item(u->cur->t, (size_t)u->cur->search.match, &info);
		if (!info.timestamp || !info.id)
			return;
		ts = info.timestamp;
		skip = info.id;
	}
	if (history_search(u->cur->ctl, needle, ts, skip, server_found, u->cur)) {
		u->cur->search.server_searching = true;
		ui_notice(&u->ui, "searching the server's history…");
	} else {
		/* A page of history is on its way: the search goes once it has come. */
		u->cur->search.server_search_wanted = true;
		u->cur->search.server_search_newer = newer;
		ui_notice(&u->ui, "searching the server's history once the page loading now has come…");
	}
}

static void search_server(struct tui *u)
{
	search_server_dir(u, false);
}

void search_server_resume(struct tui *u)
{
	if (!u->cur->search.server_search_wanted || history_busy(u->cur->ctl))
		return;
	u->cur->search.server_search_wanted = false;
	if (searching(u) && (u->cur->search.search_failed || u->cur->search.match >= 0))
		search_server_dir(u, u->cur->search.server_search_newer);
}

size_t search_position(struct tui *u, size_t *rank)
{
	struct conv *v = u->cur;
	refresh_match(u);
	uint64_t gen = transcript_generation(v->t);
	if (!v->search.count_valid || v->search.count_generation != gen || v->search.count_uid != v->search.match_uid) {
		v->search.match_total = transcript_search_count(v->t, editor_text(&u->query), v->search.match,
							 &v->search.match_rank);
		v->search.count_valid = true;
		v->search.count_generation = gen;
		v->search.count_uid = v->search.match_uid;
	}
	*rank = v->search.match >= 0 ? v->search.match_rank : 0;
	return *rank ? v->search.match_total : 0;
}

static void search_pause_over(void *arg)
{
	struct tui *u = arg;
	if (searching(u) && u->cur->search.search_failed && *editor_text(&u->query))
		search_server(u);
	ui_schedule_frame(&u->ui);
}

/* The server search for an older query is of no use now: its answer is dropped (nothing is
 * loaded for it, nothing paged around it). */
static void search_server_drop(struct tui *u)
{
	if (u->cur->search.server_searching && strcmp(u->cur->search.server_needle, editor_text(&u->query))) {
		history_cancel(u->cur->ctl);
		u->cur->search.server_searching = false;
	}
	u->cur->search.server_search_wanted = false;
}

void search_update(struct tui *u)
{
	u->cur->search.count_valid = false; /* a new query */
	size_t count = transcript_count(u->cur->t);
	const char *needle = editor_text(&u->query);
	long idx = *needle && count ? transcript_search(u->cur->t, needle, count - 1, true) : -1;
	u->cur->search.search_failed = *needle && idx < 0;
	search_server_drop(u);
	if (!u->search_timer)
		u->search_timer = loop_timer_create(u->loop, search_pause_over, u);
	loop_timer_cancel(u->search_timer);
	if (idx >= 0)
		show_match(u, idx);
	else if (*needle)
		loop_timer_schedule(u->search_timer, SEARCH_SERVER_PAUSE_US);
}

void search_step(struct tui *u, bool older)
{
	const char *needle = editor_text(&u->query);
	size_t count = transcript_count(u->cur->t);
	if (!*needle || !count)
		return;
	long idx;
	refresh_match(u);
	if (u->cur->search.match < 0)
		idx = transcript_search(u->cur->t, needle, count - 1, true);
	else if (older)
		idx = u->cur->search.match > 0 ? transcript_search(u->cur->t, needle, (size_t)u->cur->search.match - 1, true) : -1;
	else
		idx = transcript_search(u->cur->t, needle, (size_t)u->cur->search.match + 1, false);
	if (idx >= 0)
		show_match(u, idx);
	else if (older)
		search_server(u);
	else if (u->cur->search.match >= 0 && transcript_gap_near(u->cur->t, (size_t)u->cur->search.match, count - 1, 0,
						       &(struct history_gap){ 0 }))
		search_server_dir(u, true); /* history not loaded below the match */
	else
		ui_notice(&u->ui, "no newer match");
}

void search_start(struct tui *u)
{
	u->cur->search.saved_follow = u->cur->vp.follow;
	u->cur->search.saved_top_item = u->cur->vp.top_item;
	u->cur->search.saved_top_row = u->cur->vp.top_row;
	u->cur->search.saved_top_uid = u->cur->vp.top_uid;
	editor_clear(&u->query);
	u->cur->search.match = -1;
	u->cur->search.match_uid = 0;
	u->cur->search.search_failed = false;
	u->cur->search.count_valid = false;
	u->cur->search.browsing = false;
	layers_push(&u->layers, &search_layer);
}

void search_cancel(struct tui *u)
{
	layers_pop(&u->layers, &search_layer);
	if (u->search_timer)
		loop_timer_cancel(u->search_timer);
	if (u->cur->search.saved_follow) {
		viewport_follow(&u->cur->vp);
	} else {
		u->cur->vp.follow = false;
		u->cur->vp.top_item = u->cur->search.saved_top_item;
		u->cur->vp.top_row = u->cur->search.saved_top_row;
		u->cur->vp.top_uid = u->cur->search.saved_top_uid;
	}
}

void search_stop(struct tui *u)
{
	layers_pop(&u->layers, &search_layer);
}

/* ------------------------------------------------------------------ keys */

static void act_older(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	search_step(u, true);
}

static void act_newer(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	search_step(u, false);
}

static void act_cancel(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e;
	search_cancel(u);
	ui_esc_closed(&u->ui, ev);
}

static void act_browse(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	if (editor_empty(&u->query))
		search_stop(u);
	else
		u->cur->search.browsing = true;
}

static void act_edit(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	u->cur->search.browsing = false;
}

static void act_done(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	search_stop(u);
}

const struct binding search_edit_bindings[] = {
	BIND(KEYS_ENTER, 0, 0, act_browse, "stop typing, browse the matches"),
	BIND(KEYS_ESC, 0, 0, act_cancel, "leave search, back where you were"),
	BIND(KEYS_CTRL, 0, 'r', act_older, "the older match"),
	BIND(KEYS_CTRL, 0, 's', act_newer, "the newer match"),
	BIND(KEYS_UP, 0, 0, act_older, "the older match"),
	BIND(KEYS_DOWN, 0, 0, act_newer, "the newer match"),
};
const size_t search_edit_bindings_count = sizeof search_edit_bindings / sizeof *search_edit_bindings;

const struct binding search_browse_bindings[] = {
	BIND(KEYS_CHAR, 0, 'n', act_older, "the older match"),
	BIND(KEYS_CHAR, 0, 'N', act_newer, "the newer match"),
	BIND(KEYS_CTRL, 0, 'r', act_older, "the older match"),
	BIND(KEYS_CTRL, 0, 's', act_newer, "the newer match"),
	BIND(KEYS_UP, 0, 0, act_older, "the older match"),
	BIND(KEYS_DOWN, 0, 0, act_newer, "the newer match"),
	BIND(KEYS_CHAR, 0, '/', act_edit, "edit the search"),
	BIND(KEYS_ESC, 0, 0, act_cancel, "leave search, back where you were"),
	BIND(KEYS_ENTER, 0, 0, act_done, "stay at this match"),
};
const size_t search_browse_bindings_count =
	sizeof search_browse_bindings / sizeof *search_browse_bindings;

/* ------------------------------------------------------------------ the layer */

static enum layer_key layer_key(struct tui *u, const struct key_event *ev)
{
	if (u->cur->search.browsing)
		return keymap_dispatch(search_browse_bindings, search_browse_bindings_count, u,
				       &u->query, ev) ? LAYER_KEY_TAKEN : LAYER_KEY_NONE;
	return keymap_dispatch(search_edit_bindings, search_edit_bindings_count, u, &u->query, ev)
		       ? LAYER_KEY_TAKEN : LAYER_KEY_NONE;
}

/* Browsing, any other key ends it and does its usual job; typing edits the query. */
static enum layer_key layer_other(struct tui *u, const struct key_event *ev)
{
	if (u->cur->search.browsing) {
		search_stop(u);
		return LAYER_KEY_DOWN;
	}
	uint64_t before = u->query.text_version;
	if (keymap_edit(u, &u->query, ev, false) && u->query.text_version != before)
		search_update(u);
	return LAYER_KEY_TAKEN;
}

static struct editor *layer_editor(struct tui *u)
{
	return &u->query;
}

/* The words before the query say which match of how many loaded is shown. */
static const char *layer_prefix(struct tui *u, char *buf, size_t size)
{
	if (u->cur->search.search_failed)
		return "search (no match): ";
	size_t rank, total = search_position(u, &rank);
	if (!total)
		return "search: ";
	snprintf(buf, size, "search %zu/%zu: ", rank, total);
	return buf;
}

static const char *layer_hint(struct tui *u)
{
	return u->cur->search.browsing ? "   n older · N newer · Esc done" : "";
}

const struct layer search_layer = {
	.name = "search",
	.global_keys = true,
	.key = layer_key,
	.other = layer_other,
	.editor = layer_editor,
	.prefix = layer_prefix,
	.hint = layer_hint,
	.close = search_cancel,
};
