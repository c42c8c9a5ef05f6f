#include "controller_int.h"
#include "clean.h"
#include "app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Open streams at most: an agent streams one or two items at a time, so more is a server
 * that never ends them; beyond this the oldest is discarded (with its terminal line) and
 * memory, stall checks and stalled lines stay bounded. */
enum { STREAMS_OPEN_MAX = 64 };

static const char *const state_names[] = {
	[SESSION_CONNECTING] = "connecting", [SESSION_OPEN] = "open",
	[SESSION_SYNCED] = "open",           [SESSION_CLOSED] = "closed",
	[SESSION_RECONNECTING] = "reconnecting", [SESSION_GAVE_UP] = "gave_up",
	[SESSION_FAILED] = "closed",
};

void ctl_changed(struct controller *c)
{
	if (c->ui.changed)
		c->ui.changed(c->ui.ctx);
}

void ctl_notice(struct controller *c, const char *line)
{
	struct buf clean;
	buf_init(&clean);
	controller_clean(c, line, strlen(line), &clean);
	if (c->ui.notice)
		c->ui.notice(c->ui.ctx, buf_cstr(&clean));
	buf_fini(&clean);
}

void controller_clean(struct controller *c, const char *text, size_t len, struct buf *out)
{
	/* Called for every string of every event: the sanitized copy reuses one buffer. */
	clean_text(c->masks, text, len, &c->clean_scratch, out);
}

char *ctl_cleaned(struct controller *c, const char *text)
{
	if (!text)
		return NULL;
	struct buf b;
	buf_init(&b);
	controller_clean(c, text, strlen(text), &b);
	return buf_steal(&b);
}

/* json_rewrite_strings callback: every string of an event crosses the same boundary. */
static void clean_json_string(void *ctx, const char *s, size_t len, struct buf *out)
{
	controller_clean(ctx, s, len, out);
}

static void filter_close(struct controller *c, const char *item_id);

/* One ndjson stream line. The item_id is the server's string: it is written sanitized and
 * masked like every other (the open filter keeps it cleaned once). */
static void stream_line(struct controller *c, const struct stream_filter *f, const char *item_id,
			int attempt, const char *state, const char *kind, const char *content,
			size_t content_len, const char *reason)
{
	if (!c->headless)
		return;
	struct buf id;
	buf_init(&id);
	const char *shown = f ? f->shown_id : NULL;
	if (!shown) {
		controller_clean(c, item_id, strlen(item_id), &id);
		shown = buf_cstr(&id);
	}
	headless_stream(&c->out, shown, attempt, state, kind, content, content_len, reason);
	buf_fini(&id);
}

void ctl_finish(struct controller *c, int exit_code)
{
	if (c->finished)
		return;
	c->finished = true;
	/* A close frame, not an abandoned socket: loop_run waits a bounded time for it. */
	session_stop(c->session);
	/* Every started stream ends in exactly one terminal line, also when the run ends first. */
	while (c->filters) {
		stream_line(c, c->filters, c->filters->item_id, c->filters->attempt, "discarded",
			    NULL, NULL, 0, NULL);
		filter_close(c, c->filters->item_id);
	}
	ctl_summaries_flush(c, "no result");
	if (c->headless)
		headless_result(&c->out, exit_code, session_has_cursor(c->session),
				session_cursor(c->session), c->durable_count, c->stream_count,
				c->reconnects);
	/* Output that did not reach its reader is a failed run, whatever else happened. */
	if (c->out.error)
		exit_code = c->out.error == EPIPE ? EXIT_SIGPIPE : EXIT_RUNTIME;
	if (c->ui.finished)
		c->ui.finished(c->ui.ctx, exit_code);
}

/* ------------------------------------------------------------ stream filters */

static struct stream_filter *filter_find(struct controller *c, const char *item_id)
{
	return strmap_get(&c->filter_index, item_id);
}

static void filter_reset(struct stream_filter *f, const struct mask_set *masks, int attempt)
{
	f->attempt = attempt;
	for (int k = 0; k < 2; k++) {
		sanitizer_init(&f->san[k]);
		mask_stream_fini(&f->mask[k]);
		mask_stream_init(&f->mask[k], masks);
	}
	f->last_delta_us = 0;
	f->stalled = false;
}

