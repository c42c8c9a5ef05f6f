/* The clean boundary for streamed text: one sanitizer and one masker per stream, in that
 * order, so that an escape sequence or a secret split across deltas is caught whole. */
#include "clean.h"

void clean_stream_init(struct clean_stream *cs, const struct mask_set *masks)
{
	cs->masks = masks;
	sanitizer_init(&cs->san);
	if (masks)
		mask_stream_init(&cs->mask, masks);
}

void clean_stream_fini(struct clean_stream *cs)
{
	if (cs->masks)
		mask_stream_fini(&cs->mask);
}

void clean_stream_reset(struct clean_stream *cs)
{
	clean_stream_fini(cs);
	clean_stream_init(cs, cs->masks);
}

/* Masks the sanitized text in scratch onto out. */
static void mask_onto(struct clean_stream *cs, const struct buf *scratch, struct buf *out)
{
	const char *text = scratch->data ? scratch->data : "";
	if (cs->masks)
		mask_stream_feed(&cs->mask, text, scratch->len, out);
	else
		buf_append(out, text, scratch->len);
}

void clean_stream_feed(struct clean_stream *cs, const char *in, size_t n, struct buf *scratch,
		       struct buf *out)
{
	buf_clear(scratch);
	sanitizer_feed(&cs->san, in, n, scratch);
	mask_onto(cs, scratch, out);
}

void clean_stream_flush(struct clean_stream *cs, struct buf *scratch, struct buf *out)
{
	buf_clear(scratch);
	sanitizer_flush(&cs->san, scratch);
	mask_onto(cs, scratch, out);
	if (cs->masks)
		mask_stream_flush(&cs->mask, out);
}
