/* conv_row: what the picker and the board share about a row of a conversation list — a
 * server field made safe and flat, the filter (its editing, its cap, its match on title or
 * id) and which columns a width holds. */
#ifndef TETHER_CONV_ROW_H
#define TETHER_CONV_ROW_H

#include "base.h"

/* The filter is for typing a few words or an id, not for a pasted file. */
enum { CONV_ROW_FILTER_MAX = 256 };
/* Columns of the short id on a row (the full one is on the detail line). */
enum { CONV_ROW_SHORT_ID = 8 };

/* Columns of a row's fields at a width, 0 for a field the width has no room for. Fields are
 * id, two spaces, title, a space, status, a space, updated. */
struct conv_row_cols {
	int id, title, status, updated;
};

/* out = s sanitized (server text never reaches the terminal raw) on one line; "-" for none. */
void conv_row_flat(const char *s, struct buf *out);
/* Whether filter[0..m) is in title or id, ASCII case ignored; an empty filter matches all. */
bool conv_row_matches(const char *title, const char *id, const char *filter, size_t m);
/* Appends typed or pasted text to filter: its first line, controls dropped, at most
 * CONV_ROW_FILTER_MAX bytes. Returns whether the filter changed. */
bool conv_row_filter_add(struct buf *filter, const char *s, size_t n);
/* Takes the last character off filter; returns whether there was one. */
bool conv_row_filter_backspace(struct buf *filter);
/* out = an execution status as words ("waiting_for_confirmation" → "waiting for
 * confirmation"); "-" for none. */
void conv_row_status_words(const char *status, struct buf *out);
/* out = what the list says when the filter hides every row. */
void conv_row_no_match(const char *filter, struct buf *out);
/* The columns a row of cols columns holds: the narrower, the fewer fields. */
struct conv_row_cols conv_row_columns(int cols);

#endif
