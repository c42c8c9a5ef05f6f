/* The streaming masker (keyring/mask*.c): exact cases, the hold-back bound, refusals,
 * mask files, and property tests against a naive reference over random chunkings. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keyring.h"
#include "mask_int.h"

#define M MASK_REPLACEMENT

static struct mask_set *set_of(const char *const *secrets)
{
	struct mask_set *m = mask_set_create();
	for (; *secrets; secrets++)
		assert_int_equal(mask_set_add(m, *secrets, strlen(*secrets), NULL), 0);
	return m;
}

static char *masked(const struct mask_set *m, const char *text)
{
	struct buf out;
	buf_init(&out);
	mask_text(m, text, strlen(text), &out);
	return buf_steal(&out);
}

/* Feeds text in pieces of the given sizes (the rest in one), then flushes. */
static char *masked_in_pieces(const struct mask_set *m, const char *text, size_t n,
			      const size_t *sizes, size_t nsizes)
{
	struct mask_stream s;
	struct buf out;
	buf_init(&out);
	mask_stream_init(&s, m);
	size_t at = 0;
	for (size_t i = 0; i < nsizes && at < n; i++) {
		size_t k = sizes[i] < n - at ? sizes[i] : n - at;
		mask_stream_feed(&s, text + at, k, &out);
		at += k;
	}
	mask_stream_feed(&s, text + at, n - at, &out);
	mask_stream_flush(&s, &out);
	mask_stream_fini(&s);
	return buf_steal(&out);
}

static void check_mask(const char *const *secrets, const char *text, const char *want)
{
	struct mask_set *m = set_of(secrets);
	char *got = masked(m, text);
	assert_string_equal(got, want);
	free(got);
	size_t ones[4096];
	for (size_t i = 0; i < 4096; i++)
		ones[i] = 1;
	got = masked_in_pieces(m, text, strlen(text), ones, strlen(text));
	assert_string_equal(got, want);
	free(got);
	mask_set_destroy(m);
}

static void test_positions(void **state)
{
	(void)state;
	const char *s[] = { "hunter2", NULL };
	check_mask(s, "hunter2 is it", M " is it");
	check_mask(s, "it is hunter2", "it is " M);
	check_mask(s, "my hunter2 here", "my " M " here");
	check_mask(s, "hunter2", M);
	check_mask(s, "hunter", "hunter");
	check_mask(s, "", "");
}

static void test_repeated_and_adjacent(void **state)
{
	(void)state;
	const char *s[] = { "hunter2", "s3cr3t!", NULL };
	check_mask(s, "a hunter2 b hunter2 c", "a " M " b " M " c");
	/* Adjacent occurrences do not overlap: one marker each. */
	check_mask(s, "hunter2hunter2", M M);
	check_mask(s, "hunter2s3cr3t!", M M);
	check_mask(s, "hunthunter2er2", "hunt" M "er2");
}

static void test_overlapping(void **state)
{
	(void)state;
	/* The longer secret wins: no tail of it survives. */
	const char *nested[] = { "abcd", "abcdefgh", NULL };
	check_mask(nested, "xabcdefghy", "x" M "y");
	check_mask(nested, "xabcdefy", "x" M "efy");
	const char *inner[] = { "cdef", "abcdefgh", NULL };
	check_mask(inner, "abcdefgh", M);
	check_mask(inner, "abcdefgX", "ab" M "gX");
	/* Overlapping occurrences form one cluster, hence one marker. */
	const char *chain[] = { "abcd", "cdef", NULL };
	check_mask(chain, "abcdef", M);
	check_mask(chain, "xabcdefx", "x" M "x");
	const char *self[] = { "abab", NULL };
	check_mask(self, "ababababab", M);
	check_mask(self, "ababxabab", M "x" M);
}

static void test_utf8_secrets(void **state)
{
	(void)state;
	const char *s[] = { "pässwörd€", "日本語です", NULL };
	check_mask(s, "pw: pässwörd€!", "pw: " M "!");
	check_mask(s, "→日本語です←", "→" M "←");
	check_mask(s, "pässwörd$", "pässwörd$");
}

