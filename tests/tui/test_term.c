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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pending_sigtstp_survives_updates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
