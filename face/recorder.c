/* The record is data: each frame as received with every string sanitized and masked, its
 * time since the start and its connection's number. */
#include "recorder.h"
#include "clean.h"
#include "exit_code.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct recorder {
	FILE *f;
	const char *path;
	const struct mask_set *masks;
	struct buf scratch;             /* clean_text's sanitized copy */
	struct controller *c;
	int64_t started_us;
	int connection_number;
};

static void clean(struct recorder *r, const char *s, size_t len, struct buf *out)
{
	clean_text(r->masks, s, len, &r->scratch, out);
}

/* json_rewrite_strings callback: every string of a frame crosses the same boundary. */
static void clean_json_string(void *ctx, const char *s, size_t len, struct buf *out)
{
	clean(ctx, s, len, out);
}

/* A line that cannot be written ends the run (exit 1), said once. */
static void record_line(struct recorder *r, const char *frame_json, size_t len)
{
	if (!r->f)
		return;
	double t = (double)(clock_now_us() - r->started_us) / 1e6;
	errno = 0;
	fprintf(r->f, "{\"t\":%.6f,\"conn\":%d,\"frame\":", t, r->connection_number);
	fwrite(frame_json, 1, len, r->f);
	fputs("}\n", r->f);
	if (fflush(r->f) == 0 && !ferror(r->f))
		return;
	int err = errno ? errno : EIO;
	fclose(r->f);
	r->f = NULL;
	struct buf m;
	buf_init(&m);
	buf_printf(&m, "--record %s: cannot write: %s; the record is incomplete",
		   r->path ? r->path : "", strerror(err));
	controller_fail(r->c, buf_cstr(&m), EXIT_RUNTIME);
	buf_fini(&m);
}

static void on_connection(void *ctx, const struct session_status *st, const char *reason,
			  bool repeat)
{
	struct recorder *r = ctx;
	(void)reason;
	(void)repeat;
	if (st->state == SESSION_CONNECTING)
		r->connection_number++;
}

/* Every received frame but deltas (the controller keeps those back: masking each delta
 * frame alone would let a secret split across two deltas into the file, #15720); on_stream
 * records them as the stream's clean gives them. */
static void on_raw(void *ctx, const char *json, size_t len, const struct frame *f)
{
	struct recorder *r = ctx;
	struct codec_error err;
	(void)f;
	if (!r->f)
		return;
	struct buf masked;
	buf_init(&masked);
	if (json_rewrite_strings(json, len, clean_json_string, r, &masked, &err) == 0) {
		record_line(r, masked.data, masked.len);
	} else {
		/* Not JSON: kept as a masked string, as the fixture's replay expects. */
		struct buf cleaned;
		buf_init(&cleaned);
		clean(r, json, len, &cleaned);
		json_append_string(&masked, cleaned.data ? cleaned.data : "", cleaned.len);
		record_line(r, masked.data, masked.len);
		buf_fini(&cleaned);
	}
	buf_fini(&masked);
}

static void on_stream(void *ctx, const struct sink_stream *s)
{
	struct recorder *r = ctx;
	if (s->state != SINK_STREAM_DELTA || !r->f)
		return;
	struct buf b;
	buf_init(&b);
	frame_encode_delta(s->frame, s->item_id, s->content, s->content_len, clean_json_string, r, &b);
	record_line(r, b.data, b.len);
	buf_fini(&b);
}

static void on_destroy(void *ctx)
{
	struct recorder *r = ctx;
	if (r->f)
		fclose(r->f);
	buf_fini(&r->scratch);
	free(r);
}

static const struct sink_ops recorder_ops = {
	.connection = on_connection, .raw = on_raw, .stream = on_stream, .destroy = on_destroy,
};

struct sink recorder_create(FILE *f, const char *path, const struct mask_set *masks,
			    struct controller *c)
{
	struct recorder *r = xcalloc(1, sizeof *r);
	r->f = f;
	r->path = path;
	r->masks = masks;
	r->c = c;
	r->started_us = clock_now_us();
	buf_init(&r->scratch);
	return (struct sink){.ops = &recorder_ops, .ctx = r};
}
