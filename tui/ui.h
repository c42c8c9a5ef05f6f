/* ui: the services every part of the interactive screen uses — the one-line notice, asking
 * for a frame, forgetting what the screen shows, quitting. interactive.c owns a struct ui and
 * drives it (it paints the frames these ask for); nothing here calls back up. */
#ifndef TETHER_UI_H
#define TETHER_UI_H

#include "controller.h"
#include "keys.h"
#include "render.h"

struct loop;
struct loop_timer;

struct ui {
	struct loop *loop;
	struct render_clock clock;
	struct loop_timer *frame_timer;   /* NULL until the loop is set up */
	/* At start no frame is painted until the conversation on screen has caught up or one
	 * render period has passed (opening_timer): a server that answers within it shows the
	 * conversation in the first frame, with no "connecting" frame a tick before it. */
	bool opening;
	struct loop_timer *opening_timer;
	struct controller *ctl;           /* the conversation on screen (NULL: none yet) */
	/* a one-line notice above the status line, until notice_until */
	char *notice;
	int64_t notice_until;
	/* A notice about something in progress lasts until the execution status changes from
	 * this one (NULL: the notice just times out). */
	char *notice_status;
	bool quitting;
	int exit_code;
	bool paused;                      /* a child ($EDITOR) has the terminal: nothing is painted */
	bool redraw;                      /* the next frame redraws every line */
	int64_t esc_left_at;              /* an Esc that closed something: the next one soon is no interrupt */
	/* stops reading keys or starts again (interactive.c's) */
	void (*input_pause)(void *ctx, bool pause);
	void *input_ctx;
};

/* Asks for a frame at the next render clock boundary. */
void ui_schedule_frame(struct ui *ui);
/* The opening is over (caught up, an error, or its period ran out): frames are painted. */
void ui_open_end(struct ui *ui);
/* Forgets what the screen shows: the next frame redraws every line. */
void ui_invalidate(struct ui *ui);
/* Shows a one-line notice for a few seconds. */
void ui_notice(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A notice about something under way: gone once the execution status changes. */
void ui_notice_until_status(struct ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* What a notice said was under way ended otherwise (a failed request): the notice goes. */
void ui_notice_settled(struct ui *ui);
/* The notice is no longer true: gone at once. */
void ui_notice_clear(struct ui *ui);
/* At a frame: drops a notice whose time ran out, or whose status moved on. */
void ui_notice_expire(struct ui *ui, const struct controller_status *st, int64_t now_us);
/* Whether a run is in progress in the conversation on screen. */
bool ui_running(struct ui *ui);
/* Ends the run with exit_code (restoring the terminal happens on the way out). */
void ui_quit(struct ui *ui, int exit_code);
/* Gives the terminal back and stops (Ctrl-Z, SIGTSTP); takes it again on SIGCONT. */
void ui_suspend(struct ui *ui);
/* Stops reading keys (the terminal belongs to a child), or starts again. */
void ui_input_pause(struct ui *ui, bool pause);
/* An Esc (ev) closed something: an Esc right after it is not taken as an interrupt. */
void ui_esc_closed(struct ui *ui, const struct key_event *ev);
/* Frees the notices. */
void ui_fini(struct ui *ui);

#endif
