/* The key decoder, fed the bytes a terminal sends: UTF-8, Ctrl, Alt as an Esc prefix, CSI and
 * SS3 sequences with modifiers, a lone Esc after the wait, split reads, and bracketed paste
 * as one event whose content never acts as keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "keys.h"

enum { MAX_EVENTS = 64 };

struct got {
	struct key_event ev[MAX_EVENTS];
	char *text[MAX_EVENTS];
	size_t n;
};

static void collect(void *ctx, const struct key_event *ev)
{
	struct got *g = ctx;
	assert_true(g->n < MAX_EVENTS);
	g->ev[g->n] = *ev;
	g->text[g->n] = NULL;
	if (ev->kind == KEYS_PASTE || ev->kind == KEYS_REPLY) {
		g->text[g->n] = malloc(ev->len + 1);
		memcpy(g->text[g->n], ev->text, ev->len);
		g->text[g->n][ev->len] = '\0';
		g->ev[g->n].text = g->text[g->n];
	}
	g->n++;
}

static void got_free(struct got *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->text[i]);
	g->n = 0;
}

static void feed(struct keys *k, struct got *g, const char *s)
{
	keys_feed(k, s, strlen(s), collect, g);
}

/* Feeds s as it would come from the terminal in one read, then lets the wait run out. */
static void feed_all(struct keys *k, struct got *g, const char *s, size_t n)
{
	keys_feed(k, s, n, collect, g);
	if (keys_wait_us(k) >= 0)
		keys_expire(k, collect, g);
}

#define assert_key(g, i, k, m) do {                          \
		assert_true((i) < (g)->n);                   \
		assert_int_equal((g)->ev[i].kind, (k));      \
		assert_int_equal((g)->ev[i].mods, (m));      \
	} while (0)

static void test_plain_characters(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "a你😀");
	assert_int_equal(g.n, 3);
	const uint32_t want[] = { 'a', 0x4F60, 0x1F600 };
	for (size_t i = 0; i < 3; i++) {
		assert_key(&g, i, KEYS_CHAR, 0);
		assert_int_equal(g.ev[i].cp, want[i]);
	}
	assert_int_equal(keys_wait_us(&k), -1);
	keys_fini(&k);
}

static void test_enter_newline_and_controls(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\r\n\x01\x7f\x08\t\033OM\x03\x1a");
	assert_int_equal(g.n, 9);
	assert_key(&g, 0, KEYS_ENTER, 0);
	assert_key(&g, 1, KEYS_NEWLINE, 0);
	assert_key(&g, 2, KEYS_CTRL, 0);
	assert_int_equal(g.ev[2].cp, 'a');
	assert_key(&g, 3, KEYS_BACKSPACE, 0);
	assert_key(&g, 4, KEYS_BACKSPACE, 0);
	assert_key(&g, 5, KEYS_TAB, 0);
	assert_key(&g, 6, KEYS_ENTER, 0);           /* the keypad's Enter */
	assert_key(&g, 7, KEYS_CTRL, 0);
	assert_int_equal(g.ev[7].cp, 'c');          /* raw mode: Ctrl-C and Ctrl-Z are bytes */
	assert_int_equal(g.ev[8].cp, 'z');
	keys_fini(&k);
}

