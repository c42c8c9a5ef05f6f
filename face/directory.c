/* The conversation directory: a poll asks the server's conversations most recently updated
 * first, one page at a time. The first poll, and one a minute after, walks every page; the
 * others stop at the first page where nothing changed (every conversation on it as the last
 * poll had it): anything updated since is on the pages before, so the rest of the list is the
 * last poll's. A complete poll or a failure goes to the owner, then the next poll is
 * scheduled (the interval, or the backoff). */
#include "directory.h"
#include "clean.h"
#include "diagnose.h"
#include "conv_page.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { DIR_MAX_BACKOFF_S = 30, DIR_PAGE = 100 };
/* The shortest interval (tether watch --interval's floor): never a busy loop of requests. */
static const double dir_min_interval_s = 0.1;
/* How often a poll walks every page anyway: a conversation gone from the older pages, or a
 * status that changed with no event to move it up, shows within this. */
static const double dir_full_every_s = 60;

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
	/* what the last complete poll gave (the owner's until the next callback), and its ids
	 * (id → index + 1) */
	struct conversation_info *given;
	size_t ngiven;
	bool have_given;
	struct strmap given_at;
	int64_t full_at_us;             /* when the last poll that walked every page ended */
	/* the poll under way */
	bool full;                      /* walks every page */
	struct conversation_info *items;
	size_t count;
	char **page_ids;                /* the page ids asked (a server's loop is a failure) */
	size_t pages, cap_pages;
	struct strmap page_seen;
};

static void forget_poll(struct directory *d)
{
	conversation_infos_free(d->items, d->count);
	d->items = NULL;
	d->count = 0;
	strmap_fini(&d->page_seen);
	strmap_init(&d->page_seen);
	for (size_t i = 0; i < d->pages; i++)
		free(d->page_ids[i]);
	d->pages = 0;
}

static void info_fini(struct conversation_info *c)
{
	free(c->id);
	free(c->title);
	free(c->execution_status);
	free(c->updated_at);
	free(c->leaf_event_id);
	free(c->model);
	usage_stats_fini(&c->stats);
	*c = (struct conversation_info){0};
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The index + 1 in the last complete list of the conversation id, or 0. */
static size_t given_index(const struct directory *d, const char *id)
{
	return id ? (size_t)(uintptr_t)strmap_get(&d->given_at, id) : 0;
}

/* Whether every conversation of the page items[from..] is as the last complete poll gave it;
 * *last is then the furthest place one of them had in that list. */
static bool page_unchanged(const struct directory *d, size_t from, size_t *last)
{
	*last = 0;
	if (!d->have_given || from == d->count)
		return false;
	for (size_t i = from; i < d->count; i++) {
		const struct conversation_info *c = &d->items[i];
		size_t at = given_index(d, c->id);
		if (!at)
			return false;
		const struct conversation_info *g = &d->given[at - 1];
		if (!same_text(c->updated_at, g->updated_at) ||
		    !same_text(c->execution_status, g->execution_status) ||
		    !same_text(c->title, g->title))
			return false;
		if (at > *last)
			*last = at;
	}
	return true;
}

/* The list when the poll stopped early: the pages asked (a conversation listed twice once),
 * then the last list after the place where the last page ended, less what the pages had.
 * What the last list had before that place and the pages did not is gone from the server. */
static void merge_rest(struct directory *d, size_t last)
{
	struct strmap have;
	strmap_init(&have);
	size_t n = 0;
	struct conversation_info *out = xcalloc(d->count + d->ngiven + 1, sizeof *out);
	for (size_t i = 0; i < d->count; i++) {
		struct conversation_info *c = &d->items[i];
		if (c->id && strmap_get(&have, c->id)) {
			info_fini(c);
			continue;
		}
		out[n] = *c;
		if (out[n].id)
			strmap_put(&have, out[n].id, &out[n]);
		n++;
	}
	for (size_t i = last; i < d->ngiven; i++) {
		struct conversation_info *g = &d->given[i];
		if (g->id && strmap_get(&have, g->id))
			continue;
		out[n++] = *g;
		*g = (struct conversation_info){0};
	}
	strmap_fini(&have);
	free(d->items);
	d->items = out;
	d->count = n;
}

static void schedule(struct directory *d, double seconds)
{
	loop_timer_schedule(d->timer, (int64_t)(seconds * 1e6));
}

/* The callback is the last thing a poll does: the owner may destroy the directory in it. */
static void poll_complete(struct directory *d, bool walked_all)
{
	d->failures = 0;
	size_t pages = d->pages + 1;
	strmap_fini(&d->given_at);
	strmap_init(&d->given_at);
	conversation_infos_free(d->given, d->ngiven);
	d->given = d->items;
	d->ngiven = d->count;
	d->have_given = true;
	for (size_t i = 0; i < d->ngiven; i++)
		if (d->given[i].id)
			strmap_put(&d->given_at, d->given[i].id, (void *)(uintptr_t)(i + 1));
	if (walked_all)
		d->full_at_us = clock_now_us();
	d->items = NULL;
	d->count = 0;
	forget_poll(d);
	schedule(d, d->interval_s);
	struct directory_poll p = {.items = d->given, .count = d->ngiven, .pages = pages,
				   .walked_all = walked_all};
	d->on_poll(d->ctx, &p);
}

/* A failed poll: res is the answer (NULL when the failure is why: about an answer or a
 * request that could not start, or said whole when said is true). Tried again 2, 4, 8 …
 * 30 s later. */
static void poll_failed_as(struct directory *d, const struct rest_result *res, const char *why,
			   bool said)
{
	const struct rest_response *resp = res ? res->raw : NULL;
	bool refused = res && res->outcome == REST_AUTH;
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
	else if (said)
		buf_printf(&line, "the server at %s %s", about.server, why);
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
		.failed = true, .refused = refused, .words = buf_cstr(&line),
		.cause = buf_cstr(&cause), .failures = d->failures, .retry_s = delay,
	};
	buf_fini(&scratch);
	/* line and cause outlive the callback, which may free d */
	d->on_poll(d->ctx, &p);
	buf_fini(&cause);
	buf_fini(&line);
}

