/* tui: the interactive client on a terminal. */
#ifndef TETHER_TUI_H
#define TETHER_TUI_H

#include "options.h"
#include "net.h"
#include "keyring.h"

#include <stdio.h>

enum { TUI_REOPEN_MAX = OPTIONS_MORE_IDS_MAX + 1 };

/* The conversations to come back to after the TUI, the one on screen first (allocated). */
struct tui_reopen {
	char *ids[TUI_REOPEN_MAX];
	size_t n;               /* 0 when the one on screen was never reached */
};

/* Runs the interactive client for o on loop until the user quits or the run ends; the
 * terminal is restored on every way out. masks holds the local secrets; api_key may be
 * NULL; record is the open --record file or NULL (closed here). reopen gets what was open
 * and reached. Returns the process exit code. */
int tui_run(const struct options *o, struct loop *loop, struct mask_set *masks,
	    const char *api_key, FILE *record, struct tui_reopen *reopen);

#endif
