/* The one-shot commands of the command line: tether key set|rm, tether secret add|list|rm,
 * tether confirm|reject|pause|resume|interrupt, and the managers of conversations. */
#ifndef TETHER_COMMANDS_H
#define TETHER_COMMANDS_H

#include "options.h"
#include "net.h"
#include "keyring.h"
#include "command_run.h"

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
