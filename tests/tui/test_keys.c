/* The key decoder: Alt as an Esc prefix, a lone Esc, bracketed paste as one event. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

enum { PASTE_BEGIN = KEY_MAX + 50, PASTE_END = KEY_MAX + 51, ALT_LEFT = KEY_MAX + 60 };

static void setup_keys(struct keys *k)
{
	keys_init(k);
	k->paste_begin = PASTE_BEGIN;
	k->paste_end = PASTE_END;
	keys_bind(k, ALT_LEFT, KEYS_LEFT, KEYS_MOD_ALT);
}

/* Feeds characters (function keys as negative numbers) and collects the events. */
static size_t feed(struct keys *k, const int *in, size_t n, struct key_event *out, size_t max)
{
	size_t got = 0;
	for (size_t i = 0; i < n; i++) {
		struct key_event ev[KEYS_MAX_EVENTS];
		bool fn = in[i] < 0;
		size_t m = keys_feed(k, fn, (uint32_t)(fn ? -in[i] : in[i]), ev);
		for (size_t j = 0; j < m && got < max; j++)
			out[got++] = ev[j];
	}
	return got;
}

static void test_plain_characters(void **state)
{
	(void)state;
	struct keys k;
	setup_keys(&k);
	struct key_event ev[8];
	const int in[] = { 'a', 0x4F60, 0x1F600 };
	assert_int_equal(feed(&k, in, 3, ev, 8), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(ev[i].kind, KEYS_CHAR);
		assert_int_equal(ev[i].mods, 0);
		assert_int_equal(ev[i].cp, (uint32_t)in[i]);
	}
	keys_fini(&k);
}

static void test_enter_newline_and_controls(void **state)
{
	(void)state;
	struct keys k;
	setup_keys(&k);
	struct key_event ev[8];
	const int in[] = { '\r', '\n', 1, 127, 8, '\t', -KEY_ENTER };
	assert_int_equal(feed(&k, in, 7, ev, 8), 7);
	assert_int_equal(ev[0].kind, KEYS_ENTER);
	assert_int_equal(ev[1].kind, KEYS_NEWLINE);
	assert_int_equal(ev[2].kind, KEYS_CTRL);
	assert_int_equal(ev[2].cp, 'a');
	assert_int_equal(ev[3].kind, KEYS_BACKSPACE);
	assert_int_equal(ev[4].kind, KEYS_BACKSPACE);
	assert_int_equal(ev[5].kind, KEYS_TAB);
	assert_int_equal(ev[6].kind, KEYS_ENTER);
	keys_fini(&k);
}

static void test_escape_prefix_is_alt(void **state)
{
	(void)state;
	struct keys k;
	setup_keys(&k);
	struct key_event ev[8];
	const int in[] = { 27, 'b', 27, '\r', 27, -KEY_UP };
	assert_int_equal(feed(&k, in, 6, ev, 8), 3);
	assert_int_equal(ev[0].kind, KEYS_CHAR);
	assert_int_equal(ev[0].cp, 'b');
	assert_int_equal(ev[0].mods, KEYS_MOD_ALT);
	assert_int_equal(ev[1].kind, KEYS_NEWLINE);     /* Alt-Enter inserts a line break */
	assert_int_equal(ev[2].kind, KEYS_UP);
	assert_int_equal(ev[2].mods, KEYS_MOD_ALT);
	keys_fini(&k);
}

static void test_lone_escape(void **state)
{
	(void)state;
	struct keys k;
	setup_keys(&k);
	struct key_event ev[4];
	const int in[] = { 27 };
	assert_int_equal(feed(&k, in, 1, ev, 4), 0);
	assert_int_equal(keys_idle(&k, ev), 1);
	assert_int_equal(ev[0].kind, KEYS_ESC);
	assert_int_equal(keys_idle(&k, ev), 0);
	const int twice[] = { 27, 27 };
	assert_int_equal(feed(&k, twice, 2, ev, 4), 1);
	assert_int_equal(ev[0].kind, KEYS_ESC);
	assert_int_equal(keys_idle(&k, ev), 1);
	keys_fini(&k);
}

static void test_function_keys_and_bindings(void **state)
{
	(void)state;
	struct keys k;
	setup_keys(&k);
	struct key_event ev[4];
	const int in[] = { -KEY_LEFT, -ALT_LEFT, -KEY_PPAGE, -(KEY_MAX + 99) };
	assert_int_equal(feed(&k, in, 4, ev, 4), 3);
	assert_int_equal(ev[0].kind, KEYS_LEFT);
	assert_int_equal(ev[0].mods, 0);
	assert_int_equal(ev[1].kind, KEYS_LEFT);
	assert_int_equal(ev[1].mods, KEYS_MOD_ALT);
	assert_int_equal(ev[2].kind, KEYS_PGUP);
	keys_fini(&k);
}

