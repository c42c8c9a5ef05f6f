/* modal: the confirmation and the reason of a rejection (layers). */
#ifndef TETHER_MODAL_H
#define TETHER_MODAL_H

#include "conv.h"

/* Opens the confirmation modal for v's waiting actions (from the board: back there after). */
void modal_open_for(struct tui *u, struct conv *v, bool focused);

/* Opens the confirmation modal; focused lets single keys answer at once (only when the user
 * asked for it: /confirm, Ctrl-O). */
void modal_open(struct tui *u, bool focused);
/* Closes it until the next request (answered or set aside). */
void modal_close(struct tui *u);
/* Rows the modal would take at width (lays its text out). */
int modal_rows_wanted(struct tui *u, int width);
/* Paints the modal into rows lines from y. */
void modal_paint(struct tui *u, int y, int rows);

/* The confirmation modal's keys (modal.c). */
extern const struct binding modal_bindings[];
extern const size_t modal_bindings_count;

/* The keys of the reason of a rejection (modal.c). */
extern const struct binding reason_bindings[];
extern const size_t reason_bindings_count;
extern const struct layer confirm_layer;  /* modal.c: the confirmation */
extern const struct layer reason_layer;   /* modal.c: the reason of a rejection */

#endif
