/* The event loop a one-shot REST command (list, confirm, pause, ...) runs on. */
#include "commands.h"
#include "app.h"
#include "clean.h"

struct loop *command_loop(const struct options *o, loop_log_fn log, const struct mask_set *masks,
			  int *exit_code)
{
	if (app_check_server(o->server) != 0) {
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
