/* --send -: one user message per stdin line, sent as it is read. */
#include "controller_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ stdin for --send - */

static void stdin_hangup(void *arg);

/* One line of stdin: sent, unless there is nothing to send or it cannot be sent whole. */
static void stdin_line(struct controller *c, const char *line, size_t n)
{
	c->stdin_lineno++;
	if (n && line[n - 1] == '\r')
		n--;
	struct buf m;
	buf_init(&m);
	if (memchr(line, '\0', n)) {
		/* A C string would cut the message at the NUL and send the rest of nothing. */
		buf_printf(&m, "--send -: line %zu contains a NUL byte; it was not sent",
			   c->stdin_lineno);
		ctl_notice(c, buf_cstr(&m));
	} else if (n && !ctl_blank(line, n)) {
		char *msg = xstrndup(line, n);
		controller_send(c, msg);
		free(msg);
	} else if (n) {
		buf_printf(&m, "--send -: line %zu is blank; it was not sent", c->stdin_lineno);
		ctl_notice(c, buf_cstr(&m));
	}
	buf_fini(&m);
}

static void stdin_consume(struct controller *c, bool eof)
{
	size_t start = 0;
	for (size_t i = 0; i < c->stdin_line.len; i++) {
		if (c->stdin_line.data[i] == '\n') {
			stdin_line(c, c->stdin_line.data + start, i - start);
			start = i + 1;
		}
	}
	if (eof && start < c->stdin_line.len) {
		stdin_line(c, c->stdin_line.data + start, c->stdin_line.len - start);
		start = c->stdin_line.len;
	}
	if (start) {
		memmove(c->stdin_line.data, c->stdin_line.data + start, c->stdin_line.len - start);
		c->stdin_line.len -= start;
	}
}

static void stdin_readable(void *arg)
{
	struct controller *c = arg;
	char chunk[4096];
	ssize_t n = read(0, chunk, sizeof chunk);
	if (n <= 0) {
		stdin_hangup(arg);
		return;
	}
	buf_append(&c->stdin_line, chunk, (size_t)n);
	stdin_consume(c, false);
}

static void stdin_hangup(void *arg)
{
	struct controller *c = arg;
	if (!c->stdin_open)
		return;
	/* A file or /dev/null stays readable at EOF: stop watching, or the loop spins. */
	loop_unwatch_fd(c->loop, 0);
	stdin_consume(c, true);
	buf_fini(&c->stdin_line);
	c->stdin_open = false;
	/* Everything was sent, or nothing came (then it is as if nothing was to be sent). */
	ctl_until_check(c);
}

void ctl_stdin_start(struct controller *c)
{
	c->stdin_open = true;
	buf_init(&c->stdin_line);
	if (loop_watch_fd(c->loop, 0, stdin_readable, stdin_hangup, c) != 0)
		stdin_hangup(c);
}
