/* The exit codes of cli.md, which every way of running tether ends with. */
#ifndef TETHER_EXIT_CODE_H
#define TETHER_EXIT_CODE_H

#include "net.h"

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
int exit_code_for_end(enum session_end end);

#endif
