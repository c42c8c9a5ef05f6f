/* Streaming slots: one test per rule of protocol.md §7.1 (5–12, 14, 15) and the transcript's
 * dedupe by event id. None of these depends on layout output. */
#include "helpers.h"
#include "model_int.h"

static void open_on_item_started(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	assert_int_equal(transcript_stream_start(t, "i1", 1, false, 0), APPLY_OPENED);
	assert_int_equal(transcript_open_streams(t), 1);
	assert_int_equal(transcript_count(t), 1);
	struct item_info info = info_of(t, 0);
	assert_true(info.streaming);
	assert_int_equal(info.kind, ITEM_AGENT);
	assert_int_equal(info.attempt, 1);
	assert_int_equal(info.seq, -1);
	assert_string_equal(info.id, "i1");
	assert_int_equal(transcript_stream_attempt(t, "i1"), 1);
	transcript_destroy(t);
}

static void open_on_first_delta_without_started(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	assert_int_equal(delta(t, "i1", 1, 0, "Hello"), APPLY_OPENED);
	assert_int_equal(transcript_open_streams(t), 1);
	assert_item_text(t, 0, "Hello");
	assert_false(info_of(t, 0).lossy);
	assert_int_equal(delta(t, "i1", 1, 1, ", world"), APPLY_APPENDED);
	assert_item_text(t, 0, "Hello, world");
	transcript_destroy(t);
}

static void same_attempt_started_twice_changes_nothing(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "i1", 1, false, 0);
	delta(t, "i1", 1, 0, "abc");
	assert_int_equal(transcript_stream_start(t, "i1", 1, false, 0), APPLY_DUPLICATE);
	assert_item_text(t, 0, "abc");
	assert_int_equal(transcript_count(t), 1);
	transcript_destroy(t);
}

static void higher_attempt_started_supersedes(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "i1", 1, false, 0);
	delta(t, "i1", 1, 0, "dup");
	assert_int_equal(delta(t, "i1", 1, 2, "licate"), APPLY_LOSSY);
	transcript_stream_delta(t, "i1", 1, 3, true, "think", 5);
	assert_true(info_of(t, 0).lossy);

	assert_int_equal(transcript_stream_start(t, "i1", 2, false, 0), APPLY_SUPERSEDED);
	struct item_info info = info_of(t, 0);
	assert_int_equal(info.text_len, 0);
	assert_int_equal(info.reasoning_len, 0);
	assert_false(info.lossy);
	assert_int_equal(info.attempt, 2);
	assert_int_equal(transcript_count(t), 1);
	/* order restarts at 0 for the new attempt */
	assert_int_equal(delta(t, "i1", 2, 0, "fresh"), APPLY_APPENDED);
	assert_item_text(t, 0, "fresh");
	assert_false(info_of(t, 0).lossy);
	transcript_destroy(t);
}

static void higher_attempt_delta_supersedes_then_applies(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "i1", 1, false, 0);
	delta(t, "i1", 1, 0, "old ");
	delta(t, "i1", 1, 1, "text");
	assert_int_equal(delta(t, "i1", 2, 0, "new"), APPLY_SUPERSEDED);
	assert_item_text(t, 0, "new");
	assert_int_equal(info_of(t, 0).attempt, 2);
	assert_false(info_of(t, 0).lossy);
	assert_int_equal(delta(t, "i1", 2, 1, " text"), APPLY_APPENDED);
	assert_item_text(t, 0, "new text");
	transcript_destroy(t);
}

static void lower_attempt_is_ignored(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "i1", 2, false, 0);
	delta(t, "i1", 2, 0, "current");
	uint64_t gen = transcript_generation(t);
	assert_int_equal(transcript_stream_start(t, "i1", 1, false, 0), APPLY_IGNORED_STALE);
	assert_int_equal(delta(t, "i1", 1, 1, " stale"), APPLY_IGNORED_STALE);
	assert_item_text(t, 0, "current");
	assert_int_equal(info_of(t, 0).attempt, 2);
	assert_int_equal(transcript_generation(t), gen);
	transcript_destroy(t);
}

