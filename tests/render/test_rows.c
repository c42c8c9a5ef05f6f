/* Rows of items: headers, reasoning, bodies, capped tool output, separators, and the
 * per-item cache. Bodies are compared with an independent layout of the same text, so these
 * hold for any correct layout. */
#include "rowcheck.h"

#define W 60

static bool contains(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static void user_and_agent_headers(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct buf b;
	buf_init(&b);
	add(t, ITEM_USER, 0, "u", "hi");
	add(t, ITEM_AGENT, 1, "a", "hello");
	assert_string_equal(item_row_string(t, 0, 0, W, &b), "you");
	assert_string_equal(item_row_string(t, 1, 0, W, &b), "agent");
	struct view_row vr;
	transcript_item_row(t, 0, 0, W, &vr);
	assert_true(vr.header);
	assert_int_equal(vr.item, 0);
	assert_int_equal(vr.kind, ITEM_USER);
	buf_fini(&b);
	transcript_destroy(t);
}

static void stream_header_shows_its_state(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct buf b;
	buf_init(&b);
	transcript_stream_start(t, "s", 1, false, 0);
	const char *h = item_row_string(t, 0, 0, W, &b);
	assert_true(contains(h, "agent ▍"));
	assert_false(contains(h, "retry"));
	assert_false(contains(h, "stalled"));
	assert_false(contains(h, "incomplete"));
	transcript_stream_start(t, "s", 2, false, 0);
	assert_true(contains(item_row_string(t, 0, 0, W, &b), " (retry 2)"));
	transcript_stream_set_stalled(t, "s", true);
	assert_true(contains(item_row_string(t, 0, 0, W, &b), " (stalled)"));
	delta(t, "s", 2, 3, "gap");
	assert_true(contains(item_row_string(t, 0, 0, W, &b), " (incomplete)"));
	add(t, ITEM_AGENT, 0, "s", "final");
	h = item_row_string(t, 0, 0, W, &b);
	assert_string_equal(h, "agent");
	buf_fini(&b);
	transcript_destroy(t);
}

static void tool_card_header_follows_the_outcome(void **state)
{
	(void)state;
	static const struct {
		enum tool_outcome outcome;
		bool exit;
		const char *want;
	} cases[] = {
		{ TOOL_DONE, true, "✓ exit 0" },
		{ TOOL_DONE, false, "✓" },
		{ TOOL_FAILED, false, "✗ failed" },
		{ TOOL_REJECTED, false, "⊘ rejected" },
	};
	struct buf b;
	buf_init(&b);
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct transcript *t = transcript_create();
		add_card(t, 0, "act", "call");
		const char *h = item_row_string(t, 0, 0, W, &b);
		assert_true(contains(h, "⚙ terminal"));
		assert_true(contains(h, "$ pytest -q"));
		assert_false(contains(h, "[LOW]")); /* not worth a label */
		assert_true(contains(h, "… running"));
		struct item_spec s = spec_of(ITEM_TOOL_RESULT, 1, "obs", "out");
		s.tool_call_id = "call";
		s.outcome = cases[k].outcome;
		s.has_exit_code = cases[k].exit;
		transcript_add_event(t, &s);
		h = item_row_string(t, 0, 0, W, &b);
		assert_true(contains(h, cases[k].want));
		assert_false(contains(h, "running"));
		transcript_destroy(t);
	}
	buf_fini(&b);
}

static void tool_card_header_waiting_states(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct buf b;
	buf_init(&b);
	add_card(t, 0, "act", "call");
	transcript_set_awaiting_confirmation(t, true);
	assert_true(contains(item_row_string(t, 0, 0, W, &b), "? awaiting confirmation"));
	transcript_set_awaiting_confirmation(t, false);
	assert_true(contains(item_row_string(t, 0, 0, W, &b), "… running"));
	transcript_mark_run_ended(t);
	assert_true(contains(item_row_string(t, 0, 0, W, &b), "— no result (run ended)"));
	buf_fini(&b);
	transcript_destroy(t);
}

static void error_header_names_the_code(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct buf b;
	buf_init(&b);
	struct item_spec s = spec_of(ITEM_ERROR, 0, "e", "the model timed out");
	s.title = "LLMTimeout";
	transcript_add_event(t, &s);
	assert_string_equal(item_row_string(t, 0, 0, W, &b), "✗ LLMTimeout");
	buf_fini(&b);
	transcript_destroy(t);
}

