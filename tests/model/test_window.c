/* The window over a long history: pages placed by log order next to a loaded durable, gaps
 * of history not loaded, tool cards pairing across the boundary, and trimming far items. */
#include "helpers.h"

#include <stdlib.h>

static char *idn(int i)
{
	static char ids[64][16];
	static int next;
	char *s = ids[next++ % 64];
	snprintf(s, 16, "e%d", i);
	return s;
}

/* Loads seqs [lo, hi] as the socket would (agent messages e<seq>). */
static void load(struct transcript *t, int lo, int hi)
{
	for (int i = lo; i <= hi; i++)
		add(t, ITEM_AGENT, i, idn(i), "text");
}

/* A page of agent messages e<ids[0]>, e<ids[1]>… as REST gives them (no seq). */
static size_t page(struct transcript *t, int64_t anchor, bool before, const int *ids, size_t n)
{
	struct item_spec specs[32];
	char names[32][16];
	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], sizeof names[i], "e%d", ids[i]);
		specs[i] = spec_of(ITEM_AGENT, -1, names[i], "paged");
	}
	return transcript_add_page(t, anchor, before, specs, n);
}

static int64_t seq_of(const struct transcript *t, const char *id)
{
	long i = transcript_find_id(t, id);
	return i < 0 ? -2 : info_of(t, (size_t)i).seq;
}

static void first_durable_skips_items_without_a_seq(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	assert_int_equal(transcript_first_durable(t), -1);
	add(t, ITEM_NOTICE, -1, NULL, "a local notice");
	assert_int_equal(transcript_first_durable(t), -1);
	load(t, 5, 9);
	long first = transcript_first_durable(t);
	assert_true(first >= 0);
	assert_int_equal(info_of(t, (size_t)first).seq, 5);
	assert_int_equal(transcript_missing_before(t, (size_t)first), 5);
	transcript_destroy(t);
}

static void page_before_takes_seqs_down_from_the_anchor(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	load(t, 5, 9);
	assert_int_equal(transcript_missing_before(t, 0), 5);
	int older[] = { 4, 3, 2 };
	assert_int_equal(page(t, 5, true, older, 3), 3);
	assert_int_equal(transcript_count(t), 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(info_of(t, (size_t)i).seq, i + 2);
	assert_int_equal(seq_of(t, "e3"), 3);
	assert_int_equal(transcript_missing_before(t, 0), 2);
	assert_int_equal(transcript_missing_before(t, 1), 0);
	/* The same page again adds nothing. */
	assert_int_equal(page(t, 5, true, older, 3), 0);
	assert_int_equal(transcript_count(t), 8);
	/* An anchor that is not loaded places nothing. */
	int none[] = { 0 };
	assert_int_equal(page(t, 1, true, none, 1), 0);
	transcript_destroy(t);
}

static void page_after_fills_a_gap(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	load(t, 0, 2);
	load(t, 7, 9);
	assert_int_equal(transcript_missing_before(t, 3), 4);
	int newer[] = { 3, 4, 5, 6, 7, 8 }; /* runs into what is loaded: skipped by id */
	assert_int_equal(page(t, 2, false, newer, 6), 4);
	assert_int_equal(transcript_count(t), 10);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(info_of(t, (size_t)i).seq, i);
		assert_int_equal(transcript_missing_before(t, (size_t)i), 0);
	}
	transcript_destroy(t);
}

/* Equal timestamps: a page asked inclusively holds the anchor; what precedes it in the page
 * is on the anchor's other side and is not counted. */
static void page_holding_the_anchor_counts_from_it(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	load(t, 5, 6);
	int before[] = { 6, 5, 4, 3 };
	assert_int_equal(page(t, 5, true, before, 4), 2);
	assert_int_equal(seq_of(t, "e4"), 4);
	assert_int_equal(seq_of(t, "e3"), 3);
	load(t, 12, 12);
	/* After anchor 6: the page starts with the equal-timestamp e5 (loaded) and e6 itself;
	 * an unloaded e1 before the anchor in the page is not placed after it. */
	int after[] = { 1, 5, 6, 7, 8 };
	assert_int_equal(page(t, 6, false, after, 5), 2);
	assert_int_equal(seq_of(t, "e1"), -2);
	assert_int_equal(seq_of(t, "e7"), 7);
	assert_int_equal(seq_of(t, "e8"), 8);
	transcript_destroy(t);
}

