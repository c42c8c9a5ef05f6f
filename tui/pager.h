/* pager: one item full-screen (a layer). */
#ifndef TETHER_PAGER_H
#define TETHER_PAGER_H

#include "conv.h"

/* Opens item idx full-screen in the pager (q goes back to the layer and view left). */
void pager_open(struct tui *u, size_t idx);
/* Frees the pager's state if any (its layer is left as is). */
void pager_free(struct tui *u);

/* The pager's keys (pager.c). */
extern const struct binding pager_bindings[];
extern const size_t pager_bindings_count;
extern const struct layer pager_layer;    /* pager.c: one item full-screen */

#endif
