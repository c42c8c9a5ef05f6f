/* status: the one-line summary of the connection and the conversation under the transcript,
 * composed to fit any width in one vocabulary (connecting / live / syncing / reconnecting in
 * Ns / offline; idle / running 0:42 / needs confirmation / paused / finished / error / stuck):
 * a narrow line drops parts, it never says things in other words. No curses. */
#ifndef TETHER_STATUS_H
#define TETHER_STATUS_H

#include "controller.h"

/* status_format flags */
enum {
	STATUS_KEY_HINT = 1 << 0,   /* the prompt is plain: name the key that matters now */
};

/* Writes the status line for st at now_us into out, at most width columns: the connection
 * (with the countdown and the reason of the last drop), the agent (a spinner and the time
 * running; "last: …" while not live), stalls, queued messages, the key that matters now,
 * the usage (context in use, tokens, cost), the title, the host and the cursor, dropping the
 * least important parts when narrow. */
void status_format(const struct controller_status *st, int64_t now_us, int width,
		   unsigned flags, struct buf *out);
/* Microseconds until the status line changes by itself (a countdown ticks, the spinner
 * turns while running), or -1: nothing wakes up when idle. */
int64_t status_next_change(const struct controller_status *st, int64_t now_us);
/* The connection in the line's words: "connecting", "live", "syncing", "reconnecting",
 * "offline". */
const char *status_connection_word(const struct controller_status *st);
/* The agent in the line's words ("idle", "running", "needs confirmation", …), or NULL when
 * not known yet. */
const char *status_agent_word(const struct controller_status *st);
/* The state a terminal title shows: the agent's word while live, else the connection's. */
const char *status_title_state(const struct controller_status *st);
/* The key that matters now ("Esc interrupts", "Ctrl-O to answer", "F5 reconnects"), or NULL. */
const char *status_hint(const struct controller_status *st);
/* Appends n with thousands separators ("5,000"). */
void status_put_count(struct buf *out, int64_t n);
/* Appends "23 new lines below" ("1 new line below"). */
void status_put_new_below(struct buf *out, size_t n);
/* Appends the longest prefix of s[0..n) that fits width columns, ending in "…" when cut. */
void status_put_fitted(struct buf *out, const char *s, size_t n, int width);

#endif
