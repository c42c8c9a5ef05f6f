/* The display sanitizer: control sequences removed whole, controls dropped, UTF-8 repaired,
 * and a stream split anywhere gives the same output as the whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base.h"

/* A seeded xorshift generator: the same pieces in the same order on every run. */
struct rng {
	uint64_t s;
};

static size_t rng_below(struct rng *r, size_t n)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return n ? (size_t)((r->s * 0x2545F4914F6CDD1DULL) % n) : 0;
}

/* base's decoder, with bytes that are not well-formed read as U+FFFD. */
static size_t utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	size_t len = utf8_next(s, n, cp);
	if (*cp == UTF8_INVALID)
		*cp = 0xFFFD;
	return len;
}

static char *sanitized(const char *in, size_t n)
{
	struct buf out;
	buf_init(&out);
	sanitize_text(in, n, &out);
	return buf_steal(&out);
}

/* Valid UTF-8 with no control but '\n' and '\t', no DEL, no C1, no ESC; otherwise fails
 * at the caller's line and names the offending byte. */
static void check_safe(const char *s, size_t n, const char *file, int line)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		uint32_t cp;
		size_t len = utf8_decode(s + i, n - i, &cp);
		bool replacement = len == 3 && memcmp(s + i, "\xef\xbf\xbd", 3) == 0;
		bool bad = (cp == 0xFFFD && !replacement) || (cp < 0x20 && cp != '\n' && cp != '\t') ||
			   (cp >= 0x7F && cp <= 0x9F);
		/* no invisible character outside an emoji sequence */
		bad |= cp == 0xAD || (cp >= 0x200B && cp <= 0x200F && cp != 0x200D) ||
		       (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF;
		if (cp == 0x200D) {
			uint32_t next = 0;
			if (i + len < n)
				utf8_decode(s + i + len, n - i - len, &next);
			bad |= next < 0x2000;
		}
		if (bad) {
			print_error("unsafe output at byte %zu: 0x%02x (code point U+%04X)\n", i, p[i],
				    (unsigned)cp);
			_fail(file, line);
		}
		i += len;
	}
}

#define CHECK_SAFE(s, n) check_safe((s), (n), __FILE__, __LINE__)

#define EXPECT_SANITIZED(in, expected)                                       \
	do {                                                                 \
		char *got_ = sanitized((in), sizeof(in) - 1);                \
		CHECK_SAFE(got_, strlen(got_));                              \
		assert_string_equal(got_, (expected));                       \
		free(got_);                                                  \
	} while (0)

static void test_every_c0_and_del_removed(void **state)
{
	(void)state;
	for (int c = 0; c < 0x20; c++) {
		char in[] = { 'a', (char)c, 'b' };
		char *got = sanitized(in, sizeof(in));
		CHECK_SAFE(got, strlen(got));
		if (c == '\n' || c == '\t')
			assert_memory_equal(got, in, sizeof(in));
		else if (c != 0x1B) /* ESC b is a two-byte escape: both go */
			assert_string_equal(got, "ab");
		free(got);
	}
	EXPECT_SANITIZED("a\x7f" "b", "ab");
	EXPECT_SANITIZED("a\x1b" "b", "a");
}

static void test_every_c1_removed(void **state)
{
	(void)state;
	for (int c = 0x80; c <= 0x9F; c++) {
		/* U+0080..U+009F in UTF-8, then a final byte so a CSI/OSC/DCS introducer ends */
		char in[] = { 'a', (char)0xC2, (char)c, 'm', 0x07, 0x1B, '\\', 'b' };
		char *got = sanitized(in, sizeof(in));
		CHECK_SAFE(got, strlen(got));
		assert_non_null(strchr(got, 'a'));
		assert_non_null(strchr(got, 'b'));
		free(got);
		/* raw 8-bit C1 bytes are not UTF-8: each becomes U+FFFD */
		char raw[] = { 'a', (char)c, 'b' };
		got = sanitized(raw, sizeof(raw));
		assert_string_equal(got, "a\xef\xbf\xbd" "b");
		free(got);
	}
	EXPECT_SANITIZED("a\xc2\x85" "b", "ab");      /* NEL */
	EXPECT_SANITIZED("a\xc2\x9c" "b", "ab");      /* a stray ST */
}

/* A C1 control is one character in UTF-8 text: it goes alone and takes nothing with it (a
 * U+009B inside a secret used to eat the next character, and the masker missed the rest). */
