/* board_view: the board inside the TUI (Ctrl-G, /board). While it is open the server's list
 * is polled (directory.c, with backoff) and merged with the conversations open here, whose
 * sockets know better: their live status, marks and unread answers win over the list's.
 * Enter switches to a conversation (opening it when it is not open); Ctrl-O answers a
 * waiting confirmation in the modal, without switching — a conversation not open is opened
 * in the background first and its modal comes once its waiting actions are loaded. The board
 * does not poll while closed: the open conversations' sockets are live, and only the slow
 * poll of elsewhere.c looks for confirmations in the others. */
#include "conv.h"
#include "search.h"
#include "modal.h"
#include "board_view.h"
#include "directory.h"
#include "reltime.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The board polls faster than tether watch: someone is looking. */
#define BOARD_POLL_S 2.0

struct board_view {
	struct board *board;
	struct directory *dir;
	struct conversation_info *listed;  /* the last complete poll (copied) */
	size_t nlisted;
	char note[200];                    /* how fresh the list is, or why it is not */
	time_t polled_at;                  /* the last complete poll (0: none yet) */
	char *answer_id;                   /* Ctrl-O on a conversation not open: its modal waits */
	/* conversations not open whose run ended between two polls: finished since you looked */
	char **finished;
	size_t nfinished;
	char version[48];                  /* the server's version from /server_info ("": not yet) */
	struct version_ask *version_ask;   /* that question in flight, NULL when none */
	struct delete_ask *deletes;        /* the board's deletions in flight */
};

/* The board's Delete, answered y: one DELETE; its answer said, the list asked again. */
struct delete_ask {
	struct tui *u;          /* NULL once the board is gone */
	char *id, *title;
	struct delete_ask *next;
};

/* /server_info asked for the board; b is NULL once the board is gone. */
struct version_ask {
	struct board_view *b;
	struct ui *ui;
};

static void version_answered(void *ctx, struct rest_result *r)
{
	struct version_ask *ask = ctx;
	struct board_view *b = ask->b;
	if (b) {
		b->version_ask = NULL;
		if (r->outcome == REST_OK && r->version.text[0])
			snprintf(b->version, sizeof b->version, "server %s", r->version.text);
		else if (r->outcome == REST_OK || r->outcome == REST_UNSUPPORTED ||
			 r->outcome == REST_NOT_FOUND)
			snprintf(b->version, sizeof b->version, "server version unknown");
		ui_schedule_frame(ask->ui);
	}
	free(ask);
}

/* Asks the server its version once, for the board's line. */
static void version_ask(struct tui *u)
{
	struct board_view *b = u->board;
	if (b->version[0] || b->version_ask)
		return;
	struct rest_server srv = tui_rest_server(u);
	struct version_ask *ask = xcalloc(1, sizeof *ask);
	ask->b = b;
	ask->ui = &u->ui;
	if (rest_call(&srv, REST_SERVER_INFO, NULL, version_answered, ask) == 0)
		b->version_ask = ask;
	else
		free(ask);
}

static bool listed_finished(const struct board_view *b, const char *id, size_t *at)
{
	for (size_t i = 0; i < b->nfinished; i++)
		if (!strcmp(b->finished[i], id)) {
			if (at)
				*at = i;
			return true;
		}
	return false;
}

static void forget_finished(struct board_view *b, const char *id)
{
	size_t i;
	if (!listed_finished(b, id, &i))
		return;
	free(b->finished[i]);
	b->finished[i] = b->finished[--b->nfinished];
}

static bool busy(enum run_status s)
{
	return s == RUN_STATUS_RUNNING || s == RUN_STATUS_WAITING_FOR_CONFIRMATION;
}

/* A run that ended between the last poll and this one, in a conversation not open here (the
 * open ones have their own marks). was_busy: the ids busy in the last poll. */
