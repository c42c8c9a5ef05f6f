/* recent_ids: a ring of the last N strings with a strmap index, so membership is O(1). */
#include "base.h"

#include <stdlib.h>

void recent_ids_init(struct recent_ids *r, size_t cap)
{
	r->ring = xcalloc(cap, sizeof *r->ring);
	r->cap = cap;
	r->next = 0;
	r->count = 0;
	strmap_init(&r->index);
}

void recent_ids_fini(struct recent_ids *r)
{
	for (size_t i = 0; r->ring && i < r->cap; i++)
		free(r->ring[i]);
	free(r->ring);
	strmap_fini(&r->index);
	r->ring = NULL;
	r->cap = r->next = r->count = 0;
}

bool recent_ids_has(const struct recent_ids *r, const char *id)
{
	return strmap_get(&r->index, id) != NULL;
}

void recent_ids_add(struct recent_ids *r, const char *id)
{
	if (!r->cap || recent_ids_has(r, id))
		return;
	char **cell = &r->ring[r->next];
	if (*cell) {
		strmap_del(&r->index, *cell);
		free(*cell);
	} else {
		r->count++;
	}
	*cell = xstrdup(id);
	strmap_put(&r->index, *cell, cell);
	r->next = (r->next + 1) % r->cap;
}
