/* strmap: string → pointer hash map, linear probing with backward-shift deletion (no
 * tombstones, so a map that churns — slots open and retire all day — never degrades). */
#include "base.h"

#include <stdlib.h>
#include <string.h>

struct strmap_slot {
	const char *key;        /* NULL: empty */
	void *val;
	uint64_t hash;
};

/* Eight bytes a step, each mixed in with a multiply and a shift, then murmur3's finaliser so
 * that the low bits (the slot) depend on every byte: ids are looked up in three maps for
 * every event, and FNV's byte-at-a-time chain of multiplies was most of a lookup. */
static uint64_t hash_string(const char *s)
{
	size_t n = strlen(s), i = 0;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (i < n) {
		uint64_t w = 0;
		memcpy(&w, s + i, n - i);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

void strmap_init(struct strmap *m)
{
	m->slots = NULL;
	m->cap = 0;
	m->count = 0;
}

void strmap_fini(struct strmap *m)
{
	free(m->slots);
	strmap_init(m);
}

static size_t find(const struct strmap *m, const char *key, uint64_t h, bool *found)
{
	size_t mask = m->cap - 1, i = (size_t)h & mask;
	while (m->slots[i].key) {
		if (m->slots[i].hash == h && strcmp(m->slots[i].key, key) == 0) {
			*found = true;
			return i;
		}
		i = (i + 1) & mask;
	}
	*found = false;
	return i;
}

static void grow(struct strmap *m)
{
	struct strmap_slot *old = m->slots;
	size_t old_cap = m->cap;
	m->cap = old_cap ? old_cap * 2 : 16;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (size_t i = 0; i < old_cap; i++) {
		if (!old[i].key)
			continue;
		size_t j = (size_t)old[i].hash & (m->cap - 1);
		while (m->slots[j].key)
			j = (j + 1) & (m->cap - 1);
		m->slots[j] = old[i];
	}
	free(old);
}

void *strmap_get(const struct strmap *m, const char *key)
{
	if (!m->count || !key)
		return NULL;
	bool found;
	size_t i = find(m, key, hash_string(key), &found);
	return found ? m->slots[i].val : NULL;
}

void strmap_put(struct strmap *m, const char *key, void *val)
{
	if ((m->count + 1) * 10 > m->cap * 7)
		grow(m);
	uint64_t h = hash_string(key);
	bool found;
	size_t i = find(m, key, h, &found);
	if (!found)
		m->count++;
	m->slots[i].key = key;
	m->slots[i].val = val;
	m->slots[i].hash = h;
}

void *strmap_del(struct strmap *m, const char *key)
{
	if (!m->count || !key)
		return NULL;
	bool found;
	size_t i = find(m, key, hash_string(key), &found);
	if (!found)
		return NULL;
	void *val = m->slots[i].val;
	size_t mask = m->cap - 1, hole = i;
	/* Shift later members of the probe run back into the hole when their home allows. */
	for (size_t j = (i + 1) & mask; m->slots[j].key; j = (j + 1) & mask) {
		size_t home = (size_t)m->slots[j].hash & mask;
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			m->slots[hole] = m->slots[j];
			hole = j;
		}
	}
	m->slots[hole].key = NULL;
	m->slots[hole].val = NULL;
	m->count--;
	return val;
}
