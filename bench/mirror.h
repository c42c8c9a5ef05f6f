/* What the controller does with a durable frame, for benchmarks that cannot reach the
 * controller's static handlers without a socket: decode, turn the event into an item with
 * every text sanitized then masked (controller_clean), and add it to the transcript.
 * Mirrors event_to_spec/apply_event in face/controller.c. */
#ifndef TETHER_BENCH_MIRROR_H
#define TETHER_BENCH_MIRROR_H

#include "keyring.h"
#include "render.h"

/* Scratch buffers reused from one frame to the next. */
struct mirror {
	const struct mask_set *masks;
	struct buf san;
	struct buf store;
	size_t off[4];
	bool present[4];
	size_t failed;                 /* frames that did not decode */
};

/* Starts a mirror over masks (which must outlive it). */
void mirror_init(struct mirror *m, const struct mask_set *masks);
/* Frees the scratch buffers. */
void mirror_fini(struct mirror *m);
/* Decodes json[0..len) and applies it to t as the controller would (durable frames only;
 * status updates make no item). Returns true when the frame decoded. */
bool mirror_apply(struct mirror *m, struct transcript *t, const char *json, size_t len);

#endif
