/* status: the one-line summary of the connection and the conversation under the transcript,
 * composed to fit any width. No curses. */
#ifndef TETHER_STATUS_H
#define TETHER_STATUS_H

#include "controller.h"

/* Writes the status line for st at now_us into out, at most width columns: the connection
 * state (with a reconnect countdown or replay progress) first, then stalls, queued messages,
 * the run's status, the title, the cursor and the server, dropping and shortening the least
 * important parts when narrow. */
void status_format(const struct controller_status *st, int64_t now_us, int width,
		   struct buf *out);
/* Microseconds until the status line changes by itself (a countdown ticks), or -1. */
int64_t status_next_change(const struct controller_status *st, int64_t now_us);
/* Appends n with thousands separators ("5,000"). */
void status_put_count(struct buf *out, int64_t n);
/* Appends the longest prefix of s[0..n) that fits width columns, ending in "…" when cut. */
void status_put_fitted(struct buf *out, const char *s, size_t n, int width);

#endif