/* An event on disk that search leaves out (unreadable) shifts the inferred seqs; the next
 * loaded event in the page puts the count back on its real seq. */
static void loaded_event_in_a_page_resets_the_count(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	load(t, 5, 5);
	load(t, 9, 9);
	int older[] = { 8, 6, 5, 4 }; /* 7 is unreadable */
	assert_int_equal(page(t, 9, true, older, 4), 3);
	assert_int_equal(seq_of(t, "e8"), 8);
	assert_int_equal(seq_of(t, "e6"), 7); /* approximate, in order */
	assert_int_equal(seq_of(t, "e4"), 4); /* back on track after e5 */
	for (size_t i = 1; i < transcript_count(t); i++)
		assert_true(info_of(t, i - 1).seq < info_of(t, i).seq);
	transcript_destroy(t);
}

/* A seq already taken by another event is never doubled. */
static void taken_seq_is_not_doubled(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	load(t, 3, 3);
	load(t, 5, 5);
	int older[] = { 40, 41 }; /* ids the log does not have at 4 and 3 */
	assert_int_equal(page(t, 5, true, older, 2), 2);
	assert_int_equal(seq_of(t, "e40"), 4);
	assert_int_equal(seq_of(t, "e41"), 2);
	transcript_destroy(t);
}

static void gap_near_finds_gaps_above_inside_and_below(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct history_gap g;
	load(t, 100, 109); /* indices 0..9 */
	load(t, 150, 159); /* indices 10..19 */
	add(t, ITEM_NOTICE, -1, NULL, "a local notice"); /* index 20, no seq */
	/* Inside the view */
	assert_true(transcript_gap_near(t, 5, 15, 0, &g));
	assert_true(g.before);
	assert_int_equal(g.anchor_seq, 150);
	assert_string_equal(g.anchor_id, "e150");
	assert_int_equal(g.missing, 40);
	assert_int_equal(g.at_index, 10);
	/* Below the view, within the margin: filled after the durable above it */
	assert_true(transcript_gap_near(t, 3, 7, 3, &g));
	assert_false(g.before);
	assert_int_equal(g.anchor_seq, 109);
	assert_int_equal(g.at_index, 10);
	/* Nearer above than below: the history before seq 100 */
	assert_true(transcript_gap_near(t, 1, 3, 6, &g));
	assert_true(g.before);
	assert_int_equal(g.anchor_seq, 100);
	assert_int_equal(g.missing, 100);
	assert_int_equal(g.at_index, 0);
	/* Out of reach, and none at all */
	assert_false(transcript_gap_near(t, 3, 6, 2, &g));
	assert_false(transcript_gap_near(t, 13, 20, 2, &g));
	assert_int_equal(transcript_missing_before(t, 20), 0);
	transcript_destroy(t);
}

/* A result attached to its card counts as loaded: no gap at its seq. */
static void attached_results_are_no_gap(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "c0", "call0");
	add_card(t, 1, "c1", "call1");
	add_result(t, 2, "r0", "call0", TOOL_DONE, "ok");
	add_result(t, 3, "r1", "call1", TOOL_DONE, "ok");
	add(t, ITEM_AGENT, 4, "m4", "done");
	assert_int_equal(transcript_count(t), 3);
	assert_int_equal(transcript_missing_before(t, 2), 0);
	assert_int_equal(transcript_find_seq(t, 2), 0);
	struct history_gap g;
	assert_false(transcript_gap_near(t, 0, 2, 10, &g));
	transcript_destroy(t);
}

/* A result loaded without its card shows on its own; when the card comes in an older page,
 * the result joins it and the standalone item goes away. */
