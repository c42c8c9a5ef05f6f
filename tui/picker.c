/* The conversation picker: the TUI's terminal (terminal.h), key decoder (keys.h, bracketed
 * paste included) and cell drawing (draw.h), with a small read loop of its own because it
 * runs before the event loop exists. Typing filters the list (title and id, ASCII case
 * ignored); Enter tries to open the selected conversation and a failure is shown here, so the
 * user picks again instead of being thrown out. */
#include "picker.h"
#include "conv_row.h"
#include "draw.h"
#include "keys.h"
#include "reltime.h"
#include "render.h"
#include "terminal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

/* Rows the error under the list may take. */
#define ERROR_ROWS 3

struct picker {
	const char *server;
	const struct conversation_info *items;
	size_t count;
	size_t *shown;              /* indices of the items the filter lets through */
	size_t nshown, sel, top;    /* sel and top index shown */
	struct buf filter;
	struct layout error;        /* why the last pick did not open, wrapped to the width */
	struct buf error_text;
	picker_open_fn try_open;
	void *ctx;
	long chosen;
	bool done;
	time_t now;
};

static const struct look plain = { 0, 0, 0 };
static const struct look bold = { A_BOLD, 0, A_BOLD };
static const struct look dim = { A_DIM, 0, A_DIM };
static const struct look reverse = { A_REVERSE, 0, A_REVERSE };

static int error_rows(const struct picker *p)
{
	int n = (int)p->error.nrows;
	return n < ERROR_ROWS ? n : ERROR_ROWS;
}

/* Where things go: a full screen has the title, the filter, the list, the detail (or the
 * error) and the help; a short one keeps the filter, the list and one bottom line (the
 * error, else the help); a tiny one only the list. -1: not shown. */
struct geometry {
	int title_y, filter_y, list_y, list_rows, detail_y, detail_rows, help_y;
};

static struct geometry geometry(const struct picker *p)
{
	struct geometry g = { -1, -1, 0, LINES, -1, 0, -1 };
	int er = error_rows(p) > 1 ? error_rows(p) : 1;
	if (LINES >= 7) {
		g = (struct geometry){ 0, 1, 2, LINES - 3 - er, LINES - 1 - er, er, LINES - 1 };
	} else if (LINES >= 3) {
		g = (struct geometry){ -1, 0, 1, LINES - 2, -1, 0, LINES - 1 };
		if (p->error_text.len) {
			g.detail_y = LINES - 1;
			g.detail_rows = 1;
			g.help_y = -1;
		}
	}
	if (g.list_rows < 1)
		g.list_rows = 1;
	return g;
}

static size_t page_rows(const struct picker *p)
{
	return (size_t)geometry(p).list_rows;
}

/* Draws one field from column x, at most cols columns, the filter's matches highlighted. */
static int draw_field(const struct picker *p, int y, int x, int cols, const char *s,
		      const struct look *l)
{
	if (cols <= 0)
		return x;
	struct buf clean;
	buf_init(&clean);
	conv_row_flat(s, &clean);
	int end = draw_highlighted(y, x, x + cols, clean.data, clean.len, l, p->filter.data,
				   p->filter.len, true);
	buf_fini(&clean);
	return end;
}

/* The items the filter lets through; the selection stays on its item when it still shows. */
static void apply_filter(struct picker *p)
{
	size_t keep = p->nshown ? p->shown[p->sel] : 0;
	p->nshown = 0;
	p->sel = 0;
	for (size_t i = 0; i < p->count; i++) {
		const struct conversation_info *c = &p->items[i];
		if (!conv_row_matches(c->title, c->id, p->filter.data, p->filter.len))
			continue;
		if (i == keep)
			p->sel = p->nshown;
		p->shown[p->nshown++] = i;
	}
	p->top = 0;
}

static void set_error(struct picker *p, const char *msg)
{
	buf_clear(&p->error_text);
	if (msg && *msg)
		conv_row_flat(msg, &p->error_text);
	layout_reset(&p->error);
}

static void draw_row(const struct picker *p, int y, const struct conversation_info *c,
		     bool selected)
{
	const struct look *l = selected ? &reverse : &plain;
	if (selected) {
		attron(A_REVERSE);
		mvhline(y, 0, ' ', COLS);
		attroff(A_REVERSE);
	}
	/* id | title | status | updated; the narrower the screen, the fewer columns */
	struct conv_row_cols w = conv_row_columns(COLS);
	int id_w = w.id, updated_w = w.updated, status_w = w.status, title_w = w.title;
	int x = 0;
	if (id_w) {
		char shortid[CONV_ROW_SHORT_ID + 1] = "-";
		if (c->id)
			snprintf(shortid, sizeof shortid, "%s", c->id);
		draw_field(p, y, x, id_w, shortid, selected ? l : &dim);
		x += id_w + 2;
	}
	draw_field(p, y, x, title_w, c->title && *c->title ? c->title : "(untitled)", l);
	x += title_w + 1;
	if (status_w) {
		struct buf words;
		buf_init(&words);
		conv_row_status_words(c->execution_status, &words);
		draw_field(p, y, x, status_w, buf_cstr(&words), l);
		buf_fini(&words);
		x += status_w + 1;
	}
	if (updated_w) {
		struct buf when;
		buf_init(&when);
		if (!c->updated_at || reltime_format(c->updated_at, p->now, &when) != 0)
			buf_puts(&when, c->updated_at ? c->updated_at : "-");
		draw_field(p, y, x, updated_w, buf_cstr(&when), l);
		buf_fini(&when);
	}
}

