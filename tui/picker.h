/* Without a conversation id, in a terminal: pick one of the server's conversations. */
#ifndef TETHER_PICKER_H
#define TETHER_PICKER_H

#include "net.h"

/* Tries to open conversation id (the picker's Enter): 0, or -1 with why in words in why.
 * While it waits, a lone Esc or a Ctrl-C read from input_fd (the terminal) gives up. */
typedef int (*picker_open_fn)(void *ctx, const char *id, int input_fd, struct buf *why);

/* Shows items full-screen on the TUI's terminal, keys and drawing, until the user picks one
 * that try_open (NULL: any) opens (*chosen its index) or quits (*chosen -1); a pick that
 * does not open shows why and the list stays. Typing filters by title and id. A SIGINT,
 * SIGTERM or SIGHUP quits too and sets *signo (else 0). Returns 0, or -1 with a message in
 * err when the terminal cannot be used. */
int picker_choose(const char *server, const struct conversation_info *items, size_t count,
		  bool color, picker_open_fn try_open, void *ctx, long *chosen, int *signo,
		  struct buf *err);

#endif
