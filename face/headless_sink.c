/* The headless writer as a sink: the controller's changes become cli.md's ndjson lines or
 * its plain text on stdout. Text mode says a tool's card with its result, paired by the
 * model. */
#include "headless.h"
#include "clean.h"
#include "exit_code.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct headless_sink {
	struct headless out;
	enum output_format format;
	const struct mask_set *masks;
	struct buf scratch;             /* clean_text's sanitized copy */
	struct buf line;                /* on_event's rewritten event, reused */
	struct controller *c;
	bool quiet;                     /* -q: only fatal diagnostics on stderr */
	char *closed_why;               /* text mode: the last close's reason, said at the retry */
	bool open;                      /* the connection of this attempt is up */
	bool closed_was_open;           /* the last close ended a connection, not an attempt */
};

/* on_event keeps its line buffer between events up to this size. */
#define HEADLESS_LINE_KEEP (256u << 10)

static const char *const state_names[] = {
	[SESSION_CONNECTING] = "connecting", [SESSION_OPEN] = "open",
	[SESSION_SYNCED] = "open",           [SESSION_CLOSED] = "closed",
	[SESSION_RECONNECTING] = "reconnecting", [SESSION_GAVE_UP] = "gave_up",
	[SESSION_FAILED] = "closed",
};

/* ------------------------------------------------------------ text mode */

/* Appends text's lines, each indented by four spaces, on lines of their own. */
static void put_indented(struct buf *line, const char *text, size_t len)
{
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		if (i > start || i < len) {
			buf_puts(line, "\n    ");
			buf_append(line, text + start, i - start);
		}
		start = i + 1;
	}
}

/* "→ exit 2", "→ still running (no new output)", "→ failed: why" … for a tool result. */
static void put_outcome(struct buf *line, enum tool_outcome outcome, bool has_exit_code,
			int exit_code, const char *text, size_t text_len)
{
	switch (outcome) {
	case TOOL_REJECTED:
	case TOOL_BLOCKED:
		buf_printf(line, "  → %s: %.*s", outcome == TOOL_BLOCKED ? "blocked by hook" : "rejected",
			   (int)text_len, text ? text : "");
		return;
	case TOOL_STILL_RUNNING:
		buf_puts(line, "  → still running (no new output)");
		return;
	case TOOL_TIMED_OUT:
		buf_puts(line, "  → timed out");
		return;
	case TOOL_FAILED:
		if (has_exit_code)
			buf_printf(line, "  → exit %d", exit_code);
		else
			buf_puts(line, "  → failed");
		break;
	default:
		if (has_exit_code)
			buf_printf(line, "  → exit %d", exit_code);
		else
			buf_puts(line, "  → done");
		return;
	}
	if (!has_exit_code && text_len) {
		/* The error says why: its first line here, the rest below. */
		const char *nl = memchr(text, '\n', text_len);
		size_t first = nl ? (size_t)(nl - text) : text_len;
		buf_puts(line, ": ");
		buf_append(line, text, first);
		if (nl)
			put_indented(line, nl + 1, text_len - first - 1);
	}
}

/* A card's first line: "$ command" for a shell command, else "• tool summary". */
static void put_card_head(struct buf *line, bool command, const char *title, const char *summary)
{
	if (command)
		buf_printf(line, "$ %s", summary ? summary : "");
	else
		buf_printf(line, "• %s %s", title ? title : "tool", summary ? summary : "");
}

/* A card of the model as its head line, then what became of it (say), then its arguments;
 * for an edit whose result is its diff again with line numbers (result, may be NULL), that
 * diff in the arguments' place, as the screen's card shows it. */
static void put_card(struct buf *line, const struct item_info *card, const char *result,
		     size_t result_len, void (*say)(struct buf *line, const void *arg),
		     const void *arg)
{
	put_card_head(line, card->command, card->title, card->summary);
	say(line, arg);
	if (result_len && card->detail_len && diff_block_opens(result, result_len) &&
	    diff_block_opens(card->detail, card->detail_len))
		put_indented(line, result, result_len);
	else if (card->detail_len)
		put_indented(line, card->detail, card->detail_len);
}

