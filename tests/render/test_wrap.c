/* Wrapping plain text: exact rows for given texts and widths. */
#include "text_test.h"

#define FAMILY "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7"
#define MAN_ZWJ "\xf0\x9f\x91\xa8\xe2\x80\x8d"
#define WOMAN_ZWJ "\xf0\x9f\x91\xa9\xe2\x80\x8d"
#define GIRL "\xf0\x9f\x91\xa7"

static void test_breaks_at_spaces(void **state)
{
	(void)state;
	EXPECT_LAYOUT("hello world foo bar baz", 10, 0, "hello\nworld foo\nbar baz");
	EXPECT_LAYOUT("hello world foo bar baz", 80, 0, "hello world foo bar baz");
	EXPECT_LAYOUT("exactly ten", 11, 0, "exactly ten");
	EXPECT_LAYOUT("exactly ten", 10, 0, "exactly\nten");
	/* the blanks at a break are dropped, blanks inside a row kept */
	EXPECT_LAYOUT("aaaa    bbbb", 6, 0, "aaaa\nbbbb");
	EXPECT_LAYOUT("a  b", 10, 0, "a  b");
	EXPECT_LAYOUT("abc   ", 10, 0, "abc");
	EXPECT_LAYOUT("  indented", 20, 0, "  indented");
}

static void test_long_words_break_inside(void **state)
{
	(void)state;
	EXPECT_LAYOUT("abcdefghijklmnopqrstuvwxyz", 10, 0, "abcdefghij\nklmnopqrst\nuvwxyz");
	EXPECT_LAYOUT("hi abcdefghijkl", 5, 0, "hi\nabcde\nfghij\nkl");
	EXPECT_LAYOUT("see https://example.com/a/very/long/path ok", 12, 0,
		      "see\nhttps://exam\nple.com/a/ve\nry/long/path\nok");
}

static void test_width_one(void **state)
{
	(void)state;
	EXPECT_LAYOUT("ab c", 1, 0, "a\nb\nc");
	/* a wide character cannot fit one column: it shows as '?' rather than overflow */
	EXPECT_LAYOUT("\xe4\xbd\xa0" "a", 1, 0, "?\na");
	EXPECT_LAYOUT("x", 0, 0, "x"); /* widths below 1 count as 1 */
}

static void test_wide_characters(void **state)
{
	(void)state;
	/* at an odd width the last column stays blank rather than split a character */
	EXPECT_LAYOUT("\xe4\xbd\xa0\xe5\xa5\xbd\xe4\xb8\x96\xe7\x95\x8c", 5, 0,
		      "\xe4\xbd\xa0\xe5\xa5\xbd\n\xe4\xb8\x96\xe7\x95\x8c");
	struct layout l;
	layout_init(&l);
	layout_update(&l, "\xe4\xbd\xa0\xe5\xa5\xbd\xe4\xb8\x96", 5, 5, 0);
	assert_int_equal(l.nrows, 1);
	layout_update(&l, "\xe4\xbd\xa0\xe5\xa5\xbd\xe4\xb8\x96", 9, 5, 0);
	assert_int_equal(l.nrows, 2);
	assert_int_equal(l.rows[0].width, 4);
	assert_int_equal(l.rows[1].width, 2);
	layout_fini(&l);
	/* CJK breaks between characters, no space needed */
	EXPECT_LAYOUT("ab\xe4\xbd\xa0\xe5\xa5\xbd", 3, 0, "ab\n\xe4\xbd\xa0\n\xe5\xa5\xbd");
	EXPECT_LAYOUT("ab\xe4\xbd\xa0\xe5\xa5\xbd", 6, 0, "ab\xe4\xbd\xa0\xe5\xa5\xbd");
}

