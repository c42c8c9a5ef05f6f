/* The keyring commands of the command line: tether key set|rm, tether secret add|list|rm. */
#ifndef TETHER_COMMANDS_H
#define TETHER_COMMANDS_H

#include "options.h"

/* Runs the key or secret command in o (values from stdin or a no-echo prompt, never
 * printed); returns the exit code of tui/app.h. */
int cmd_keyring_run(const struct options *o);

#endif
