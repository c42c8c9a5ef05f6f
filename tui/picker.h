/* Without a conversation id, in a terminal: pick one of the server's conversations. */
#ifndef TETHER_PICKER_H
#define TETHER_PICKER_H

#include "net.h"

/* Shows items full-screen and returns the chosen index, or -1 when the user quits. */
long picker_choose(const char *server, const struct conversation_info *items, size_t count);

#endif
