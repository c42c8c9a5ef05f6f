/* external_editor: the draft written in $VISUAL or $EDITOR (Ctrl-X Ctrl-E, /edit). The editor
 * runs as a child on the terminal while the loop goes on serving the connection; the TUI
 * neither reads keys nor paints until the child has exited. */
#ifndef TETHER_EXTERNAL_EDITOR_H
#define TETHER_EXTERNAL_EDITOR_H

#include "base.h"

struct tui;

enum { EXTERNAL_EDITOR_MAX_BYTES = 8 << 20 };  /* more read back is cut, with a notice */

/* Opens the editor on the input's draft; the draft comes back when it exits successfully. */
void external_editor_open(struct tui *u);
/* A signal while the editor runs; true when it was handled here (the TUI must not act on it:
 * Ctrl-C and Ctrl-Z are the editor's, a resize is taken when the editor is done). */
bool external_editor_signal(struct tui *u, int signo);
/* tether is quitting while the editor runs: on a signal the editor is hung up, otherwise it
 * is waited for. Returns the path of the file kept when it exited successfully (to print
 * once the terminal is restored; the caller frees it), else NULL with the file removed. */
char *external_editor_fini(struct tui *u);

#endif