static struct stream_filter *filter_open(struct controller *c, const char *item_id, int attempt)
{
	struct stream_filter *f = filter_find(c, item_id);
	if (!f) {
		f = xcalloc(1, sizeof *f);
		f->item_id = xstrdup(item_id);
		struct buf shown;
		buf_init(&shown);
		controller_clean(c, item_id, strlen(item_id), &shown);
		f->shown_id = buf_steal(&shown);
		for (int k = 0; k < 2; k++)
			mask_stream_init(&f->mask[k], c->masks);
		f->next = c->filters;
		c->filters = f;
		c->nfilters++;
		strmap_put(&c->filter_index, f->item_id, f);
	}
	filter_reset(f, c->masks, attempt);
	return f;
}

/* Held text is dropped, never flushed: the durable event carries the authoritative text. */
static void filter_close(struct controller *c, const char *item_id)
{
	struct stream_filter *gone = strmap_del(&c->filter_index, item_id);
	for (struct stream_filter **p = &c->filters; gone && *p; p = &(*p)->next) {
		if (*p == gone) {
			struct stream_filter *f = *p;
			*p = f->next;
			c->nfilters--;
			for (int k = 0; k < 2; k++)
				mask_stream_fini(&f->mask[k]);
			free(f->item_id);
			free(f->shown_id);
			free(f);
			return;
		}
	}
}

/* Keeps at most STREAMS_OPEN_MAX streams open: the oldest go, each with its discarded line. */
static void bound_open_streams(struct controller *c)
{
	while (c->nfilters > STREAMS_OPEN_MAX) {
		struct stream_filter *oldest = c->filters;
		while (oldest->next)
			oldest = oldest->next;
		stream_line(c, oldest, oldest->item_id, oldest->attempt, "discarded", NULL, NULL, 0,
			    NULL);
		transcript_stream_abort(c->transcript, oldest->item_id, oldest->attempt, NULL);
		filter_close(c, oldest->item_id);
		if (!c->warned_streams) {
			c->warned_streams = true;
			struct buf line;
			buf_init(&line);
			buf_printf(&line, "the server keeps more than %d streams open: the oldest are discarded",
				   STREAMS_OPEN_MAX);
			ctl_notice(c, buf_cstr(&line));
			buf_fini(&line);
		}
	}
}

static size_t stalled_count(const struct controller *c)
{
	size_t n = 0;
	for (const struct stream_filter *f = c->filters; f; f = f->next)
		n += f->stalled;
	return n;
}

/* Checks a few times per stall limit, at most once a second. */
static int64_t stall_check_period(const struct controller *c)
{
	int64_t quarter = (int64_t)(c->o->stream_stall_s * 1e6 / 4);
	return quarter < 1000000 ? (quarter > 10000 ? quarter : 10000) : 1000000;
}

/* Marks streams without a delta for stream_stall seconds as stalled; re-arms while any is armed. */
static void check_stalls(struct controller *c, int64_t now_us)
{
	bool any_armed = false;
	for (struct stream_filter *f = c->filters; f; f = f->next) {
		if (!f->last_delta_us)
			continue;
		any_armed = true;
		/* While a tool runs, silence is work, not a stall. */
		int64_t limit = (int64_t)(c->o->stream_stall_s * 1e6);
		bool quiet = now_us - f->last_delta_us >= limit && c->running_tools == 0;
		if (quiet && !f->stalled) {
			f->stalled = true;
			transcript_stream_set_stalled(c->transcript, f->item_id, true);
			stream_line(c, f, f->item_id, f->attempt, "stalled", NULL, NULL, 0, NULL);
			ctl_changed(c);
		}
	}
	if (any_armed && !c->finished)
		loop_timer_schedule(c->stall_timer, stall_check_period(c));
}

static void stall_timer_fired(void *arg)
{
	check_stalls(arg, clock_now_us());
}

/* ------------------------------------------------------------ status and --until */

