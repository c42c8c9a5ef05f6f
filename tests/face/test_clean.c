/* The one output boundary: sanitize first, then mask. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <string.h>

#include "clean.h"
#include "render.h"

static void test_escape_inside_a_secret_is_caught(void **state)
{
	(void)state;
	struct mask_set *m = mask_set_create();
	assert_int_equal(mask_set_add(m, "hunter2", 7, NULL), 0);
	struct buf scratch, out;
	buf_init(&scratch);
	buf_init(&out);
	static const char text[] = "key hun\x1b[0mter2 \x1b]0;title\x07" "end\r\n";
	clean_text(m, text, sizeof text - 1, &scratch, &out);
	assert_string_equal(buf_cstr(&out), "key <secret-hidden> end\n");
	buf_clear(&out);
	clean_text(NULL, text, sizeof text - 1, &scratch, &out);
	assert_string_equal(buf_cstr(&out), "key hunter2 end\n");
	buf_fini(&scratch);
	buf_fini(&out);
	mask_set_destroy(m);
}

/* What the screen would read: the masker must see the same, so no invisible character and
 * no C1 control inside a secret lets it through (issue 11 point 3). */
static const char *const hiders[] = {
	"\xe2\x80\x8b", "\xc2\xad", "\xe2\x80\xae", "\xe2\x81\xa6", "\xef\xbb\xbf",
	"\xe2\x80\x8d", "\xef\xb8\x8f", "\xf3\xa0\x81\xa1", "\xc2\x9b", "\xc2\x9d",
	"\xc2\x90", "\xe2\x80\x8e", "\xcd\x8f",
};
#define NHIDERS (sizeof hiders / sizeof hiders[0])
#define SECRET "sk-ABCDEFGHIJKLMNOPQ"

static void test_hidden_inside_a_secret_is_caught(void **state)
{
	(void)state;
	struct mask_set *m = mask_set_create();
	assert_int_equal(mask_set_add(m, SECRET, strlen(SECRET), NULL), 0);
	struct buf scratch, in, out;
	buf_init(&scratch);
	buf_init(&in);
	buf_init(&out);
	for (size_t h = 0; h < NHIDERS; h++) {
		for (size_t at = 1; at < strlen(SECRET); at++) {
			buf_clear(&in);
			buf_clear(&out);
			buf_printf(&in, "key %.*s%s%s end", (int)at, SECRET, hiders[h], SECRET + at);
			clean_text(m, in.data, in.len, &scratch, &out);
			if (strcmp(buf_cstr(&out), "key <secret-hidden> end") != 0)
				fail_msg("hider #%zu at %zu: %s", h, at, buf_cstr(&out));
		}
	}
	buf_fini(&scratch);
	buf_fini(&in);
	buf_fini(&out);
	mask_set_destroy(m);
}

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static size_t rng_below(size_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (size_t)(rng_state % n);
}

/* The streaming path (a sanitizer and a mask stream per delta stream, as the controller
 * runs them): secrets with invisible characters, C1 controls and escape sequences inside,
 * fed in random chunks that split those characters anywhere, never come out, and the
 * output is the same as the one-shot path's. */
static void test_streaming_property_with_hiders(void **state)
{
	(void)state;
	struct mask_set *m = mask_set_create();
	assert_int_equal(mask_set_add(m, SECRET, strlen(SECRET), NULL), 0);
	assert_int_equal(mask_set_add(m, "hunter2", 7, NULL), 0);
	static const char *const words[] = { "plain ", "\n", "caf\xc3\xa9 ", "\xf0\x9f\x98\x80",
					     "\x1b[31m", "sk-ABC", "hunter", "2 " };
	struct buf in, whole, split, san, scratch;
	buf_init(&in);
	buf_init(&whole);
	buf_init(&split);
	buf_init(&san);
	buf_init(&scratch);
	for (int iter = 0; iter < 2000; iter++) {
		buf_clear(&in);
		size_t nparts = 1 + rng_below(12);
		for (size_t p = 0; p < nparts; p++) {
			if (rng_below(2)) {
				buf_puts(&in, words[rng_below(sizeof words / sizeof words[0])]);
				continue;
			}
			/* a secret with up to 3 hiders (or an escape sequence) at random places */
			const char *secret = rng_below(2) ? SECRET : "hunter2";
			size_t len = strlen(secret), from = 0;
			size_t nh = 1 + rng_below(3);
			for (size_t k = 0; k < nh; k++) {
				size_t at = from + rng_below(len - from);
				buf_append(&in, secret + from, at - from);
				size_t pick = rng_below(NHIDERS + 1);
				buf_puts(&in, pick < NHIDERS ? hiders[pick] : "\x1b[0m");
				from = at;
			}
			buf_append(&in, secret + from, len - from);
			buf_putc(&in, ' ');
		}
		buf_clear(&whole);
		clean_text(m, in.data, in.len, &scratch, &whole);

		/* The controller's streaming clean, fed in random pieces. */
		buf_clear(&split);
		struct clean_stream cs;
		clean_stream_init(&cs, m);
		for (size_t pos = 0; pos < in.len;) {
			size_t n = 1 + rng_below(7);
			if (n > in.len - pos)
				n = in.len - pos;
			clean_stream_feed(&cs, in.data + pos, n, &san, &split);
			pos += n;
		}
		clean_stream_flush(&cs, &san, &split);
		clean_stream_fini(&cs);
		const char *w = buf_cstr(&whole), *sp = buf_cstr(&split);
		if (strstr(w, "sk-ABCDEFGH") || strstr(w, "hunter2") || strstr(sp, "sk-ABCDEFGH") ||
		    strstr(sp, "hunter2"))
			fail_msg("iteration %d: a secret got through: %s", iter, sp);
		if (strcmp(w, sp) != 0)
			fail_msg("iteration %d: streamed output differs:\n%s\n%s", iter, w, sp);
	}
	buf_fini(&in);
	buf_fini(&whole);
	buf_fini(&split);
	buf_fini(&san);
	buf_fini(&scratch);
	mask_set_destroy(m);
}

/* A new attempt starts clean: what the old one held back is dropped, not carried over. */
static void test_clean_stream_reset_drops_what_is_held(void **state)
{
	(void)state;
	struct mask_set *m = mask_set_create();
	assert_int_equal(mask_set_add(m, SECRET, strlen(SECRET), NULL), 0);
	struct buf out, scratch;
	buf_init(&out);
	buf_init(&scratch);
	struct clean_stream cs;
	clean_stream_init(&cs, m);
	clean_stream_feed(&cs, "a \x1b[3", 5, &scratch, &out);
	clean_stream_feed(&cs, "x sk-ABC", 8, &scratch, &out);
	assert_string_equal(buf_cstr(&out), "a  "); /* the escape (ESC [3x) whole, the secret's start held */
	clean_stream_reset(&cs);
	buf_clear(&out);
	clean_stream_feed(&cs, "1m new", 6, &scratch, &out);
	clean_stream_flush(&cs, &scratch, &out);
	assert_string_equal(buf_cstr(&out), "1m new");
	clean_stream_fini(&cs);
	buf_fini(&out);
	buf_fini(&scratch);
	mask_set_destroy(m);
}

int main(void)
{
	setlocale(LC_CTYPE, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_inside_a_secret_is_caught),
		cmocka_unit_test(test_hidden_inside_a_secret_is_caught),
		cmocka_unit_test(test_streaming_property_with_hiders),
		cmocka_unit_test(test_clean_stream_reset_drops_what_is_held),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
