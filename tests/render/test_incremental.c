/* Incremental layout: a text that grows is laid out again only from its last unfinished
 * line, with exactly the result of laying it out from scratch. */
#include "text_test.h"

#define MD LAYOUT_MARKDOWN
#define STREAM (LAYOUT_MARKDOWN | LAYOUT_STREAMING)
#define FLOW (LAYOUT_MARKDOWN | LAYOUT_REFLOW)
#define FLOW_STREAM (LAYOUT_MARKDOWN | LAYOUT_REFLOW | LAYOUT_STREAMING)

static const char *const fragments[] = {
	"a", "word ", "longerword", " ", "  ", "\t", "\n", "\n\n", "*", "**", "_", "__", "`", "``",
	"```", "```py\n", "~~~\n", "# ", "### ", "- ", "* ", "1. ", "> ", "> > ", "---\n", "\\",
	"\xe4\xbd\xa0\xe5\xa5\xbd", "e\xcc\x81",
	"\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7",
	"\xf0\x9f\x87\xba\xf0\x9f\x87\xb8", "x_y", "2 * 3", "**bold** ", "`code` ",
	"https://example.com/a/long/path ",
	/* soft and hard breaks, tables, links, strike */
	"line one\nline two ", "  \n", "\\\n", "| a | b |\n", "|---|:-:|\n", "| x | \xe6\x97\xa5 |\n",
	"|", "|-", " | ", "[text](http://x.y/z) ", "[t](u", "[", "](", ")", "~~", "~~gone~~ ",
	"\n\n| h |\n|--|\n| c |\n\n",
	/* highlighted code: what a line leaves open, diffs whose added lines pair with removed */
	"```c\n", "```diff\n", "```python\n", "-a b c\n", "+a x c\n", "+", "-", "\"\"\"", "/*",
	"*/", "'", "\"", "# c", "0x1F",
};

static void random_text(struct rng *r, struct buf *out)
{
	buf_clear(out);
	buf_puts(out, "");
	size_t count = rng_below(r, 60);
	for (size_t i = 0; i < count; i++)
		buf_puts(out, fragments[rng_below(r, sizeof(fragments) / sizeof(fragments[0]))]);
}

/* Grows a layout through cuts of text and compares each step with a fresh layout. */
static void check_growth(struct buf *text, const size_t *cuts, size_t ncuts, int width,
			 unsigned flags, int iter)
{
	struct layout inc, fresh;
	layout_init(&inc);
	layout_init(&fresh);
	for (size_t c = 0; c < ncuts; c++) {
		layout_update(&inc, text->data, cuts[c], width, flags);
		layout_reset(&fresh);
		layout_update(&fresh, text->data, cuts[c], width, flags);
		CHECK_LAYOUT(&inc);
		if (!layouts_equal(&inc, &fresh))
			fail_msg("iteration %d, width %d, flags %u: incremental layout of %zu bytes "
				 "differs from a fresh one:\n%.*s", iter, width, flags, cuts[c],
				 (int)cuts[c], text->data);
	}
	if (flags & LAYOUT_STREAMING) {
		/* the stream ends: same text, final */
		layout_update(&inc, text->data, text->len, width, flags & ~LAYOUT_STREAMING);
		layout_reset(&fresh);
		layout_update(&fresh, text->data, text->len, width, flags & ~LAYOUT_STREAMING);
		if (!layouts_equal(&inc, &fresh))
			fail_msg("iteration %d: final layout after streaming differs", iter);
	}
	layout_fini(&inc);
	layout_fini(&fresh);
}

