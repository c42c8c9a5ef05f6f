/* board: attention first, then the newest activity; the selection follows its conversation
 * through updates and filters; the filter matches title or id and is capped; marks and slots
 * read without colour; rows keep their columns in display width at any width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "conv_row.h"
#include "render.h"

#include <curses.h>
#include <stdio.h>
#include <wchar.h>

static const time_t NOW = 1800000000;

static struct board_entry entry(const char *id, const char *title, enum conv_mark mark,
				int64_t ago_s)
{
	return (struct board_entry){ .id = id, .title = title, .status = "idle",
				     .run_status = RUN_STATUS_IDLE,
				     .activity_unix = (int64_t)NOW - ago_s, .mark = mark };
}

static bool key(struct board *b, enum keys_kind kind, uint32_t cp, struct board_action *out)
{
	struct key_event ev = { .kind = kind, .cp = cp };
	return board_key(b, &ev, out);
}

static void press(struct board *b, enum keys_kind kind, uint32_t cp)
{
	struct board_action a;
	key(b, kind, cp, &a);
}

static void type(struct board *b, const char *s)
{
	for (; *s; s++)
		press(b, KEYS_CHAR, (unsigned char)*s);
}

static void paste(struct board *b, const char *s, size_t n)
{
	struct key_event ev = { .kind = KEYS_PASTE, .text = s, .len = n };
	struct board_action a;
	board_key(b, &ev, &a);
}

/* The ids of the rows, top to bottom, as the selection walks them, comma-separated. */
static char *order(struct board *b)
{
	struct buf out;
	buf_init(&out);
	buf_puts(&out, "");
	const char *keep = board_selected_id(b);
	char *back = keep ? strdup(keep) : NULL;
	press(b, KEYS_HOME, 0);
	const char *prev = NULL;
	for (const char *id = board_selected_id(b); id && id != prev; id = board_selected_id(b)) {
		buf_printf(&out, "%s%s", out.len ? "," : "", id);
		prev = id;
		press(b, KEYS_DOWN, 0);
	}
	/* walk back to where the selection was */
	press(b, KEYS_HOME, 0);
	while (back && board_selected_id(b) && strcmp(board_selected_id(b), back)) {
		const char *before = board_selected_id(b);
		press(b, KEYS_DOWN, 0);
		if (board_selected_id(b) == before)
			break;
	}
	free(back);
	return buf_steal(&out);
}

static void assert_order(struct board *b, const char *want)
{
	char *got = order(b);
	assert_string_equal(got, want);
	free(got);
}

static char *text(struct board *b, int cols)
{
	struct buf out;
	buf_init(&out);
	buf_puts(&out, "");
	board_text(b, cols, NOW, &out);
	return buf_steal(&out);
}

static void test_sort_attention_then_activity(void **state)
{
	(void)state;
	struct board *b = board_create("localhost:8000");
	struct board_entry e[] = {
		entry("aaaa1111", "old idle", CONV_MARK_NONE, 3600),
		entry("bbbb2222", "new idle", CONV_MARK_NONE, 60),
		entry("cccc3333", "needs a yes", CONV_MARK_CONFIRM, 7200),
		entry("dddd4444", "broke", CONV_MARK_ERROR, 10),
		entry("eeee5555", "done", CONV_MARK_FINISHED, 5),
		entry("ffff6666", "chatty", CONV_MARK_UNREAD, 1),
		entry("gggg7777", "newest idle", CONV_MARK_NONE, 0),
		entry("hhhh8888", "older yes", CONV_MARK_CONFIRM, 9000),
	};
	board_set_entries(b, e, sizeof e / sizeof e[0]);
	assert_order(b, "cccc3333,hhhh8888,dddd4444,eeee5555,ffff6666,gggg7777,bbbb2222,"
			"aaaa1111");
	/* the same activity: by id, so that an update does not shuffle them */
	struct board_entry tie[] = { entry("zz", "z", CONV_MARK_NONE, 5),
				     entry("yy", "y", CONV_MARK_NONE, 5) };
	board_set_entries(b, tie, 2);
	assert_order(b, "yy,zz");
	board_destroy(b);
}