bool ctl_status_is(const char *s, const char *v)
{
	return s && !strcmp(s, v);
}

/* cli.md: idle, finished and paused end a run (exit 0), error and stuck end it badly (6). */
static bool status_ended_run(enum run_status s)
{
	return s == RUN_STATUS_IDLE || s == RUN_STATUS_FINISHED || s == RUN_STATUS_PAUSED ||
	       s == RUN_STATUS_ERROR || s == RUN_STATUS_STUCK;
}

static void check_until(struct controller *c, enum run_status status, bool live)
{
	if (!c->headless || c->finished || !live)
		return;
	bool all_sent = outbox_pending(c->outbox) == 0 && !c->stdin_open;
	if (!all_sent)
		return;
	if (status == RUN_STATUS_ERROR || status == RUN_STATUS_STUCK) {
		if (c->o->until != UNTIL_NEVER)
			ctl_finish(c, EXIT_RUN_FAILED);
		return;
	}
	bool idle = status == RUN_STATUS_IDLE || status == RUN_STATUS_FINISHED;
	if (!idle) {
		c->busy_since_send = true;
		return;
	}
	if (c->o->until == UNTIL_FINISHED) {
		if (status == RUN_STATUS_FINISHED)
			ctl_finish(c, EXIT_OK);
	} else if (c->o->until == UNTIL_IDLE) {
		if (!c->sent_anything || c->busy_since_send)
			ctl_finish(c, EXIT_OK);
	}
}

/* The TUI holds typed messages back while actions wait for confirmation (a message would
 * allow them: see modal.c) and while a connection replays, when the status is not known
 * yet. Headless --send keeps cli.md's "on the first connection that reaches sync". */
static void gate_outbox(struct controller *c)
{
	if (c->headless)
		return;
	bool replaying = c->connection == SESSION_SYNCED && !c->caught_up;
	outbox_hold(c->outbox, replaying || c->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION);
}

static void set_execution_status(struct controller *c, const struct event *e, bool live)
{
	const char *status = e->execution_status;
	if (!status)
		return;
	/* The server's value is shown (status line, ndjson) only sanitized and masked; the
	 * decisions below read the value as received. */
	struct buf shown;
	buf_init(&shown);
	controller_clean(c, status, strlen(status), &shown);
	if (!ctl_status_is(c->execution_status, buf_cstr(&shown))) {
		free(c->execution_status);
		c->execution_status = buf_steal(&shown);
		c->run_status = e->run_status;
		if (c->headless)
			headless_status(&c->out, c->execution_status);
		transcript_set_awaiting_confirmation(c->transcript,
						     e->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION);
		gate_outbox(c);
		if (status_ended_run(e->run_status)) {
			transcript_mark_run_ended(c->transcript);
			c->running_tools = 0;
			ctl_summaries_flush(c, "no result (run ended)");
		}
		ctl_changed(c);
	}
	buf_fini(&shown);
	check_until(c, e->run_status, live);
}

static void caught_up(struct controller *c)
{
	if (c->caught_up)
		return;
	c->caught_up = true;
	loop_timer_cancel(c->catchup_timer);
	gate_outbox(c);
	ctl_changed(c);
	/* Catching up with nothing to send is the whole job of `--until idle`. */
	if (c->headless && c->o->until == UNTIL_IDLE && !c->sent_anything && !c->stdin_open)
		ctl_finish(c, EXIT_OK);
}

/* cli.md: without a snapshot, catch-up ends 1 s after the last replayed durable (the server
 * may send none, and its last event may be unreadable, so no seq reaches through_seq). */
static void catchup_timer_fired(void *arg)
{
	struct controller *c = arg;

	if (!c->finished && c->connection == SESSION_SYNCED)
		caught_up(c);
}

static void catchup_rearm(struct controller *c)
{
	if (!c->caught_up)
		loop_timer_schedule(c->catchup_timer, 1000000);
}

/* ------------------------------------------------------------ frames */

