/* json_append_string (cli.md "Control characters") and json_rewrite_strings. */
#include "codec_test.h"

#include <ctype.h>
#include <stdio.h>

#include <cjson/cJSON.h>

static char *quote(const char *s, size_t len)
{
	struct buf b;
	buf_init(&b);
	json_append_string(&b, s, len);
	return buf_steal(&b);
}

/* What a JSON parser reads back from out (cJSON stops at an escaped NUL). */
static void expect_parses_to(const char *out, const char *expected)
{
	cJSON *v = cJSON_Parse(out);
	if (!cJSON_IsString(v))
		fail_msg("does not parse back: %s", out);
	assert_string_equal(v->valuestring, expected);
	cJSON_Delete(v);
}

/* An oracle independent of the code under test: decodes code points and checks the rules. */
static bool utf8_valid(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
		if (len == 0 || i + len > n)
			return false;
		unsigned cp = len == 1 ? c : c & (0xFF >> (len + 1));
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3F);
		}
		static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
		if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += len;
	}
	return true;
}

static void test_c0_controls_and_del(void **state)
{
	(void)state;
	for (unsigned b = 0; b <= 0x7F; b++) {
		if (b >= 0x20 && b != 0x7F)
			continue;
		char in[3] = { 'a', (char)b, 'z' }, want[16];
		snprintf(want, sizeof want, "\"a\\u%04xz\"", b);
		char *out = quote(in, 3);
		assert_string_equal(out, want);
		char decoded[4] = { 'a', (char)b, 'z', '\0' };
		expect_parses_to(out, b ? decoded : "a");
		free(out);
	}
}

static void test_c1_controls(void **state)
{
	(void)state;
	for (unsigned cp = 0x80; cp <= 0x9F; cp++) {
		char in[4] = { 'a', (char)0xC2, (char)cp, 'z' }, want[16];
		snprintf(want, sizeof want, "\"a\\u%04xz\"", cp);
		char *out = quote(in, 4);
		assert_string_equal(out, want);
		char decoded[5] = { 'a', (char)0xC2, (char)cp, 'z', '\0' };
		expect_parses_to(out, decoded);
		free(out);
	}
}

static void test_quote_and_backslash(void **state)
{
	(void)state;
	char *out = quote("say \"hi\" \\o/", strlen("say \"hi\" \\o/"));
	assert_string_equal(out, "\"say \\\"hi\\\" \\\\o/\"");
	expect_parses_to(out, "say \"hi\" \\o/");
	free(out);
}

static void test_valid_utf8_passes_raw(void **state)
{
	(void)state;
	/* é, CJK, emoji, U+00A0 (first after C1), U+07FF, U+E000, U+FFFF, U+10000, U+10FFFF, U+2028. */
	const char *in = "é 你好 😀 \xc2\xa0 \xdf\xbf \xee\x80\x80 \xef\xbf\xbf \xf0\x90\x80\x80 \xf4\x8f\xbf\xbf "
			 "\xe2\x80\xa8 ~";
	char *out = quote(in, strlen(in));
	assert_int_equal(strlen(out), strlen(in) + 2);
	assert_memory_equal(out + 1, in, strlen(in));
	expect_parses_to(out, in);
	free(out);
}

static void test_invalid_utf8_becomes_replacement(void **state)
{
	(void)state;
#define R "\xef\xbf\xbd"
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "\x80", R },
		{ "\xbf", R },
		{ "\xff", R },
		{ "\xfe\xff", R R },
		{ "\xc0\xaf", R R },                    /* overlong '/' */
		{ "\xc1\xbf", R R },
		{ "\xe0\x80\xaf", R R R },              /* overlong */
		{ "\xf0\x80\x80\xaf", R R R R },        /* overlong */
		{ "\xed\xa0\x80", R R R },              /* U+D800, an encoded surrogate */
		{ "\xed\xbf\xbf", R R R },              /* U+DFFF */
		{ "\xed\xa0\xbd\xed\xb8\x80", R R R R R R }, /* a surrogate pair, CESU-8 style */
		{ "\xf4\x90\x80\x80", R R R R },        /* above U+10FFFF */
		{ "\xf5\x80\x80\x80", R R R R },
		{ "\xf8\x88\x80\x80\x80", R R R R R },
		{ "\xe2\x82" "A", R "A" },              /* truncated sequence: one U+FFFD */
		{ "\xf0\x9f\x98" "x", R "x" },
		{ "x\xe2\x82", "x" R },                 /* truncated at the end */
		{ "\xf0\x9f", R },
		{ "\xc2\"", R "\"" },
		{ "\xc2\x01", R "\x01" },
		{ "ok\x80ok", "ok" R "ok" },
	};
