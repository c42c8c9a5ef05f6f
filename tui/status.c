#include "status.h"
#include "render.h"

#include <stdio.h>
#include <string.h>

enum { STATUS_SEGMENTS = 7, STATUS_SEGMENT_BYTES = 256 };

/* One part of the line; a lower rank is kept longer when the width runs out. */
struct segment {
	int rank;
	char full[STATUS_SEGMENT_BYTES];
	char brief[STATUS_SEGMENT_BYTES];
};

static const char separator[] = " · ";

void status_put_count(struct buf *out, int64_t n)
{
	char digits[32];
	if (n < 0) {
		buf_putc(out, '-');
		n = -n;
	}
	int len = snprintf(digits, sizeof digits, "%lld", (long long)n);
	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			buf_putc(out, ',');
		buf_putc(out, digits[i]);
	}
}

void status_put_fitted(struct buf *out, const char *s, size_t n, int width)
{
	if (width <= 0)
		return;
	if (text_width(s, n) <= width) {
		buf_append(out, s, n);
		return;
	}
	size_t at = 0;
	int used = 0;
	while (at < n) {
		int w;
		size_t g = grapheme_next(s + at, n - at, &w);
		if (!g || used + w > width - 1)
			break;
		used += w;
		at += g;
	}
	buf_append(out, s, at);
	buf_puts(out, "…");
}

static int64_t seconds_left(const struct controller_status *st, int64_t now_us)
{
	int64_t left = st->retry_at_us - now_us;
	return left <= 0 ? 0 : (left + 999999) / 1000000;
}

static void set(struct segment *s, int rank, const char *full, const char *brief)
{
	s->rank = rank;
	snprintf(s->full, sizeof s->full, "%s", full);
	snprintf(s->brief, sizeof s->brief, "%s", brief ? brief : full);
}

static void connection_segment(const struct controller_status *st, int64_t now_us,
			       struct segment *s)
{
	char full[STATUS_SEGMENT_BYTES], brief[STATUS_SEGMENT_BYTES];
	switch (st->connection) {
	case SESSION_CONNECTING:
		if (st->attempt > 1 && st->last_failure)
			snprintf(full, sizeof full, "connecting (attempt %d; last: %s)", st->attempt,
				 st->last_failure);
		else if (st->attempt > 1)
			snprintf(full, sizeof full, "connecting (attempt %d)", st->attempt);
		else
			snprintf(full, sizeof full, "connecting…");
		snprintf(brief, sizeof brief, "conn…");
		break;
	case SESSION_OPEN:
		snprintf(full, sizeof full, "connected, waiting for sync");
		snprintf(brief, sizeof brief, "open");
		break;
	case SESSION_SYNCED:
		if (st->syncing) {
			struct buf b;
			buf_init(&b);
			buf_puts(&b, "syncing ");
			status_put_count(&b, st->has_cursor && st->cursor > 0 ? st->cursor : 0);
			if (st->sync_through_seq >= 0) {
				buf_putc(&b, '/');
				status_put_count(&b, st->sync_through_seq);
			}
			snprintf(full, sizeof full, "%s", buf_cstr(&b));
			snprintf(brief, sizeof brief, "%s", buf_cstr(&b) + strlen("syncing "));
			buf_fini(&b);
		} else {
			snprintf(full, sizeof full, "connected");
			snprintf(brief, sizeof brief, "live");
		}
		break;
	case SESSION_CLOSED:
		if (st->last_close_code)
			snprintf(full, sizeof full, "disconnected (%d)", st->last_close_code);
		else
			snprintf(full, sizeof full, "disconnected");
		snprintf(brief, sizeof brief, "down");
		break;
	case SESSION_RECONNECTING:
		snprintf(full, sizeof full, "reconnecting in %llds (attempt %d)%s%s",
			 (long long)seconds_left(st, now_us), st->attempt + 1,
			 st->last_failure ? ": " : "", st->last_failure ? st->last_failure : "");
		snprintf(brief, sizeof brief, "retry %llds", (long long)seconds_left(st, now_us));
		break;
	case SESSION_GAVE_UP:
		snprintf(full, sizeof full, "gave up reconnecting%s%s", st->last_failure ? ": " : "",
			 st->last_failure ? st->last_failure : "");
		snprintf(brief, sizeof brief, "gave up");
		break;
	case SESSION_FAILED:
	default:
		/* what failed in words, not a close code alone (the notice says the rest) */
		snprintf(full, sizeof full, "connection failed%s%s", st->last_failure ? ": " : "",
			 st->last_failure ? st->last_failure : "");
		snprintf(brief, sizeof brief, "failed");
		break;
	}
	set(s, 0, full, brief);
}