static void apply_event(struct controller *c, const struct event *e, int64_t seq)
{
	struct item_spec spec;
	struct buf store;
	buf_init(&store);
	if (ctl_event_to_spec(c, e, seq, &spec, &store)) {
		enum apply_result r = transcript_add_event(c->transcript, &spec);
		if (r == APPLY_RETIRED && e->id) {
			struct stream_filter *f = filter_find(c, e->id);
			stream_line(c, f, e->id, f ? f->attempt : 1, "retired", NULL, NULL, 0, NULL);
			filter_close(c, e->id);
		}
		if (r != APPLY_DUPLICATE) {
			/* A card that came with its result (ACP) never ran here; one that a later
			 * emission ended stops running. */
			bool ends = spec.kind == ITEM_TOOL_RESULT ||
				    (spec.kind == ITEM_TOOL && r == APPLY_ATTACHED && spec.has_result);
			if (spec.kind == ITEM_TOOL && r == APPLY_ADDED && !spec.has_result)
				c->running_tools++;
			else if (ends && c->running_tools)
				c->running_tools--;
			if (c->headless && c->o->format == FORMAT_TEXT && seq >= 0)
				ctl_text_mode_event(c, &spec, e);
		}
		ctl_changed(c);
	}
	buf_fini(&store);
}

/* The ndjson durable/transient line: the event JSON with every string sanitized and masked. */
static void emit_event_line(struct controller *c, const struct frame *f)
{
	if (!c->headless || c->o->format != FORMAT_NDJSON)
		return;
	struct buf masked;
	buf_init(&masked);
	if (frame_event_rewrite(f, clean_json_string, c, &masked) == 0) {
		if (f->type == FRAME_DURABLE)
			headless_durable(&c->out, f->seq, masked.data, masked.len);
		else
			headless_transient(&c->out, masked.data, masked.len);
	}
	buf_fini(&masked);
}

static void on_durable(struct controller *c, const struct frame *f)
{
	c->durable_count++;
	emit_event_line(c, f);
	bool live = c->caught_up;
	apply_event(c, &f->event, f->seq);
	if (f->event.kind == EVENT_STATE_UPDATE)
		set_execution_status(c, &f->event, live);
	if (!c->caught_up && (!c->has_through_seq || f->seq >= c->through_seq))
		caught_up(c);
	catchup_rearm(c);
}

static void on_transient(struct controller *c, const struct frame *f)
{
	emit_event_line(c, f);
	/* The first transient after sync is the snapshot that ends replay; it never ends a run. */
	bool live = c->caught_up;
	caught_up(c);
	if (f->event.kind == EVENT_STATE_UPDATE)
		set_execution_status(c, &f->event, live);
	else
		apply_event(c, &f->event, -1);
}

static void on_started(struct controller *c, const struct frame *f)
{
	enum apply_result r = transcript_stream_start(c->transcript, f->item_id, f->attempt,
						      f->has_anchor_seq, f->anchor_seq);
	if (r != APPLY_OPENED && r != APPLY_SUPERSEDED)
		return;
	struct stream_filter *filt = filter_open(c, f->item_id, f->attempt);
	if (r == APPLY_OPENED)
		c->stream_count++;
	bound_open_streams(c);
	stream_line(c, filt, f->item_id, f->attempt, "started", NULL, NULL, 0, NULL);
	ctl_changed(c);
}

static void record_delta(struct controller *c, const struct frame *f, const char *item_id,
			 const char *content, size_t len);