static void test_unknown_sequence_is_not_typing(void **state)
{
	(void)state;
	struct keys k;
	setup_keys(&k);
	struct key_event ev[8];
	const int in[] = { 27, '[', '9', '9', ';', '5', 'z', 'q' };
	assert_int_equal(feed(&k, in, 8, ev, 8), 1);
	assert_int_equal(ev[0].kind, KEYS_CHAR);
	assert_int_equal(ev[0].cp, 'q');
	keys_fini(&k);
}

static void test_paste_is_one_event(void **state)
{
	(void)state;
	struct keys k;
	setup_keys(&k);
	struct key_event ev[8];
	const int in[] = { 'x', -PASTE_BEGIN, 'l', 'i', 'n', 'e', '\r', 0x4F60, '\r', 27, 'b',
			   -PASTE_END, 'y' };
	size_t n = feed(&k, in, sizeof in / sizeof *in, ev, 8);
	assert_int_equal(n, 3);
	assert_int_equal(ev[0].kind, KEYS_CHAR);
	assert_int_equal(ev[1].kind, KEYS_PASTE);
	/* Enter inside a paste is a line break, never a send; Esc is text for the editor to
	 * clean, never Alt. */
	assert_int_equal(ev[1].len, strlen("line\n你\n\x1b" "b"));
	assert_memory_equal(ev[1].text, "line\n你\n\x1b" "b", ev[1].len);
	assert_int_equal(ev[2].kind, KEYS_CHAR);
	assert_int_equal(ev[2].cp, 'y');
	keys_fini(&k);
}

static void test_paste_survives_idle(void **state)
{
	(void)state;
	struct keys k;
	setup_keys(&k);
	struct key_event ev[4];
	const int a[] = { -PASTE_BEGIN, 'a', '\r' };
	assert_int_equal(feed(&k, a, 3, ev, 4), 0);
	assert_int_equal(keys_idle(&k, ev), 0);  /* the rest of the paste comes in a later read */
	const int b[] = { 'b', -PASTE_END };
	assert_int_equal(feed(&k, b, 2, ev, 4), 1);
	assert_int_equal(ev[0].kind, KEYS_PASTE);
	assert_int_equal(ev[0].len, 3);
	assert_memory_equal(ev[0].text, "a\nb", 3);
	keys_fini(&k);
}

static void test_huge_paste_one_event(void **state)
{
	(void)state;
	enum { SIZE = 1 << 20 };
	struct keys k;
	setup_keys(&k);
	struct key_event ev[KEYS_MAX_EVENTS];
	size_t events = 0;
	events += keys_feed(&k, true, PASTE_BEGIN, ev);
	for (size_t i = 0; i < SIZE; i++)
		events += keys_feed(&k, false, i % 100 == 99 ? '\r' : 'a' + i % 26, ev);
	assert_int_equal(events, 0);
	assert_int_equal(keys_feed(&k, true, PASTE_END, ev), 1);
	assert_int_equal(ev[0].kind, KEYS_PASTE);
	assert_int_equal(ev[0].len, SIZE);
	assert_int_equal(ev[0].text[99], '\n');
	keys_fini(&k);
}

static void test_utf8_encoding(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	keys_put_utf8(&b, 'a');
	keys_put_utf8(&b, 0xE9);
	keys_put_utf8(&b, 0x4F60);
	keys_put_utf8(&b, 0x1F600);
	keys_put_utf8(&b, 0xD800);              /* a lone surrogate is not UTF-8 */
	assert_string_equal(buf_cstr(&b), "aé你😀\xEF\xBF\xBD");
	buf_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_characters),
		cmocka_unit_test(test_enter_newline_and_controls),
		cmocka_unit_test(test_escape_prefix_is_alt),
		cmocka_unit_test(test_lone_escape),
		cmocka_unit_test(test_function_keys_and_bindings),
		cmocka_unit_test(test_unknown_sequence_is_not_typing),
		cmocka_unit_test(test_paste_is_one_event),
		cmocka_unit_test(test_paste_survives_idle),
		cmocka_unit_test(test_huge_paste_one_event),
		cmocka_unit_test(test_utf8_encoding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
