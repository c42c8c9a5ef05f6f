/* draw: putting text on the screen (ncurses' window, or tether's own writing: band.h) —
 * looks (colour or monochrome), cells counted as the layout counts them, search highlights,
 * and whole lines skipped when their fingerprint matches what the last frame drew. */
#ifndef TETHER_DRAW_H
#define TETHER_DRAW_H

#include "render.h"
#include "theme.h"

#include <curses.h>

/* Per-screen-line fingerprints of the last frame, so that a frame rewrites only lines that
 * changed; and the rows that frame showed. */
struct painter {
	uint64_t *line_hash;
	int lines, cols;
	struct view_row *rows;
	uint64_t *row_hash;             /* this frame's fingerprints of the rows, rows_cap of them */
	size_t nrows, rows_cap;
	int transcript_rows;
	int input_width;
	bool cursor_parked;             /* hidden and left where the last frame's text ended */
};

/* How one kind of text looks, in colour (attr, pair) and without (mono). */
struct look {
	attr_t attr;
	short pair;
	attr_t mono;
};

/* Decides between colour and monochrome (after the terminal opened), sets up the pairs in
 * theme's colours and gives the view the words of our keys. */
void draw_init(enum theme_kind theme);
/* Sets the pairs up again in theme's colours (the background became known); true when that
 * changed them, and then the whole screen must be drawn again. */
bool draw_set_theme(enum theme_kind theme);
/* base with the looks of a span's style added: its markdown, then its token of highlighted
 * code, which wins over the code block's colour and the dimming of a card's arguments. */
struct look draw_span_look(struct look base, uint16_t style);
/* Adds l's attributes to acc; l's colour wins when it has one. */
void draw_combine(struct look *acc, const struct look *l);
/* FNV-1a steps for line fingerprints. */
uint64_t draw_hash_bytes(uint64_t h, const void *p, size_t n);
uint64_t draw_hash_u64(uint64_t h, uint64_t v);
uint64_t draw_hash_look(uint64_t h, const struct look *l);
/* True when line y already shows what fingerprint h stands for; records h otherwise. */
bool draw_line_unchanged(struct painter *p, int y, uint64_t h);
/* Before lines 0..n-1 are drawn with fingerprints want[0..n): scrolls them by the shift
 * under which most are already on screen (up: a transcript that grew at the bottom; down:
 * a view scrolled back a few lines), so that only the lines that differ are drawn. Returns
 * the shift (> 0 up), 0 when none helps. */
int draw_scroll_to(struct painter *p, const uint64_t *want, int n);
/* Forgets the line fingerprints: the next frame draws every line. */
void draw_painter_forget(struct painter *p);
/* Parks the cursor (hidden, left where the frame's writing ends) or puts it back at y, x. */
void draw_cursor(struct painter *p, bool park, int y, int x);
/* Fits the line fingerprints to the screen's size and the rows to transcript_rows. */
void draw_painter_fit(struct painter *p, int transcript_rows);
/* Line y is drawn next, blank but for what draw_text puts on it; draw_line_done ends it (on
 * ncurses' screen, or written by tether itself while the band is: band.h). */
void draw_clear_line(int y);
void draw_line_done(void);
/* Rows a notice takes wrapped at width (at least one). */
int draw_notice_rows(const char *notice, int width);
/* Draws s[0..n) from column x of line y, not past column maxx; returns the next column. */
int draw_text(int y, int x, int maxx, const char *s, size_t n, const struct look *l);
/* draw_text with the ASCII-case-insensitive matches of needle[0..m) in reverse video when
 * they are the current match, else underlined (both plain attributes: NO_COLOR shows them). */
int draw_highlighted(int y, int x, int maxx, const char *s, size_t n, const struct look *l,
		     const char *needle, size_t m, bool current);

enum { DRAW_LINE_SEGMENTS = 40 };

struct draw_segment {
	const char *s;
	size_t n;
	struct look look;
};

/* A screen line that is not a transcript row: a few runs of text, optionally filled to the
 * edge with one look (the status line's bar). */
struct draw_line {
	struct draw_segment seg[DRAW_LINE_SEGMENTS];
	int nseg;
	bool fill;
	struct look fill_look;
};

/* Appends a run of text (borrowed until the line is painted). */
void draw_line_add(struct draw_line *l, const char *s, size_t n, struct look look);
void draw_line_puts(struct draw_line *l, const char *s, struct look look);
/* Paints the line at y unless it is what the last frame drew there. */
void draw_line_paint(struct painter *p, int y, const struct draw_line *l);

#endif