static void test_incremental_equals_fresh(void **state)
{
	(void)state;
	static const unsigned flag_sets[] = { 0, MD, STREAM, FLOW, FLOW_STREAM };
	struct rng r = { 0xC0FFEE1234567ULL };
	struct buf text;
	buf_init(&text);
	for (int iter = 0; iter < 400; iter++) {
		random_text(&r, &text);
		size_t cuts[8], ncuts = 1 + rng_below(&r, 7);
		for (size_t c = 0; c + 1 < ncuts; c++)
			cuts[c] = rng_below(&r, text.len + 1);
		cuts[ncuts - 1] = text.len;
		for (size_t a = 0; a < ncuts; a++) { /* growing order */
			for (size_t b = a + 1; b < ncuts; b++) {
				if (cuts[b] < cuts[a]) {
					size_t t = cuts[a];
					cuts[a] = cuts[b];
					cuts[b] = t;
				}
			}
		}
		int width = iter % 3 == 0 ? 1 : iter % 3 == 1 ? 7 : 20 + (int)rng_below(&r, 80);
		for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++)
			check_growth(&text, cuts, ncuts, width, flag_sets[f], iter);
	}
	buf_fini(&text);
}

static void test_byte_by_byte_stream(void **state)
{
	(void)state;
	static const char src[] = "# Title\n**bold** and `code`\n```c\nint x;\n```\n- a\n> q\n";
	size_t cuts[sizeof(src) - 1];
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++)
		cuts[i] = i + 1;
	struct buf text;
	buf_init(&text);
	buf_puts(&text, src);
	check_growth(&text, cuts, sizeof(cuts) / sizeof(cuts[0]), 12, STREAM, 0);
	buf_fini(&text);
}

/* Byte by byte through reflowed paragraphs, a table and links: every step equals a fresh
 * layout, and rows only grow at the end (no row above the last two changes). */
static void test_byte_by_byte_blocks(void **state)
{
	(void)state;
	static const char src[] = "A paragraph with\nsoft breaks and a [link](http://e.com/x)\n"
				  "that ~~jumps~~ reflows.\n\n| Name | Qty |\n|:--|--:|\n| apple | 3 |\n"
				  "| kiwi | 12 |\n\nafter  \nhard\n";
	size_t n = sizeof(src) - 1;
	size_t *cuts = calloc(n, sizeof *cuts);
	for (size_t i = 0; i < n; i++)
		cuts[i] = i + 1;
	struct buf text, a, b;
	buf_init(&text);
	buf_init(&a);
	buf_init(&b);
	buf_puts(&text, src);
	for (int width = 6; width <= 40; width += 17)
		check_growth(&text, cuts, n, width, FLOW_STREAM, 0);
	/* stability: what a shorter prefix shows, a longer one keeps, but for its last rows and
	 * the footnote under the paragraph */
	struct layout l;
	layout_init(&l);
	for (size_t i = 1; i < n; i++) {
		layout_update(&l, src, i, 40, FLOW_STREAM);
		layout_dump(&l, &a);
		layout_update(&l, src, i + 1, 40, FLOW_STREAM);
		layout_dump(&l, &b);
		/* compare all but the last two rows of the shorter */
		const char *p = a.data;
		size_t rows = 1;
		for (const char *q = a.data; *q; q++)
			rows += *q == '\n';
		size_t keep = 0, seen = 0;
		for (; p[keep] && seen + 2 < rows; keep++)
			seen += p[keep] == '\n';
		if (strncmp(a.data, b.data, keep) != 0)
			fail_msg("prefix %zu -> %zu changed settled rows:\n%s\n---\n%s", i, i + 1, a.data,
				 b.data);
	}
	layout_fini(&l);
	free(cuts);
	buf_fini(&a);
	buf_fini(&b);
	buf_fini(&text);
}

/* An open paragraph is laid out from its start: what is before it is settled. */
static void test_open_paragraph_settles_at_its_start(void **state)
{
	(void)state;
	static const char src[] = "# Head\nfirst line\nsecond grows";
	struct layout l;
	layout_init(&l);
	layout_update(&l, src, sizeof(src) - 1, 40, FLOW_STREAM);
	assert_int_equal(l.settled_src, 7);
	assert_int_equal(l.settled_rows, 1);
	assert_int_equal(l.nrows, 2);
	static const char more[] = "# Head\nfirst line\nsecond grows\n\nnext";
	layout_update(&l, more, sizeof(more) - 1, 40, FLOW_STREAM);
	assert_int_equal(l.settled_src, 32);
	assert_int_equal(l.settled_rows, 3);
	layout_fini(&l);
}

