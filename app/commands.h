/* The one-shot commands of the command line: tether key set|rm, tether secret add|list|rm,
 * tether confirm|reject|pause|resume|interrupt, and the managers of conversations. */
#ifndef TETHER_COMMANDS_H
#define TETHER_COMMANDS_H

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

/* Runs the key or secret command in o (values from stdin or a no-echo prompt, never
 * printed); returns the exit code (exit_code.h). */
int cmd_keyring_run(const struct options *o);

/* Runs the control command in o on its conversation (REST, with api_key; what the server says
 * is shown sanitized and masked with masks); returns the exit code. */
int cmd_control_run(const struct options *o, loop_log_fn log, const char *api_key,
		    const struct mask_set *masks);

/* tether watch: polls every conversation of o's server and prints a line per status change
 * (sanitized and masked with masks) until the --until/--on-confirm rules or a signal end it;
 * returns the exit code. */
int cmd_watch_run(const struct options *o, loop_log_fn log, const char *api_key,
		  const struct mask_set *masks);

/* tether new|fork|rename|rm|ask|compact|model|goal|policy|server-info: the server's
 * version, then the command's calls; what the server did on stdout (text, ndjson or json),
 * failures in words on stderr. new_id (tether new, may be NULL) gets the new conversation's
 * id (caller frees). Returns the exit code. */
int cmd_manage_run(const struct options *o, loop_log_fn log, const char *api_key,
		   const struct mask_set *masks, char **new_id);

#endif