static void test_split_across_feeds(void **state)
{
	(void)state;
	const char *s[] = { "hunter2", NULL };
	struct mask_set *m = set_of(s);
	struct mask_stream st;
	struct buf out;
	buf_init(&out);
	mask_stream_init(&st, m);
	mask_stream_feed(&st, "the hunt", 8, &out);
	assert_string_equal(buf_cstr(&out), "the ");
	assert_int_equal(st.held.len, 4);
	mask_stream_feed(&st, "er2 is over", 11, &out);
	assert_string_equal(buf_cstr(&out), "the " M " is over");
	assert_int_equal(st.held.len, 0);
	mask_stream_flush(&st, &out);
	assert_string_equal(buf_cstr(&out), "the " M " is over");
	/* A held prefix that never completes comes out on flush, unmasked. */
	buf_clear(&out);
	mask_stream_feed(&st, "hunte", 5, &out);
	assert_int_equal(out.len, 0);
	mask_stream_flush(&st, &out);
	assert_string_equal(buf_cstr(&out), "hunte");
	assert_int_equal(st.held.len, 0);
	mask_stream_fini(&st);
	buf_fini(&out);
	mask_set_destroy(m);
}

static void test_hold_back_bound(void **state)
{
	(void)state;
	const char *s[] = { "hunter2", "abcdefghij", NULL };
	struct mask_set *m = set_of(s);
	assert_int_equal(mask_set_longest(m), 10);
	struct mask_stream st;
	struct buf out;
	buf_init(&out);
	mask_stream_init(&st, m);
	/* Text that does not end in a secret prefix is not held at all. */
	mask_stream_feed(&st, "plain words here ", 17, &out);
	assert_int_equal(st.held.len, 0);
	assert_int_equal(out.len, 17);
	/* Exactly the suffix that could still become a secret is held. */
	mask_stream_feed(&st, "xxabcdefghi", 11, &out);
	assert_int_equal(st.held.len, 9);
	assert_int_equal(out.len, 19);
	mask_stream_feed(&st, "Z", 1, &out);
	assert_int_equal(st.held.len, 0);
	mask_stream_fini(&st);
	buf_fini(&out);
	mask_set_destroy(m);
}

static void test_no_split_characters(void **state)
{
	(void)state;
	const char *s[] = { "hunter2", NULL };
	struct mask_set *m = set_of(s);
	struct mask_stream st;
	struct buf out;
	buf_init(&out);
	mask_stream_init(&st, m);
	/* "é" = C3 A9 split between feeds: the lead byte waits for its continuation. */
	mask_stream_feed(&st, "caf\xC3", 4, &out);
	assert_string_equal(buf_cstr(&out), "caf");
	assert_int_equal(st.held.len, 1);
	mask_stream_feed(&st, "\xA9", 1, &out);
	assert_string_equal(buf_cstr(&out), "café");
	/* A held secret prefix is extended back to the start of its character. */
	const char *u[] = { "€uro-note", NULL };
	struct mask_set *mu = set_of(u);
	struct mask_stream su;
	buf_clear(&out);
	mask_stream_init(&su, mu);
	mask_stream_feed(&su, "ab\xE2\x82", 4, &out);
	assert_string_equal(buf_cstr(&out), "ab");
	mask_stream_feed(&su, "\xACur", 3, &out);
	assert_string_equal(buf_cstr(&out), "ab");
	assert_int_equal(su.held.len, 5);
	mask_stream_feed(&su, "o-notes", 7, &out);
	assert_string_equal(buf_cstr(&out), "ab" M "s");
	mask_stream_fini(&su);
	mask_stream_fini(&st);
	buf_fini(&out);
	mask_set_destroy(mu);
	mask_set_destroy(m);
}

