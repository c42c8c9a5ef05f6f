/* Markdown-lite: each construct's exact display text and styles, and the streaming rule
 * that markers never show raw while a line grows. Dumps write a styled span as
 * {STYLE:text}: B bold, I italic, C code, K code block, H heading, Q quote, D dim. */
#include "text_test.h"

#define MD LAYOUT_MARKDOWN
#define STREAM (LAYOUT_MARKDOWN | LAYOUT_STREAMING)

static void test_headings(void **state)
{
	(void)state;
	EXPECT_LAYOUT("# Title", 20, MD, "{BH:Title}");
	EXPECT_LAYOUT("###   Three **b**", 20, MD, "{BH:Three b}");
	EXPECT_LAYOUT("# A `c`", 20, MD, "{BH:A }{BCH:c}");
	EXPECT_LAYOUT("###### Six", 20, MD, "{BH:Six}");
	EXPECT_LAYOUT("####### seven", 20, MD, "####### seven");
	EXPECT_LAYOUT("#hashtag", 20, MD, "#hashtag");
	EXPECT_LAYOUT("    # indented", 20, MD, "    # indented");
	EXPECT_LAYOUT("# long heading text", 10, MD, "{BH:long}\n{BH:heading}\n{BH:text}");
}

static void test_bullet_lists(void **state)
{
	(void)state;
	EXPECT_LAYOUT("- one\n* two\n+ three", 20, MD, "\xe2\x80\xa2 one\n\xe2\x80\xa2 two\n\xe2\x80\xa2 three");
	/* continuation rows hang under the text, nested items keep their indent */
	EXPECT_LAYOUT("- item that wraps", 10, MD, "\xe2\x80\xa2 item\n  that\n  wraps");
	EXPECT_LAYOUT("  - nested item wraps here", 20, MD,
		      "  \xe2\x80\xa2 nested item\n    wraps here");
	EXPECT_LAYOUT("- **b** x", 20, MD, "\xe2\x80\xa2 {B:b} x");
	EXPECT_LAYOUT("-not a list", 20, MD, "-not a list");
	struct layout l;
	layout_init(&l);
	layout_update(&l, "- item that wraps", 17, 10, MD);
	assert_int_equal(l.nrows, 3);
	assert_int_equal(l.rows[0].indent, 0);
	assert_int_equal(l.rows[1].indent, 2);
	layout_fini(&l);
}

static void test_ordered_lists(void **state)
{
	(void)state;
	EXPECT_LAYOUT("1. first item wraps around", 20, MD, "1. first item wraps\n   around");
	EXPECT_LAYOUT("10) tenth item", 10, MD, "10) tenth\n    item");
	EXPECT_LAYOUT("3.14 is not a list", 20, MD, "3.14 is not a list");
}

static void test_block_quotes(void **state)
{
	(void)state;
	EXPECT_LAYOUT("> quoted", 20, MD, "{Q:\xe2\x94\x82 quoted}");
	EXPECT_LAYOUT(">tight", 20, MD, "{Q:\xe2\x94\x82 tight}");
	EXPECT_LAYOUT("> a **b**", 20, MD, "{Q:\xe2\x94\x82 a }{BQ:b}");
	EXPECT_LAYOUT("> > nested", 20, MD, "{Q:\xe2\x94\x82 \xe2\x94\x82 nested}");
	/* every wrapped row keeps the bar */
	EXPECT_LAYOUT("> quote that wraps", 10, MD,
		      "{Q:\xe2\x94\x82 quote}\n{Q:\xe2\x94\x82 that}\n{Q:\xe2\x94\x82 wraps}");
	EXPECT_LAYOUT("> - in quote list wraps", 20, MD,
		      "{Q:\xe2\x94\x82 \xe2\x80\xa2 in quote list}\n{Q:\xe2\x94\x82   wraps}");
	EXPECT_LAYOUT("> # head", 20, MD, "{Q:\xe2\x94\x82 }{BHQ:head}");
}

