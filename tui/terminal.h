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
/* True when painting may use colours. */
bool terminal_colors(void);
/* Leaves curses mode for a suspend (Ctrl-Z); terminal_resume re-enters it. */
void terminal_suspend(void);
void terminal_resume(void);
/* Takes the terminal's current size from the kernel (after SIGWINCH). */
void terminal_resize(void);
/* Writes bytes straight to the terminal, between frames (OSC 52). Returns 0 or -1. */
int terminal_write_raw(const char *s, size_t n);

#endif