static void test_refusals(void **state)
{
	(void)state;
	struct mask_set *m = mask_set_create();
	struct buf why;
	buf_init(&why);
	assert_int_equal(mask_set_add(m, "abc", 3, &why), -1);
	assert_non_null(strstr(buf_cstr(&why), "shorter"));
	buf_clear(&why);
	assert_int_equal(mask_set_add(m, "", 0, &why), -1);
	assert_non_null(strstr(buf_cstr(&why), "empty"));
	buf_clear(&why);
	assert_int_equal(mask_set_add(m, "abcd\nefgh", 9, &why), -1);
	assert_non_null(strstr(buf_cstr(&why), "line break"));
	buf_clear(&why);
	assert_int_equal(mask_set_add(m, "ab\xff\xfe" "cd", 6, &why), -1);
	assert_non_null(strstr(buf_cstr(&why), "UTF-8"));
	buf_clear(&why);
	assert_int_equal(mask_set_add(m, "abc\xC3", 4, &why), -1); /* truncated character */
	assert_non_null(strstr(buf_cstr(&why), "UTF-8"));
	buf_clear(&why);
	assert_int_equal(mask_set_add(m, "ab\xC0\xAF" "cd", 6, &why), -1); /* overlong '/' */
	assert_non_null(strstr(buf_cstr(&why), "UTF-8"));
	buf_clear(&why);
	assert_int_equal(mask_set_add(m, "ab\xED\xA0\x80" "cd", 7, &why), -1); /* surrogate */
	assert_non_null(strstr(buf_cstr(&why), "UTF-8"));
	/* Output is sanitized before it is masked: a secret with a character the sanitizer
	 * removes could never match, so it is refused with a reason (was: accepted, silently
	 * masking nothing). */
	static const char *const unseen[] = {
		"ab\x1b[0mcd", "abc\rdef", "ab\x7f" "cd", "ab\xc2\x9b" "cd", "ab\xe2\x80\x8b" "cd",
		"\xef\xbb\xbf" "abcd", "ab\xc2\xad" "cd", "ab\xe2\x80\xae" "cd", "ab\xe2\x81\xa6" "cd",
	};
	for (size_t i = 0; i < sizeof unseen / sizeof unseen[0]; i++) {
		buf_clear(&why);
		assert_int_equal(mask_set_add(m, unseen[i], strlen(unseen[i]), &why), -1);
		assert_non_null(strstr(buf_cstr(&why), "invisible"));
	}
	/* ...but a tab is shown, and an emoji sequence keeps its joiners */
	assert_int_equal(mask_set_add(m, "ab\tcd", 5, &why), 0);
	assert_int_equal(mask_set_add(m, "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9!!", 13, &why), 0);
	assert_int_equal(mask_set_count(m), 2);
	mask_set_destroy(m);
	m = mask_set_create();
	/* Length counts characters: three of them in six bytes are still too short. */
	buf_clear(&why);
	assert_int_equal(mask_set_add(m, "äöü", strlen("äöü"), &why), -1);
	assert_non_null(strstr(buf_cstr(&why), "shorter"));
	assert_int_equal(mask_set_count(m), 0);
	assert_int_equal(mask_set_add(m, "äöüß", strlen("äöüß"), &why), 0);
	assert_int_equal(mask_set_add(m, "abcd", 4, NULL), 0);
	assert_int_equal(mask_set_count(m), 2);
	assert_int_equal(mask_set_longest(m), strlen("äöüß"));
	mask_set_destroy(m);
	buf_fini(&why);
}

static void test_empty_set_passes_through(void **state)
{
	(void)state;
	struct mask_set *m = mask_set_create();
	char *got = masked(m, "anything at all \xff\xfe");
	assert_string_equal(got, "anything at all \xff\xfe");
	free(got);
	struct mask_stream st;
	struct buf out;
	buf_init(&out);
	mask_stream_init(&st, m);
	mask_stream_feed(&st, "caf\xC3", 4, &out);
	assert_int_equal(st.held.len, 0);
	assert_int_equal(out.len, 4);
	mask_stream_fini(&st);
	buf_fini(&out);
	mask_set_destroy(m);
}

struct warnings {
	int count;
	char last[512];
};

static void on_warn(void *ctx, const char *line)
{
	struct warnings *w = ctx;
	w->count++;
	snprintf(w->last, sizeof w->last, "%s", line);
}

static void test_mask_file(void **state)
{
	(void)state;
	char path[] = "/tmp/tether-maskfile-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char body[] = "first-secret\r\n\n# not-a-comment\nxyz\nlast-one-no-newline";
	assert_int_equal(write(fd, body, sizeof body - 1), (ssize_t)(sizeof body - 1));
	close(fd);
	struct mask_set *m = mask_set_create();
	struct warnings w = { 0 };
	struct buf why;
	buf_init(&why);
	assert_int_equal(mask_set_add_file(m, path, &why, on_warn, &w), 3);
	assert_int_equal(mask_set_count(m), 3);
	assert_int_equal(w.count, 1);
	assert_non_null(strstr(w.last, ":4:"));
	assert_null(strstr(w.last, "xyz"));    /* the refused line itself is never echoed */
	char *got = masked(m, "a first-secret b # not-a-comment c last-one-no-newline\r");
	assert_string_equal(got, "a " M " b " M " c " M "\r");
	free(got);
	unlink(path);
	assert_int_equal(mask_set_add_file(m, path, &why, on_warn, &w), -1);
	assert_true(why.len > 0);
	mask_set_destroy(m);
	buf_fini(&why);
}

