/* The modes of tether after option parsing. */
#ifndef TETHER_APP_H
#define TETHER_APP_H

#include "options.h"
#include "net.h"
#include "exit_code.h"
#include "tui.h"

#include <stdio.h>

/* The command that opens o's conversation again, quoted for a POSIX shell: `tether -s URL ID`,
 * the server only when it is not the default. */
void app_come_back(const struct options *o, struct buf *out);
/* Prints "to come back: <that command>" on f (after the TUI gave the terminal back). */
void app_print_come_back(const struct options *o, FILE *f);
/* The come-back line of o's server and what the TUI left open and reached (on stdout, nothing
 * when nothing was reached); frees reopen's ids. */
void app_print_reopen(const struct options *o, struct tui_reopen *reopen);
/* Runs the command in o; returns the process exit code. */
int app_run(const struct options *o);

#endif
