/* Tool cards (results pair by tool_call_id), confirmation, and search. No layout output. */
#include "helpers.h"

static const struct {
	enum tool_outcome outcome;
	const char *text;
} outcomes[] = {
	{ TOOL_DONE, "3 passed" },
	{ TOOL_FAILED, "1 failed" },
	{ TOOL_REJECTED, "not allowed by user" },
};

static void result_pairs_with_card_by_tool_call_id(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof outcomes / sizeof *outcomes; k++) {
		struct transcript *t = transcript_create();
		add_card(t, 0, "act-a", "call-a");
		add_card(t, 1, "act-b", "call-b");
		assert_int_equal(info_of(t, 0).outcome, TOOL_PENDING);
		assert_null(info_of(t, 0).result_text);
		/* the result for b arrives first: pairing is by id, not by position */
		assert_int_equal(add_result(t, 2, "obs-b", "call-b", outcomes[k].outcome,
					    outcomes[k].text), APPLY_ATTACHED);
		assert_int_equal(transcript_count(t), 2);
		struct item_info b = info_of(t, 1), a = info_of(t, 0);
		assert_int_equal(b.outcome, outcomes[k].outcome);
		assert_string_equal(b.result_text, outcomes[k].text);
		assert_int_equal(a.outcome, TOOL_PENDING);
		assert_null(a.result_text);
		/* the result is recorded by its id: a second copy changes nothing */
		assert_int_equal(add_result(t, 2, "obs-b", "call-b", TOOL_DONE, "again"),
				 APPLY_DUPLICATE);
		assert_string_equal(info_of(t, 1).result_text, outcomes[k].text);
		assert_int_equal(transcript_count(t), 2);
		transcript_destroy(t);
	}
}

/* The card that owns a tool_call_id, and whether it is a shell command: what the text sink
 * pairs a result with. The first card with the id owns it; none for an unknown id. */
static void find_card_by_tool_call_id(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	assert_int_equal(transcript_find_card(t, "call-a"), -1);
	add(t, ITEM_USER, 0, "u", "hi");
	struct item_spec s = spec_of(ITEM_TOOL, 1, "act-a", NULL);
	s.tool_call_id = "call-a";
	s.command = true;
	transcript_add_event(t, &s);
	add_card(t, 2, "act-b", "call-b");
	add_card(t, 3, "act-b2", "call-b");
	assert_int_equal(transcript_find_card(t, "call-a"), 1);
	assert_true(info_of(t, 1).command);
	assert_int_equal(transcript_find_card(t, "call-b"), 2);
	assert_false(info_of(t, 2).command);
	assert_int_equal(transcript_find_card(t, "call-c"), -1);
	assert_int_equal(transcript_find_card(t, NULL), -1);
	/* a result keeps the card where it is */
	add_result(t, 4, "obs-a", "call-a", TOOL_DONE, "ok");
	assert_int_equal(transcript_find_card(t, "call-a"), 1);
	transcript_destroy(t);
}

static void exit_code_comes_with_the_result(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "act", "call");
	struct item_spec s = spec_of(ITEM_TOOL_RESULT, 1, "obs", "boom");
	s.tool_call_id = "call";
	s.outcome = TOOL_FAILED;
	s.has_exit_code = true;
	s.exit_code = 2;
	assert_int_equal(transcript_add_event(t, &s), APPLY_ATTACHED);
	assert_true(info_of(t, 0).has_exit_code);
	assert_int_equal(info_of(t, 0).exit_code, 2);
	transcript_destroy(t);
}

static void run_ended_marks_no_result(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "act-a", "call-a");
	add_card(t, 1, "act-b", "call-b");
	add_result(t, 2, "obs-a", "call-a", TOOL_DONE, "ok");
	transcript_mark_run_ended(t);
	assert_int_equal(info_of(t, 0).outcome, TOOL_DONE);
	assert_int_equal(info_of(t, 1).outcome, TOOL_NO_RESULT);
	size_t idx[4];
	assert_int_equal(transcript_pending_tools(t, idx, 4), 0);
	transcript_destroy(t);
}

/* An action without a tool_call_id can never be paired; the run's end still ends its card
 * instead of leaving it "running" forever. */
static void card_without_call_id_ends_with_the_run(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "act-x", NULL);
	size_t idx[4];
	assert_int_equal(transcript_pending_tools(t, idx, 4), 1);
	transcript_mark_run_ended(t);
	assert_int_equal(info_of(t, 0).outcome, TOOL_NO_RESULT);
	assert_int_equal(transcript_pending_tools(t, idx, 4), 0);
	transcript_destroy(t);
}