static void poll_failed(struct directory *d, const struct rest_result *res, const char *why)
{
	poll_failed_as(d, res, why, false);
}

static void fetch_page(struct directory *d, const char *page_id);

static void page_done(void *ctx, struct rest_result *res)
{
	struct dir_call *call = ctx;
	struct directory *d = call->d;
	free(call);
	if (!d)
		return;
	d->call = NULL;
	if (res->outcome == REST_BAD_BODY) {
		poll_failed(d, NULL, res->err.message);
		return;
	}
	if (res->outcome != REST_OK) {
		poll_failed(d, res, NULL);
		return;
	}
	char *next = NULL;
	size_t from = d->count, last;
	conversation_page_append(&res->conversations, d->masks, &d->items, &d->count, &next);
	if (!next) {
		poll_complete(d, true);
		return;
	}
	if (!d->full && page_unchanged(d, from, &last)) {
		free(next);
		merge_rest(d, last);
		poll_complete(d, false);
		return;
	}
	/* A server that keeps handing out pages must not keep us forever, nor round a loop. */
	if (strmap_get(&d->page_seen, next)) {
		poll_failed(d, NULL, "a page id came a second time");
	} else if (d->pages + 1 >= DIRECTORY_MAX_PAGES) {
		poll_failed_as(d, NULL, "lists more than 10,000 pages of conversations: tether "
				  "polls at most 1,000,000 conversations", true);
	} else {
		if (d->pages == d->cap_pages) {
			d->cap_pages = d->cap_pages ? d->cap_pages * 2 : 16;
			d->page_ids = xrealloc(d->page_ids, d->cap_pages * sizeof *d->page_ids);
			/* the map borrows the keys: the strings stay where they are */
		}
		d->page_ids[d->pages] = xstrdup(next);
		strmap_put(&d->page_seen, d->page_ids[d->pages], d);
		d->pages++;
		fetch_page(d, next);
	}
	free(next);
}

static void fetch_page(struct directory *d, const char *page_id)
{
	struct dir_call *call = xcalloc(1, sizeof *call);
	call->d = d;
	d->call = call;
	struct rest_args a = {.page_id = page_id, .limit = DIR_PAGE};
	if (rest_call(&d->srv, REST_SEARCH_CONVERSATIONS_NEWEST, &a, page_done, call) != 0) {
		d->call = NULL;
		free(call);
		poll_failed(d, NULL, "cannot start the request");
	}
}

static void timer_fired(void *arg)
{
	struct directory *d = arg;
	d->full = !d->have_given ||
		  clock_now_us() - d->full_at_us >= (int64_t)(dir_full_every_s * 1e6);
	fetch_page(d, NULL);
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
	strmap_init(&d->given_at);
	strmap_init(&d->page_seen);
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
	strmap_fini(&d->page_seen);
	free(d->page_ids);
	strmap_fini(&d->given_at);
	conversation_infos_free(d->given, d->ngiven);
	buf_fini(&d->url);
	free(d->server);
	str_wipe_free(d->api_key);
	free(d);
}
