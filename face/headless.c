#include "headless.h"
#include "net.h"

#include <errno.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

void headless_init(struct headless *h, FILE *out, enum output_format format,
		   void (*on_error)(void *ctx, int err), void *ctx)
{
	memset(h, 0, sizeof *h);
	h->out = out;
	h->format = format;
	h->on_error = on_error;
	h->ctx = ctx;
}

/* Lines held while batching before they are written whatever the loop does. */
#define HEADLESS_BATCH_BYTES ((size_t)64 << 10)

/* Writes what is held. The first failure ends the output (what is buffered is dropped: it
 * could only fail again) and is reported once. */
static void flush(struct headless *h)
{
	if (fflush(h->out) == 0 && !ferror(h->out))
		return;
	int err = errno ? errno : EIO;
	__fpurge(h->out);
	clearerr(h->out);
	h->ended = true;
	h->error = err;
	if (h->on_error)
		h->on_error(h->ctx, err);
}

/* A line is complete: written now, or, while batching, when the loop next waits (stdio
 * writes a full buffer by itself; a write that failed on the way shows in ferror). */
static void line_done(struct headless *h)
{
	if (!h->flush_timer || ferror(h->out)) {
		flush(h);
		return;
	}
	if (!loop_timer_pending(h->flush_timer))
		loop_timer_schedule(h->flush_timer, 0);
}

static void flush_due(void *arg)
{
	struct headless *h = arg;
	if (!h->ended) {
		errno = 0;
		flush(h);
	}
}

void headless_batch(struct headless *h, struct loop *loop)
{
	if (h->flush_timer)
		return;
	h->batch_buf = xmalloc(HEADLESS_BATCH_BYTES);
	setvbuf(h->out, h->batch_buf, _IOFBF, HEADLESS_BATCH_BYTES);
	h->flush_timer = loop_timer_create(loop, flush_due, h);
}

void headless_flush(struct headless *h)
{
	if (h->flush_timer)
		loop_timer_cancel(h->flush_timer);
	flush_due(h);
}

void headless_fini(struct headless *h)
{
	if (!h->flush_timer)
		return;
	headless_flush(h);
	loop_timer_destroy(h->flush_timer);
	h->flush_timer = NULL;
	/* out outlives the writer: it must not keep a buffer that is freed here. */
	setvbuf(h->out, NULL, _IOFBF, 0);
	free(h->batch_buf);
	h->batch_buf = NULL;
}

/* Writes one finished ndjson line. */
static void emit(struct headless *h, struct buf *line)
{
	buf_putc(line, '\n');
	if (!h->ended) {
		errno = 0;
		fwrite(line->data, 1, line->len, h->out);
		line_done(h);
	}
	buf_fini(line);
}

static void field_str(struct buf *b, const char *name, const char *v, size_t len)
{
	buf_printf(b, ",\"%s\":", name);
	json_append_string(b, v, len);
}

static void begin(struct buf *b, const char *type)
{
	buf_init(b);
	buf_printf(b, "{\"type\":\"%s\"", type);
}

void headless_connection(struct headless *h, const char *state, const char *socket,
			 int attempt, int code,
			 const char *reason, bool has_after_seq, int64_t after_seq,
			 double retry_in_s)
{
	if (h->format != FORMAT_NDJSON || h->ended)
		return;
	struct buf b;
	begin(&b, "connection");
	field_str(&b, "state", state, strlen(state));
	if (socket)
		field_str(&b, "socket", socket, strlen(socket));
	buf_printf(&b, ",\"attempt\":%d", attempt);
	if (code > 0)
		buf_printf(&b, ",\"code\":%d", code);
	if (reason)
		field_str(&b, "reason", reason, strlen(reason));
	if (has_after_seq)
		buf_printf(&b, ",\"after_seq\":%lld", (long long)after_seq);
	if (retry_in_s > 0)
		buf_printf(&b, ",\"retry_in\":%.3f", retry_in_s);
	buf_putc(&b, '}');
	emit(h, &b);
}

void headless_sync(struct headless *h, bool has_from, int64_t from_seq, bool has_through,
		   int64_t through_seq)
{
	if (h->format != FORMAT_NDJSON || h->ended)
		return;
	struct buf b;
	begin(&b, "sync");
	if (has_from)
		buf_printf(&b, ",\"from_seq\":%lld", (long long)from_seq);
	if (has_through)
		buf_printf(&b, ",\"through_seq\":%lld", (long long)through_seq);
	buf_putc(&b, '}');
	emit(h, &b);
}