static void test_emphasis(void **state)
{
	(void)state;
	EXPECT_LAYOUT("a **b** c __d__ e", 40, MD, "a {B:b} c {B:d} e");
	EXPECT_LAYOUT("*i* _j_ ***bi***", 40, MD, "{I:i} {I:j} {BI:bi}");
	EXPECT_LAYOUT("**a *b* c**", 40, MD, "{B:a }{BI:b}{B: c}");
	EXPECT_LAYOUT("a*b*c", 40, MD, "a{I:b}c");
	/* '_' does not work inside words; blanks around a marker make it text */
	EXPECT_LAYOUT("snake_case_name", 40, MD, "snake_case_name");
	EXPECT_LAYOUT("2 * 3 * 4", 40, MD, "2 * 3 * 4");
	EXPECT_LAYOUT("__init__", 40, MD, "{B:init}");
	/* an opener without a closer on a complete line is text */
	EXPECT_LAYOUT("**unclosed", 40, MD, "**unclosed");
	EXPECT_LAYOUT("**bold*", 40, MD, "**bold*");
	EXPECT_LAYOUT("**open\nclose**", 40, MD, "**open\nclose**");
	EXPECT_LAYOUT("**a****b**", 40, MD, "{B:a****b}"); /* runs over 3 are text */
}

static void test_inline_code(void **state)
{
	(void)state;
	EXPECT_LAYOUT("x `code *no*` y", 40, MD, "x {C:code *no*} y");
	EXPECT_LAYOUT("`` a`b ``", 40, MD, "{C:a`b}");
	EXPECT_LAYOUT("*a `b*` c*", 40, MD, "{I:a }{IC:b*}{I: c}");
	EXPECT_LAYOUT("`unclosed", 40, MD, "`unclosed");
	EXPECT_LAYOUT("``a` b", 40, MD, "``a` b");
	EXPECT_LAYOUT("\\*not\\* \\_x\\_ \\`y\\`", 40, MD, "*not* _x_ `y`");
	EXPECT_LAYOUT("back\\slash\\", 40, MD, "back\\slash\\");
}

/* The dump of a code block's top rule at width: "  {D:── label ───…}". */
static const char *top_rule(const char *label, int width)
{
	static struct buf out[8];
	static int next;
	struct buf *o = &out[next++ % 8];
	buf_clear(o);
	buf_puts(o, "  {D:");
	int cols = width - 2;
	if (*label) {
		buf_printf(o, "\xe2\x94\x80\xe2\x94\x80 %s ", label);
		cols -= 4 + (int)strlen(label);
	}
	for (int i = 0; i < cols; i++)
		buf_puts(o, "\xe2\x94\x80");
	buf_puts(o, "}");
	return o->data;
}

static void expect_fmt(const char *src, int width, const char *fmt, const char *a, const char *b)
{
	char want[1024];
	snprintf(want, sizeof want, fmt, a, b);
	EXPECT_LAYOUT(src, width, MD, want);
}

static void test_code_fences(void **state)
{
	(void)state;
	/* the opening fence becomes the block's top rule labelled with the language, the
	 * closing fence goes */
	expect_fmt("```python\nprint(1)\n```\nafter", 20, "%s\n  {K:print(}{K=n:1}{K:)}\nafter",
		   top_rule("python", 20), "");
	expect_fmt("```\nx\n```", 20, "%s\n  {K:x}", top_rule("", 20), "");
	/* only the info string's first word is the label */
	expect_fmt("~~~ sh extra\n**x** `y` # z\n~~~", 40, "%s\n  {K:**x** `y` }{K=c:# z}",
		   top_rule("sh", 40), "");
	/* a closing fence is the same character, at least as long */
	expect_fmt("~~~~\n```\n~~~\n~~~~~\nout", 20, "%s\n  {K:```}\n  {K:~~~}\nout",
		   top_rule("", 20), "");
	/* the fence's own indent is not part of the code */
	expect_fmt("  ```\n  indented\n    more\n  ```", 20, "%s\n  {K:indented}\n  {K:  more}",
		   top_rule("", 20), "");
	expect_fmt("```\nunterminated\n# not heading\n- no", 20,
		   "%s\n  {K:unterminated}\n  {K:# not heading}\n  {K:- no}", top_rule("", 20), "");
	/* long lines wrap and keep the indent; blank code lines keep their style */
	expect_fmt("```\naaaa bbbb cccc\n\n\tx\n```", 8,
		   "%s\n  {K:aaaa}\n  {K:bbbb}\n  {K:cccc}\n  {K:}\n  {K:    x}", top_rule("", 8), "");
	/* a label too long for the row wraps rather than overflowing */
	EXPECT_LAYOUT("```averyveryverylonglanguagename\nx\n```", 12, MD,
		      "  {D:\xe2\x94\x80\xe2\x94\x80}\n  {D:averyveryv}\n  {D:erylonglan}\n"
		      "  {D:guagename}\n  {K:x}");
}

