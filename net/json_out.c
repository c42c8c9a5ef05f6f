/* JSON output: string literals safe for any consumer, and a string-rewriting re-serializer. */
#include "codec_int.h"
#include "scan_inline.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_unicode_escape(struct buf *out, unsigned code)
{
	static const char hex[] = "0123456789abcdef";
	char esc[6] = { '\\', 'u', '0', '0', hex[(code >> 4) & 0xF], hex[code & 0xF] };
	buf_append(out, esc, sizeof esc);
}

/* The first '"', '\\' or NUL in [p, end), or end: the run a string literal copies as is. */
static const char *literal_run_end(const char *p, const char *end)
{
	return p + scan_run(p, (size_t)(end - p), '"', '\\', false, NULL);
}

/* How many bytes from p[0..n) on need no escaping. */
static size_t json_safe_prefix(const unsigned char *p, size_t n)
{
	return scan_run((const char *)p, n, '"', '\\', true, NULL);
}

/* Appends p[0..len) escaped, without the quotes. Each character's form depends only on the
 * bytes from it on, so a text may be escaped in pieces cut between characters. */
static void append_escaped(struct buf *out, const unsigned char *p, size_t len)
{
	size_t i = 0, run = 0;
	while (i < len) {
		i += json_safe_prefix(p + i, len - i);
		if (i >= len)
			break;
		unsigned char c = p[i];
		size_t n = 1;
		bool valid = true;
		if (c >= 0x80) {
			uint32_t cp;
			n = utf8_next((const char *)p + i, len - i, &cp);
			valid = cp != UTF8_INVALID;
			/* U+0080..U+009F (C2 80..C2 9F) are C1 controls: escaped like C0. */
			if (valid && !(c == 0xC2 && p[i + 1] < 0xA0)) {
				i += n;
				continue;
			}
		}
		buf_append(out, p + run, i - run);
		if (!valid)
			buf_puts(out, UTF8_REPLACEMENT);
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
}

void json_append_string(struct buf *out, const char *s, size_t len)
{
	buf_reserve(out, len + 2);
	buf_putc(out, '"');
	append_escaped(out, (const unsigned char *)(s ? s : ""), len);
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
	bool kept_plain;        /* fn gives printable ASCII, LF and TAB back as they are */
	struct buf scratch;
	struct buf *out;
};

/* ------------------------------------------------- rewriting from the text */

/* The text rewriter reads JSON that cJSON has already accepted (and codec_parse has mended),
 * so it only has to be safe, not to diagnose: it never reads past end. Numbers are copied as
 * written, so 0.0 stays 0.0 and 8.0 stays 8.0 (cli.md: "the event JSON, masked"). */
struct text_scan {
	const char *p, *end;
	struct rewriter *rw;
	struct buf decoded;
};

/* cJSON skips every byte up to 0x20 between tokens, not only JSON's four. */
static void scan_ws(struct text_scan *sc)
{
	while (sc->p < sc->end && (unsigned char)*sc->p <= 0x20)
		sc->p++;
}

static int hex4(const char *h, const char *end)
{
	if (end - h < 4)
		return -1;
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = h[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Decodes the string literal at sc->p (on its opening quote) into sc->decoded. A NUL, raw or
 * escaped, and a lone surrogate become U+FFFD, as codec_parse mends escapes for cJSON. */
static void scan_string(struct text_scan *sc, bool keep_raw_nul)
{
	buf_clear(&sc->decoded);
	const char *p = sc->p + 1, *end = sc->end;
	while (p < end && *p != '"') {
		const char *run = p;
		p = literal_run_end(p, end);
		buf_append(&sc->decoded, run, (size_t)(p - run));
		if (p >= end || *p == '"')
			break;
		if (!*p) {
			/* A raw NUL (cJSON reads it as the end of the string): U+FFFD, as an escaped one. */
			if (keep_raw_nul)
				buf_putc(&sc->decoded, '\0');
			else
				buf_put_utf8(&sc->decoded, 0xFFFD);
			p++;
			continue;
		}
		char e = p + 1 < end ? p[1] : '\0';
		p += 2;
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		const char *k = e ? strchr(from, e) : NULL;
		if (k) {
			buf_putc(&sc->decoded, to[k - from]);
			continue;
		}
		if (e != 'u')
			continue;
		int v = hex4(p, end);
		if (v < 0)
			continue;
		p += 4;
		unsigned cp = (unsigned)v;
		if (v >= 0xD800 && v <= 0xDBFF && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
			int lo = hex4(p + 2, end);
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				cp = 0x10000 + (((unsigned)v - 0xD800) << 10) + ((unsigned)lo - 0xDC00);
				p += 6;
			}
		}
		if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF))
			cp = 0xFFFD;
		buf_put_utf8(&sc->decoded, cp);
	}
	sc->p = p < end ? p + 1 : end;
}

