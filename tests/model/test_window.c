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

int main(void)
{
	const struct CMUnitTest tests[] = {
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
