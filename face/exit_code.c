/* How a session that ended for good maps to the exit codes of cli.md. */
#include "exit_code.h"

int exit_code_for_end(enum session_end end)
{
	switch (end) {
	case SESSION_END_AUTH:
		return EXIT_AUTH;
	case SESSION_END_NOT_FOUND:
		return EXIT_NOT_FOUND;
	case SESSION_END_BAD_URL:
		return EXIT_USAGE;
	case SESSION_END_GAVE_UP:
		return EXIT_GAVE_UP;
	case SESSION_END_NONE:
	case SESSION_END_STOPPED:
		break;
	}
	return EXIT_RUNTIME;
}