static void long_header_is_cut_to_the_width(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct buf b;
	buf_init(&b);
	struct item_spec s = spec_of(ITEM_TOOL, 0, "act", "");
	s.title = "terminal";
	s.summary = "$ find / -name '*.c' -exec grep -l 日本語 {} + | sort | uniq -c";
	s.tool_call_id = "c";
	transcript_add_event(t, &s);
	for (int w = 1; w < 40; w++) {
		const char *h = item_row_string(t, 0, 0, w, &b);
		assert_true(text_width(h, strlen(h)) <= w);
		assert_true(b.len >= strlen("…"));
		assert_string_equal(h + b.len - strlen("…"), "…");
	}
	buf_fini(&b);
	transcript_destroy(t);
}

static void body_rows_are_the_layout_of_the_text(void **state)
{
	(void)state;
	static const char text[] = "# Title\n\nSome **bold** and `code` words that wrap around "
				   "the edge of a narrow view.\n\n```\nint x;\n```\n- a\n- b";
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "u", text);
	add(t, ITEM_NOTICE, 1, "n", text);
	for (int w = 8; w <= 80; w += 24) {
		struct layout md, plain;
		layout_alone(&md, text, strlen(text), w, LAYOUT_MARKDOWN);
		layout_alone(&plain, text, strlen(text), w, 0);
		assert_int_equal(transcript_item_rows(t, 0, w), 1 + md.nrows + 1);
		assert_rows_are_layout(t, 0, 1, &md, w, 0);
		assert_int_equal(transcript_item_rows(t, 1, w), 1 + plain.nrows + 1);
		assert_rows_are_layout(t, 1, 1, &plain, w, 0);
		struct view_row vr;
		transcript_item_row(t, 0, md.nrows + 1, w, &vr);
		assert_true(vr.separator);
		assert_int_equal(vr.nspans, 0);
		layout_fini(&md);
		layout_fini(&plain);
	}
	transcript_destroy(t);
}

static void reasoning_collapsed_then_expanded(void **state)
{
	(void)state;
	static const char why[] = "first I look\nthen I think\nthen I answer";
	struct transcript *t = transcript_create();
	struct buf b;
	buf_init(&b);
	struct item_spec s = spec_of(ITEM_AGENT, 0, "a", "answer");
	s.reasoning = why;
	s.reasoning_len = strlen(why);
	transcript_add_event(t, &s);
	render_set_words(&(struct render_words){ .expand_hint = "Tab to expand" });
	struct layout body, rl;
	layout_alone(&body, "answer", 6, W, LAYOUT_MARKDOWN);
	layout_alone(&rl, why, strlen(why), W, 0);

	assert_int_equal(transcript_item_rows(t, 0, W), 1 + 1 + body.nrows + 1);
	assert_string_equal(item_row_string(t, 0, 1, W, &b),
			    "▸ reasoning (3 lines) — Tab to expand");
	assert_rows_are_layout(t, 0, 2, &body, W, 0);

	transcript_toggle_reasoning(t, 0);
	assert_int_equal(transcript_item_rows(t, 0, W), 1 + 1 + rl.nrows + body.nrows + 1);
	assert_string_equal(item_row_string(t, 0, 1, W, &b), "▾ reasoning");
	assert_rows_are_layout(t, 0, 2, &rl, W, STYLE_DIM | STYLE_ITALIC);
	assert_rows_are_layout(t, 0, 2 + rl.nrows, &body, W, 0);

	transcript_toggle_reasoning(t, 0);
	assert_int_equal(transcript_item_rows(t, 0, W), 1 + 1 + body.nrows + 1);
	layout_fini(&body);
	layout_fini(&rl);
	buf_fini(&b);
	transcript_destroy(t);
}

/* The view names no key: the hint after a collapsed section is the caller's, or none. */
static void collapsed_hint_comes_from_the_caller(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct buf b;
	buf_init(&b);
	struct item_spec s = spec_of(ITEM_AGENT, 0, "a", "answer");
	s.reasoning = "why";
	s.reasoning_len = 3;
	transcript_add_event(t, &s);
	render_set_words(NULL);
	assert_string_equal(item_row_string(t, 0, 1, W, &b), "▸ reasoning (1 line)");
	render_set_words(&(struct render_words){ .expand_hint = "F2 opens it" });
	transcript_toggle_reasoning(t, 0);
	transcript_toggle_reasoning(t, 0);
	assert_string_equal(item_row_string(t, 0, 1, W, &b), "▸ reasoning (1 line) — F2 opens it");
	render_set_words(NULL);
	buf_fini(&b);
	transcript_destroy(t);
}

