/* Without a conversation id, in a terminal: pick one of the server's conversations. */
#ifndef TETHER_PICKER_H
#define TETHER_PICKER_H

#include "net.h"

/* Shows items full-screen on the TUI's terminal, keys and drawing, until the user picks one
 * (*chosen its index) or quits (*chosen -1). A SIGINT, SIGTERM or SIGHUP quits too and sets
 * *signo (else 0). Returns 0, or -1 with a message in err when the terminal cannot be used. */
int picker_choose(const char *server, const struct conversation_info *items, size_t count,
		  bool color, long *chosen, int *signo, struct buf *err);

#endif