static void test_rules(void **state)
{
	(void)state;
	struct buf want;
	buf_init(&want);
	buf_puts(&want, "a\n{D:");
	for (int i = 0; i < 12; i++)
		buf_puts(&want, "\xe2\x94\x80");
	buf_puts(&want, "}\nb");
	EXPECT_LAYOUT("a\n---\nb", 12, MD, want.data);
	EXPECT_LAYOUT("a\n* * *\nb", 12, MD, want.data);
	EXPECT_LAYOUT("a\n___\nb", 12, MD, want.data);
	EXPECT_LAYOUT("--", 12, MD, "--");
	buf_fini(&want);
}

/* Lays out every prefix of src as a stream and fails when a row shows any of markers. */
static void check_prefixes_clean(const char *src, const char *markers, int width)
{
	struct layout l;
	struct buf row;
	layout_init(&l);
	buf_init(&row);
	for (size_t len = 0; len <= strlen(src); len++) {
		layout_reset(&l);
		layout_update(&l, src, len, width, STREAM);
		CHECK_LAYOUT(&l);
		for (size_t r = 0; r < l.nrows; r++) {
			row_text(&l, r, &row);
			if (strpbrk(row.data, markers))
				fail_msg("prefix \"%.*s\": row %zu is \"%s\"", (int)len, src, r,
					 row.data);
		}
	}
	buf_fini(&row);
	layout_fini(&l);
}

static void test_streaming_never_shows_markers(void **state)
{
	(void)state;
	check_prefixes_clean("**bold** and `code`", "*`", 80);
	check_prefixes_clean("**bold** and `code`", "*`", 5);
	check_prefixes_clean("# Head **x**\n"
			     "**bold** and `code` and *it* and __b__ done\n"
			     "## Sub `c`\n"
			     "- item **b**\n"
			     "> quote *q*\n"
			     "```c\nint x;\n```\n"
			     "~~~\ny\n~~~\n"
			     "---\n"
			     "end\n",
			     "*`_>~\\", 30);
	/* block markers do not flash either: "#", "-", "12." are hidden until decided */
	check_prefixes_clean("## Heading\n- item\n12. twelfth\n", "#-", 30);
}

static void test_streaming_line_complete_shows_literal(void **state)
{
	(void)state;
	/* while the line grows the unmatched opener hides... */
	EXPECT_LAYOUT("say **hi", 40, STREAM, "say hi");
	EXPECT_LAYOUT("say `hi", 40, STREAM, "say hi");
	EXPECT_LAYOUT("say `x **y", 40, STREAM, "say x **y"); /* rest of a code opener: as is */
	EXPECT_LAYOUT("#", 40, STREAM, "");
	EXPECT_LAYOUT("12.", 40, STREAM, "");
	EXPECT_LAYOUT("foo\\", 40, STREAM, "foo");
	/* ...and shows once the line is complete or the text final */
	EXPECT_LAYOUT("say **hi\nnext", 40, STREAM, "say **hi\nnext");
	EXPECT_LAYOUT("say **hi", 40, MD, "say **hi");
	/* a marker that can no longer open or close shows at once */
	EXPECT_LAYOUT("2 * 3", 40, STREAM, "2 * 3");
	EXPECT_LAYOUT("a_b", 40, STREAM, "a_b");
	/* a fence is a fence at once; inside one, a growing closing fence is not shown */
	char want[512];
	EXPECT_LAYOUT("```", 40, STREAM, top_rule("", 40));
	snprintf(want, sizeof want, "%s\n  {K:x}", top_rule("py", 40));
	EXPECT_LAYOUT("```py\nx\n``", 40, STREAM, want);
	snprintf(want, sizeof want, "%s\n  {K:x}\n  {K:``}", top_rule("py", 40));
	EXPECT_LAYOUT("```py\nx\n``", 40, MD, want);
}

#define FLOW (LAYOUT_MARKDOWN | LAYOUT_REFLOW)
#define FLOW_STREAM (LAYOUT_MARKDOWN | LAYOUT_REFLOW | LAYOUT_STREAMING)

