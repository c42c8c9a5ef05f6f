/* Tool cards as events of the SDK's standard tools need them (issue 13): the header keeps its
 * status and risk at any width, the arguments are rows of their own (laid out as markdown,
 * capped), the outcomes of hooks and timeouts are told apart, and a card may arrive with its
 * result (an ACP tool call). */
#include "rowcheck.h"

static bool contains(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static struct item_spec card(const char *title, const char *summary, const char *detail)
{
	struct item_spec s = spec_of(ITEM_TOOL, 0, "act", NULL);
	s.title = title;
	s.summary = summary;
	s.tool_call_id = "call";
	s.detail = detail;
	s.detail_len = detail ? strlen(detail) : 0;
	return s;
}

static void header_keeps_status_and_risk_at_any_width(void **state)
{
	(void)state;
	static const char *const long_summary =
		"SESSION_URL=\"${AUTOMATION_SESSION_URL:-${AUTOMATION_API_URL:-https://app.all-hands.dev}}\" …";
	struct buf b;
	buf_init(&b);
	for (int width = 40; width <= 160; width += 8) {
		struct transcript *t = transcript_create();
		struct item_spec s = card("terminal", long_summary, NULL);
		s.risk = 4;
		transcript_add_event(t, &s);
		add_result(t, 1, "obs", "call", TOOL_STILL_RUNNING, "Serving");
		const char *h = item_row_string(t, 0, 0, width, &b);
		assert_true(contains(h, "⚙ terminal  ⧗ still running  [HIGH]"));
		assert_true(text_width(h, strlen(h)) <= width);
		transcript_destroy(t);

		/* A long title (an ACP tool call's) gives way too. */
		t = transcript_create();
		s = card("Write tests/test_summary.py and three more files in the tests directory",
			 "edit", NULL);
		s.risk = 3;
		transcript_add_event(t, &s);
		add_result(t, 1, "obs", "call", TOOL_FAILED, "no");
		h = item_row_string(t, 0, 0, width, &b);
		assert_true(contains(h, "…  ✗ failed  [MEDIUM]"));
		assert_true(text_width(h, strlen(h)) <= width);
		transcript_destroy(t);
	}
	buf_fini(&b);
}

static void outcomes_of_hooks_and_timeouts(void **state)
{
	(void)state;
	static const struct {
		enum tool_outcome outcome;
		const char *want;
	} cases[] = {
		{ TOOL_BLOCKED, "⚙ terminal  ⊘ blocked by hook  git push" },
		{ TOOL_REJECTED, "⚙ terminal  ⊘ rejected  git push" },
		{ TOOL_STILL_RUNNING, "⚙ terminal  ⧗ still running  git push" },
		{ TOOL_TIMED_OUT, "⚙ terminal  ⧗ timed out  git push" },
	};
	struct buf b;
	buf_init(&b);
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct transcript *t = transcript_create();
		struct item_spec s = card("terminal", "git push", NULL);
		transcript_add_event(t, &s);
		add_result(t, 1, "obs", "call", cases[k].outcome, "why");
		assert_string_equal(item_row_string(t, 0, 0, 80, &b), cases[k].want);
		assert_int_equal(transcript_pending_tools(t, NULL, 0), 0);
		transcript_destroy(t);
	}
	buf_fini(&b);
}

static void arguments_are_rows_of_their_own(void **state)
{
	(void)state;
	const char *detail = "```\ncd src\nmake\n```\ntimeout: 30 s";
	struct transcript *t = transcript_create();
	struct item_spec s = card("terminal", "cd src …", detail);
	s.text = "Build it.";
	s.text_len = strlen(s.text);
	transcript_add_event(t, &s);
	add_result(t, 1, "obs", "call", TOOL_DONE, "ok");
	/* header, body (1 row), arguments (dim), the output's rule, result (1 row), separator */
	struct layout l;
	layout_alone(&l, detail, strlen(detail), 60, LAYOUT_MARKDOWN);
	assert_int_equal(transcript_item_rows(t, 0, 60), 1 + 1 + l.nrows + 1 + 1 + 1);
	assert_rows_are_layout(t, 0, 2, &l, 60, STYLE_DIM);
	struct buf b;
	buf_init(&b);
	assert_string_equal(item_row_string(t, 0, 2 + l.nrows + 1, 60, &b), "ok");
	struct item_info info = info_of(t, 0);
	assert_int_equal(info.detail_len, strlen(detail));
	layout_fini(&l);
	buf_fini(&b);
	transcript_destroy(t);
}

