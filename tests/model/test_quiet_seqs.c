/* transcript_note_seq: a durable that makes no item (a state update, a log event) is loaded
 * history, not a gap — for transcript_missing_before, transcript_gap_near and pages. */
#include "helpers.h"

static void noted_seqs_are_no_gap(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	/* seqs 10..14 arrived: 10 a message, 11 a state update, 12 a message, 13 and 14 state */
	add(t, ITEM_USER, 10, "e10", "hello");
	add(t, ITEM_AGENT, 12, "e12", "hi");
	add(t, ITEM_AGENT, 15, "e15", "later");
	assert_int_equal(transcript_missing_before(t, 0), 10);
	assert_int_equal(transcript_missing_before(t, 1), 1);
	assert_int_equal(transcript_missing_before(t, 2), 2);
	transcript_note_seq(t, 11);
	transcript_note_seq(t, 13);
	transcript_note_seq(t, 14);
	transcript_note_seq(t, 12); /* an item's seq: nothing changes */
	transcript_note_seq(t, -1);
	assert_int_equal(transcript_missing_before(t, 1), 0);
	assert_int_equal(transcript_missing_before(t, 2), 0);
	struct history_gap gap;
	assert_true(transcript_gap_near(t, 1, 2, 5, &gap));
	assert_true(gap.before);
	assert_int_equal(gap.anchor_seq, 10);
	assert_int_equal(gap.missing, 10);
	/* a page may start from a noted seq: older events placed below it */
	transcript_note_seq(t, 9);
	struct item_spec older[2] = { spec_of(ITEM_AGENT, -1, "e8", "eight"),
				      spec_of(ITEM_USER, -1, "e7", "seven") };
	assert_int_equal(transcript_add_page(t, 9, true, older, 2), 2);
	assert_int_equal(transcript_find_seq(t, 8), transcript_find_id(t, "e8"));
	assert_int_equal(transcript_find_seq(t, 7), transcript_find_id(t, "e7"));
	assert_int_equal(transcript_missing_before(t, 0), 7);
	transcript_destroy(t);
}

/* A durable that takes no seq of its own is still loaded: a card emitted again as it
 * progresses (ACP), a result attached to its card, a copy of a loaded event at a new seq. */
static void durables_without_their_own_item_are_no_gap(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 40, "e40", "go on");
	struct item_spec acp = spec_of(ITEM_TOOL, 41, "e41", NULL);
	acp.title = "Write tests/test_summary.py";
	acp.tool_call_id = "acp_call_7";
	acp.replaces_card = true;
	assert_int_equal(transcript_add_event(t, &acp), APPLY_ADDED);
	acp.seq = 42;
	acp.id = "e42";
	acp.has_result = true;
	acp.outcome = TOOL_DONE;
	acp.result = "Wrote 2 lines";
	acp.result_len = strlen(acp.result);
	assert_int_equal(transcript_add_event(t, &acp), APPLY_ATTACHED);
	transcript_note_seq(t, 43); /* an LLM completion log */
	add(t, ITEM_AGENT, 44, "e44", "the regression test passes");
	add(t, ITEM_AGENT, 45, "e40", "go on"); /* the same event again at a new seq */
	add(t, ITEM_AGENT, 46, "e46", "done");
	for (size_t i = 1; i < transcript_count(t); i++)
		assert_int_equal(transcript_missing_before(t, i), 0);
	struct history_gap gap;
	assert_false(transcript_gap_near(t, 1, transcript_count(t) - 1, 10, &gap) &&
		     gap.anchor_seq != 40);
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(noted_seqs_are_no_gap),
		cmocka_unit_test(durables_without_their_own_item_are_no_gap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
