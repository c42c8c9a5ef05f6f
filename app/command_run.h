/* A one-shot REST command's run: its loop, options, server and masks, how it ended, and
 * stdout flushed as the headless writer does. Below the commands and the managers. */
#ifndef TETHER_COMMAND_RUN_H
#define TETHER_COMMAND_RUN_H

#include "options.h"
#include "net.h"
#include "keyring.h"

/* The event loop of a one-shot REST command: NULL (and *exit_code set, the reason said on
 * stderr) when o's server URL is unusable or the loop cannot be made. */
struct loop *command_loop(const struct options *o, loop_log_fn log, const struct mask_set *masks,
			  int *exit_code);

/* What a one-shot REST command runs with (its loop, options, server and masks) and how it
 * ended; the command's own state embeds it. */
struct command_run {
	struct loop *loop;
	const struct options *o;
	struct rest_server srv;
	const struct mask_set *masks;
	const char *name;               /* the command word, for messages */
	int exit_code;                  /* EXIT_RUNTIME until it ends */
	bool done;
};

/* Sets up run for o on loop, talking to o's server with api_key. */
void command_run_init(struct command_run *run, struct loop *loop, const struct options *o,
		      const char *api_key, const struct mask_set *masks, const char *name);
/* Ends run with code and stops its loop. */
void command_finish(struct command_run *run, int code);

/* Flushes stdout as the headless writer does: a reader that went away (EPIPE) ends quietly
 * with 141, any other failed write is said once and is exit 1. EXIT_OK when written. */
int command_flush_stdout(void);

#endif