static void test_clusters_stay_whole(void **state)
{
	(void)state;
	EXPECT_LAYOUT("e\xcc\x81" "e\xcc\x81" "e\xcc\x81", 2, 0, "e\xcc\x81" "e\xcc\x81\ne\xcc\x81");
	EXPECT_LAYOUT("ab" FAMILY, 7, 0, "ab\n" FAMILY);
	EXPECT_LAYOUT("ab" FAMILY, 8, 0, "ab" FAMILY);
	/* only a cluster wider than the whole row is cut, at code points */
	EXPECT_LAYOUT(FAMILY, 5, 0, MAN_ZWJ WOMAN_ZWJ "\n" GIRL);
}

static void test_tabs_expand(void **state)
{
	(void)state;
	EXPECT_LAYOUT("a\tb", 20, 0, "a   b");
	EXPECT_LAYOUT("abcd\tb", 20, 0, "abcd    b");
	EXPECT_LAYOUT("\tx", 20, 0, "    x");
	EXPECT_LAYOUT("ab\tc\td", 20, 0, "ab  c   d");
	/* a tab is a blank: dropped at a break */
	EXPECT_LAYOUT("abcde\tfg", 6, 0, "abcde\nfg");
}

static void test_newlines_make_rows(void **state)
{
	(void)state;
	EXPECT_LAYOUT("", 10, 0, "");
	EXPECT_LAYOUT("a", 10, 0, "a");
	EXPECT_LAYOUT("a\nb", 10, 0, "a\nb");
	EXPECT_LAYOUT("a\n\nb", 10, 0, "a\n\nb");
	/* a '\n' ends a line: no empty row after a final one */
	EXPECT_LAYOUT("a\n", 10, 0, "a");
	EXPECT_LAYOUT("a\n\n", 10, 0, "a\n");
	struct layout l;
	layout_init(&l);
	layout_update(&l, "\n\n", 2, 10, 0);
	assert_int_equal(l.nrows, 2);
	assert_int_equal(l.rows[0].width, 0);
	assert_int_equal(l.rows[0].span_count, 0);
	layout_update(&l, "", 0, 10, 0);
	assert_int_equal(l.nrows, 0);
	layout_fini(&l);
}

static void test_plain_text_keeps_markers(void **state)
{
	(void)state;
	EXPECT_LAYOUT("# not a heading **x** `y`", 80, 0, "# not a heading **x** `y`");
}

static void test_very_long_lines(void **state)
{
	(void)state;
	struct buf s;
	buf_init(&s);
	for (int i = 0; i < 10000; i++)
		buf_putc(&s, (char)('a' + i % 26));
	struct layout l;
	layout_init(&l);
	for (int width = 1; width <= 81; width += 40) {
		layout_update(&l, s.data, s.len, width, LAYOUT_MARKDOWN);
		CHECK_LAYOUT(&l);
		assert_int_equal(l.nrows, (s.len + (size_t)width - 1) / (size_t)width);
		assert_int_equal(l.text.len, s.len);
	}
	buf_clear(&s);
	for (int i = 0; i < 2000; i++)
		buf_puts(&s, i % 7 ? "word " : "\xe4\xb8\xad\xe6\x96\x87 ");
	layout_update(&l, s.data, s.len, 80, LAYOUT_MARKDOWN);
	CHECK_LAYOUT(&l);
	for (size_t r = 0; r + 1 < l.nrows; r++)
		assert_true(l.rows[r].width > 80 - 5); /* greedy: no short rows mid-paragraph */
	layout_fini(&l);
	buf_fini(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_breaks_at_spaces),
		cmocka_unit_test(test_long_words_break_inside),
		cmocka_unit_test(test_width_one),
		cmocka_unit_test(test_wide_characters),
		cmocka_unit_test(test_clusters_stay_whole),
		cmocka_unit_test(test_tabs_expand),
		cmocka_unit_test(test_newlines_make_rows),
		cmocka_unit_test(test_plain_text_keeps_markers),
		cmocka_unit_test(test_very_long_lines),
	};
	return cmocka_run_group_tests(tests, text_test_setup, NULL);
}