/* An editor leaves trailing blanks (and a byte order mark): the secret is the line without
 * them, and the user is told of the blanks (they used to mask nothing, silently). */
static void test_mask_file_trailing_blanks(void **state)
{
	(void)state;
	char path[] = "/tmp/tether-maskfile-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char body[] = "\xef\xbb\xbf" "blank-after   \ntab-after\t\r\ncrlf-only\r\n  lead-kept\n";
	assert_int_equal(write(fd, body, sizeof body - 1), (ssize_t)(sizeof body - 1));
	close(fd);
	struct mask_set *m = mask_set_create();
	struct warnings w = { 0 };
	struct buf why;
	buf_init(&why);
	assert_int_equal(mask_set_add_file(m, path, &why, on_warn, &w), 4);
	assert_int_equal(w.count, 2);                  /* lines 1 and 2, not the CRLF line */
	assert_non_null(strstr(w.last, ":2: trailing blanks"));
	assert_null(strstr(w.last, "tab-after"));
	char *got = masked(m, "x blank-after tab-after crlf-only   lead-kept y");
	assert_string_equal(got, "x " M " " M " " M " " M " y");
	free(got);
	unlink(path);
	mask_set_destroy(m);
	buf_fini(&why);
}

/* ---------------------------------------------------------------- properties */

static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static size_t rng_below(size_t n)
{
	return (size_t)(rng() % n);
}

struct corpus {
	char **secrets;
	size_t count;
};

static void corpus_free(struct corpus *c)
{
	for (size_t i = 0; i < c->count; i++)
		free(c->secrets[i]);
	free(c->secrets);
}

static const char *const pieces[] = { "é", "€", "日本", "😀", "ß", "x" };

/* Secrets over a tiny alphabet overlap a lot; some carry multi-byte characters. */
static void corpus_make(struct corpus *c, size_t count, const char *alphabet, size_t minlen,
			size_t maxlen)
{
	c->secrets = xcalloc(count, sizeof *c->secrets);
	c->count = count;
	size_t na = strlen(alphabet);
	for (size_t i = 0; i < count; i++) {
		struct buf b;
		buf_init(&b);
		size_t len = minlen + rng_below(maxlen - minlen + 1);
		for (size_t j = 0; j < len; j++) {
			if (rng_below(10) == 0)
				buf_puts(&b, pieces[rng_below(sizeof pieces / sizeof pieces[0])]);
			else
				buf_putc(&b, alphabet[rng_below(na)]);
		}
		c->secrets[i] = buf_steal(&b);
	}
}

static struct mask_set *corpus_set(const struct corpus *c)
{
	struct mask_set *m = mask_set_create();
	for (size_t i = 0; i < c->count; i++)
		assert_int_equal(mask_set_add(m, c->secrets[i], strlen(c->secrets[i]), NULL), 0);
	return m;
}

/* Random text: words, multi-byte characters, whole secrets and near misses (prefixes). */
static void text_make(struct buf *t, const struct corpus *c, size_t len, bool with_secrets,
		      const char *alphabet)
{
	static const char *const words[] = { "the ", "agent ", "ran ", "pytest ", "→ ", "ok\n",
					     "naïve ", "数据 ", "\t", "<x> " };
	size_t na = strlen(alphabet);
	while (t->len < len) {
		size_t r = rng_below(10);
		if (r < 3) {
			buf_puts(t, words[rng_below(sizeof words / sizeof words[0])]);
		} else if (r < 5) {
			buf_putc(t, alphabet[rng_below(na)]);
		} else if (r < 7 || !with_secrets) {
			const char *s = c->secrets[rng_below(c->count)];
			size_t n = strlen(s);
			size_t k = n > 1 ? 1 + rng_below(n - 1) : 0;
			k = utf8_complete_prefix(s, k);
			buf_append(t, s, k);
			if (!with_secrets)
				buf_putc(t, ' ');
		} else {
			buf_puts(t, c->secrets[rng_below(c->count)]);
		}
	}
}

