#include "status.h"
#include "render.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { STATUS_SEGMENTS = 13, STATUS_SEGMENT_BYTES = 256 };

/* The words of the status line, said once: every width uses these and only drops parts. */
static const char word_connecting[] = "connecting";
static const char word_live[] = "live";
static const char word_syncing[] = "syncing";
static const char word_reconnecting[] = "reconnecting";
static const char word_offline[] = "offline";
static const char hint_reconnect[] = "F5 reconnects";
static const char hint_answer[] = "Ctrl-O to answer";
static const char hint_interrupt[] = "Esc interrupts";
/* Braille dots turning: one column each in every font that has them. */
static const char *const spinner[] = { "⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏" };
enum { SPINNER_FRAMES = 10, SPINNER_STEP_US = 100000 };

/* One part of the line; a higher rank is dropped first when the width runs out. An attached
 * part continues the one before it in parentheses instead of after a separator. */
struct segment {
	int rank;
	bool attached;
	char text[STATUS_SEGMENT_BYTES];
};

static const char separator[] = " · ";
enum { SEPARATOR_COLS = 3, ATTACHED_COLS = 3 }; /* " · ", and " (" with ")" */

/* Appends t to a segment's text, as much as fits (a whole character at the cut). */
static void seg_puts(char *text, const char *t)
{
	size_t at = strlen(text);
	cstr_append_fitted(text, STATUS_SEGMENT_BYTES, &at, t, strlen(t));
}