static void test_selection_keeps_its_id(void **state)
{
	(void)state;
	struct board *b = board_create("h");
	struct board_entry e[] = {
		entry("aaaa", "alpha", CONV_MARK_NONE, 10),
		entry("bbbb", "beta", CONV_MARK_NONE, 20),
		entry("cccc", "gamma", CONV_MARK_NONE, 30),
	};
	board_set_entries(b, e, 3);
	assert_string_equal(board_selected_id(b), "aaaa");
	press(b, KEYS_DOWN, 0);
	assert_string_equal(board_selected_id(b), "bbbb");
	/* beta goes to the top (it needs confirmation now), then to the bottom */
	e[1].mark = CONV_MARK_CONFIRM;
	board_set_entries(b, e, 3);
	assert_order(b, "bbbb,aaaa,cccc");
	assert_string_equal(board_selected_id(b), "bbbb");
	e[1].mark = CONV_MARK_NONE;
	e[1].activity_unix = NOW - 99;
	board_set_entries(b, e, 3);
	assert_order(b, "aaaa,cccc,bbbb");
	assert_string_equal(board_selected_id(b), "bbbb");
	/* filtered away: another row is selected; the filter undone, beta is again */
	type(b, "gam");
	assert_string_equal(board_selected_id(b), "cccc");
	board_set_entries(b, e, 3);   /* an update while it hides */
	assert_string_equal(board_selected_id(b), "cccc");
	press(b, KEYS_CTRL, 'u');
	assert_string_equal(board_selected_id(b), "bbbb");
	type(b, "alp");
	assert_string_equal(board_selected_id(b), "aaaa");
	press(b, KEYS_BACKSPACE, 0);
	press(b, KEYS_BACKSPACE, 0);
	press(b, KEYS_BACKSPACE, 0);
	assert_string_equal(board_selected_id(b), "bbbb");
	/* gone from the server: the row now in its place */
	board_set_entries(b, e, 2);
	assert_non_null(board_selected_id(b));
	assert_string_equal(board_selected_id(b), "bbbb");
	struct board_entry rest[] = { e[0], e[2] };
	board_set_entries(b, rest, 2);
	assert_string_equal(board_selected_id(b), "cccc");
	board_set_entries(b, NULL, 0);
	assert_null(board_selected_id(b));
	board_set_entries(b, e, 3);
	assert_non_null(board_selected_id(b));
	board_destroy(b);
}

/* Issue 23, point 11: opened, the board is on the most urgent row, also when that row comes
 * with a later list; once the user moves, the selection is theirs. */
static void test_opens_on_the_most_urgent(void **state)
{
	(void)state;
	struct board *b = board_create("h");
	struct board_entry open[] = { entry("aaaa", "the open one", CONV_MARK_NONE, 10) };
	board_set_entries(b, open, 1);
	struct board_entry all[] = {
		entry("aaaa", "the open one", CONV_MARK_NONE, 10),
		entry("bbbb", "needs a yes", CONV_MARK_CONFIRM, 500),
		entry("cccc", "idle", CONV_MARK_NONE, 20),
	};
	board_select_urgent(b);
	assert_string_equal(board_selected_id(b), "aaaa");
	board_set_entries(b, all, 3);   /* the server's list arrives */
	assert_string_equal(board_selected_id(b), "bbbb");
	press(b, KEYS_DOWN, 0);
	assert_string_equal(board_selected_id(b), "aaaa");
	board_set_entries(b, all, 3);
	assert_string_equal(board_selected_id(b), "aaaa");
	board_select_urgent(b);         /* opened again */
	assert_string_equal(board_selected_id(b), "bbbb");
	board_destroy(b);
}

/* Ctrl-O on a row with nothing waiting says so; the y typed next as an answer is no filter. */
static void test_ctrl_o_with_nothing_waiting(void **state)
{
	(void)state;
	struct board *b = board_create("h");
	struct board_entry e[] = { entry("aaaa", "idle", CONV_MARK_NONE, 10),
				   entry("bbbb", "yonder", CONV_MARK_NONE, 20) };
	board_set_entries(b, e, 2);
	struct board_action a;
	struct key_event ctrl_o = { .kind = KEYS_CTRL, .cp = 'o' };
	assert_true(board_key(b, &ctrl_o, &a));
	assert_int_equal(a.kind, BOARD_NONE);
	type(b, "y");
	assert_string_equal(board_filter(b), "");
	type(b, "yon");                 /* typed again: a filter */
	assert_string_equal(board_filter(b), "yon");
	assert_string_equal(board_selected_id(b), "bbbb");
	board_destroy(b);
}