static void order_gap_marks_lossy_but_appends(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "i1", 1, false, 0);
	assert_int_equal(delta(t, "i1", 1, 0, "a"), APPLY_APPENDED);
	assert_false(info_of(t, 0).lossy);
	assert_int_equal(delta(t, "i1", 1, 2, "c"), APPLY_LOSSY);
	assert_true(info_of(t, 0).lossy);
	assert_item_text(t, 0, "ac");
	/* counting goes on from what arrived; the slot stays lossy */
	assert_int_equal(delta(t, "i1", 1, 3, "d"), APPLY_APPENDED);
	assert_true(info_of(t, 0).lossy);
	/* a first delta that is not order 0 is a gap too */
	assert_int_equal(delta(t, "i2", 1, 4, "x"), APPLY_OPENED);
	assert_true(info_of(t, 1).lossy);
	transcript_destroy(t);
}

static void durable_with_item_id_retires_in_place(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "u0", "question");
	transcript_stream_start(t, "i1", 1, true, 0);
	delta(t, "i1", 1, 0, "partial ans");
	delta(t, "i1", 1, 5, "wer");           /* lossy on the way */
	add(t, ITEM_USER, 1, "u1", "mid-stream"); /* lands after the slot */
	assert_int_equal(find_id(t, "i1"), 1);

	struct item_spec s = spec_of(ITEM_AGENT, 2, "i1", "the full answer");
	s.reasoning = "why";
	s.reasoning_len = 3;
	assert_int_equal(transcript_add_event(t, &s), APPLY_RETIRED);
	assert_int_equal(transcript_count(t), 3);
	assert_int_equal(transcript_open_streams(t), 0);
	assert_int_equal(count_id(t, "i1"), 1);
	assert_int_equal(find_id(t, "i1"), 1); /* kept its place */
	struct item_info info = info_of(t, 1);
	assert_false(info.streaming);
	assert_false(info.lossy);
	assert_int_equal(info.seq, 2);
	assert_item_text(t, 1, "the full answer");
	assert_int_equal(info.reasoning_len, 3);
	assert_int_equal(transcript_shown_len(t, 1), strlen("the full answer"));
	/* the durable itself again is a duplicate */
	assert_int_equal(transcript_add_event(t, &s), APPLY_DUPLICATE);
	assert_int_equal(transcript_count(t), 3);
	transcript_destroy(t);
}

static void first_action_retires_slot_as_tool_card(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "i1", 1, false, 0);
	delta(t, "i1", 1, 0, "I will run the tests");
	assert_int_equal(add_card(t, 0, "i1", "call-1"), APPLY_RETIRED);
	assert_int_equal(info_of(t, 0).kind, ITEM_TOOL);
	assert_int_equal(add_result(t, 1, "o1", "call-1", TOOL_DONE, "ok"), APPLY_ATTACHED);
	assert_int_equal(transcript_count(t), 1);
	transcript_destroy(t);
}

static void abort_whatever_attempt(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "u0", "hi");
	transcript_stream_start(t, "a", 1, true, 0);
	delta(t, "a", 1, 0, "text");
	transcript_stream_start(t, "b", 2, true, 0);
	transcript_stream_start(t, "c", 1, true, 0);
	/* an attempt never announced (a retry that died before its first token) */
	assert_int_equal(transcript_stream_abort(t, "a", 3, "RuntimeError"), APPLY_ABORTED);
	/* a lower attempt than the slot's still aborts */
	assert_int_equal(transcript_stream_abort(t, "b", 1, "cancelled"), APPLY_ABORTED);
	assert_int_equal(transcript_stream_abort(t, "c", 1, "no_durable_event"), APPLY_ABORTED);
	assert_int_equal(transcript_open_streams(t), 0);
	assert_int_equal(transcript_count(t), 1);
	assert_int_equal(find_id(t, "a"), -1);
	assert_int_equal(transcript_stream_abort(t, "never", 1, "cancelled"),
			 APPLY_IGNORED_UNKNOWN);
	transcript_destroy(t);
}

