/* The one boundary every output crosses: server (or any outside) text is sanitized, then
 * masked, so an escape sequence inside a secret cannot smuggle it past the masker. */
#ifndef TETHER_CLEAN_H
#define TETHER_CLEAN_H

#include "keyring.h"

/* Appends in[0..n) to out sanitized and then masked with masks (NULL: sanitized only).
 * scratch holds the sanitized copy and is reused between calls. */
void clean_text(const struct mask_set *masks, const char *in, size_t n, struct buf *scratch,
		struct buf *out);

/* Prints "tether: " and the formatted line to stderr, sanitized and masked (masks may be
 * NULL): a diagnostic that echoes what a user or a server wrote cannot drive the terminal. */
void clean_eprintf(const struct mask_set *masks, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
