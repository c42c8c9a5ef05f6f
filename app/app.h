/* The modes of tether after option parsing, and the exit codes of cli.md. */
#ifndef TETHER_APP_H
#define TETHER_APP_H

#include "options.h"
#include "net.h"

#include <stdio.h>

enum exit_code {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_AUTH = 3,
	EXIT_NOT_FOUND = 4,
	EXIT_GAVE_UP = 5,
	EXIT_RUN_FAILED = 6,
	EXIT_CONFIRM = 7,       /* headless --on-confirm exit: actions wait for confirmation */
	EXIT_INTERRUPTED = 130,
	EXIT_SIGPIPE = 141,     /* stdout's reader went away: what a shell reports for SIGPIPE */
};

/* The exit code of a session that ended for good (cli.md "Exit codes"). */
int app_exit_for_end(enum session_end end);

/* 0 when tether can use server as its server URL; else says why on stderr (the URL shown
 * without user info, query or fragment) and returns EXIT_USAGE. */
int app_check_server(const char *server);

/* The command that opens o's conversation again, quoted for a POSIX shell: `tether -s URL ID`,
 * the server only when it is not the default. */
void app_come_back(const struct options *o, struct buf *out);
/* Prints "to come back: <that command>" on f (after the TUI gave the terminal back). */
void app_print_come_back(const struct options *o, FILE *f);
/* Runs the command in o; returns the process exit code. */
int app_run(const struct options *o);

#endif