static void test_c1_goes_alone(void **state)
{
	(void)state;
	EXPECT_SANITIZED("x\xc2\x9b" "2Jy", "x2Jy");               /* 8-bit CSI */
	EXPECT_SANITIZED("x\xc2\x9d" "0;t\xc2\x9cy", "x0;ty");     /* 8-bit OSC and ST */
	EXPECT_SANITIZED("x\xc2\x90q\xc2\x9cy", "xqy");            /* 8-bit DCS */
	EXPECT_SANITIZED("sk-AB\xc2\x9b" "CDEFGH", "sk-ABCDEFGH");
	EXPECT_SANITIZED("sk-AB\xc2\x9f" "CD\xc2\x98" "EF\xc2\x9e" "GH", "sk-ABCDEFGH");
	/* 8-bit ST still ends a string that ESC started */
	EXPECT_SANITIZED("x\x1b]0;title\xc2\x9cy", "xy");
}

/* Characters that draw nothing cannot hide inside text: default ignorables and bidi
 * controls go, each of them. */
static void test_ignorables_removed(void **state)
{
	(void)state;
	static const char *const ignorables[] = {
		"\xc2\xad",          /* U+00AD soft hyphen */
		"\xcd\x8f",          /* U+034F combining grapheme joiner */
		"\xd8\x9c",          /* U+061C arabic letter mark */
		"\xe1\x85\x9f",      /* U+115F hangul choseong filler */
		"\xe1\x9e\xb4",      /* U+17B4 */
		"\xe1\xa0\x8e",      /* U+180E mongolian vowel separator */
		"\xe2\x80\x8b",      /* U+200B zero width space */
		"\xe2\x80\x8c",      /* U+200C ZWNJ */
		"\xe2\x80\x8d",      /* U+200D ZWJ, outside an emoji sequence */
		"\xe2\x80\x8e",      /* U+200E LRM */
		"\xe2\x80\x8f",      /* U+200F RLM */
		"\xe2\x80\xaa",      /* U+202A LRE */
		"\xe2\x80\xae",      /* U+202E RLO */
		"\xe2\x81\xa0",      /* U+2060 word joiner */
		"\xe2\x81\xa4",      /* U+2064 invisible plus */
		"\xe2\x81\xa6",      /* U+2066 LRI */
		"\xe2\x81\xa9",      /* U+2069 PDI */
		"\xe2\x81\xaf",      /* U+206F */
		"\xe3\x85\xa4",      /* U+3164 hangul filler */
		"\xef\xb8\x80",      /* U+FE00 variation selector 1 */
		"\xef\xb8\x8f",      /* U+FE0F VS16, after a letter */
		"\xef\xbb\xbf",      /* U+FEFF BOM */
		"\xef\xbe\xa0",      /* U+FFA0 */
		"\xef\xbf\xb0",      /* U+FFF0 */
		"\xf0\x9b\xb2\xa0",  /* U+1BCA0 */
		"\xf0\x9d\x85\xb3",  /* U+1D173 */
		"\xf3\xa0\x80\x81",  /* U+E0001 language tag */
		"\xf3\xa0\x81\xa1",  /* U+E0061 tag a, after a letter */
		"\xf3\xa0\x84\x80",  /* U+E0100 variation selector 17 */
		"\xf3\xa0\xbf\xbf",  /* U+E0FFF */
	};
	for (size_t i = 0; i < sizeof ignorables / sizeof ignorables[0]; i++) {
		struct buf in;
		buf_init(&in);
		buf_printf(&in, "sk-A%sBC%s%sD", ignorables[i], ignorables[i], ignorables[i]);
		char *got = sanitized(in.data, in.len);
		if (strcmp(got, "sk-ABCD") != 0)
			fail_msg("ignorable #%zu kept: %s", i, got);
		free(got);
		buf_fini(&in);
	}
	/* their neighbours are not ignorable */
	EXPECT_SANITIZED("\xc2\xac\xc2\xae\xe2\x80\x8a\xe2\x80\x90\xe2\x80\xaf\xef\xbf\xbd",
			 "\xc2\xac\xc2\xae\xe2\x80\x8a\xe2\x80\x90\xe2\x80\xaf\xef\xbf\xbd");
	EXPECT_SANITIZED("caf\xc3\xa9 e\xcc\x81", "caf\xc3\xa9 e\xcc\x81");     /* combining mark */
}

