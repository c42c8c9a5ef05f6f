/* keymap: one key through a table. */
#include "keymap.h"

static bool matches(const struct binding *b, const struct key_event *ev)
{
	if (b->kind != ev->kind || b->mods != ev->mods)
		return false;
	if (b->kind == KEYS_CHAR && b->cp == KEYS_CP_DIGITS)
		return ev->cp >= '1' && ev->cp <= '9';
	return (b->kind != KEYS_CHAR && b->kind != KEYS_CTRL) || b->cp == ev->cp;
}

bool keymap_dispatch(const struct binding *table, size_t n, struct tui *u, struct editor *e,
		     const struct key_event *ev)
{
	for (size_t i = 0; i < n; i++)
		if (matches(&table[i], ev)) {
			table[i].fn(u, e, ev);
			return true;
		}
	return false;
}