static void on_delta(struct controller *c, const struct frame *f)
{
	int open_attempt = transcript_stream_attempt(c->transcript, f->item_id);
	if (open_attempt > f->attempt)
		return; /* stale attempt */
	struct stream_filter *filt = filter_find(c, f->item_id);
	if (!open_attempt || !filt || filt->attempt != f->attempt) {
		/* A first delta without item_started, or a higher attempt: the delta opens it. */
		enum apply_result r = transcript_stream_start(c->transcript, f->item_id, f->attempt,
							      false, 0);
		if (r != APPLY_OPENED && r != APPLY_SUPERSEDED)
			return;
		if (r == APPLY_OPENED)
			c->stream_count++;
		filt = filter_open(c, f->item_id, f->attempt);
		bound_open_streams(c);
		stream_line(c, filt, f->item_id, f->attempt, "started", NULL, NULL, 0, NULL);
	}
	int k = f->delta_kind == DELTA_REASONING;
	/* The hot path: scratch buffers live in the controller, so a delta allocates nothing. */
	struct buf san = c->delta_san, out = c->delta_out;
	buf_clear(&san);
	buf_clear(&out);
	sanitizer_feed(&filt->san[k], f->content, f->content_len, &san);
	mask_stream_feed(&filt->mask[k], san.data ? san.data : "", san.len, &out);
	transcript_stream_delta(c->transcript, f->item_id, f->attempt, f->order, k,
				out.data ? out.data : "", out.len);
	if (out.len)
		stream_line(c, filt, f->item_id, f->attempt, "delta", k ? "reasoning" : "text",
			    out.data, out.len, NULL);
	if (c->record)
		record_delta(c, f, filt->shown_id, out.data ? out.data : "", out.len);
	c->delta_san = san;
	c->delta_out = out;
	filt->last_delta_us = clock_now_us();
	if (!c->headless) {
		if (c->nunpainted == c->unpainted_cap) {
			c->unpainted_cap = c->unpainted_cap ? 2 * c->unpainted_cap : 256;
			c->unpainted = xrealloc(c->unpainted, c->unpainted_cap * sizeof *c->unpainted);
		}
		c->unpainted[c->nunpainted++] = filt->last_delta_us;
	}
	if (filt->stalled) {
		filt->stalled = false;
		transcript_stream_set_stalled(c->transcript, f->item_id, false);
	}
	if (!loop_timer_pending(c->stall_timer))
		loop_timer_schedule(c->stall_timer, stall_check_period(c));
	ctl_changed(c);
}

static void on_aborted(struct controller *c, const struct frame *f)
{
	enum apply_result r = transcript_stream_abort(c->transcript, f->item_id, f->attempt,
						      f->reason);
	if (r != APPLY_ABORTED)
		return;
	struct buf reason;
	buf_init(&reason);
	if (f->reason)
		controller_clean(c, f->reason, strlen(f->reason), &reason);
	stream_line(c, filter_find(c, f->item_id), f->item_id, f->attempt, "aborted", NULL, NULL, 0,
		    buf_cstr(&reason));
	buf_fini(&reason);
	filter_close(c, f->item_id);
	ctl_changed(c);
}

void ctl_add_error_item(struct controller *c, const char *code, const char *detail)
{
	struct item_spec spec = {.kind = ITEM_ERROR, .seq = -1};
	struct buf a, b;
	buf_init(&a);
	buf_init(&b);
	controller_clean(c, code, strlen(code), &a);
	if (detail)
		controller_clean(c, detail, strlen(detail), &b);
	spec.title = buf_cstr(&a);
	spec.text = buf_cstr(&b);
	spec.text_len = b.len;
	if (c->headless)
		headless_error(&c->out, spec.title, spec.text);
	else
		transcript_add_event(c->transcript, &spec);
	buf_fini(&a);
	buf_fini(&b);
	ctl_changed(c);
}

static void session_frame(void *ctx, const struct frame *f)
{
	struct controller *c = ctx;
	if (c->finished)
		return;
	switch (f->type) {
	case FRAME_SYNC:
		c->has_through_seq = f->has_through_seq;
		c->through_seq = f->through_seq;
		c->caught_up = false;
		gate_outbox(c);
		if (c->headless)
			headless_sync(&c->out, f->has_from_seq, f->from_seq, f->has_through_seq,
				      f->through_seq);
		/* Nothing to replay: caught up at once. */
		if (!f->has_through_seq ||
		    (session_has_cursor(c->session) && session_cursor(c->session) >= f->through_seq) ||
		    (!f->has_from_seq))
			caught_up(c);
		catchup_rearm(c);
		ctl_changed(c);
		break;
	case FRAME_DURABLE:
		on_durable(c, f);
		break;
	case FRAME_TRANSIENT:
		on_transient(c, f);
		break;
	case FRAME_ITEM_STARTED:
		on_started(c, f);
		break;
	case FRAME_DELTA:
		on_delta(c, f);
		break;
	case FRAME_ITEM_ABORTED:
		on_aborted(c, f);
		break;
	case FRAME_ERROR:
		ctl_add_error_item(c, f->code ? f->code : "error", f->detail);
		break;
	case FRAME_UNKNOWN:
		break;
	}
}