#undef R
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out = quote(cases[i].in, strlen(cases[i].in));
		assert_true(utf8_valid((const unsigned char *)out, strlen(out)));
		expect_parses_to(out, cases[i].want);
		free(out);
	}
}

/* Many pseudo-random byte strings: the output is always valid UTF-8 with no raw control
 * characters, parses back, and keeps valid input unchanged. */
static void test_random_bytes(void **state)
{
	(void)state;
	uint32_t seed = 12345;
	unsigned char in[64];
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)(round % 64);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 16;
			/* Mostly high bytes and lead bytes, so that valid sequences also occur. */
			in[i] = (unsigned char)(r % 4 == 0 ? r >> 8 : r % 4 == 1 ? 0x80 | (r >> 8 & 0x3F)
					       : r % 4 == 2 ? 0xC2 + (r >> 8) % 0x33 : ' ' + (r >> 8) % 95);
		}
		char *out = quote((const char *)in, n);
		size_t len = strlen(out);
		assert_true(utf8_valid((const unsigned char *)out, len));
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)out[i];
			assert_false(c < 0x20 || c == 0x7F);
			if (c == 0xC2 && i + 1 < len)
				assert_false((unsigned char)out[i + 1] < 0xA0);
		}
		cJSON *v = cJSON_Parse(out);
		assert_true(cJSON_IsString(v));
		if (utf8_valid(in, n) && !memchr(in, 0, n)) {
			assert_int_equal(strlen(v->valuestring), n);
			assert_memory_equal(v->valuestring, in, n);
		}
		cJSON_Delete(v);
		free(out);
	}
}

static void test_appends_to_buffer(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "{\"k\":");
	json_append_string(&b, "v", 1);
	json_append_string(&b, NULL, 0);
	buf_putc(&b, '}');
	assert_string_equal(buf_cstr(&b), "{\"k\":\"v\"\"\"}");
	buf_fini(&b);
}

static void upper(void *ctx, const char *s, size_t len, struct buf *out)
{
	int *calls = ctx;
	(*calls)++;
	for (size_t i = 0; i < len; i++)
		buf_putc(out, (char)toupper((unsigned char)s[i]));
}

static char *rewrite(const char *json, json_string_fn fn, void *ctx)
{
	struct buf b;
	struct codec_error err;
	buf_init(&b);
	if (json_rewrite_strings(json, strlen(json), fn, ctx, &b, &err) != 0)
		fail_msg("rewrite failed: %s", err.message);
	return buf_steal(&b);
}

static void test_rewrite_every_string(void **state)
{
	(void)state;
	int calls = 0;
	char *out = rewrite("{\"kind\":\"MessageEvent\",\"nested\":{\"list\":[\"a\",{\"deep\":[\"b\",\"c\"]}],"
			    "\"n\":42},\"t\":true,\"f\":false,\"z\":null,\"e\":[],\"o\":{}}", upper, &calls);
	assert_string_equal(out, "{\"KIND\":\"MESSAGEEVENT\",\"NESTED\":{\"LIST\":[\"A\",{\"DEEP\":[\"B\",\"C\"]}],"
				 "\"N\":42},\"T\":true,\"F\":false,\"Z\":null,\"E\":[],\"O\":{}}");
	assert_int_equal(calls, 14);
	free(out);

	calls = 0;
	out = rewrite("\"top\"", upper, &calls);
	assert_string_equal(out, "\"TOP\"");
	assert_int_equal(calls, 1);
	free(out);
}

