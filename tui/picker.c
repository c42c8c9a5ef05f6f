/* The conversation picker: the TUI's terminal (terminal.h), key decoder (keys.h, bracketed
 * paste included) and cell drawing (draw.h), with a small read loop of its own because it
 * runs before the event loop exists. */
#include "picker.h"
#include "draw.h"
#include "keys.h"
#include "render.h"
#include "terminal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

struct picker {
	const char *server;
	const struct conversation_info *items;
	size_t count, sel, top;
	long chosen;
	bool done;
};

static const struct look plain = { 0, 0, 0 };
static const struct look bold = { A_BOLD, 0, A_BOLD };
static const struct look reverse = { A_REVERSE, 0, A_REVERSE };

static size_t page_rows(void)
{
	return LINES > 3 ? (size_t)(LINES - 3) : 1;
}

/* Draws one field from column x, at most cols columns, sanitized (server text never reaches
 * the terminal raw) and on one line. */
static void draw_field(int y, int x, int cols, const char *s, const struct look *l)
{
	struct buf clean;
	buf_init(&clean);
	if (!s || !*s)
		s = "-";
	sanitize_text(s, strlen(s), &clean);
	for (size_t i = 0; i < clean.len; i++)
		if (clean.data[i] == '\n')
			clean.data[i] = ' ';
	draw_text(y, x, x + cols, clean.data, clean.len, l);
	buf_fini(&clean);
}

static void draw(const struct picker *p)
{
	erase();
	static const char head[] = "Pick a conversation on ";
	int x = draw_text(0, 0, COLS, head, strlen(head), &bold);
	draw_field(0, x, COLS - x - 1, p->server, &bold);
	size_t rows = page_rows();
	/* title | status | last update; the update column goes first on narrow screens */
	int updated_w = COLS >= 70 ? 19 : 0;
	int status_w = 26 < COLS / 4 ? 26 : COLS / 4;
	int title_w = COLS - status_w - updated_w - (updated_w ? 2 : 1);
	for (size_t r = 0; r < rows && p->top + r < p->count; r++) {
		const struct conversation_info *c = &p->items[p->top + r];
		const struct look *l = p->top + r == p->sel ? &reverse : &plain;
		int y = (int)r + 2;
		if (l == &reverse) {
			attron(A_REVERSE);
			mvhline(y, 0, ' ', COLS);
			attroff(A_REVERSE);
		}
		draw_field(y, 0, title_w, c->title && *c->title ? c->title : c->id, l);
		draw_field(y, title_w + 1, status_w, c->execution_status, l);
		if (updated_w)
			draw_field(y, title_w + status_w + 2, updated_w, c->updated_at, l);
	}
	static const char help[] = "↑/↓ move  Enter open  q quit";
	draw_text(LINES - 1, 0, COLS, help, strlen(help), &plain);
	refresh();
}

static void on_key(void *ctx, const struct key_event *ev)
{
	struct picker *p = ctx;
	size_t rows = page_rows(), last = p->count - 1;
	enum keys_kind kind = ev->kind;
	if (kind == KEYS_CHAR && (ev->cp == 'k' || ev->cp == 'j'))
		kind = ev->cp == 'k' ? KEYS_UP : KEYS_DOWN;
	switch (kind) {
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
		p->chosen = (long)p->sel;
		p->done = true;
		break;
	case KEYS_ESC:
		p->done = true;
		break;
	case KEYS_CHAR:
		p->done |= ev->cp == 'q';
		break;
	case KEYS_CTRL:
		p->done |= ev->cp == 'c' || ev->cp == 'd';
		break;
	default:            /* a paste is text, never keys: nothing to type here */
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
		  bool color, long *chosen, int *signo, struct buf *err)
{
	*chosen = -1;
	*signo = 0;
	if (count == 0)
		return 0;
	if (terminal_open(color, err) != 0)
		return -1;
	draw_init();
	curs_set(0);
	struct keys k;
	keys_init(&k);
	keys_learn_terminal(&k);
	int sfd = open_signals();
	struct picker p = { .server = server, .items = items, .count = count, .chosen = -1 };
	do
		draw(&p);
	while (!p.done && read_input(&p, &k, sfd, signo));
	if (sfd >= 0)
		close(sfd);
	keys_fini(&k);
	terminal_close();
	*chosen = p.chosen;
	return 0;
}
