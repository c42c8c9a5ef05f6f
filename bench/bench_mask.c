/* Masking throughput: ~64 MB of agent-like text (ASCII prose and code, some UTF-8, a
 * secret now and then) through mask_stream_feed in 4 KiB and 64-byte feeds, with 10 and
 * 1,000 random secrets of 8-40 characters, against plain copying into the same buffer.
 * Prints "name value" lines for scripts; the best of three runs counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyring.h"
#include "mask_int.h"

#define TEXT_BYTES (64u << 20)
#define RUNS 3

/* Keeps the passes from being optimized away. */
static volatile size_t output_bytes;

static uint64_t rng_state = 42;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static const char token_chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static char **secrets_make(size_t n)
{
	char **s = xcalloc(n, sizeof *s);
	for (size_t i = 0; i < n; i++) {
		size_t len = 8 + rng() % 33;
		s[i] = xmalloc(len + 1);
		for (size_t j = 0; j < len; j++)
			s[i][j] = token_chars[rng() % (sizeof token_chars - 1)];
		s[i][len] = '\0';
	}
	return s;
}

static void text_make(struct buf *t, char **secrets, size_t nsecrets)
{
	static const char *const words[] = {
		"the", "agent", "ran", "tests", "and", "found", "that", "a", "function", "in",
		"file", "returns", "None", "when", "called", "with", "an", "empty", "list", "so",
		"I", "will", "fix", "it", "by", "adding", "check", "for", "of", "to", "is", "this",
		"def", "return", "self", "import", "os", "path", "error", "value", "config",
		"token", "key", "request", "response", "status", "200", "OK", "passed", "failed",
	};
	static const char *const rare[] = { "café", "naïve", "→", "日本語", "✓", "😀", "€5" };
	static const char *const punct[] = { " ", " ", " ", " ", " ", ", ", ". ", "\n", "(", ") ",
					     ": ", " = ", "_", "/" };
	buf_reserve(t, TEXT_BYTES + 64);
	while (t->len < TEXT_BYTES) {
		uint64_t r = rng();
		if (r % 20000 == 0)
			buf_puts(t, secrets[rng() % nsecrets]);
		else if (r % 40 == 1)
			buf_puts(t, rare[rng() % (sizeof rare / sizeof rare[0])]);
		else
			buf_puts(t, words[rng() % (sizeof words / sizeof words[0])]);
		buf_puts(t, punct[rng() % (sizeof punct / sizeof punct[0])]);
	}
}

/* MB/s of one pass in feeds of chunk bytes; mask NULL is the plain-copy floor. */
static double pass(const struct mask_set *mask, const struct buf *t, size_t chunk, size_t *sink)
{
	struct buf out;
	buf_init(&out);
	buf_reserve(&out, chunk * 4 + 4096);
	struct mask_stream s;
	if (mask)
		mask_stream_init(&s, mask);
	int64_t start = clock_now_us();
	for (size_t at = 0; at < t->len; at += chunk) {
		size_t k = t->len - at < chunk ? t->len - at : chunk;
		buf_clear(&out);
		if (mask)
			mask_stream_feed(&s, t->data + at, k, &out);
		else
			buf_append(&out, t->data + at, k);
		*sink += out.len;
	}
	if (mask) {
		mask_stream_flush(&s, &out);
		mask_stream_fini(&s);
	}
	int64_t us = clock_now_us() - start;
	buf_fini(&out);
	return (double)t->len / (double)(us > 0 ? us : 1);
}

static double best(const struct mask_set *mask, const struct buf *t, size_t chunk, size_t *sink)
{
	double top = 0;
	for (int i = 0; i < RUNS; i++) {
		double r = pass(mask, t, chunk, sink);
		if (r > top)
			top = r;
	}
	return top;
}

int main(void)
{
	char **all = secrets_make(1000);
	struct buf text;
	buf_init(&text);
	text_make(&text, all, 1000);
	size_t sink = 0;

	double floor4k = best(NULL, &text, 4096, &sink);
	double floor64 = best(NULL, &text, 64, &sink);
	printf("memcpy_MBps %.1f\n", floor4k);
	printf("memcpy_64B_feeds_MBps %.1f\n", floor64);

	static const size_t counts[] = { 10, 1000 };
	for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
		struct mask_set *m = mask_set_create();
		/* The last secrets of the list, so the 10-secret text still holds a few. */
		for (size_t i = 1000 - counts[c]; i < 1000; i++)
			mask_set_add(m, all[i], strlen(all[i]), NULL);
		int64_t t0 = clock_now_us();
		mask_set_prepare(m);
		double build_ms = (double)(clock_now_us() - t0) / 1000.0;
		double r4k = best(m, &text, 4096, &sink);
		double r64 = best(m, &text, 64, &sink);
		printf("mask_%zu_secrets_MBps %.1f\n", counts[c], r4k);
		printf("mask_%zu_secrets_64B_feeds_MBps %.1f\n", counts[c], r64);
		printf("mask_%zu_secrets_vs_memcpy %.3f\n", counts[c], r4k / floor4k);
		printf("mask_%zu_secrets_build_ms %.2f\n", counts[c], build_ms);
		printf("mask_%zu_secrets_states %u\n", counts[c], m->ac.nstates);
		printf("mask_%zu_secrets_table_KiB %.0f\n", counts[c],
		       (double)m->ac.dense_limit * 4.0 / 1024.0);
		mask_set_destroy(m);
	}
	output_bytes = sink;
	for (size_t i = 0; i < 1000; i++)
		free(all[i]);
	free(all);
	buf_fini(&text);
	return 0;
}
