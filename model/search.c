/* search: finds items by text, case-insensitively for ASCII. */
#include "model_int.h"

#include <string.h>

static bool contains(const char *hay, size_t n, const char *needle, size_t m)
{
	return ascii_find_ci(hay, n, needle, m) != NULL;
}

static bool item_matches(const struct item *it, const char *needle, size_t m)
{
	const struct item_card *c = it->card;
	if (contains(it->text.data, it->text.len, needle, m) ||
	    contains(it->title, it->title ? strlen(it->title) : 0, needle, m))
		return true;
	return c && (contains(c->summary, c->summary ? strlen(c->summary) : 0, needle, m) ||
		     contains(c->detail.data, c->detail.len, needle, m) ||
		     contains(c->result.data, c->result.len, needle, m));
}

long transcript_search(const struct transcript *t, const char *needle, size_t from,
		       bool backwards)
{
	size_t m = needle ? strlen(needle) : 0;
	if (!m || !t->count)
		return -1;
	if (backwards) {
		for (size_t i = from < t->count ? from + 1 : t->count; i-- > 0;)
			if (item_matches(t->items[i], needle, m))
				return (long)i;
		return -1;
	}
	for (size_t i = from; i < t->count; i++)
		if (item_matches(t->items[i], needle, m))
			return (long)i;
	return -1;
}

size_t transcript_search_count(const struct transcript *t, const char *needle, long at,
			       size_t *rank)
{
	size_t m = needle ? strlen(needle) : 0, total = 0;
	*rank = 0;
	for (size_t i = t->count; m && i-- > 0;) {
		if (!item_matches(t->items[i], needle, m))
			continue;
		total++;
		if ((long)i == at)
			*rank = total;
	}
	return total;
}
