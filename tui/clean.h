/* The one boundary every output crosses: server (or any outside) text is sanitized, then
 * masked, so an escape sequence inside a secret cannot smuggle it past the masker. */
#ifndef TETHER_CLEAN_H
#define TETHER_CLEAN_H

#include "keyring.h"

/* Appends in[0..n) to out sanitized and then masked with masks (NULL: sanitized only).
 * scratch holds the sanitized copy and is reused between calls. */
void clean_text(const struct mask_set *masks, const char *in, size_t n, struct buf *scratch,
		struct buf *out);

#endif
