#include "list.h"
#include "conv_page.h"
#include "commands.h"
#include "clean.h"
#include "diagnose.h"
#include "app.h"
#include "keyring.h"
#include "reltime.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Pages of 100 tether list (and the picker) walk at most, as the directory does. */
enum { LIST_MAX_PAGES = 10000 };

struct list_run {
	struct loop *loop;
	const struct options *o;
	const char *api_key;
	const struct mask_set *masks;
	int exit_code;
	int pages;
	bool done;
	char **page_ids;                /* every next_page_id followed so far */
	/* collect instead of print (the picker) */
	bool collect;
	struct conversation_info *items;
	size_t count;
	/* the table's header and --log: the server's version (/server_info), asked first */
	bool want_version;
	struct server_version version;
	loop_log_fn log;
};

static void fetch_page(struct list_run *r, const char *page_id);

static int exit_for(enum rest_outcome outcome)
{
	if (outcome == REST_AUTH)
		return EXIT_AUTH;
	if (outcome == REST_NOT_FOUND)
		return EXIT_NOT_FOUND;
	return EXIT_RUNTIME;
}

/* One field on one line: tabs and newlines inside it become spaces. */
static void put_flat(struct buf *line, const char *f)
{
	size_t start = line->len;
	buf_puts(line, f ? f : "-");
	for (size_t k = start; k < line->len; k++)
		if (line->data[k] == '\n' || line->data[k] == '\t')
			line->data[k] = ' ';
}

static void put_object(struct buf *line, const struct conversation_info *c)
{
	const char *fields[4] = {c->id, c->title, c->execution_status, c->updated_at};
	static const char *const names[4] = {"id", "title", "status", "updated_at"};
	buf_putc(line, '{');
	for (int i = 0; i < 4; i++) {
		buf_printf(line, "%s\"%s\":", i ? "," : "", names[i]);
		if (fields[i])
			json_append_string(line, fields[i], strlen(fields[i]));
		else
			buf_puts(line, "null");
	}
	buf_putc(line, '}');
}

/* ndjson: one object per line; text: id, title, status, updated_at separated by tabs. */
static void print_item(const struct options *o, const struct conversation_info *c)
{
	struct buf line;
	buf_init(&line);
	if (o->format == FORMAT_NDJSON) {
		put_object(&line, c);
	} else {
		const char *fields[4] = {c->id, c->title, c->execution_status, c->updated_at};
		for (int i = 0; i < 4; i++) {
			if (i)
				buf_putc(&line, '\t');
			put_flat(&line, fields[i]);
		}
	}
	puts(buf_cstr(&line));
	buf_fini(&line);
}

/* --format json: one array of the ndjson objects, an element per line. */
static void print_array(const struct conversation_info *items, size_t n)
{
	struct buf out;
	buf_init(&out);
	buf_putc(&out, '[');
	for (size_t i = 0; i < n; i++) {
		buf_puts(&out, i ? ",\n" : "\n");
		put_object(&out, &items[i]);
	}
	buf_puts(&out, n ? "\n]" : "]");
	puts(buf_cstr(&out));
	buf_fini(&out);
}

/* In a terminal: the server and its version, a header row, aligned columns, and updated
 * times relative to now. */
static void print_table(const struct list_run *r, const struct conversation_info *items, size_t n)
{
	struct buf url, line, scratch;
	buf_init(&url);
	buf_init(&line);
	buf_init(&scratch);
	url_describe(r->o->server, &url);
	buf_printf(&url, ", version %s", r->version.text[0] ? r->version.text : "unknown");
	clean_text(r->masks, url.data, url.len, &scratch, &line);
	printf("%s\n", buf_cstr(&line));
	buf_fini(&scratch);
	buf_fini(&line);
	buf_fini(&url);
	struct buf *cells = xcalloc(n * 4 + 4, sizeof *cells);
	static const char *const head[4] = {"ID", "STATUS", "UPDATED", "TITLE"};
	size_t width[4] = {0};
	time_t now = time(NULL);
	for (size_t row = 0; row <= n; row++) {
		struct buf *cell = cells + row * 4;
		for (int k = 0; k < 4; k++)
			buf_init(&cell[k]);
		if (row == 0) {
			for (int k = 0; k < 4; k++)
				buf_puts(&cell[k], head[k]);
		} else {
			const struct conversation_info *c = &items[row - 1];
			put_flat(&cell[0], c->id);
			put_flat(&cell[1], c->execution_status);
			if (!c->updated_at || reltime_format(c->updated_at, now, &cell[2]) != 0)
				put_flat(&cell[2], c->updated_at);
			put_flat(&cell[3], c->title);
		}
		for (int k = 0; k < 4; k++)
			if (cell[k].len > width[k])
				width[k] = cell[k].len;
	}
	for (size_t row = 0; row <= n; row++) {
		struct buf *cell = cells + row * 4;
		printf("%-*s  %-*s  %-*s  %s\n", (int)width[0], buf_cstr(&cell[0]), (int)width[1],
		       buf_cstr(&cell[1]), (int)width[2], buf_cstr(&cell[2]), buf_cstr(&cell[3]));
		for (int k = 0; k < 4; k++)
			buf_fini(&cell[k]);
	}
	free(cells);
}

static void finish(struct list_run *r, int code)
{
	r->exit_code = code;
	r->done = true;
	loop_quit(r->loop);
}

static bool seen_page(const struct list_run *r, const char *id)
{
	for (int i = 0; i < r->pages; i++)
		if (!strcmp(r->page_ids[i], id))
			return true;
	return false;
}

