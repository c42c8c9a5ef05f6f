/* A span scanner over JSON text: finds members and elements where they lie, without building
 * a tree, for the frames decoded without cJSON (codec_fast.c). It accepts strict JSON only
 * (RFC 8259) and gives up on anything it is unsure of — a raw NUL in a string, an escape in
 * a key, nesting past JSPAN_DEPTH — so that the caller hands such text to cJSON, which then
 * decides as it always did. */
#include "codec_int.h"
#include "scan_inline.h"

#include <stdlib.h>
#include <string.h>

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int hex4_at(const char *p, const char *end)
{
	if (end - p < 4)
		return -1;
	int v = 0;
	for (int i = 0; i < 4; i++) {
		int d = hex_digit(p[i]);
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static bool is_escape(char c)
{
	switch (c) {
	case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
		return true;
	default:
		return false;
	}
}

/* The end of the string literal at p (on its opening quote), or NULL. keyish: NULL as well
 * when it holds an escape (a key is compared as written). */
static const char *skip_string(const char *p, const char *end, bool keyish)
{
	p++;
	for (;;) {
		p += scan_run(p, (size_t)(end - p), '"', '\\', false, NULL);
		if (p >= end || !*p)
			return NULL;  /* unterminated, or a raw NUL (cJSON ends the string there) */
		if (*p == '"')
			return p + 1;
		if (keyish || end - p < 2)
			return NULL;
		if (is_escape(p[1])) {
			p += 2;
		} else if (p[1] == 'u' && hex4_at(p + 2, end) >= 0) {
			p += 6;
		} else {
			return NULL;
		}
	}
}

static const char *skip_digits(const char *p, const char *end)
{
	const char *start = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p > start ? p : NULL;
}

static const char *skip_number(const char *p, const char *end)
{
	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (!(p = p < end && *p >= '1' && *p <= '9' ? skip_digits(p, end) : NULL))
		return NULL;
	if (p < end && *p == '.' && !(p = skip_digits(p + 1, end)))
		return NULL;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		p = skip_digits(p, end);
	}
	return p;
}

static const char *skip_word(const char *p, const char *end, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(end - p) >= n && !memcmp(p, w, n) ? p + n : NULL;
}

/* A scalar value at p (after whitespace): its end, or NULL. */
static const char *skip_scalar(const char *p, const char *end)
{
	switch (*p) {
	case '"':
		return skip_string(p, end, false);
	case 't':
		return skip_word(p, end, "true");
	case 'f':
		return skip_word(p, end, "false");
	case 'n':
		return skip_word(p, end, "null");
	default:
		return skip_number(p, end);
	}
}

/* A key and its colon at p: what follows them (after whitespace), or NULL. */
static const char *skip_key(const char *p, const char *end)
{
	if (p >= end || *p != '"' || !(p = skip_string(p, end, false)))
		return NULL;
	p = skip_ws(p, end);
	return p < end && *p == ':' ? skip_ws(p + 1, end) : NULL;
}

const char *jspan_skip(const char *p, const char *end)
{
	/* object[d]: the container at depth d is an object (a key comes before each value) */
	bool object[JSPAN_DEPTH];
	int depth = 0;
	p = skip_ws(p, end);
	for (;;) {
		/* a value */
		if (p >= end)
			return NULL;
		if (*p == '{' || *p == '[') {
			if (depth == JSPAN_DEPTH)
				return NULL;
			object[depth++] = *p == '{';
			p = skip_ws(p + 1, end);
			if (p < end && *p == (object[depth - 1] ? '}' : ']')) {
				p++;
				depth--;
			} else {
				if (object[depth - 1] && !(p = skip_key(p, end)))
					return NULL;
				continue;
			}
		} else if (!(p = skip_scalar(p, end))) {
			return NULL;
		}
		/* after a value: the next one, or the ends of containers */
		for (;;) {
			p = skip_ws(p, end);
			if (!depth)
				return p;
			if (p >= end)
				return NULL;
			if (*p == ',') {
				p = skip_ws(p + 1, end);
				if (object[depth - 1] && !(p = skip_key(p, end)))
					return NULL;
				break;
			}
			if (*p != (object[depth - 1] ? '}' : ']'))
				return NULL;
			p++;
			depth--;
		}
	}
}

/* Past the string whose text starts at p (after its opening quote), in text checked by
 * jspan_skip: the next quote not escaped, found a vector at a time (a tool's output has an
 * escape on every line, a quote seldom). NULL when it runs off the end. */
static const char *quick_string_end(const char *p, const char *end)
{
	for (;;) {
		const char *q = memchr(p, '"', (size_t)(end - p));
		if (!q)
			return NULL;
		const char *b = q;
		while (b > p && b[-1] == '\\')
			b--;
		if (((q - b) & 1) == 0)
			return q + 1;
		p = q + 1;
	}
}

/* The end of the value at p in text checked by jspan_skip, found without checking it again;
 * NULL when it runs off the end (never a read past it). */
static const char *quick_skip(const char *p, const char *end)
{
	int depth = 0;
	while (p < end) {
		char c = *p;
		if (c == '"') {
			if (!(p = quick_string_end(p + 1, end)))
				return NULL;
			if (!depth)
				return p;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (!depth)
				return p;
			if (!--depth)
				return p + 1;
		} else if (!depth && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
			return p;
		}
		p++;
	}
	return depth ? NULL : p;
}

/* The end of the value at p, checked as strict JSON (whitespace after it not taken), or NULL. */
static const char *checked_value_end(const char *p, const char *end)
{
	if (p >= end)
		return NULL;
	if (*p != '{' && *p != '[')
		return skip_scalar(p, end);
	const char *q = jspan_skip(p, end);
	while (q && q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n' || q[-1] == '\r'))
		q--;
	return q;
}

/* The walk of both: checked, every value is checked and the walk goes to the object's end;
 * else values are skipped as text jspan_skip took, and it stops once every name is found.
 * Returns past where it stopped, or NULL. */
static const char *walk_members(const char *p, const char *end, const char *const *names,
				size_t n, struct jspan *out, bool checked)
{
	size_t found = 0;
	memset(out, 0, n * sizeof *out);
	p = skip_ws(p, end);
	if (p >= end || *p != '{')
		return NULL;
	p = skip_ws(p + 1, end);
	if (p < end && *p == '}')
		return p + 1;
	for (;;) {
		if (p >= end || *p != '"')
			return NULL;
		const char *key = p + 1, *key_end = skip_string(p, end, true);
		if (!key_end)
			return NULL;
		p = skip_ws(key_end, end);
		if (p >= end || *p != ':')
			return NULL;
		const char *value = skip_ws(p + 1, end);
		const char *value_end = checked ? checked_value_end(value, end)
					: value < end ? quick_skip(value, end) : NULL;
		if (!value_end)
			return NULL;
		size_t klen = (size_t)(key_end - 1 - key);
		for (size_t i = 0; i < n; i++) {
			/* The first member of a name, as cJSON_GetObjectItem finds it. */
			if (!out[i].at && names[i][0] == *key && strlen(names[i]) == klen &&
			    !memcmp(names[i], key, klen)) {
				out[i] = (struct jspan){ value, (size_t)(value_end - value) };
				found++;
				break;
			}
		}
		/* Later members cannot change the first of each name. */
		if (!checked && found == n)
			return value_end;
		p = skip_ws(value_end, end);
		if (p < end && *p == '}')
			return p + 1;
		if (p >= end || *p != ',')
			return NULL;
		p = skip_ws(p + 1, end);
	}
}

const char *jspan_members(const char *p, const char *end, const char *const *names, size_t n,
			  struct jspan *out)
{
	return walk_members(p, end, names, n, out, false);
}

bool jspan_object_members(const char *p, const char *end, const char *const *names, size_t n,
			  struct jspan *out)
{
	const char *q = walk_members(p, end, names, n, out, true);
	return q && skip_ws(q, end) == end;
}

bool jspan_next_element(struct jspan *array, struct jspan *elem)
{
	const char *p = array->at, *end = p + array->len;
	p = skip_ws(p, end);
	if (p < end && (*p == '[' || *p == ','))
		p = skip_ws(p + 1, end);
	if (p >= end || *p == ']')
		return false;
	const char *e = quick_skip(p, end);
	if (!e)
		return false;
	*elem = (struct jspan){ p, (size_t)(e - p) };
	e = skip_ws(e, end);
	array->len -= (size_t)(e - array->at);
	array->at = e;
	return true;
}

bool jspan_is(struct jspan s, const char *lit)
{
	size_t n = strlen(lit);
	return s.at && s.len == n + 2 && s.at[0] == '"' && !memcmp(s.at + 1, lit, n);
}

bool jspan_true(struct jspan s)
{
	return s.at && s.len == 4 && !memcmp(s.at, "true", 4);
}

bool jspan_number(struct jspan s, double *out)
{
	if (!s.at || s.len == 0 || s.len > 63 || (s.at[0] != '-' && (s.at[0] < '0' || s.at[0] > '9')))
		return false;
	/* A whole number of up to 15 digits is exact in a double: read here, not by strtod (two
	 * of them in every streamed delta). */
	size_t neg = s.at[0] == '-', i = neg;
	int64_t v = 0;
	while (i < s.len && i - neg < 15 && s.at[i] >= '0' && s.at[i] <= '9')
		v = v * 10 + (s.at[i++] - '0');
	if (i == s.len && i > neg) {
		*out = neg ? -(double)v : (double)v;
		return true;
	}
	char tmp[64];
	memcpy(tmp, s.at, s.len);
	tmp[s.len] = '\0';
	*out = strtod(tmp, NULL);
	return true;
}

static void put_utf8(char **o, unsigned cp)
{
	unsigned char *u = (unsigned char *)*o;
	if (cp < 0x80) {
		*u++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*u++ = (unsigned char)(0xC0 | cp >> 6);
		*u++ = (unsigned char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*u++ = (unsigned char)(0xE0 | cp >> 12);
		*u++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		*u++ = (unsigned char)(0x80 | (cp & 0x3F));
	} else {
		*u++ = (unsigned char)(0xF0 | cp >> 18);
		*u++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
		*u++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		*u++ = (unsigned char)(0x80 | (cp & 0x3F));
	}
	*o = (char *)u;
}

size_t jspan_string(struct jspan s, char *out)
{
	const char *p = s.at + 1, *end = s.at + s.len - 1;
	char *o = out;
	while (p < end) {
		const char *run = p, *bs = memchr(p, '\\', (size_t)(end - p));
		p = bs ? bs : end;
		memcpy(o, run, (size_t)(p - run));
		o += p - run;
		if (p >= end)
			break;
		char e = p[1];
		p += 2;
		if (e != 'u') {
			*o++ = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r'
			       : e == 't' ? '\t' : e;
			continue;
		}
		unsigned cp = (unsigned)hex4_at(p, end);
		p += 4;
		if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
			int lo = hex4_at(p + 2, end);
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned)lo - 0xDC00);
				p += 6;
			}
		}
		/* as codec_parse mends them for cJSON */
		if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF))
			cp = 0xFFFD;
		put_utf8(&o, cp);
	}
	*o = '\0';
	return (size_t)(o - out);
}