static void test_escape_prefix_is_alt(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033b\033\r\033\033[A\033\x7f");
	assert_int_equal(g.n, 4);
	assert_key(&g, 0, KEYS_CHAR, KEYS_MOD_ALT);
	assert_int_equal(g.ev[0].cp, 'b');
	assert_key(&g, 1, KEYS_NEWLINE, 0);         /* Alt-Enter inserts a line break */
	assert_key(&g, 2, KEYS_UP, KEYS_MOD_ALT);
	assert_key(&g, 3, KEYS_BACKSPACE, KEYS_MOD_ALT);
	keys_fini(&k);
}

static void test_lone_escape_after_the_wait(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033");
	assert_int_equal(g.n, 0);                   /* it may be the start of a key */
	assert_int_equal(keys_wait_us(&k), KEYS_ESC_DELAY_US);
	keys_expire(&k, collect, &g);
	assert_int_equal(g.n, 1);
	assert_key(&g, 0, KEYS_ESC, 0);
	assert_int_equal(keys_wait_us(&k), -1);
	keys_expire(&k, collect, &g);
	assert_int_equal(g.n, 1);
	/* Esc Esc is two; Esc then Ctrl-C is Esc and Ctrl-C, never Alt-Ctrl-C. */
	feed_all(&k, &g, "\033\033", 2);
	assert_int_equal(g.n, 3);
	assert_key(&g, 2, KEYS_ESC, 0);
	feed(&k, &g, "\033\x03");
	assert_int_equal(g.n, 5);
	assert_key(&g, 3, KEYS_ESC, 0);
	assert_key(&g, 4, KEYS_CTRL, 0);
	/* Esc and a letter in separate reads, but before the wait ran out: Alt-letter. */
	feed(&k, &g, "\033");
	feed(&k, &g, "f");
	assert_int_equal(g.n, 6);
	assert_key(&g, 5, KEYS_CHAR, KEYS_MOD_ALT);
	keys_fini(&k);
}

static void test_sequences_and_modifiers(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033[D\033OC\033[A\033OB\033[5~\033[6~\033[H\033OF\033[1~\033[4~\033[3~\033[Z"
		     "\033[1;3A\033[1;5D\033[1;2B\033[1;7C\033[3;2~\033[1;5H\033[5;2~");
	const struct { enum keys_kind kind; unsigned mods; } want[] = {
		{ KEYS_LEFT, 0 }, { KEYS_RIGHT, 0 }, { KEYS_UP, 0 }, { KEYS_DOWN, 0 },
		{ KEYS_PGUP, 0 }, { KEYS_PGDN, 0 }, { KEYS_HOME, 0 }, { KEYS_END, 0 },
		{ KEYS_HOME, 0 }, { KEYS_END, 0 }, { KEYS_DELETE, 0 }, { KEYS_BACKTAB, 0 },
		{ KEYS_UP, KEYS_MOD_ALT }, { KEYS_LEFT, KEYS_MOD_CTRL }, { KEYS_DOWN, KEYS_MOD_SHIFT },
		{ KEYS_RIGHT, KEYS_MOD_CTRL | KEYS_MOD_ALT }, { KEYS_DELETE, KEYS_MOD_SHIFT },
		{ KEYS_HOME, KEYS_MOD_CTRL }, { KEYS_PGUP, KEYS_MOD_SHIFT },
	};
	assert_int_equal(g.n, sizeof want / sizeof *want);
	for (size_t i = 0; i < g.n; i++)
		assert_key(&g, i, want[i].kind, want[i].mods);
	keys_fini(&k);
}

/* F5 (reconnect now) as xterm and tmux send it, also with a modifier. */
static void test_f5(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033[15~\033[15;5~");
	assert_int_equal(g.n, 2);
	assert_key(&g, 0, KEYS_F5, 0);
	assert_key(&g, 1, KEYS_F5, KEYS_MOD_CTRL);
	keys_fini(&k);
}

static void test_terminal_sequences_win(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	keys_bind(&k, "\033Od", KEYS_LEFT, KEYS_MOD_CTRL);      /* rxvt's Ctrl-Left */
	keys_bind(&k, "\033[3$", KEYS_DELETE, KEYS_MOD_SHIFT);  /* '$' ends no CSI */
	feed(&k, &g, "\033Od\033[3$x");
	assert_int_equal(g.n, 3);
	assert_key(&g, 0, KEYS_LEFT, KEYS_MOD_CTRL);
	assert_key(&g, 1, KEYS_DELETE, KEYS_MOD_SHIFT);
	assert_key(&g, 2, KEYS_CHAR, 0);
	keys_fini(&k);
}

static void test_unknown_sequences_are_not_typing(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033[99;5zq\033[[Br\033OQs"); /* F2 is no key here */
	assert_int_equal(g.n, 3);
	assert_int_equal(g.ev[0].cp, 'q');
	assert_int_equal(g.ev[1].cp, 'r');
	assert_int_equal(g.ev[2].cp, 's');
	/* An endless sequence is skipped to its final byte; a control character breaks it off
	 * and keeps its meaning. */
	char longseq[200] = "\033[";
	memset(longseq + 2, '1', 150);
	longseq[152] = '\0';
	feed(&k, &g, longseq);
	assert_int_equal(keys_wait_us(&k), -1);     /* nothing of it is kept */
	feed(&k, &g, "11At\033[12\x03u");
	assert_int_equal(g.n, 6);
	assert_int_equal(g.ev[3].cp, 't');
	assert_key(&g, 4, KEYS_CTRL, 0);
	assert_int_equal(g.ev[4].cp, 'c');
	assert_int_equal(g.ev[5].cp, 'u');
	keys_fini(&k);
}

static void test_split_reads(void **state)
{
	(void)state;
	static const char in[] = "a\033[1;5A\xe4\xbd\xa0\033OB\xf0\x9f\x98\x80\033b\033[200~p\r"
				 "q\033[201~\033[3~z";
	struct keys k;
	struct got whole = { 0 }, bytes = { 0 };
	keys_init(&k);
	feed_all(&k, &whole, in, sizeof in - 1);
	keys_fini(&k);
	/* One byte per read gives the same keys. */
	keys_init(&k);
	for (size_t i = 0; i < sizeof in - 1; i++)
		keys_feed(&k, in + i, 1, collect, &bytes);
	keys_expire(&k, collect, &bytes);
	keys_fini(&k);
	assert_int_equal(whole.n, 9);
	assert_int_equal(bytes.n, whole.n);
	for (size_t i = 0; i < whole.n; i++) {
		assert_int_equal(bytes.ev[i].kind, whole.ev[i].kind);
		assert_int_equal(bytes.ev[i].mods, whole.ev[i].mods);
		assert_int_equal(bytes.ev[i].cp, whole.ev[i].cp);
	}
	assert_key(&whole, 1, KEYS_UP, KEYS_MOD_CTRL);
	assert_int_equal(whole.ev[2].cp, 0x4F60);       /* 你 across three reads */
	assert_int_equal(whole.ev[4].cp, 0x1F600);
	assert_key(&whole, 5, KEYS_CHAR, KEYS_MOD_ALT);
	assert_key(&whole, 6, KEYS_PASTE, 0);
	assert_string_equal(bytes.text[6], "p\nq");
	assert_key(&whole, 7, KEYS_DELETE, 0);
	got_free(&whole);
	got_free(&bytes);
}

static void test_invalid_utf8_is_dropped(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\xff" "a\xe4" "b\xc0\xaf" "c\xed\xa0\x80" "d\xc2\x9b" "e");
	assert_int_equal(g.n, 5);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(g.ev[i].cp, 'a' + i);      /* C1 controls mean nothing either */
	feed_all(&k, &g, "\xe4\xbd", 2);                    /* cut off for good: dropped */
	assert_int_equal(g.n, 5);
	keys_fini(&k);
}

static void test_paste_is_one_event(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "x\033[200~line\r\n你\r\033b\033[201~");
	assert_int_equal(g.n, 1);
	/* The end marker counts once the terminal has sent nothing more for a moment. */
	assert_int_equal(keys_wait_us(&k), KEYS_PASTE_SETTLE_US);
	keys_expire(&k, collect, &g);
	feed(&k, &g, "y");
	assert_int_equal(g.n, 3);
	assert_key(&g, 0, KEYS_CHAR, 0);
	assert_key(&g, 1, KEYS_PASTE, 0);
	/* Enter inside a paste is a line break, never a send; Esc is text for the editor to
	 * clean, never Alt. */
	assert_int_equal(g.ev[1].len, strlen("line\n你\n\033b"));
	assert_memory_equal(g.ev[1].text, "line\n你\n\033b", g.ev[1].len);
	assert_key(&g, 2, KEYS_CHAR, 0);
	assert_int_equal(g.ev[2].cp, 'y');
	got_free(&g);
	keys_fini(&k);
}

static void test_paste_across_reads(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033[20");
	feed(&k, &g, "0~a\r");
	/* No end yet: only a long silence would end it. */
	assert_int_equal(keys_wait_us(&k), KEYS_PASTE_ABANDON_US);
	feed(&k, &g, "b\033[2");
	feed(&k, &g, "01~");                        /* the end marker split too */
	assert_int_equal(g.n, 0);
	keys_expire(&k, collect, &g);
	assert_int_equal(g.n, 1);
	assert_key(&g, 0, KEYS_PASTE, 0);
	assert_string_equal(g.text[0], "a\nb");
	got_free(&g);
	keys_fini(&k);
}

/* What a hostile clipboard holds: a fake end marker followed by Enter, control characters and
 * key sequences. The terminal sends the real end marker after all of it. */
static void test_pasted_content_never_acts_as_keys(void **state)
{
	(void)state;
	static const char evil[] = "\033[200~rm -rf ~\033[201~\r\x03\x03\x04\x1a\033[A\033\r"
				   "\033[200~more\033[201~\r\033[201~";
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed_all(&k, &g, evil, sizeof evil - 1);
	assert_int_equal(g.n, 1);
	assert_key(&g, 0, KEYS_PASTE, 0);
	assert_string_equal(g.text[0], "rm -rf ~\033[201~\n\x03\x03\x04\x1a\033[A\033\n"
				       "\033[200~more\033[201~\n");
	got_free(&g);
	/* The same, with the reads cut right after the fake marker and after the Enter: the
	 * paste ends only after the terminal went quiet, at the last marker. */
	feed(&k, &g, "\033[200~evil\033[201~");
	feed(&k, &g, "\r");
	feed(&k, &g, "\033[201~");
	assert_int_equal(g.n, 0);
	keys_expire(&k, collect, &g);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.text[0], "evil\033[201~\n");
	got_free(&g);
	keys_fini(&k);
}

/* Keys typed just after a paste come behind its end marker, in the same read: they are keys,
 * each one (two Ctrl-C stay two). */
static void test_keys_after_a_paste(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033[200~abc\033[201~\x03\x03\033[A\033");
	assert_int_equal(g.n, 0);
	keys_expire(&k, collect, &g);
	assert_int_equal(g.n, 4);
	assert_key(&g, 0, KEYS_PASTE, 0);
	assert_string_equal(g.text[0], "abc");
	assert_key(&g, 1, KEYS_CTRL, 0);
	assert_key(&g, 2, KEYS_CTRL, 0);
	assert_key(&g, 3, KEYS_UP, 0);
	assert_int_equal(keys_wait_us(&k), KEYS_ESC_DELAY_US);      /* the trailing Esc waits */
	keys_expire(&k, collect, &g);
	assert_int_equal(g.n, 5);
	assert_key(&g, 4, KEYS_ESC, 0);
	got_free(&g);
	keys_fini(&k);
}

/* A terminal that never sends the end marker: after a long silence the paste so far is text
 * and keys work again. */
static void test_paste_without_end(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033[200~half a paste\r\x03");
	assert_int_equal(keys_wait_us(&k), KEYS_PASTE_ABANDON_US);
	keys_expire(&k, collect, &g);
	assert_int_equal(g.n, 1);
	assert_key(&g, 0, KEYS_PASTE, 0);
	assert_string_equal(g.text[0], "half a paste\n\x03");
	assert_int_equal(keys_wait_us(&k), -1);
	feed(&k, &g, "\x03");
	assert_int_equal(g.n, 2);
	assert_key(&g, 1, KEYS_CTRL, 0);
	feed_all(&k, &g, "\033[200~", 6);         /* nothing at all after the begin marker */
	assert_int_equal(g.n, 3);
	assert_key(&g, 2, KEYS_PASTE, 0);
	assert_int_equal(g.ev[2].len, 0);
	got_free(&g);
	keys_fini(&k);
}

static void test_huge_paste_in_blocks(void **state)
{
	(void)state;
	enum { SIZE = 5 << 20, BLOCK = 65536 };
	char *in = malloc(SIZE + 16);
	memcpy(in, "\033[200~", 6);
	for (size_t i = 6; i < SIZE; i++)
		in[i] = i % 100 == 99 ? '\r' : (char)('a' + i % 26);
	memcpy(in + SIZE, "\033[201~", 6);
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	for (size_t at = 0; at < SIZE + 6; at += BLOCK)
		keys_feed(&k, in + at, SIZE + 6 - at < BLOCK ? SIZE + 6 - at : BLOCK, collect, &g);
	assert_int_equal(g.n, 0);
	keys_expire(&k, collect, &g);
	assert_int_equal(g.n, 1);
	assert_key(&g, 0, KEYS_PASTE, 0);
	assert_int_equal(g.ev[0].len, SIZE - 6);
	assert_int_equal(g.text[0][99 - 6], '\n');
	got_free(&g);
	keys_fini(&k);
	free(in);
}

/* F1 as xterm (SS3 P, CSI 1;mods P), rxvt (CSI 11~) and the Linux console (CSI [A) send it. */
static void test_f1(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033OP\033[11~\033[1;5P\033[[A\033[1;2P");
	assert_int_equal(g.n, 5);
	assert_key(&g, 0, KEYS_F1, 0);
	assert_key(&g, 1, KEYS_F1, 0);
	assert_key(&g, 2, KEYS_F1, KEYS_MOD_CTRL);
	assert_key(&g, 3, KEYS_F1, 0);
	assert_key(&g, 4, KEYS_F1, KEYS_MOD_SHIFT);
	keys_fini(&k);
}

/* The mouse: SGR reports (wheel, a click and its release, modifiers) and the old X10 form,
 * each one event that is never typing. */
static void test_mouse_reports(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033[<64;10;5M\033[<65;1;1M\033[<0;3;4M\033[<0;3;4m\033[<4;2;2Mx");
	assert_int_equal(g.n, 6);
	assert_key(&g, 0, KEYS_MOUSE, 0);
	assert_int_equal(g.ev[0].cp, KEYS_WHEEL_UP);
	assert_int_equal(g.ev[0].x, 9);
	assert_int_equal(g.ev[0].y, 4);
	assert_int_equal(g.ev[1].cp, KEYS_WHEEL_DOWN);
	assert_int_equal(g.ev[2].cp, KEYS_BUTTON_LEFT);
	assert_false(g.ev[2].release);
	assert_true(g.ev[3].release);
	assert_key(&g, 4, KEYS_MOUSE, KEYS_MOD_SHIFT);
	assert_int_equal(g.ev[4].cp, KEYS_BUTTON_LEFT);
	assert_int_equal(g.ev[5].cp, 'x');
	got_free(&g);
	/* X10: CSI M then button+32, column+33, row+33 as bytes, split across reads. */
	feed(&k, &g, "\033[M");
	feed(&k, &g, "a*%y");
	assert_int_equal(g.n, 2);
	assert_key(&g, 0, KEYS_MOUSE, 0);
	assert_int_equal(g.ev[0].cp, KEYS_WHEEL_DOWN);
	assert_int_equal(g.ev[0].x, 9);
	assert_int_equal(g.ev[0].y, 4);
	assert_int_equal(g.ev[1].cp, 'y');
	got_free(&g);
	keys_fini(&k);
}

/* The terminal's answers (OSC 11, XTGETTCAP, DA1) are replies, whole, even split across
 * reads; never typed. */

/* An OSC 52 string longer than the reader keeps (KEYS_STRING_MAX), unterminated, in out
 * (KEYS_STRING_MAX + 64 bytes). */
static void long_osc52(char *out)
{
	memcpy(out, "\033]52;c;", 7);
	memset(out + 7, 'A', KEYS_STRING_MAX + 20);
	out[KEYS_STRING_MAX + 27] = '\0';
}
static void test_terminal_replies(void **state)
{
	(void)state;
	struct keys k;
	struct got g = { 0 };
	keys_init(&k);
	feed(&k, &g, "\033]11;rgb:ffff/ffff/ffff\033\\a\033]11;rgb:0000/0000/0000\ab");
	feed(&k, &g, "\033P1+r4d73=5c453b\033\\\033[?62;22;52cc");
	assert_int_equal(g.n, 7);
	assert_key(&g, 0, KEYS_REPLY, 0);
	assert_string_equal(g.ev[0].text, "]11;rgb:ffff/ffff/ffff");
	assert_int_equal(g.ev[1].cp, 'a');
	assert_string_equal(g.ev[2].text, "]11;rgb:0000/0000/0000");
	assert_int_equal(g.ev[3].cp, 'b');
	assert_key(&g, 4, KEYS_REPLY, 0);
	assert_string_equal(g.ev[4].text, "P1+r4d73=5c453b");
	assert_key(&g, 5, KEYS_REPLY, 0);
	assert_string_equal(g.ev[5].text, "[?62;22;52c");
	assert_int_equal(g.ev[6].cp, 'c');
	got_free(&g);
	feed(&k, &g, "c\033]11;rgb:1");
	assert_int_equal(g.n, 1);
	assert_int_equal(keys_wait_us(&k), KEYS_STRING_WAIT_US);
	feed(&k, &g, "111/2222/3333\033");
	feed(&k, &g, "\\d");
	assert_int_equal(g.n, 3);
	assert_string_equal(g.ev[1].text, "]11;rgb:1111/2222/3333");
	assert_int_equal(g.ev[2].cp, 'd');
	got_free(&g);
	/* Too long a string is skipped to its end; an unfinished one is dropped after the
	 * wait; Alt-] alone stays Alt-]. */
	static char big[KEYS_STRING_MAX + 64];
	long_osc52(big);
	feed(&k, &g, big);
	assert_int_equal(g.n, 0);
	feed(&k, &g, "AAAA\033\\e");
	assert_int_equal(g.n, 1);
	assert_int_equal(g.ev[0].cp, 'e');
	got_free(&g);
	/* One that never ends gives the keys back at the wait. */
	long_osc52(big);
	feed(&k, &g, big);
	assert_int_equal(keys_wait_us(&k), KEYS_STRING_WAIT_US);
	keys_expire(&k, collect, &g);
	assert_int_equal(keys_wait_us(&k), -1);
	feed(&k, &g, "f");
	assert_int_equal(g.n, 1);
	assert_int_equal(g.ev[0].cp, 'f');
	got_free(&g);
	feed_all(&k, &g, "\033]11;rgb:12", strlen("\033]11;rgb:12"));
	assert_int_equal(g.n, 0);
	feed_all(&k, &g, "\033]", 2);
	assert_int_equal(g.n, 1);
	assert_key(&g, 0, KEYS_CHAR, KEYS_MOD_ALT);
	assert_int_equal(g.ev[0].cp, ']');
	got_free(&g);
	/* Alt-P and Alt-] typed before more text stay keys: an answer starts with a digit. */
	feed(&k, &g, "\033Pab\033]c");
	assert_int_equal(g.n, 5);
	assert_key(&g, 0, KEYS_CHAR, KEYS_MOD_ALT);
	assert_int_equal(g.ev[0].cp, 'P');
	assert_int_equal(g.ev[1].cp, 'a');
	assert_int_equal(g.ev[2].cp, 'b');
	assert_key(&g, 3, KEYS_CHAR, KEYS_MOD_ALT);
	assert_int_equal(g.ev[3].cp, ']');
	assert_int_equal(g.ev[4].cp, 'c');
	got_free(&g);
	keys_fini(&k);
}

/* The names the keys overlay shows. */
static void test_describe(void **state)
{
	(void)state;
	static const struct {
		enum keys_kind kind;
		unsigned mods;
		uint32_t cp;
		const char *want;
	} cases[] = {
		{ KEYS_CTRL, 0, 'o', "Ctrl-O" },
		{ KEYS_CHAR, KEYS_MOD_ALT, 'b', "Alt-b" },
		{ KEYS_CHAR, 0, '?', "?" },
		{ KEYS_PGUP, KEYS_MOD_SHIFT, 0, "Shift-PgUp" },
		{ KEYS_HOME, KEYS_MOD_CTRL, 0, "Ctrl-Home" },
		{ KEYS_UP, KEYS_MOD_ALT, 0, "Alt-Up" },
		{ KEYS_F1, 0, 0, "F1" },
		{ KEYS_ESC, 0, 0, "Esc" },
		{ KEYS_NEWLINE, 0, 0, "Ctrl-J/Alt-Enter" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct buf b;
		buf_init(&b);
		keys_describe(cases[i].kind, cases[i].mods, cases[i].cp, &b);
		assert_string_equal(buf_cstr(&b), cases[i].want);
		buf_fini(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_characters),
		cmocka_unit_test(test_enter_newline_and_controls),
		cmocka_unit_test(test_escape_prefix_is_alt),
		cmocka_unit_test(test_lone_escape_after_the_wait),
		cmocka_unit_test(test_sequences_and_modifiers),
		cmocka_unit_test(test_f5),
		cmocka_unit_test(test_terminal_sequences_win),
		cmocka_unit_test(test_unknown_sequences_are_not_typing),
		cmocka_unit_test(test_split_reads),
		cmocka_unit_test(test_invalid_utf8_is_dropped),
		cmocka_unit_test(test_paste_is_one_event),
		cmocka_unit_test(test_paste_across_reads),
		cmocka_unit_test(test_pasted_content_never_acts_as_keys),
		cmocka_unit_test(test_keys_after_a_paste),
		cmocka_unit_test(test_paste_without_end),
		cmocka_unit_test(test_huge_paste_in_blocks),
		cmocka_unit_test(test_f1),
		cmocka_unit_test(test_mouse_reports),
		cmocka_unit_test(test_terminal_replies),
		cmocka_unit_test(test_describe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