/* A masker of one secret, "SECRET", for whole strings only. */
static void mask_secret(void *ctx, const char *s, size_t len, struct buf *out)
{
	(void)ctx;
	for (size_t i = 0; i < len;) {
		if (len - i >= 6 && !memcmp(s + i, "SECRET", 6)) {
			buf_puts(out, "<hidden>");
			i += 6;
		} else {
			buf_putc(out, s[i++]);
		}
	}
}

/* Text parts are one text to the reader: a secret split across two of them is masked (the
 * first part takes the masked whole, the others are emptied); parts without one stay as
 * they are, byte for byte. */
static void test_rewrite_secret_across_parts(void **state)
{
	(void)state;
	char *out = rewrite("{\"kind\":\"MessageEvent\",\"llm_message\":{\"content\":["
			    "{\"cache_prompt\":false,\"type\":\"text\",\"text\":\"abc SEC\"},"
			    "{\"type\":\"text\",\"text\":\"RET def\"}]}}", mask_secret, NULL);
	assert_string_equal(out, "{\"kind\":\"MessageEvent\",\"llm_message\":{\"content\":["
				 "{\"cache_prompt\":false,\"type\":\"text\",\"text\":\"abc <hidden> def\"},"
				 "{\"type\":\"text\",\"text\":\"\"}]}}");
	free(out);

	/* In a whole frame, escaped, with an image between and a part without "type"; the text
	 * of another kind of part is not the reader's text. */
	out = rewrite("{\"type\":\"durable\",\"event\":{\"observation\":{\"content\":["
		      "{\"text\":\"x S\\u0045C\"},{\"type\":\"image\",\"image_urls\":[\"SEC\",\"RET\"]},"
		      "{\"type\":\"audio\",\"text\":\"zz\"},{\"type\":\"text\",\"text\":\"R\\u0045\"},"
		      "{\"text\":\"T \\\"y\\\"\",\"type\":\"text\"}]}}}", mask_secret, NULL);
	assert_string_equal(out, "{\"type\":\"durable\",\"event\":{\"observation\":{\"content\":["
				 "{\"text\":\"x <hidden> \\\"y\\\"\"},{\"type\":\"image\",\"image_urls\":[\"SEC\",\"RET\"]},"
				 "{\"type\":\"audio\",\"text\":\"zz\"},{\"type\":\"text\",\"text\":\"\"},"
				 "{\"text\":\"\",\"type\":\"text\"}]}}}");
	free(out);
	/* Only the parts a secret spans are merged, however many it spans. */
	out = rewrite("[{\"text\":\"SE\"},{\"text\":\"CRET\"},{\"text\":\"!\"}]", mask_secret, NULL);
	assert_string_equal(out, "[{\"text\":\"<hidden>\"},{\"text\":\"\"},{\"text\":\"!\"}]");
	free(out);
	out = rewrite("[{\"text\":\"a\"},{\"text\":\"SE\"},{\"text\":\"CR\"},{\"text\":\"ET b\"},"
		      "{\"text\":\"c\"},{\"text\":\"SECR\"},{\"text\":\"ET\"}]", mask_secret, NULL);
	assert_string_equal(out, "[{\"text\":\"a\"},{\"text\":\"<hidden> b\"},{\"text\":\"\"},"
				 "{\"text\":\"\"},{\"text\":\"c\"},{\"text\":\"<hidden>\"},{\"text\":\"\"}]");
	free(out);
	/* A server's thousands of parts: past 32 every part is merged (no quadratic search). */
	struct buf many;
	buf_init(&many);
	buf_puts(&many, "[{\"text\":\"SE\"},{\"text\":\"CRET\"}");
	for (int i = 0; i < 40; i++)
		buf_puts(&many, ",{\"text\":\"x\"}");
	buf_puts(&many, "]");
	out = rewrite(many.data, mask_secret, NULL);
	assert_non_null(strstr(out, "[{\"text\":\"<hidden>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"},{\"text\":\"\"}"));
	assert_null(strstr(out, "SE"));
	free(out);
	buf_fini(&many);

	/* Nothing split: as before, byte for byte (and each part masked alone). */
	const char *plain = "{\"content\":[{\"type\":\"text\",\"text\":\"a SECRET\"},"
			    "{\"type\":\"text\",\"text\":\"b\\nc\"}],\"more\":[{\"text\":\"SEC\"}]}";
	out = rewrite(plain, mask_secret, NULL);
	assert_string_equal(out, "{\"content\":[{\"type\":\"text\",\"text\":\"a <hidden>\"},"
				 "{\"type\":\"text\",\"text\":\"b\\u000ac\"}],\"more\":[{\"text\":\"SEC\"}]}");
	free(out);
}