static void long_arguments_are_capped_with_a_count(void **state)
{
	(void)state;
	struct buf d, b;
	buf_init(&d);
	buf_init(&b);
	for (int i = 1; i <= 40; i++)
		buf_printf(&d, "%d. [ ] task %d\n", i, i);
	struct transcript *t = transcript_create();
	struct item_spec s = card("task_tracker", "plan", d.data);
	transcript_add_event(t, &s);
	size_t rows = transcript_item_rows(t, 0, 60);
	/* header, 16 argument rows, the count, separator */
	assert_int_equal(rows, 1 + 16 + 1 + 1);
	assert_string_equal(item_row_string(t, 0, 17, 60, &b), "… 24 more lines");
	buf_fini(&d);
	buf_fini(&b);
	transcript_destroy(t);
}

/* An edit (issue 27): its arguments' diff until the result's diff, with line numbers, takes
 * their place; a long diff is capped, counted in the lines it shows (a closing fence is
 * none), and laid out as a diff. */
static void an_edit_result_diff_takes_the_arguments_place(void **state)
{
	(void)state;
	struct buf d, b;
	buf_init(&d);
	buf_init(&b);
	struct transcript *t = transcript_create();
	struct item_spec s = card("file_editor", "create /w/a.sh",
				  "```diff\n--- /dev/null\n+++ /w/a.sh\n@@ -0,0 +?,1 @@\n+echo 1\n```");
	transcript_add_event(t, &s);
	/* header, fence rule, 3 diff header rows, one line, separator */
	assert_int_equal(transcript_item_rows(t, 0, 60), 1 + 1 + 3 + 1 + 1);
	buf_puts(&d, "```diff\n--- /dev/null\n+++ /w/a.sh\n@@ -0,0 +1,30 @@\n");
	for (int i = 1; i <= 30; i++)
		buf_printf(&d, "+echo %d\n", i);
	buf_puts(&d, "```");
	add_result(t, 1, "obs", "call", TOOL_DONE, d.data);
	/* header, the output's rule, 16 rows of the diff, the count, separator */
	assert_int_equal(transcript_item_rows(t, 0, 60), 1 + 1 + 16 + 1 + 1);
	assert_string_equal(item_row_string(t, 0, 2, 60, &b), "── diff ──────────────────────────────────────────────────");
	assert_string_equal(item_row_string(t, 0, 6, 60, &b), "+echo 1");
	/* 34 lines shown as rows: the rule, 3 header lines, 30 added; 16 shown */
	assert_string_equal(item_row_string(t, 0, 18, 60, &b), "… 18 more lines");
	struct view_row r;
	transcript_item_row(t, 0, 6, 60, &r);
	assert_int_equal(STYLE_TOKEN_OF(r.spans[0].style), TOKEN_DIFF_ADD);
	buf_fini(&d);
	buf_fini(&b);
	transcript_destroy(t);
}

static void a_card_may_come_with_its_result(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct item_spec s = card("Read a.py", "read", "path: a.py");
	s.has_result = true;
	s.outcome = TOOL_DONE;
	s.result = "print(1)";
	s.result_len = strlen(s.result);
	transcript_add_event(t, &s);
	assert_int_equal(transcript_pending_tools(t, NULL, 0), 0);
	struct item_info info = info_of(t, 0);
	assert_int_equal(info.outcome, TOOL_DONE);
	assert_string_equal(info.result_text, "print(1)");
	struct buf b;
	buf_init(&b);
	assert_string_equal(item_row_string(t, 0, 0, 60, &b), "⚙ Read a.py  ✓ done  read");
	assert_string_equal(item_row_string(t, 0, 1, 60, &b), "path: a.py");
	assert_true(strncmp(item_row_string(t, 0, 2, 60, &b), "── output ─", 13) == 0);
	assert_string_equal(item_row_string(t, 0, 3, 60, &b), "print(1)");
	/* The end of the run does not turn it into "no result". */
	transcript_mark_run_ended(t);
	assert_int_equal(info_of(t, 0).outcome, TOOL_DONE);
	buf_fini(&b);
	transcript_destroy(t);
}