static void late_result_after_run_end_still_shows(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "act", "call");
	transcript_mark_run_ended(t);
	assert_int_equal(info_of(t, 0).outcome, TOOL_NO_RESULT);
	assert_int_equal(add_result(t, 1, "obs", "call", TOOL_DONE, "late but here"),
			 APPLY_ATTACHED);
	assert_int_equal(info_of(t, 0).outcome, TOOL_DONE);
	assert_string_equal(info_of(t, 0).result_text, "late but here");
	transcript_destroy(t);
}

static void awaiting_confirmation_flags_pending_cards(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "act-a", "call-a");
	add(t, ITEM_USER, 1, "u", "between");
	add_card(t, 2, "act-b", "call-b");
	add_card(t, 3, "act-c", "call-c");
	add_result(t, 4, "obs-c", "call-c", TOOL_DONE, "ok");
	assert_false(info_of(t, 0).awaiting_confirmation);
	uint64_t gen = transcript_generation(t);
	transcript_set_awaiting_confirmation(t, true);
	assert_true(transcript_generation(t) != gen);
	assert_true(info_of(t, 0).awaiting_confirmation);
	assert_true(info_of(t, 2).awaiting_confirmation);
	assert_false(info_of(t, 3).awaiting_confirmation); /* has its result */
	assert_false(info_of(t, 1).awaiting_confirmation);
	size_t idx[4];
	assert_int_equal(transcript_pending_tools(t, idx, 4), 2);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 2);
	/* max bounds what is filled, not the count */
	size_t one[1];
	assert_int_equal(transcript_pending_tools(t, one, 1), 2);
	assert_int_equal(one[0], 0);
	add_result(t, 5, "obs-a", "call-a", TOOL_REJECTED, "no");
	assert_int_equal(transcript_pending_tools(t, idx, 4), 1);
	assert_int_equal(idx[0], 2);
	transcript_set_awaiting_confirmation(t, false);
	assert_false(info_of(t, 2).awaiting_confirmation);
	transcript_destroy(t);
}

static void pending_indices_follow_insertions(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 5, "u5", "x");
	add_card(t, 6, "act", "call");
	add(t, ITEM_USER, 2, "u2", "older, arrives late");
	size_t idx[2];
	assert_int_equal(transcript_pending_tools(t, idx, 2), 1);
	assert_int_equal(idx[0], (size_t)find_id(t, "act"));
	transcript_destroy(t);
}

static void durable_copy_of_a_card_keeps_its_state(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, -1, "act", "call");
	transcript_mark_run_ended(t);
	assert_int_equal(add_card(t, 0, "act", "call"), APPLY_ADDED);
	assert_int_equal(transcript_count(t), 1);
	assert_int_equal(info_of(t, 0).outcome, TOOL_NO_RESULT);
	size_t idx[1];
	assert_int_equal(transcript_pending_tools(t, idx, 1), 0);
	assert_int_equal(add_result(t, 1, "obs", "call", TOOL_DONE, "ok"), APPLY_ATTACHED);
	assert_int_equal(add_card(t, 0, "act", "call"), APPLY_DUPLICATE);
	assert_int_equal(info_of(t, 0).outcome, TOOL_DONE);
	transcript_destroy(t);
}

static void orphan_result_is_its_own_item(void **state)
{
	(void)state; /* the card was condensed away, or never came */
	struct transcript *t = transcript_create();
	add_card(t, 0, "act", "call");
	assert_int_equal(add_result(t, 1, "obs", "other-call", TOOL_DONE, "output"), APPLY_ADDED);
	assert_int_equal(transcript_count(t), 2);
	assert_int_equal(info_of(t, 1).kind, ITEM_TOOL_RESULT);
	assert_int_equal(info_of(t, 1).outcome, TOOL_DONE);
	assert_int_equal(info_of(t, 0).outcome, TOOL_PENDING);
	assert_int_equal(add_result(t, 1, "obs", "other-call", TOOL_DONE, "output"),
			 APPLY_DUPLICATE);
	transcript_destroy(t);
}

static void second_result_for_a_card_is_not_hidden(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "act", "call");
	add_result(t, 1, "obs", "call", TOOL_DONE, "first");
	assert_int_equal(add_result(t, 2, "err", "call", TOOL_FAILED, "agent error"),
			 APPLY_ADDED);
	assert_int_equal(transcript_count(t), 2);
	assert_string_equal(info_of(t, 0).result_text, "first");
	assert_item_text(t, 1, "agent error");
	transcript_destroy(t);
}

