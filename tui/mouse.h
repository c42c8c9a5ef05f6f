/* mouse: with `mouse = on`, the wheel scrolls what is on screen (the transcript, the pager,
 * the board) and a click on a transcript row focuses its item; the terminal keeps its own
 * selection with Shift, which it handles itself. */
#ifndef TETHER_MOUSE_H
#define TETHER_MOUSE_H

#include "conv.h"

/* Rows one wheel notch scrolls. */
enum { MOUSE_WHEEL_ROWS = 3 };

/* Acts on one KEYS_MOUSE event. */
void mouse_handle(struct tui *u, const struct key_event *ev);

#endif