/* The escape at p ('\\' in [p, end)) written at *o (room for 6) as json_append_string would
 * write what an fn that keeps printable ASCII, LF and TAB gives back for it: the bytes of p
 * it took, or 0 (nothing written) for an escape such an fn would change or drop (\r, \b, \f,
 * any other control, beyond ASCII). */
static size_t put_kept_escape(char **o, const char *p, const char *end)
{
	if (end - p < 2)
		return 0;
	int c = p[1];
	size_t n = 2;
	if (c == 'u') {
		c = hex4(p + 2, end);
		n = 6;
	} else if (c == 'n' || c == 't') {
		c = c == 'n' ? '\n' : '\t';
	} else if (c != '"' && c != '\\' && c != '/') {
		return 0;  /* \r, \b, \f: fn drops them */
	}
	char *w = *o;
	if (c == '\n' || c == '\t') {
		memcpy(w, c == '\n' ? "\\u000a" : "\\u0009", 6);
		w += 6;
	} else if (c == '"' || c == '\\') {
		*w++ = '\\';
		*w++ = (char)c;
	} else if (c >= 0x20 && c < 0x7F) {
		*w++ = (char)c;
	} else {
		return 0;
	}
	*o = w;
	return n;
}

/* For an fn that keeps printable ASCII, LF and TAB: a literal of nothing else is escaped
 * straight from its text into the output, as json_append_string would escape fn's text,
 * without decoding it or calling fn (one pass over a tool's output, not three). False, with
 * sc and the output as they were, for a literal holding anything else. */
static bool put_kept_literal(struct text_scan *sc)
{
	struct buf *out = sc->rw->out;
	size_t mark = out->len;
	const char *p = sc->p + 1, *end = sc->end;
	buf_putc(out, '"');
	for (;;) {
		size_t run = json_safe_prefix((const unsigned char *)p, (size_t)(end - p));
		buf_append(out, p, run);
		p += run;
		if (p < end && *p == '"') {
			buf_putc(out, '"');
			sc->p = p + 1;
			return true;
		}
		buf_reserve(out, 6);
		char *o = out->data + out->len;
		size_t n = p < end && *p == '\\' ? put_kept_escape(&o, p, end) : 0;
		if (!n)
			break;
		buf_set_len(out, (size_t)(o - out->data));
		p += n;
	}
	buf_set_len(out, mark);
	return false;
}

/* The string literal at sc->p: a literal without escapes or NULs is its own decoding, so it
 * is used where it is instead of being copied first. */
