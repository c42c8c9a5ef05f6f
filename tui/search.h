/* search: finding text in the transcript from the input line (a layer). */
#ifndef TETHER_SEARCH_H
#define TETHER_SEARCH_H

#include "conv.h"

/* Starts a search: the query is typed in the input area; the view is remembered for Esc. */
void search_start(struct tui *u);
/* The query changed: shows the newest match, or says there is none. */
void search_update(struct tui *u);
/* Goes to the next older (or newer) match. */
void search_step(struct tui *u, bool older);
/* Where the current match stands among the loaded items that match: *rank of the returned
 * total, counted from the newest; 0 of them when there is no current match. */
size_t search_position(struct tui *u, size_t *rank);
/* A search of the server's history that waited for a page goes now, if it still can. */
void search_server_resume(struct tui *u);
/* Ends the search and puts the view back where it was. */
void search_cancel(struct tui *u);
/* Ends the search where it stands. */
void search_stop(struct tui *u);

/* The search's keys while typing the query and while browsing (search.c). */
extern const struct binding search_edit_bindings[];
extern const size_t search_edit_bindings_count;
extern const struct binding search_browse_bindings[];
extern const size_t search_browse_bindings_count;
extern const struct layer search_layer;   /* search.c: typing a query, browsing the matches */

#endif
