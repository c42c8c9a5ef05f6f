/* Widths as ncurses draws them: code points by wcwidth(), clusters as the sum. */
#include "text_test.h"

static void test_utf8_decode(void **state)
{
	(void)state;
	uint32_t cp;
	assert_int_equal(utf8_decode("A", 1, &cp), 1);
	assert_int_equal(cp, 'A');
	assert_int_equal(utf8_decode("\xc3\xa9", 2, &cp), 2);
	assert_int_equal(cp, 0xE9);
	assert_int_equal(utf8_decode("\xe4\xbd\xa0", 3, &cp), 3);
	assert_int_equal(cp, 0x4F60);
	assert_int_equal(utf8_decode("\xf0\x9f\x98\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1F600);
	/* invalid: the maximal prefix that could have been valid is consumed, U+FFFD */
	assert_int_equal(utf8_decode("\xe4\xbd", 2, &cp), 2);
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(utf8_decode("\xe4\xbd\xa0", 2, &cp), 2); /* n cuts the character */
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(utf8_decode("\x80x", 2, &cp), 1);
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(utf8_decode("\xc0\xaf", 2, &cp), 1);
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(utf8_decode("\xed\xa0\x80", 3, &cp), 1);
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(utf8_decode("\xf4\x90\x80\x80", 4, &cp), 1);
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(utf8_decode("\xf4\x8f\xbf\xbf", 4, &cp), 4);
	assert_int_equal(cp, 0x10FFFF);
}

static void test_cp_width(void **state)
{
	(void)state;
	assert_int_equal(cp_width('a'), 1);
	assert_int_equal(cp_width(' '), 1);
	assert_int_equal(cp_width(0x4E2D), 2);   /* 中 */
	assert_int_equal(cp_width(0xAC00), 2);   /* 가 */
	assert_int_equal(cp_width(0xFF21), 2);   /* Ａ fullwidth */
	assert_int_equal(cp_width(0x0301), 0);   /* combining acute */
	assert_int_equal(cp_width(0x200D), 0);   /* ZWJ */
	assert_int_equal(cp_width(0xFE0F), 0);   /* VS16 */
	assert_int_equal(cp_width(0x1F600), 2);  /* 😀 */
	assert_int_equal(cp_width(0xE9), 1);
	assert_int_equal(cp_width('\n'), 0);
	assert_int_equal(cp_width('\t'), 0);
	assert_int_equal(cp_width(0x1B), 0);
	assert_int_equal(cp_width(0x7F), 0);
	assert_int_equal(cp_width(0x9B), 0);
	assert_int_equal(cp_width(0x378), 1);    /* unassigned: wcwidth -1, ncurses gives a cell */
}

static void test_width_falls_back_outside_utf8_locale(void **state)
{
	(void)state;
	setlocale(LC_ALL, "C");
	int cjk = cp_width(0x4E2D), control = cp_width(0x85), ascii = cp_width('x');
	setlocale(LC_ALL, "C.UTF-8");
	assert_int_equal(cjk, 1);
	assert_int_equal(control, 0);
	assert_int_equal(ascii, 1);
}

struct cluster_case {
	const char *s;
	size_t first_len;   /* bytes of the first cluster */
	int first_width;
	int total_width;
};

static void test_grapheme_clusters(void **state)
{
	(void)state;
	static const struct cluster_case cases[] = {
		{ "ab", 1, 1, 2 },
		{ "e\xcc\x81x", 3, 1, 2 },                                 /* é combining */
		{ "e\xcc\x81\xcc\xa3x", 5, 1, 2 },                          /* two marks */
		{ "\xe4\xb8\xad\xe6\x96\x87", 3, 2, 4 },                    /* 中文 */
		{ "\xf0\x9f\x98\x80!", 4, 2, 3 },                           /* 😀! */
		/* 👨‍👩‍👧 is one cluster, 2+0+2+0+2 columns as ncurses advances */
		{ "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7x", 18, 6, 7 },
		{ "\xe2\x9d\xa4\xef\xb8\x8fx", 6, 1, 2 },                   /* ❤️ with VS16 */
		{ "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbdx", 8, 4, 5 },           /* 👍🏽 skin tone */
		{ "\xf0\x9f\x87\xba\xf0\x9f\x87\xb8x", 8, 2, 3 },           /* 🇺🇸 */
		/* regional indicators pair up: 🇺🇸🇫🇷 is two flags */
		{ "\xf0\x9f\x87\xba\xf0\x9f\x87\xb8\xf0\x9f\x87\xab\xf0\x9f\x87\xb7", 8, 2, 4 },
		{ "\n\xcc\x81", 1, 0, 0 },                                /* controls take nothing */
		{ "\xcc\x81" "a", 2, 0, 1 },                               /* a lone mark */
		/* कि: a consonant and its spacing vowel sign, one cluster of 1+1 columns */
		{ "\xe0\xa4\x95\xe0\xa4\xbfx", 6, 2, 3 },
		/* क्षa: consonant, virama, consonant — one conjunct (1+0+1) */
		{ "\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7" "a", 9, 2, 3 },
		/* a virama before a letter of another script joins nothing */
		{ "\xe0\xa4\x95\xe0\xa5\x8d" "a", 6, 1, 2 },
		/* Thai SARA AM (a SpacingMark though not Mc) stays with its consonant */
		{ "\xe0\xb8\x81\xe0\xb8\xb3x", 6, 2, 3 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct cluster_case *c = &cases[i];
		int w = -1;
		size_t len = grapheme_next(c->s, strlen(c->s), &w);
		if (len != c->first_len || w != c->first_width ||
		    text_width(c->s, strlen(c->s)) != c->total_width)
			fail_msg("case %zu: cluster %zu bytes width %d, text width %d", i, len, w,
				 text_width(c->s, strlen(c->s)));
	}
}

/* s made anew of up to most random picks from parts. */
static void random_mix(struct rng *r, struct buf *s, const char *const *parts, size_t nparts,
		       size_t most)
{
	buf_clear(s);
	for (size_t k = rng_below(r, most); k > 0; k--)
		buf_puts(s, parts[rng_below(r, nparts)]);
}

static void test_text_width_sums_clusters(void **state)
{
	(void)state;
	struct rng r = { 42 };
	static const char *const parts[] = {
		"a", " ", "\xe4\xb8\xad", "e\xcc\x81", "\xf0\x9f\x98\x80", "\xe2\x80\x8d",
		"\xef\xb8\x8f", "\xf0\x9f\x87\xba", "\xf0\x9f\x8f\xbd", "\xcc\x81", "\t",
	};
	struct buf s;
	buf_init(&s);
	for (int iter = 0; iter < 500; iter++) {
		random_mix(&r, &s, parts, sizeof(parts) / sizeof(parts[0]), 20);
		int sum = 0;
		size_t pos = 0;
		while (pos < s.len) {
			int w;
			size_t len = grapheme_next(s.data + pos, s.len - pos, &w);
			assert_true(len > 0);
			sum += w;
			pos += len;
		}
		assert_int_equal(pos, s.len);
		assert_int_equal(sum, text_width(s.data, s.len));
	}
	buf_fini(&s);
}

/* text_fits skips measuring a text no longer in bytes than the width: it must say what the
 * measure says for any text, broken UTF-8 and control characters too. */
static void test_text_fits_agrees_with_width(void **state)
{
	(void)state;
	struct rng r = { 7 };
	static const char *const parts[] = {
		"a", "\xe4\xb8\xad", "e\xcc\x81", "\xf0\x9f\x98\x80", "\xe2\x80\x8d", "\x01",
		"\xff", "\xe4\xb8", "\xc2\xa0", "\xe2\x9a\x99 ",
	};
	struct buf s;
	buf_init(&s);
	for (int iter = 0; iter < 500; iter++) {
		random_mix(&r, &s, parts, sizeof(parts) / sizeof(parts[0]), 12);
		int cols = text_width(s.data, s.len);
		for (int w = -1; w <= 40; w++)
			assert_int_equal(text_fits(s.data, s.len, w), cols <= w);
	}
	buf_fini(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_decode),
		cmocka_unit_test(test_cp_width),
		cmocka_unit_test(test_width_falls_back_outside_utf8_locale),
		cmocka_unit_test(test_grapheme_clusters),
		cmocka_unit_test(test_text_width_sums_clusters),
		cmocka_unit_test(test_text_fits_agrees_with_width),
	};
	return cmocka_run_group_tests(tests, text_test_setup, NULL);
}