static void discard_streams_on_reconnect(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "u0", "hi");
	transcript_stream_start(t, "a", 1, true, 0);
	delta(t, "a", 1, 0, "text");
	delta(t, "b", 1, 0, "more");
	assert_int_equal(transcript_discard_streams(t), 2);
	assert_int_equal(transcript_open_streams(t), 0);
	assert_int_equal(transcript_count(t), 1);
	/* the new connection carries on mid-stream: those frames must not resurrect it */
	assert_int_equal(delta(t, "a", 1, 1, " tail"), APPLY_IGNORED_RETIRED);
	assert_int_equal(transcript_stream_start(t, "b", 2, true, 0), APPLY_IGNORED_RETIRED);
	assert_int_equal(transcript_open_streams(t), 0);
	/* the finished message arrives on the cursor and is added normally */
	assert_int_equal(add(t, ITEM_AGENT, 1, "a", "final"), APPLY_ADDED);
	assert_int_equal(count_id(t, "a"), 1);
	assert_int_equal(transcript_discard_streams(t), 0);
	transcript_destroy(t);
}

static void late_frames_for_retired_ids_are_ignored(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "r", 1, false, 0);
	delta(t, "r", 1, 0, "x");
	add(t, ITEM_AGENT, 0, "r", "final");
	transcript_stream_start(t, "ab", 1, false, 0);
	transcript_stream_abort(t, "ab", 1, "cancelled");
	size_t count = transcript_count(t);
	uint64_t gen = transcript_generation(t);

	/* #4077: trailing deltas after the final message */
	assert_int_equal(delta(t, "r", 1, 1, "zombie"), APPLY_IGNORED_RETIRED);
	assert_int_equal(transcript_stream_start(t, "r", 2, false, 0), APPLY_IGNORED_RETIRED);
	assert_int_equal(transcript_stream_abort(t, "r", 1, "cancelled"), APPLY_IGNORED_RETIRED);
	assert_int_equal(delta(t, "ab", 1, 1, "zombie"), APPLY_IGNORED_RETIRED);
	assert_int_equal(delta(t, "ab", 2, 0, "zombie"), APPLY_IGNORED_RETIRED);
	assert_int_equal(transcript_stream_start(t, "ab", 2, false, 0), APPLY_IGNORED_RETIRED);
	assert_int_equal(transcript_open_streams(t), 0);
	assert_int_equal(transcript_count(t), count);
	assert_int_equal(transcript_generation(t), gen);
	assert_item_text(t, (size_t)find_id(t, "r"), "final");
	/* an aborted id's durable (not expected, but possible) is still added */
	assert_int_equal(add(t, ITEM_AGENT, 1, "ab", "late durable"), APPLY_ADDED);
	transcript_destroy(t);
}

static void retired_ring_is_bounded_but_durables_stay_retired(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	char id[32];
	transcript_stream_start(t, "kept", 1, false, 0);
	add(t, ITEM_AGENT, 0, "kept", "done");
	for (int i = 0; i < 3 * TRANSCRIPT_RETIRED_RING; i++) {
		snprintf(id, sizeof id, "x%d", i);
		transcript_stream_start(t, id, 1, false, 0);
		transcript_stream_abort(t, id, 1, "cancelled");
	}
	assert_int_equal(t->retired.count, TRANSCRIPT_RETIRED_RING);
	/* the latest aborted ids are remembered */
	snprintf(id, sizeof id, "x%d", 3 * TRANSCRIPT_RETIRED_RING - 1);
	assert_int_equal(delta(t, id, 1, 1, "z"), APPLY_IGNORED_RETIRED);
	/* an id retired by its durable never reopens, however long ago */
	assert_int_equal(delta(t, "kept", 1, 1, "z"), APPLY_IGNORED_RETIRED);
	transcript_destroy(t);
}

