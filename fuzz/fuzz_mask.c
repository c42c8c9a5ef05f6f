/* libFuzzer target: the streaming masker. The first bytes pick secrets (slices of the
 * text itself, so that they occur) and a chunking; the rest is the text. Checks: no
 * secret survives outside a marker, streaming in random pieces and one byte at a time
 * both equal the one-shot result, the hold-back stays within its bound, and on valid
 * UTF-8 no feed ends inside a character (unless the set is empty: then it is a copy). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keyring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEADER 17

static void check(bool ok)
{
	if (!ok)
		abort();
}

static const char *find(const char *hay, size_t n, const char *needle, size_t len)
{
	for (size_t i = 0; i + len <= n; i++) {
		const char *p = memchr(hay + i, needle[0], n - len + 1 - i);
		if (!p)
			return NULL;
		i = (size_t)(p - hay);
		if (!memcmp(p, needle, len))
			return p;
	}
	return NULL;
}

static void check_no_secret(const char *const *secrets, const size_t *lens, size_t count,
			    const char *out, size_t n)
{
	const size_t ml = sizeof MASK_REPLACEMENT - 1;
	unsigned char *in_marker = calloc(n + 1, 1);
	check(in_marker != NULL);
	for (const char *p = out; (p = find(p, n - (size_t)(p - out), MASK_REPLACEMENT, ml)); p += ml)
		memset(in_marker + (p - out), 1, ml);
	for (size_t i = 0; i < count; i++)
		for (const char *p = out; (p = find(p, n - (size_t)(p - out), secrets[i], lens[i])); p++)
			check(memchr(in_marker + (p - out), 1, lens[i]) != NULL);
	free(in_marker);
}

/* Well-formed as far as character boundaries go: lead bytes followed by exactly their
 * continuation bytes. */
static bool valid_utf8(const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	for (size_t i = 0; i < n;) {
		size_t len = s[i] < 0x80 ? 1 : s[i] >= 0xC2 && s[i] <= 0xDF ? 2
			   : s[i] >= 0xE0 && s[i] <= 0xEF ? 3 : s[i] >= 0xF0 && s[i] <= 0xF4 ? 4 : 0;
		if (!len || i + len > n)
			return false;
		for (size_t k = 1; k < len; k++)
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
		i += len;
	}
	return true;
}

static uint64_t next_random(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static void stream(const struct mask_set *m, const char *text, size_t n, uint64_t seed,
		   size_t maxchunk, bool utf8, struct buf *out)
{
	struct mask_stream s;
	mask_stream_init(&s, m);
	size_t bound = mask_set_longest(m) ? mask_set_longest(m) - 1 + 3 : 0;
	for (size_t at = 0; at < n;) {
		size_t k = maxchunk > 1 ? 1 + (size_t)(next_random(&seed) % maxchunk) : 1;
		if (k > n - at)
			k = n - at;
		mask_stream_feed(&s, text + at, k, out);
		at += k;
		check(s.held.len <= bound);
		if (utf8)
			check(utf8_complete_prefix(out->data ? out->data : "", out->len) == out->len);
	}
	mask_stream_flush(&s, out);
	check(s.held.len == 0);
	mask_stream_fini(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size <= HEADER)
		return 0;
	const char *text = (const char *)data + HEADER;
	size_t n = size - HEADER;
	uint64_t seed = 0;
	memcpy(&seed, data + 1, sizeof seed);
	size_t maxchunk = 1 + data[9] % 64;

	struct mask_set *m = mask_set_create();
	const char *secrets[4];
	size_t lens[4], count = 0;
	for (size_t i = 0; i < 1 + data[0] % 4u; i++) {
		size_t off = (size_t)data[10 + 2 * i] * 257 % n;
		size_t len = 4 + data[11 + 2 * i] % 24u;
		if (off + len > n)
			continue;
		if (mask_set_add(m, text + off, len, NULL) == 0) {
			secrets[count] = text + off;
			lens[count++] = len;
		}
	}

	struct buf once, pieces, bytes;
	buf_init(&once);
	buf_init(&pieces);
	buf_init(&bytes);
	mask_text(m, text, n, &once);
	check_no_secret(secrets, lens, count, once.data ? once.data : "", once.len);
	if (!count)
		check(once.len == n && !memcmp(once.data, text, n));

	/* An empty set copies straight through, partial characters and all. */
	bool utf8 = count && valid_utf8(text, n);
	stream(m, text, n, seed, maxchunk, utf8, &pieces);
	check(pieces.len == once.len && !memcmp(pieces.data, once.data, once.len));
	if (n <= 4096) {
		stream(m, text, n, seed, 1, utf8, &bytes);
		check(bytes.len == once.len && !memcmp(bytes.data, once.data, once.len));
	}

	buf_fini(&once);
	buf_fini(&pieces);
	buf_fini(&bytes);
	mask_set_destroy(m);
	return 0;
}
