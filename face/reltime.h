/* Server timestamps as people read them in a terminal: "3 min ago", "yesterday". */
#ifndef TETHER_RELTIME_H
#define TETHER_RELTIME_H

#include "base.h"

#include <time.h>

/* Appends how long before now the ISO 8601 time iso was ("just now", "N min ago", "N h ago",
 * "yesterday", "N days ago", then the date). A time without offset is the local time (the
 * agent server writes naive local times). Returns 0, or -1 (out unchanged) when iso does not
 * parse. */
int reltime_format(const char *iso, time_t now, struct buf *out);
/* Appends how long before now the time t was, as reltime_format says it. */
void reltime_format_time(time_t t, time_t now, struct buf *out);
/* Reads the ISO 8601 time iso (as reltime_format does) into *out; 0, or -1 when it does not
 * parse. */
int reltime_parse(const char *iso, time_t *out);

#endif