/* Under the list: why the last pick failed, or the selected conversation's full id. */
static void draw_detail(struct picker *p, int y, int rows)
{
	if (p->error_text.len && rows == 1) { /* a short screen: as much as one line holds */
		draw_text(y, 0, COLS, p->error_text.data, p->error_text.len, &bold);
		return;
	}
	if (p->error_text.len) {
		for (int r = 0; r < error_rows(p) && r < rows; r++) {
			const struct row *row = &p->error.rows[r];
			int x = 0;
			for (uint32_t k = 0; k < row->span_count; k++) {
				const struct span *s = &p->error.spans[row->span_first + k];
				x = draw_text(y + r, x, COLS, p->error.text.data + s->off, s->len, &bold);
			}
		}
		return;
	}
	if (!p->nshown)
		return;
	const struct conversation_info *c = &p->items[p->shown[p->sel]];
	static const char label[] = "id ";
	int x = draw_text(y, 0, COLS, label, strlen(label), &dim);
	x = draw_field(p, y, x, COLS - x, c->id, &plain);
	if (c->updated_at && COLS - x > 12) {
		/* the row says how long ago; here the date and minute, "2026-12-03 08:33" */
		char when[17];
		snprintf(when, sizeof when, "%s", c->updated_at);
		if (strlen(when) == 16 && when[10] == 'T')
			when[10] = ' ';
		x = draw_text(y, x, COLS, "  updated ", 10, &dim);
		draw_field(p, y, x, COLS - x, when, &dim);
	}
}

static void draw(struct picker *p)
{
	erase();
	if (p->error_text.len)
		layout_update(&p->error, p->error_text.data, p->error_text.len, COLS, 0);
	struct geometry g = geometry(p);
	struct buf clean;
	buf_init(&clean);
	if (g.title_y >= 0) {
		static const char head[] = "Pick a conversation on ";
		int x = draw_text(g.title_y, 0, COLS, head, strlen(head), &bold);
		conv_row_flat(p->server, &clean);
		draw_text(g.title_y, x, COLS, clean.data, clean.len, &bold);
	}
	if (g.filter_y >= 0) {
		static const char flabel[] = "Filter: ";
		int x = draw_text(g.filter_y, 0, COLS, flabel, strlen(flabel), &dim);
		if (p->filter.len) {
			conv_row_flat(p->filter.data, &clean);
			x = draw_text(g.filter_y, x, COLS, clean.data, clean.len, &plain);
			draw_text(g.filter_y, x, COLS, " ", 1, &reverse);
		} else {
			static const char hint[] = "type to filter by title or id";
			draw_text(g.filter_y, x, COLS, hint, strlen(hint), &dim);
		}
	}
	if (!p->nshown) {
		struct buf line;
		buf_init(&line);
		conv_row_no_match(p->filter.data, &line);
		draw_text(g.list_y, 0, COLS, line.data, line.len, &plain);
		buf_fini(&line);
	}
	/* A screen grown taller shows the rows above rather than blank lines. */
	if (p->top + (size_t)g.list_rows > p->nshown)
		p->top = p->nshown > (size_t)g.list_rows ? p->nshown - (size_t)g.list_rows : 0;
	for (int r = 0; r < g.list_rows && p->top + (size_t)r < p->nshown; r++)
		draw_row(p, g.list_y + r, &p->items[p->shown[p->top + (size_t)r]],
			 p->top + (size_t)r == p->sel);
	buf_fini(&clean);
	if (g.detail_y >= 0)
		draw_detail(p, g.detail_y, g.detail_rows);
	static const char help[] = "Esc quit  Enter open  ↑/↓ move  type to filter";
	if (g.help_y >= 0)
		draw_text(g.help_y, 0, COLS, help, strlen(help), &dim);
	refresh();
}

static void filter_changed(struct picker *p)
{
	set_error(p, NULL);
	apply_filter(p);
}

/* Appends typed or pasted text to the filter: its first line, controls dropped. */
static void filter_add(struct picker *p, const char *s, size_t n)
{
	conv_row_filter_add(&p->filter, s, n);
	filter_changed(p);
}

static void filter_backspace(struct picker *p)
{
	if (conv_row_filter_backspace(&p->filter))
		filter_changed(p);
}

