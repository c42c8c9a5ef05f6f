/* The event loop a one-shot REST command (list, confirm, pause, ...) runs on, and how they flush stdout. */
#include "command_run.h"
#include "app.h"
#include "server_check.h"
#include "clean.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct loop *command_loop(const struct options *o, loop_log_fn log, const struct mask_set *masks,
			  int *exit_code)
{
	if (server_check(o->server) != 0) {
		*exit_code = EXIT_USAGE;
		return NULL;
	}
	struct buf err;
	buf_init(&err);
	struct loop *loop = loop_create(log, &err);
	if (!loop) {
		clean_eprintf(masks, "cannot create the event loop: %s", buf_cstr(&err));
		*exit_code = EXIT_RUNTIME;
	}
	buf_fini(&err);
	return loop;
}

void command_run_init(struct command_run *run, struct loop *loop, const struct options *o,
		      const char *api_key, const struct mask_set *masks, const char *name)
{
	*run = (struct command_run){
		.loop = loop, .o = o, .masks = masks, .name = name, .exit_code = EXIT_RUNTIME,
		.srv = {.loop = loop, .url = o->server, .api_key = api_key, .insecure = o->insecure},
	};
}

void command_finish(struct command_run *run, int code)
{
	run->exit_code = code;
	run->done = true;
	loop_quit(run->loop);
}

int command_flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return EXIT_OK;
	int err = errno ? errno : EIO;
	if (err != EPIPE)
		clean_eprintf(NULL, "cannot write to standard output: %s", strerror(err));
	return err == EPIPE ? EXIT_SIGPIPE : EXIT_RUNTIME;
}
