/* history_view: when the view asks for the history not loaded, and trimming. */
#ifndef TETHER_HISTORY_VIEW_H
#define TETHER_HISTORY_VIEW_H

#include "conv.h"

/* After a frame: asks for the history not loaded within a screen of the rows shown. */
void history_view_check(struct tui *u, const struct controller_status *st);
/* Ctrl-Home: to the first event — the top of what is loaded now, and the oldest page of the
 * log asked directly when it is not loaded (a gap row between says how much lies between). */
void history_view_go_first(struct tui *u);
/* A frame was painted: a page that landed is on screen (timed for $TETHER_STATS). */
void history_view_painted(struct tui *u, int64_t now_us);
/* Appends the pages' times to $TETHER_STATS when set. */
void history_view_write_stats(struct tui *u);
/* Drops items far from the rows shown down to history_memory (never the live tail); returns
 * how many. */
size_t history_view_trim(struct tui *u);

#endif
