/* probe: what tether asks the terminal at start — its background colour (OSC 11), whether it
 * takes OSC 52 (XTGETTCAP Ms), then DA1, which every terminal answers, after them (its
 * parameter 52 also says OSC 52) — and what its answers said. The answers come back through the keys (KEYS_REPLY), whenever they come:
 * nothing waits for them. */
#ifndef TETHER_PROBE_H
#define TETHER_PROBE_H

#include "theme.h"

/* What is known of the terminal so far. */
struct probe {
	int background;     /* enum theme_kind from OSC 11; -1 not known */
	int clipboard;      /* 1: it said it takes OSC 52 (Ms, or 52 in DA1); 0: it did not (DA1
			     * came without); -1: no answer yet */
	bool asked_clipboard;
	bool answered;      /* DA1 came: every answer to ask for has come */
};

/* Nothing known; what is to be asked. */
void probe_init(struct probe *p);
/* The bytes of the queries (exposed for tests): OSC 11 when background, XTGETTCAP Ms when
 * clipboard, DA1 always. */
void probe_query_bytes(bool background, bool clipboard, struct buf *out);
/* Sends those queries to the terminal. */
void probe_ask(struct probe *p, bool background, bool clipboard);
/* Takes one reply of the terminal (text without ESC and terminator); true when the
 * background became known by it. */
bool probe_reply(struct probe *p, const char *s, size_t n);

#endif