static void card_from_older_page_takes_its_result(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_result(t, 5, "r5", "call", TOOL_FAILED, "boom");
	add(t, ITEM_AGENT, 6, "m6", "after");
	assert_int_equal(transcript_count(t), 2);
	assert_int_equal(info_of(t, 0).kind, ITEM_TOOL_RESULT);
	struct item_spec card = spec_of(ITEM_TOOL, -1, "c4", "thought");
	card.title = "terminal";
	card.summary = "$ make";
	card.tool_call_id = "call";
	struct item_spec older[] = { card, spec_of(ITEM_USER, -1, "u3", "go") };
	assert_int_equal(transcript_add_page(t, 5, true, older, 2), 2);
	assert_int_equal(transcript_count(t), 3);
	struct item_info c = info_of(t, 1);
	assert_int_equal(c.kind, ITEM_TOOL);
	assert_int_equal(c.seq, 4);
	assert_int_equal(c.outcome, TOOL_FAILED);
	assert_non_null(c.result_text);
	assert_memory_equal(c.result_text, "boom", 4);
	assert_int_equal(count_id(t, "r5"), 0);
	assert_int_equal(transcript_missing_before(t, 2), 0);
	/* A card from history is not waiting for anything. */
	size_t idx[4];
	assert_int_equal(transcript_pending_tools(t, idx, 4), 0);
	/* The result delivered again changes nothing. */
	assert_int_equal(add_result(t, 5, "r5", "call", TOOL_FAILED, "boom"), APPLY_DUPLICATE);
	assert_int_equal(transcript_count(t), 3);
	transcript_destroy(t);
}

/* A card from an older page without its result: not listed as waiting. */
static void paged_card_is_not_pending(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	load(t, 9, 9);
	struct item_spec card = spec_of(ITEM_TOOL, -1, "c8", "thought");
	card.tool_call_id = "call8";
	assert_int_equal(transcript_add_page(t, 9, true, &card, 1), 1);
	size_t idx[4];
	assert_int_equal(transcript_pending_tools(t, idx, 4), 0);
	/* Its result, fetched after it, still joins it. */
	assert_int_equal(add_result(t, 10, "r10", "call8", TOOL_DONE, "ok"), APPLY_ATTACHED);
	transcript_destroy(t);
}

static void trim_drops_far_items_first_and_keeps_uids(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	char big[1024];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	for (int i = 0; i < 100; i++)
		add(t, ITEM_AGENT, i, idn(i), big);
	uint64_t uid50 = transcript_uid_at(t, 50), uid0 = transcript_uid_at(t, 0);
	size_t before = transcript_bytes(t);
	size_t per = before / 100;
	/* Keep 40..59 and the newest 10; room for about 50 items. */
	size_t n = transcript_trim(t, 40, 59, per * 50, 10);
	assert_true(n >= 45 && n <= 55);
	assert_true(transcript_bytes(t) <= per * 50);
	assert_int_equal(transcript_count(t), 100 - n);
	assert_int_equal(transcript_index_of(t, uid0), -1);
	assert_int_equal(transcript_find_seq(t, 0), -1);
	assert_int_equal(transcript_find_id(t, "e0"), -1);
	assert_int_equal(info_of(t, (size_t)transcript_index_of(t, uid50)).seq, 50);
	for (int i = 40; i < 60; i++)
		assert_true(transcript_find_seq(t, i) >= 0);
	for (int i = 90; i < 100; i++)
		assert_true(transcript_find_seq(t, i) >= 0);
	/* Farthest first, from both sides: what is left is contiguous around the view. */
	int64_t lo = info_of(t, 0).seq;
	assert_true(lo > 0 && lo < 40);
	assert_int_equal(transcript_missing_before(t, 0), lo);
	/* Fetched again, an event gets a new uid and its place by seq. */
	add(t, ITEM_AGENT, 0, "e0", big);
	assert_int_equal(transcript_find_seq(t, 0), 0);
	assert_true(transcript_uid_at(t, 0) > uid50);
	/* Within budget: nothing goes. */
	assert_int_equal(transcript_trim(t, 0, 0, SIZE_MAX, 0), 0);
	transcript_destroy(t);
}

