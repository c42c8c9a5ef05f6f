/* --send -: one user message per stdin line, sent as it is read. */
#include "controller_int.h"
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ stdin for --send - */

static void stdin_hangup(void *arg);

static void stdin_consume(struct controller *c, bool eof)
{
	size_t start = 0;
	for (size_t i = 0; i < c->stdin_line.len; i++) {
		if (c->stdin_line.data[i] == '\n') {
			size_t n = i - start;
			if (n && c->stdin_line.data[start + n - 1] == '\r')
				n--;
			if (n) {
				char *msg = xstrndup(c->stdin_line.data + start, n);
				controller_send(c, msg);
				free(msg);
			}
			start = i + 1;
		}
	}
	if (eof && start < c->stdin_line.len) {
		char *msg = xstrndup(c->stdin_line.data + start, c->stdin_line.len - start);
		controller_send(c, msg);
		free(msg);
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
	/* Nothing came: behave as if nothing was to be sent. */
	if (c->caught_up && !c->sent_anything && c->o->until == UNTIL_IDLE)
		ctl_finish(c, EXIT_OK);
}

void ctl_stdin_start(struct controller *c)
{
	c->stdin_open = true;
	buf_init(&c->stdin_line);
	if (loop_watch_fd(c->loop, 0, stdin_readable, stdin_hangup, c) != 0)
		stdin_hangup(c);
}
