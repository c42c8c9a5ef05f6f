/* Issue 15 points 1, 6 and 9 in the rows: a card's output capped with a count that says
 * how to see the rest, the whole output in place once the card is expanded (and capped again
 * when folded), counts that say "1 line" and "2 lines", the thought set apart from the output
 * (its own look and a rule between them), and the time in the header when a clock is set. */
#include "rowcheck.h"

static struct item_spec card(const char *thought, const char *detail)
{
	struct item_spec s = spec_of(ITEM_TOOL, 0, "act", thought);
	s.title = "terminal";
	s.summary = "pytest -v";
	s.tool_call_id = "call";
	s.detail = detail;
	s.detail_len = detail ? strlen(detail) : 0;
	return s;
}

/* A transcript with one card whose output has lines lines. */
static struct transcript *card_with_output(int lines, struct buf *out)
{
	buf_clear(out);
	for (int i = 1; i <= lines; i++)
		buf_printf(out, "%sline %d%s", i > 1 ? "\n" : "", i, i == 100 ? " FAILED" : "");
	struct transcript *t = transcript_create();
	struct item_spec s = card("Run the suite.", NULL);
	transcript_add_event(t, &s);
	add_result(t, 1, "obs", "call", TOOL_FAILED, out->data);
	return t;
}

/* The row of item 0 whose text is want, or -1. */
static long find_row(struct transcript *t, const char *want, int width, struct buf *b)
{
	size_t n = transcript_item_rows(t, 0, width);
	for (size_t r = 0; r < n; r++)
		if (strcmp(item_row_string(t, 0, r, width, b), want) == 0)
			return (long)r;
	return -1;
}

static void expanded_card_shows_the_whole_output_in_place(void **state)
{
	(void)state;
	struct buf out, b;
	buf_init(&out);
	buf_init(&b);
	struct transcript *t = card_with_output(121, &out);
	/* header, thought, rule, 6 output rows, the count, separator */
	assert_int_equal(transcript_item_rows(t, 0, 80), 1 + 1 + 1 + 6 + 1 + 1);
	assert_true(transcript_item_capped(t, 0, 80));
	assert_int_equal(find_row(t, "… 115 more lines", 80, &b), 9);
	struct view_row vr;
	transcript_item_row(t, 0, 9, 80, &vr);
	assert_true(vr.more);
	transcript_item_row(t, 0, 8, 80, &vr);
	assert_false(vr.more);
	assert_int_equal(find_row(t, "line 100 FAILED", 80, &b), -1);
	assert_false(info_of(t, 0).expanded);

	transcript_toggle_expanded(t, 0);
	assert_true(info_of(t, 0).expanded);
	assert_int_equal(transcript_item_rows(t, 0, 80), 1 + 1 + 1 + 121 + 1 + 1);
	assert_int_equal(find_row(t, "line 100 FAILED", 80, &b), 3 + 99);
	assert_int_equal(find_row(t, "line 121", 80, &b), 3 + 120);
	assert_int_equal(find_row(t, "▴ 121 lines", 80, &b), 3 + 121);
	transcript_item_row(t, 0, 3 + 121, 80, &vr);
	assert_true(vr.more);
	assert_true(transcript_item_capped(t, 0, 80));

	transcript_toggle_expanded(t, 0);
	assert_int_equal(transcript_item_rows(t, 0, 80), 1 + 1 + 1 + 6 + 1 + 1);
	assert_int_equal(find_row(t, "line 100 FAILED", 80, &b), -1);
	transcript_destroy(t);

	/* Short output: nothing capped, nothing for Tab to expand. */
	t = card_with_output(3, &out);
	assert_false(transcript_item_capped(t, 0, 80));
	transcript_destroy(t);
	buf_fini(&out);
	buf_fini(&b);
}