static void trim_keeps_open_streams_and_waiting_cards(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "c0", "call0");
	delta(t, "s", 1, 0, "streaming");
	load(t, 1, 20);
	/* Drop everything it may: nothing kept, no tail. */
	transcript_trim(t, 1, 0, 0, 0);
	assert_int_equal(transcript_count(t), 2);
	assert_int_equal(info_of(t, 0).kind, ITEM_TOOL);
	assert_true(info_of(t, 1).streaming);
	/* Its result still joins the card. */
	assert_int_equal(add_result(t, 21, "r21", "call0", TOOL_DONE, "ok"), APPLY_ATTACHED);
	transcript_destroy(t);
}

/* A card dropped with its result: the result fetched again shows alone, and the card
 * fetched again takes it back. */
static void dropped_card_pairs_again_when_fetched(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "c0", "call0");
	add_result(t, 1, "r1", "call0", TOOL_DONE, "ok");
	load(t, 2, 5);
	assert_int_equal(transcript_trim(t, 1, 4, 0, 0), 1);
	assert_int_equal(transcript_find_seq(t, 0), -1);
	assert_int_equal(transcript_find_seq(t, 1), -1);
	assert_int_equal(transcript_missing_before(t, 0), 2);
	/* The socket replays the result: it comes alone. */
	assert_int_equal(add_result(t, 1, "r1", "call0", TOOL_DONE, "ok"), APPLY_ADDED);
	assert_int_equal(info_of(t, 0).kind, ITEM_TOOL_RESULT);
	struct item_spec card = spec_of(ITEM_TOOL, -1, "c0", "thought");
	card.tool_call_id = "call0";
	assert_int_equal(transcript_add_page(t, 1, true, &card, 1), 1);
	assert_int_equal(transcript_count(t), 5);
	assert_int_equal(info_of(t, 0).kind, ITEM_TOOL);
	assert_non_null(info_of(t, 0).result_text);
	assert_int_equal(transcript_missing_before(t, 1), 0);
	transcript_destroy(t);
}

/* A stream opened at the end (after seq 2) and retired as seq 4 takes seq 4's place: seq 3,
 * fetched later, goes above it. */
static void retired_stream_takes_its_seqs_place(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	load(t, 0, 2);
	delta(t, "m4", 1, 0, "hi");
	add(t, ITEM_AGENT, 4, "m4", "hi");
	assert_int_equal(transcript_missing_before(t, 3), 1);
	int gap[] = { 3 };
	assert_int_equal(page(t, 2, false, gap, 1), 1);
	for (size_t i = 0; i < transcript_count(t); i++) {
		assert_int_equal(info_of(t, i).seq, (int64_t)i);
		assert_int_equal(transcript_missing_before(t, i), 0);
	}
	load(t, 5, 6);
	/* A notice placed after the stream's anchor before it retired keeps its place. */
	transcript_stream_start(t, "m7", 1, true, 6);
	add(t, ITEM_NOTICE, -1, NULL, "note");
	add(t, ITEM_AGENT, 7, "m7", "x");
	assert_int_equal(info_of(t, 7).seq, 7);
	assert_int_equal(info_of(t, 8).kind, ITEM_NOTICE);
	transcript_destroy(t);
}

/* ------------------------------------------------------------------ property
 * Random sequences of what a client over a long log does — fetch an older page, fetch a newer
 * page into a gap, trim around a random view, live appends (some streamed first), drops and
 * reconnects (streams discarded, the socket replaying after its cursor), duplicate
 * deliveries by socket and by page — checked after every step against a model of the log:
 * no event twice, every loaded event at its log position (display order is seq order),
 * results with their cards when both are loaded and on their own otherwise, the gaps where
 * the model has them, and the loaded set exactly what the operations imply. */

#define P_LOG 1200

struct p_event {
	enum item_kind kind;
	char id[16], text[16], call[16];
	int pair;                       /* card: its result's seq; result: its card's (-1: none) */
	bool quiet;                     /* makes no item (a state update): only noted */
};

/* How often each thing happened: a run that never paged, trimmed or paired proves nothing. */
static size_t p_stats[8];

struct psim {
	uint64_t rng;
	struct transcript *t;
	struct p_event log[P_LOG];
	int nlog;                       /* events on the server */
	bool loaded[P_LOG];             /* what the operations imply the client holds */
	int cursor;                     /* the socket's: the highest seq it delivered */
	bool connected;
	int stream_seq;                 /* the event a slot is open for, -1: none */
};