static void scan_put_string(struct text_scan *sc)
{
	struct rewriter *rw = sc->rw;
	if (rw->fn && rw->kept_plain && put_kept_literal(sc))
		return;
	const char *s = sc->p + 1, *q = literal_run_end(s, sc->end);
	size_t n = (size_t)(q - s);
	bool plain = q < sc->end && *q == '"';
	if (plain) {
		sc->p = q + 1;
	} else {
		scan_string(sc, false);
		s = sc->decoded.data ? sc->decoded.data : "";
		n = sc->decoded.len;
	}
	if (!rw->fn) {
		json_append_string(rw->out, s, n);
		return;
	}
	struct buf *out = rw->out;
	if (!plain) {
		/* Had escapes, so likely needs some again: fn's text is escaped as a whole. */
		buf_clear(&rw->scratch);
		rw->fn(rw->ctx, s, n, &rw->scratch);
		json_append_string(out, rw->scratch.data, rw->scratch.len);
		return;
	}
	/* fn writes straight into the line; only what follows its first byte that needs
	 * escaping is moved aside and escaped back in (most strings have none). */
	buf_putc(out, '"');
	size_t body = out->len;
	rw->fn(rw->ctx, s, n, out);
	size_t got = out->len - body;
	size_t safe = json_safe_prefix((const unsigned char *)out->data + body, got);
	if (safe < got) {
		buf_clear(&rw->scratch);
		buf_append(&rw->scratch, out->data + body + safe, got - safe);
		out->len = body + safe;
		append_escaped(out, (const unsigned char *)rw->scratch.data, rw->scratch.len);
	}
	buf_putc(out, '"');
}

/* Length of the RFC 8259 number at s[0..n), or 0 when s does not start with one. */
static size_t strict_number_len(const char *s, size_t n)
{
	size_t i = 0;
	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0') {
		i++;
	} else if (i < n && s[i] >= '1' && s[i] <= '9') {
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	} else {
		return 0;
	}
	if (i < n && s[i] == '.') {
		size_t d = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == d)
			return 0;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t d = i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == d)
			return 0;
	}
	return i;
}

/* A number as written when it is a JSON number; what cJSON reads from a looser spelling
 * (it accepts "-.5" or "1.") is printed in the canonical form instead. */
static void scan_put_number(struct text_scan *sc)
{
	const char *start = sc->p;
	while (sc->p < sc->end && strchr("0123456789+-.eE", *sc->p) && *sc->p)
		sc->p++;
	size_t n = (size_t)(sc->p - start);
	if (n == 0) {
		/* Not reached on what cJSON accepted; moving on keeps every loop finite. */
		sc->p += sc->p < sc->end;
		buf_puts(sc->rw->out, "null");
		return;
	}
	if (strict_number_len(start, n) == n) {
		buf_append(sc->rw->out, start, n);
		return;
	}
	char tmp[64];
	snprintf(tmp, sizeof tmp, "%.*s", (int)(n < sizeof tmp ? n : sizeof tmp - 1), start);
	put_number(sc->rw->out, strtod(tmp, NULL));
}

/* ------------------------------------------- text parts: one text to the reader */

/* Where the "text" string of one text part is, in the input and in the output. */
struct part_at {
	const char *in;                 /* its opening quote */
	size_t out_start, out_end;      /* its literal, quotes included */
};

/* The text parts (objects whose "type" is "text" or absent, with a "text" string) among the
 * elements of one array. */
struct part_run {
	struct part_at few[4], *at;
	size_t n, cap;
};

static void part_run_add(struct part_run *r, const char *in, size_t start, size_t end)
{
	if (!r->at) {
		r->at = r->few;
		r->cap = sizeof r->few / sizeof *r->few;
	}
	if (r->n == r->cap) {
		struct part_at *grown = xcalloc(r->cap * 2, sizeof *grown);
		memcpy(grown, r->at, r->n * sizeof *grown);
		if (r->at != r->few)
			free(r->at);
		r->at = grown;
		r->cap *= 2;
	}
	r->at[r->n++] = (struct part_at){ in, start, end };
}

static void part_run_fini(struct part_run *r)
{
	if (r->at != r->few)
		free(r->at);
}

