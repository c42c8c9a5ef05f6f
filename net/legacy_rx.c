/* The legacy socket's frames turned into the session socket's (issue 26): a sync at the
 * first frame of each connection, then the REST tail, then every event once (by id) as a
 * durable with the next seq of this client's own count; the full_state snapshot as a
 * transient; StreamingDeltaEvents, which carry no item of their own, as one preview stream
 * that the agent's next durable event retires (a delta dated before it is late: dropped);
 * ServerErrorEvent as an error frame. */
#include "legacy_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Durable ids remembered: the REST tail and a since-resend stay far below this. */
#define LEGACY_SEEN 4096

void legacy_rx_init(struct legacy_rx *l)
{
	memset(l, 0, sizeof *l);
	recent_ids_init(&l->seen, LEGACY_SEEN);
}

static void tail_clear(struct legacy_rx *l)
{
	for (size_t i = 0; i < l->tail_len; i++)
		free(l->tail[i]);
	l->tail_len = 0;
}

void legacy_rx_fini(struct legacy_rx *l)
{
	tail_clear(l);
	free(l->tail);
	recent_ids_fini(&l->seen);
	memset(l, 0, sizeof *l);
}

void legacy_rx_connect(struct legacy_rx *l)
{
	l->synced = false;
	l->preview_open = false;        /* the session discards open streams at each connect */
}

void legacy_rx_tail_push(struct legacy_rx *l, const char *json)
{
	if (l->tail_len == l->tail_cap) {
		l->tail_cap = l->tail_cap ? 2 * l->tail_cap : 16;
		l->tail = xrealloc(l->tail, l->tail_cap * sizeof *l->tail);
	}
	l->tail[l->tail_len++] = xstrdup(json);
}

static void keep_ts(char *dst, size_t cap, const char *ts)
{
	if (ts && strlen(ts) < cap)
		memcpy(dst, ts, strlen(ts) + 1);
}

void legacy_rx_known(struct legacy_rx *l, const char *id, const char *timestamp)
{
	if (id)
		recent_ids_add(&l->seen, id);
	keep_ts(l->last_ts, sizeof l->last_ts, timestamp);
}

/* A timestamp at or before the last one that retired the preview (same server clock, same
 * isoformat: the strings compare as the times do). */
static bool is_late(const struct legacy_rx *l, const char *ts)
{
	return l->retired_ts[0] && ts && strcmp(ts, l->retired_ts) <= 0;
}

static void retire_at(struct legacy_rx *l, const char *ts)
{
	if (ts && (!l->retired_ts[0] || strcmp(ts, l->retired_ts) > 0))
		keep_ts(l->retired_ts, sizeof l->retired_ts, ts);
}

static int emit_buf(const struct legacy_ops *ops, struct buf *b)
{
	int rc = ops->emit(ops->ctx, b->data ? b->data : "", b->len);
	buf_clear(b);
	return rc;
}

/* An error frame: code and detail as the session socket's error frame carries them. */
static void put_error(struct buf *b, const char *code, const char *detail)
{
	buf_puts(b, "{\"type\":\"error\",\"code\":");
	json_append_string(b, code, strlen(code));
	buf_puts(b, ",\"detail\":");
	json_append_string(b, detail, strlen(detail));
	buf_putc(b, '}');
}

/* The preview ends: its text was provisional, the durable (or nothing) replaces it. */
static int preview_end(struct legacy_rx *l, const char *reason, const char *ts,
		       const struct legacy_ops *ops)
{
	retire_at(l, ts);
	if (!l->preview_open)
		return 0;
	l->preview_open = false;
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "{\"type\":\"item_aborted\",\"item_id\":\"%s\",\"attempt\":1,\"reason\":\"%s\"}",
		   l->preview_id, reason);
	int rc = emit_buf(ops, &b);
	buf_fini(&b);
	return rc;
}

static int delta_out(struct legacy_rx *l, const char *text, const char *kind,
		     const struct legacy_ops *ops, struct buf *b)
{
	if (!text)
		return 0;
	buf_printf(b, "{\"type\":\"delta\",\"item_id\":\"%s\",\"attempt\":1,\"order\":%lld,"
		   "\"kind\":\"%s\",\"content\":", l->preview_id, (long long)l->preview_order++, kind);
	json_append_string(b, text, strlen(text));
	buf_putc(b, '}');
	return emit_buf(ops, b);
}

