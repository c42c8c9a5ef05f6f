/* Files tether creates: private to the user, whatever the umask. */
#ifndef TETHER_OUTFILE_H
#define TETHER_OUTFILE_H

#include <stdio.h>

/* Opens path for appending, creating it with mode 0600 (--record, --log, $TETHER_STATS hold
 * what the server said and must not be readable by others). NULL with errno on failure. */
FILE *outfile_open_append(const char *path);

/* $TETHER_STATS opened for appending a line of figures (0600), or NULL when it is not set or
 * cannot be opened. */
FILE *outfile_open_stats(void);

#endif