static uint32_t prnd(struct psim *p, uint32_t n)
{
	p->rng ^= p->rng << 13;
	p->rng ^= p->rng >> 7;
	p->rng ^= p->rng << 17;
	return (uint32_t)(p->rng % n);
}

/* The whole log up front: messages, cards, and each card's result a few events later (some
 * never come). */
static void p_make_log(struct psim *p)
{
	int open_cards[P_LOG], nopen = 0;
	for (int i = 0; i < P_LOG; i++) {
		struct p_event *e = &p->log[i];
		snprintf(e->id, sizeof e->id, "e%d", i);
		snprintf(e->text, sizeof e->text, "t%d", i);
		e->pair = -1;
		uint32_t r = prnd(p, 100);
		if (nopen && r < 20) {
			int k = (int)prnd(p, (uint32_t)nopen);
			int card = open_cards[k];
			open_cards[k] = open_cards[--nopen];
			e->kind = ITEM_TOOL_RESULT;
			e->pair = card;
			p->log[card].pair = i;
			memcpy(e->call, p->log[card].call, sizeof e->call);
		} else if (r < 40) {
			e->kind = ITEM_TOOL;
			snprintf(e->call, sizeof e->call, "k%d", i);
			if (nopen < P_LOG && prnd(p, 10))
				open_cards[nopen++] = i;
		} else if (r < 50) {
			e->kind = ITEM_NOTICE;
			e->quiet = true;
		} else {
			e->kind = r < 62 ? ITEM_USER : ITEM_AGENT;
		}
	}
}

static struct item_spec p_spec(const struct psim *p, int seq, bool with_seq)
{
	const struct p_event *e = &p->log[seq];
	struct item_spec s = spec_of(e->kind, with_seq ? seq : -1, e->id, e->text);
	if (e->kind == ITEM_TOOL || e->kind == ITEM_TOOL_RESULT) {
		s.title = "terminal";
		s.tool_call_id = e->call;
		s.outcome = TOOL_DONE;
	}
	return s;
}

static void p_socket(struct psim *p, int seq)
{
	struct item_spec s = p_spec(p, seq, true);
	if (p->log[seq].quiet)
		transcript_note_seq(p->t, seq);
	else
		transcript_add_event(p->t, &s);
	p->loaded[seq] = true;
	if (seq > p->cursor)
		p->cursor = seq;
}

/* A REST page next to anchor, k events, sometimes asked inclusively (the anchor and its
 * equal-timestamp neighbours on the far side come first). */
/* A REST page next to anchor, k events, sometimes asked inclusively (the anchor and its
 * equal-timestamp neighbours on the far side come first). Placed as the TUI does: events
 * that make no item split the page into runs; each is noted at its seq, and the next run
 * goes next to it. */
static void p_page(struct psim *p, int anchor, bool before, int k)
{
	int seqs[64];
	size_t n = 0;
	int extra = prnd(p, 4) == 0 ? (int)prnd(p, 3) : -1;
	if (extra >= 0) {
		for (int j = extra; j >= 0; j--) {
			int s = before ? anchor + j : anchor - j;
			if (s >= 0 && s < p->nlog)
				seqs[n++] = s;
		}
	}
	int lo = before ? anchor - k : anchor + 1, hi = before ? anchor - 1 : anchor + k;
	if (lo < 0)
		lo = 0;
	if (hi > p->nlog - 1)
		hi = p->nlog - 1;
	for (int j = 0; j <= hi - lo; j++)
		seqs[n++] = before ? hi - j : lo + j;
	int want = 0;
	for (int s = lo; s <= hi; s++)
		want += !p->loaded[s] && !p->log[s].quiet;
	/* The driver knows order and ids only: seqs count from the anchor once it is passed. */
	struct item_spec run[64];
	size_t nrun = 0, added = 0;
	bool past = extra < 0;
	int64_t from = anchor, at = anchor;
	for (size_t i = 0; i < n; i++) {
		const struct p_event *e = &p->log[seqs[i]];
		if (!past) {
			if (!e->quiet)
				run[nrun++] = p_spec(p, seqs[i], false);
			past = seqs[i] == anchor;
			continue;
		}
		at += before ? -1 : 1;
		if (!e->quiet) {
			run[nrun++] = p_spec(p, seqs[i], false);
			continue;
		}
		added += transcript_add_page(p->t, from, before, run, nrun);
		nrun = 0;
		transcript_note_seq(p->t, at);
		from = at;
	}
	added += transcript_add_page(p->t, from, before, run, nrun);
	p_stats[before ? 0 : 1] += added > 0;
	p_stats[6] += extra >= 0 && added > 0;
	assert_int_equal(added, (size_t)want);
	for (int s = lo; s <= hi; s++)
		p->loaded[s] = true;
	if (p->stream_seq >= lo && p->stream_seq <= hi)
		p->stream_seq = -1; /* the page's event retired the stream */
}