static void slot_sits_after_its_anchor(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "e0", "a");
	add(t, ITEM_AGENT, 1, "e1", "b");
	add(t, ITEM_USER, 2, "e2", "c");
	transcript_stream_start(t, "s", 1, true, 1);
	assert_int_equal(find_id(t, "s"), 2);
	/* a slot without anchor goes at the end */
	transcript_stream_start(t, "n", 1, false, 0);
	assert_int_equal(find_id(t, "n"), 4);
	transcript_destroy(t);
}

static void user_message_mid_stream_does_not_split_the_pane(void **state)
{
	(void)state; /* #15433 */
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "u0", "first");
	add(t, ITEM_AGENT, 1, "a1", "reply");
	add(t, ITEM_USER, 2, "u2", "second");
	transcript_stream_start(t, "s", 1, true, 2);
	delta(t, "s", 1, 0, "Hello ");
	add(t, ITEM_USER, 3, "u3", "while you type");
	delta(t, "s", 1, 1, "world");
	assert_int_equal(find_id(t, "s"), 3);
	assert_int_equal(find_id(t, "u3"), 4);
	assert_item_text(t, 3, "Hello world");
	add(t, ITEM_AGENT, 4, "s", "Hello world!");
	assert_int_equal(find_id(t, "s"), 3);
	assert_int_equal(find_id(t, "u3"), 4);
	assert_int_equal(transcript_count(t), 5);
	transcript_destroy(t);
}

static void progress_before_the_anchor_durable(void **state)
{
	(void)state; /* rule 14: replay still delivering seqs 3..5 when the slot opens */
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "e0", "a");
	add(t, ITEM_AGENT, 1, "e1", "b");
	add(t, ITEM_USER, 2, "e2", "c");
	transcript_stream_start(t, "s", 1, true, 5);
	delta(t, "s", 1, 0, "streaming");
	assert_int_equal(find_id(t, "s"), 3);
	add(t, ITEM_AGENT, 3, "e3", "d");
	add(t, ITEM_USER, 4, "e4", "e");
	add(t, ITEM_AGENT, 5, "e5", "f");
	add(t, ITEM_USER, 6, "e6", "g");
	assert_int_equal(find_id(t, "e3"), 3);
	assert_int_equal(find_id(t, "e5"), 5);
	assert_int_equal(find_id(t, "s"), 6);
	assert_int_equal(find_id(t, "e6"), 7);
	transcript_destroy(t);
}

static void two_concurrent_streams_never_interleave(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "u0", "go");
	transcript_stream_start(t, "B", 1, true, 0);
	transcript_stream_start(t, "A", 1, true, 0);
	static const char *const parts[] = { "one ", "two ", "three ", "four" };
	for (int k = 0; k < 4; k++) {
		delta(t, "A", 1, k, parts[k]);
		delta(t, "B", 1, k, parts[3 - k]);
	}
	/* order between them: that of their item_started */
	assert_int_equal(find_id(t, "B"), 1);
	assert_int_equal(find_id(t, "A"), 2);
	assert_item_text(t, 2, "one two three four");
	assert_item_text(t, 1, "fourthree two one ");
	add(t, ITEM_AGENT, 1, "A", "A done");
	assert_int_equal(delta(t, "B", 1, 4, "!"), APPLY_APPENDED);
	assert_item_text(t, 1, "fourthree two one !");
	assert_int_equal(transcript_open_streams(t), 1);
	transcript_destroy(t);
}

