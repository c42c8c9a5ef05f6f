/* Questions on /dev/tty outside the screen, with echo off for secrets. */
#include "tty_prompt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

void tty_value_free(struct tty_value *v)
{
	if (v->data)
		mem_wipe(v->data, TTY_VALUE_MAX + 1);
	free(v->data);
	v->data = NULL;
	v->len = 0;
}

int tty_value_read(int fd, bool one_line, struct tty_value *v)
{
	v->data = xmalloc(TTY_VALUE_MAX + 1);
	v->len = 0;
	for (;;) {
		ssize_t n = read(fd, v->data + v->len, TTY_VALUE_MAX + 1 - v->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		v->len += (size_t)n;
		if (one_line && memchr(v->data, '\n', v->len))
			break;
		if (v->len > TTY_VALUE_MAX)
			break;
	}
	return 0;
}

/* The terminal state to put back if a signal ends the prompt, and the prompt's own. */
static struct termios prompt_saved, prompt_asking;
static int prompt_fd = -1;

static void prompt_on_signal(int sig)
{
	int saved_errno = errno;
	tcsetattr(prompt_fd, TCSAFLUSH, &prompt_saved);
	struct sigaction dfl = { .sa_handler = SIG_DFL }, mine;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, &mine);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	/* Only a stop comes back here (fg): echo must be off again before the rest is typed. */
	sigaction(sig, &mine, NULL);
	tcsetattr(prompt_fd, TCSANOW, &prompt_asking);
	errno = saved_errno;
}

static const int prompt_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP };
#define NPROMPT_SIGNALS (sizeof prompt_signals / sizeof prompt_signals[0])

int tty_prompt(const char *prompt, bool echo, struct tty_value *v)
{
	v->data = NULL;
	v->len = 0;
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct termios t;
	if (tcgetattr(fd, &t) != 0) {
		close(fd);
		return -1;
	}
	prompt_saved = t;
	prompt_fd = fd;
	struct sigaction sa = { .sa_handler = prompt_on_signal }, old[NPROMPT_SIGNALS];
	sigemptyset(&sa.sa_mask);
	/* The client blocks these for its loop; at a question, Ctrl-C must still end it. */
	sigset_t mask, old_mask;
	sigemptyset(&mask);
	for (size_t i = 0; i < NPROMPT_SIGNALS; i++) {
		sigaction(prompt_signals[i], &sa, &old[i]);
		sigaddset(&mask, prompt_signals[i]);
	}
	sigprocmask(SIG_UNBLOCK, &mask, &old_mask);
	if (!echo)
		t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
	t.c_lflag |= ICANON;
	prompt_asking = t;
	int rc = -1;
	if (tcsetattr(fd, TCSAFLUSH, &t) == 0) {
		if (write(fd, prompt, strlen(prompt)) >= 0)
			rc = tty_value_read(fd, true, v);
		tcsetattr(fd, TCSAFLUSH, &prompt_saved);
		if (!echo && write(fd, "\n", 1) < 0) {
			/* only the cosmetic newline after the hidden input is lost */
		}
	}
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	for (size_t i = 0; i < NPROMPT_SIGNALS; i++)
		sigaction(prompt_signals[i], &old[i], NULL);
	prompt_fd = -1;
	close(fd);
	return rc;
}