static void tool_output_is_capped_with_a_count(void **state)
{
	(void)state;
	struct buf out, b;
	buf_init(&out);
	buf_init(&b);
	for (int i = 0; i < 20; i++)
		buf_printf(&out, "line %d of the output\n", i);
	struct transcript *t = transcript_create();
	add_card(t, 0, "act", "call");
	add_result(t, 1, "obs", "call", TOOL_DONE, out.data);
	add_result(t, 2, "orphan", "gone", TOOL_DONE, out.data);
	add_result(t, 3, "short", "gone2", TOOL_DONE, "just one line");
	struct layout thought, res, one;
	layout_alone(&thought, "thought", 7, W, LAYOUT_MARKDOWN);
	layout_alone(&res, out.data, out.len, W, 0);
	layout_alone(&one, "just one line", 13, W, 0);
	assert_true(res.nrows > 6);

	/* card: header, thought, the output's rule, 6 result rows, "… N more lines", separator */
	assert_int_equal(transcript_item_rows(t, 0, W), 1 + thought.nrows + 1 + 6 + 1 + 1);
	struct layout six = res;
	six.nrows = 6;
	assert_rows_are_layout(t, 0, 1 + thought.nrows + 1, &six, W, STYLE_DIM);
	char want[64];
	snprintf(want, sizeof want, "… %zu more lines", res.nrows - 6);
	assert_string_equal(item_row_string(t, 0, 1 + thought.nrows + 1 + 6, W, &b), want);

	/* an orphan result: its text is the output, capped the same way */
	assert_int_equal(transcript_item_rows(t, 1, W), 1 + 6 + 1 + 1);
	assert_rows_are_layout(t, 1, 1, &six, W, STYLE_DIM);
	assert_string_equal(item_row_string(t, 1, 7, W, &b), want);
	/* short output: no count row */
	assert_int_equal(transcript_item_rows(t, 2, W), 1 + one.nrows + 1);
	assert_rows_are_layout(t, 2, 1, &one, W, STYLE_DIM);

	layout_fini(&thought);
	layout_fini(&res);
	layout_fini(&one);
	buf_fini(&out);
	buf_fini(&b);
	transcript_destroy(t);
}

static void streaming_rows_show_only_what_was_revealed(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "s", 1, false, 0);
	/* one header + separator while nothing is revealed */
	delta(t, "s", 1, 0, "Here is **a** long reply\nwith `code` and ");
	assert_int_equal(transcript_item_rows(t, 0, W), 2);
	int64_t order = 1;
	for (int round = 0; round < 30; round++) {
		char piece[64];
		snprintf(piece, sizeof piece, "word%d %s", round, round % 5 == 4 ? "\n\n" : "");
		delta(t, "s", 1, order++, piece);
		transcript_reveal_tick(t);
		size_t shown = transcript_shown_len(t, 0);
		struct item_info info = info_of(t, 0);
		struct layout l;
		layout_alone(&l, info.text, shown, W, LAYOUT_MARKDOWN | LAYOUT_REFLOW | LAYOUT_STREAMING);
		assert_int_equal(transcript_item_rows(t, 0, W), 1 + l.nrows + 1);
		assert_rows_are_layout(t, 0, 1, &l, W, 0);
		layout_fini(&l);
	}
	transcript_destroy(t);
}

static void row_cache_is_kept_per_width_and_version(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	add(t, ITEM_USER, 0, "u", "some text to lay out");
	transcript_item_rows(t, 0, W);
	uint64_t built = render_layouts_built();
	transcript_item_rows(t, 0, W);
	struct view_row vr;
	transcript_item_row(t, 0, 1, W, &vr);
	assert_int_equal(render_layouts_built(), built);
	transcript_item_rows(t, 0, W / 2);
	assert_int_equal(render_layouts_built(), built + 1);
	add(t, ITEM_USER, 1, "v", "another"); /* other items do not invalidate this one */
	transcript_item_rows(t, 0, W / 2);
	assert_int_equal(render_layouts_built(), built + 1);
	transcript_toggle_reasoning(t, 0);
	transcript_item_rows(t, 0, W / 2);
	assert_int_equal(render_layouts_built(), built + 2);
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(user_and_agent_headers),
		cmocka_unit_test(collapsed_hint_comes_from_the_caller),
		cmocka_unit_test(stream_header_shows_its_state),
		cmocka_unit_test(tool_card_header_follows_the_outcome),
		cmocka_unit_test(tool_card_header_waiting_states),
		cmocka_unit_test(error_header_names_the_code),
		cmocka_unit_test(long_header_is_cut_to_the_width),
		cmocka_unit_test(body_rows_are_the_layout_of_the_text),
		cmocka_unit_test(reasoning_collapsed_then_expanded),
		cmocka_unit_test(tool_output_is_capped_with_a_count),
		cmocka_unit_test(streaming_rows_show_only_what_was_revealed),
		cmocka_unit_test(row_cache_is_kept_per_width_and_version),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