static void test_filter_title_and_id(void **state)
{
	(void)state;
	struct board *b = board_create("h");
	struct board_entry e[] = {
		entry("c0ffee00-1111", "Fix the parser", CONV_MARK_NONE, 10),
		entry("deadbeef-2222", "Write the docs", CONV_MARK_NONE, 20),
		entry("0badf00d-3333", "fix CI", CONV_MARK_NONE, 30),
	};
	board_set_entries(b, e, 3);
	type(b, "FIX");
	assert_string_equal(board_filter(b), "FIX");
	assert_order(b, "c0ffee00-1111,0badf00d-3333");
	press(b, KEYS_CTRL, 'u');
	assert_string_equal(board_filter(b), "");
	paste(b, "deadb", 5);
	assert_order(b, "deadbeef-2222");
	/* Esc clears a filter before it closes anything */
	struct board_action a;
	assert_true(key(b, KEYS_ESC, 0, &a));
	assert_int_equal(a.kind, BOARD_NONE);
	assert_string_equal(board_filter(b), "");
	assert_order(b, "c0ffee00-1111,deadbeef-2222,0badf00d-3333");
	type(b, "nothing like it");
	assert_null(board_selected_id(b));
	char *t = text(b, 80);
	assert_string_equal(t, "");
	free(t);
	assert_true(key(b, KEYS_ENTER, 0, &a));
	assert_int_equal(a.kind, BOARD_NONE);
	board_destroy(b);
}

static void test_filter_paste_is_capped(void **state)
{
	(void)state;
	struct board *b = board_create("h");
	struct board_entry e[] = { entry("aaaa", "alpha", CONV_MARK_NONE, 10) };
	board_set_entries(b, e, 1);
	size_t n = 1 << 20;
	char *big = malloc(n);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	paste(b, big, n);
	assert_int_equal(strlen(board_filter(b)), CONV_ROW_FILTER_MAX);
	type(b, "x");
	assert_int_equal(strlen(board_filter(b)), CONV_ROW_FILTER_MAX);
	press(b, KEYS_CTRL, 'u');
	/* a cap that falls inside a character keeps whole characters only */
	memset(big, 'a', CONV_ROW_FILTER_MAX - 1);
	memcpy(big + CONV_ROW_FILTER_MAX - 1, "é", 2);
	paste(b, big, CONV_ROW_FILTER_MAX + 1);
	assert_int_equal(strlen(board_filter(b)), CONV_ROW_FILTER_MAX - 1);
	press(b, KEYS_CTRL, 'u');
	/* only the first line, no controls */
	paste(b, "al\x1b[2Jp\nbeta", 12);
	assert_string_equal(board_filter(b), "al[2Jp");
	free(big);
	board_destroy(b);
}