/* A random view over the items: [first, last]. */
static void p_view(struct psim *p, size_t *first, size_t *last)
{
	size_t n = transcript_count(p->t);
	*first = n ? prnd(p, (uint32_t)n) : 0;
	*last = *first + prnd(p, 20);
	if (n && *last >= n)
		*last = n - 1;
}

static void p_fill_gap(struct psim *p)
{
	size_t first, last;
	p_view(p, &first, &last);
	struct history_gap g;
	if (!transcript_gap_near(p->t, first, last, prnd(p, 30), &g))
		return;
	assert_true(g.missing > 0);
	assert_int_equal(info_of(p->t, g.at_index).seq >= 0, true);
	p_page(p, (int)g.anchor_seq, g.before, 1 + (int)prnd(p, 40));
}

/* A page next to any loaded durable, mostly over what is loaded already. */
static void p_page_anywhere(struct psim *p)
{
	size_t n = transcript_count(p->t);
	if (!n)
		return;
	struct item_info in = info_of(p->t, prnd(p, (uint32_t)n));
	if (in.seq < 0)
		return;
	p_page(p, (int)in.seq, prnd(p, 2), 1 + (int)prnd(p, 20));
}

static void p_trim(struct psim *p)
{
	struct transcript *t = p->t;
	size_t first, last, n = transcript_count(t);
	p_view(p, &first, &last);
	if (prnd(p, 5) == 0)
		first = last + 1; /* no view: only the tail is kept */
	size_t tail = prnd(p, 8);
	size_t budget = transcript_bytes(t) * prnd(p, 100) / 100;
	/* What must stay: the view, the tail, open streams, cards waiting for their result. */
	uint64_t *keep = calloc(2 * n + 1, sizeof *keep);
	size_t *waiting = calloc(n + 1, sizeof *waiting);
	size_t nkeep = 0, nwaiting = transcript_pending_tools(t, waiting, n);
	for (size_t i = 0; i < n; i++) {
		struct item_info in = info_of(t, i);
		bool in_view = first <= last && i >= first && i <= last;
		if (in_view || i + tail >= n || in.streaming)
			keep[nkeep++] = in.uid;
	}
	for (size_t i = 0; i < nwaiting; i++)
		keep[nkeep++] = transcript_uid_at(t, waiting[i]);
	size_t dropped = transcript_trim(t, first, last, budget, tail);
	p_stats[2] += dropped > 0;
	assert_int_equal(transcript_count(t), n - dropped);
	assert_true(dropped == 0 || transcript_bytes(t) <= budget ||
		    transcript_count(t) <= nkeep);
	for (size_t i = 0; i < nkeep; i++)
		assert_true(transcript_index_of(t, keep[i]) >= 0);
	free(keep);
	free(waiting);
	if (dropped == 0)
		return;
	/* What is loaded now is what is left, and the noted seqs that no dropped event lies
	 * beside (between the kept items around them). */
	static bool was[P_LOG], own[P_LOG];
	memcpy(was, p->loaded, sizeof was);
	memset(p->loaded, 0, sizeof p->loaded);
	memset(own, 0, sizeof own);
	for (size_t i = 0; i < transcript_count(t); i++) {
		struct item_info in = info_of(t, i);
		if (in.seq < 0)
			continue;
		p->loaded[in.seq] = own[in.seq] = true;
		int pair = p->log[in.seq].pair;
		if (in.kind == ITEM_TOOL && in.result_text && pair >= 0)
			p->loaded[pair] = true;
	}
	for (int q = 0; q < p->nlog; q++) {
		if (!was[q] || !p->log[q].quiet)
			continue;
		int lo = q - 1, hi = q + 1;
		while (lo >= 0 && !own[lo])
			lo--;
		while (hi < p->nlog && !own[hi])
			hi++;
		bool beside_dropped = false;
		for (int d = lo + 1; d < hi; d++)
			beside_dropped |= was[d] && !p->log[d].quiet && !p->loaded[d];
		p->loaded[q] = !beside_dropped;
	}
}