static void say_result(struct buf *line, const void *arg)
{
	const struct item_spec *s = arg;
	put_outcome(line, s->outcome, s->has_exit_code, s->exit_code, s->text, s->text_len);
}

static void text_mode_event(struct headless_sink *h, const struct item_spec *s, const struct event *e)
{
	struct buf line;
	buf_init(&line);
	switch (s->kind) {
	case ITEM_USER:
	case ITEM_AGENT:
		headless_text_message(&h->out, s->kind == ITEM_USER, s->text ? s->text : "",
				      s->text_len);
		break;
	case ITEM_TOOL:
		if (s->text_len)
			headless_text_message(&h->out, false, s->text, s->text_len);
		/* A card that waits for its result is said with it (or at the run's end). An ACP
		 * tool call is emitted again as it progresses: the model keeps the last. */
		if (s->tool_call_id && !s->has_result)
			break;
		put_card_head(&line, s->command, s->title, s->summary);
		/* The outcome goes at the end of the first line; the arguments follow it. */
		if (s->has_result)
			put_outcome(&line, s->outcome, s->has_exit_code, s->exit_code, NULL, 0);
		if (s->detail_len)
			put_indented(&line, s->detail, s->detail_len);
		if (s->has_result && s->result_len)
			put_indented(&line, s->result, s->result_len);
		headless_text_line(&h->out, buf_cstr(&line));
		break;
	case ITEM_TOOL_RESULT: {
		/* Paired by the model: the card it attached to, else (no card came) its title. */
		const struct transcript *t = controller_transcript(h->c);
		long idx = s->tool_call_id ? transcript_find_card(t, s->tool_call_id) : -1;
		if (idx >= 0) {
			struct item_info card;
			transcript_item(t, (size_t)idx, &card);
			put_card(&line, &card, s->text, s->text_len, say_result, s);
		} else {
			buf_puts(&line, s->title ? s->title : "tool");
			say_result(&line, s);
		}
		headless_text_line(&h->out, buf_cstr(&line));
		break;
	}
	case ITEM_ERROR:
		buf_printf(&line, "error: %s: %s", s->title ? s->title : "error", s->text ? s->text : "");
		headless_text_line(&h->out, buf_cstr(&line));
		break;
	case ITEM_NOTICE:
		/* Hooks and kinds this client does not know: their label and fields. */
		if (e->kind != EVENT_HOOK && e->kind != EVENT_UNKNOWN)
			break;
		buf_printf(&line, "· %s", s->title ? s->title : "event");
		if (s->text_len)
			put_indented(&line, s->text, s->text_len);
		headless_text_line(&h->out, buf_cstr(&line));
		break;
	default:
		break;
	}
	buf_fini(&line);
}

static void say_why(struct buf *line, const void *arg)
{
	buf_printf(line, "  → %s", (const char *)arg);
}

/* Says the cards the model lists as waiting for a result ("  → why"), oldest first: a tool
 * whose result never comes is still on the record. Cards without a tool_call_id were said
 * when they came. */
static void cards_flush(struct headless_sink *h, const char *why)
{
	const struct transcript *t = controller_transcript(h->c);
	size_t n = transcript_pending_tools(t, NULL, 0);
	if (h->format != FORMAT_TEXT || !n)
		return;
	size_t *idx = xcalloc(n, sizeof *idx);
	transcript_pending_tools(t, idx, n);
	for (size_t i = 0; i < n; i++) {
		struct item_info card;
		transcript_item(t, idx[i], &card);
		if (!card.tool_call_id)
			continue;
		struct buf line;
		buf_init(&line);
		put_card(&line, &card, NULL, 0, say_why, why);
		headless_text_line(&h->out, buf_cstr(&line));
		buf_fini(&line);
	}
	free(idx);
}

/* ------------------------------------------------------------ the sink */

