/* A key asked for before the screen is taken: the server answers 401 at once to a REST call
 * without one (or with a refused one), where its socket would wait for the first-message auth
 * to time out. */
#ifndef TETHER_KEY_PROMPT_H
#define TETHER_KEY_PROMPT_H

#include "options.h"
#include "net.h"
#include "keyring.h"

/* When the server of o refuses a request with *api_key (NULL: none found), asks for the key on
 * the terminal (echo off) until the server takes one (three tries), adds it to masks, and
 * offers to store it. *api_key is then the last key given (the caller frees it). Any other
 * answer of the server, no terminal or an empty line at the first question leaves *api_key as
 * it was. The requests run on loop (the run's own, before it starts). */
void key_prompt(const struct options *o, struct loop *loop, struct mask_set *masks,
		char **api_key);

#endif
