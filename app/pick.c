/* No conversation id in a terminal: the server's conversations in the picker, each tried
 * (GET) before it is handed over. */
#include "pick.h"
#include "clean.h"
#include "diagnose.h"
#include "exit_code.h"
#include "list.h"
#include "picker.h"

#include <string.h>
#include <unistd.h>

/* What the picker needs to try a conversation before handing it over. */
struct pick_probe {
	const struct options *o;
	loop_log_fn log;
	const char *api_key;
	const struct mask_set *masks;
	/* the answer of the last try */
	struct loop *loop;
	int input_fd;
	bool done, cancelled;
	enum rest_outcome outcome;
	int status;
	enum net_cause cause;
	struct buf error;
};

static void probe_done(void *ctx, struct rest_result *res)
{
	struct pick_probe *p = ctx;
	const struct rest_response *r = res->raw;
	p->done = true;
	if (p->loop)
		loop_quit(p->loop);
	p->outcome = res->outcome;
	p->status = r->status;
	p->cause = r->cause;
	buf_clear(&p->error);
	if (r->error) {
		struct buf scratch;
		buf_init(&scratch);
		clean_text(p->masks, r->error, strlen(r->error), &scratch, &p->error);
		buf_fini(&scratch);
	}
}

/* Keys while the picker waits: a lone Esc or a Ctrl-C stops waiting (an arrow's escape
 * sequence does not); the rest is dropped. */
static void probe_input(void *arg)
{
	struct pick_probe *p = arg;
	char in[256];
	ssize_t n = read(p->input_fd, in, sizeof in);
	if (n < 0)
		return;
	if (n == 0 || (n == 1 && in[0] == 0x1b) || memchr(in, 0x03, (size_t)n)) {
		p->cancelled = true;
		loop_quit(p->loop);
	}
}

static void probe_hangup(void *arg)
{
	struct pick_probe *p = arg;
	p->cancelled = true;
	loop_quit(p->loop);
}

/* The picker's Enter: GET the conversation, so that a 404 (or an unreachable server, or a
 * refused key) is said in the picker, which stays, instead of ending tether. */
static int try_open(void *ctx, const char *id, int input_fd, struct buf *why)
{
	struct pick_probe *p = ctx;
	struct buf err, url;
	buf_init(&err);
	buf_init(&url);
	url_describe(p->o->server, &url);
	struct diag_about about = { .server = buf_cstr(&url), .conversation_id = id,
				    .has_key = p->api_key != NULL };
	struct loop *loop = loop_create(p->log, &err);
	int rc = -1;
	p->done = p->cancelled = false;
	p->loop = loop;
	p->input_fd = input_fd;
	if (!loop) {
		buf_printf(why, "cannot create the event loop: %s", buf_cstr(&err));
		goto out;
	}
	struct rest_server srv = { .loop = loop, .url = p->o->server, .api_key = p->api_key,
				   .insecure = p->o->insecure };
	struct rest_args a = {.id = id};
	if (rest_call(&srv, REST_GET_CONVERSATION, &a, probe_done, p) != 0) {
		buf_printf(why, "cannot start the request to %s about conversation %s",
			   about.server, id);
	} else {
		bool watched = loop_watch_fd(loop, input_fd, probe_input, probe_hangup, p) == 0;
		if (!p->done)
			loop_run(loop);
		if (watched)
			loop_unwatch_fd(loop, input_fd);
		if (!p->done && p->cancelled) {
			buf_printf(why, "stopped waiting for the server at %s to answer about "
				   "conversation %s", about.server, id);
		} else if (p->outcome == REST_OK || p->outcome == REST_BAD_BODY) {
			rc = 0;
		} else if (p->outcome == REST_NOT_FOUND) {
			buf_printf(why, "conversation %s is not on this server (HTTP 404): pick "
				   "another", id);
		} else if (p->outcome == REST_NO_ANSWER || p->outcome == REST_AUTH) {
			struct rest_response r = { .status = p->status, .error = buf_cstr(&p->error),
						   .cause = p->cause };
			diag_rest_failure(why, &about, &r, buf_cstr(&p->error));
		} else {
			buf_printf(why, "the server at %s answered HTTP %d for conversation %s",
				   about.server, p->status, id);
		}
	}
	p->loop = NULL;
	loop_destroy(loop);
out:
	buf_fini(&err);
	buf_fini(&url);
	return rc;
}

int pick_conversation(const struct options *o, loop_log_fn log, const struct mask_set *masks,
		      const char *api_key, char **id)
{
	struct conversation_info *items = NULL;
	size_t n = 0;
	int rc = list_fetch(o, log, api_key, masks, &items, &n);
	if (rc != EXIT_OK)
		return rc;
	if (n == 0) {
		conversation_infos_free(items, n);
		struct buf url;
		buf_init(&url);
		url_describe(o->server, &url);
		clean_eprintf(masks, "the server at %s has no conversations yet: start one there "
			      "(tether opens existing conversations), then run tether again",
			      buf_cstr(&url));
		buf_fini(&url);
		return EXIT_NOT_FOUND;
	}
	long i;
	int signo;
	struct buf err;
	buf_init(&err);
	struct pick_probe probe = { .o = o, .log = log, .api_key = api_key, .masks = masks };
	buf_init(&probe.error);
	rc = EXIT_OK;
	if (picker_choose(o->server, items, n, o->color, try_open, &probe, &i, &signo, &err) != 0) {
		clean_eprintf(masks, "%s", buf_cstr(&err));
		rc = EXIT_RUNTIME;
	} else if (signo) {
		rc = 128 + signo;
	}
	buf_fini(&probe.error);
	buf_fini(&err);
	*id = i >= 0 ? xstrdup(items[i].id) : NULL;
	conversation_infos_free(items, n);
	return rc;
}