static int on_delta(struct legacy_rx *l, const struct legacy_peek *p,
		    const struct legacy_ops *ops)
{
	if (is_late(l, p->timestamp) || (!p->content && !p->reasoning))
		return 0;
	struct buf b;
	buf_init(&b);
	int rc = 0;
	if (!l->preview_open) {
		l->preview_open = true;
		l->preview_order = 0;
		snprintf(l->preview_id, sizeof l->preview_id, "preview-%u", ++l->preview_serial);
		buf_printf(&b, "{\"type\":\"item_started\",\"item_id\":\"%s\",\"attempt\":1}",
			   l->preview_id);
		rc = emit_buf(ops, &b);
	}
	if (!rc)
		rc = delta_out(l, p->reasoning, "reasoning", ops, &b);
	if (!rc)
		rc = delta_out(l, p->content, "text", ops, &b);
	buf_fini(&b);
	return rc;
}

/* An event: once per id, as a durable with the next seq; an agent's retires the preview. */
static int on_event(struct legacy_rx *l, const struct legacy_peek *p, const char *json,
		    size_t len, const struct legacy_ops *ops)
{
	if (p->id && recent_ids_has(&l->seen, p->id))
		return 0;
	if (p->from_agent || p->ends_run) {
		if (preview_end(l, p->from_agent ? "replaced" : "ended", p->timestamp, ops) < 0)
			return -1;
	}
	if (p->id)
		recent_ids_add(&l->seen, p->id);
	keep_ts(l->last_ts, sizeof l->last_ts, p->timestamp);
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "{\"type\":\"durable\",\"seq\":%lld,\"event\":",
		   (long long)(ops->cursor(ops->ctx) + 1));
	buf_append(&b, json, len);
	buf_putc(&b, '}');
	int rc = emit_buf(ops, &b);
	buf_fini(&b);
	return rc;
}

static int on_other(struct legacy_rx *l, const struct legacy_peek *p, const char *json,
		    size_t len, const struct legacy_ops *ops)
{
	struct buf b;
	buf_init(&b);
	if (p->ends_run && preview_end(l, "ended", p->timestamp, ops) < 0) {
		buf_fini(&b);
		return -1;
	}
	if (p->cls == LEGACY_SNAPSHOT) {
		buf_puts(&b, "{\"type\":\"transient\",\"event\":");
		buf_append(&b, json, len);
		buf_putc(&b, '}');
	} else {
		put_error(&b, p->code ? p->code : "server_error", p->detail ? p->detail : "");
	}
	int rc = emit_buf(ops, &b);
	buf_fini(&b);
	return rc;
}

static int feed_one(struct legacy_rx *l, const char *json, size_t len,
		    const struct legacy_ops *ops)
{
	struct legacy_peek p;
	struct codec_error err;
	if (legacy_peek_decode(json, len, &p, &err) < 0) {
		struct buf b;
		buf_init(&b);
		put_error(&b, "decode_error", err.message);
		int rc = emit_buf(ops, &b);
		buf_fini(&b);
		return rc;
	}
	int rc;
	if (p.cls == LEGACY_DELTA)
		rc = on_delta(l, &p, ops);
	else if (p.cls == LEGACY_EVENT)
		rc = on_event(l, &p, json, len, ops);
	else
		rc = on_other(l, &p, json, len, ops);
	legacy_peek_fini(&p);
	return rc;
}

/* The connection is up: the server may send nothing (its snapshot push gives up after 0.5 s
 * and an idle log resends nothing), so the sync cannot wait for a frame. */
static int sync_out(struct legacy_rx *l, const struct legacy_ops *ops)
{
	int64_t cursor = ops->cursor(ops->ctx);
	struct buf b;
	buf_init(&b);
	l->synced = true;
	buf_printf(&b, "{\"type\":\"sync\",\"from_seq\":%lld,\"through_seq\":%lld}",
		   (long long)(cursor + 1), (long long)(cursor + (int64_t)l->tail_len));
	int rc = emit_buf(ops, &b);
	buf_fini(&b);
	for (size_t i = 0; !rc && i < l->tail_len; i++)
		rc = feed_one(l, l->tail[i], strlen(l->tail[i]), ops);
	tail_clear(l);
	return rc;
}

int legacy_rx_open(struct legacy_rx *l, const struct legacy_ops *ops)
{
	return l->synced ? 0 : sync_out(l, ops);
}

int legacy_rx_feed(struct legacy_rx *l, const char *json, size_t len,
		   const struct legacy_ops *ops)
{
	if (!l->synced && sync_out(l, ops) < 0)
		return -1;
	return feed_one(l, json, len, ops);
}
