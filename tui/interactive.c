/* interactive: the TUI's wiring. Terminal input and signals join the one loop; the
 * controller's changes, keys and signals only mark the screen dirty, and the render clock
 * paints at most one frame per period. Between frames nothing wakes up unless text is still
 * being revealed, a countdown is shown, or a notice is about to expire. */
#include "tui.h"
#include "conv.h"
#include "history_view.h"
#include "elsewhere.h"
#include "pager.h"
#include "modal.h"
#include "board_view.h"
#include "paint.h"
#include "band.h"
#include "bindings.h"
#include "mouse.h"
#include "probe.h"
#include "status.h"
#include "terminal.h"
#include "latency.h"
#include "recorder.h"
#include "history_file.h"
#include "external_editor.h"
#include "outfile.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	INPUT_BLOCK_BYTES = 64 * 1024,
	INPUT_TURN_BYTES = 1024 * 1024,
};

/* The modal opens (without the keyboard's focus) when actions start to wait, and again when
 * other actions wait than those set aside; it closes when nothing waits any more. */
static void track_confirmation(struct tui *u, const struct controller_status *st)
{
	size_t n = st->awaiting_confirmation ? transcript_pending_tools(u->cur->t, NULL, 0) : 0;
	size_t last = 0;
	if (n)
		transcript_pending_tools(u->cur->t, &last, 1);
	size_t signature = n ? n * 1000003u + last : 0;
	if (st->awaiting_confirmation && (!u->cur->confirm.was_awaiting || signature != u->cur->confirm.signature)) {
		u->cur->confirm.hidden = false;
		/* Other actions than those the user looked at: no key answers before a new look. */
		u->cur->confirm.focused = false;
		u->cur->confirm.choice = -1;
	}
	const struct layer *top = layers_top(&u->layers);
	bool modal_on_top = top == &confirm_layer || top == &reason_layer;
	if (u->modal != u->cur) {
		/* Opened from the board for another conversation: closed once nothing waits there. */
		struct controller_status other;
		controller_status(u->modal->ctl, &other);
		if (!other.awaiting_confirmation && modal_on_top)
			modal_close(u);
		return;
	}
	if (!st->awaiting_confirmation && modal_on_top)
		modal_close(u);
	if (st->awaiting_confirmation && !u->cur->confirm.hidden && !u->layers.n)
		modal_open(u, false);
	u->cur->confirm.was_awaiting = st->awaiting_confirmation;
	u->cur->confirm.signature = signature;
}

/* After the frame's doupdate: the title (the conversation on screen), a bell or a
 * notification (any open conversation), straight to the terminal. */
static void call_back(struct tui *u, int64_t now)
{
	bool bell = false;
	int others_need = 0;
	for (size_t i = 0; i < u->nconvs; i++)
		if (u->convs[i] != u->cur && conv_mark(u->convs[i]) >= CONV_MARK_ERROR)
			others_need++;
	u->cur->attention.others_need = others_need + (int)conv_far_waiting(u);
	for (size_t i = 0; i < u->nconvs; i++) {
		struct conv *v = u->convs[i];
		struct controller_status st;
		controller_status(v->ctl, &st);
		struct attention_calls calls;
		attention_observe(&v->attention, &st, now, &calls);
		if (calls.set_title && v == u->cur)
			terminal_set_title(calls.title);
		bell = bell || calls.bell;
		if (calls.bell && v != u->cur) {
			uint64_t late = u->frames - v->marks.status_frame;
			u->background_rings++;
			if (late > u->ring_frames_max)
				u->ring_frames_max = late;
		}
		if (calls.notify)
			terminal_notify(u->o->notify == NOTIFY_OSC777, calls.notify_title,
					calls.notify_body);
	}
	if (bell)
		terminal_bell();
}

