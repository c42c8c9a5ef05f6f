/* The TUI as a sink: the controller's changes only mark the screen dirty (the render clock
 * paints), errors become items of the transcript, notices show above the status line; and
 * each delta's arrival is kept for the latency instrumentation. */
#include "interactive.h"
#include "latency.h"

#include <stdlib.h>
#include <string.h>

static void on_changed(void *ctx)
{
	tui_schedule_frame(ctx);
}

static void on_error(void *ctx, const char *code, const char *detail)
{
	struct tui *u = ctx;
	struct item_spec spec = {
		.kind = ITEM_ERROR, .seq = -1, .title = code, .text = detail,
		.text_len = strlen(detail),
	};
	transcript_add_event(u->t, &spec);
	tui_notice_settled(u); /* "pausing…" is no longer true once the pause failed */
}

static void on_stream(void *ctx, const struct sink_stream *s)
{
	struct tui *u = ctx;
	if (s->state == SINK_STREAM_DELTA)
		latency_delta(u->latency, s->at_us);
}

static void on_finished(void *ctx, int exit_code)
{
	struct tui *u = ctx;
	if (!u->quitting) {
		u->quitting = true;
		u->exit_code = exit_code;
	}
	loop_quit(u->loop);
}

static void on_notice(void *ctx, const char *line)
{
	struct tui *u = ctx;
	free(u->last_error);
	u->last_error = xstrdup(line);
	tui_notice(u, "%s", line);
}

/* Back into the input, before what is there now. */
static void on_unsent(void *ctx, const char *text)
{
	struct tui *u = ctx;
	char *now = editor_take(&u->input);
	editor_insert(&u->input, text, strlen(text));
	if (*now) {
		editor_insert(&u->input, "\n", 1);
		editor_insert(&u->input, now, strlen(now));
	}
	free(now);
	tui_schedule_frame(u);
}

static void on_destroy(void *ctx)
{
	struct tui *u = ctx;
	latency_write_stats(u->latency, u->o->render_hz);
	latency_destroy(u->latency);
	u->latency = NULL;
}

static const struct sink_ops tui_sink_ops = {
	.changed = on_changed, .error = on_error,   .stream = on_stream,   .notice = on_notice,
	.unsent = on_unsent,   .finished = on_finished, .destroy = on_destroy,
};

struct sink tui_sink(struct tui *u)
{
	u->latency = latency_create();
	return (struct sink){.ops = &tui_sink_ops, .ctx = u};
}
