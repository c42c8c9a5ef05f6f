/* The input editor: grapheme-wise editing, emacs keys, history, wrapping and big pastes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "editor.h"

static void type(struct editor *e, const char *s)
{
	editor_insert(e, s, strlen(s));
}

static void test_insert_and_text(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	assert_true(editor_empty(&e));
	assert_string_equal(editor_text(&e), "");
	type(&e, "h");
	type(&e, "é");
	type(&e, "llo");
	assert_string_equal(editor_text(&e), "héllo");
	assert_int_equal(e.cursor, strlen("héllo"));
	editor_left(&e);
	editor_left(&e);
	type(&e, "X");
	assert_string_equal(editor_text(&e), "hélXlo");
	editor_fini(&e);
}

static void test_insert_filters_controls(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "a\r\nb\rc\x1b[31mred\x07\tt");
	assert_string_equal(editor_text(&e), "a\nb\ncred\tt");
	editor_fini(&e);
}

static void test_backspace_takes_whole_grapheme(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "ae\xCC\x81");            /* e + combining acute: one grapheme */
	editor_backspace(&e);
	assert_string_equal(editor_text(&e), "a");
	type(&e, "你好");
	editor_backspace(&e);
	assert_string_equal(editor_text(&e), "a你");
	editor_left(&e);
	assert_int_equal(e.cursor, 1);
	editor_delete(&e);
	assert_string_equal(editor_text(&e), "a");
	editor_fini(&e);
}

static void test_left_right_by_grapheme(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "😀x\nyé");
	editor_line_start(&e);
	assert_int_equal(e.cursor, strlen("😀x\n"));
	editor_left(&e);                        /* onto the line break */
	assert_int_equal(e.cursor, strlen("😀x"));
	editor_left(&e);
	editor_left(&e);
	assert_int_equal(e.cursor, 0);
	editor_right(&e);
	assert_int_equal(e.cursor, strlen("😀"));
	editor_fini(&e);
}

static void test_line_start_end_multiline(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "first\nsecond\nthird");
	editor_left(&e);
	editor_left(&e);
	editor_line_start(&e);
	assert_int_equal(e.cursor, strlen("first\nsecond\n"));
	editor_left(&e);
	editor_line_start(&e);
	assert_int_equal(e.cursor, strlen("first\n"));
	editor_line_end(&e);
	assert_int_equal(e.cursor, strlen("first\nsecond"));
	editor_fini(&e);
}

static void test_kill_and_yank(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "git commit  -m");
	editor_kill_word_back(&e);
	assert_string_equal(editor_text(&e), "git commit  ");
	editor_kill_word_back(&e);
	assert_string_equal(editor_text(&e), "git ");
	editor_yank(&e);
	assert_string_equal(editor_text(&e), "git commit  ");
	editor_line_start(&e);
	editor_kill_line_end(&e);
	assert_string_equal(editor_text(&e), "");
	editor_yank(&e);
	assert_string_equal(editor_text(&e), "git commit  ");
	editor_kill_line_start(&e);
	assert_string_equal(editor_text(&e), "");
	editor_fini(&e);
}

static void test_kill_line_end_joins_lines(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "ab\ncd");
	editor_line_start(&e);
	editor_left(&e);                        /* end of "ab" */
	editor_kill_line_end(&e);               /* nothing left on the line: the break goes */
	assert_string_equal(editor_text(&e), "abcd");
	editor_fini(&e);
}

static void test_word_motions(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "say héllo, wörld");
	editor_word_left(&e);
	assert_int_equal(e.cursor, strlen("say héllo, "));
	editor_word_left(&e);
	assert_int_equal(e.cursor, strlen("say "));
	editor_word_right(&e);
	assert_int_equal(e.cursor, strlen("say héllo"));
	editor_word_right(&e);
	assert_int_equal(e.cursor, strlen("say héllo, wörld"));
	editor_fini(&e);
}

