/* terminal: taking over the terminal with ncurses and giving it back on every way out —
 * quit, error, suspend, fatal signal and exit(). One terminal per process. */
#ifndef TETHER_TERMINAL_H
#define TETHER_TERMINAL_H

#include "base.h"

/* Whether $TERM names a terminal the interface can be drawn on; -1 with a one-line message
 * in err (suggesting --headless) when not. */
int terminal_check(struct buf *err);
/* Opens the terminal (stdin/stdout when both are terminals, else /dev/tty) in raw, no-echo
 * mode (keys are read from terminal_input_fd), without mouse capture, with bracketed paste
 * on and colours when color is true and NO_COLOR is not set. Returns 0, or -1 with a
 * message in err. */
int terminal_open(bool color, struct buf *err);
/* Gives the terminal back as it was (idempotent; also run at exit and on fatal signals). */
void terminal_close(void);
/* The descriptor keys are read from. */
int terminal_input_fd(void);
/* The descriptor ncurses writes the screen to; -1 while the terminal is not open. */
int terminal_output_fd(void);
/* True when painting may use colours. */
bool terminal_colors(void);
/* Leaves curses mode for a suspend (Ctrl-Z); terminal_resume re-enters it. */
void terminal_suspend(void);
void terminal_resume(void);
/* Turns the terminal's mouse reporting (buttons and wheel, SGR form) on or off; off again on
 * every way out and on suspend. */
void terminal_set_mouse(bool on);
/* The terminfo string capability name of the terminal set up, NULL when it has none. */
const char *terminal_cap(const char *name);
/* fn runs before ncurses uses the whole screen again: it draws it from its window (resume,
 * resize) or leaves it (suspend, close). */
void terminal_on_repaint(void (*fn)(void));
/* Takes the terminal's current size from the kernel (after SIGWINCH). */
void terminal_resize(void);
/* Writes bytes straight to the terminal, between frames (OSC 52). Returns 0 or -1. */
int terminal_write_raw(const char *s, size_t n);

/* Longest title or notification text kept (bytes, cut at a character). */
enum { TERMINAL_TITLE_BYTES = 200 };
/* Sets the terminal's title (control characters left out); nothing when the terminal has no
 * title. The title from before tether is put back on every way out and on suspend. */
void terminal_set_title(const char *title);
/* Rings the terminal's bell (BEL). */
void terminal_bell(void);
/* A desktop notification through the terminal: OSC 777 (rxvt, foot…) when osc777, else
 * OSC 9 (iTerm2, kitty…); inside tmux wrapped for passthrough. */
void terminal_notify(bool osc777, const char *title, const char *body);
/* The bytes of terminal_set_title between on and off (exposed for tests). */
void terminal_title_bytes(const char *on, const char *off, const char *title, struct buf *out);
/* The bytes of terminal_notify (exposed for tests). */
void terminal_notify_bytes(bool osc777, bool tmux, const char *title, const char *body,
			   struct buf *out);
/* True when TERM names a terminal of xterm's family (or tmux, screen) that takes OSC 2. */
bool terminal_title_xterm_like(const char *term_name);
/* Appends the control sequence seq (n bytes) to out: as it is, or under tmux wrapped for its
 * passthrough (DCS tmux; each ESC doubled; ST). */
void terminal_passthrough(bool tmux, const char *seq, size_t n, struct buf *out);

#endif
