/* The session's receive path: messages reassembled from fragments (up to the size limit),
 * decoded, and durable frames delivered once, in order, with the cursor moved first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

/* A buffer grown by a big message is given back rather than kept. */
#define RX_KEEP_CAPACITY ((size_t)256 * 1024)

/* Forgets a partial message. */
void session_rx_reset(struct session *s)
{
	if (s->rx.cap > RX_KEEP_CAPACITY)
		buf_fini(&s->rx);
	else
		buf_clear(&s->rx);
	s->rx_dropping = false;
}

/* Which durable seq the frame that was too large had, if that is known: the client's own
 * limit read it from the frame (a frame it cannot read is never skipped); for the server's close 1013 (which names no frame) it is the
 * seq after the cursor only when this connection's sync said that seq exists, so replay owed
 * it next. Anything else may have been a progress frame, which never moves the cursor. */
static bool too_large_seq(const struct session *s, int64_t *seq)
{
	if (s->oversize) {
		*seq = s->oversize_sniff.seq;
		return s->oversize_sniff.kind == SNIFF_DURABLE && s->oversize_sniff.has_seq &&
		       *seq > s->cursor;
	}
	if (s->sync_through == NO_SEQ || s->cursor >= s->sync_through)
		return false;
	*seq = s->cursor + 1;   /* cursor < sync_through: no overflow */
	return true;
}

/* protocol.md §7.3: the same durable frame too large twice at one cursor is skipped. */
void session_too_large(struct session *s)
{
	char detail[160];
	int64_t skip;

	if (!s->has_cursor || !too_large_seq(s, &skip)) {
		s->tl_valid = false;
		return;
	}
	if (s->tl_valid && s->tl_cursor == s->cursor && s->tl_seq == skip) {
		s->tl_count++;
	} else {
		s->tl_valid = true;
		s->tl_cursor = s->cursor;
		s->tl_seq = skip;
		s->tl_count = 1;
	}
	if (s->tl_count < 2)
		return;
	snprintf(detail, sizeof(detail),
		 "the event after seq %lld is too large (twice); skipped seq %lld",
		 (long long)s->cursor, (long long)skip);
	s->tl_valid = false;
	s->cursor = skip;
	if (s->last_seq < skip)
		s->last_seq = skip;
	net_log("session: %s", detail);
	if (s->h.on_bad_frame)
		s->h.on_bad_frame(s->h.ctx, "frame_too_large", detail, skip);
}

static void on_sync(struct session *s, const struct frame *f)
{
	s->phase = PHASE_SYNCED;
	s->ever_synced = true;
	s->failures = 0;
	s->synced_at = clock_now_us();
	s->sync_through = f->has_through_seq ? f->through_seq : NO_SEQ;
	s->last_failure[0] = '\0';
	if (!s->has_cursor) {
		/* --no-history: from now on this behaves as --after-seq through_seq */
		s->has_cursor = true;
		s->cursor = f->has_through_seq ? f->through_seq : -1;
	}
	/* A cursor past the log's end (a count that lied, a log that shrank): nothing is
	 * replayed, and the live events to come, at seqs up to the cursor, would be taken for
	 * ones seen. The log's real end is where this connection resumes. */
	int64_t end = f->has_through_seq ? f->through_seq : -1;
	if (!s->live_only && s->cursor > end) {
		net_log("session: the cursor %lld is past the log's end (through_seq %lld): "
			"resuming from the end", (long long)s->cursor, (long long)end);
		s->cursor = end;
	}
	session_emit(s, SESSION_SYNCED, SESSION_END_NONE, 0);
	if (s->queue_len && s->wsi)
		lws_callback_on_writable(s->wsi);
}

/* Durable frames: once per seq and per event id, in ascending seq. */
static bool durable_is_new(const struct session *s, const struct frame *f)
{
	/* A live-only connection also gets buffered events at or below through_seq
	 * (protocol.md §1.6 step 7): those are new unless already seen. */
	if (s->live_only ? f->seq <= s->last_seq : (s->has_cursor && f->seq <= s->cursor))
		return false;
	return !f->event.id || !recent_ids_has(&s->seen, f->event.id);
}

