/* board: every conversation on the server on one full screen — title, short id, execution
 * status, time since last activity, an attention mark and, for the conversations open in this
 * tether, their slot — filtered as the user types and sorted by attention, then activity. It
 * knows entries, keys and the screen; who fetches the entries and what Enter does is the
 * caller's (it does not know the TUI or the controller). */
#ifndef TETHER_BOARD_H
#define TETHER_BOARD_H

#include "keymap.h"
#include "net.h"

#include <time.h>

/* Why a conversation wants the user, in ascending urgency. */
enum conv_mark {
	CONV_MARK_NONE,
	CONV_MARK_UNREAD,           /* agent messages the user has not seen */
	CONV_MARK_FINISHED,         /* finished since the user last looked */
	CONV_MARK_ERROR,            /* ended in error, or stuck */
	CONV_MARK_CONFIRM,          /* waits for a confirmation */
};

/* The mark's glyph on the board and the strip: "!" "✗" "✓" "•" ("" for none). */
const char *conv_mark_glyph(enum conv_mark m);

/* One conversation as the caller knows it. Strings are borrowed for the call that takes it
 * (the board copies them) and may be NULL. */
struct board_entry {
	const char *id, *title;
	const char *status;                 /* execution status as the server says it */
	enum run_status run_status;
	int64_t activity_unix;              /* last activity; 0: unknown */
	int slot;                           /* 1…9 when open in this tether, else 0 */
	enum conv_mark mark;
	size_t unread;                      /* agent messages not seen (CONV_MARK_UNREAD) */
};

enum board_action_kind {
	BOARD_NONE,
	BOARD_OPEN,                 /* Enter: switch to (or open) id */
	BOARD_ANSWER,               /* Ctrl-O: show id's confirmation */
	BOARD_CLOSE,                /* Esc on an empty filter: back to the conversation */
	BOARD_DELETE,               /* Delete, then y to the question naming its title: delete id */
};

/* What a key asks the caller to do; id stays valid until the next board_set_entries. */
struct board_action {
	enum board_action_kind kind;
	const char *id;
	const char *title;          /* BOARD_DELETE: as the question named it */
};

struct board;

/* Makes an empty board for the server named server (shown in its title). */
struct board *board_create(const char *server);
/* Frees it (NULL is fine). */
void board_destroy(struct board *b);
/* Replaces the entries with copies of e[0..n) and sorts them; the filter stays and the
 * selection stays on the same conversation. */
void board_set_entries(struct board *b, const struct board_entry *e, size_t n);
/* Handles a key: typing edits the filter (Backspace, Ctrl-U), the arrows, PgUp/PgDn,
 * Home/End move, Enter opens, Ctrl-O answers, Esc clears the filter or closes. Returns
 * whether the key was the board's (repaint); *out says what the caller must do. */
bool board_key(struct board *b, const struct key_event *ev, struct board_action *out);
/* The board's keys (board_key dispatches through them; the keys overlay lists them). */
extern const struct binding board_bindings[];
extern const size_t board_bindings_count;
/* Selects the most urgent row (the first), and keeps it selected as entries change until
 * the user moves. */
void board_select_urgent(struct board *b);
/* Selects the row the last paint drew on screen line y (a click); false when none is there. */
bool board_select_at(struct board *b, int y);
/* The id of the selected conversation, NULL when no row shows. */
const char *board_selected_id(const struct board *b);
/* The filter as typed so far. */
const char *board_filter(const struct board *b);
/* Draws the board on the whole stdscr of lines x cols with draw.h (the caller refreshes);
 * status_note says how fresh the list is ("list updated 3 s ago"), NULL for nothing. */
void board_paint(struct board *b, int lines, int cols, time_t now, const char *status_note);
/* Appends the rows the filter lets through as plain text at cols columns, one line each, as
 * board_paint draws them (for tests). */
void board_text(struct board *b, int cols, time_t now, struct buf *out);

#endif
