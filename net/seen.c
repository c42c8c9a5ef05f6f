/* A bounded set of recently delivered durable event ids: a ring of the last
 * SEEN_CAPACITY ids with a chained hash index, so lookups stay O(1) per frame. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct seen_entry {
	struct seen_entry *next;        /* bucket chain */
	uint32_t hash;
	char id[];
};

static uint32_t seen_hash(const char *s)
{
	uint32_t h = 2166136261u;       /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Makes an empty set. */
void seen_init(struct seen_ids *set)
{
	memset(set, 0, sizeof(*set));
}

/* Frees every id. */
void seen_fini(struct seen_ids *set)
{
	for (size_t i = 0; i < SEEN_CAPACITY; i++)
		free(set->ring[i]);
	memset(set, 0, sizeof(*set));
}

/* True when id was added and not yet evicted. */
bool seen_contains(const struct seen_ids *set, const char *id)
{
	uint32_t h = seen_hash(id);

	for (const struct seen_entry *e = set->buckets[h % SEEN_BUCKETS]; e; e = e->next)
		if (e->hash == h && !strcmp(e->id, id))
			return true;
	return false;
}

static void seen_unlink(struct seen_ids *set, struct seen_entry *victim)
{
	struct seen_entry **pp = &set->buckets[victim->hash % SEEN_BUCKETS];

	while (*pp && *pp != victim)
		pp = &(*pp)->next;
	if (*pp)
		*pp = victim->next;
}

/* Adds id (a duplicate is ignored), evicting the oldest id when full. */
void seen_add(struct seen_ids *set, const char *id)
{
	size_t n = strlen(id);
	struct seen_entry *e;

	if (seen_contains(set, id))
		return;
	if (set->ring[set->next]) {
		seen_unlink(set, set->ring[set->next]);
		free(set->ring[set->next]);
	} else {
		set->count++;
	}
	e = xmalloc(sizeof(*e) + n + 1);
	e->hash = seen_hash(id);
	memcpy(e->id, id, n + 1);
	e->next = set->buckets[e->hash % SEEN_BUCKETS];
	set->buckets[e->hash % SEEN_BUCKETS] = e;
	set->ring[set->next] = e;
	set->next = (set->next + 1) % SEEN_CAPACITY;
}
