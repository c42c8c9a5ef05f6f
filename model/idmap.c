/* idmap: 64-bit keys (uids, seqs) to items, open addressing with linear probing and
 * backward-shift deletion, so removals leave no tombstones behind. */
#include "model_int.h"

#include <stdlib.h>

struct idmap_cell {
	uint64_t key;
	struct item *it;                /* NULL: empty */
};

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void idmap_init(struct idmap *m)
{
	*m = (struct idmap){ 0 };
}

void idmap_fini(struct idmap *m)
{
	free(m->cells);
	idmap_init(m);
}

struct item *idmap_get(const struct idmap *m, uint64_t key)
{
	if (!m->count)
		return NULL;
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->cells[i].it)
			return NULL;
		if (m->cells[i].key == key)
			return m->cells[i].it;
	}
}

static void grow(struct idmap *m)
{
	struct idmap_cell *old = m->cells;
	size_t old_cap = m->cap;
	m->cap = old_cap ? old_cap * 2 : 64;
	m->cells = xcalloc(m->cap, sizeof *m->cells);
	m->count = 0;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].it)
			idmap_put(m, old[i].key, old[i].it);
	free(old);
}

void idmap_put(struct idmap *m, uint64_t key, struct item *it)
{
	if ((m->count + 1) * 4 > m->cap * 3)
		grow(m);
	size_t i = slot_of(key, m->cap);
	while (m->cells[i].it && m->cells[i].key != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->cells[i].it)
		m->count++;
	m->cells[i] = (struct idmap_cell){ key, it };
}

void idmap_del(struct idmap *m, uint64_t key, const struct item *it)
{
	if (!m->count)
		return;
	size_t mask = m->cap - 1, i = slot_of(key, m->cap);
	while (m->cells[i].it && m->cells[i].key != key)
		i = (i + 1) & mask;
	if (!m->cells[i].it || m->cells[i].it != it)
		return;
	/* Shift back every later cell of the run that may sit at i, so lookups never stop early. */
	for (size_t j = (i + 1) & mask; m->cells[j].it; j = (j + 1) & mask) {
		size_t home = slot_of(m->cells[j].key, m->cap);
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->cells[i] = m->cells[j];
			i = j;
		}
	}
	m->cells[i].it = NULL;
	m->count--;
}

size_t idmap_keys(const struct idmap *m, uint64_t *out)
{
	size_t n = 0;
	for (size_t i = 0; i < m->cap; i++)
		if (m->cells[i].it)
			out[n++] = m->cells[i].key;
	return n;
}
