/* libFuzzer target: the key decoder (keys.c). The first byte picks a chunking; the rest is
 * what the terminal sends. Checks: the keys do not depend on how the bytes were split into
 * reads; what is kept for an unfinished key stays small; and the same bytes inside a
 * bracketed paste give exactly one event, the paste, holding them (line breaks made LF)
 * whatever they contain — fake end markers, Enter, control characters, sequences. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok)
{
	if (!ok)
		abort();
}

struct events {
	struct buf log;     /* kind, mods, cp and paste text of each event, serialized */
	size_t n, pastes;
	struct buf paste;   /* the last paste's text */
};

static void collect(void *ctx, const struct key_event *ev)
{
	struct events *e = ctx;
	uint32_t head[3] = { (uint32_t)ev->kind, ev->mods, ev->cp };
	buf_append(&e->log, head, sizeof head);
	if (ev->kind == KEYS_REPLY) {
		uint64_t len = ev->len;
		buf_append(&e->log, &len, sizeof len);
		buf_append(&e->log, ev->text, ev->len);
	}
	if (ev->kind == KEYS_MOUSE) {
		int32_t cell[3] = { ev->x, ev->y, ev->release };
		buf_append(&e->log, cell, sizeof cell);
	}
	if (ev->kind == KEYS_PASTE) {
		uint64_t len = ev->len;
		buf_append(&e->log, &len, sizeof len);
		buf_append(&e->log, ev->text, ev->len);
		buf_clear(&e->paste);
		buf_append(&e->paste, ev->text, ev->len);
		e->pastes++;
	}
	e->n++;
}

static void setup(struct keys *k, struct events *e)
{
	keys_init(k);
	keys_bind(k, "\033Od", KEYS_LEFT, KEYS_MOD_CTRL);
	keys_bind(k, "\033[3$", KEYS_DELETE, KEYS_MOD_SHIFT);
	keys_bind(k, "\033[[A", KEYS_UP, KEYS_MOD_ALT);
	memset(e, 0, sizeof *e);
	buf_init(&e->log);
	buf_init(&e->paste);
}

static void finish(struct keys *k, struct events *e)
{
	for (int i = 0; i < 4 && keys_wait_us(k) >= 0; i++)
		keys_expire(k, collect, e);
	check(keys_wait_us(k) < 0);
}

static void teardown(struct keys *k, struct events *e)
{
	keys_fini(k);
	buf_fini(&e->log);
	buf_fini(&e->paste);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t chunk = 1 + data[0] % 17;
	const char *in = (const char *)data + 1;
	size_t n = size - 1;

	struct keys k;
	struct events whole, pieces;
	setup(&k, &whole);
	keys_feed(&k, in, n, collect, &whole);
	check(k.carry.len <= KEYS_STRING_MAX);
	finish(&k, &whole);
	keys_fini(&k);

	setup(&k, &pieces);
	for (size_t at = 0; at < n; at += chunk) {
		keys_feed(&k, in + at, n - at < chunk ? n - at : chunk, collect, &pieces);
		check(k.carry.len <= KEYS_STRING_MAX);
	}
	finish(&k, &pieces);
	check(pieces.log.len == whole.log.len &&
	      (!whole.log.len || memcmp(pieces.log.data, whole.log.data, whole.log.len) == 0));
	teardown(&k, &pieces);
	buf_fini(&whole.log);
	buf_fini(&whole.paste);

	/* The same bytes pasted. */
	struct events pasted;
	setup(&k, &pasted);
	keys_feed(&k, "\033[200~", 6, collect, &pasted);
	for (size_t at = 0; at < n; at += chunk)
		keys_feed(&k, in + at, n - at < chunk ? n - at : chunk, collect, &pasted);
	keys_feed(&k, "\033[201~", 6, collect, &pasted);
	check(pasted.n == 0);
	finish(&k, &pasted);
	check(pasted.n == 1 && pasted.pastes == 1);
	char *want = malloc(n + 1);
	memcpy(want, in, n);
	size_t wn = keys_line_feeds(want, n);
	check(pasted.paste.len == wn && (wn == 0 || memcmp(pasted.paste.data, want, wn) == 0));
	free(want);
	teardown(&k, &pasted);
	return 0;
}