/* Fills segs in display order; returns how many. */
static size_t segments(const struct controller_status *st, int64_t now_us, int width,
		       struct segment *segs)
{
	size_t n = 0;
	char tmp[STATUS_SEGMENT_BYTES];
	const char *name = st->title && *st->title ? st->title : st->conversation_id;
	if (name && *name) {
		struct buf b;
		buf_init(&b);
		status_put_fitted(&b, name, strlen(name), width / 3 > 12 ? width / 3 : 12);
		struct buf s;
		buf_init(&s);
		status_put_fitted(&s, name, strlen(name), 12);
		set(&segs[n++], 3, buf_cstr(&b), buf_cstr(&s));
		buf_fini(&b);
		buf_fini(&s);
	}
	connection_segment(st, now_us, &segs[n++]);
	if (st->stalled_streams) {
		if (st->stalled_streams > 1)
			snprintf(tmp, sizeof tmp, "⚠ %zu stalled", st->stalled_streams);
		else
			snprintf(tmp, sizeof tmp, "⚠ stalled");
		set(&segs[n++], 1, tmp, "⚠");
	}
	if (st->pending_messages) {
		snprintf(tmp, sizeof tmp, "%zu queued", st->pending_messages);
		char brief[32];
		snprintf(brief, sizeof brief, "%zuq", st->pending_messages);
		set(&segs[n++], 1, tmp, brief);
	}
	if (st->awaiting_confirmation) {
		set(&segs[n++], 1, "awaiting confirmation (Ctrl-O)", "confirm? ^O");
	} else if (st->execution_status && *st->execution_status) {
		snprintf(tmp, sizeof tmp, "%s", st->execution_status);
		for (char *p = tmp; *p; p++)
			if (*p == '_')
				*p = ' ';
		set(&segs[n++], 2, tmp, NULL);
	}
	if (st->has_cursor && st->cursor >= 0) {
		struct buf b;
		buf_init(&b);
		buf_puts(&b, "seq ");
		status_put_count(&b, st->cursor);
		set(&segs[n++], 4, buf_cstr(&b), NULL);
		buf_fini(&b);
	}
	if (st->server && *st->server)
		set(&segs[n++], 5, st->server, NULL);
	return n;
}

static int total_width(const struct segment *segs, const bool *keep, size_t n, bool brief)
{
	int w = 0, parts = 0;
	for (size_t i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		const char *s = brief ? segs[i].brief : segs[i].full;
		w += text_width(s, strlen(s));
		parts++;
	}
	return w + (parts > 1 ? (parts - 1) * 3 : 0);
}

void status_format(const struct controller_status *st, int64_t now_us, int width,
		   struct buf *out)
{
	struct segment segs[STATUS_SEGMENTS];
	bool keep[STATUS_SEGMENTS];
	size_t n = segments(st, now_us, width, segs);
	for (size_t i = 0; i < n; i++)
		keep[i] = true;
	bool brief = false;
	while (total_width(segs, keep, n, false) > width) {
		size_t drop = n;
		for (size_t i = 0; i < n; i++)
			if (keep[i] && segs[i].rank > 1 && (drop == n || segs[i].rank >= segs[drop].rank))
				drop = i;
		if (drop == n) {
			brief = true;
			break;
		}
		keep[drop] = false;
	}
	struct buf line;
	buf_init(&line);
	for (size_t i = 0, parts = 0; i < n; i++) {
		if (!keep[i])
			continue;
		if (parts++)
			buf_puts(&line, separator);
		buf_puts(&line, brief ? segs[i].brief : segs[i].full);
	}
	status_put_fitted(out, buf_cstr(&line), line.len, width);
	buf_fini(&line);
}

int64_t status_next_change(const struct controller_status *st, int64_t now_us)
{
	if (st->connection != SESSION_RECONNECTING || st->retry_at_us <= now_us)
		return -1;
	int64_t left = st->retry_at_us - now_us;
	int64_t into = left % 1000000;
	return into ? into : 1000000;
}