static void note_ended(struct tui *u, const struct strmap *was_busy,
		       const struct conversation_info *now)
{
	struct board_view *b = u->board;
	if (!now->id || busy(now->run_status) || !strmap_get(was_busy, now->id) ||
	    conv_find(u, now->id) || listed_finished(b, now->id, NULL))
		return;
	b->finished = xrealloc(b->finished, (b->nfinished + 1) * sizeof *b->finished);
	b->finished[b->nfinished++] = xstrdup(now->id);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void forget_list(struct board_view *b)
{
	conversation_infos_free(b->listed, b->nlisted);
	b->listed = NULL;
	b->nlisted = 0;
}

static void on_poll(void *ctx, const struct directory_poll *p)
{
	struct tui *u = ctx;
	struct board_view *b = u->board;
	if (p->failed) {
		snprintf(b->note, sizeof b->note, "%s · retrying in %.0f s", p->words, p->retry_s);
	} else {
		/* a map of the few busy ones: a server may list 10,000 conversations */
		struct strmap was_busy;
		strmap_init(&was_busy);
		for (size_t i = 0; i < b->nlisted; i++)
			if (b->listed[i].id && busy(b->listed[i].run_status))
				strmap_put(&was_busy, b->listed[i].id, &b->listed[i]);
		for (size_t i = 0; i < p->count; i++)
			note_ended(u, &was_busy, &p->items[i]);
		strmap_fini(&was_busy);
		forget_list(b);
		b->listed = xcalloc(p->count + 1, sizeof *b->listed);
		for (size_t i = 0; i < p->count; i++) {
			const struct conversation_info *c = &p->items[i];
			b->listed[i] = (struct conversation_info){
				.id = dup_or_null(c->id), .title = dup_or_null(c->title),
				.execution_status = dup_or_null(c->execution_status),
				.run_status = c->run_status, .updated_at = dup_or_null(c->updated_at),
			};
		}
		b->nlisted = p->count;
		conv_note_far(u, p->items, p->count); /* the strip as fresh as the board */
		b->polled_at = time(NULL);
		b->note[0] = '\0';
	}
	ui_schedule_frame(&u->ui);
}

/* The server's time as a time_t (naive times are local, as reltime.c reads them); 0 when it
 * does not parse. */
static int64_t parse_time(const char *s)
{
	time_t t;
	return s && reltime_parse(s, &t) == 0 ? (int64_t)t : 0;
}

static void entry_of_conv(struct conv *v, struct board_entry *e, int64_t listed_at)
{
	struct controller_status st;
	controller_status(v->ctl, &st);
	size_t slot = conv_slot(v);
	e->id = v->id;
	if (st.title && *st.title)
		e->title = st.title;
	if (st.execution_status) {
		e->status = st.execution_status;
		e->run_status = st.run_status;
	}
	e->slot = slot <= 9 ? (int)slot : 0;
	e->mark = v == v->u->cur ? (st.awaiting_confirmation ? CONV_MARK_CONFIRM : CONV_MARK_NONE)
				 : conv_mark(v);
	e->unread = v->marks.unread;
	e->activity_unix = v->marks.activity_unix > listed_at ? v->marks.activity_unix : listed_at;
}

/* The list and the open conversations as the board's entries. */
static void refresh_entries(struct tui *u)
{
	struct board_view *b = u->board;
	size_t cap = b->nlisted + u->nconvs;
	struct board_entry *e = xcalloc(cap + 1, sizeof *e);
	bool *merged = xcalloc(u->nconvs + 1, sizeof *merged);
	size_t n = 0;
	for (size_t i = 0; i < b->nlisted; i++) {
		const struct conversation_info *c = &b->listed[i];
		if (!c->id)
			continue;
		struct board_entry *x = &e[n++];
		*x = (struct board_entry){
			.id = c->id, .title = c->title, .status = c->execution_status,
			.run_status = c->run_status, .activity_unix = parse_time(c->updated_at),
		};
		if (c->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION)
			x->mark = CONV_MARK_CONFIRM;
		else if (c->run_status == RUN_STATUS_ERROR || c->run_status == RUN_STATUS_STUCK)
			x->mark = CONV_MARK_ERROR;
		else if (listed_finished(b, c->id, NULL))
			x->mark = CONV_MARK_FINISHED;
		struct conv *v = conv_find(u, c->id);
		if (v) {
			merged[conv_slot(v) - 1] = true;
			entry_of_conv(v, x, x->activity_unix);
		}
	}
	for (size_t i = 0; i < u->nconvs; i++)
		if (!merged[i])
			entry_of_conv(u->convs[i], &e[n++], 0);
	board_set_entries(b->board, e, n);
	free(merged);
	free(e);
}

void board_view_open(struct tui *u)
{
	if (layers_top(&u->layers) == &board_layer)
		return;
	if (layers_top(&u->layers) == &search_layer)
		search_cancel(u);
	const struct layer *top = layers_top(&u->layers);
	if (top == &confirm_layer || top == &reason_layer)
		modal_close(u);
	if (!u->board) {
		u->board = xcalloc(1, sizeof *u->board);
		struct buf host;
		buf_init(&host);
		url_describe(u->o->server, &host);
		u->board->board = board_create(buf_cstr(&host));
		buf_fini(&host);
		snprintf(u->board->note, sizeof u->board->note, "asking the server for its list…");
	}
	version_ask(u);
	if (!u->board->dir) {
		u->board->dir = directory_create(u->loop, u->o, u->masks, u->api_key, on_poll, u);
		directory_set_interval(u->board->dir, BOARD_POLL_S);
		directory_poll_now(u->board->dir);
	}
	board_select_urgent(u->board->board);
	layers_push(&u->layers, &board_layer);
	refresh_entries(u);
	ui_invalidate(&u->ui);
}

void board_view_close(struct tui *u)
{
	layers_pop(&u->layers, &board_layer);
	if (u->board) {
		/* Not polled while nobody looks; the list and the filter stay for the next look. */
		directory_destroy(u->board->dir);
		u->board->dir = NULL;
		free(u->board->answer_id);
		u->board->answer_id = NULL;
	}
	ui_invalidate(&u->ui);
}

void board_view_destroy(struct tui *u)
{
	struct board_view *b = u->board;
	if (!b)
		return;
	if (b->version_ask)
		b->version_ask->b = NULL;
	for (struct delete_ask *d = b->deletes; d; d = d->next)
		d->u = NULL;
	directory_destroy(b->dir);
	board_destroy(b->board);
	forget_list(b);
	for (size_t i = 0; i < b->nfinished; i++)
		free(b->finished[i]);
	free(b->finished);
	free(b->answer_id);
	free(b);
	u->board = NULL;
}

/* Ctrl-O on a row: the modal for that conversation's waiting actions, on top of the board. */
static void answer(struct tui *u, const char *id)
{
	struct conv *v = conv_find(u, id);
	if (!v) {
		v = conv_open(u, id, false);
		if (!v)
			return;
		free(u->board->answer_id);
		u->board->answer_id = xstrdup(id);
		ui_notice(&u->ui, "opening %s to show what waits…", conv_name(v));
		return;
	}
	struct controller_status st;
	controller_status(v->ctl, &st);
	if (!st.awaiting_confirmation) {
		ui_notice(&u->ui, "%s: nothing is waiting for confirmation", conv_name(v));
		return;
	}
	modal_open_for(u, v, true);
}

/* A conversation opened to answer it: the modal comes once it is live and its actions wait
 * (or it says that nothing does). */
static void answer_when_ready(struct tui *u)
{
	struct board_view *b = u->board;
	if (!b->answer_id || layers_top(&u->layers) != &board_layer)
		return;
	struct conv *v = conv_find(u, b->answer_id);
	struct controller_status st;
	if (v)
		controller_status(v->ctl, &st);
	if (v && !(st.connection == SESSION_SYNCED && st.caught_up) && !v->ended)
		return;
	char *id = b->answer_id;
	b->answer_id = NULL;
	if (v && !v->ended)
		answer(u, id);
	free(id);
}

/* The server deleted d's conversation: open here, it is closed (its socket would only go
 * quiet, upstream-25-26 2.8), unless it is the only one open, which stays for /quit. */
static void deleted_here(struct tui *u, const struct delete_ask *d)
{
	struct conv *v = conv_find(u, d->id);
	bool on_board = layers_top(&u->layers) == &board_layer;
	if (v && tui_close(u, v)) {
		/* closing the one on screen shows another, which closes what was open over it */
		if (on_board && layers_top(&u->layers) != &board_layer)
			board_view_open(u);
		ui_notice(&u->ui, "the server deleted “%s”: closed here", d->title);
	}
	else if (v)
		ui_notice(&u->ui, "the server deleted “%s”, the only conversation open here (Enter "
			  "on a row opens another; /quit leaves)", d->title);
	else
		ui_notice(&u->ui, "the server deleted “%s”", d->title);
}

static void deleted(void *ctx, struct rest_result *r)
{
	struct delete_ask *d = ctx;
	struct tui *u = d->u;
	if (u && u->board) {
		for (struct delete_ask **p = &u->board->deletes; *p; p = &(*p)->next)
			if (*p == d) {
				*p = d->next;
				break;
			}
		if (r->outcome == REST_OK)
			deleted_here(u, d);
		else if (r->outcome == REST_NOT_FOUND)
			ui_notice(&u->ui, "could not delete “%s”: the server no longer has it", d->title);
		else if (r->outcome == REST_AUTH)
			ui_notice(&u->ui, "could not delete “%s”: the server refused the session API key",
				  d->title);
		else if (r->outcome == REST_NO_ANSWER)
			ui_notice(&u->ui, "could not delete “%s”: %s", d->title,
				  r->raw->error ? r->raw->error : "no answer from the server");
		else
			ui_notice(&u->ui, "could not delete “%s”: the server %s", d->title,
				  r->raw->status >= 500 ? "failed" : "refused it");
		if (u->board->dir)
			directory_poll_now(u->board->dir);
		ui_schedule_frame(&u->ui);
	}
	free(d->id);
	free(d->title);
	free(d);
}

static void delete_conversation(struct tui *u, const char *id, const char *title)
{
	struct rest_server srv = tui_rest_server(u);
	struct delete_ask *d = xcalloc(1, sizeof *d);
	d->u = u;
	d->id = xstrdup(id);
	d->title = xstrdup(title ? title : id);
	if (rest_call(&srv, REST_DELETE, &(struct rest_args){ .id = id }, deleted, d) != 0) {
		ui_notice(&u->ui, "could not delete “%s”: the request could not be made", d->title);
		free(d->id);
		free(d->title);
		free(d);
		return;
	}
	d->next = u->board->deletes;
	u->board->deletes = d;
	ui_notice(&u->ui, "deleting “%s”…", d->title);
}

void board_view_click(struct tui *u, int y)
{
	if (u->board && board_select_at(u->board->board, y))
		ui_schedule_frame(&u->ui);
}

/* A key while the board is on top; the conversation keys get those it does not take. */
static enum layer_key board_view_key(struct tui *u, const struct key_event *ev)
{
	struct board_action a = { BOARD_NONE, NULL, NULL };
	if (!board_key(u->board->board, ev, &a))
		return LAYER_KEY_NONE;
	switch (a.kind) {
	case BOARD_OPEN: {
		forget_finished(u->board, a.id);
		struct conv *v = conv_open(u, a.id, false);
		if (v) {
			board_view_close(u);
			tui_switch(u, v);
		}
		break;
	}
	case BOARD_ANSWER:
		answer(u, a.id);
		break;
	case BOARD_CLOSE:
		board_view_close(u);
		break;
	case BOARD_DELETE:
		delete_conversation(u, a.id, a.title);
		break;
	case BOARD_NONE:
		break;
	}
	ui_schedule_frame(&u->ui);
	return LAYER_KEY_TAKEN;
}

/* The board over the whole screen, and the modal opened from it. */
static void board_view_paint(struct tui *u, const struct controller_status *st, int64_t now_us)
{
	(void)st, (void)now_us;
	struct board_view *b = u->board;
	answer_when_ready(u);
	refresh_entries(u);
	char note[sizeof b->note + sizeof b->version + 64];
	time_t now = time(NULL);
	const char *sep = b->version[0] ? " · " : "";
	if (b->note[0])
		snprintf(note, sizeof note, "%s%s%s", b->version, sep, b->note);
	else if (b->polled_at)
		snprintf(note, sizeof note, "%s%slist updated %lld s ago", b->version, sep,
			 (long long)(now > b->polled_at ? now - b->polled_at : 0));
	else
		snprintf(note, sizeof note, "%s", b->version);
	const struct layer *top = layers_top(&u->layers);
	bool modal = top == &confirm_layer || top == &reason_layer;
	int modal_rows = modal ? modal_rows_wanted(u, COLS) : 0;
	if (modal_rows > LINES - 3)
		modal_rows = LINES - 3 > 1 ? LINES - 3 : LINES > 1 ? 1 : LINES;
	int board_lines = LINES - modal_rows;
	erase();
	if (board_lines > 0)
		board_paint(b->board, board_lines, COLS, now, note[0] ? note : NULL);
	draw_painter_forget(&u->paint);
	if (modal)
		modal_paint(u, board_lines, modal_rows);
	if (u->ui.notice && board_lines > 1) {
		/* wrapped, never cut: over the help line and up (the list stays below the title) */
		int rows = draw_notice_rows(u->ui.notice, COLS);
		if (rows > board_lines - 1)
			rows = board_lines - 1;
		size_t n = strlen(u->ui.notice), at = 0;
		attrset(A_BOLD);
		for (int i = 0; i < rows; i++) {
			size_t next = 0;
			size_t len = at < n ? text_wrap_row(u->ui.notice + at, n - at, COLS, &next) : 0;
			move(board_lines - rows + i, 0);
			clrtoeol();
			addnstr(u->ui.notice + at, (int)len);
			at += next;
		}
		attrset(A_NORMAL);
	}
	wnoutrefresh(stdscr);
	doupdate();
}

const struct layer board_layer = {
	.name = "board",
	.screen = true,
	.conversation_keys = true,
	.key = board_view_key,
	.paint = board_view_paint,
	.close = board_view_close,
};
