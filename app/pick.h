/* Picking a conversation when none was named. */
#ifndef TETHER_PICK_H
#define TETHER_PICK_H

#include "options.h"
#include "net.h"
#include "keyring.h"

/* No conversation id in a terminal: lists the server's conversations and lets the user pick
 * one the server answers for; *id is the pick (allocated) or NULL. Returns the exit code. */
int pick_conversation(const struct options *o, loop_log_fn log, const struct mask_set *masks,
		      const char *api_key, char **id);

#endif