static void test_rewrite_compacts_without_fn(void **state)
{
	(void)state;
	char *out = rewrite(" {\n  \"a\" : [ 1 , \"x\\ty\" ],\n  \"b\" : { }\n}\n", NULL, NULL);
	assert_string_equal(out, "{\"a\":[1,\"x\\u0009y\"],\"b\":{}}");
	free(out);
}

/* Numbers keep their text (cli.md: ndjson carries "the event JSON, masked"): 0.0 stays 0.0. */
static void test_rewrite_numbers(void **state)
{
	(void)state;
	const char *kept = "[0,-3,42,1234567890123,9007199254740992,-9007199254740992,1.5,0.1,-2.25,"
			   "1e-7,1e300,123456789.123,1e999,-0,0.0,8.0,1E+2,12345678901234567890123]";
	char *out = rewrite(kept, NULL, NULL);
	assert_string_equal(out, kept);
	free(out);
	out = rewrite("{\"accumulated_cost\" : 0.0 ,\"per_turn_token\":\n1371, \"x\":[ 8.0 ]}", NULL, NULL);
	assert_string_equal(out, "{\"accumulated_cost\":0.0,\"per_turn_token\":1371,\"x\":[8.0]}");
	free(out);
	/* A raw NUL inside a string is U+FFFD like an escaped one, so a second pass changes nothing. */
	struct buf b;
	struct codec_error err;
	buf_init(&b);
	assert_int_equal(json_rewrite_strings("[\"a\0b\"]", 7, NULL, NULL, &b, &err), 0);
	assert_string_equal(buf_cstr(&b), "[\"a\xef\xbf\xbd" "b\"]");
	buf_fini(&b);
	/* cJSON skips any byte up to 0x20 between tokens: so does the text rewriter. */
	out = rewrite("[1,\x01 2,\x1f{\"a\"\x02:\x03true}\x04]", NULL, NULL);
	assert_string_equal(out, "[1,2,{\"a\":true}]");
	free(out);
	/* cJSON also reads looser spellings; those are written as JSON numbers of the same value. */
	out = rewrite("[-.5,1.,01]", NULL, NULL);
	cJSON *v = cJSON_Parse(out);
	assert_non_null(v);
	assert_true(cJSON_GetArrayItem(v, 0)->valuedouble == -0.5);
	assert_true(cJSON_GetArrayItem(v, 1)->valuedouble == 1.0);
	cJSON_Delete(v);
	free(out);
}

static void to_control(void *ctx, const char *s, size_t len, struct buf *out)
{
	(void)ctx;
	(void)s;
	(void)len;
	buf_puts(out, "\x1b[2J\xc2\x9b\xff");
}

static void to_nothing(void *ctx, const char *s, size_t len, struct buf *out)
{
	(void)ctx;
	(void)s;
	(void)len;
	(void)out;
}

static void test_rewrite_escapes_fn_output(void **state)
{
	(void)state;
	char *out = rewrite("{\"k\":\"v\"}", to_control, NULL);
	assert_string_equal(out, "{\"\\u001b[2J\\u009b\xef\xbf\xbd\":\"\\u001b[2J\\u009b\xef\xbf\xbd\"}");
	free(out);
	out = rewrite("{\"k\":[\"v\"]}", to_nothing, NULL);
	assert_string_equal(out, "{\"\":[\"\"]}");
	free(out);
	/* An escaped NUL reads as U+FFFD, so nothing after it is lost. */
	out = rewrite("[\"ab\\u0000cd\"]", NULL, NULL);
	assert_string_equal(out, "[\"ab\xef\xbf\xbd" "cd\"]");
	free(out);
}

