/* ui: notices, frames asked for, the screen forgotten, quitting — marks that the frame of
 * interactive.c acts on. */
#include "ui.h"
#include "terminal.h"

#include <curses.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	NOTICE_US = 6000000,
	NOTICE_UNDER_WAY_US = 30000000,     /* at most, for one that waits for a status change */
};

void ui_schedule_frame(struct ui *ui)
{
	/* While $EDITOR has the terminal nothing is painted; its end repaints everything. */
	if (ui->quitting || ui->paused || !ui->frame_timer || ui->opening)
		return; /* what the opening asks is painted at its end */
	int64_t delay = render_clock_mark(&ui->clock, clock_now_us());
	if (delay >= 0)
		loop_timer_schedule(ui->frame_timer, delay);
}

void ui_open_end(struct ui *ui)
{
	if (!ui->opening)
		return;
	ui->opening = false;
	loop_timer_cancel(ui->opening_timer);
	ui_schedule_frame(ui);
}

void ui_invalidate(struct ui *ui)
{
	ui->redraw = true;
	clearok(curscr, TRUE);
	ui_schedule_frame(ui);
}

static void notice_set(struct ui *ui, const char *text, size_t len)
{
	struct buf shown;
	buf_init(&shown);
	/* A notice may quote the user's input or a server's words: shown like everything else. */
	if (ui->ctl)
		controller_clean(ui->ctl, text, len, &shown);
	else
		sanitize_text(text, len, &shown);
	free(ui->notice);
	ui->notice = buf_steal(&shown);
	ui->notice_until = clock_now_us() + NOTICE_US;
	free(ui->notice_status);
	ui->notice_status = NULL;
	ui_schedule_frame(ui);
}

static void notice_vset(struct ui *ui, const char *fmt, va_list ap)
{
	struct buf b;
	buf_init(&b);
	buf_vprintf(&b, fmt, ap);
	notice_set(ui, buf_cstr(&b), b.len);
	buf_fini(&b);
}

void ui_notice(struct ui *ui, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	notice_vset(ui, fmt, ap);
	va_end(ap);
}

void ui_notice_until_status(struct ui *ui, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	notice_vset(ui, fmt, ap);
	va_end(ap);
	struct controller_status st;
	controller_status(ui->ctl, &st);
	ui->notice_status = xstrdup(st.execution_status ? st.execution_status : "");
	ui->notice_until = clock_now_us() + NOTICE_UNDER_WAY_US;
}

void ui_notice_settled(struct ui *ui)
{
	if (!ui->notice_status)
		return;
	free(ui->notice);
	ui->notice = NULL;
	free(ui->notice_status);
	ui->notice_status = NULL;
	ui_schedule_frame(ui);
}

void ui_notice_clear(struct ui *ui)
{
	free(ui->notice);
	ui->notice = NULL;
}

void ui_notice_expire(struct ui *ui, const struct controller_status *st, int64_t now_us)
{
	if (ui->notice && now_us >= ui->notice_until)
		ui_notice_clear(ui);
	/* A notice about something under way is no longer true once the status moved on. */
	const char *now = st->execution_status ? st->execution_status : "";
	if (ui->notice_status && strcmp(ui->notice_status, now) != 0)
		ui_notice_settled(ui);
}

bool ui_running(struct ui *ui)
{
	struct controller_status st;
	controller_status(ui->ctl, &st);
	return st.run_status == RUN_STATUS_RUNNING;
}

void ui_quit(struct ui *ui, int exit_code)
{
	if (ui->quitting)
		return;
	ui->quitting = true;
	ui->exit_code = exit_code;
	controller_quit(ui->ctl, exit_code);
	loop_quit(ui->loop);
}

void ui_suspend(struct ui *ui)
{
	/* SIGTSTP is blocked for the signalfd, so stop with SIGSTOP once the terminal is given
	 * back; execution resumes here on SIGCONT. */
	terminal_suspend();
	kill(getpid(), SIGSTOP);
	terminal_resume();
	ui_invalidate(ui);
}

void ui_input_pause(struct ui *ui, bool pause)
{
	ui->input_pause(ui->input_ctx, pause);
}

void ui_esc_closed(struct ui *ui, const struct key_event *ev)
{
	if (ev->kind == KEYS_ESC)
		ui->esc_left_at = clock_now_us();
}

void ui_fini(struct ui *ui)
{
	free(ui->notice);
	free(ui->notice_status);
}