static void transient_result_then_durable_is_one_result(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add_card(t, 0, "act", "call");
	assert_int_equal(add_result(t, -1, "obs", "call", TOOL_DONE, "ok"), APPLY_ATTACHED);
	assert_int_equal(add_result(t, 1, "obs", "call", TOOL_DONE, "ok"), APPLY_DUPLICATE);
	assert_int_equal(transcript_count(t), 1);
	transcript_destroy(t);
}

static void search_is_case_insensitive_over_all_texts(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "u0", "Run the Tests please");
	add_card(t, 1, "act", "call");                     /* summary "$ pytest -q" */
	add_result(t, 2, "obs", "call", TOOL_DONE, "ALL GREEN");
	struct item_spec e = spec_of(ITEM_ERROR, 3, "err", "detail");
	e.title = "LLMTimeout";
	transcript_add_event(t, &e);
	add(t, ITEM_AGENT, 4, "a4", "the tests pass");

	assert_int_equal(transcript_search(t, "tests", 0, false), 0);
	assert_int_equal(transcript_search(t, "tests", 1, false), 3);
	assert_int_equal(transcript_search(t, "PYTEST", 0, false), 1);
	assert_int_equal(transcript_search(t, "all green", 0, false), 1);
	assert_int_equal(transcript_search(t, "llmtimeout", 0, false), 2);
	/* backwards: at or before from */
	assert_int_equal(transcript_search(t, "tests", 3, true), 3);
	assert_int_equal(transcript_search(t, "tests", 2, true), 0);
	assert_int_equal(transcript_search(t, "tests", 99, true), 3);
	assert_int_equal(transcript_search(t, "absent", 0, false), -1);
	assert_int_equal(transcript_search(t, "tests", 4, false), -1);
	assert_int_equal(transcript_search(t, "", 0, false), -1);
	/* a slot's text is searchable as it streams */
	delta(t, "s", 1, 0, "Streaming NEEDLE");
	assert_int_equal(transcript_search(t, "needle", 0, false), 4);
	/* the search line's n/m: items holding it, the place of one counted from the newest */
	size_t rank;
	assert_int_equal(transcript_search_count(t, "tests", 3, &rank), 2);
	assert_int_equal(rank, 1);
	assert_int_equal(transcript_search_count(t, "TESTS", 0, &rank), 2);
	assert_int_equal(rank, 2);
	assert_int_equal(transcript_search_count(t, "tests", 1, &rank), 2);
	assert_int_equal(rank, 0);
	assert_int_equal(transcript_search_count(t, "", 0, &rank), 0);
	transcript_destroy(t);
}

/* A card keeps its action whole (the summary is one cut line) for the confirmation, and its
 * readable arguments for the card, which search reaches to the tail; a result replaces
 * neither. */
static void card_keeps_the_whole_action(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct item_spec s = spec_of(ITEM_TOOL, 0, "act", "thought");
	s.title = "terminal";
	s.summary = "rm -rf build/cache && echo …";
	s.full_action = "command: rm -rf build/cache && echo a long way && rm -rf ~/TAIL";
	s.detail = "$ rm -rf build/cache && echo a long way && rm -rf ~/TAIL";
	s.detail_len = strlen(s.detail);
	s.tool_call_id = "call";
	transcript_add_event(t, &s);
	assert_string_equal(info_of(t, 0).full_action, s.full_action);
	assert_string_equal(info_of(t, 0).detail, s.detail);
	assert_int_equal(transcript_search(t, "~/tail", 0, false), 0);
	add_result(t, 1, "obs", "call", TOOL_DONE, "ok");
	assert_string_equal(info_of(t, 0).full_action, s.full_action);
	assert_string_equal(info_of(t, 0).detail, s.detail);
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(result_pairs_with_card_by_tool_call_id),
		cmocka_unit_test(card_keeps_the_whole_action),
		cmocka_unit_test(exit_code_comes_with_the_result),
		cmocka_unit_test(run_ended_marks_no_result),
		cmocka_unit_test(card_without_call_id_ends_with_the_run),
		cmocka_unit_test(late_result_after_run_end_still_shows),
		cmocka_unit_test(awaiting_confirmation_flags_pending_cards),
		cmocka_unit_test(pending_indices_follow_insertions),
		cmocka_unit_test(durable_copy_of_a_card_keeps_its_state),
		cmocka_unit_test(orphan_result_is_its_own_item),
		cmocka_unit_test(second_result_for_a_card_is_not_hidden),
		cmocka_unit_test(find_card_by_tool_call_id),
		cmocka_unit_test(transient_result_then_durable_is_one_result),
		cmocka_unit_test(search_is_case_insensitive_over_all_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
