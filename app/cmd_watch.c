/* tether watch: every conversation on the server, polled over REST; one line per status
 * change, so that a script can wait for "any agent needs me". */
#include "commands.h"
#include "app.h"
#include "clean.h"
#include "diagnose.h"
#include "directory.h"
#include "list.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct watch_run {
	struct loop *loop;
	struct directory *dir;
	const struct options *o;
	const struct mask_set *masks;
	const char *url;                /* the server as shown */
	bool has_key;
	/* what the last complete poll saw */
	struct conversation_info *known;
	size_t nknown;
	/* the poll that is being compared with it (the directory's) */
	const struct conversation_info *items;
	size_t count;
	bool failing;                   /* the last poll failed: an outage said once */
	bool reached;                   /* a poll has ever been answered */
	int exit_code;
	bool done;
};

static void finish(struct watch_run *w, int code)
{
	if (w->done)
		return;
	w->exit_code = code;
	w->done = true;
	loop_quit(w->loop);
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

/* id → the first conversation of items[0..n) with it (a server may list one twice). */
static void index_ids(struct strmap *m, const struct conversation_info *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (items[i].id && !strmap_get(m, items[i].id))
			strmap_put(m, items[i].id, (void *)&items[i]);
}

/* The lines of one complete poll against the last one; returns the first conversation a line
 * says now waits for confirmation, or NULL. Maps, not searches: a server may list 10,000. */
static const struct conversation_info *print_changes(struct watch_run *w)
{
	const struct conversation_info *confirm = NULL;
	struct strmap now, was_at;
	strmap_init(&now);
	strmap_init(&was_at);
	index_ids(&now, w->items, w->count);
	index_ids(&was_at, w->known, w->nknown);
	for (size_t i = 0; i < w->count; i++) {
		const struct conversation_info *c = &w->items[i];
		if (!c->id || strmap_get(&now, c->id) != c)
			continue;       /* an entry without id, or listed twice: said once */
		const struct conversation_info *was = strmap_get(&was_at, c->id);
		if (was && !strcmp(status_of(was), status_of(c)))
			continue;
		print_change(w, c, was ? status_of(was) : NULL, status_of(c));
		if (c->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION && !confirm)
			confirm = c;
	}
	for (size_t i = 0; i < w->nknown; i++) {
		const struct conversation_info *c = &w->known[i];
		if (c->id && strmap_get(&was_at, c->id) == c && !strmap_get(&now, c->id))
			print_change(w, c, status_of(c), "gone");
	}
	strmap_fini(&now);
	strmap_fini(&was_at);
	return confirm;
}

/* --until idle: 0 when nothing runs or waits, 6 when then any ended in error or stuck (the
 * first such in *failed); -1 while something still runs or waits. */
static int settled(const struct watch_run *w, const struct conversation_info **failed)
{
	const struct conversation_info *first = NULL;
	for (size_t i = 0; i < w->nknown; i++) {
		enum run_status s = w->known[i].run_status;
		if (s == RUN_STATUS_RUNNING || s == RUN_STATUS_WAITING_FOR_CONFIRMATION)
			return -1;
		if ((s == RUN_STATUS_ERROR || s == RUN_STATUS_STUCK) && !first)
			first = &w->known[i];
	}
	if (failed)
		*failed = first;
	return first ? EXIT_RUN_FAILED : EXIT_OK;
}

/* Why watch ends with 7 or 6, on stderr (-q: not said; the exit code still tells). */
static void say_why(const struct watch_run *w, const struct conversation_info *c, bool confirm)
{
	if (w->o->quiet)
		return;
	const char *title = c->title && *c->title ? c->title : "(untitled)";
	if (confirm)
		clean_eprintf(w->masks, "watch: conversation %s (%s) waits for confirmation; exit 7 "
			      "(answer with tether confirm|reject %s; --on-confirm wait keeps watching)",
			      c->id, title, c->id);
	else
		clean_eprintf(w->masks, "watch: no conversation runs or waits, and conversation %s "
			      "(%s) %s; exit 6", c->id ? c->id : "-", title,
			      c->run_status == RUN_STATUS_STUCK ? "is stuck" : "ended in error");
}

/* The directory keeps its list only until its next poll: the last one seen is copied. */
static void keep_known(struct watch_run *w)
{
	conversation_infos_free(w->known, w->nknown);
	w->known = xcalloc(w->count + 1, sizeof *w->known);
	w->nknown = w->count;
	for (size_t i = 0; i < w->count; i++) {
		const struct conversation_info *c = &w->items[i];
		w->known[i] = (struct conversation_info){
			.id = c->id ? xstrdup(c->id) : NULL,
			.title = c->title ? xstrdup(c->title) : NULL,
			.execution_status = c->execution_status ? xstrdup(c->execution_status) : NULL,
			.run_status = c->run_status,
			.updated_at = c->updated_at ? xstrdup(c->updated_at) : NULL,
		};
	}
}

static void poll_complete(struct watch_run *w, const struct directory_poll *p)
{
	if (w->failing && !w->o->quiet)
		clean_eprintf(w->masks, "watch: the server at %s answers again", w->url);
	w->failing = false;
	w->items = p->items;
	w->count = p->count;
	const struct conversation_info *confirm = print_changes(w), *failed = NULL;
	int rc = command_flush_stdout();
	if (rc == EXIT_OK && confirm && w->o->on_confirm == ON_CONFIRM_EXIT)
		say_why(w, confirm, true);
	keep_known(w);
	int end = w->o->until == UNTIL_IDLE ? settled(w, &failed) : -1;
	if (rc != EXIT_OK) {
		finish(w, rc);
	} else if (confirm && w->o->on_confirm == ON_CONFIRM_EXIT) {
		finish(w, EXIT_CONFIRM);
	} else if (end >= 0) {
		if (failed)
			say_why(w, failed, false);
		finish(w, end);
	}
}

/* A poll that failed: said at the first failure of an outage (the directory tries again
 * later and later); 401/403 end at once, --max-retries failures in a row give up. */
static void poll_failed(struct watch_run *w, const struct directory_poll *p)
{
	bool auth = p->refused;
	w->failing = true;
	if (auth || (p->failures == 1 && !w->o->quiet))
		clean_eprintf(w->masks, "watch: %s", p->words);
	if (auth) {
		finish(w, EXIT_AUTH);
	} else if (w->o->max_retries > 0 && p->failures >= w->o->max_retries) {
		struct diag_about about = {.server = w->url, .has_key = w->has_key};
		struct buf line;
		buf_init(&line);
		if (w->reached)
			diag_gave_up(&line, &about, p->failures, p->cause);
		else
			diag_gave_up_connecting(&line, &about, p->failures, p->cause);
		clean_eprintf(w->masks, "watch: %s", buf_cstr(&line));
		buf_fini(&line);
		finish(w, EXIT_GAVE_UP);
	}
}

static void on_poll(void *ctx, const struct directory_poll *p)
{
	struct watch_run *w = ctx;
	if (w->done)
		return;
	if (p->failed) {
		poll_failed(w, p);
	} else {
		w->reached = true;
		poll_complete(w, p);
	}
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
	struct buf url;
	buf_init(&url);
	url_describe(o->server, &url);
	struct watch_run w = {
		.loop = loop, .o = o, .masks = masks, .exit_code = EXIT_RUNTIME, .url = buf_cstr(&url),
		.has_key = api_key != NULL,
	};
	w.dir = directory_create(loop, o, masks, api_key, on_poll, &w);
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	if (loop_watch_signals(loop, sigs, 3, on_signal, &w) != 0 && !o->quiet)
		fprintf(stderr, "tether: signals are not watched; Ctrl-C ends tether watch abruptly\n");
	if (loop_run(loop) != 0)
		finish(&w, EXIT_RUNTIME);
	directory_destroy(w.dir);
	loop_destroy(loop);
	conversation_infos_free(w.known, w.nknown);
	buf_fini(&url);
	return w.exit_code;
}