static void session_bad_frame(void *ctx, const char *code, const char *detail, int64_t seq)
{
	struct controller *c = ctx;
	struct buf d;
	buf_init(&d);
	if (seq >= 0)
		buf_printf(&d, "event seq %lld could not be received and was skipped (%s)",
			   (long long)seq, detail ? detail : code);
	else
		buf_puts(&d, detail ? detail : "");
	ctl_add_error_item(c, code, buf_cstr(&d));
	buf_fini(&d);
}

/* The record is data: a line that cannot be written ends the run (exit 1), said once. */
static void record_line(struct controller *c, const char *frame_json, size_t len)
{
	double t = (double)(clock_now_us() - c->started_us) / 1e6;
	errno = 0;
	fprintf(c->record, "{\"t\":%.6f,\"conn\":%d,\"frame\":", t, c->connection_number);
	fwrite(frame_json, 1, len, c->record);
	fputs("}\n", c->record);
	if (fflush(c->record) == 0 && !ferror(c->record))
		return;
	int err = errno ? errno : EIO;
	fclose(c->record);
	c->record = NULL;
	struct buf m;
	buf_init(&m);
	buf_printf(&m, "--record %s: cannot write: %s; the record is incomplete",
		   c->o->record_path ? c->o->record_path : "", strerror(err));
	ctl_notice(c, buf_cstr(&m));
	buf_fini(&m);
	ctl_finish(c, EXIT_RUNTIME);
}

/* --record: every received frame, masked. Deltas are recorded by on_delta instead, with the
 * stream masker's output as content: masking each delta frame alone would let a secret split
 * across two deltas into the file (#15720). */
static void session_raw(void *ctx, const char *json, size_t len)
{
	struct controller *c = ctx;
	if (!c->record || c->finished)
		return;
	struct frame f;
	struct codec_error err;
	if (frame_decode(json, len, &f, &err) == 0) {
		bool delta = f.type == FRAME_DELTA;
		frame_fini(&f);
		if (delta)
			return;
	}
	struct buf masked;
	buf_init(&masked);
	if (json_rewrite_strings(json, len, clean_json_string, c, &masked, &err) == 0) {
		record_line(c, masked.data, masked.len);
	} else {
		/* Not JSON: kept as a masked string, as the fixture's replay expects. */
		struct buf clean;
		buf_init(&clean);
		controller_clean(c, json, len, &clean);
		json_append_string(&masked, clean.data ? clean.data : "", clean.len);
		record_line(c, masked.data, masked.len);
		buf_fini(&clean);
	}
	buf_fini(&masked);
}

/* item_id comes cleaned, as json_rewrite_strings cleans every string of the other frames. */
static void record_delta(struct controller *c, const struct frame *f, const char *item_id,
			 const char *content, size_t len)
{
	struct buf b;
	buf_init(&b);
	frame_encode_delta(f, item_id, content, len, clean_json_string, c, &b);
	record_line(c, b.data, b.len);
	buf_fini(&b);
}

static void session_discard(void *ctx)
{
	struct controller *c = ctx;
	while (c->filters) {
		struct stream_filter *f = c->filters;
		stream_line(c, f, f->item_id, f->attempt, "discarded", NULL, NULL, 0, NULL);
		filter_close(c, f->item_id);
	}
	transcript_discard_streams(c->transcript);
	ctl_changed(c);
}