/* A rejection's text is why the call did not run: its rule says so, not "output". */
static void a_rejection_is_a_reason_not_output(void **state)
{
	(void)state;
	static const enum tool_outcome outcomes[] = { TOOL_REJECTED, TOOL_BLOCKED };
	for (size_t i = 0; i < sizeof outcomes / sizeof *outcomes; i++) {
		struct transcript *t = transcript_create();
		struct item_spec s = card("terminal", "git push", NULL);
		s.has_result = true;
		s.outcome = outcomes[i];
		s.result = "No force pushes.";
		s.result_len = strlen(s.result);
		transcript_add_event(t, &s);
		struct buf b;
		buf_init(&b);
		assert_true(strncmp(item_row_string(t, 0, 1, 40, &b), "── reason ─", 13) == 0);
		assert_string_equal(item_row_string(t, 0, 2, 40, &b), "No force pushes.");
		buf_fini(&b);
		transcript_destroy(t);
	}
}

/* An AgentErrorEvent for the call is the agent's error, not what the tool printed; whether it
 * comes after the card or before it (an orphan the card adopts). */
static void an_agent_error_is_an_error_not_output(void **state)
{
	(void)state;
	for (int before = 0; before < 2; before++) {
		struct transcript *t = transcript_create();
		struct item_spec c = card("terminal", "ls", NULL);
		c.seq = 1;
		struct item_spec e = spec_of(ITEM_TOOL_RESULT, 2, "err", "Invalid arguments");
		e.tool_call_id = "call";
		e.outcome = TOOL_FAILED;
		e.agent_error = true;
		transcript_add_event(t, before ? &e : &c);
		transcript_add_event(t, before ? &c : &e);
		size_t idx = transcript_count(t) - 1;
		assert_true(info_of(t, idx).agent_error);
		struct buf b;
		buf_init(&b);
		assert_true(strncmp(item_row_string(t, idx, 1, 40, &b), "── error ─", 12) == 0);
		assert_string_equal(item_row_string(t, idx, 2, 40, &b), "Invalid arguments");
		buf_fini(&b);
		transcript_destroy(t);
	}
}

/* ACP emits the same tool call again as it progresses: one card, the last emission's content. */
static void a_later_emission_replaces_the_card(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct item_spec s = card("Write a.py", "edit", "file_path: a.py");
	s.replaces_card = true;
	assert_int_equal(transcript_add_event(t, &s), APPLY_ADDED);
	assert_int_equal(transcript_pending_tools(t, NULL, 0), 1);
	struct item_spec done = card("Write a.py", "edit", "file_path: a.py\ncontent: x");
	done.id = "act2";
	done.seq = 5;
	done.replaces_card = true;
	done.has_result = true;
	done.outcome = TOOL_FAILED;
	done.result = "disk full";
	done.result_len = strlen(done.result);
	assert_int_equal(transcript_add_event(t, &done), APPLY_ATTACHED);
	assert_int_equal(transcript_count(t), 1);
	assert_int_equal(transcript_pending_tools(t, NULL, 0), 0);
	struct item_info info = info_of(t, 0);
	assert_int_equal(info.seq, 0);
	assert_int_equal(info.outcome, TOOL_FAILED);
	assert_string_equal(info.result_text, "disk full");
	assert_string_equal(info.detail, "file_path: a.py\ncontent: x");
	/* The same emission again (a replay) changes nothing. */
	assert_int_equal(transcript_add_event(t, &done), APPLY_DUPLICATE);
	/* Without replaces_card a second card is a second call. */
	struct item_spec other = card("Write a.py", "edit", NULL);
	other.id = "act3";
	assert_int_equal(transcript_add_event(t, &other), APPLY_ADDED);
	assert_int_equal(transcript_count(t), 2);
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_keeps_status_and_risk_at_any_width),
		cmocka_unit_test(outcomes_of_hooks_and_timeouts),
		cmocka_unit_test(arguments_are_rows_of_their_own),
		cmocka_unit_test(an_edit_result_diff_takes_the_arguments_place),
		cmocka_unit_test(long_arguments_are_capped_with_a_count),
		cmocka_unit_test(a_card_may_come_with_its_result),
		cmocka_unit_test(a_rejection_is_a_reason_not_output),
		cmocka_unit_test(an_agent_error_is_an_error_not_output),
		cmocka_unit_test(a_later_emission_replaces_the_card),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