static void test_settled_rows_not_recomputed(void **state)
{
	(void)state;
	static const char src[] = "first line\nsecond grows and grows";
	struct layout l;
	struct buf row;
	layout_init(&l);
	buf_init(&row);
	layout_update(&l, src, 17, 40, MD);
	assert_int_equal(l.settled_src, 11);
	assert_int_equal(l.settled_rows, 1);
	struct row settled = l.rows[0];
	/* mark the settled row's text: a relayout of that line would write it again */
	l.text.data[l.spans[settled.span_first].off] = 'X';
	layout_update(&l, src, sizeof(src) - 1, 40, MD);
	row_text(&l, 0, &row);
	assert_string_equal(row.data, "Xirst line");
	assert_memory_equal(&l.rows[0], &settled, sizeof(settled));
	row_text(&l, 1, &row);
	assert_string_equal(row.data, "second grows and grows");
	/* a different width is a full relayout */
	layout_update(&l, src, sizeof(src) - 1, 41, MD);
	row_text(&l, 0, &row);
	assert_string_equal(row.data, "first line");
	buf_fini(&row);
	layout_fini(&l);
}

static void test_changes_other_than_growth(void **state)
{
	(void)state;
	struct layout l, fresh;
	struct buf a, b;
	layout_init(&l);
	layout_init(&fresh);
	buf_init(&a);
	buf_init(&b);
	/* markdown off: a full relayout */
	layout_update(&l, "# x\ny", 5, 20, MD);
	layout_update(&l, "# x\ny", 5, 20, 0);
	layout_dump(&l, &a);
	assert_string_equal(a.data, "# x\ny");
	/* a shorter text than what was settled: a full relayout */
	layout_update(&l, "abc\ndef\nghi", 11, 20, 0);
	layout_update(&l, "ab", 2, 20, 0);
	layout_dump(&l, &a);
	assert_string_equal(a.data, "ab");
	/* the stream ending keeps the settled lines but redoes the last one */
	layout_update(&l, "**a\nb **c", 9, 20, STREAM);
	layout_dump(&l, &a);
	assert_string_equal(a.data, "**a\nb c");
	layout_update(&l, "**a\nb **c", 9, 20, MD);
	layout_update(&fresh, "**a\nb **c", 9, 20, MD);
	layout_dump(&l, &a);
	layout_dump(&fresh, &b);
	assert_string_equal(a.data, "**a\nb **c");
	assert_string_equal(a.data, b.data);
	/* reset, then anything */
	layout_reset(&l);
	assert_int_equal(l.nrows, 0);
	layout_update(&l, "new", 3, 20, MD);
	layout_dump(&l, &a);
	assert_string_equal(a.data, "new");
	buf_fini(&a);
	buf_fini(&b);
	layout_fini(&l);
	layout_fini(&fresh);
}

static void test_fence_state_carries(void **state)
{
	(void)state;
	static const char src[] = "```\ncode\n# still code\n```\n# heading";
	struct layout l;
	struct buf d;
	layout_init(&l);
	buf_init(&d);
	layout_update(&l, src, 9, 20, STREAM);     /* "```\ncode\n" */
	assert_int_not_equal(l.settled_md_state, 0);
	layout_update(&l, src, 22, 20, STREAM);    /* + "# still code\n" */
	layout_update(&l, src, sizeof(src) - 1, 20, STREAM);
	assert_int_equal(l.settled_md_state, 0);
	layout_dump(&l, &d);
	assert_string_equal(d.data, "  {D:──────────────────}\n  {K:code}\n  {K:# still code}\n{BH:heading}");
	buf_fini(&d);
	layout_fini(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incremental_equals_fresh),
		cmocka_unit_test(test_byte_by_byte_stream),
		cmocka_unit_test(test_byte_by_byte_blocks),
		cmocka_unit_test(test_open_paragraph_settles_at_its_start),
		cmocka_unit_test(test_settled_rows_not_recomputed),
		cmocka_unit_test(test_changes_other_than_growth),
		cmocka_unit_test(test_fence_state_carries),
	};
	return cmocka_run_group_tests(tests, text_test_setup, NULL);
}
