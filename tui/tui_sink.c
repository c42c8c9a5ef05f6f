/* The TUI as a sink of each open conversation's controller: the changes of the one on screen
 * only mark the screen dirty (the render clock paints); a conversation in the background
 * keeps its transcript and gathers marks (unread answers, a run that ended, a confirmation
 * asked), and asks for a frame only when what the strip and the bell show changes. Errors
 * become items of the transcript, notices show above the status line; each delta's arrival
 * is kept for the latency instrumentation. */
#include "conv.h"
#include "latency.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static bool shown(const struct conv *v)
{
	return v->u->cur == v;
}

static void on_changed(void *ctx)
{
	struct conv *v = ctx;
	if (v->u->ui.opening && shown(v)) {
		struct controller_status st;
		controller_status(v->ctl, &st);
		if (st.caught_up)
			ui_open_end(&v->u->ui); /* the opening frame shows the conversation */
	}
	if (shown(v) || conv_background_news(v))
		ui_schedule_frame(&v->u->ui);
}

/* A conversation in the background is held to history_memory like the one on screen: what
 * is far from where its reader left it goes (scrolling back there fetches it again). */
static void trim_background(struct conv *v)
{
	size_t max_bytes = (size_t)v->u->o->history_memory_mb << 20;
	/* transcript_bytes walks the items: looked at every 64 items, not on each. */
	if (++v->items_since_trim < 64)
		return;
	v->items_since_trim = 0;
	if (transcript_bytes(v->t) <= max_bytes)
		return;
	size_t count = transcript_count(v->t);
	long top = v->vp.follow ? -1 : transcript_index_of(v->t, v->vp.top_uid);
	size_t keep = top >= 0 ? (size_t)top : count ? count - 1 : 0;
	size_t screen = (size_t)(v->vp.height > 0 ? v->vp.height : 1);
	transcript_trim(v->t, keep > screen ? keep - screen : 0, keep + 2 * screen, max_bytes,
			HISTORY_KEEP_TAIL);
}

static void on_item(void *ctx, const struct sink_item *it)
{
	struct conv *v = ctx;
	if (!shown(v))
		trim_background(v);
	struct controller_status st;
	controller_status(v->ctl, &st);
	/* Replayed history is no news; an answer the user did not see is. */
	if (st.caught_up && it->seq >= 0)
		v->marks.activity_unix = (int64_t)time(NULL);
	if (!shown(v) && st.caught_up && it->seq >= 0 && it->spec->kind == ITEM_AGENT &&
	    (it->applied == APPLY_ADDED || it->applied == APPLY_RETIRED))
		v->marks.unread++;
}

static void on_status(void *ctx, const char *execution_status, bool run_ended)
{
	struct conv *v = ctx;
	(void)execution_status;
	struct controller_status st;
	controller_status(v->ctl, &st);
	if (st.caught_up)
		v->marks.activity_unix = (int64_t)time(NULL);
	v->marks.status_frame = v->u->frames;
	if (!shown(v) && run_ended && st.caught_up)
		v->marks.finished_unseen = true;
	/* A bell or a mark may be due: decided by the next frame, one tick from now. */
	ui_schedule_frame(&v->u->ui);
}

static void on_connection(void *ctx, const struct session_status *st, const char *reason,
			  bool repeat)
{
	struct conv *v = ctx;
	(void)reason, (void)repeat;
	if (st->state == SESSION_SYNCED)
		v->reached = true;
}

static void on_error(void *ctx, const char *code, const char *detail)
{
	struct conv *v = ctx;
	struct item_spec spec = {
		.kind = ITEM_ERROR, .seq = -1, .title = code, .text = detail,
		.text_len = strlen(detail),
	};
	transcript_add_event(v->t, &spec);
	if (shown(v)) {
		ui_open_end(&v->u->ui); /* an error is shown at once */
		/* "pausing…" is no longer true once the pause failed */
		ui_notice_settled(&v->u->ui);
	}
}

static void on_stream(void *ctx, const struct sink_stream *s)
{
	struct conv *v = ctx;
	if (s->state == SINK_STREAM_DELTA && shown(v))
		latency_delta(v->latency, s->at_us);
}

static void on_finished(void *ctx, int exit_code)
{
	struct conv *v = ctx;
	struct tui *u = v->u;
	v->ended = exit_code + 1;
	/* With others open, one conversation's end (not found, a refused key, given up) is
	 * said and the rest go on; alone, it ends tether with its exit code. */
	if (u->nconvs > 1 && !u->ui.quitting) {
		ui_notice(&u->ui, "%s has ended: %s", conv_name(v),
			   u->last_error ? u->last_error : "no more reconnects");
		ui_schedule_frame(&u->ui);
		return;
	}
	if (!u->ui.quitting) {
		u->ui.quitting = true;
		u->ui.exit_code = exit_code;
	}
	loop_quit(u->loop);
}

static void on_notice(void *ctx, const char *line)
{
	struct conv *v = ctx;
	struct tui *u = v->u;
	free(u->last_error);
	u->last_error = xstrdup(line);
	if (shown(v) || u->nconvs == 1)
		ui_notice(&u->ui, "%s", line);
	else
		ui_notice(&u->ui, "%s: %s", conv_name(v), line);
}

/* Back into the input, before what is there now (the draft kept aside when not shown). */
static void on_unsent(void *ctx, const char *text)
{
	struct conv *v = ctx;
	struct tui *u = v->u;
	if (!shown(v)) {
		struct buf b;
		buf_init(&b);
		buf_puts(&b, text);
		if (v->draft && *v->draft) {
			buf_putc(&b, '\n');
			buf_puts(&b, v->draft);
		}
		free(v->draft);
		v->draft = buf_steal(&b);
		v->draft_cursor = strlen(text);
		ui_notice(&u->ui, "%s: a message did not go out; it is back in its draft", conv_name(v));
		return;
	}
	char *now = editor_take(&u->input);
	editor_insert(&u->input, text, strlen(text));
	if (*now) {
		editor_insert(&u->input, "\n", 1);
		editor_insert(&u->input, now, strlen(now));
	}
	free(now);
	ui_schedule_frame(&u->ui);
}

static void on_destroy(void *ctx)
{
	struct conv *v = ctx;
	/* $TETHER_STATS holds one latency line: the first conversation's. */
	if (v->u->nconvs && v->u->convs[0] == v)
		latency_write_stats(v->latency, v->u->o->render_hz);
	latency_destroy(v->latency);
	v->latency = NULL;
}

static const struct sink_ops tui_sink_ops = {
	.connection = on_connection, .changed = on_changed, .item = on_item, .status = on_status,
	.error = on_error,     .stream = on_stream,   .notice = on_notice,
	.unsent = on_unsent,   .finished = on_finished, .destroy = on_destroy,
};

struct sink tui_sink(struct conv *v)
{
	v->latency = latency_create();
	return (struct sink){.ops = &tui_sink_ops, .ctx = v};
}
