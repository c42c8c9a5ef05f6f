/* bindings: the actions — what each key and each slash command does, in tables that the
 * keys overlay, README and the man page are checked against (bindings.c, slash.c,
 * keys_help.c). */
#ifndef TETHER_BINDINGS_H
#define TETHER_BINDINGS_H

#include "conv.h"

/* Ctrl-C (the key or SIGINT): a second one within 2 s quits. */
void bindings_ctrl_c(struct tui *u);
/* Reconnects now when a reconnect is waiting (F5, /reconnect), else says why not. */
void slash_reconnect(struct tui *u);

/* Handles one key event. */
void bindings_handle(struct tui *u, const struct key_event *ev);

/* Runs line when it is a slash command (returns true); "//x" is the message "/x". */
bool slash_run(struct tui *u, const char *line);
/* Copies the last agent message (code: its last code block) to the clipboard or a file. */
void slash_copy(struct tui *u, bool code);
/* Shows each item's time in its header (local HH:MM today, the date before) or not. */
void slash_timestamps(struct tui *u, bool on);

/* Fills out with up to max contexts, in the order the overlay lists them; returns how many. */
size_t bindings_contexts(struct bindings_context *out, size_t max);

/* A slash command: what runs it, and what /help and completion say of it. */
struct slash_help {
	const char *name;
	const char *args;       /* "" when it takes none */
	void (*run)(struct tui *u, const char *arg);
	const char *help;
};
/* The slash commands, in the order the overlay lists them; *n gets their count. */
const struct slash_help *slash_commands(size_t *n);
/* Tab on a draft that is a command name being typed: completes it (or lists the candidates);
 * false when the draft is not one. */
bool slash_complete(struct tui *u);

/* The overlay's text at width columns: every context's keys, then the slash commands. */
void overlay_text(int width, struct buf *out);

#endif