static void page_done(void *ctx, struct rest_result *res)
{
	struct list_run *r = ctx;
	const struct rest_response *resp = res->raw;
	if (res->outcome != REST_OK && res->outcome != REST_BAD_BODY) {
		struct diag_about about = {.server = r->o->server, .has_key = r->api_key != NULL};
		struct buf line;
		buf_init(&line);
		diag_rest_failure(&line, &about, resp, resp->error);
		clean_eprintf(r->masks, "%s", buf_cstr(&line));
		buf_fini(&line);
		finish(r, exit_for(res->outcome));
		return;
	}
	char *next = NULL;
	if (res->outcome == REST_BAD_BODY) {
		fprintf(stderr, "tether: list: unexpected answer from the server: %s\n",
			res->err.message);
		finish(r, EXIT_RUNTIME);
		return;
	}
	conversation_page_append(&res->conversations, r->masks, &r->items, &r->count, &next);
	if (!r->collect) {
		/* Printed page by page: a long list shows as it comes. */
		errno = 0;
		for (size_t i = 0; i < r->count; i++)
			print_item(r->o, &r->items[i]);
		conversation_infos_free(r->items, r->count);
		r->items = NULL;
		r->count = 0;
		/* A reader that went away ends it quietly (as SIGPIPE would). */
		int rc = command_flush_stdout();
		if (rc != EXIT_OK) {
			finish(r, rc);
			free(next);
			return;
		}
	}
	/* A server that keeps handing out pages must not keep us forever, nor round a loop. */
	if (next && seen_page(r, next)) {
		struct buf shown;
		buf_init(&shown);
		json_append_string(&shown, next, strlen(next));
		fprintf(stderr, "tether: list: the server gave page id %.80s a second time; "
				"stopped after %d pages (the list may be incomplete)\n",
			buf_cstr(&shown), r->pages + 1);
		buf_fini(&shown);
		finish(r, EXIT_RUNTIME);
	} else if (next && r->pages + 1 < LIST_MAX_PAGES) {
		r->page_ids = xrealloc(r->page_ids, (size_t)(r->pages + 1) * sizeof *r->page_ids);
		r->page_ids[r->pages++] = xstrdup(next);
		fetch_page(r, next);
	} else {
		if (next)
			fprintf(stderr, "tether: list: stopped after %d pages (%d conversations, "
					"tether's limit): the list is incomplete\n", LIST_MAX_PAGES,
				LIST_MAX_PAGES * 100);
		finish(r, EXIT_OK);
	}
	free(next);
}

static void fetch_page(struct list_run *r, const char *page_id)
{
	struct rest_server srv = {
		.loop = r->loop, .url = r->o->server, .api_key = r->api_key, .insecure = r->o->insecure,
	};
	struct rest_args a = {.page_id = page_id, .limit = 100};
	if (rest_call(&srv, REST_SEARCH_CONVERSATIONS, &a, page_done, r) != 0) {
		fprintf(stderr, "tether: list: cannot start the request\n");
		finish(r, EXIT_RUNTIME);
	}
}

/* The version (or none: an answer without it, a server without the route) goes to --log,
 * then the pages are asked. */
static void version_done(void *ctx, struct rest_result *res)
{
	struct list_run *r = ctx;
	if (res->outcome == REST_OK)
		r->version = res->version;
	if (r->log) {
		char line[96];
		snprintf(line, sizeof line, "server version: %s",
			 r->version.text[0] ? r->version.text : "unknown (no /server_info answer)");
		r->log(0, line);
	}
	fetch_page(r, NULL);
}

static int list_fetch_all(const struct options *o, loop_log_fn log, const char *api_key,
			  const struct mask_set *masks, struct list_run *out)
{
	out->masks = masks;
	int exit_code;
	struct loop *loop = command_loop(o, log, masks, &exit_code);
	if (!loop)
		return exit_code;
	out->loop = loop;
	out->o = o;
	out->api_key = api_key;
	out->exit_code = EXIT_RUNTIME;
	out->log = o->log_path ? log : NULL;
	struct rest_server srv = { .loop = loop, .url = o->server, .insecure = o->insecure };
	if (!(out->want_version || out->log) ||
	    rest_call(&srv, REST_SERVER_INFO, NULL, version_done, out) != 0)
		fetch_page(out, NULL);
	if (!out->done)
		loop_run(loop);
	loop_destroy(loop);
	for (int i = 0; i < out->pages; i++)
		free(out->page_ids[i]);
	free(out->page_ids);
	return out->exit_code;
}

int list_run(const struct options *o, loop_log_fn log, const char *api_key,
	     const struct mask_set *masks)
{
	/* The table and the array need every page first; plain text and ndjson stream. */
	bool table = o->format == FORMAT_TEXT && isatty(STDOUT_FILENO);
	struct list_run r = {.collect = table || o->format == FORMAT_JSON, .want_version = table};
	/* A closed stdout is seen as EPIPE on the write. */
	signal(SIGPIPE, SIG_IGN);
	int rc = list_fetch_all(o, log, api_key, masks, &r);
	if (rc == EXIT_OK && r.collect) {
		if (table)
			print_table(&r, r.items, r.count);
		else
			print_array(r.items, r.count);
		rc = command_flush_stdout();
	}
	conversation_infos_free(r.items, r.count);
	return rc;
}

int list_fetch(const struct options *o, loop_log_fn log, const char *api_key,
	       const struct mask_set *masks, struct conversation_info **items, size_t *count)
{
	struct list_run r = {.collect = true};
	int rc = list_fetch_all(o, log, api_key, masks, &r);
	if (rc != EXIT_OK) {
		conversation_infos_free(r.items, r.count);
		r.items = NULL;
		r.count = 0;
	}
	*items = r.items;
	*count = r.count;
	return rc;
}