/* ZWJ, variation selectors and tags stay where they build an emoji, and only there. */
static void test_emoji_sequences_kept(void **state)
{
	(void)state;
	/* 👨‍👩‍👧, ❤️, ❤️‍🔥, 👩🏽‍💻, 🏴 + tags (England) */
	EXPECT_SANITIZED("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7",
			 "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7");
	EXPECT_SANITIZED("\xe2\x9d\xa4\xef\xb8\x8f!", "\xe2\x9d\xa4\xef\xb8\x8f!");
	EXPECT_SANITIZED("\xe2\x9d\xa4\xef\xb8\x8f\xe2\x80\x8d\xf0\x9f\x94\xa5",
			 "\xe2\x9d\xa4\xef\xb8\x8f\xe2\x80\x8d\xf0\x9f\x94\xa5");
	EXPECT_SANITIZED("\xf0\x9f\x91\xa9\xf0\x9f\x8f\xbd\xe2\x80\x8d\xf0\x9f\x92\xbb",
			 "\xf0\x9f\x91\xa9\xf0\x9f\x8f\xbd\xe2\x80\x8d\xf0\x9f\x92\xbb");
	EXPECT_SANITIZED("\xf0\x9f\x8f\xb4\xf3\xa0\x81\xa7\xf3\xa0\x81\xa2\xf3\xa0\x81\xbf",
			 "\xf0\x9f\x8f\xb4\xf3\xa0\x81\xa7\xf3\xa0\x81\xa2\xf3\xa0\x81\xbf");
	/* ...and go where they join nothing: a ZWJ after an emoji but before a letter, a
	 * second variation selector, a tag after the cancel tag or after another emoji */
	EXPECT_SANITIZED("\xf0\x9f\x98\x80\xe2\x80\x8d" "abcd", "\xf0\x9f\x98\x80" "abcd");
	EXPECT_SANITIZED("\xf0\x9f\x98\x80\xe2\x80\x8d", "\xf0\x9f\x98\x80");
	EXPECT_SANITIZED("\xe2\x9d\xa4\xef\xb8\x8f\xef\xb8\x8f!", "\xe2\x9d\xa4\xef\xb8\x8f!");
	EXPECT_SANITIZED("\xf0\x9f\x8f\xb4\xf3\xa0\x81\xbf\xf3\xa0\x81\xa7",
			 "\xf0\x9f\x8f\xb4\xf3\xa0\x81\xbf");
	EXPECT_SANITIZED("\xf0\x9f\x98\x80\xf3\xa0\x81\xa7", "\xf0\x9f\x98\x80");
	EXPECT_SANITIZED("a\xe2\x80\x8d\xf0\x9f\x98\x80", "a\xf0\x9f\x98\x80");
	EXPECT_SANITIZED("\xf0\x9f\x98\x80\xe2\x80\x8d\x1b[m\xe2\x80\x8d\xf0\x9f\x98\x80",
			 "\xf0\x9f\x98\x80\xf0\x9f\x98\x80");
}

static void test_known_sequences_removed_whole(void **state)
{
	(void)state;
	EXPECT_SANITIZED("x\x1b[2Jy", "xy");                       /* clear screen */
	EXPECT_SANITIZED("x\x1b[3Jy", "xy");                       /* clear scrollback */
	EXPECT_SANITIZED("x\x1b[1;31mred\x1b[0my", "xredy");        /* SGR */
	EXPECT_SANITIZED("x\x1b[?1049hy", "xy");                   /* private mode */
	EXPECT_SANITIZED("x\x1b]52;c;aGVsbG8=\ay", "xy");          /* OSC 52 clipboard write */
	EXPECT_SANITIZED("x\x1b]0;pwned\ay", "xy");                /* title, BEL */
	EXPECT_SANITIZED("x\x1b]0;pwned\x1b\\y", "xy");            /* title, ST */
	EXPECT_SANITIZED("x\x1b]8;;http://e.x\x1b\\link\x1b]8;;\x1b\\y", "xlinky");
	EXPECT_SANITIZED("x\x1bP1$r0m\x1b\\y", "xy");              /* DCS */
	EXPECT_SANITIZED("x\x1bPq#0;2;0;0;0\ay\x1b\\z", "xz");     /* BEL does not end a DCS */
	EXPECT_SANITIZED("x\x1b_apc\x1b\\y\x1bXsos\x1b\\z\x1b^pm\x1b\\w", "xyzw");
	EXPECT_SANITIZED("x\x1b" "cy", "xy");                      /* reset */
	EXPECT_SANITIZED("x\x1b" "7y\x1b" "8z", "xyz");            /* save/restore cursor */
	EXPECT_SANITIZED("x\x1b(By", "xy");                        /* charset: ESC ( B */
	EXPECT_SANITIZED("x\x1b[2\x18y", "xy");                    /* CAN cancels */
	EXPECT_SANITIZED("x\x1b]0;t\x1b[2Jy", "xy");               /* ESC ends a string */
}