static void test_history(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	assert_false(editor_history_prev(&e));
	type(&e, "one");
	free(editor_take(&e));
	type(&e, "two");
	free(editor_take(&e));
	type(&e, "two");                        /* a repeat is not recorded twice */
	free(editor_take(&e));
	free(editor_take(&e));                  /* nor an empty text */
	assert_int_equal(e.nhistory, 2);
	type(&e, "draft");
	assert_true(editor_history_prev(&e));
	assert_string_equal(editor_text(&e), "two");
	assert_true(editor_history_prev(&e));
	assert_string_equal(editor_text(&e), "one");
	assert_false(editor_history_prev(&e));
	assert_true(editor_history_next(&e));
	assert_true(editor_history_next(&e));
	assert_string_equal(editor_text(&e), "draft");
	assert_false(editor_history_next(&e));
	editor_fini(&e);
}

static void test_vertical_moves_keep_column(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "abcdef\nxy\n123456");
	size_t row;
	int col;
	editor_cursor_pos(&e, 80, &row, &col);
	assert_int_equal(row, 2);
	assert_int_equal(col, 6);
	assert_true(editor_move_up(&e, 80));
	assert_int_equal(e.cursor, strlen("abcdef\nxy"));   /* clamped to the short line */
	assert_true(editor_move_up(&e, 80));
	assert_int_equal(e.cursor, strlen("abcdef"));       /* the goal column came back */
	assert_false(editor_move_up(&e, 80));                /* first row: history's turn */
	assert_true(editor_move_down(&e, 80));
	assert_true(editor_move_down(&e, 80));
	assert_false(editor_move_down(&e, 80));
	editor_fini(&e);
}

static void test_vertical_moves_by_wrapped_rows(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "abcdefgh");                   /* "abcde" and "fgh" at width 5 */
	size_t row;
	int col;
	editor_cursor_pos(&e, 5, &row, &col);
	assert_int_equal(row, 1);
	assert_int_equal(col, 3);
	assert_true(editor_move_up(&e, 5));
	assert_int_equal(e.cursor, 3);
	assert_false(editor_move_up(&e, 5));
	editor_set(&e, "abcdefgh\n12345", 14); /* "12345" fills its row: the cursor gets the next */
	editor_line_start(&e);
	editor_left(&e);                        /* the end of "fgh": row 1 */
	assert_true(editor_move_down(&e, 5));
	assert_int_equal(e.cursor, strlen("abcdefgh\n123"));
	assert_true(editor_move_down(&e, 5));   /* the empty row after the full one */
	assert_int_equal(e.cursor, e.text.len);
	editor_fini(&e);
}

static void test_rows_wrap_wide_characters(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "a你好世");
	size_t n;
	const struct editor_row *rows = editor_rows(&e, 5, &n);
	assert_int_equal(n, 2);
	assert_int_equal(rows[0].width, 5);
	assert_int_equal(rows[1].start, strlen("a你好"));
	assert_int_equal(rows[1].width, 2);
	rows = editor_rows(&e, 4, &n);           /* a wide character never straddles the edge */
	assert_int_equal(n, 3);                 /* "a你", "好世" (full) and the cursor's row */
	assert_int_equal(rows[0].width, 3);
	assert_int_equal(rows[1].start, strlen("a你"));
	editor_fini(&e);
}

static void test_full_row_gives_cursor_a_cell(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "abcd");
	size_t n, row;
	int col;
	editor_rows(&e, 4, &n);
	assert_int_equal(n, 2);
	editor_cursor_pos(&e, 4, &row, &col);
	assert_int_equal(row, 1);
	assert_int_equal(col, 0);
	type(&e, "\n");
	editor_cursor_pos(&e, 4, &row, &col);
	assert_int_equal(row, 2);
	assert_int_equal(col, 0);
	editor_fini(&e);
}