static void on_frame(void *arg)
{
	struct tui *u = arg;
	if (u->ui.quitting)
		return;
	int64_t now = clock_now_us();
	u->frames++;
	if (u->ui.paused) {
		render_clock_painted(&u->ui.clock, now);
		return;
	}
	bool more = transcript_reveal_tick(u->cur->t);
	struct controller_status st;
	controller_status(u->cur->ctl, &st);
	ui_notice_expire(&u->ui, &st, now);
	if (u->ui.redraw) {
		u->ui.redraw = false;
		draw_painter_forget(&u->paint);
	}
	track_confirmation(u, &st);
	/* The topmost layer that covers the screen paints it, else the conversation does. */
	const struct layer *screen = layers_screen(&u->layers);
	if (screen) {
		band_release(); /* ncurses draws over the transcript's lines: they are its own again */
		draw_cursor(&u->paint, false, getcury(stdscr), getcurx(stdscr));
		screen->paint(u, &st, now);
	}
	else
		paint_frame(u, &st, now);
	/* Painted: from here a frame asked for (a page started, its "loading…" to show) is the
	 * next one, where before this line the clock, still armed for this frame, dropped it. */
	render_clock_painted(&u->ui.clock, now);
	call_back(u, now);
	if (!u->layers.overlay)
		history_view_painted(u, now);
	history_view_check(u, &st);
	latency_painted(u->cur->latency, now);
	if (more)
		ui_schedule_frame(&u->ui);
	if (u->ui.clock.armed)
		return; /* the next frame is due at the clock: more to reveal, or a hook asked */
	int64_t next = status_next_change(&st, now);
	if (u->ui.notice) {
		int64_t left = u->ui.notice_until - now;
		if (next < 0 || left < next)
			next = left;
	}
	/* The spinner turns at most at the render clock (render_hz below its own pace). */
	if (next >= 0 && next < u->ui.clock.period_us)
		next = u->ui.clock.period_us;
	if (next >= 0)
		loop_timer_schedule(u->ui.frame_timer, next);
}

/* The conversation did not catch up within one render period: what there is is painted. */
static void on_opening_over(void *arg)
{
	struct tui *u = arg;
	ui_open_end(&u->ui);
}

/* The terminal's answer to a query at start: a background of the other lightness than the
 * colours assumed repaints the whole screen in the theme that fits it. */
static void on_reply(struct tui *u, const struct key_event *ev)
{
	if (probe_reply(&u->probe, ev->text, ev->len) && u->o->theme == THEME_CHOICE_AUTO &&
	    draw_set_theme((enum theme_kind)u->probe.background))
		ui_invalidate(&u->ui);
}

static void on_key(void *arg, const struct key_event *ev)
{
	struct tui *u = arg;
	if (u->ui.quitting)
		return;
	if (ev->kind == KEYS_REPLY)
		on_reply(u, ev);
	else if (ev->kind == KEYS_MOUSE)
		mouse_handle(u, ev);
	else
		bindings_handle(u, ev);
}

/* The colours at start: the theme set, else what COLORFGBG says, else dark (until the
 * terminal's answer to OSC 11 says otherwise). */
static enum theme_kind first_theme(const struct options *o)
{
	enum theme_kind t = THEME_DARK;
	if (o->theme == THEME_CHOICE_LIGHT)
		return THEME_LIGHT;
	if (o->theme == THEME_CHOICE_AUTO)
		(void)theme_from_colorfgbg(getenv("COLORFGBG"), &t);
	return t;
}

/* Asked once the screen is ours; the answers come as keys. Under tmux the clipboard is
 * tmux's to say (clipboard.c asks it), not the terminal's. */
static void ask_terminal(struct tui *u)
{
	const char *tmux = getenv("TMUX");
	probe_init(&u->probe);
	probe_ask(&u->probe, u->o->theme == THEME_CHOICE_AUTO && terminal_colors(),
		  u->o->osc52 == OSC52_AUTO && !(tmux && *tmux));
}

static void on_input_hangup(void *arg)
{
	struct tui *u = arg;
	ui_quit(&u->ui, 128 + SIGHUP);
}

static void on_input(void *arg);

/* Reads what the terminal has, a block at a time and at most INPUT_TURN_BYTES per loop turn,
 * so that signals, the network and frames keep their turns during a long paste. Returns the
 * bytes read. */
