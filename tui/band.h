/* band: the screen written to the terminal by tether itself while no layer is open, cell by
 * changed cell, rather than through ncurses' update; ncurses gets it back, whole, for any
 * other frame. */
#ifndef TETHER_BAND_H
#define TETHER_BAND_H

#include <curses.h>
#include <stdbool.h>

/* Looks at what the terminal can do (after it opened; ncurses writes it at out_fd): tether
 * writes the screen itself only on a terminal with a scroll region, cursor save/restore and
 * clear-to-end-of-line, in a UTF-8 locale. Starts knowing nothing of what is on it. */
void band_init(int out_fd);
/* Forgets the sequences of looks sent before (the colour pairs changed). */
void band_forget_looks(void);
/* Whether a frame may write lines 0..rows-1 itself (the terminal can, and ncurses has no
 * clear of the whole screen pending). */
bool band_possible(int rows);
/* Whether tether wrote lines 0..rows-1 at cols columns itself in the last frame (when it
 * did not, or at another size, band_release comes first: ncurses' copy of them is stale). */
bool band_holds(int rows, int cols);
/* Starts this frame's writing of lines 0..rows-1 at cols columns. A size other than the last
 * frame's starts from cells not known. */
void band_begin(int rows, int cols);
/* Whether band_begin started a frame that band_end has not ended. */
bool band_writing(void);
/* Moves lines 0..n-1 (the transcript's) up by k (k < 0: down) on the terminal, in a scroll
 * region; false when it cannot. */
bool band_scroll(int n, int k);
/* Line y is drawn next: blank but for the cells band_put_cell gives it. */
void band_line_begin(int y);
/* A cell of the line being drawn: the characters cell[0..k) (the first one of width w, the
 * rest joining it) at column x. */
void band_put_cell(int x, int w, const wchar_t *cell, int k, attr_t a, short pair);
/* Printable ASCII s[0..n) at columns x.., a cell each: band_put_cell's work for the common
 * case, without decoding. */
void band_put_ascii(int x, const char *s, size_t n, attr_t a, short pair);
/* Sends what differs between the line drawn and what the terminal shows there. */
void band_line_end(void);
/* Sends the frame's bytes, in one write, ending at normal attributes with the cursor at
 * cursor_y, cursor_x (cursor_y < 0: where the writing ended). */
void band_end(int cursor_y, int cursor_x);
/* Gives the screen back to ncurses: the cursor goes back where ncurses left it, its window's
 * lines are blanked and marked as unknown on the screen, so that its next update draws them
 * whole. Nothing when ncurses has them already. */
void band_release(void);
/* Frees the band's storage. */
void band_fini(void);
/* True once after band_release took the band back: the painter must draw every line of it
 * again. */
bool band_take_released(void);

#endif
