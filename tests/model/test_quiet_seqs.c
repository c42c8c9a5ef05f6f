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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(noted_seqs_are_no_gap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
