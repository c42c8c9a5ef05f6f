/* The terminal module on a pseudo-terminal: a SIGTSTP waiting for the loop (blocked, read
 * from a signalfd) survives screen updates. */
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

#include "terminal.h"

static void test_pending_sigtstp_survives_updates(void **state)
{
	(void)state;
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
		skip();
	int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	assert_true(slave >= 0);
	int saved_in = dup(0), saved_out = dup(1);
	dup2(slave, 0);
	dup2(slave, 1);
	setenv("TERM", "xterm", 1);
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
	dup2(saved_in, 0);
	dup2(saved_out, 1);
	close(saved_in);
	close(saved_out);
	close(slave);
	close(master);
	buf_fini(&err);
	assert_true(kept);
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
		cmocka_unit_test(test_title_bytes_are_inert),
		cmocka_unit_test(test_notification_bytes),
		cmocka_unit_test(test_xterm_like_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
