/* The headless runner: the controller with the headless writer (and the recorder) as its
 * sinks, run by the headless policy until --until, --on-confirm, a signal or a failure ends it. */
#include "headless_run.h"
#include "controller.h"
#include "headless.h"
#include "latency.h"
#include "recorder.h"
#include "exit_code.h"

#include <signal.h>

struct run_state {
	struct loop *loop;
	struct controller *controller;
	int exit_code;
	bool done;
};

static void headless_finished(void *ctx, int exit_code)
{
	struct run_state *r = ctx;
	if (r->done)
		return;
	r->done = true;
	r->exit_code = exit_code;
	loop_quit(r->loop);
}

static void headless_notice(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "tether: %s\n", line);
}

static void headless_signal(void *arg, int signo)
{
	struct run_state *r = arg;
	controller_quit(r->controller, signo == SIGINT ? EXIT_INTERRUPTED : 128 + signo);
}

int headless_run(const struct options *o, struct loop *loop, struct mask_set *masks,
			const char *api_key, FILE *record)
{
	struct run_state r = {.loop = loop, .exit_code = EXIT_RUNTIME};
	static const struct sink_ops run_ops = {
		.notice = headless_notice, .finished = headless_finished,
	};
	/* The run ends by itself per --until, answers confirmations per --on-confirm, reconnects
	 * 8 times unless told, holds only what it has not written yet, and sends over the socket
	 * only (cli.md). ndjson is rewritten from the frames, so the model need not keep texts. */
	const struct run_policy policy = {
		.until = o->until, .handle_confirmations = true, .on_confirm = o->on_confirm,
		.default_retries = 8, .trim_written = true,
		.drop_texts = o->format == FORMAT_NDJSON, .quiet = o->quiet, .say_unsent = true,
	};
	r.controller = controller_create(loop, o, &policy, masks, api_key);
	controller_add_sink(r.controller, headless_sink_create(stdout, o->format, o->quiet, masks,
							       r.controller, loop));
	if (record)
		controller_add_sink(r.controller, recorder_create(record, o->record_path, masks,
								  r.controller));
	controller_add_sink(r.controller, (struct sink){.ops = &run_ops, .ctx = &r});
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	if (loop_watch_signals(loop, sigs, 3, headless_signal, &r) != 0 && !o->quiet)
		fprintf(stderr, "tether: signals are not watched; Ctrl-C ends without a result line\n");
	controller_start(r.controller);
	if (!r.done && loop_run(loop) != 0 && !r.done)
		controller_quit(r.controller, EXIT_RUNTIME);
	controller_destroy(r.controller);
	latency_write_stats(NULL, o->render_hz); /* nothing is painted: the line says so */
	return r.exit_code;
}