static void test_reflow(void **state)
{
	(void)state;
	static const char para[] = "A paragraph with\nsoft breaks that\nreflow to the width.";
	/* the same paragraph at two widths: rows filled, not ragged at the source's breaks */
	EXPECT_LAYOUT(para, 30, FLOW, "A paragraph with soft breaks\nthat reflow to the width.");
	EXPECT_LAYOUT(para, 14, FLOW, "A paragraph\nwith soft\nbreaks that\nreflow to the\nwidth.");
	/* without LAYOUT_REFLOW (what the user typed) every line break stays */
	EXPECT_LAYOUT(para, 30, MD, "A paragraph with\nsoft breaks that\nreflow to the width.");
	/* hard breaks: two blanks or a backslash at the end; a blank line ends the paragraph */
	EXPECT_LAYOUT("one  \ntwo\\\nthree\nfour\n\nnext", 40, FLOW, "one\ntwo\nthree four\n\nnext");
	/* a backslash ending the paragraph is text */
	EXPECT_LAYOUT("end\\", 40, FLOW, "end\\");
	/* emphasis may span the soft break */
	EXPECT_LAYOUT("**bold\nacross** x", 40, FLOW, "{B:bold across} x");
	/* list items and quotes keep their structure, their continuation lines join them */
	EXPECT_LAYOUT("- item one\n  goes on\n- item two", 40, FLOW,
		      "\xe2\x80\xa2 item one goes on\n\xe2\x80\xa2 item two");
	EXPECT_LAYOUT("- item one\n  goes on", 12, FLOW, "\xe2\x80\xa2 item one\n  goes on");
	EXPECT_LAYOUT("> quoted\n> more", 40, FLOW, "{Q:\xe2\x94\x82 quoted more}");
	/* headings, rules and fences end a paragraph */
	EXPECT_LAYOUT("para\n# Head\npara", 40, FLOW, "para\n{BH:Head}\npara");
	EXPECT_LAYOUT("para\n```\ncode\n```", 40, FLOW, "para\n  {D:\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
		      "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
		      "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
		      "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
		      "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
		      "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
		      "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80}\n  {K:code}");
	/* only "1." starts a list inside prose; after an item, any number does */
	EXPECT_LAYOUT("in\n2024. we", 40, FLOW, "in 2024. we");
	EXPECT_LAYOUT("steps:\n1. a\n2. b", 40, FLOW, "steps:\n1. a\n2. b");
	/* pipe rows are never joined: not a table (a quote's), each keeps its row; a table
	 * indented under a list item is still a table */
	EXPECT_LAYOUT("> | a | b |\n> |---|---|\n> | c | d |", 40, FLOW,
		      "{Q:\xe2\x94\x82 | a | b |}\n{Q:\xe2\x94\x82 |---|---|}\n{Q:\xe2\x94\x82 | c | d |}");
	EXPECT_LAYOUT("- item\n  | a |\n  |---|\n  | c |", 40, FLOW,
		      "\xe2\x80\xa2 item\n{B:a}\n{D:\xe2\x94\x80}\nc");
	/* a paragraph is cut at the line end past 4 KB (a hard break there): what a stream
	 * lays out again stays bounded. 100 lines of a 49-letter word, four words a row: line
	 * 82 ends the first paragraph (82 x 50 bytes), so row 20 holds two words */
	struct buf big;
	buf_init(&big);
	for (int k = 0; k < 100; k++)
		buf_puts(&big, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \n");
	struct layout pl;
	layout_init(&pl);
	layout_update(&pl, big.data, big.len, 199, FLOW);
	struct buf rt;
	buf_init(&rt);
	row_text(&pl, 19, &rt);
	assert_int_equal(rt.len, 199);
	row_text(&pl, 20, &rt);
	assert_int_equal(rt.len, 99);
	assert_int_equal(pl.nrows, 21 + 5);
	layout_fini(&pl);
	buf_fini(&rt);
	buf_fini(&big);
	/* while streaming, the paragraph grows at its end: the next line joins the last row */
	EXPECT_LAYOUT("one two\nthr", 40, FLOW_STREAM, "one two thr");
}

#define BAR_SEP "{D: \xe2\x94\x82 }"
#define H "\xe2\x94\x80"

static void test_tables(void **state)
{
	(void)state;
	/* aligned columns by display width (CJK and emoji take two), a rule under the header,
	 * each column aligned as its delimiter says */
	EXPECT_LAYOUT("| Name | Qty | Note |\n|:-----|----:|:----:|\n| apple | 3 | red |\n"
		      "| \xe6\x97\xa5\xe6\x9c\xac | 12 | \xf0\x9f\x9a\x80 |", 40, MD,
		      "{B:Name} " BAR_SEP "{B:Qty}" BAR_SEP "{B:Note}\n"
		      "{D:" H H H H H H "\xe2\x94\xbc" H H H H H "\xe2\x94\xbc" H H H H H "}\n"
		      "apple" BAR_SEP "  3" BAR_SEP "red\n"
		      "\xe6\x97\xa5\xe6\x9c\xac " BAR_SEP " 12" BAR_SEP " \xf0\x9f\x9a\x80");
	/* too wide: the narrow column keeps its width, the wide one wraps its cells */
	EXPECT_LAYOUT("| Name | Description |\n|---|---|\n| apple | a round fruit that grows on trees |\n"
		      "| kiwi | small |", 24, MD,
		      "{B:Name} " BAR_SEP "{B:Description}\n"
		      "{D:" H H H H H H "\xe2\x94\xbc" H H H H H H H H H H H H H H H H H "}\n"
		      "apple" BAR_SEP "a round fruit\n"
		      "     " BAR_SEP "that grows on\n"
		      "     " BAR_SEP "trees\n"
		      "kiwi " BAR_SEP "small");
	/* too narrow for columns: each row as "header: value" lines */
	EXPECT_LAYOUT("| Name | Description | X |\n|---|---|---|\n| apple | a fruit | y |\n"
		      "| kiwi | small | z |", 12, MD,
		      "{B:Name}: apple\n{B:Description}:\n  a fruit\n{B:X}: y\n\n"
		      "{B:Name}: kiwi\n{B:Description}:\n  small\n{B:X}: z");
	/* inline markdown in cells, escaped pipes, missing and extra cells */
	EXPECT_LAYOUT("a | b\n--|--\n**x** \\| y | `c` | extra\nonly", 40, MD,
		      "{B:a}    " BAR_SEP "{B:b}\n"
		      "{D:" H H H H H H "\xe2\x94\xbc" H H "}\n"
		      "{B:x} | y" BAR_SEP "{C:c}\n"
		      "only " BAR_SEP);
	/* a header's trailing backslash is a cell's text, not a hard break */
	EXPECT_LAYOUT("a | b\\\n--|--", 40, MD,
		      "{B:a}" BAR_SEP "{B:b\\}\n{D:" H H "\xe2\x94\xbc" H H H "}");
	/* no delimiter row: not a table */
	EXPECT_LAYOUT("| a | b |\n| c | d |", 40, MD, "| a | b |\n| c | d |");
	/* a blank line or another block ends the table */
	EXPECT_LAYOUT("|a|\n|-|\n|b|\n\ntext", 40, MD, "{B:a}\n{D:" H "}\nb\n\ntext");
	/* streaming: a lone header line waits for its delimiter row, a growing row is not
	 * shown, so columns never jump while a row grows */
	EXPECT_LAYOUT("| Name | Qty |", 40, STREAM, "");
	EXPECT_LAYOUT("| Name | Qty |\n|--", 40, STREAM, "");
	EXPECT_LAYOUT("| Name | Qty |\n|---|---|\n| apple | 3", 40, STREAM,
		      "{B:Name}" BAR_SEP "{B:Qty}\n{D:" H H H H H "\xe2\x94\xbc" H H H H "}");
	EXPECT_LAYOUT("| Name | Qty |\n", 40, MD, "| Name | Qty |");
	/* a header of more than 64 columns is text; a table ends after 200 rows: what a stream
	 * lays out again stays bounded */
	struct buf big;
	buf_init(&big);
	for (int k = 0; k < 65; k++)
		buf_puts(&big, "|h");
	buf_puts(&big, "|\n");
	for (int k = 0; k < 65; k++)
		buf_puts(&big, "|-");
	buf_puts(&big, "|");
	struct layout bl;
	layout_init(&bl);
	layout_update(&bl, big.data, big.len, 400, MD);
	struct buf rowtext;
	buf_init(&rowtext);
	row_text(&bl, 0, &rowtext);
	assert_memory_equal(rowtext.data, "|h|h|h", 6);
	buf_clear(&big);
	buf_puts(&big, "|h|\n|-|\n");
	for (int k = 0; k < 201; k++)
		buf_printf(&big, "|r%d|\n", k);
	layout_reset(&bl);
	layout_update(&bl, big.data, big.len, 40, MD);
	/* 200 rows, the header's included: r198 is the table's last, r199 text */
	row_text(&bl, bl.nrows - 2, &rowtext);
	assert_string_equal(rowtext.data, "|r199|");
	row_text(&bl, bl.nrows - 3, &rowtext);
	assert_string_equal(rowtext.data, "r198");
	layout_fini(&bl);
	buf_fini(&rowtext);
	buf_fini(&big);
	/* at every width the rows fit (check_layout checks each row's width) */
	for (int w = 1; w < 40; w++) {
		struct layout l;
		layout_init(&l);
		static const char t[] = "| \xe6\x97\xa5\xe6\x9c\xac | b | c | d |\n|-|-|-|-|\n"
					"| long cell text here | \xf0\x9f\x9a\x80\xf0\x9f\x9a\x80 | x | y |";
		layout_update(&l, t, sizeof(t) - 1, w, MD);
		CHECK_LAYOUT(&l);
		layout_fini(&l);
	}
}

static void test_links(void **state)
{
	(void)state;
	/* the text, underlined, with a number; the URL in a dim footnote under the paragraph */
	EXPECT_LAYOUT("See [the docs](https://example.com/docs) and [x](http://a.b/(c)).\nNext.", 60,
		      FLOW,
		      "See {L:the docs}{D:[1]} and {L:x}{D:[2]}. Next.\n"
		      "{D:[1] https://example.com/docs}\n{D:[2] http://a.b/(c)}");
	/* numbers go on through the message */
	EXPECT_LAYOUT("[a](u1)\n\n[b](<u2> \"title\")", 40, FLOW,
		      "{L:a}{D:[1]}\n{D:[1] u1}\n\n{L:b}{D:[2]}\n{D:[2] u2}");
	/* a link that is its own URL needs no footnote; autolinks and bare URLs stay as they are */
	EXPECT_LAYOUT("[https://e.com](https://e.com) <https://a.b> https://c.d", 60, MD,
		      "{L:https://e.com} <https://a.b> https://c.d");
	/* not links */
	EXPECT_LAYOUT("- [ ] task [x] and [a] (b) `[c](d)`", 60, MD,
		      "\xe2\x80\xa2 [ ] task [x] and [a] (b) {C:[c](d)}");
	/* a control character in a URL never reaches the screen */
	EXPECT_LAYOUT("[t](http://e\x1b]8;;x\x07vil)", 60, MD,
		      "{L:t}{D:[1]}\n{D:[1] http://e\xef\xbf\xbd]8;;x\xef\xbf\xbdvil}");
	/* streaming: the destination being typed is hidden, the text already a link; the
	 * brackets of what may still become a link are hidden */
	EXPECT_LAYOUT("See [the docs](https://exa", 40, STREAM, "See {L:the docs}");
	EXPECT_LAYOUT("See [a](b c and more", 40, STREAM, "See [a](b c and more");
	EXPECT_LAYOUT("See [the docs", 40, STREAM, "See the docs");
	EXPECT_LAYOUT("See [the docs]", 40, STREAM, "See the docs");
	EXPECT_LAYOUT("See [the docs] more", 40, STREAM, "See [the docs] more");
	EXPECT_LAYOUT("See [the docs", 40, MD, "See [the docs");
	/* links in tables and headings get footnotes too */
	EXPECT_LAYOUT("# [T](u)", 40, MD, "{BHL:T}{BHD:[1]}\n{D:[1] u}");
}

static void test_strike(void **state)
{
	(void)state;
	EXPECT_LAYOUT("~~old~~ new", 40, MD, "{S:old} new");
	EXPECT_LAYOUT("**~~both~~**", 40, MD, "{BS:both}");
	/* one tilde, three, or blanks inside the run: text */
	EXPECT_LAYOUT("~one~ a ~~~x ~~ y ~~", 40, MD, "~one~ a ~~~x ~~ y ~~");
	EXPECT_LAYOUT("~~open", 40, MD, "~~open");
	/* streaming: hidden while it may still close */
	EXPECT_LAYOUT("~~open", 40, STREAM, "open");
	EXPECT_LAYOUT("a ~", 40, STREAM, "a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headings),
		cmocka_unit_test(test_bullet_lists),
		cmocka_unit_test(test_ordered_lists),
		cmocka_unit_test(test_block_quotes),
		cmocka_unit_test(test_emphasis),
		cmocka_unit_test(test_inline_code),
		cmocka_unit_test(test_code_fences),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_streaming_never_shows_markers),
		cmocka_unit_test(test_streaming_line_complete_shows_literal),
		cmocka_unit_test(test_reflow),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_strike),
	};
	return cmocka_run_group_tests(tests, text_test_setup, NULL);
}
