/* The conversation directory: one poll is every page of the server's conversation search,
 * one request at a time; a complete poll or a failure goes to the owner, then the next poll
 * is scheduled (the interval, or the backoff). */
#include "directory.h"
#include "clean.h"
#include "diagnose.h"
#include "list.h"

#include <stdlib.h>
#include <string.h>

enum { DIR_MAX_PAGES = 100, DIR_MAX_BACKOFF_S = 30 };
/* The shortest interval (tether watch --interval's floor): never a busy loop of requests. */
static const double dir_min_interval_s = 0.1;

/* The request in flight; d is NULL once the directory is gone. */
struct dir_call {
	struct directory *d;
};

struct directory {
	struct loop *loop;
	struct loop_timer *timer;
	const struct mask_set *masks;
	struct rest_server srv;
	char *server;
	char *api_key;
	struct buf url;                 /* the server as shown */
	double interval_s;
	directory_fn on_poll;
	void *ctx;
	struct dir_call *call;
	int failures;
	/* what the last complete poll gave (the owner's until the next callback) */
	struct conversation_info *given;
	size_t ngiven;
	/* the poll under way */
	struct conversation_info *items;
	size_t count;
	char *page_ids[DIR_MAX_PAGES];
	int pages;
};

static void forget_poll(struct directory *d)
{
	conversation_infos_free(d->items, d->count);
	d->items = NULL;
	d->count = 0;
	for (int i = 0; i < d->pages; i++)
		free(d->page_ids[i]);
	d->pages = 0;
}

static void schedule(struct directory *d, double seconds)
{
	loop_timer_schedule(d->timer, (int64_t)(seconds * 1e6));
}

/* The callback is the last thing a poll does: the owner may destroy the directory in it. */
static void poll_complete(struct directory *d)
{
	d->failures = 0;
	conversation_infos_free(d->given, d->ngiven);
	d->given = d->items;
	d->ngiven = d->count;
	d->items = NULL;
	d->count = 0;
	forget_poll(d);
	schedule(d, d->interval_s);
	struct directory_poll p = {.items = d->given, .count = d->ngiven};
	d->on_poll(d->ctx, &p);
}

/* A failed poll: resp is the answer (NULL when the failure is why, about an answer or a
 * request that could not start). Tried again 2, 4, 8 … 30 s later. */
static void poll_failed(struct directory *d, const struct rest_response *resp, const char *why)
{
	forget_poll(d);
	struct diag_about about = {.server = buf_cstr(&d->url), .has_key = d->api_key != NULL};
	struct buf line, cause, scratch;
	buf_init(&line);
	buf_init(&cause);
	buf_init(&scratch);
	if (resp && resp->error)
		clean_text(d->masks, resp->error, strlen(resp->error), &scratch, &cause);
	if (resp)
		diag_rest_failure(&line, &about, resp, buf_cstr(&cause));
	else
		buf_printf(&line, "unexpected answer from the server at %s: %s", about.server, why);
	d->failures++;
	double delay = 1;
	for (int i = 0; i < d->failures && delay < DIR_MAX_BACKOFF_S; i++)
		delay *= 2;
	if (delay > DIR_MAX_BACKOFF_S)
		delay = DIR_MAX_BACKOFF_S;
	schedule(d, delay);
	struct directory_poll p = {
		.failed = true, .status = resp ? resp->status : 0, .words = buf_cstr(&line),
		.cause = buf_cstr(&cause), .failures = d->failures, .retry_s = delay,
	};
	buf_fini(&scratch);
	/* line and cause outlive the callback, which may free d */
	d->on_poll(d->ctx, &p);
	buf_fini(&cause);
	buf_fini(&line);
}

static void fetch_page(struct directory *d, const char *page_id);

static void page_done(void *ctx, const struct rest_response *resp)
{
	struct dir_call *call = ctx;
	struct directory *d = call->d;
	free(call);
	if (!d)
		return;
	d->call = NULL;
	if (resp->status != 200) {
		poll_failed(d, resp, NULL);
		return;
	}
	char *next = NULL;
	struct codec_error err;
	if (conversation_page_append(resp->body, resp->body_len, d->masks, &d->items, &d->count,
				     &next, &err) != 0) {
		poll_failed(d, NULL, err.message);
		return;
	}
	if (!next) {
		poll_complete(d);
		return;
	}
	/* A server that keeps handing out pages must not keep us forever, nor round a loop. */
	bool again = false;
	for (int i = 0; i < d->pages; i++)
		again = again || !strcmp(d->page_ids[i], next);
	if (again || d->pages == DIR_MAX_PAGES) {
		poll_failed(d, NULL, again ? "a page id came a second time"
					   : "more than 100 pages of conversations");
	} else {
		d->page_ids[d->pages++] = xstrdup(next);
		fetch_page(d, next);
	}
	free(next);
}

static void fetch_page(struct directory *d, const char *page_id)
{
	struct dir_call *call = xcalloc(1, sizeof *call);
	call->d = d;
	d->call = call;
	if (rest_search_conversations(&d->srv, page_id, 100, page_done, call) != 0) {
		d->call = NULL;
		free(call);
		poll_failed(d, NULL, "cannot start the request");
	}
}

static void timer_fired(void *arg)
{
	fetch_page(arg, NULL);
}

struct directory *directory_create(struct loop *loop, const struct options *o,
				   const struct mask_set *masks, const char *api_key,
				   directory_fn on_poll, void *ctx)
{
	struct directory *d = xcalloc(1, sizeof *d);
	d->loop = loop;
	d->masks = masks;
	d->server = xstrdup(o->server);
	d->api_key = api_key ? xstrdup(api_key) : NULL;
	d->srv = (struct rest_server){.loop = loop, .url = d->server, .api_key = d->api_key,
				      .insecure = o->insecure};
	buf_init(&d->url);
	url_describe(o->server, &d->url);
	d->interval_s = o->watch_interval_s;
	if (!(d->interval_s >= dir_min_interval_s))
		d->interval_s = dir_min_interval_s;
	d->on_poll = on_poll;
	d->ctx = ctx;
	d->timer = loop_timer_create(loop, timer_fired, d);
	schedule(d, 0);
	return d;
}

void directory_set_interval(struct directory *d, double seconds)
{
	d->interval_s = seconds >= dir_min_interval_s ? seconds : dir_min_interval_s;
	if (!d->call && !d->failures && loop_timer_pending(d->timer))
		schedule(d, seconds);
}

void directory_poll_now(struct directory *d)
{
	if (!d->call)
		schedule(d, 0);
}

void directory_destroy(struct directory *d)
{
	if (!d)
		return;
	if (d->call)
		d->call->d = NULL;
	loop_timer_destroy(d->timer);
	forget_poll(d);
	conversation_infos_free(d->given, d->ngiven);
	buf_fini(&d->url);
	free(d->server);
	str_wipe_free(d->api_key);
	free(d);
}
