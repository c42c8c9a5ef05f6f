/* The one boundary every output crosses: server (or any outside) text is sanitized, then
 * masked, so an escape sequence inside a secret cannot smuggle it past the masker. */
#ifndef TETHER_CLEAN_H
#define TETHER_CLEAN_H

#include "keyring.h"
#include "model.h"

/* Appends in[0..n) to out sanitized and then masked with masks (NULL: sanitized only).
 * scratch holds the sanitized copy and is reused between calls. */
void clean_text(const struct mask_set *masks, const char *in, size_t n, struct buf *scratch,
		struct buf *out);

/* The same boundary for a stream of deltas: sanitize, then mask, each holding back what may
 * continue in the next delta (a split escape sequence, a secret's first bytes). */
struct clean_stream {
	const struct mask_set *masks;
	struct sanitizer san;
	struct mask_stream mask;
};

/* Starts a clean stream masking with masks (NULL: sanitized only). */
void clean_stream_init(struct clean_stream *cs, const struct mask_set *masks);
/* Frees what the stream holds (held text is dropped). */
void clean_stream_fini(struct clean_stream *cs);
/* Forgets what is held: a new attempt starts over. */
void clean_stream_reset(struct clean_stream *cs);
/* Appends the clean form of in[0..n) to out, holding back what may continue; scratch holds
 * the sanitized copy and is reused between calls. */
void clean_stream_feed(struct clean_stream *cs, const char *in, size_t n, struct buf *scratch,
		       struct buf *out);
/* Ends the stream: appends whatever is held, resolved, to out. */
void clean_stream_flush(struct clean_stream *cs, struct buf *scratch, struct buf *out);

/* Prints "tether: " and the formatted line to stderr, sanitized and masked (masks may be
 * NULL): a diagnostic that echoes what a user or a server wrote cannot drive the terminal. */
void clean_eprintf(const struct mask_set *masks, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