/* The event lines carry nearly all of a dump's bytes: they go into out's buffer in pieces,
 * with no line built (and allocated) first. */
static void emit_event(struct headless *h, const char *head, size_t head_len,
		       const char *event_json, size_t len)
{
	errno = 0;
	fwrite(head, 1, head_len, h->out);
	fwrite(event_json, 1, len, h->out);
	fwrite("}\n", 1, 2, h->out);
	line_done(h);
}

void headless_durable(struct headless *h, int64_t seq, const char *event_json, size_t len)
{
	if (h->format != FORMAT_NDJSON || h->ended)
		return;
	static const char type[] = "{\"type\":\"durable\",\"seq\":";
	char head[sizeof type + 32];
	memcpy(head, type, sizeof type - 1);
	size_t n = sizeof type - 1 + (size_t)decimal_i64(head + sizeof type - 1, seq);
	memcpy(head + n, ",\"event\":", 9);
	emit_event(h, head, n + 9, event_json, len);
}

void headless_transient(struct headless *h, const char *event_json, size_t len)
{
	if (h->format != FORMAT_NDJSON || h->ended)
		return;
	static const char head[] = "{\"type\":\"transient\",\"event\":";
	emit_event(h, head, sizeof head - 1, event_json, len);
}

void headless_stream(struct headless *h, const char *item_id, int attempt, const char *state,
		     const char *kind, const char *content, size_t content_len, const char *reason)
{
	if (h->format != FORMAT_NDJSON || h->ended)
		return;
	struct buf b;
	begin(&b, "stream");
	field_str(&b, "item_id", item_id, strlen(item_id));
	buf_printf(&b, ",\"attempt\":%d", attempt);
	field_str(&b, "state", state, strlen(state));
	if (kind)
		field_str(&b, "kind", kind, strlen(kind));
	if (content)
		field_str(&b, "content", content, content_len);
	if (reason)
		field_str(&b, "reason", reason, strlen(reason));
	buf_putc(&b, '}');
	emit(h, &b);
}

void headless_status(struct headless *h, const char *execution_status)
{
	if (h->format != FORMAT_NDJSON || h->ended)
		return;
	struct buf b;
	begin(&b, "status");
	field_str(&b, "execution_status", execution_status, strlen(execution_status));
	buf_putc(&b, '}');
	emit(h, &b);
}

void headless_usage(struct headless *h, const struct usage_stats *u)
{
	if (h->format != FORMAT_NDJSON || h->ended)
		return;
	struct buf members, b;
	buf_init(&members);
	usage_put_json(&members, u);
	if (h->last_usage && !strcmp(h->last_usage, buf_cstr(&members))) {
		buf_fini(&members);
		return;
	}
	free(h->last_usage);
	h->last_usage = xstrdup(buf_cstr(&members));
	begin(&b, "usage");
	buf_putc(&b, ',');
	buf_append(&b, members.data, members.len);
	buf_fini(&members);
	buf_putc(&b, '}');
	emit(h, &b);
}

/* The names upstream's SecurityRisk serializes. */
static const char *const risk_names[] = {
	[RISK_ABSENT] = NULL, [RISK_UNKNOWN] = "UNKNOWN", [RISK_LOW] = "LOW",
	[RISK_MEDIUM] = "MEDIUM", [RISK_HIGH] = "HIGH",
};

/* text after the line in b, each of its lines on one of b's own, indented by two spaces: the
 * whole of it, never cut nor folded (a fold could split the words a reader looks for). */
static void put_indented(struct buf *b, const char *text)
{
	for (const char *p = text; p && *p;) {
		size_t n = strcspn(p, "\n");
		buf_puts(b, "\n  ");
		buf_append(b, p, n);
		p += n + (p[n] == '\n');
	}
}