static void test_keys_say_what_to_do(void **state)
{
	(void)state;
	struct board *b = board_create("h");
	struct board_entry e[] = {
		entry("aaaa", "asks", CONV_MARK_CONFIRM, 10),
		entry("bbbb", "quiet", CONV_MARK_NONE, 20),
	};
	e[0].run_status = RUN_STATUS_WAITING_FOR_CONFIRMATION;
	board_set_entries(b, e, 2);
	struct board_action a;
	assert_true(key(b, KEYS_ENTER, 0, &a));
	assert_int_equal(a.kind, BOARD_OPEN);
	assert_string_equal(a.id, "aaaa");
	assert_true(key(b, KEYS_CTRL, 'o', &a));
	assert_int_equal(a.kind, BOARD_ANSWER);
	assert_string_equal(a.id, "aaaa");
	press(b, KEYS_DOWN, 0);
	assert_true(key(b, KEYS_CTRL, 'o', &a));   /* nothing to answer there */
	assert_int_equal(a.kind, BOARD_NONE);
	assert_true(key(b, KEYS_ESC, 0, &a));
	assert_int_equal(a.kind, BOARD_CLOSE);
	/* Alt-digits and other Ctrl keys are the caller's */
	struct key_event alt = { .kind = KEYS_CHAR, .cp = '1', .mods = KEYS_MOD_ALT };
	assert_false(board_key(b, &alt, &a));
	assert_string_equal(board_filter(b), "");
	assert_false(key(b, KEYS_CTRL, 'c', &a));
	assert_false(key(b, KEYS_F1, 0, &a));
	/* moving past either end stays on the list */
	press(b, KEYS_PGDN, 0);
	assert_string_equal(board_selected_id(b), "bbbb");
	press(b, KEYS_UP, 0);
	press(b, KEYS_UP, 0);
	assert_string_equal(board_selected_id(b), "aaaa");
	press(b, KEYS_END, 0);
	assert_string_equal(board_selected_id(b), "bbbb");
	press(b, KEYS_PGUP, 0);
	assert_string_equal(board_selected_id(b), "aaaa");
	board_destroy(b);
}

static void test_marks_and_slots(void **state)
{
	(void)state;
	struct board *b = board_create("h");
	struct board_entry e[] = {
		entry("aaaa0000", "asks", CONV_MARK_CONFIRM, 60),
		entry("bbbb0000", "broke", CONV_MARK_ERROR, 120),
		entry("cccc0000", "hangs", CONV_MARK_ERROR, 180),
		entry("dddd0000", "done", CONV_MARK_FINISHED, 240),
		entry("eeee0000", "talks", CONV_MARK_UNREAD, 300),
		entry("ffff0000", "quiet", CONV_MARK_NONE, 0),
		entry("gggg0000", "weird", (enum conv_mark)42, 0),
	};
	e[0].slot = 2;
	e[0].status = "waiting_for_confirmation";
	e[2].run_status = RUN_STATUS_STUCK;
	e[3].slot = 9;
	e[4].unread = 3;
	e[5].activity_unix = 0;
	e[6].slot = 12;
	board_set_entries(b, e, 7);
	char *t = text(b, 80);
	assert_string_equal(t,
		"! confirm  2 aaaa0000  asks                           waiting for … 1 min ago\n"
		"✗ error      bbbb0000  broke                          idle          2 min ago\n"
		"✗ stuck      cccc0000  hangs                          idle          3 min ago\n"
		"✓ finished 9 dddd0000  done                           idle          4 min ago\n"
		"• 3 new      eeee0000  talks                          idle          5 min ago\n"
		"             gggg0000  weird                          idle          just now\n"
		"             ffff0000  quiet                          idle          -\n");
	free(t);
	/* narrow: the glyph alone, still before the slot */
	t = text(b, 40);
	assert_string_equal(t,
		"! 2 aaaa0000  asks\n"
		"✗   bbbb0000  broke\n"
		"✗   cccc0000  hangs\n"
		"✓ 9 dddd0000  done\n"
		"•   eeee0000  talks\n"
		"    gggg0000  weird\n"
		"    ffff0000  quiet\n");
	free(t);
	board_destroy(b);
}

/* The display column at which needle starts in line, -1 when absent. */
static int column_of(const char *line, const char *needle)
{
	const char *hit = strstr(line, needle);
	return hit ? text_width(line, (size_t)(hit - line)) : -1;
}