static void counts_say_line_or_lines(void **state)
{
	(void)state;
	struct buf out, b;
	buf_init(&out);
	buf_init(&b);
	render_set_words(NULL);
	struct transcript *t = card_with_output(7, &out);
	assert_int_equal(find_row(t, "… 1 more line", 80, &b), 9);
	transcript_destroy(t);
	t = card_with_output(8, &out);
	assert_int_equal(find_row(t, "… 2 more lines", 80, &b), 9);
	transcript_destroy(t);

	/* Lines, not rows: 10 lines of 2 rows each at width 20, 3 of them in the 6 rows shown. */
	buf_clear(&out);
	for (int i = 0; i < 10; i++)
		buf_printf(&out, "%sline %d aaaa bbbb cccc dddd", i ? "\n" : "", i);
	t = transcript_create();
	struct item_spec c = card("Go.", NULL);
	transcript_add_event(t, &c);
	add_result(t, 1, "obs", "call", TOOL_DONE, out.data);
	assert_int_equal(find_row(t, "… 7 more lines", 20, &b), 9);
	transcript_toggle_expanded(t, 0);
	assert_int_equal(find_row(t, "▴ 10 lines", 20, &b), 3 + 20);
	transcript_destroy(t);

	t = transcript_create();
	struct item_spec s = spec_of(ITEM_SYSTEM, 0, "sys", "You are an agent.");
	transcript_add_event(t, &s);
	assert_string_equal(item_row_string(t, 0, 0, 80, &b), "▸ system prompt (1 line)");
	transcript_destroy(t);

	/* 17 argument rows: one more than a card shows. */
	buf_clear(&out);
	for (int i = 1; i <= 17; i++)
		buf_printf(&out, "%d. [ ] task %d\n", i, i);
	t = transcript_create();
	s = card(NULL, out.data);
	transcript_add_event(t, &s);
	assert_int_equal(find_row(t, "… 1 more line", 80, &b), 17);
	transcript_destroy(t);
	buf_fini(&out);
	buf_fini(&b);
}

/* The style of every span of row r of item 0. */
static uint16_t row_styles(struct transcript *t, size_t r, int width, bool all)
{
	struct view_row vr;
	transcript_item_row(t, 0, r, width, &vr);
	uint16_t acc = all ? 0xffff : 0;
	for (size_t i = 0; i < vr.nspans; i++)
		acc = all ? (uint16_t)(acc & vr.spans[i].style) : (uint16_t)(acc | vr.spans[i].style);
	return acc;
}

static void thought_and_output_look_apart(void **state)
{
	(void)state;
	struct buf out, b;
	buf_init(&out);
	buf_init(&b);
	struct transcript *t = card_with_output(2, &out);
	assert_string_equal(item_row_string(t, 0, 1, 40, &b), "Run the suite.");
	/* The thought: italic, never dim. The output: dim. A rule between, to the edge. */
	assert_true(row_styles(t, 1, 40, true) & STYLE_ITALIC);
	assert_false(row_styles(t, 1, 40, false) & STYLE_DIM);
	const char *rule = item_row_string(t, 0, 2, 40, &b);
	assert_true(strncmp(rule, "── output ─", strlen("── output ─")) == 0);
	assert_int_equal(text_width(rule, strlen(rule)), 40);
	assert_string_equal(item_row_string(t, 0, 3, 40, &b), "line 1");
	assert_true(row_styles(t, 3, 40, true) & STYLE_DIM);
	assert_false(row_styles(t, 3, 40, false) & STYLE_ITALIC);
	transcript_destroy(t);
	buf_fini(&out);
	buf_fini(&b);
}

static bool fake_clock(const char *iso, char *out, size_t size)
{
	if (strncmp(iso, "2026-", 5) != 0)
		return false;
	snprintf(out, size, "[%.5s]", iso + 11);
	return true;
}

static void header_shows_the_time_when_a_clock_is_set(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	struct transcript *t = transcript_create();
	struct item_spec s = spec_of(ITEM_USER, 0, "u", "hi");
	s.timestamp = "2026-12-03T09:05:59.123";
	transcript_add_event(t, &s);
	s = spec_of(ITEM_AGENT, 1, "a", "hello");
	s.timestamp = "garbage";
	transcript_add_event(t, &s);
	s = spec_of(ITEM_NOTICE, -1, NULL, "local");
	s.title = "paused";
	transcript_add_event(t, &s);
	assert_string_equal(item_row_string(t, 0, 0, 80, &b), "you");
	render_set_clock(fake_clock);
	assert_true(render_clock_shown());
	/* The cached rows are built again: no item changed, the look did. */
	assert_string_equal(item_row_string(t, 0, 0, 80, &b), "[09:05] you");
	assert_string_equal(item_row_string(t, 1, 0, 80, &b), "agent");
	assert_string_equal(item_row_string(t, 2, 0, 80, &b), "· paused");
	render_set_clock(NULL);
	assert_false(render_clock_shown());
	assert_string_equal(item_row_string(t, 0, 0, 80, &b), "you");
	transcript_destroy(t);
	buf_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(expanded_card_shows_the_whole_output_in_place),
		cmocka_unit_test(counts_say_line_or_lines),
		cmocka_unit_test(thought_and_output_look_apart),
		cmocka_unit_test(header_shows_the_time_when_a_clock_is_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