static void durables_dedupe_by_id(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	assert_int_equal(add(t, ITEM_USER, 0, "e0", "hello"), APPLY_ADDED);
	uint64_t gen = transcript_generation(t);
	assert_int_equal(add(t, ITEM_USER, 0, "e0", "hello"), APPLY_DUPLICATE);
	assert_int_equal(add(t, ITEM_USER, 7, "e0", "other"), APPLY_DUPLICATE);
	assert_int_equal(add(t, ITEM_USER, -1, "e0", "transient copy"), APPLY_DUPLICATE);
	assert_int_equal(transcript_count(t), 1);
	assert_item_text(t, 0, "hello");
	assert_int_equal(transcript_generation(t), gen);
	transcript_destroy(t);
}

static void transient_then_durable_is_one_item(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "e0", "a");
	assert_int_equal(add(t, ITEM_NOTICE, -1, "x", "transient"), APPLY_ADDED);
	add(t, ITEM_AGENT, 1, "e1", "b");
	assert_int_equal(find_id(t, "x"), 1);
	assert_int_equal(info_of(t, 1).seq, -1);
	/* the durable copy: the same item takes its seq and its seq's place */
	assert_int_equal(add(t, ITEM_NOTICE, 2, "x", "durable"), APPLY_ADDED);
	assert_int_equal(transcript_count(t), 3);
	assert_int_equal(count_id(t, "x"), 1);
	long x = find_id(t, "x");
	assert_int_equal(x, 2);
	assert_int_equal(info_of(t, (size_t)x).seq, 2);
	assert_item_text(t, (size_t)x, "durable");
	assert_int_equal(add(t, ITEM_NOTICE, 2, "x", "durable"), APPLY_DUPLICATE);
	transcript_destroy(t);
}

static void non_durables_go_at_the_end_as_they_arrive(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 5, "e5", "a");
	add(t, ITEM_NOTICE, -1, NULL, "local notice");
	add(t, ITEM_USER, 3, "e3", "late older durable");
	add(t, ITEM_USER, 6, "e6", "newer");
	assert_int_equal(find_id(t, "e3"), 0);
	assert_int_equal(find_id(t, "e5"), 1);
	assert_null(info_of(t, 2).id);
	assert_int_equal(find_id(t, "e6"), 3);
	transcript_destroy(t);
}

static void stalled_flag_follows_the_slot(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "s", 1, false, 0);
	uint64_t gen = transcript_generation(t);
	transcript_stream_set_stalled(t, "s", true);
	assert_true(info_of(t, 0).stalled);
	assert_true(transcript_generation(t) != gen);
	transcript_stream_set_stalled(t, "s", false);
	assert_false(info_of(t, 0).stalled);
	transcript_stream_set_stalled(t, "unknown", true); /* no slot: no effect, no crash */
	assert_int_equal(transcript_stream_attempt(t, "unknown"), 0);
	/* A retry is a new attempt: it starts unstalled (the controller's watchdog starts over
	 * too, so a stall of the retry is reported again, once). */
	transcript_stream_set_stalled(t, "s", true);
	transcript_stream_start(t, "s", 2, false, 0);
	assert_false(info_of(t, 0).stalled);
	transcript_stream_set_stalled(t, "s", true);
	delta(t, "s", 3, 0, "x");
	assert_false(info_of(t, 0).stalled);
	transcript_destroy(t);
}

static void reasoning_deltas_kept_apart_and_collapsed(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_delta(t, "s", 1, 0, true, "think\nmore", 10);
	delta(t, "s", 1, 1, "answer");
	struct item_info info = info_of(t, 0);
	assert_int_equal(info.reasoning_len, 10);
	assert_memory_equal(info.reasoning, "think\nmore", 10);
	assert_item_text(t, 0, "answer");
	assert_false(info.reasoning_expanded);
	transcript_toggle_reasoning(t, 0);
	assert_true(info_of(t, 0).reasoning_expanded);
	transcript_toggle_reasoning(t, 0);
	assert_false(info_of(t, 0).reasoning_expanded);
	transcript_destroy(t);
}

