/* Stable uids: every item keeps the uid it was created with while others are inserted before
 * it or dropped, and the lookups by uid, seq and event id find its current index. */
#include "helpers.h"

/* The uids of every item in display order, checked against the lookups. */
static void assert_lookups_agree(const struct transcript *t)
{
	for (size_t i = 0; i < transcript_count(t); i++) {
		struct item_info in = info_of(t, i);
		assert_int_equal(in.uid, transcript_uid_at(t, i));
		assert_int_equal(transcript_index_of(t, in.uid), (long)i);
		if (in.seq >= 0)
			assert_int_equal(transcript_find_seq(t, in.seq), (long)i);
		if (in.id)
			assert_int_equal(transcript_find_id(t, in.id), (long)i);
	}
}

static void uids_count_up_in_creation_order(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "e0", "a");
	add(t, ITEM_AGENT, 1, "e1", "b");
	assert_int_equal(transcript_uid_at(t, 0), 1);
	assert_int_equal(transcript_uid_at(t, 1), 2);
	assert_int_equal(transcript_index_of(t, 0), -1);
	assert_int_equal(transcript_index_of(t, 3), -1);
	assert_int_equal(transcript_find_seq(t, 7), -1);
	assert_int_equal(transcript_find_id(t, "nope"), -1);
	assert_lookups_agree(t);
	transcript_destroy(t);
}

/* An aborted slot above many items: their indices move up by one, their uids do not. */
static void abort_above_keeps_every_uid(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "e0", "first");
	transcript_stream_start(t, "s", 1, true, 0); /* anchored after seq 0 */
	char id[16];
	for (int i = 1; i <= 200; i++) {
		snprintf(id, sizeof id, "e%d", i);
		add(t, ITEM_AGENT, i, id, "later");
	}
	assert_int_equal(transcript_find_id(t, "s"), 1);
	uint64_t before[201];
	for (int i = 1; i <= 200; i++)
		before[i] = info_of(t, (size_t)transcript_find_seq(t, i)).uid;
	uint64_t slot_uid = transcript_uid_at(t, 1);

	assert_int_equal(transcript_stream_abort(t, "s", 1, "cancelled"), APPLY_ABORTED);
	assert_int_equal(transcript_index_of(t, slot_uid), -1);
	assert_int_equal(transcript_find_id(t, "s"), -1);
	for (int i = 1; i <= 200; i++) {
		long at = transcript_find_seq(t, i);
		assert_int_equal(at, i);
		assert_int_equal(info_of(t, (size_t)at).uid, before[i]);
	}
	assert_lookups_agree(t);
	transcript_destroy(t);
}

/* A late older durable is inserted before later ones; a transient copy taking its seq moves;
 * a retired slot keeps its uid and becomes findable by its seq. */
static void insertions_and_moves_keep_uids(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "e0", "a");
	add(t, ITEM_USER, 5, "e5", "f");
	add(t, ITEM_NOTICE, -1, "n", "transient");
	uint64_t u5 = transcript_uid_at(t, 1), un = transcript_uid_at(t, 2);
	add(t, ITEM_USER, 3, "e3", "d");              /* late, older */
	assert_int_equal(transcript_find_seq(t, 3), 1);
	assert_int_equal(transcript_index_of(t, u5), 2);
	add(t, ITEM_NOTICE, 1, "n", "transient");     /* the transient's durable copy */
	assert_int_equal(transcript_index_of(t, un), 1);
	assert_int_equal(transcript_find_seq(t, 1), 1);

	transcript_stream_start(t, "r", 1, false, 0);
	uint64_t ur = transcript_uid_at(t, transcript_count(t) - 1);
	delta(t, "r", 1, 0, "streamed");
	add(t, ITEM_AGENT, 9, "r", "durable");        /* retires in place */
	assert_int_equal(transcript_find_seq(t, 9), transcript_index_of(t, ur));
	assert_int_equal(info_of(t, (size_t)transcript_index_of(t, ur)).seq, 9);
	assert_lookups_agree(t);
	transcript_destroy(t);
}

/* Many slots opened and aborted in a long transcript: the uid and seq indexes stay exact
 * (removal from the hash tables leaves no stale or lost entries). */
static void churn_keeps_the_indexes_exact(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	char id[32];
	for (int i = 0; i < 3000; i++) {
		snprintf(id, sizeof id, "e%d", i);
		add(t, ITEM_AGENT, i, id, "x");
		snprintf(id, sizeof id, "s%d", i);
		transcript_stream_start(t, id, 1, true, i / 2);
		if (i % 3)
			transcript_stream_abort(t, id, 1, "cancelled");
	}
	transcript_discard_streams(t);
	assert_int_equal(transcript_count(t), 3000);
	for (int i = 0; i < 3000; i++)
		assert_int_equal(transcript_find_seq(t, i), i);
	assert_lookups_agree(t);
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uids_count_up_in_creation_order),
		cmocka_unit_test(abort_above_keeps_every_uid),
		cmocka_unit_test(insertions_and_moves_keep_uids),
		cmocka_unit_test(churn_keeps_the_indexes_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