static void test_empty_editor_has_one_row(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	size_t n, row;
	int col;
	editor_rows(&e, 10, &n);
	assert_int_equal(n, 1);
	editor_cursor_pos(&e, 10, &row, &col);
	assert_int_equal(row, 0);
	assert_int_equal(col, 0);
	assert_false(editor_move_up(&e, 10));
	editor_backspace(&e);
	editor_delete(&e);
	editor_kill_line_end(&e);
	editor_word_right(&e);
	type(&e, "x");
	free(editor_take(&e));                  /* and once more after a send */
	editor_rows(&e, 10, &n);
	assert_int_equal(n, 1);
	editor_line_end(&e);
	assert_int_equal(e.cursor, 0);
	editor_fini(&e);
}

static void test_cursor_position_multiline(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "abc\n你好");
	size_t row;
	int col;
	editor_cursor_pos(&e, 80, &row, &col);
	assert_int_equal(row, 1);
	assert_int_equal(col, 4);
	editor_fini(&e);
}

/* A megabyte pasted at once is one insertion, and the text is the paste, every line break
 * included. */
static void test_huge_paste(void **state)
{
	(void)state;
	enum { SIZE = 1 << 20, LINE = 64 };
	char *paste = malloc(SIZE);
	for (size_t i = 0; i < SIZE; i++)
		paste[i] = (i % LINE == LINE - 1) ? '\r' : (char)('a' + i % 26);
	struct editor e;
	editor_init(&e);
	type(&e, "<>");
	editor_left(&e);
	editor_insert(&e, paste, SIZE);
	assert_int_equal(e.text.len, SIZE + 2);
	assert_int_equal(e.cursor, SIZE + 1);
	assert_int_equal(e.text.data[LINE], '\n');
	assert_int_equal(e.text.data[SIZE + 1], '>');
	size_t n;
	editor_rows(&e, 80, &n);
	assert_int_equal(n, SIZE / LINE + 1);
	editor_fini(&e);
	free(paste);
}

/* The cursor steps over whole clusters: a consonant with its vowel sign (कि), a conjunct
 * (क्ष), a flag, a ZWJ family, a letter with a combining mark. Typing after Left lands before
 * the cluster, never inside it (issue 15: `कि`, Left, `X` gave `कXि`). */
static void test_cursor_moves_by_grapheme_cluster(void **state)
{
	(void)state;
	static const char *const clusters[] = {
		"\xe0\xa4\x95\xe0\xa4\xbf",                                     /* कि */
		"\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7",                         /* क्ष */
		"\xf0\x9f\x87\xba\xf0\x9f\x87\xb8",                             /* 🇺🇸 */
		"\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7", /* 👨‍👩‍👧 */
		"e\xcc\x81",                                                    /* é, decomposed */
	};
	for (size_t i = 0; i < sizeof clusters / sizeof *clusters; i++) {
		const char *c = clusters[i];
		char want[64];
		struct editor e;
		editor_init(&e);
		type(&e, c);
		editor_left(&e);
		assert_int_equal(e.cursor, 0);
		type(&e, "X");
		snprintf(want, sizeof want, "X%s", c);
		assert_string_equal(editor_text(&e), want);
		editor_right(&e);
		assert_int_equal(e.cursor, strlen(want));
		/* Backspace and Delete take the whole cluster too. */
		editor_backspace(&e);
		assert_string_equal(editor_text(&e), "X");
		editor_set(&e, c, strlen(c));
		type(&e, c);
		editor_line_start(&e);
		editor_delete(&e);
		assert_string_equal(editor_text(&e), c);
		/* Ctrl-W after "a " + cluster kills the cluster whole. */
		editor_set(&e, "a ", 2);
		type(&e, c);
		editor_kill_word_back(&e);
		assert_string_equal(editor_text(&e), "a ");
		editor_fini(&e);
	}
}

/* Ctrl-W never cuts a cluster that starts with a space and a combining mark. */
static void test_kill_word_keeps_clusters_whole(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	type(&e, "ab \xcc\x81x");        /* "ab", then a space carrying U+0301, then x */
	editor_kill_word_back(&e);
	assert_string_equal(editor_text(&e), "ab");
	editor_fini(&e);
}

