/* overlay: the keys overlay, above the layers. */
#ifndef TETHER_OVERLAY_H
#define TETHER_OVERLAY_H

#include "conv.h"

/* Opens the keys overlay at its top, showing text (made again at each width). */
void overlay_open(struct tui *u, void (*text)(int width, struct buf *out));
/* Closes it. */
void overlay_close(struct tui *u);
/* Scrolls it by rows (negative: up); LONG_MIN/LONG_MAX go to its ends. */
void overlay_scroll(struct tui *u, long rows);

/* The keys overlay's keys (overlay.c). */
extern const struct binding overlay_bindings[];
extern const size_t overlay_bindings_count;
extern const struct layer overlay_layer;  /* overlay.c: the keys overlay, above the stack */

#endif