/* Whether the string literal at sc->p decodes to name (a key or a value). */
static bool literal_is(struct text_scan *sc, const char *name)
{
	size_t n = strlen(name);
	const char *p = sc->p;
	if ((size_t)(sc->end - p) >= n + 2 && !memcmp(p + 1, name, n) && p[n + 1] == '"')
		return true;
	const char *q = literal_run_end(p + 1, sc->end);
	if (q >= sc->end || *q == '"')
		return false;   /* plain, and not name */
	/* Escaped ("t\u0065xt"): decoded aside, as cJSON reads it (up to a raw NUL). */
	struct text_scan look = { .p = p, .end = sc->end, .rw = sc->rw };
	look.decoded = sc->rw->scratch;
	scan_string(&look, true);
	bool same = strcmp(buf_cstr(&look.decoded), name) == 0;
	sc->rw->scratch = look.decoded;
	return same;
}

/* fn of the decoded parts [from, to) of joined (ends[i] is where part i ends) into out. */
static void fn_of_parts(struct rewriter *rw, const struct buf *joined, const size_t *ends,
			size_t from, size_t to, struct buf *out)
{
	size_t start = from ? ends[from - 1] : 0;
	rw->fn(rw->ctx, joined->data ? joined->data + start : "", ends[to - 1] - start, out);
}

static bool same_buf(const struct buf *a, const struct buf *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data, a->len));
}

/* codec.c shows the text parts of one array joined with nothing between. When fn gives them
 * joined something other than what it gives them one by one (a secret split across parts),
 * the parts a secret spans are merged: the first is written again as fn gives them joined,
 * the others as "". A boundary is spanned when fn of the whole differs from fn of each side;
 * past MERGE_LOOK parts (a hostile server's thousands) every part is merged. */
enum { MERGE_LOOK = 32 };

static void merge_parts(struct text_scan *sc, const struct part_run *r)
{
	struct rewriter *rw = sc->rw;
	struct text_scan one = { .end = sc->end, .rw = rw };
	struct buf joined, apart, together, halves;
	size_t n = r->n, *ends = xcalloc(n, sizeof *ends);
	buf_init(&one.decoded);
	buf_init(&joined);
	buf_init(&apart);
	buf_init(&together);
	buf_init(&halves);
	for (size_t i = 0; i < n; i++) {
		one.p = r->at[i].in;
		scan_string(&one, false);
		const char *s = one.decoded.data ? one.decoded.data : "";
		buf_append(&joined, s, one.decoded.len);
		ends[i] = joined.len;
		rw->fn(rw->ctx, s, one.decoded.len, &apart);
	}
	fn_of_parts(rw, &joined, ends, 0, n, &together);
	if (!same_buf(&apart, &together)) {
		/* spanned[k]: a secret spans the boundary before part k */
		bool *spanned = xcalloc(n, sizeof *spanned);
		for (size_t k = 1; k < n; k++) {
			if (n > MERGE_LOOK) {
				spanned[k] = true;
				continue;
			}
			buf_clear(&halves);
			fn_of_parts(rw, &joined, ends, 0, k, &halves);
			fn_of_parts(rw, &joined, ends, k, n, &halves);
			spanned[k] = !same_buf(&halves, &together);
		}
		struct buf *out = rw->out, seg, part;
		buf_init(&seg);
		buf_init(&part);
		size_t from = r->at[0].out_start;
		for (size_t i = 0; i < n; i++) {
			size_t last = i;
			while (last + 1 < n && spanned[last + 1])
				last++;
			for (size_t k = i; k <= last && last > i; k++) {
				buf_append(&seg, out->data + from, r->at[k].out_start - from);
				buf_clear(&part);
				if (k == i)
					fn_of_parts(rw, &joined, ends, i, last + 1, &part);
				json_append_string(&seg, part.data ? part.data : "", part.len);
				from = r->at[k].out_end;
			}
			i = last;
		}
		buf_append(&seg, out->data + from, out->len - from);
		out->len = r->at[0].out_start;
		buf_append(out, seg.data, seg.len);
		buf_fini(&part);
		buf_fini(&seg);
		free(spanned);
	}
	free(ends);
	buf_fini(&halves);
	buf_fini(&together);
	buf_fini(&apart);
	buf_fini(&joined);
	buf_fini(&one.decoded);
}