/* Clear-all: Ctrl-U takes the line's text; at a line's start, the whole draft. After a
 * 200-line paste two presses empty the input and one Ctrl-Y brings every line back. */
static void test_ctrl_u_twice_clears_all(void **state)
{
	(void)state;
	struct buf paste;
	buf_init(&paste);
	for (int i = 1; i <= 200; i++)
		buf_printf(&paste, "line %d%s", i, i < 200 ? "\n" : "");
	struct editor e;
	editor_init(&e);
	editor_insert(&e, paste.data, paste.len);
	editor_kill_line_start(&e);
	assert_int_equal(e.text.len, paste.len - strlen("line 200"));
	editor_kill_line_start(&e);
	assert_true(editor_empty(&e));
	editor_yank(&e);
	assert_string_equal(editor_text(&e), paste.data);
	/* From the middle of a line: the line's head, then everything (head included once). */
	editor_set(&e, "one\ntwo three", strlen("one\ntwo three"));
	editor_left(&e);
	editor_left(&e);
	editor_kill_line_start(&e);
	assert_string_equal(editor_text(&e), "one\nee");
	editor_kill_line_start(&e);
	assert_true(editor_empty(&e));
	editor_yank(&e);
	assert_string_equal(editor_text(&e), "one\ntwo three");
	/* At a line's start with nothing killed just before: the draft as it is. */
	editor_set(&e, "a\nb", 3);
	editor_line_start(&e);
	editor_kill_line_start(&e);
	assert_true(editor_empty(&e));
	editor_yank(&e);
	assert_string_equal(editor_text(&e), "a\nb");
	/* An empty input stays empty and keeps what was killed. */
	editor_clear(&e);
	editor_kill_line_start(&e);
	editor_yank(&e);
	assert_string_equal(editor_text(&e), "a\nb");
	editor_fini(&e);
	buf_fini(&paste);
}

/* Entries loaded from the history file come back with Up, newest first, and do not repeat. */
static void test_history_add(void **state)
{
	(void)state;
	struct editor e;
	editor_init(&e);
	editor_history_add(&e, "first");
	editor_history_add(&e, "two\nlines");
	editor_history_add(&e, "two\nlines");
	editor_history_add(&e, "");
	assert_int_equal(e.nhistory, 2);
	type(&e, "draft");
	assert_true(editor_history_prev(&e));
	assert_string_equal(editor_text(&e), "two\nlines");
	assert_true(editor_history_prev(&e));
	assert_string_equal(editor_text(&e), "first");
	assert_false(editor_history_prev(&e));
	assert_true(editor_history_next(&e));
	assert_true(editor_history_next(&e));
	assert_string_equal(editor_text(&e), "draft");
	editor_fini(&e);
}

int main(void)
{
	/* widths are wcwidth()'s, which needs a UTF-8 locale */
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cursor_moves_by_grapheme_cluster),
		cmocka_unit_test(test_kill_word_keeps_clusters_whole),
		cmocka_unit_test(test_ctrl_u_twice_clears_all),
		cmocka_unit_test(test_history_add),
		cmocka_unit_test(test_insert_and_text),
		cmocka_unit_test(test_insert_filters_controls),
		cmocka_unit_test(test_backspace_takes_whole_grapheme),
		cmocka_unit_test(test_left_right_by_grapheme),
		cmocka_unit_test(test_line_start_end_multiline),
		cmocka_unit_test(test_kill_and_yank),
		cmocka_unit_test(test_kill_line_end_joins_lines),
		cmocka_unit_test(test_word_motions),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_vertical_moves_keep_column),
		cmocka_unit_test(test_vertical_moves_by_wrapped_rows),
		cmocka_unit_test(test_rows_wrap_wide_characters),
		cmocka_unit_test(test_full_row_gives_cursor_a_cell),
		cmocka_unit_test(test_empty_editor_has_one_row),
		cmocka_unit_test(test_cursor_position_multiline),
		cmocka_unit_test(test_huge_paste),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
