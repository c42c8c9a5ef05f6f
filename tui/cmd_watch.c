/* tether watch: every conversation on the server, polled over REST; one line per status
 * change, so that a script can wait for "any agent needs me". */
#include "commands.h"
#include "app.h"
#include "clean.h"
#include "diagnose.h"
#include "list.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { WATCH_MAX_PAGES = 100, WATCH_MAX_BACKOFF_S = 30 };

struct watch_run {
	struct loop *loop;
	struct loop_timer *timer;
	const struct options *o;
	const struct mask_set *masks;
	struct rest_server srv;
	struct buf url;                 /* the server as shown */
	/* what the last complete poll saw */
	struct conversation_info *known;
	size_t nknown;
	bool polled;
	/* the poll under way */
	struct conversation_info *items;
	size_t count;
	char *page_ids[WATCH_MAX_PAGES];
	int pages;
	/* an outage: failed polls in a row, said once */
	int failures;
	int exit_code;
	bool done;
};

static void poll_now(void *arg);

static void finish(struct watch_run *w, int code)
{
	if (w->done)
		return;
	w->exit_code = code;
	w->done = true;
	loop_quit(w->loop);
}

static void forget_poll(struct watch_run *w)
{
	conversation_infos_free(w->items, w->count);
	w->items = NULL;
	w->count = 0;
	for (int i = 0; i < w->pages; i++)
		free(w->page_ids[i]);
	w->pages = 0;
}

/* Flushes stdout as the headless writer does: EPIPE (the reader went away) ends quietly with
 * 141, any other failed write is said once and is exit 1. Returns EXIT_OK when written. */
static int flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return EXIT_OK;
	int err = errno ? errno : EIO;
	if (err != EPIPE)
		clean_eprintf(NULL, "cannot write to standard output: %s", strerror(err));
	return err == EPIPE ? EXIT_SIGPIPE : EXIT_RUNTIME;
}

/* One field on one text line: tabs and line breaks become spaces. */
static void put_flat(struct buf *line, const char *f)
{
	size_t start = line->len;
	buf_puts(line, f);
	for (size_t k = start; k < line->len; k++)
		if (line->data[k] == '\n' || line->data[k] == '\t' || line->data[k] == '\r')
			line->data[k] = ' ';
}

static void put_json(struct buf *line, const char *name, const char *v)
{
	buf_printf(line, ",\"%s\":", name);
	if (v)
		json_append_string(line, v, strlen(v));
	else
		buf_puts(line, "null");
}

/* One change: from is NULL for a conversation seen for the first time. */
static void print_change(const struct watch_run *w, const struct conversation_info *c,
			 const char *from, const char *to)
{
	struct buf line;
	buf_init(&line);
	if (w->o->format == FORMAT_NDJSON) {
		char at[32];
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%SZ", &tm);
		buf_puts(&line, "{\"type\":\"status\"");
		put_json(&line, "id", c->id);
		put_json(&line, "title", c->title);
		put_json(&line, "from", from);
		put_json(&line, "to", to);
		put_json(&line, "at", at);
		buf_putc(&line, '}');
	} else {
		buf_printf(&line, "%.8s ", c->id ? c->id : "-");
		put_flat(&line, c->title && *c->title ? c->title : "(untitled)");
		buf_puts(&line, ": ");
		put_flat(&line, from ? from : "\u2014");
		buf_puts(&line, " \u2192 ");
		put_flat(&line, to);
	}
	puts(buf_cstr(&line));
	buf_fini(&line);
}

static const char *status_of(const struct conversation_info *c)
{
	return c->execution_status && *c->execution_status ? c->execution_status : "unknown";
}

static const struct conversation_info *find(const struct conversation_info *items, size_t n,
					    const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (items[i].id && id && !strcmp(items[i].id, id))
			return &items[i];
	return NULL;
}

/* The lines of one complete poll against the last one; returns whether a line says a
 * conversation now waits for confirmation. */
static bool print_changes(struct watch_run *w)
{
	bool confirm = false;
	for (size_t i = 0; i < w->count; i++) {
		const struct conversation_info *c = &w->items[i];
		if (!c->id || find(w->items, i, c->id))
			continue;       /* an entry without id, or listed twice: said once */
		const struct conversation_info *was = find(w->known, w->nknown, c->id);
		if (was && !strcmp(status_of(was), status_of(c)))
			continue;
		print_change(w, c, was ? status_of(was) : NULL, status_of(c));
		if (c->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION)
			confirm = true;
	}
	for (size_t i = 0; i < w->nknown; i++) {
		const struct conversation_info *c = &w->known[i];
		if (c->id && !find(w->known, i, c->id) && !find(w->items, w->count, c->id))
			print_change(w, c, status_of(c), "gone");
	}
	return confirm;
}

/* --until idle: 0 when nothing runs or waits, 6 when then any ended in error or stuck; -1
 * while something still runs or waits. */
static int settled(const struct watch_run *w)
{
	bool failed = false;
	for (size_t i = 0; i < w->nknown; i++) {
		enum run_status s = w->known[i].run_status;
		if (s == RUN_STATUS_RUNNING || s == RUN_STATUS_WAITING_FOR_CONFIRMATION)
			return -1;
		if (s == RUN_STATUS_ERROR || s == RUN_STATUS_STUCK)
			failed = true;
	}
	return failed ? EXIT_RUN_FAILED : EXIT_OK;
}

static void schedule(struct watch_run *w, double seconds)
{
	loop_timer_schedule(w->timer, (int64_t)(seconds * 1e6));
}