void session_rx_deliver(struct session *s, const char *json, size_t len)
{
	struct codec_error err;
	struct frame f;

	int rc = frame_decode(json, len, &f, &err);
	if (s->h.on_raw)
		s->h.on_raw(s->h.ctx, json, len, rc == 0 ? &f : NULL);
	if (rc) {
		net_log("session: a frame did not decode: %s", err.message);
		if (s->h.on_bad_frame)
			s->h.on_bad_frame(s->h.ctx, "decode_error", err.message, -1);
		return;
	}
	if (f.type == FRAME_SYNC) {
		on_sync(s, &f);
	} else if (f.type == FRAME_DURABLE) {
		bool fresh = durable_is_new(s, &f);

		/* a copy of a delivered event (same id, new seq) still moves the cursor */
		if (fresh || (s->has_cursor && f.seq > s->cursor)) {
			if (!s->has_cursor || f.seq > s->cursor)
				s->cursor = f.seq;
			s->has_cursor = true;
			if (s->last_seq < f.seq)
				s->last_seq = f.seq;
		}
		if (!fresh) {
			frame_fini(&f);
			return;
		}
		s->progressed = true;
		if (f.event.id)
			recent_ids_add(&s->seen, f.event.id);
	}
	if (s->h.on_frame)
		s->h.on_frame(s->h.ctx, &f);
	frame_fini(&f);
}

/* A message over the limit: drop it. One that cannot move the cursor is simply reported;
 * one that might be durable ends the connection, to be resumed (and skipped if it
 * happens again at the same cursor). Returns -1 to close. */
static int on_oversize(struct session *s, struct lws *wsi)
{
	char detail[160];

	/* The events socket has no seq to skip at: an event over the limit is said and left. */
	if (s->oversize_sniff.kind == SNIFF_OTHER || s->proto == NET_PROTOCOL_EVENTS) {
		if (s->proto == NET_PROTOCOL_EVENTS)
			snprintf(detail, sizeof(detail), "an event over %zu bytes was dropped",
				 s->max_message);
		else
			snprintf(detail, sizeof(detail), "a %s frame over %zu bytes was dropped",
				 s->oversize_sniff.type, s->max_message);
		net_log("session: %s", detail);
		if (s->h.on_bad_frame)
			s->h.on_bad_frame(s->h.ctx, "frame_too_large", detail, -1);
		return 0;
	}
	s->oversize = true;
	s->close_code = 0;
	snprintf(detail, sizeof(detail), "a message over %zu bytes", s->max_message);
	session_set_reason(s, detail, strlen(detail));
	lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)"too large", 9);
	session_conn_end(s, wsi, true);
	return -1;
}

int session_on_receive(struct session *s, struct lws *wsi, const char *in, size_t len)
{
	bool final = lws_is_final_fragment(wsi);

	lws_validity_confirmed(wsi);
	session_stall_rearm(s);
	if (lws_is_first_fragment(wsi))
		session_rx_reset(s);
	if (!s->rx_dropping && s->rx.len + len > s->max_message) {
		char head[128];
		size_t n = s->rx.len < sizeof(head) ? s->rx.len : sizeof(head);
		size_t m = len < sizeof(head) - n ? len : sizeof(head) - n;

		if (n)
			memcpy(head, s->rx.data, n);
		if (m)
			memcpy(head + n, in, m);
		sniff_frame(head, n + m, &s->oversize_sniff);
		buf_fini(&s->rx);
		s->rx_dropping = true;
	}
	if (s->rx_dropping) {
		if (!final)
			return 0;
		s->rx_dropping = false;
		return on_oversize(s, wsi);
	}
	buf_append(&s->rx, in, len);
	if (!final)
		return 0;
	if (s->proto == NET_PROTOCOL_EVENTS)
		legacy_on_message(s, s->rx.data ? s->rx.data : "", s->rx.len);
	else
		session_rx_deliver(s, s->rx.data ? s->rx.data : "", s->rx.len);
	if (s->wsi != wsi)
		return -1;      /* a handler stopped the session */
	session_rx_reset(s);
	return 0;
}
