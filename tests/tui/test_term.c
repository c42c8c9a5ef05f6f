/* The terminal module on a pseudo-terminal: a SIGTSTP waiting for the loop (blocked, read
 * from a signalfd) survives screen updates; a frame goes out in one write; the painter
 * scrolls what is already on screen instead of drawing it again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <curses.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "draw.h"
#include "terminal.h"

#include <sys/syscall.h>

/* Writes to the terminal under test, counted: this definition takes the place of libc's
 * for ncurses too. */
static int counted_fd = -1;
static int writes_counted;

ssize_t write(int fd, const void *p, size_t n)
{
	if (fd == counted_fd)
		writes_counted++;
	return syscall(SYS_write, fd, p, n);
}

/* stdin and stdout on a new pseudo-terminal; false (the test skips) when there is none. */
struct pty {
	int master, slave, saved_in, saved_out;
};

static bool pty_open(struct pty *t)
{
	t->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (t->master < 0 || grantpt(t->master) != 0 || unlockpt(t->master) != 0)
		return false;
	t->slave = open(ptsname(t->master), O_RDWR | O_NOCTTY);
	assert_true(t->slave >= 0);
	t->saved_in = dup(0);
	t->saved_out = dup(1);
	dup2(t->slave, 0);
	dup2(t->slave, 1);
	setenv("TERM", "xterm", 1);
	return true;
}

/* What the terminal was sent, drained so that its writes never block. */
static void pty_drain(struct pty *t)
{
	char buf[4096];
	int flags = fcntl(t->master, F_GETFL);
	fcntl(t->master, F_SETFL, flags | O_NONBLOCK);
	while (read(t->master, buf, sizeof buf) > 0)
		;
	fcntl(t->master, F_SETFL, flags);
}

static void pty_close(struct pty *t)
{
	dup2(t->saved_in, 0);
	dup2(t->saved_out, 1);
	close(t->saved_in);
	close(t->saved_out);
	close(t->slave);
	close(t->master);
}

/* tether's terminal opened on a new pseudo-terminal; false (the test skips) without one. */
static bool screen_open(struct pty *t)
{
	if (!pty_open(t))
		return false;
	struct buf err;
	buf_init(&err);
	assert_int_equal(terminal_open(false, &err), 0);
	buf_fini(&err);
	return true;
}

static void screen_close(struct pty *t)
{
	pty_drain(t);
	terminal_close();
	pty_close(t);
}

static void test_pending_sigtstp_survives_updates(void **state)
{
	(void)state;
	struct pty t = { -1, -1, -1, -1 };
	if (!pty_open(&t))
		skip();
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTSTP);
	sigprocmask(SIG_BLOCK, &set, NULL);

	struct buf err;
	buf_init(&err);
	assert_int_equal(terminal_open(false, &err), 0);
	raise(SIGTSTP);
	for (int i = 0; i < 3; i++) {
		mvaddstr(i, 0, "a frame");
		refresh();
	}
	sigset_t pending;
	sigpending(&pending);
	bool kept = sigismember(&pending, SIGTSTP);
	terminal_close();
	pty_close(&t);
	buf_fini(&err);
	assert_true(kept);
}

/* ncurses flushes at every cursor move until it has once come back from endwin(): a frame
 * that changes three lines must still be one write. */
static void test_a_frame_is_one_write(void **state)
{
	(void)state;
	struct pty t = { -1, -1, -1, -1 };
	if (!screen_open(&t))
		skip();
	refresh();
	pty_drain(&t);
	mvaddstr(2, 4, "one");
	mvaddstr(9, 30, "two");
	mvaddstr(17, 11, "three");
	counted_fd = 1;
	writes_counted = 0;
	refresh();
	counted_fd = -1;
	screen_close(&t);
	assert_int_equal(writes_counted, 1);
}

/* Lines 0..n-1 showing fingerprints 1..n, then asked for 1+k..n followed by k new ones: the
 * painter scrolls by k, so only the k new lines are left to draw, and the screen shows the
 * kept lines where they now belong. */