static void test_line_ends_and_controls(void **state)
{
	(void)state;
	EXPECT_SANITIZED("a\r\nb", "a\nb");
	EXPECT_SANITIZED("a\rb", "ab");
	EXPECT_SANITIZED("progress 10%\rprogress 20%\r\n", "progress 10%progress 20%\n");
	EXPECT_SANITIZED("bell\a!", "bell!");
	EXPECT_SANITIZED("abc\b\bx", "abcx");
	EXPECT_SANITIZED("tab\there\n", "tab\there\n");
	EXPECT_SANITIZED("nul\0byte", "nulbyte");
}

static void test_invalid_utf8_replaced(void **state)
{
	(void)state;
	EXPECT_SANITIZED("\xc3\xa9 \xe4\xbd\xa0 \xf0\x9f\x98\x80", "\xc3\xa9 \xe4\xbd\xa0 \xf0\x9f\x98\x80");
	EXPECT_SANITIZED("a\xc0\xaf" "b", "a\xef\xbf\xbd\xef\xbf\xbd" "b");       /* overlong '/' */
	EXPECT_SANITIZED("a\xe0\x80\xaf" "b",
			 "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "b");             /* overlong */
	EXPECT_SANITIZED("a\xed\xa0\x80" "b",
			 "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "b");             /* surrogate */
	EXPECT_SANITIZED("a\xf4\x90\x80\x80" "b",
			 "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "b"); /* > U+10FFFF */
	EXPECT_SANITIZED("a\x80" "b", "a\xef\xbf\xbd" "b");                     /* stray continuation */
	EXPECT_SANITIZED("a\xe2\x82" "b", "a\xef\xbf\xbd" "b");                 /* truncated */
	EXPECT_SANITIZED("a\xe2\x82", "a\xef\xbf\xbd");                         /* truncated at end */
	EXPECT_SANITIZED("a\xf5\xff" "b", "a\xef\xbf\xbd\xef\xbf\xbd" "b");     /* never valid */
	EXPECT_SANITIZED("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");                 /* U+10FFFF is valid */
}

static void test_unterminated_string_is_capped(void **state)
{
	(void)state;
	struct buf in;
	buf_init(&in);
	buf_puts(&in, "x\x1b]52;c;");
	for (int i = 0; i < 100000; i++)
		buf_putc(&in, 'A');
	buf_puts(&in, " tail");
	char *got = sanitized(in.data, in.len);
	CHECK_SAFE(got, strlen(got));
	size_t len = strlen(got);
	/* the start of the payload went with the sequence; the transcript goes on after it */
	assert_true(len > 5 && len < in.len - 1000);
	assert_int_equal(got[0], 'x');
	assert_string_equal(got + len - 5, " tail");
	free(got);
	buf_fini(&in);
}

static void test_flush_resolves_held_bytes(void **state)
{
	(void)state;
	struct sanitizer s;
	struct buf out;
	buf_init(&out);
	sanitizer_init(&s);
	sanitizer_feed(&s, "ok\x1b]0;ti", 8, &out);
	sanitizer_flush(&s, &out);
	assert_string_equal(out.data, "ok");
	/* after a flush the sanitizer starts fresh */
	sanitizer_feed(&s, "tle\xe4\xbd", 5, &out);
	assert_string_equal(out.data, "oktle");
	sanitizer_flush(&s, &out);
	assert_string_equal(out.data, "oktle\xef\xbf\xbd");
	buf_fini(&out);
}

/* Pieces that exercise every state, including the two halves of 8-bit C1 characters. */
static const char *const pieces[] = {
	"a", "hello ", "\n", "\r", "\r\n", "\t", "\a", "\b", "\x7f", "\x1b", "[", "]", "P", "\\",
	"2J", "0;title", "52;c;aGVsbG8=", "m", "\x1b[", "\x1b]", "\x1bP", "\x1b\\", "\xc2",
	"\x9b", "\x9c", "\x9d", "\x90", "\xc3\xa9", "\xe4\xbd\xa0", "\xf0\x9f\x98\x80", "\xe4",
	"\xbd", "\xf0\x9f", "\x80", "\xff", "\xed\xa0\x80", "\xc0\xaf", "\x18", "(", "B", ";",
	"\x00", "\xe2\x80\x8d", "\xe2\x80", "\x8d", "\xef\xb8\x8f", "\xc2\xad", "\xad",
	"\xe2\x80\xae", "\xe2\x81\xa6", "\xf0\x9f\x91\xa8", "\xe2\x9d\xa4", "\xf0\x9f\x8f\xb4",
	"\xf3\xa0\x81\xa7", "\xf3\xa0\x81\xbf", "\xf3\xa0", "\x81\xa7", "\xe2\x80\x8b",
};

static void test_split_anywhere_same_output(void **state)
{
	(void)state;
	struct rng r = { 0x9E3779B97F4A7C15ULL };
	struct buf in, whole, split;
	buf_init(&in);
	buf_init(&whole);
	buf_init(&split);
	size_t npieces = sizeof(pieces) / sizeof(pieces[0]);
	for (int iter = 0; iter < 3000; iter++) {
		buf_clear(&in);
		size_t count = 1 + rng_below(&r, 40);
		for (size_t i = 0; i < count; i++) {
			const char *p = pieces[rng_below(&r, npieces)];
			buf_append(&in, p, p[0] ? strlen(p) : 1);
		}
		if (iter % 4 == 0) { /* some plain random bytes too */
			for (size_t i = 0; i < 16; i++)
				buf_putc(&in, (char)rng_below(&r, 256));
		}
		buf_clear(&whole);
		sanitize_text(in.data, in.len, &whole);
		CHECK_SAFE(whole.data, whole.len);

		buf_clear(&split);
		struct sanitizer s;
		sanitizer_init(&s);
		size_t pos = 0;
		while (pos < in.len) {
			size_t n = rng_below(&r, 4) == 0 ? 0 : 1 + rng_below(&r, 6);
			if (n > in.len - pos)
				n = in.len - pos;
			sanitizer_feed(&s, in.data + pos, n, &split);
			pos += n;
		}
		sanitizer_flush(&s, &split);
		if (split.len != whole.len || memcmp(split.data, whole.data, whole.len) != 0)
			fail_msg("iteration %d: split output differs from whole output", iter);
	}
	buf_fini(&in);
	buf_fini(&whole);
	buf_fini(&split);
}

/* Plain runs go a word at a time: a byte that is dropped or starts a sequence is caught at
 * every offset of a word, and LF and TAB are kept wherever they are. */
static void test_plain_runs_at_every_offset(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} specials[] = {
		{ "\x1b[31m", "" },      { "\x7f", "" },          { "\r", "" },
		{ "\x01", "" },          { "\n", "\n" },           { "\t", "\t" },
		{ "\xc3\xa9", "\xc3\xa9" }, { "\xff", "\xef\xbf\xbd" }, { "\xc2\x9b", "" },
		{ "\xe2\x80\x8b", "" },
	};
	static const char before_text[] = "ab\ncdefghij\tklmnopqrstuvwxyz";
	for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) {
		for (size_t before = 0; before < 20; before++) {
			for (size_t after = 0; after < 12; after++) {
				char in[64], want[64];
				int n = snprintf(in, sizeof in, "%.*s%s%.*s", (int)before,
						 before_text, specials[k].in, (int)after,
						 "ABCDEFGH\nIJKLMNOP");
				snprintf(want, sizeof want, "%.*s%s%.*s", (int)before,
					 before_text, specials[k].out, (int)after,
					 "ABCDEFGH\nIJKLMNOP");
				char *got = sanitized(in, (size_t)n);
				assert_string_equal(got, want);
				free(got);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_c0_and_del_removed),
		cmocka_unit_test(test_every_c1_removed),
		cmocka_unit_test(test_c1_goes_alone),
		cmocka_unit_test(test_ignorables_removed),
		cmocka_unit_test(test_emoji_sequences_kept),
		cmocka_unit_test(test_known_sequences_removed_whole),
		cmocka_unit_test(test_line_ends_and_controls),
		cmocka_unit_test(test_invalid_utf8_replaced),
		cmocka_unit_test(test_unterminated_string_is_capped),
		cmocka_unit_test(test_flush_resolves_held_bytes),
		cmocka_unit_test(test_split_anywhere_same_output),
		cmocka_unit_test(test_plain_runs_at_every_offset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