static void p_append(struct psim *p)
{
	if (p->nlog >= P_LOG)
		return;
	int seq = p->nlog++;
	if (p->connected) {
		p_socket(p, seq);
		p->stream_seq = -1; /* its durable retired it */
	}
}

/* A stream for the next event (an agent message), before its durable comes. */
static void p_stream(struct psim *p)
{
	if (!p->connected || p->nlog >= P_LOG || p->log[p->nlog].kind != ITEM_AGENT)
		return;
	const char *id = p->log[p->nlog].id;
	enum apply_result r = transcript_stream_delta(p->t, id, 1, 0, false, "part", 4);
	if (p->stream_seq == p->nlog)
		assert_int_equal(r, APPLY_LOSSY);
	else if (r == APPLY_OPENED)
		p->stream_seq = p->nlog;
	else
		assert_int_equal(r, APPLY_IGNORED_RETIRED); /* discarded by a reconnect before */
}

static void p_reconnect(struct psim *p)
{
	if (p->connected) {
		p->connected = false;
		return;
	}
	assert_int_equal(transcript_discard_streams(p->t), p->stream_seq >= 0);
	p->stream_seq = -1;
	p->connected = true;
	for (int s = p->cursor + 1; s < p->nlog; s++)
		p_socket(p, s);
}

static void p_duplicate(struct psim *p)
{
	if (p->cursor >= 0 && p->connected)
		p_socket(p, (int)prnd(p, (uint32_t)p->cursor + 1));
}

static void p_check(const struct psim *p)
{
	const struct transcript *t = p->t;
	int64_t prev = -1;
	int nloaded = 0, seen = 0;
	for (int s = 0; s < p->nlog; s++)
		nloaded += p->loaded[s] && !p->log[s].quiet;
	for (size_t i = 0; i < transcript_count(t); i++) {
		struct item_info in = info_of(t, i);
		if (in.streaming) {
			assert_true(p->stream_seq >= 0);
			assert_string_equal(in.id, p->log[p->stream_seq].id);
			continue;
		}
		assert_true(in.seq >= 0);
		assert_true(in.seq > prev); /* display order is log order, each event once */
		assert_true(in.seq < p->nlog);
		const struct p_event *e = &p->log[in.seq];
		assert_string_equal(in.id, e->id);
		assert_true(p->loaded[in.seq]);
		int64_t missing = 0;
		for (int64_t s = prev + 1; s < in.seq; s++)
			missing += !p->loaded[s];
		assert_int_equal(transcript_missing_before(t, i), missing);
		seen++;
		if (e->kind == ITEM_TOOL) {
			bool result_loaded = e->pair >= 0 && e->pair < p->nlog && p->loaded[e->pair];
			assert_int_equal(in.result_text != NULL, result_loaded);
			if (result_loaded) {
				p_stats[4]++;
				assert_memory_equal(in.result_text, p->log[e->pair].text,
						    strlen(p->log[e->pair].text));
				seen++;
			}
		} else if (e->kind == ITEM_TOOL_RESULT) {
			p_stats[3]++;
			assert_int_equal(in.kind, ITEM_TOOL_RESULT);
			assert_false(p->loaded[e->pair]); /* shown alone: its card is not loaded */
		}
		prev = in.seq;
	}
	assert_int_equal(seen, nloaded);
	for (int s = 0; s < p->nlog; s++)
		assert_int_equal(transcript_find_seq(t, s) >= 0, p->loaded[s] && !p->log[s].quiet);
}