void status_put_count(struct buf *out, int64_t n)
{
	char digits[32];
	int len = decimal_i64(digits, n), sign = digits[0] == '-';
	for (int i = 0; i < len; i++) {
		if (i > sign && (len - i) % 3 == 0)
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

void status_put_new_below(struct buf *out, size_t n)
{
	status_put_count(out, (int64_t)n);
	buf_puts(out, n == 1 ? " new line below" : " new lines below");
}

static int64_t seconds_left(const struct controller_status *st, int64_t now_us)
{
	int64_t left = st->retry_at_us - now_us;
	return left <= 0 ? 0 : (left + 999999) / 1000000;
}

/* The run status is the server's current one: live and past the replay. */
static bool agent_current(const struct controller_status *st)
{
	return st->connection == SESSION_SYNCED && !st->syncing && st->caught_up;
}

const char *status_connection_word(const struct controller_status *st)
{
	switch (st->connection) {
	case SESSION_CONNECTING:
	case SESSION_OPEN:
		return word_connecting;
	case SESSION_SYNCED:
		return st->syncing ? word_syncing : word_live;
	case SESSION_RECONNECTING:
		return word_reconnecting;
	case SESSION_CLOSED:
	case SESSION_GAVE_UP:
	case SESSION_FAILED:
	default:
		return word_offline;
	}
}

const char *status_agent_word(const struct controller_status *st)
{
	if (st->awaiting_confirmation)
		return "needs confirmation";
	switch (st->run_status) {
	case RUN_STATUS_ABSENT:
		return NULL;
	case RUN_STATUS_IDLE:
		return "idle";
	case RUN_STATUS_RUNNING:
		return "running";
	case RUN_STATUS_PAUSED:
		return "paused";
	case RUN_STATUS_FINISHED:
		return "finished";
	case RUN_STATUS_ERROR:
		return "error";
	case RUN_STATUS_STUCK:
		return "stuck";
	case RUN_STATUS_DELETING:
		return "deleting";
	case RUN_STATUS_WAITING_FOR_CONFIRMATION:
		return "needs confirmation";
	case RUN_STATUS_UNKNOWN:
	default:
		return st->execution_status && *st->execution_status ? st->execution_status : NULL;
	}
}

const char *status_title_state(const struct controller_status *st)
{
	const char *agent = status_agent_word(st);
	if (agent_current(st) && agent)
		return agent;
	return status_connection_word(st);
}

const char *status_hint(const struct controller_status *st)
{
	if (st->connection == SESSION_RECONNECTING || st->connection == SESSION_CLOSED)
		return hint_reconnect;
	if (!agent_current(st))
		return NULL;
	if (st->awaiting_confirmation)
		return hint_answer;
	if (st->run_status == RUN_STATUS_RUNNING)
		return hint_interrupt;
	return NULL;
}

static struct segment *add(struct segment *segs, size_t *n, int rank, bool attached)
{
	struct segment *s = &segs[(*n)++];
	s->rank = rank;
	s->attached = attached;
	s->text[0] = '\0';
	return s;
}

static void put_two_digits(char *out, int64_t v)
{
	out[0] = (char)('0' + v / 10);
	out[1] = (char)('0' + v % 10);
	out[2] = '\0';
}

/* "0:42", "1:05:09" (out: at least 32 bytes) */
static void put_elapsed(char *out, int64_t us)
{
	int64_t s = us > 0 ? us / 1000000 : 0;
	int k = decimal_i64(out, s >= 3600 ? s / 3600 : s / 60);
	if (s >= 3600) {
		out[k++] = ':';
		put_two_digits(out + k, s / 60 % 60);
		k += 2;
	}
	out[k++] = ':';
	put_two_digits(out + k, s % 60);
}

static void connection_segments(const struct controller_status *st, int64_t now_us,
				struct segment *segs, size_t *n)
{
	struct segment *s = add(segs, n, 0, false);
	const char *why = st->last_drop ? st->last_drop : st->last_failure;
	switch (st->connection) {
	case SESSION_SYNCED:
		if (st->syncing) {
			struct buf b;
			buf_init(&b);
			buf_printf(&b, "%s ", word_syncing);
			status_put_count(&b, st->has_cursor && st->cursor > 0 ? st->cursor : 0);
			if (st->sync_through_seq >= 0) {
				buf_putc(&b, '/');
				status_put_count(&b, st->sync_through_seq);
			}
			seg_puts(s->text, buf_cstr(&b));
			buf_fini(&b);
		} else {
			seg_puts(s->text, word_live);
		}
		return;
	case SESSION_RECONNECTING:
		snprintf(s->text, sizeof s->text, "%s in %llds", word_reconnecting,
			 (long long)seconds_left(st, now_us));
		break;
	case SESSION_CONNECTING:
	case SESSION_OPEN:
		seg_puts(s->text, word_connecting);
		if (st->attempt <= 1)
			return;
		s = add(segs, n, 4, true);
		if (st->last_failure)
			snprintf(s->text, sizeof s->text, "attempt %d; last: %s", st->attempt,
				 st->last_failure);
		else
			snprintf(s->text, sizeof s->text, "attempt %d", st->attempt);
		return;
	case SESSION_GAVE_UP:
		seg_puts(s->text, word_offline);
		s = add(segs, n, 4, true);
		snprintf(s->text, sizeof s->text, "gave up%s%s", why ? ": " : "", why ? why : "");
		return;
	case SESSION_CLOSED:
	case SESSION_FAILED:
	default:
		seg_puts(s->text, word_offline);
		break;
	}
	if (why) {
		s = add(segs, n, 4, true);
		seg_puts(s->text, why);
	}
}

static void agent_segment(const struct controller_status *st, int64_t now_us,
			  struct segment *segs, size_t *n)
{
	const char *word = status_agent_word(st);
	if (!word)
		return;
	if (!agent_current(st)) {
		/* not news: what it was when the connection was last live */
		snprintf(add(segs, n, 5, false)->text, STATUS_SEGMENT_BYTES, "last: %s", word);
		return;
	}
	struct segment *s = add(segs, n, 1, false);
	if (st->run_status == RUN_STATUS_RUNNING && !st->awaiting_confirmation) {
		char elapsed[32] = "";
		if (st->running_since_us > 0 && now_us >= st->running_since_us)
			put_elapsed(elapsed, now_us - st->running_since_us);
		int64_t step = now_us / SPINNER_STEP_US;
		seg_puts(s->text, spinner[step % SPINNER_FRAMES]);
		seg_puts(s->text, " ");
		seg_puts(s->text, word);
		if (*elapsed) {
			seg_puts(s->text, " ");
			seg_puts(s->text, elapsed);
		}
		return;
	}
	seg_puts(s->text, word);
	for (char *p = s->text; *p; p++)
		if (*p == '_')
			*p = ' ';
}

/* The host (and port) of a server URL: the scheme and path say nothing new here. */
static void put_host(char *out, size_t size, const char *url)
{
	const char *h = strstr(url, "://");
	h = h ? h + 3 : url;
	const char *at = strchr(h, '@');
	const char *end = h + strcspn(h, "/?#");
	if (at && at < end)
		h = at + 1;
	size_t n = (size_t)(end - h) < size ? (size_t)(end - h) : size - 1;
	memcpy(out, h, n);
	out[n] = '\0';
}

/* The usage's short form: the context in use (kept longest: it says when the agent will have
 * to condense), the tokens, the cost. */
static void usage_segments(const struct controller_status *st, struct segment *segs, size_t *n)
{
	if (!st->has_usage)
		return;
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "ctx ");
	usage_put_context(&b, &st->usage);
	seg_puts(add(segs, n, 4, false)->text, buf_cstr(&b));
	buf_clear(&b);
	usage_put_tokens(&b, st->usage.tokens);
	buf_puts(&b, " tok");
	seg_puts(add(segs, n, 5, false)->text, buf_cstr(&b));
	buf_clear(&b);
	usage_put_cost(&b, st->usage.cost);
	seg_puts(add(segs, n, 5, false)->text, buf_cstr(&b));
	buf_fini(&b);
}

/* Fills segs in display order; returns how many. */
static size_t segments(const struct controller_status *st, int64_t now_us, int width,
		       unsigned flags, struct segment *segs)
{
	size_t n = 0;
	connection_segments(st, now_us, segs, &n);
	agent_segment(st, now_us, segs, &n);
	if (st->stalled_streams)
		snprintf(add(segs, &n, 2, false)->text, STATUS_SEGMENT_BYTES, "⚠ %zu stream%s stalled",
			 st->stalled_streams, st->stalled_streams == 1 ? "" : "s");
	if (st->pending_messages)
		snprintf(add(segs, &n, 2, false)->text, STATUS_SEGMENT_BYTES, "%zu queued",
			 st->pending_messages);
	const char *hint = (flags & STATUS_KEY_HINT) ? status_hint(st) : NULL;
	if (hint)
		seg_puts(add(segs, &n, 3, false)->text, hint);
	usage_segments(st, segs, &n);
	const char *name = st->title && *st->title ? st->title : st->conversation_id;
	if (name && *name) {
		struct buf b;
		buf_init(&b);
		status_put_fitted(&b, name, strlen(name), width / 3 > 12 ? width / 3 : 12);
		seg_puts(add(segs, &n, 6, false)->text, buf_cstr(&b));
		buf_fini(&b);
	}
	if (st->model && *st->model) {
		struct buf b;
		buf_init(&b);
		status_put_fitted(&b, st->model, strlen(st->model), width / 5 > 12 ? width / 5 : 12);
		/* the first part to go when the line is short */
		seg_puts(add(segs, &n, 9, false)->text, buf_cstr(&b));
		buf_fini(&b);
	}
	if (st->server && *st->server) {
		char *host = add(segs, &n, 7, false)->text;
		put_host(host, STATUS_SEGMENT_BYTES, st->server);
		/* the legacy socket is named (issue 26): the session socket is the norm */
		if (st->socket == NET_PROTOCOL_EVENTS && strlen(host) + 8 < STATUS_SEGMENT_BYTES)
			strcat(host, " events");
	}
	if (st->has_cursor && st->cursor >= 0) {
		struct buf b;
		buf_init(&b);
		buf_puts(&b, "seq ");
		status_put_count(&b, st->cursor);
		seg_puts(add(segs, &n, 8, false)->text, buf_cstr(&b));
		buf_fini(&b);
	}
	return n;
}

static void compose(const struct segment *segs, const bool *keep, size_t n, struct buf *out)
{
	for (size_t i = 0, parts = 0; i < n; i++) {
		if (!keep[i])
			continue;
		if (segs[i].attached) {
			buf_puts(out, " (");
			buf_puts(out, segs[i].text);
			buf_putc(out, ')');
			continue;
		}
		if (parts++)
			buf_puts(out, separator);
		buf_puts(out, segs[i].text);
	}
}

/* The width compose would give: the segments' own widths (cols) and what joins them. */
static int composed_width(const struct segment *segs, const int *cols, const bool *keep,
			  size_t n)
{
	int w = 0;
	for (size_t i = 0, parts = 0; i < n; i++) {
		if (!keep[i])
			continue;
		if (segs[i].attached)
			w += ATTACHED_COLS;
		else if (parts++)
			w += SEPARATOR_COLS;
		w += cols[i];
	}
	return w;
}

void status_format(const struct controller_status *st, int64_t now_us, int width,
		   unsigned flags, struct buf *out)
{
	struct segment segs[STATUS_SEGMENTS];
	bool keep[STATUS_SEGMENTS];
	int cols[STATUS_SEGMENTS];
	size_t n = segments(st, now_us, width, flags, segs);
	for (size_t i = 0; i < n; i++) {
		keep[i] = true;
		cols[i] = text_width(segs[i].text, strlen(segs[i].text));
	}
	while (composed_width(segs, cols, keep, n) > width) {
		size_t drop = n;
		for (size_t i = 0; i < n; i++)
			if (keep[i] && segs[i].rank > 1 && (drop == n || segs[i].rank >= segs[drop].rank))
				drop = i;
		if (drop == n)
			break;
		keep[drop] = false;
	}
	struct buf line;
	buf_init(&line);
	compose(segs, keep, n, &line);
	status_put_fitted(out, buf_cstr(&line), line.len, width);
	buf_fini(&line);
}

int64_t status_next_change(const struct controller_status *st, int64_t now_us)
{
	int64_t next = -1;
	if (st->connection == SESSION_RECONNECTING && st->retry_at_us > now_us) {
		int64_t into = (st->retry_at_us - now_us) % 1000000;
		next = into ? into : 1000000;
	}
	if (agent_current(st) && st->run_status == RUN_STATUS_RUNNING && !st->awaiting_confirmation) {
		int64_t spin = SPINNER_STEP_US - now_us % SPINNER_STEP_US;
		if (next < 0 || spin < next)
			next = spin;
	}
	return next;
}