static void session_status_changed(void *ctx, const struct session_status *st)
{
	struct controller *c = ctx;
	c->connection = st->state;
	c->attempt = st->attempt;
	if (st->state == SESSION_CONNECTING) {
		c->connection_number++;
		if (c->connection_number > 1)
			c->reconnects++;
	}
	if (st->state == SESSION_CLOSED || st->state == SESSION_FAILED)
		c->last_close_code = st->close_code;
	if (st->state == SESSION_RECONNECTING)
		c->retry_at_us = clock_now_us() + st->retry_in_us;
	if (st->state == SESSION_CLOSED || st->state == SESSION_SYNCED) {
		/* the TUI says why it keeps reconnecting */
		const char *why = session_last_failure(c->session);
		free(c->last_failure);
		c->last_failure = NULL;
		if (why) {
			struct buf clean;
			buf_init(&clean);
			controller_clean(c, why, strlen(why), &clean);
			c->last_failure = buf_steal(&clean);
		}
	}
	if (st->state == SESSION_CONNECTING)
		c->caught_up = false; /* until this connection's sync and replay */
	gate_outbox(c);
	if (st->state == SESSION_SYNCED) {
		c->synced_once = true;
		outbox_synced(c->outbox);
	}
	/* A fatal close is one state change: its closed line was written at SESSION_CLOSED. */
	bool repeat = st->state == SESSION_FAILED && c->closed_reported;
	c->closed_reported = st->state == SESSION_CLOSED;
	if (c->headless && st->state != SESSION_SYNCED && !repeat && !c->finished) {
		struct buf reason;
		buf_init(&reason);
		if (st->reason)
			controller_clean(c, st->reason, strlen(st->reason), &reason);
		headless_connection(&c->out, state_names[st->state], st->attempt, st->close_code,
				    st->reason ? buf_cstr(&reason) : NULL,
				    st->state == SESSION_CONNECTING && st->has_after_seq, st->after_seq,
				    st->state == SESSION_RECONNECTING ? (double)st->retry_in_us / 1e6 : 0);
		if (c->o->format == FORMAT_TEXT && (st->state == SESSION_CLOSED ||
						    st->state == SESSION_RECONNECTING ||
						    st->state == SESSION_FAILED ||
						    st->state == SESSION_GAVE_UP))
			fprintf(stderr, "tether: connection %s%s%s\n", state_names[st->state],
				st->reason ? ": " : "", st->reason ? buf_cstr(&reason) : "");
		buf_fini(&reason);
	}
	if (st->state == SESSION_GAVE_UP || st->state == SESSION_FAILED) {
		if (st->end == SESSION_END_AUTH)
			ctl_notice(c, "authentication failed: check the session API key (env TETHER_SESSION_API_KEY or tether key set)");
		else if (st->end == SESSION_END_NOT_FOUND)
			ctl_notice(c, "conversation not found on this server");
		else if (st->end == SESSION_END_GAVE_UP)
			ctl_notice(c, "gave up reconnecting (--max-retries exhausted)");
		ctl_finish(c, app_exit_for_end(st->end));
		return;
	}
	ctl_changed(c);
}

/* ------------------------------------------------------------ lifecycle */

static void outbox_error(void *ctx, const char *line)
{
	ctl_notice(ctx, line);
}

/* stdout failed: a reader that went away (EPIPE, `| head -1`) ends the run quietly with the
 * shell's SIGPIPE status; any other failure (a full disk) is said once and is exit 1. */
static void stdout_failed(void *ctx, int err)
{
	struct controller *c = ctx;
	if (err != EPIPE) {
		struct buf m;
		buf_init(&m);
		buf_printf(&m, "cannot write to standard output: %s; the output is incomplete",
			   strerror(err));
		ctl_notice(c, buf_cstr(&m));
		buf_fini(&m);
	}
	ctl_finish(c, err == EPIPE ? EXIT_SIGPIPE : EXIT_RUNTIME);
}

void ctl_write_stats(const struct controller *c);