static void test_painter_scrolls_kept_lines(void **state)
{
	(void)state;
	struct pty t = { -1, -1, -1, -1 };
	if (!screen_open(&t))
		skip();
	enum { N = 12, K = 3 };
	struct painter p;
	memset(&p, 0, sizeof p);
	draw_painter_fit(&p, N);
	char line[16];
	for (int y = 0; y < N; y++) {
		assert_false(draw_line_unchanged(&p, y, (uint64_t)(y + 1) << 8));
		snprintf(line, sizeof line, "line %d", y);
		mvaddstr(y, 0, line);
	}
	mvaddstr(N, 0, "status");
	refresh();
	uint64_t want[N];
	for (int y = 0; y < N; y++)
		want[y] = y + K < N ? (uint64_t)(y + K + 1) << 8 : (uint64_t)(100 + y) << 8;
	assert_int_equal(draw_scroll_to(&p, want, N), K);
	int drawn = 0;
	for (int y = 0; y < N; y++)
		drawn += !draw_line_unchanged(&p, y, want[y]);
	assert_int_equal(drawn, K);
	char got[16];
	mvinnstr(0, 0, got, 6);
	assert_string_equal(got, "line 3");
	mvinnstr(N - K - 1, 0, got, 7);
	assert_string_equal(got, "line 11");
	mvinnstr(N - K, 0, got, 6);
	assert_string_equal(got, "      ");
	mvinnstr(N, 0, got, 6);
	assert_string_equal(got, "status"); /* below the scrolled lines nothing moved */
	/* Scrolled back two lines: the kept lines move down, the two at the top are new. */
	uint64_t have[N];
	for (int y = 0; y < N; y++)
		have[y] = want[y];
	for (int y = 0; y < N; y++)
		want[y] = y >= 2 ? have[y - 2] : (uint64_t)(200 + y) << 8;
	assert_int_equal(draw_scroll_to(&p, want, N), -2);
	drawn = 0;
	for (int y = 0; y < N; y++)
		drawn += !draw_line_unchanged(&p, y, want[y]);
	assert_int_equal(drawn, 2);
	mvinnstr(2, 0, got, 6);
	assert_string_equal(got, "line 3");
	/* Nothing kept in any shift: nothing is scrolled. */
	for (int y = 0; y < N; y++)
		want[y] = (uint64_t)(500 + y) << 8;
	assert_int_equal(draw_scroll_to(&p, want, N), 0);
	free(p.line_hash);
	free(p.row_hash);
	free(p.rows);
	screen_close(&t);
}

/* A title is text between the terminal's own start and end: nothing in it (a server's
 * title) can end the sequence early or start another. */
static void test_title_bytes_are_inert(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	terminal_title_bytes("\033]2;", "\a", "tether: a\033]52;c;evil\a\xc2\x9b" "7m\r\nb — idle", &b);
	assert_string_equal(buf_cstr(&b), "\033]2;tether: a]52;c;evil7mb — idle\a");
	buf_clear(&b);
	/* long titles are cut at a character, never inside one */
	char long_title[600];
	memset(long_title, 0, sizeof long_title);
	for (size_t i = 0; i + 3 < sizeof long_title - 1; i += 3)
		memcpy(long_title + i, "题", 3);
	terminal_title_bytes("<", ">", long_title, &b);
	assert_true(b.len <= 2 + TERMINAL_TITLE_BYTES);
	assert_int_equal((b.len - 2) % 3, 0);
	buf_fini(&b);
}

static void test_notification_bytes(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	terminal_notify_bytes(false, false, "tether: Fix", "needs confirmation", &b);
	assert_string_equal(buf_cstr(&b), "\033]9;tether: Fix: needs confirmation\a");
	buf_clear(&b);
	/* OSC 777 separates title and body with ';': one in the title is not a separator */
	terminal_notify_bytes(true, false, "tether: a;b", "idle after running 0:12", &b);
	assert_string_equal(buf_cstr(&b), "\033]777;notify;tether: a,b;idle after running 0:12\a");
	buf_clear(&b);
	/* inside tmux: DCS passthrough, each ESC doubled */
	terminal_notify_bytes(false, true, "t", "x\033y", &b);
	assert_string_equal(buf_cstr(&b), "\033Ptmux;\033\033]9;t: xy\a\033\\");
	buf_fini(&b);
}

static void test_xterm_like_names(void **state)
{
	(void)state;
	assert_true(terminal_title_xterm_like("xterm-256color"));
	assert_true(terminal_title_xterm_like("tmux-256color"));
	assert_true(terminal_title_xterm_like("screen"));
	assert_true(terminal_title_xterm_like("foot"));
	assert_false(terminal_title_xterm_like("linux"));
	assert_false(terminal_title_xterm_like("vt100"));
	assert_false(terminal_title_xterm_like("dumb"));
	assert_false(terminal_title_xterm_like(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pending_sigtstp_survives_updates),
		cmocka_unit_test(test_a_frame_is_one_write),
		cmocka_unit_test(test_painter_scrolls_kept_lines),
		cmocka_unit_test(test_title_bytes_are_inert),
		cmocka_unit_test(test_notification_bytes),
		cmocka_unit_test(test_xterm_like_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