/* json_rewrite_strings callback: every string of an event crosses the same boundary. */
static void clean_json_string(void *ctx, const char *s, size_t len, struct buf *out)
{
	struct headless_sink *h = ctx;
	/* No secrets: clean_text's masked copy would only be the sanitized one, copied again. */
	if (!mask_set_count(h->masks))
		sanitize_text(s, len, out);
	else
		clean_text(h->masks, s, len, &h->scratch, out);
}

static void on_connection(void *ctx, const struct session_status *st, const char *reason,
			  bool repeat)
{
	struct headless_sink *h = ctx;
	if (st->state == SESSION_CONNECTING)
		h->open = false;
	else if (st->state == SESSION_OPEN || st->state == SESSION_SYNCED)
		h->open = true;
	if (st->state == SESSION_SYNCED || repeat)
		return;
	headless_connection(&h->out, state_names[st->state],
			    st->protocol == NET_PROTOCOL_AUTO ? NULL : net_protocol_name(st->protocol),
			    st->attempt, st->close_code, reason,
			    st->state == SESSION_CONNECTING && st->has_after_seq, st->after_seq,
			    st->state == SESSION_RECONNECTING ? (double)st->retry_in_us / 1e6 : 0);
	if (h->format != FORMAT_TEXT)
		return;
	/* One line per drop, at the retry; a drop that ends the run is said once, by the
	 * controller's notice. */
	if (st->state == SESSION_CLOSED) {
		free(h->closed_why);
		h->closed_why = reason ? xstrdup(reason) : NULL;
		h->closed_was_open = h->open;
		h->open = false;
	} else if (st->state == SESSION_RECONNECTING && !h->quiet) {
		headless_flush(&h->out);
		/* An attempt that never got a connection did not lose one. */
		fprintf(stderr, "tether: %s%s%s; %s in %.1f s (attempt %d)\n",
			h->closed_was_open ? "connection lost" : "could not connect",
			h->closed_why ? ": " : "", h->closed_why ? h->closed_why : "",
			h->closed_was_open ? "reconnecting" : "trying again",
			(double)st->retry_in_us / 1e6, st->attempt);
	}
}

static void on_sync(void *ctx, const struct frame *f)
{
	struct headless_sink *h = ctx;
	headless_sync(&h->out, f->has_from_seq, f->from_seq, f->has_through_seq, f->through_seq);
}

/* The ndjson durable/transient line: the event JSON with every string sanitized and masked. */
static void on_event(void *ctx, const struct frame *f)
{
	struct headless_sink *h = ctx;
	if (h->format != FORMAT_NDJSON)
		return;
	struct buf *masked = &h->line;
	buf_clear(masked);
	/* With no secrets the clean is the sanitizer alone, which keeps plain text as it is. */
	bool plain = !mask_set_count(h->masks);
	if ((plain ? frame_event_rewrite_kept : frame_event_rewrite)(f, clean_json_string, h,
								      masked) == 0) {
		if (f->type == FRAME_DURABLE)
			headless_durable(&h->out, f->seq, masked->data, masked->len);
		else
			headless_transient(&h->out, masked->data, masked->len);
	}
	/* One huge event is not held on to for the rest of the run. */
	if (masked->cap > HEADLESS_LINE_KEEP) {
		buf_fini(masked);
		buf_init(masked);
	}
}

static void on_item(void *ctx, const struct sink_item *it)
{
	struct headless_sink *h = ctx;
	if (h->format == FORMAT_TEXT && it->seq >= 0 && it->applied != APPLY_DUPLICATE)
		text_mode_event(h, it->spec, it->event);
}

static const char *const stream_states[] = {
	[SINK_STREAM_STARTED] = "started",   [SINK_STREAM_DELTA] = "delta",
	[SINK_STREAM_RETIRED] = "retired",   [SINK_STREAM_ABORTED] = "aborted",
	[SINK_STREAM_STALLED] = "stalled",   [SINK_STREAM_DISCARDED] = "discarded",
};

static void on_stream(void *ctx, const struct sink_stream *s)
{
	struct headless_sink *h = ctx;
	if (s->state == SINK_STREAM_DELTA && !s->content_len)
		return; /* all of it held back: nothing to say yet */
	headless_stream(&h->out, s->item_id, s->attempt, stream_states[s->state],
			s->state == SINK_STREAM_DELTA ? (s->reasoning ? "reasoning" : "text") : NULL,
			s->content, s->content_len, s->reason);
}