struct controller *controller_create(struct loop *loop, const struct options *o,
				     struct mask_set *masks, const char *api_key, FILE *record,
				     bool headless, const struct controller_ui *ui)
{
	struct controller *c = xcalloc(1, sizeof *c);
	c->loop = loop;
	c->o = o;
	c->masks = masks;
	c->api_key = xstrdup(api_key);
	c->headless = headless;
	if (ui)
		c->ui = *ui;
	headless_init(&c->out, stdout, o->format, stdout_failed, c);
	c->shown_server = ctl_cleaned(c, o->server);
	c->shown_conversation_id = ctl_cleaned(c, o->conversation_id);
	c->transcript = transcript_create();
	c->stall_timer = loop_timer_create(loop, stall_timer_fired, c);
	c->catchup_timer = loop_timer_create(loop, catchup_timer_fired, c);
	c->started_us = clock_now_us();
	c->connection = SESSION_CONNECTING;
	c->record = record;
	struct session_config cfg = {
		.server_url = o->server,
		.conversation_id = o->conversation_id,
		.api_key = api_key,
		.no_history = o->no_history,
		.after_seq = o->after_seq,
		.ping_interval_s = o->ping_interval_s,
		.stall_timeout_s = o->stall_timeout_s,
		.max_retries = o->max_retries >= 0 ? o->max_retries : headless ? 8 : 0,
		.insecure = o->insecure,
	};
	struct session_handlers h = {
		.ctx = c,
		.on_status = session_status_changed,
		.on_frame = session_frame,
		.on_bad_frame = session_bad_frame,
		.on_raw = session_raw,
		.on_discard_streams = session_discard,
	};
	c->session = session_create(loop, &cfg, &h);
	/* Headless --send goes over the first synced socket only (cli.md); the TUI falls back to
	 * REST so that a message typed while the socket is down still goes out. */
	c->outbox = outbox_create(loop, c->session, !headless, o->server, o->conversation_id, c->api_key,
				  o->insecure, outbox_error, c);
	return c;
}

void controller_start(struct controller *c)
{
	for (size_t i = 0; i < c->o->nsends; i++)
		controller_send(c, c->o->sends[i]);
	if (c->o->send_stdin)
		ctl_stdin_start(c);
	if (!c->headless && c->o->conversation_id)
		ctl_fetch_title(c);
	session_start(c->session);
}

void controller_quit(struct controller *c, int exit_code)
{
	ctl_finish(c, exit_code);
}

void controller_destroy(struct controller *c)
{
	if (!c)
		return;
	ctl_write_stats(c);
	free(c->unpainted);
	outbox_destroy(c->outbox);
	ctl_rest_detach(c);
	session_destroy(c->session);
	while (c->filters)
		filter_close(c, c->filters->item_id);
	strmap_fini(&c->filter_index);
	buf_fini(&c->delta_san);
	buf_fini(&c->clean_scratch);
	buf_fini(&c->delta_out);
	loop_timer_destroy(c->stall_timer);
	loop_timer_destroy(c->catchup_timer);
	free(c->last_failure);
	transcript_destroy(c->transcript);
	if (c->record)
		fclose(c->record);
	ctl_summaries_free(c);
	free(c->title);
	free(c->shown_server);
	free(c->shown_conversation_id);
	free(c->execution_status);
	if (c->api_key) {
		volatile char *p = c->api_key;
		while (*p)
			*p++ = 0;
		free(c->api_key);
	}
	free(c);
}

struct transcript *controller_transcript(struct controller *c)
{
	return c->transcript;
}

void controller_status(const struct controller *c, struct controller_status *st)
{
	memset(st, 0, sizeof *st);
	st->server = c->shown_server;
	st->conversation_id = c->shown_conversation_id;
	st->title = c->title;
	st->connection = c->connection;
	st->attempt = c->attempt;
	st->retry_at_us = c->retry_at_us;
	st->last_close_code = c->last_close_code;
	st->last_failure = c->last_failure;
	st->has_cursor = session_has_cursor(c->session);
	st->cursor = session_cursor(c->session);
	st->execution_status = c->execution_status;
	st->run_status = c->run_status;
	st->syncing = !c->caught_up && c->connection == SESSION_SYNCED;
	st->sync_through_seq = c->has_through_seq ? c->through_seq : -1;
	st->stalled_streams = stalled_count(c);
	st->pending_messages = outbox_pending(c->outbox);
	st->awaiting_confirmation = c->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION;
}
