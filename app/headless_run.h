/* The headless runner (cli.md): ndjson or text on stdout until the run's rules end it. */
#ifndef TETHER_HEADLESS_RUN_H
#define TETHER_HEADLESS_RUN_H

#include "options.h"
#include "net.h"
#include "keyring.h"

#include <stdio.h>

/* Runs o's conversation headless on loop; masks holds the local secrets, api_key may be NULL,
 * record is the open --record file or NULL (closed here). Returns the process exit code. */
int headless_run(const struct options *o, struct loop *loop, struct mask_set *masks,
		 const char *api_key, FILE *record);

#endif
