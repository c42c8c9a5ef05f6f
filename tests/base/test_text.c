/* base's text primitives: the one UTF-8 decoder and encoder, the ASCII case-insensitive
 * match and the wipe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* The bytes each well-formed or ill-formed input spans, and its value (table 3-7). */
static void test_utf8_next(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		size_t n, len;
		uint32_t cp;
	} cases[] = {
		{ "a", 1, 1, 'a' },
		{ "\xC3\xA9", 2, 2, 0xE9 },
		{ "\xE4\xBD\xA0", 3, 3, 0x4F60 },
		{ "\xF0\x9F\x98\x80", 4, 4, 0x1F600 },
		{ "\xF4\x8F\xBF\xBF", 4, 4, 0x10FFFF },
		{ "\xEF\xBF\xBD", 3, 3, 0xFFFD },               /* U+FFFD itself is well-formed */
		{ "\xC0\xAF", 2, 1, UTF8_INVALID },             /* overlong lead */
		{ "\xC1\xBF", 2, 1, UTF8_INVALID },
		{ "\x80", 1, 1, UTF8_INVALID },                 /* a lone continuation byte */
		{ "\xE0\x80\xAF", 3, 1, UTF8_INVALID },         /* overlong three-byte form */
		{ "\xED\xA0\x80", 3, 1, UTF8_INVALID },         /* a surrogate */
		{ "\xED\x9F\xBF", 3, 3, 0xD7FF },
		{ "\xF0\x8F\xBF\xBF", 4, 1, UTF8_INVALID },     /* overlong four-byte form */
		{ "\xF4\x90\x80\x80", 4, 1, UTF8_INVALID },     /* above U+10FFFF */
		{ "\xF5\x80\x80\x80", 4, 1, UTF8_INVALID },
		{ "\xE4\xBD" "a", 3, 2, UTF8_INVALID },         /* the maximal subpart: two bytes */
		{ "\xE4\xBD", 2, 2, UTF8_INVALID },             /* cut short by n */
		{ "\xF0\x9F\x98", 3, 3, UTF8_INVALID },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t cp = 0;
		size_t len = utf8_next(cases[i].s, cases[i].n, &cp);
		if (len != cases[i].len || cp != cases[i].cp)
			fail_msg("case %zu: spans %zu (want %zu), cp %#x (want %#x)", i, len,
				 cases[i].len, (unsigned)cp, (unsigned)cases[i].cp);
	}
}

static void test_utf8_encode(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_put_utf8(&b, 'a');
	buf_put_utf8(&b, 0xE9);
	buf_put_utf8(&b, 0x4F60);
	buf_put_utf8(&b, 0x1F600);
	buf_put_utf8(&b, 0xD800);              /* a lone surrogate is not UTF-8 */
	buf_put_utf8(&b, 0x110000);
	assert_string_equal(buf_cstr(&b), "aé你😀" UTF8_REPLACEMENT UTF8_REPLACEMENT);
	/* Every code point round-trips through the encoder and the decoder. */
	for (uint32_t cp = 0; cp <= 0x10FFFF; cp += (cp < 0x800 ? 1 : 61)) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		buf_clear(&b);
		buf_put_utf8(&b, cp);
		uint32_t back;
		assert_int_equal(utf8_next(b.data, b.len, &back), b.len);
		assert_int_equal(back, cp);
	}
	buf_fini(&b);
}

static void test_utf8_complete_prefix(void **state)
{
	(void)state;
	assert_int_equal(utf8_complete_prefix("ab", 2), 2);
	assert_int_equal(utf8_complete_prefix("a\xE4\xBD", 3), 1);
	assert_int_equal(utf8_complete_prefix("a\xE4\xBD\xA0", 4), 4);
	assert_int_equal(utf8_complete_prefix("\xF0\x9F\x98", 3), 0);
	assert_int_equal(utf8_complete_prefix("a\xC3", 2), 1);
}