/* Enter: the conversation opens, or why not is shown and the list stays. */
static void pick(struct picker *p)
{
	if (!p->nshown)
		return;
	size_t i = p->shown[p->sel];
	if (!p->try_open) {
		p->chosen = (long)i;
		p->done = true;
		return;
	}
	set_error(p, "opening… (Esc to stop waiting)");
	draw(p);
	struct buf why;
	buf_init(&why);
	if (p->try_open(p->ctx, p->items[i].id, terminal_input_fd(), &why) == 0) {
		p->chosen = (long)i;
		p->done = true;
		set_error(p, NULL);
	} else {
		set_error(p, why.len ? why.data : "the conversation could not be opened");
	}
	buf_fini(&why);
}

static void on_key(void *ctx, const struct key_event *ev)
{
	struct picker *p = ctx;
	size_t rows = page_rows(p), last = p->nshown ? p->nshown - 1 : 0;
	switch (ev->kind) {
	case KEYS_UP:
		p->sel -= p->sel > 0;
		break;
	case KEYS_DOWN:
		p->sel += p->sel < last;
		break;
	case KEYS_PGUP:
		p->sel = p->sel > rows ? p->sel - rows : 0;
		break;
	case KEYS_PGDN:
		p->sel = p->sel + rows < last ? p->sel + rows : last;
		break;
	case KEYS_HOME:
		p->sel = 0;
		break;
	case KEYS_END:
		p->sel = last;
		break;
	case KEYS_ENTER:
		pick(p);
		break;
	case KEYS_ESC:
		p->done = true;
		break;
	case KEYS_CHAR: {
		struct buf u;
		buf_init(&u);
		buf_put_utf8(&u, ev->cp);
		filter_add(p, u.data, u.len);
		buf_fini(&u);
		break;
	}
	case KEYS_PASTE:    /* text, never keys: it filters (an id pasted from elsewhere) */
		filter_add(p, ev->text, ev->len);
		break;
	case KEYS_BACKSPACE:
		filter_backspace(p);
		break;
	case KEYS_CTRL:
		if (ev->cp == 'u') {
			buf_clear(&p->filter);
			buf_puts(&p->filter, "");
			filter_changed(p);
		}
		p->done |= ev->cp == 'c' || ev->cp == 'd';
		break;
	default:
		break;
	}
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + rows)
		p->top = p->sel - rows + 1;
}

/* The signals are blocked (the event loop takes them through a signalfd later); here they
 * are read the same way. */
static int open_signals(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* One wait for keys or a signal; false when the picker is done with input. */
static bool read_input(struct picker *p, struct keys *k, int sfd, int *signo)
{
	int64_t wait = keys_wait_us(k);
	struct pollfd fds[2] = { { .fd = terminal_input_fd(), .events = POLLIN },
				 { .fd = sfd, .events = POLLIN } };
	int r = poll(fds, sfd >= 0 ? 2 : 1, wait < 0 ? -1 : (int)((wait + 999) / 1000));
	if (r < 0)
		return errno == EINTR;
	if (r == 0) {
		keys_expire(k, on_key, p);
		return true;
	}
	struct signalfd_siginfo si;
	if (sfd >= 0 && (fds[1].revents & POLLIN) && read(sfd, &si, sizeof si) == sizeof si) {
		if (si.ssi_signo != SIGWINCH) {
			*signo = (int)si.ssi_signo;
			return false;
		}
		terminal_resize();
	}
	if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
		char in[4096];
		ssize_t n = read(fds[0].fd, in, sizeof in);
		if (n < 0)
			return errno == EINTR || errno == EAGAIN;
		if (n == 0)
			return false;   /* the terminal went away */
		keys_feed(k, in, (size_t)n, on_key, p);
	}
	return true;
}

int picker_choose(const char *server, const struct conversation_info *items, size_t count,
		  bool color, picker_open_fn try_open, void *ctx, long *chosen, int *signo,
		  struct buf *err)
{
	*chosen = -1;
	*signo = 0;
	if (count == 0)
		return 0;
	if (terminal_open(color, err) != 0)
		return -1;
	draw_init(THEME_DARK);     /* the picker draws in no colour of a role */
	curs_set(0);
	struct keys k;
	keys_init(&k);
	keys_learn_terminal(&k);
	int sfd = open_signals();
	struct picker p = { .server = server, .items = items, .count = count, .chosen = -1,
			    .try_open = try_open, .ctx = ctx, .now = time(NULL) };
	p.shown = xcalloc(count, sizeof *p.shown);
	buf_init(&p.filter);
	buf_puts(&p.filter, "");
	buf_init(&p.error_text);
	layout_init(&p.error);
	apply_filter(&p);
	do
		draw(&p);
	while (!p.done && read_input(&p, &k, sfd, signo));
	if (sfd >= 0)
		close(sfd);
	keys_fini(&k);
	terminal_close();
	layout_fini(&p.error);
	buf_fini(&p.error_text);
	buf_fini(&p.filter);
	free(p.shown);
	*chosen = p.chosen;
	return 0;
}