/* The reference: every occurrence found by brute force; occurrences that overlap (not
 * merely touch) form one cluster, which becomes one marker. */
static char *reference_mask(const struct corpus *c, const char *text, size_t n)
{
	size_t *reach = xcalloc(n + 1, sizeof *reach);  /* furthest end of a match from here */
	for (size_t i = 0; i < c->count; i++) {
		size_t len = strlen(c->secrets[i]);
		for (size_t at = 0; at + len <= n; at++)
			if (!memcmp(text + at, c->secrets[i], len) && reach[at] < at + len)
				reach[at] = at + len;
	}
	struct buf out;
	buf_init(&out);
	buf_reserve(&out, n);
	for (size_t at = 0; at < n;) {
		if (!reach[at]) {
			buf_putc(&out, text[at++]);
			continue;
		}
		size_t end = reach[at];
		for (size_t j = at + 1; j < end; j++)
			if (reach[j] > end)
				end = reach[j];
		buf_puts(&out, M);
		at = end;
	}
	free(reach);
	return buf_steal(&out);
}

static const char *find(const char *hay, size_t n, const char *needle, size_t len)
{
	for (size_t i = 0; i + len <= n; i++)
		if (!memcmp(hay + i, needle, len))
			return hay + i;
	return NULL;
}

/* Every occurrence of a secret in out must overlap a marker. */
static void assert_no_secret(const struct corpus *c, const char *out, size_t n)
{
	unsigned char *in_marker = xcalloc(n + 1, 1);
	size_t ml = strlen(M);
	for (const char *p = out; (p = find(p, n - (size_t)(p - out), M, ml)); p += ml)
		memset(in_marker + (p - out), 1, ml);
	for (size_t i = 0; i < c->count; i++) {
		size_t len = strlen(c->secrets[i]);
		for (const char *p = out; (p = find(p, n - (size_t)(p - out), c->secrets[i], len)); p++)
			if (!memchr(in_marker + (p - out), 1, len))
				fail_msg("secret %zu leaked at offset %zu", i, (size_t)(p - out));
	}
	free(in_marker);
}

static bool valid_utf8_prefix(const char *s, size_t n)
{
	return utf8_complete_prefix(s, n) == n;
}

/* Streams text in random chunks; checks the bound and character boundaries per feed. */
static char *stream_random(const struct mask_set *m, const char *text, size_t n, size_t maxchunk,
			   bool check_chars)
{
	struct mask_stream s;
	struct buf out;
	buf_init(&out);
	mask_stream_init(&s, m);
	size_t bound = mask_set_longest(m) - 1 + 3;
	for (size_t at = 0; at < n;) {
		size_t k = 1 + rng_below(maxchunk);
		if (k > n - at)
			k = n - at;
		mask_stream_feed(&s, text + at, k, &out);
		at += k;
		assert_true(s.held.len <= bound);
		if (check_chars)
			assert_true(valid_utf8_prefix(out.data ? out.data : "", out.len));
	}
	mask_stream_flush(&s, &out);
	assert_int_equal(s.held.len, 0);
	mask_stream_fini(&s);
	return buf_steal(&out);
}

static void property_round(const struct corpus *c, const char *alphabet, size_t textlen)
{
	struct mask_set *m = corpus_set(c);
	struct buf t;
	buf_init(&t);
	text_make(&t, c, textlen, true, alphabet);
	char *want = reference_mask(c, t.data, t.len);
	char *once = masked(m, t.data);
	assert_string_equal(once, want);
	assert_no_secret(c, once, strlen(once));
	static const size_t maxchunks[] = { 1, 2, 7, 64, 4096 };
	for (size_t i = 0; i < sizeof maxchunks / sizeof maxchunks[0]; i++) {
		char *streamed = stream_random(m, t.data, t.len, maxchunks[i], true);
		assert_string_equal(streamed, want);
		free(streamed);
	}
	free(once);
	free(want);
	buf_fini(&t);
	mask_set_destroy(m);
}

static void test_property_overlapping_secrets(void **state)
{
	(void)state;
	rng_state = 1;
	for (int round = 0; round < 60; round++) {
		struct corpus c;
		corpus_make(&c, 1 + rng_below(8), "ab", 4, 9);
		property_round(&c, "abc", 600);
		corpus_free(&c);
	}
}

