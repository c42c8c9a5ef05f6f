/* JSON output: string literals safe for any consumer, and a string-rewriting re-serializer. */
#include "codec_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 for the ASCII bytes copied as they are: printable, other than " and \. */
static const unsigned char json_ascii_safe[128] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
};

static const char replacement_char[] = "\xEF\xBF\xBD";

/* Scans the UTF-8 sequence starting at s[0] >= 0x80 within s[0..n). Returns the bytes it
 * spans and sets *valid. The ranges are those of the Unicode table of well-formed byte
 * sequences, so overlongs, surrogates (ED A0..BF) and code points above U+10FFFF are
 * invalid; an invalid sequence spans its maximal well-formed prefix, or one byte, and becomes
 * one U+FFFD (the "maximal subpart" practice that Python and browsers follow). */
static size_t utf8_scan(const unsigned char *s, size_t n, bool *valid)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF;
	*valid = false;
	if (c < 0xC2 || c > 0xF4)
		return 1;
	size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	size_t i = 1;
	if (n > 1 && s[1] >= lo && s[1] <= hi)
		for (i = 2; i < need && i < n && (s[i] & 0xC0) == 0x80; i++)
			;
	*valid = i == need;
	return i;
}

static void put_unicode_escape(struct buf *out, unsigned code)
{
	static const char hex[] = "0123456789abcdef";
	char esc[6] = { '\\', 'u', '0', '0', hex[(code >> 4) & 0xF], hex[code & 0xF] };
	buf_append(out, esc, sizeof esc);
}

void json_append_string(struct buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t i = 0, run = 0;
	buf_reserve(out, len + 2);
	buf_putc(out, '"');
	while (i < len) {
		unsigned char c = p[i];
		if (c < 0x80 && json_ascii_safe[c]) {
			i++;
			continue;
		}
		size_t n = 1;
		bool valid = true;
		if (c >= 0x80) {
			n = utf8_scan(p + i, len - i, &valid);
			/* U+0080..U+009F (C2 80..C2 9F) are C1 controls: escaped like C0. */
			if (valid && !(c == 0xC2 && p[i + 1] < 0xA0)) {
				i += n;
				continue;
			}
		}
		buf_append(out, p + run, i - run);
		if (!valid)
			buf_append(out, replacement_char, 3);
		else if (n == 2)
			put_unicode_escape(out, p[i + 1]);
		else if (c == '"' || c == '\\')
			buf_append(out, (const char[]){ '\\', (char)c }, 2);
		else
			put_unicode_escape(out, c);
		i += n;
		run = i;
	}
	buf_append(out, p + run, i - run);
	buf_putc(out, '"');
}

/* Integers print exactly; other numbers in the shortest %g form that reads back the same.
 * JSON has no infinity or NaN (cJSON turns 1e999 into inf): those become null. */
static void put_number(struct buf *out, double v)
{
	char tmp[40];
	if (!isfinite(v)) {
		buf_puts(out, "null");
		return;
	}
	if (v == floor(v) && fabs(v) < 9.2e18) {
		snprintf(tmp, sizeof tmp, "%" PRId64, (int64_t)v);
	} else {
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(tmp, sizeof tmp, "%.*g", prec, v);
			if (strtod(tmp, NULL) == v)
				break;
		}
	}
	buf_puts(out, tmp);
}

struct rewriter {
	json_string_fn fn;
	void *ctx;
	struct buf scratch;
	struct buf *out;
};

/* cJSON keeps strings NUL-terminated, so a string holding \u0000 reaches fn cut at it. */
static void put_string(struct rewriter *rw, const char *s)
{
	size_t len = strlen(s);
	if (!rw->fn) {
		json_append_string(rw->out, s, len);
		return;
	}
	buf_clear(&rw->scratch);
	rw->fn(rw->ctx, s, len, &rw->scratch);
	json_append_string(rw->out, rw->scratch.data, rw->scratch.len);
}

/* Recursion depth is bounded by cJSON's nesting limit (CJSON_NESTING_LIMIT, 1000). */
static void put_value(struct rewriter *rw, const cJSON *v)
{
	struct buf *out = rw->out;
	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		bool object = cJSON_IsObject(v);
		buf_putc(out, object ? '{' : '[');
		for (const cJSON *c = v->child; c; c = c->next) {
			if (c != v->child)
				buf_putc(out, ',');
			if (object) {
				put_string(rw, c->string ? c->string : "");
				buf_putc(out, ':');
			}
			put_value(rw, c);
		}
		buf_putc(out, object ? '}' : ']');
	} else if (cJSON_IsString(v)) {
		put_string(rw, v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		put_number(out, v->valuedouble);
	} else if (cJSON_IsTrue(v)) {
		buf_puts(out, "true");
	} else if (cJSON_IsFalse(v)) {
		buf_puts(out, "false");
	} else {
		buf_puts(out, "null");
	}
}

void codec_rewrite_tree(const cJSON *v, json_string_fn fn, void *ctx, struct buf *out)
{
	struct rewriter rw = { .fn = fn, .ctx = ctx, .out = out };
	buf_init(&rw.scratch);
	put_value(&rw, v);
	buf_fini(&rw.scratch);
}

int json_rewrite_strings(const char *json, size_t len, json_string_fn fn, void *ctx,
			 struct buf *out, struct codec_error *err)
{
	cJSON *root = codec_parse(json, len, err);
	if (!root)
		return -1;
	codec_rewrite_tree(root, fn, ctx, out);
	cJSON_Delete(root);
	return 0;
}
