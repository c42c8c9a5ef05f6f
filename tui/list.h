/* `tether list`: the server's conversations for people and scripts. */
#ifndef TETHER_LIST_H
#define TETHER_LIST_H

#include "options.h"
#include "net.h"

/* Prints the server's conversations per o->format; returns the exit code. */
int list_run(const struct options *o, loop_log_fn log, const char *api_key);

/* Fetches every conversation of the server (no output); returns the exit code. */
int list_fetch(const struct options *o, loop_log_fn log, const char *api_key,
	       struct conversation_info **items, size_t *count);

#endif