static void test_rewrite_errors_leave_out_alone(void **state)
{
	(void)state;
	static const char *const bad[] = { "", "{", "{\"a\":}", "[1,2", "{} []", "\"\\ud8\"" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct buf b;
		struct codec_error err;
		buf_init(&b);
		buf_puts(&b, "kept");
		assert_int_equal(json_rewrite_strings(bad[i], strlen(bad[i]), NULL, NULL, &b, &err), -1);
		assert_int_equal(err.status, CODEC_MALFORMED_JSON);
		assert_string_equal(buf_cstr(&b), "kept");
		buf_fini(&b);
	}
}

/* Escaping goes a word at a time: a byte that needs escaping is caught at every offset of
 * a word and every length of text around it, and the text before and after is kept. */
static void test_escapes_at_every_offset(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} specials[] = {
		{ "\"", "\\\"" },        { "\\", "\\\\" },       { "\x1f", "\\u001f" },
		{ "\n", "\\u000a" },      { "\x7f", "\\u007f" },     { "\xc2\x85", "\\u0085" },
		{ "\xff", "\xef\xbf\xbd" }, { "\xc3\xa9", "\xc3\xa9" }, { " ", " " },
	};
	for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) {
		for (size_t before = 0; before < 20; before++) {
			for (size_t after = 0; after < 12; after++) {
				char in[64], want[80];
				int n = snprintf(in, sizeof in, "%.*s%s%.*s", (int)before,
						 "abcdefghijklmnopqrstuvwxyz", specials[k].in, (int)after,
						 "ABCDEFGHIJKLMNOP");
				snprintf(want, sizeof want, "\"%.*s%s%.*s\"", (int)before,
					 "abcdefghijklmnopqrstuvwxyz", specials[k].out, (int)after,
					 "ABCDEFGHIJKLMNOP");
				char *got = quote(in, (size_t)n);
				assert_string_equal(got, want);
				free(got);
			}
		}
	}
}

/* A literal without escapes is copied as it lies, one with escapes is decoded: both give the
 * same string to fn and the same line, whatever the string's length and where the escape is. */
static void test_rewrite_literals_at_every_offset(void **state)
{
	(void)state;
	for (size_t before = 0; before < 20; before++) {
		char plain[64], escaped[80];
		snprintf(plain, sizeof plain, "[\"%.*s\",\"%.*s\\u0041\\/\\\"\"]", (int)before,
			 "abcdefghijklmnopqrstuvwxyz", (int)before, "abcdefghijklmnopqrstuvwxyz");
		snprintf(escaped, sizeof escaped, "[\"%.*s\",\"%.*sA/\\\"\"]", (int)before,
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ", (int)before, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
		int calls = 0;
		char *got = rewrite(plain, upper, &calls);
		assert_non_null(got);
		assert_string_equal(got, escaped);
		assert_int_equal(calls, 2);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c0_controls_and_del),
		cmocka_unit_test(test_c1_controls),
		cmocka_unit_test(test_quote_and_backslash),
		cmocka_unit_test(test_valid_utf8_passes_raw),
		cmocka_unit_test(test_invalid_utf8_becomes_replacement),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_appends_to_buffer),
		cmocka_unit_test(test_rewrite_every_string),
		cmocka_unit_test(test_rewrite_secret_across_parts),
		cmocka_unit_test(test_rewrite_compacts_without_fn),
		cmocka_unit_test(test_rewrite_numbers),
		cmocka_unit_test(test_rewrite_escapes_fn_output),
		cmocka_unit_test(test_rewrite_errors_leave_out_alone),
		cmocka_unit_test(test_escapes_at_every_offset),
		cmocka_unit_test(test_rewrite_literals_at_every_offset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