static void test_rows_fit_any_width(void **state)
{
	(void)state;
	struct board *b = board_create("h");
	struct board_entry e[] = {
		entry("aaaa0000", "日本語のタイトルがとても長くて画面に収まらないかもしれない",
		      CONV_MARK_CONFIRM, 60),
		entry("bbbb0000", "👩‍💻 emoji ZWJ and flags 🇫🇷🇩🇪 and more 👩‍💻👩‍💻👩‍💻👩‍💻", CONV_MARK_UNREAD, 120),
		entry("cccc0000", "combining e\xcc\x81\xcc\x81 and tabs\tand\nnewlines", CONV_MARK_NONE,
		      180),
		entry("dddd0000", "\x1b[31mred\x1b[0m \x07 bell", CONV_MARK_NONE, 240),
		entry("eeee0000", "", CONV_MARK_NONE, 300),
		entry("日本語の\x1b[1mID", "wide id", CONV_MARK_NONE, 400),
	};
	for (size_t i = 0; i < 6; i++)
		e[i].status = "running";
	board_set_entries(b, e, 6);
	const int widths[] = { 1, 2, 5, 20, 40, 80, 200 };
	for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
		int cols = widths[w];
		char *t = text(b, cols);
		int status_col = -1, lines = 0;
		if (cols == 40)    /* the id cut at a character, by columns */
			assert_non_null(strstr(t, "    日本語の  wide id"));
		if (cols == 80)
			assert_non_null(strstr(t, "長く…"));   /* the long title is cut, and says so */
		if (cols == 200) {
			assert_non_null(strstr(t, e[0].title));
			assert_non_null(strstr(t, "(untitled)"));
			assert_non_null(strstr(t, "combining e\xcc\x81\xcc\x81 and tabs and newlines"));
		}
		for (char *line = t, *nl; (nl = strchr(line, '\n')); line = nl + 1, lines++) {
			size_t len = (size_t)(nl - line);
			*nl = '\0';
			assert_true(text_width(line, len) <= cols);
			assert_null(memchr(line, '\x1b', len));
			assert_null(memchr(line, '\a', len));
			assert_null(memchr(line, '\t', len));
			int c = column_of(line, "running");
			if (cols >= 80) {
				/* the status column is where it is on every row, wide or not */
				assert_true(c > 0);
				if (status_col < 0)
					status_col = c;
				assert_int_equal(c, status_col);
			}
			if (cols >= 40 && !strstr(line, "wide id"))
				assert_int_equal(column_of(line, "0000"), cols >= 60 ? 17 : 8);
		}
		assert_int_equal(lines, 6);
		free(t);
	}
	board_destroy(b);
}

/* Line y of the curses screen as UTF-8, trailing blanks dropped. */
static char *screen_line(int y)
{
	wchar_t w[512] = { 0 };
	mvinnwstr(y, 0, w, 511);
	char *s = calloc(4 * 512 + 1, 1);
	wcstombs(s, w, 4 * 512);
	for (size_t n = strlen(s); n && s[n - 1] == ' '; n--)
		s[n - 1] = '\0';
	return s;
}

static bool screen_has(int y, const char *needle)
{
	char *line = screen_line(y);
	bool has = strstr(line, needle) != NULL;
	free(line);
	return has;
}

/* The painted board: its lines where they belong, the rows as board_text has them, the
 * selection in reverse, and any size down to one cell without a crash. */