static size_t read_input(struct tui *u)
{
	int fd = terminal_input_fd();
	size_t total = 0;
	while (!u->ui.quitting && total < INPUT_TURN_BYTES) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
			break;
		ssize_t r = read(fd, u->input_block, INPUT_BLOCK_BYTES);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0) {
			on_input_hangup(u);
			break;
		}
		total += (size_t)r;
		keys_feed(&u->keys, u->input_block, (size_t)r, on_key, u);
	}
	int64_t wait = keys_wait_us(&u->keys);
	if (wait >= 0 && !u->ui.quitting)
		loop_timer_schedule(u->key_timer, wait);
	else
		loop_timer_cancel(u->key_timer);
	return total;
}

/* The terminal belongs to a child ($EDITOR) while paused. */
static void input_pause(void *ctx, bool pause)
{
	struct tui *u = ctx;
	if (pause) {
		loop_unwatch_fd(u->loop, terminal_input_fd());
		loop_timer_cancel(u->key_timer);
	} else if (loop_watch_fd(u->loop, terminal_input_fd(), on_input, on_input_hangup, u) != 0) {
		free(u->last_error);
		u->last_error = xstrdup("cannot watch the terminal for input");
		ui_quit(&u->ui, 1);
	}
}

static void on_input(void *arg)
{
	struct tui *u = arg;
	read_input(u);
	ui_schedule_frame(&u->ui);
}

/* The terminal sent nothing more after an Esc, an unfinished sequence or a paste's end
 * marker. Bytes that came meanwhile are read first: only real silence decides. */
static void on_key_timer(void *arg)
{
	struct tui *u = arg;
	if (read_input(u) == 0 && !u->ui.quitting) {
		keys_expire(&u->keys, on_key, u);
		int64_t wait = keys_wait_us(&u->keys);
		if (wait >= 0)
			loop_timer_schedule(u->key_timer, wait);
	}
	ui_schedule_frame(&u->ui);
}

static void on_signal(void *arg, int signo)
{
	struct tui *u = arg;
	if (external_editor_signal(u, signo))
		return;
	switch (signo) {
	case SIGWINCH:
		terminal_resize();
		ui_invalidate(&u->ui);
		break;
	case SIGINT:
		bindings_ctrl_c(u);
		break;
	case SIGTERM:
	case SIGHUP:
		ui_quit(&u->ui, 128 + signo);
		break;
	case SIGTSTP:
		ui_suspend(&u->ui);
		break;
	case SIGCONT:
		/* Also after a stop we did not ask for: a job-control shell may have changed
		 * the tty modes meanwhile. */
		terminal_resume();
		ui_invalidate(&u->ui);
		break;
	default:
		break;
	}
}

static void tui_free(struct tui *u)
{
	loop_timer_destroy(u->ui.frame_timer);
	loop_timer_destroy(u->ui.opening_timer);
	loop_timer_destroy(u->key_timer);
	loop_timer_destroy(u->search_timer);
	free(u->input_block);
	keys_fini(&u->keys);
	editor_fini(&u->input);
	editor_fini(&u->query);
	editor_fini(&u->reason);
	editor_fini(&u->answer);
	server_cmds_fini(u);
	pager_free(u);
	paint_fini(&u->paint);
	ui_fini(&u->ui);
	free(u->last_error);
	free(u->history_path);
	free(u);
}

/* $TETHER_STATS: the bells of conversations in the background and how many frames after
 * their status changed they rang (1: the first frame after the change, one render tick). */
static void write_ring_stats(const struct tui *u)
{
	FILE *f = u->background_rings ? outfile_open_stats() : NULL;
	if (!f)
		return;
	fprintf(f, "{\"background_rings\":%llu,\"ring_frames_max\":%llu}\n",
		(unsigned long long)u->background_rings, (unsigned long long)u->ring_frames_max);
	fclose(f);
}

/* Exit codes that the user asked for need no explanation; the others get the last notice. */
static bool needs_explaining(int code)
{
	return code != 0 && code != 130 && code < 128;
}

