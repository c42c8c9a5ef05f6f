/* editor: the multi-line input buffer of the TUI — UTF-8 text edited by grapheme, emacs
 * motions and kills, history, and the wrapped rows the input area shows. No curses. */
#ifndef TETHER_EDITOR_H
#define TETHER_EDITOR_H

#include "base.h"

/* One screen row of the input: text[start..end) takes width columns. */
struct editor_row {
	size_t start, end;
	int width;
};

struct editor {
	struct buf text;            /* UTF-8; '\n' separates lines */
	size_t cursor;              /* byte offset, always on a grapheme boundary */
	struct buf killed;          /* the last killed text, for yank */
	char **history;
	size_t nhistory, history_cap;
	size_t history_pos;         /* nhistory while editing the draft */
	char *draft;                /* the unsent text put aside while browsing history */
	int goal_col;               /* column kept across vertical moves; -1 when none */
	uint64_t version;           /* changes with every edit or cursor move */
	uint64_t text_version;      /* changes with every edit of the text */
	uint64_t line_kill_version; /* version right after a Ctrl-U that took a line's text */
	/* wrapped rows, cached per (text_version, width) */
	struct editor_row *rows;
	size_t nrows, rows_cap;
	int rows_width;
	uint64_t rows_version;
};

/* Makes an empty editor. */
void editor_init(struct editor *e);
/* Frees the text, kill buffer and history. */
void editor_fini(struct editor *e);
/* True when there is no text. */
bool editor_empty(const struct editor *e);
/* The text (NUL-terminated, never NULL). */
const char *editor_text(const struct editor *e);
/* Replaces the whole text and puts the cursor at its end. */
void editor_set(struct editor *e, const char *s, size_t n);
/* Inserts s[0..n) at the cursor as one block: CR and CRLF become LF, escape sequences and
 * other control characters are dropped. Linear in n and the text after the cursor. */
void editor_insert(struct editor *e, const char *s, size_t n);
/* Deletes the grapheme before the cursor. */
void editor_backspace(struct editor *e);
/* Deletes the grapheme under the cursor. */
void editor_delete(struct editor *e);
/* Moves one grapheme left or right (across line breaks). */
void editor_left(struct editor *e);
void editor_right(struct editor *e);
/* Moves to the start or end of the current line (Ctrl-A, Ctrl-E). */
void editor_line_start(struct editor *e);
void editor_line_end(struct editor *e);
/* Moves over one word back or forward (Alt-B, Alt-F). */
void editor_word_left(struct editor *e);
void editor_word_right(struct editor *e);
/* Kills back to the previous whitespace (Ctrl-W). */
void editor_kill_word_back(struct editor *e);
/* Kills from the line start to the cursor (Ctrl-U); at a line's start, the whole draft (so
 * two presses clear it all, and one Ctrl-Y puts it back). */
void editor_kill_line_start(struct editor *e);
/* Kills to the line end, or the line break when at the end (Ctrl-K). */
void editor_kill_line_end(struct editor *e);
/* Inserts the last killed text (Ctrl-Y). */
void editor_yank(struct editor *e);
/* Moves one screen row up or down at width; false when already on the first or last row
 * (the caller then browses history). */
bool editor_move_up(struct editor *e, int width);
bool editor_move_down(struct editor *e, int width);
/* Replaces the text by the previous or next history entry (the draft after the newest);
 * false when there is none. */
bool editor_history_prev(struct editor *e);
bool editor_history_next(struct editor *e);
/* Adds s as the newest history entry (bounded; the newest is not repeated) and stops any
 * browsing there. */
void editor_history_add(struct editor *e, const char *s);
/* Hands the text to the caller (to free), records it in history and empties the editor. */
char *editor_take(struct editor *e);
/* Empties the editor without recording anything. */
void editor_clear(struct editor *e);
/* The text wrapped at width columns (characters, not words); *count rows, at least one.
 * A full last row is followed by an empty one so that the cursor always has a cell. */
const struct editor_row *editor_rows(struct editor *e, int width, size_t *count);
/* Where the cursor is in editor_rows(e, width). */
void editor_cursor_pos(struct editor *e, int width, size_t *row, int *col);
/* Columns of one grapheme as the input area draws it (a tab takes one). */
size_t editor_grapheme(const char *s, size_t n, int *width);

#endif