static void on_status(void *ctx, const char *execution_status, bool run_ended)
{
	struct headless_sink *h = ctx;
	headless_status(&h->out, execution_status);
	if (run_ended)
		cards_flush(h, "no result (run ended)");
}

static void on_usage(void *ctx, const struct usage_stats *u)
{
	struct headless_sink *h = ctx;
	headless_usage(&h->out, u);
}

static void on_error(void *ctx, const char *code, const char *detail)
{
	struct headless_sink *h = ctx;
	if (h->format == FORMAT_TEXT && h->quiet)
		return; /* text mode says errors on stderr: not fatal ones */
	headless_error(&h->out, code, detail);
}

static void on_confirmation(void *ctx, const struct sink_action *actions, size_t n)
{
	struct headless_sink *h = ctx;
	headless_confirmation(&h->out, actions, n);
}

static void on_answered(void *ctx, bool accept, const char *const *ids, size_t n)
{
	struct headless_sink *h = ctx;
	headless_answered(&h->out, accept, ids, n);
}

static void on_result(void *ctx, const struct sink_result *r, int *exit_code)
{
	struct headless_sink *h = ctx;
	struct controller_status st;
	controller_status(h->c, &st);
	cards_flush(h, st.awaiting_confirmation ? "waiting for confirmation" : "no result");
	headless_result(&h->out, *exit_code, r->has_cursor, r->cursor, r->durable_count,
			r->stream_count, r->reconnects);
	/* Output that did not reach its reader is a failed run, whatever else happened. */
	if (h->out.error)
		*exit_code = h->out.error == EPIPE ? EXIT_SIGPIPE : EXIT_RUNTIME;
}

/* A notice goes to stderr after this sink: what stdout holds goes first. */
static void on_notice(void *ctx, const char *line)
{
	(void)line;
	struct headless_sink *h = ctx;
	headless_flush(&h->out);
}

static void on_destroy(void *ctx)
{
	struct headless_sink *h = ctx;
	headless_fini(&h->out);
	free(h->closed_why);
	free(h->out.last_usage);
	buf_fini(&h->scratch);
	buf_fini(&h->line);
	free(h);
}

/* stdout failed: a reader that went away (EPIPE, `| head -1`) ends the run quietly with the
 * shell's SIGPIPE status; any other failure (a full disk) is said once and is exit 1. */
static void stdout_failed(void *ctx, int err)
{
	struct headless_sink *h = ctx;
	struct buf m;
	buf_init(&m);
	if (err != EPIPE)
		buf_printf(&m, "cannot write to standard output: %s; the output is incomplete",
			   strerror(err));
	controller_fail(h->c, err != EPIPE ? buf_cstr(&m) : NULL,
			err == EPIPE ? EXIT_SIGPIPE : EXIT_RUNTIME);
	buf_fini(&m);
}

static const struct sink_ops headless_sink_ops = {
	.connection = on_connection, .sync = on_sync,         .event = on_event,
	.item = on_item,             .stream = on_stream,     .status = on_status,
	.error = on_error,           .result = on_result,     .destroy = on_destroy,
	.confirmation = on_confirmation, .answered = on_answered, .usage = on_usage,
	.notice = on_notice,
};

struct sink headless_sink_create(FILE *out, enum output_format format, bool quiet,
				 const struct mask_set *masks, struct controller *c,
				 struct loop *loop)
{
	struct headless_sink *h = xcalloc(1, sizeof *h);
	h->format = format;
	h->quiet = quiet;
	h->masks = masks;
	h->c = c;
	buf_init(&h->scratch);
	buf_init(&h->line);
	headless_init(&h->out, out, format, stdout_failed, h);
	/* cli.md: a terminal sees each line as it is written, anything else a batch at a time. */
	if (!isatty(fileno(out)))
		headless_batch(&h->out, loop);
	return (struct sink){.ops = &headless_sink_ops, .ctx = h};
}