/* An object's members; in parent (an array's, with fn) when it is a text part. */
static void scan_value(struct text_scan *sc, struct part_run *parent);

/* Before the next member or element: false at the closing bracket (taken) or the end. */
static bool scan_separator(struct text_scan *sc, char close, bool first)
{
	scan_ws(sc);
	if (sc->p >= sc->end || *sc->p == close) {
		sc->p += sc->p < sc->end;
		return false;
	}
	if (*sc->p == ',')
		sc->p++;
	if (!first)
		buf_putc(sc->rw->out, ',');
	return true;
}

static void scan_members(struct text_scan *sc, struct part_run *parent)
{
	struct buf *out = sc->rw->out;
	const char *text = NULL;
	size_t text_start = 0, text_end = 0;
	bool not_text = false;
	for (bool first = true; scan_separator(sc, '}', first); first = false) {
		const char *before = sc->p;
		scan_ws(sc);
		if (sc->p >= sc->end || *sc->p != '"')
			break;
		bool is_text = parent && literal_is(sc, "text") && !text;
		bool is_type = parent && !is_text && literal_is(sc, "type");
		scan_put_string(sc);
		scan_ws(sc);
		sc->p += sc->p < sc->end && *sc->p == ':';
		buf_putc(out, ':');
		scan_ws(sc);
		bool string = sc->p < sc->end && *sc->p == '"';
		if (is_type)
			not_text |= !string || !literal_is(sc, "text");
		is_text &= string;
		if (is_text) {
			text = sc->p;
			text_start = out->len;
		}
		scan_value(sc, NULL);
		if (is_text)
			text_end = out->len;
		if (sc->p == before)
			break;
	}
	buf_putc(out, '}');
	if (text && !not_text)
		part_run_add(parent, text, text_start, text_end);
}

/* Depth is bounded by what cJSON accepted (CJSON_NESTING_LIMIT). */
static void scan_value(struct text_scan *sc, struct part_run *parent)
{
	struct buf *out = sc->rw->out;
	scan_ws(sc);
	if (sc->p >= sc->end)
		return;
	char c = *sc->p;
	if (c == '{') {
		buf_putc(out, c);
		sc->p++;
		scan_members(sc, parent);
	} else if (c == '[') {
		struct part_run run = { .n = 0 };
		buf_putc(out, c);
		sc->p++;
		for (bool first = true; scan_separator(sc, ']', first); first = false) {
			const char *before = sc->p;
			scan_value(sc, sc->rw->fn ? &run : NULL);
			if (sc->p == before)
				break;
		}
		buf_putc(out, ']');
		if (run.n >= 2)
			merge_parts(sc, &run);
		part_run_fini(&run);
	} else if (c == '"') {
		scan_put_string(sc);
	} else if (c == 't' || c == 'f' || c == 'n') {
		const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
		buf_puts(out, word);
		size_t n = strlen(word);
		sc->p += (size_t)(sc->end - sc->p) < n ? (size_t)(sc->end - sc->p) : n;
	} else {
		scan_put_number(sc);
	}
}

void codec_rewrite_text(const char *json, size_t len, json_string_fn fn, void *ctx,
			bool kept_plain, struct buf *out)
{
	struct rewriter rw = { .fn = fn, .ctx = ctx, .kept_plain = kept_plain, .out = out };
	struct text_scan sc = { .p = json, .end = json + len, .rw = &rw };
	buf_init(&rw.scratch);
	buf_init(&sc.decoded);
	scan_value(&sc, NULL);
	buf_fini(&sc.decoded);
	buf_fini(&rw.scratch);
}