static void p_run(uint64_t seed, int steps)
{
	struct psim *p = calloc(1, sizeof *p);
	assert_non_null(p);
	memset(p_stats, 0, sizeof p_stats);
	p->rng = seed;
	p_make_log(p);
	p->t = transcript_create();
	p->cursor = -1;
	p->stream_seq = -1;
	p->connected = true;
	/* Tail open: the socket resumes a window before the end. */
	p->nlog = 50 + (int)prnd(p, 300);
	int window = 5 + (int)prnd(p, 40);
	p->cursor = p->nlog - window - 1;
	if (p->cursor < -1)
		p->cursor = -1;
	for (int s = p->cursor + 1; s < p->nlog; s++)
		p_socket(p, s);
	p_check(p);
	for (int step = 0; step < steps; step++) {
		uint32_t r = prnd(p, 100);
		if (r < 22)
			p_fill_gap(p);
		else if (r < 32)
			p_page_anywhere(p);
		else if (r < 47)
			p_trim(p);
		else if (r < 67)
			p_append(p);
		else if (r < 75)
			p_stream(p);
		else if (r < 85)
			p_reconnect(p);
		else
			p_duplicate(p);
		p_check(p);
	}
	for (int i = 0; i < 7; i++)
		if (i != 5)
			assert_true(p_stats[i] > 0);
	transcript_destroy(p->t);
	free(p);
}

static void property_window_against_a_model_of_the_log(void **state)
{
	(void)state;
	p_run(0x9e3779b97f4a7c15ULL, 5000);
	static const uint64_t seeds[] = { 1, 42, 0xdeadbeef, 7777777, 0x1234567887654321ULL };
	for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++)
		p_run(seeds[i], 1500);
}

/* Seqs of events that make no item are loaded history, not gaps; a trim that opens a gap
 * around them forgets them (they come again with the gap's page), and keeps the others. */
static void noted_seqs_are_no_gap_until_trimmed_away(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	load(t, 0, 1);
	transcript_note_seq(t, 2);
	load(t, 3, 4);
	transcript_note_seq(t, 5);
	load(t, 6, 7);
	transcript_note_seq(t, 8);
	load(t, 9, 10);
	for (size_t i = 0; i < transcript_count(t); i++)
		assert_int_equal(transcript_missing_before(t, i), 0);
	/* Keep seqs 6..10: 0..4 go, the noted 2 with them, and the noted 5 too (nothing kept
	 * above it); the noted 8 sits between kept 7 and 9: it stays. */
	assert_int_equal(transcript_trim(t, 4, 7, 0, 0), 4);
	assert_int_equal(info_of(t, 0).seq, 6);
	assert_int_equal(transcript_missing_before(t, 0), 6);
	for (size_t i = 1; i < transcript_count(t); i++)
		assert_int_equal(transcript_missing_before(t, i), 0);
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_durable_skips_items_without_a_seq),
		cmocka_unit_test(page_before_takes_seqs_down_from_the_anchor),
		cmocka_unit_test(page_after_fills_a_gap),
		cmocka_unit_test(page_holding_the_anchor_counts_from_it),
		cmocka_unit_test(loaded_event_in_a_page_resets_the_count),
		cmocka_unit_test(taken_seq_is_not_doubled),
		cmocka_unit_test(gap_near_finds_gaps_above_inside_and_below),
		cmocka_unit_test(attached_results_are_no_gap),
		cmocka_unit_test(card_from_older_page_takes_its_result),
		cmocka_unit_test(paged_card_is_not_pending),
		cmocka_unit_test(trim_drops_far_items_first_and_keeps_uids),
		cmocka_unit_test(trim_keeps_open_streams_and_waiting_cards),
		cmocka_unit_test(dropped_card_pairs_again_when_fetched),
		cmocka_unit_test(retired_stream_takes_its_seqs_place),
		cmocka_unit_test(noted_seqs_are_no_gap_until_trimmed_away),
		cmocka_unit_test(property_window_against_a_model_of_the_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