static void poll_complete(struct watch_run *w)
{
	if (w->failures && !w->o->quiet)
		clean_eprintf(w->masks, "watch: the server at %s answers again", buf_cstr(&w->url));
	w->failures = 0;
	bool confirm = print_changes(w);
	int rc = flush_stdout();
	conversation_infos_free(w->known, w->nknown);
	w->known = w->items;
	w->nknown = w->count;
	w->items = NULL;
	w->count = 0;
	forget_poll(w);
	w->polled = true;
	if (rc != EXIT_OK)
		finish(w, rc);
	else if (confirm && w->o->on_confirm == ON_CONFIRM_EXIT)
		finish(w, EXIT_CONFIRM);
	else if (w->o->until == UNTIL_IDLE && settled(w) >= 0)
		finish(w, settled(w));
	else
		schedule(w, w->o->watch_interval_s);
}

/* A poll that failed: said at the first failure of an outage, then tried again later and
 * later (2, 4, 8 … 30 s); 401/403 end at once, --max-retries failures in a row give up. */
static void poll_failed(struct watch_run *w, const struct rest_response *resp, const char *why)
{
	forget_poll(w);
	struct diag_about about = {.server = buf_cstr(&w->url), .has_key = w->srv.api_key != NULL};
	struct buf line, cause, scratch;
	buf_init(&line);
	buf_init(&cause);
	buf_init(&scratch);
	if (resp && resp->error)
		clean_text(w->masks, resp->error, strlen(resp->error), &scratch, &cause);
	if (resp)
		diag_rest_failure(&line, &about, resp, buf_cstr(&cause));
	else
		buf_printf(&line, "unexpected answer from the server at %s: %s", about.server, why);
	bool auth = resp && (resp->status == 401 || resp->status == 403);
	w->failures++;
	if (auth || (w->failures == 1 && !w->o->quiet))
		clean_eprintf(w->masks, "watch: %s", buf_cstr(&line));
	if (auth) {
		finish(w, EXIT_AUTH);
	} else if (w->o->max_retries > 0 && w->failures >= w->o->max_retries) {
		buf_clear(&scratch);
		diag_gave_up(&scratch, &about, w->failures, buf_cstr(&cause));
		clean_eprintf(w->masks, "watch: %s", buf_cstr(&scratch));
		finish(w, EXIT_GAVE_UP);
	} else {
		double delay = 1;
		for (int i = 0; i < w->failures && delay < WATCH_MAX_BACKOFF_S; i++)
			delay *= 2;
		schedule(w, delay < WATCH_MAX_BACKOFF_S ? delay : WATCH_MAX_BACKOFF_S);
	}
	buf_fini(&scratch);
	buf_fini(&cause);
	buf_fini(&line);
}

static void fetch_page(struct watch_run *w, const char *page_id);

static void page_done(void *ctx, const struct rest_response *resp)
{
	struct watch_run *w = ctx;
	if (resp->status != 200) {
		poll_failed(w, resp, NULL);
		return;
	}
	struct conversation_info *items = NULL;
	size_t n = 0;
	char *next = NULL;
	struct codec_error err;
	if (conversation_list_decode(resp->body, resp->body_len, &items, &n, &next, &err) != 0) {
		poll_failed(w, NULL, err.message);
		return;
	}
	for (size_t i = 0; i < n; i++)
		conversation_info_clean(&items[i], w->masks);
	w->items = xrealloc(w->items, (w->count + n + 1) * sizeof *w->items);
	if (n)
		memcpy(w->items + w->count, items, n * sizeof *items);
	w->count += n;
	free(items);
	if (!next) {
		poll_complete(w);
		return;
	}
	/* A server that keeps handing out pages must not keep us forever, nor round a loop. */
	bool again = false;
	for (int i = 0; i < w->pages; i++)
		again = again || !strcmp(w->page_ids[i], next);
	if (again || w->pages == WATCH_MAX_PAGES) {
		poll_failed(w, NULL, again ? "a page id came a second time"
					   : "more than 100 pages of conversations");
	} else {
		w->page_ids[w->pages++] = xstrdup(next);
		fetch_page(w, next);
	}
	free(next);
}

static void fetch_page(struct watch_run *w, const char *page_id)
{
	if (rest_search_conversations(&w->srv, page_id, 100, page_done, w) != 0)
		poll_failed(w, NULL, "cannot start the request");
}

static void poll_now(void *arg)
{
	struct watch_run *w = arg;
	fetch_page(w, NULL);
}

static void on_signal(void *arg, int signo)
{
	struct watch_run *w = arg;
	finish(w, signo == SIGINT ? EXIT_INTERRUPTED : 128 + signo);
}

int cmd_watch_run(const struct options *o, loop_log_fn log, const char *api_key,
		  const struct mask_set *masks)
{
	int exit_code;
	struct loop *loop = command_loop(o, log, masks, &exit_code);
	if (!loop)
		return exit_code;
	/* A closed stdout is seen as EPIPE on the write. */
	signal(SIGPIPE, SIG_IGN);
	struct watch_run w = {
		.loop = loop, .o = o, .masks = masks, .exit_code = EXIT_RUNTIME,
		.srv = {.loop = loop, .url = o->server, .api_key = api_key, .insecure = o->insecure},
	};
	buf_init(&w.url);
	url_describe(o->server, &w.url);
	w.timer = loop_timer_create(loop, poll_now, &w);
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	if (loop_watch_signals(loop, sigs, 3, on_signal, &w) != 0 && !o->quiet)
		fprintf(stderr, "tether: signals are not watched; Ctrl-C ends tether watch abruptly\n");
	poll_now(&w);
	if (!w.done && loop_run(loop) != 0)
		finish(&w, EXIT_RUNTIME);
	loop_timer_destroy(w.timer);
	loop_destroy(loop);
	forget_poll(&w);
	conversation_infos_free(w.known, w.nknown);
	buf_fini(&w.url);
	return w.exit_code;
}