static void generation_moves_on_visible_changes(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	uint64_t g = transcript_generation(t);
	add(t, ITEM_USER, 0, "e0", "a");
	assert_true(transcript_generation(t) != g);
	g = transcript_generation(t);
	transcript_stream_start(t, "s", 1, true, 0);
	assert_true(transcript_generation(t) != g);
	g = transcript_generation(t);
	delta(t, "s", 1, 0, "abc");
	assert_true(transcript_generation(t) != g);
	g = transcript_generation(t);
	transcript_reveal_tick(t);
	assert_true(transcript_generation(t) != g);
	g = transcript_generation(t);
	transcript_toggle_reasoning(t, 0);
	assert_true(transcript_generation(t) != g);
	g = transcript_generation(t);
	transcript_discard_streams(t);
	assert_true(transcript_generation(t) != g);
	transcript_destroy(t);
}

/* An answer cut short by an interrupt stays as it was, marked interrupted and finished; one
 * with no text yet is dropped; late frames for it change nothing. */
static void interrupted_answer_kept(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	assert_int_equal(transcript_stream_start(t, "a", 1, false, 0), APPLY_OPENED);
	delta(t, "a", 1, 0, "Half an ans");
	assert_int_equal(transcript_stream_start(t, "empty", 1, false, 0), APPLY_OPENED);
	assert_int_equal(transcript_stream_interrupted(t, "a"), APPLY_ABORTED);
	assert_int_equal(transcript_stream_interrupted(t, "empty"), APPLY_ABORTED);
	assert_int_equal(transcript_open_streams(t), 0);
	assert_int_equal(transcript_count(t), 1);
	struct item_info info = info_of(t, 0);
	assert_true(info.interrupted);
	assert_false(info.streaming);
	assert_int_equal(info.kind, ITEM_AGENT);
	assert_int_equal(info.shown_len, info.text_len);
	assert_item_text(t, 0, "Half an ans");
	assert_int_equal(delta(t, "a", 1, 1, "wer"), APPLY_IGNORED_RETIRED);
	assert_item_text(t, 0, "Half an ans");
	assert_int_equal(transcript_stream_interrupted(t, "never"), APPLY_IGNORED_UNKNOWN);
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(open_on_item_started),
		cmocka_unit_test(interrupted_answer_kept),
		cmocka_unit_test(open_on_first_delta_without_started),
		cmocka_unit_test(same_attempt_started_twice_changes_nothing),
		cmocka_unit_test(higher_attempt_started_supersedes),
		cmocka_unit_test(higher_attempt_delta_supersedes_then_applies),
		cmocka_unit_test(lower_attempt_is_ignored),
		cmocka_unit_test(order_gap_marks_lossy_but_appends),
		cmocka_unit_test(durable_with_item_id_retires_in_place),
		cmocka_unit_test(first_action_retires_slot_as_tool_card),
		cmocka_unit_test(abort_whatever_attempt),
		cmocka_unit_test(discard_streams_on_reconnect),
		cmocka_unit_test(late_frames_for_retired_ids_are_ignored),
		cmocka_unit_test(retired_ring_is_bounded_but_durables_stay_retired),
		cmocka_unit_test(slot_sits_after_its_anchor),
		cmocka_unit_test(user_message_mid_stream_does_not_split_the_pane),
		cmocka_unit_test(progress_before_the_anchor_durable),
		cmocka_unit_test(two_concurrent_streams_never_interleave),
		cmocka_unit_test(durables_dedupe_by_id),
		cmocka_unit_test(transient_then_durable_is_one_item),
		cmocka_unit_test(non_durables_go_at_the_end_as_they_arrive),
		cmocka_unit_test(stalled_flag_follows_the_slot),
		cmocka_unit_test(reasoning_deltas_kept_apart_and_collapsed),
		cmocka_unit_test(generation_moves_on_visible_changes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