static void test_paint(void **state)
{
	(void)state;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = out && in ? newterm("xterm", out, in) : NULL;
	if (!scr) {
		if (out)
			fclose(out);
		if (in)
			fclose(in);
		skip();
	}
	set_term(scr);
	struct board *b = board_create("my\x1b]0;pwned\x07host");
	struct board_entry e[] = {
		entry("aaaa0000-1111", "asks", CONV_MARK_CONFIRM, 60),
		entry("bbbb0000-2222", "日本語のタイトル", CONV_MARK_NONE, 120),
		entry("cccc0000-3333", "talks", CONV_MARK_UNREAD, 180),
	};
	e[0].run_status = RUN_STATUS_WAITING_FOR_CONFIRMATION;
	e[0].slot = 4;
	board_set_entries(b, e, 3);
	resizeterm(24, 80);
	board_paint(b, 24, 80, NOW, "list updated 3 s ago");
	char *line = screen_line(0);
	assert_string_equal(line, "Conversations on myhost · 2 need you");
	free(line);
	assert_true(screen_has(1, "Filter: type to filter by title or id"));
	char *t = text(b, 80);
	for (int r = 0; r < 3; r++) {
		line = screen_line(2 + r);
		size_t n = strcspn(t, "\n");
		assert_int_equal(strlen(line), n);
		assert_memory_equal(line, t, n);
		free(line);
		memmove(t, t + n + 1, strlen(t + n + 1) + 1);
	}
	free(t);
	assert_true(mvinch(2, 40) & A_REVERSE);
	assert_false(mvinch(3, 40) & A_REVERSE);
	line = screen_line(22);
	assert_string_equal(line, "aaaa0000-1111 · open as 4 · waits for your confirmation "
			    "(Ctrl-O to answer)");
	free(line);
	assert_true(screen_has(23, "list updated 3 s ago"));
	assert_true(screen_has(23, "Enter open · Ctrl-O answer · Esc back · type to filter"));
	/* a click selects the row drawn where it lands, nothing where no row is */
	assert_true(board_select_at(b, 4));
	assert_string_equal(board_selected_id(b), "bbbb0000-2222");
	assert_false(board_select_at(b, 1));
	assert_false(board_select_at(b, 5));
	assert_string_equal(board_selected_id(b), "bbbb0000-2222");
	assert_true(board_select_at(b, 2));
	assert_string_equal(board_selected_id(b), "aaaa0000-1111");
	/* Ctrl-O where there is nothing to answer says so on the detail line */
	press(b, KEYS_DOWN, 0);
	press(b, KEYS_CTRL, 'o');
	board_paint(b, 24, 80, NOW, NULL);
	assert_true(screen_has(22, "nothing to answer: no confirmation waits here"));
	type(b, "y");   /* an answer typed next: not a filter, and the hint stays */
	board_paint(b, 24, 80, NOW, NULL);
	assert_true(screen_has(1, "type to filter"));
	assert_true(screen_has(22, "nothing to answer: no confirmation waits here"));
	assert_true(mvinch(3, 40) & A_REVERSE);
	/* the keys at the bottom are the next step: a long note gives way, the keys get brief */
	resizeterm(24, 60);
	board_paint(b, 24, 60, NOW, "server unreachable, retrying in 8 s");
	assert_true(screen_has(23, "server unreachable, retrying in 8 s"));
	assert_true(screen_has(23, "Enter · Ctrl-O · Esc"));
	resizeterm(24, 40);
	board_paint(b, 24, 40, NOW, "server unreachable, retrying in 8 s");
	assert_true(screen_has(23, "Enter · Ctrl-O · Esc"));
	resizeterm(24, 80);
	/* a filter that leaves nothing says how to get the rows back */
	type(b, "zzz");
	board_paint(b, 24, 80, NOW, NULL);
	assert_true(screen_has(1, "Filter: zzz"));
	assert_true(screen_has(2, "No conversation matches \"zzz\""));
	/* every small size, and a list longer than the screen */
	press(b, KEYS_CTRL, 'u');
	for (int lines = 1; lines <= 8; lines++)
		for (int cols = 1; cols <= 24; cols++) {
			resizeterm(lines, cols);
			board_paint(b, lines, cols, NOW, "server unreachable, retrying in 8 s");
			press(b, KEYS_PGDN, 0);
		}
	resizeterm(5, 40);
	press(b, KEYS_END, 0);
	board_paint(b, 5, 40, NOW, NULL);
	assert_true(screen_has(3, "bbbb0000"));   /* the last row, scrolled to */
	assert_true(mvinch(3, 20) & A_REVERSE);
	board_set_entries(b, NULL, 0);
	resizeterm(24, 80);
	board_paint(b, 24, 80, NOW, NULL);
	assert_true(screen_has(0, "none needs you"));
	assert_true(screen_has(2, "No conversations on the server yet"));
	board_destroy(b);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
}

int main(void)
{
	/* widths as a UTF-8 terminal has them; without, every character is one column */
	if (!setlocale(LC_ALL, "C.UTF-8") || text_width("日", 3) != 2)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_attention_then_activity),
		cmocka_unit_test(test_selection_keeps_its_id),
		cmocka_unit_test(test_opens_on_the_most_urgent),
		cmocka_unit_test(test_ctrl_o_with_nothing_waiting),
		cmocka_unit_test(test_filter_title_and_id),
		cmocka_unit_test(test_filter_paste_is_capped),
		cmocka_unit_test(test_keys_say_what_to_do),
		cmocka_unit_test(test_marks_and_slots),
		cmocka_unit_test(test_rows_fit_any_width),
		cmocka_unit_test(test_paint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
