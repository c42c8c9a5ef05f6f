/* board_view: the board inside the TUI (a layer). */
#ifndef TETHER_BOARD_VIEW_H
#define TETHER_BOARD_VIEW_H

#include "conv.h"

/* Opens the board over the conversation (Ctrl-G, /board); the server's list is polled while
 * it is open. */
void board_view_open(struct tui *u);
/* Back to the conversation on screen; polling stops. */
void board_view_close(struct tui *u);
/* A click on screen line y while the board is on screen: the row there is selected. */
void board_view_click(struct tui *u, int y);
/* Frees the board (tui_run's end). */
void board_view_destroy(struct tui *u);

extern const struct layer board_layer;    /* board_view.c: every conversation of the server */

#endif