static void test_property_realistic_secrets(void **state)
{
	(void)state;
	rng_state = 2;
	const char *tok = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	for (int round = 0; round < 20; round++) {
		struct corpus c;
		corpus_make(&c, 1 + rng_below(40), tok, 8, 40);
		property_round(&c, tok, 3000);
		corpus_free(&c);
	}
}

static void test_property_clean_text_unchanged(void **state)
{
	(void)state;
	rng_state = 3;
	int checked = 0;
	for (int round = 0; round < 30; round++) {
		struct corpus c;
		corpus_make(&c, 1 + rng_below(10), "abcdef", 6, 12);
		struct mask_set *m = corpus_set(&c);
		struct buf t;
		buf_init(&t);
		/* Only near misses: secret prefixes, words and letters no secret has. */
		text_make(&t, &c, 2000, false, "yz");
		char *want = reference_mask(&c, t.data, t.len);
		if (strcmp(want, t.data) == 0) { /* a prefix may hold a shorter secret: skip */
			checked++;
			char *once = masked(m, t.data);
			assert_memory_equal(once, t.data, t.len + 1);
			char *streamed = stream_random(m, t.data, t.len, 1 + rng_below(16), true);
			assert_memory_equal(streamed, t.data, t.len + 1);
			free(once);
			free(streamed);
		}
		free(want);
		buf_fini(&t);
		mask_set_destroy(m);
		corpus_free(&c);
	}
	assert_true(checked >= 20);
}

/* Enough secrets that the deepest states go sparse: same answers as the reference. */
static void test_property_sparse_automaton(void **state)
{
	(void)state;
	rng_state = 4;
	struct corpus c;
	corpus_make(&c, 4000, "abcdefghijklmnopqrstuvwxyz0123456789", 20, 40);
	struct mask_set *m = corpus_set(&c);
	mask_set_prepare(m);
	assert_true(m->ac.ndense < m->ac.nstates);
	struct buf t;
	buf_init(&t);
	text_make(&t, &c, 20000, true, "abcdefghijklmnopqrstuvwxyz0123456789");
	char *want = reference_mask(&c, t.data, t.len);
	char *once = masked(m, t.data);
	assert_string_equal(once, want);
	char *streamed = stream_random(m, t.data, t.len, 100, true);
	assert_string_equal(streamed, want);
	free(streamed);
	free(once);
	free(want);
	buf_fini(&t);
	mask_set_destroy(m);
	corpus_free(&c);
}

/* Arbitrary bytes (invalid UTF-8 included): streaming still equals one-shot. */
static void test_property_binary_text(void **state)
{
	(void)state;
	rng_state = 5;
	static const char bytes[] = "\x80\xC3\xA9\xE2\x82\xAC\xF0" "ab";
	for (int round = 0; round < 40; round++) {
		struct corpus c;
		corpus_make(&c, 1 + rng_below(5), "ab", 4, 6);
		struct mask_set *m = corpus_set(&c);
		struct buf t;
		buf_init(&t);
		while (t.len < 400) {
			if (rng_below(20) == 0)
				buf_puts(&t, c.secrets[rng_below(c.count)]);
			else
				buf_putc(&t, bytes[rng_below(sizeof bytes - 1)]);
		}
		struct buf once;
		buf_init(&once);
		mask_text(m, t.data, t.len, &once);
		char *want = reference_mask(&c, t.data, t.len);
		assert_memory_equal(buf_cstr(&once), want, strlen(want) + 1);
		char *streamed = stream_random(m, t.data, t.len, 1 + rng_below(9), false);
		assert_string_equal(streamed, want);
		free(streamed);
		free(want);
		buf_fini(&once);
		buf_fini(&t);
		mask_set_destroy(m);
		corpus_free(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_repeated_and_adjacent),
		cmocka_unit_test(test_overlapping),
		cmocka_unit_test(test_utf8_secrets),
		cmocka_unit_test(test_split_across_feeds),
		cmocka_unit_test(test_hold_back_bound),
		cmocka_unit_test(test_no_split_characters),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_empty_set_passes_through),
		cmocka_unit_test(test_mask_file),
		cmocka_unit_test(test_mask_file_trailing_blanks),
		cmocka_unit_test(test_property_overlapping_secrets),
		cmocka_unit_test(test_property_realistic_secrets),
		cmocka_unit_test(test_property_clean_text_unchanged),
		cmocka_unit_test(test_property_sparse_automaton),
		cmocka_unit_test(test_property_binary_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
