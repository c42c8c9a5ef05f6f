/* paint: one frame of the conversation on screen, and the items the keys act on. */
#ifndef TETHER_PAINT_H
#define TETHER_PAINT_H

#include "conv.h"

/* Sets up colours after the terminal opened. */
void paint_init(struct painter *p, enum theme_kind theme);
/* Frees the painter's storage. */
void paint_fini(struct painter *p);
/* Paints one frame: transcript, markers, prompts, status and input; one doupdate. */
void paint_frame(struct tui *u, const struct controller_status *st, int64_t now_us);
/* The item the user focused with Alt-Up/Alt-Down while it is in view, else -1. */
long paint_focused(struct tui *u);
/* The item Ctrl-O opens: the focused one, else the newest card in view; -1 when none. */
long paint_open_target(struct tui *u);
/* The item Tab acts on: the focused one, else the newest in view that Tab changes (a capped
 * or expanded card, reasoning, the system prompt); -1 when none. */
long paint_tab_target(struct tui *u);

#endif