void headless_confirmation(struct headless *h, const struct sink_action *actions, size_t n)
{
	if (h->ended)
		return;
	if (h->format == FORMAT_TEXT) {
		if (!n)
			headless_text_line(h, "needs confirmation: actions that are not in this transcript");
		for (size_t i = 0; i < n; i++) {
			struct buf line;
			buf_init(&line);
			const char *risk = risk_names[actions[i].risk];
			buf_printf(&line, "needs confirmation: %s %s", actions[i].tool, actions[i].summary);
			if (risk)
				buf_printf(&line, " [%s]", risk);
			put_indented(&line, actions[i].whole);
			headless_text_line(h, buf_cstr(&line));
			buf_fini(&line);
		}
		return;
	}
	struct buf b;
	begin(&b, "confirmation");
	buf_puts(&b, ",\"actions\":[");
	for (size_t i = 0; i < n; i++) {
		const struct sink_action *a = &actions[i];
		buf_puts(&b, i ? ",{\"tool_call_id\":" : "{\"tool_call_id\":");
		if (a->tool_call_id)
			json_append_string(&b, a->tool_call_id, strlen(a->tool_call_id));
		else
			buf_puts(&b, "null");
		field_str(&b, "tool", a->tool, strlen(a->tool));
		field_str(&b, "summary", a->summary, strlen(a->summary));
		field_str(&b, "arguments", a->whole, strlen(a->whole));
		if (risk_names[a->risk])
			field_str(&b, "risk", risk_names[a->risk], strlen(risk_names[a->risk]));
		else
			buf_puts(&b, ",\"risk\":null");
		buf_putc(&b, '}');
	}
	buf_puts(&b, "]}");
	emit(h, &b);
}

void headless_answered(struct headless *h, bool accept, const char *const *ids, size_t n)
{
	if (h->ended)
		return;
	if (h->format == FORMAT_TEXT) {
		struct buf line;
		buf_init(&line);
		buf_puts(&line, accept ? "accepted" : "rejected");
		for (size_t i = 0; i < n; i++)
			buf_printf(&line, "%s%s", i ? ", " : ": ", ids[i]);
		headless_text_line(h, buf_cstr(&line));
		buf_fini(&line);
		return;
	}
	struct buf b;
	begin(&b, "confirmation_answer");
	field_str(&b, "answer", accept ? "accept" : "reject", 6);
	buf_puts(&b, ",\"tool_call_ids\":[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_putc(&b, ',');
		json_append_string(&b, ids[i], strlen(ids[i]));
	}
	buf_puts(&b, "]}");
	emit(h, &b);
}

void headless_error(struct headless *h, const char *code, const char *detail)
{
	if (h->ended)
		return;
	if (h->format != FORMAT_NDJSON) {
		headless_flush(h); /* what came before it on stdout reads before it */
		fprintf(stderr, "tether: %s: %s\n", code, detail ? detail : "");
		return;
	}
	struct buf b;
	begin(&b, "error");
	field_str(&b, "code", code, strlen(code));
	field_str(&b, "detail", detail ? detail : "", detail ? strlen(detail) : 0);
	buf_putc(&b, '}');
	emit(h, &b);
}

void headless_result(struct headless *h, int exit_code, bool has_cursor, int64_t cursor,
		     size_t durable_count, size_t stream_count, int reconnects)
{
	if (h->ended)
		return;
	if (h->format != FORMAT_NDJSON) {
		headless_flush(h);
		h->ended = true;
		return;
	}
	struct buf b;
	begin(&b, "result");
	buf_printf(&b, ",\"exit_code\":%d,\"cursor\":", exit_code);
	if (has_cursor)
		buf_printf(&b, "%lld", (long long)cursor);
	else
		buf_puts(&b, "null");
	buf_printf(&b, ",\"durable\":%zu,\"streams\":%zu,\"reconnects\":%d}", durable_count,
		   stream_count, reconnects);
	emit(h, &b);
	headless_flush(h);
	h->ended = true;
}

void headless_text_message(struct headless *h, bool from_user, const char *text, size_t len)
{
	if (h->format != FORMAT_TEXT || len == 0 || h->ended)
		return;
	errno = 0;
	if (h->wrote_text)
		fputc('\n', h->out);
	if (!from_user) {
		fwrite(text, 1, len, h->out);
		if (text[len - 1] != '\n')
			fputc('\n', h->out);
	} else {
		/* Quote every line of a user message so it reads apart from the answer. */
		size_t start = 0;
		for (size_t i = 0; i <= len; i++) {
			if (i == len || text[i] == '\n') {
				if (i == len && i == start)
					break;
				fputs("> ", h->out);
				fwrite(text + start, 1, i - start, h->out);
				fputc('\n', h->out);
				start = i + 1;
			}
		}
	}
	h->wrote_text = true;
	line_done(h);
}

void headless_text_line(struct headless *h, const char *line)
{
	if (h->format != FORMAT_TEXT || h->ended)
		return;
	errno = 0;
	if (h->wrote_text)
		fputc('\n', h->out);
	fputs(line, h->out);
	fputc('\n', h->out);
	h->wrote_text = true;
	line_done(h);
}
