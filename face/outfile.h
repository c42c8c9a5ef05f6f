/* Files tether creates: private to the user, whatever the umask. */
#ifndef TETHER_OUTFILE_H
#define TETHER_OUTFILE_H

#include <stdio.h>

#include "base.h"

/* Opens path for appending, creating it with mode 0600 and making an existing regular file
 * 0600 (--record, --log, $TETHER_STATS hold what the server said and must not be readable by
 * others); a symbolic link is refused (ELOOP). NULL with errno on failure. */
FILE *outfile_open_append(const char *path);

/* Why outfile_open_append failed with err, in words (a symbolic link said as such). */
const char *outfile_strerror(int err);

/* $TETHER_STATS opened for appending a line of figures (0600), or NULL when it is not set or
 * cannot be opened. */
FILE *outfile_open_stats(void);

/* Checks at start that $TETHER_STATS, when set, can be opened as outfile_open_append would:
 * 0, or -1 with why in err. */
int outfile_check_stats(struct buf *err);

#endif