bool codec_rewrite_kept_flat(const char *json, size_t len, struct buf *out)
{
	const char *p = json, *end = json + len;
	size_t mark = out->len;
	/* Nothing grows past three times its text (\n is written \u000a). */
	buf_reserve(out, 3 * len + 6);
	char *o = out->data + out->len;
	int depth = 0;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p >= end || (*p != '{' && *p != '['))
		goto other;
	while (p < end) {
		char c = *p++;
		if (c == '"') {
			/* A string: printable runs as they are, the escapes the kept fn keeps. */
			*o++ = '"';
			for (;;) {
				size_t run = scan_run(p, (size_t)(end - p), '"', '\\', true, o);
				o += run;
				p += run;
				if (p < end && *p == '"')
					break;
				size_t n = p < end && *p == '\\' ? put_kept_escape(&o, p, end) : 0;
				if (!n)
					goto other;
				p += n;
			}
			*o++ = '"';
			p++;
		} else if (c == '{' || c == '[') {
			*o++ = c;
			depth++;
		} else if (c == '}' || c == ']') {
			*o++ = c;
			if (--depth == 0) {
				buf_set_len(out, (size_t)(o - out->data));
				return true;
			}
		} else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			*o++ = c;
		}
	}
other:
	buf_set_len(out, mark);
	return false;
}

/* Skips the value at sc->p (already accepted by cJSON). */
static void scan_skip(struct text_scan *sc)
{
	int depth = 0;
	scan_ws(sc);
	while (sc->p < sc->end) {
		char c = *sc->p;
		if (c == '"') {
			sc->p++;
			while (sc->p < sc->end && *sc->p != '"')
				sc->p += *sc->p == '\\' ? 2 : 1;
			sc->p += sc->p < sc->end;
		} else if (c == '{' || c == '[') {
			depth++;
			sc->p++;
		} else if (c == '}' || c == ']') {
			if (depth == 0)
				return;
			depth--;
			sc->p++;
		} else if (c == ',' && depth == 0) {
			return;
		} else {
			sc->p++;
		}
		if (depth == 0 && (c == '"' || c == '}' || c == ']'))
			break;
	}
	if (sc->p > sc->end)
		sc->p = sc->end;
}

int codec_find_member(const char *json, size_t len, const char *name, const char **at,
		      size_t *at_len)
{
	struct rewriter rw = { 0 };
	struct text_scan sc = { .p = json, .end = json + len, .rw = &rw };
	int rc = -1;
	buf_init(&sc.decoded);
	scan_ws(&sc);
	if (sc.p < sc.end && *sc.p == '{') {
		sc.p++;
		for (;;) {
			scan_ws(&sc);
			if (sc.p < sc.end && *sc.p == ',')
				sc.p++;
			scan_ws(&sc);
			if (sc.p >= sc.end || *sc.p != '"')
				break;
			/* Compared as cJSON compares keys: as C strings, up to a raw NUL. */
			scan_string(&sc, true);
			bool match = strcmp(buf_cstr(&sc.decoded), name) == 0;
			scan_ws(&sc);
			sc.p += sc.p < sc.end && *sc.p == ':';
			scan_ws(&sc);
			const char *start = sc.p;
			if (match && !at_len) {
				*at = start;
				rc = 0;
				break;
			}
			scan_skip(&sc);
			if (match) {
				*at = start;
				*at_len = (size_t)(sc.p - start);
				rc = 0;
				break;
			}
		}
	}
	buf_fini(&sc.decoded);
	return rc;
}

int json_rewrite_strings(const char *json, size_t len, json_string_fn fn, void *ctx,
			 struct buf *out, struct codec_error *err)
{
	char *mended = NULL;
	cJSON *root = codec_parse_mended(json, len, err, &mended);
	if (!root)
		return -1;
	cJSON_Delete(root);
	codec_rewrite_text(mended ? mended : json, len, fn, ctx, false, out);
	free(mended);
	return 0;
}