static void test_ascii_find_ci(void **state)
{
	(void)state;
	const char *s = "Hello, WORLD é";
	size_t n = strlen(s);
	assert_ptr_equal(ascii_find_ci(s, n, "world", 5), s + 7);
	assert_ptr_equal(ascii_find_ci(s, n, "hELLO", 5), s);
	assert_ptr_equal(ascii_find_ci(s, n, "é", strlen("é")), s + 13);
	assert_null(ascii_find_ci(s, n, "É", strlen("É")));   /* ASCII only */
	assert_null(ascii_find_ci(s, n, "", 0));
	assert_null(ascii_find_ci(s, 4, "hello", 5));
	assert_null(ascii_find_ci(NULL, 0, "x", 1));
	/* '@' and '`' are not letters: 0x40 | 0x20 is 0x60, and they must not match. */
	assert_null(ascii_find_ci("@", 1, "`", 1));
	assert_null(ascii_find_ci("[", 1, "{", 1));
}

static void test_ascii_is_letter(void **state)
{
	(void)state;
	int letters = 0;
	for (int c = 0; c < 256; c++)
		letters += ascii_is_letter((unsigned char)c);
	assert_int_equal(letters, 52);
	assert_true(ascii_is_letter('A') && ascii_is_letter('z'));
	/* The neighbours that OR-ing in the case bit alone takes for letters. */
	assert_false(ascii_is_letter('@') || ascii_is_letter('`') || ascii_is_letter('[') ||
		     ascii_is_letter('{') || ascii_is_letter(0xC1) || ascii_is_letter(0xE1));
}

static void test_wipe(void **state)
{
	(void)state;
	char secret[] = "hunter2-hunter2";
	mem_wipe(secret, sizeof secret - 1);
	for (size_t i = 0; i < sizeof secret; i++)
		assert_int_equal(secret[i], 0);
	mem_wipe(NULL, 4);
	str_wipe_free(NULL);
	str_wipe_free(xstrdup("another secret"));
}

static void test_decimal_i64(void **state)
{
	(void)state;
	char d[21];
	assert_int_equal(decimal_i64(d, 0), 1);
	assert_string_equal(d, "0");
	assert_int_equal(decimal_i64(d, 120004), 6);
	assert_string_equal(d, "120004");
	assert_int_equal(decimal_i64(d, -1), 2);
	assert_string_equal(d, "-1");
	assert_int_equal(decimal_i64(d, INT64_MAX), 19);
	assert_string_equal(d, "9223372036854775807");
	assert_int_equal(decimal_i64(d, INT64_MIN), 20);
	assert_string_equal(d, "-9223372036854775808");
}

/* Appended as much as fits, never half a character: "é" is two bytes. */
static void test_cstr_append_fitted(void **state)
{
	(void)state;
	char out[8];
	size_t at = 0;
	out[0] = '\0';
	cstr_append_fitted(out, sizeof out, &at, "ab", 2);
	cstr_append_fitted(out, sizeof out, &at, "cd", 2);
	assert_string_equal(out, "abcd");
	cstr_append_fitted(out, sizeof out, &at, "ee\xc3\xa9", 4);
	assert_string_equal(out, "abcdee");
	assert_int_equal(at, 6);
	cstr_append_fitted(out, sizeof out, &at, "g", 1);
	cstr_append_fitted(out, sizeof out, &at, "hij", 3);
	assert_string_equal(out, "abcdeeg");
	assert_int_equal(at, 7);
}

static void test_iso_fraction_us(void **state)
{
	(void)state;
	long us = 7;
	const char *s = "12.5Z";
	assert_ptr_equal(iso_fraction_us(s, &us), s);  /* no "." here: none, 0 */
	assert_int_equal(us, 0);
	s = ".5Z";
	assert_ptr_equal(iso_fraction_us(s, &us), s + 2);
	assert_int_equal(us, 500000);
	s = ".123456789+01:00";
	assert_ptr_equal(iso_fraction_us(s, &us), s + 10);
	assert_int_equal(us, 123456);
	s = ".000001";
	assert_ptr_equal(iso_fraction_us(s, &us), s + 7);
	assert_int_equal(us, 1);
	assert_null(iso_fraction_us(".Z", &us));
	assert_null(iso_fraction_us(".", &us));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_next),
		cmocka_unit_test(test_utf8_encode),
		cmocka_unit_test(test_utf8_complete_prefix),
		cmocka_unit_test(test_ascii_find_ci),
		cmocka_unit_test(test_ascii_is_letter),
		cmocka_unit_test(test_wipe),
		cmocka_unit_test(test_iso_fraction_us),
		cmocka_unit_test(test_decimal_i64),
		cmocka_unit_test(test_cstr_append_fitted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