int tui_run(const struct options *o, struct loop *loop, struct mask_set *masks,
	    const char *api_key, FILE *record, struct tui_reopen *reopen)
{
	struct tui *u = xcalloc(1, sizeof *u);
	reopen->n = 0;
	u->o = o;
	u->loop = loop;
	u->masks = masks;
	u->api_key = api_key;
	u->record = record;
	keys_init(&u->keys);
	editor_init(&u->input);
	editor_init(&u->query);
	editor_init(&u->reason);
	editor_init(&u->answer);
	struct buf err;
	buf_init(&err);
	if (terminal_open(o->color, &err) != 0) {
		fprintf(stderr, "tether: %s\n", buf_cstr(&err));
		buf_fini(&err);
		tui_free(u);
		if (record)
			fclose(record);
		return 1;
	}
	buf_fini(&err);
	keys_learn_terminal(&u->keys);
	paint_init(&u->paint, first_theme(o));
	terminal_set_mouse(o->mouse);
	ask_terminal(u);
	slash_timestamps(u, o->timestamps);
	u->ui.loop = loop;
	u->ui.input_pause = input_pause;
	u->ui.input_ctx = u;
	render_clock_init(&u->ui.clock, o->render_hz);
	u->ui.frame_timer = loop_timer_create(loop, on_frame, u);
	/* While a frame is due, deltas wait in the kernel and are read at its tick. */
	loop_timer_hold_reads(u->ui.frame_timer, u->ui.clock.period_us);
	u->ui.opening_timer = loop_timer_create(loop, on_opening_over, u);
	u->key_timer = loop_timer_create(loop, on_key_timer, u);
	u->input_block = xmalloc(INPUT_BLOCK_BYTES);
	conv_open(u, o->conversation_id, true);
	for (size_t i = 0; i < o->nmore_ids; i++)
		conv_open(u, o->more_ids[i], false);
	tui_history_load(u);
	static const int signals[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT };
	if (loop_watch_fd(loop, terminal_input_fd(), on_input, on_input_hangup, u) != 0) {
		u->ui.exit_code = 1;
		u->ui.quitting = true;
		free(u->last_error);
		u->last_error = xstrdup("cannot watch the terminal for input");
	} else {
		if (loop_watch_signals(loop, signals, (int)(sizeof signals / sizeof *signals),
				       on_signal, u) != 0)
			ui_notice(&u->ui, "signals are not watched: resize with Ctrl-L");
		u->started = true;
		for (size_t i = 0; i < u->nconvs; i++)
			controller_start(u->convs[i]->ctl);
		elsewhere_start(u);
		u->ui.opening = true;
		loop_timer_schedule(u->ui.opening_timer, u->ui.clock.period_us);
		if (!u->ui.quitting && loop_run(loop) != 0 && !u->ui.quitting)
			u->ui.exit_code = 1;
	}
	char *kept_draft = external_editor_fini(u);
	loop_timer_cancel(u->ui.frame_timer);
	loop_timer_cancel(u->ui.opening_timer);
	loop_timer_cancel(u->key_timer);
	history_view_write_stats(u);
	write_ring_stats(u);
	/* What to open again: the one on screen first, then the others that were reached, in
	 * their order. */
	if (u->cur->reached) {
		reopen->ids[reopen->n++] = xstrdup(u->cur->id);
		for (size_t i = 0; i < u->nconvs; i++)
			if (u->convs[i] != u->cur && u->convs[i]->reached && !u->convs[i]->ended &&
			    reopen->n < TUI_REOPEN_MAX)
				reopen->ids[reopen->n++] = xstrdup(u->convs[i]->id);
	}
	board_view_destroy(u);
	elsewhere_stop(u);
	/* The first conversation last: its sink writes the latency line of $TETHER_STATS. */
	while (u->nconvs) {
		conv_destroy(u->convs[u->nconvs - 1]);
		u->nconvs--;
	}
	terminal_close();
	if (needs_explaining(u->ui.exit_code) && u->last_error)
		fprintf(stderr, "tether: %s\n", u->last_error);
	if (kept_draft)
		fprintf(stderr, "tether: the message you were editing is kept in %s\n", kept_draft);
	free(kept_draft);
	int rc = u->ui.exit_code;
	tui_free(u);
	return rc;
}
