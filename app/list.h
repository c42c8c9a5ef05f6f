/* `tether list`: the server's conversations for people and scripts. */
#ifndef TETHER_LIST_H
#define TETHER_LIST_H

#include "options.h"
#include "net.h"
#include "keyring.h"

/* Prints the server's conversations per o->format, every field sanitized and masked with
 * masks; returns the exit code. */
int list_run(const struct options *o, loop_log_fn log, const char *api_key,
	     const struct mask_set *masks);

/* Fetches every conversation of the server (no output; fields sanitized and masked); returns
 * the exit code. */
int list_fetch(const struct options *o, loop_log_fn log, const char *api_key,
	       const struct mask_set *masks, struct conversation_info **items, size_t *count);

#endif
