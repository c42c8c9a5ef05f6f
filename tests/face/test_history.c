/* History on demand against the real fixture (issue 16): the controller opens on the tail
 * (events/count, then the socket a window before the end), pages of older history are
 * fetched up to the first event while live events arrive and the socket drops and resumes,
 * and at the end every event of the log is loaded once, at its log position (checked item
 * by item against the fixture's durable log), with no gap left and no duplicate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "controller_int.h"
#include "spawn.h"
#include "wsprobe.h"

/* The TUI's run, as tui/conv.c fills it: history opens on the tail and pages. */
static const struct run_policy tui_policy = {
	.until = UNTIL_NEVER, .rest_fallback = true, .page_history = true,
};

#define CONV "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91"

struct run {
	struct fixture_proc fp;
	struct loop *loop;
	struct loop_timer *tick;
	struct controller *c;
	struct transcript *t;
	int pages, failures;
	bool dropped;
	bool paging_done;
	int64_t deadline_us;
	const char *want;               /* quit_when_shown: the text to wait for */
	int out_of_order;               /* errors "history out of order" the sink heard */
	bool down;                      /* tick_to_top: fill gaps from the durable above */
	const struct run_policy *policy; /* set before run_open (NULL: tui_policy) */
	/* what run_open made and run_close frees */
	char *scenario;
	struct buf e, url;
	struct options o;
	struct mask_set *masks;
};

static void count_errors(void *ctx, const char *code, const char *detail)
{
	struct run *run = ctx;
	(void)detail;
	run->out_of_order += strcmp(code, "history out of order") == 0;
}

static const struct sink_ops error_counter = { .error = count_errors };

static void page_done(void *ctx, const struct history_page_result *r)
{
	struct run *run = ctx;
	run->pages++;
	if (r->error)
		run->failures++;
}

/* A live message whose text is text is loaded (how many times). */
static int items_with_text(struct transcript *t, const char *text)
{
	int n = 0;
	struct item_info info;
	for (size_t i = 0; i < transcript_count(t); i++) {
		transcript_item(t, i, &info);
		n += info.text && strstr(info.text, text) != NULL;
	}
	return n;
}

static void tick(void *arg)
{
	struct run *run = arg;
	struct controller_status st;
	controller_status(run->c, &st);
	if (clock_now_us() > run->deadline_us) {
		loop_quit(run->loop);
		return;
	}
	loop_timer_schedule(run->tick, 20000);
	if (st.connection != SESSION_SYNCED || st.syncing || !transcript_count(run->t))
		return;
	if (!history_busy(run->c)) {
		struct history_gap gap;
		if (transcript_gap_near(run->t, 0, 0, 5, &gap)) {
			assert_true(history_fetch_gap(run->c, &gap, page_done, run));
			if (!run->dropped && run->pages >= 1) {
				/* a page in flight: live events, then the socket drops and resumes */
				run->dropped = true;
				assert_int_equal(http_request(run->fp.port, "POST",
							      "/api/conversations/" CONV "/run", NULL,
							      "", NULL, 5000), 200);
			}
			return;
		}
		run->paging_done = true;
	}
	if (run->paging_done && run->dropped && items_with_text(run->t, "after the drop") &&
	    st.connection == SESSION_SYNCED && !st.syncing)
		loop_quit(run->loop);
}

/* seq → event id from the fixture's durable log ("<seq> <id>" lines). */
static char **read_durable(const char *path, size_t *n)
{
	char *text = fixture_read_file(path, NULL);
	assert_non_null(text);
	size_t cap = 16;
	char **ids = calloc(cap, sizeof *ids);
	*n = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		long long seq;
		char id[64];
		assert_int_equal(sscanf(line, "%lld %63s", &seq, id), 2);
		assert_int_equal(seq, (long long)*n);
		if (*n == cap)
			ids = realloc(ids, (cap *= 2) * sizeof *ids);
		ids[(*n)++] = strdup(id);
	}
	free(text);
	return ids;
}


/* Every event of the log loaded once, at its log position, nothing missing anywhere. */
static void check_complete(struct transcript *t, char **ids, size_t nlog, size_t min_items)
{
	struct strmap seen;
	strmap_init(&seen);
	struct item_info info;
	size_t durables = 0;
	for (size_t i = 0; i < transcript_count(t); i++) {
		transcript_item(t, i, &info);
		/* nothing missing above any item: every seq is loaded */
		assert_int_equal(transcript_missing_before(t, i), 0);
		if (info.seq < 0)
			continue;
		durables++;
		assert_true((size_t)info.seq < nlog);
		/* at its log position */
		assert_string_equal(info.id, ids[info.seq]);
		/* once */
		assert_null(strmap_get(&seen, info.id));
		strmap_put(&seen, info.id, (void *)info.id);
		if (i > 0) {
			struct item_info prev;
			transcript_item(t, i - 1, &prev);
			assert_true(prev.seq < info.seq);
		}
	}
	assert_true(durables > min_items);
	strmap_fini(&seen);
}

/* Starts the fixture on scenario_text (with fixture_args) and makes the controller for
 * `tether --server URL [flags…] CONV`; run_go starts it. */
static void run_open(struct run *run, const char *scenario_text,
		     const char *const *fixture_args, const char *const *flags, int nflags)
{
	run->scenario = fixture_scenario_file(scenario_text);
	assert_int_equal(fixture_start(&run->fp, NULL, run->scenario, fixture_args), 0);
	buf_init(&run->e);
	buf_init(&run->url);
	buf_printf(&run->url, "http://127.0.0.1:%d", run->fp.port);
	setenv("XDG_CONFIG_HOME", "/nonexistent-tether-test", 1);
	char *argv[8] = { "tether", "--server", (char *)buf_cstr(&run->url) };
	int argc = 3;
	for (int i = 0; i < nflags; i++)
		argv[argc++] = (char *)flags[i];
	argv[argc++] = CONV;
	assert_int_equal(options_parse(argc, argv, &run->o, &run->e), 0);
	run->loop = loop_create(NULL, &run->e);
	assert_non_null(run->loop);
	run->masks = mask_set_create();
	run->c = controller_create(run->loop, &run->o, run->policy ? run->policy : &tui_policy,
				   run->masks, NULL);
	run->t = controller_transcript(run->c);
}

/* Starts the controller and runs the loop with tick_fn ticking, for up to seconds. */
static void run_go(struct run *run, void (*tick_fn)(void *), int seconds)
{
	run->tick = loop_timer_create(run->loop, tick_fn, run);
	run->deadline_us = clock_now_us() + (int64_t)seconds * 1000000;
	controller_start(run->c);
	loop_timer_schedule(run->tick, 20000);
	loop_run(run->loop);
}

static void run_close(struct run *run)
{
	loop_timer_destroy(run->tick);
	controller_destroy(run->c);
	mask_set_destroy(run->masks);
	loop_destroy(run->loop);
	options_fini(&run->o);
	buf_fini(&run->url);
	buf_fini(&run->e);
	fixture_stop(&run->fp);
	fixture_cleanup(&run->fp);
	unlink(run->scenario);
	free(run->scenario);
}

static void free_ids(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

static void quit_when_idle(void *arg)
{
	struct run *run = arg;
	if (!history_busy(run->c))
		loop_quit(run->loop);
	else
		loop_timer_schedule(run->tick, 10000);
}

static void test_pages_and_reconnect_lose_and_duplicate_nothing(void **state)
{
	(void)state;
	const char *extra[] = { "--search-delay", "0.2", NULL };
	struct run run = { 0 };
	run_open(&run,
		 "history 1000\n"
		 "on_run:\n"
		 "  message agent \"live while paging\"\n"
		 "  drop\n"
		 "  message agent \"after the drop\"\n",
		 extra, NULL, 0);
	run_go(&run, tick, 40);

	assert_true(clock_now_us() <= run.deadline_us);
	assert_true(run.dropped);
	assert_int_equal(run.failures, 0);
	/* 1000 events, a window of 200 at the start: 8 pages of 100 at least */
	assert_true(run.pages >= 8);
	char *traffic = fixture_read_file(run.fp.traffic, NULL);
	assert_non_null(strstr(traffic, "after_seq=799 "));
	assert_non_null(strstr(traffic, "\nconn 2 "));
	free(traffic);

	size_t nlog;
	char **ids = read_durable(run.fp.durable, &nlog);
	assert_int_equal(nlog, 1002);
	check_complete(run.t, ids, nlog, 500);
	assert_int_equal(items_with_text(run.t, "live while paging"), 1);
	assert_int_equal(items_with_text(run.t, "after the drop"), 1);
	/* the first event (the system prompt) is loaded */
	assert_true(transcript_find_id(run.t, ids[0]) >= 0);

	/* Items far from a view at the top dropped, then the view goes down to the tail: the
	 * gaps below it are loaded again, oldest first from the durable above each. */
	assert_true(transcript_trim(run.t, 0, 20, 64 * 1024, 30) > 100);
	assert_true(transcript_gap_near(run.t, 0, 20, 5, &(struct history_gap){ 0 }));
	run.pages = 0;
	for (;;) {
		struct history_gap gap;
		size_t count = transcript_count(run.t), at = 0;
		bool found = false;
		for (; at < count && !found; at += 10)
			found = transcript_gap_near(run.t, at, at, 0, &gap);
		if (!found)
			break;
		loop_timer_destroy(run.tick);
		run.tick = loop_timer_create(run.loop, quit_when_idle, &run);
		assert_true(history_fetch_gap(run.c, &gap, page_done, &run));
		loop_timer_schedule(run.tick, 10000);
		loop_run(run.loop);
		assert_true(run.pages < 100);
	}
	assert_int_equal(run.failures, 0);
	assert_true(run.pages >= 3);
	/* Newer pages were asked: from the anchor (page_id), oldest first, with no time bound
	 * (an event dated out of log order must not be left out). */
	char *after = fixture_read_file(run.fp.traffic, NULL);
	bool newer = false;
	for (char *line = strtok(after, "\n"); line; line = strtok(NULL, "\n")) {
		if (strstr(line, "/events/search?page_id=") && !strstr(line, "TIMESTAMP_DESC")) {
			newer = true;
			assert_null(strstr(line, "timestamp__"));
		}
	}
	assert_true(newer);
	free(after);
	check_complete(run.t, ids, nlog, 500);

	free_ids(ids, nlog);
	run_close(&run);
}

static void quit_when_synced(void *arg)
{
	struct run *run = arg;
	struct controller_status st;
	controller_status(run->c, &st);
	if ((st.connection == SESSION_SYNCED && !st.syncing) || clock_now_us() > run->deadline_us)
		loop_quit(run->loop);
	else
		loop_timer_schedule(run->tick, 20000);
}

/* The first cursor: history_window events before the end; an explicit --after-seq (or
 * --no-history) is where the socket starts, without asking the count. */
static void open_at(const char *const *flags, int nflags, const char *want_conn, bool counted)
{
	const char *extra[] = { NULL };
	struct run run = { 0 };
	run_open(&run, "history 1000\n", extra, flags, nflags);
	run_go(&run, quit_when_synced, 20);
	char *traffic = fixture_read_file(run.fp.traffic, NULL);
	assert_non_null(traffic);
	if (!strstr(traffic, want_conn))
		fail_msg("no \"%s\" in the traffic:\n%s", want_conn, traffic);
	assert_int_equal(strstr(traffic, "events/count") != NULL, counted);
	free(traffic);
	run_close(&run);
}

static void test_first_cursor(void **state)
{
	(void)state;
	open_at(NULL, 0, "conn 1 after_seq=799 ", true);
	const char *window[] = { "--history-window", "50" };
	open_at(window, 2, "conn 1 after_seq=949 ", true);
	const char *all[] = { "--history-window", "0" };
	open_at(all, 2, "conn 1 after_seq=-1 ", false);
	const char *bigger[] = { "--history-window", "5000" };
	open_at(bigger, 2, "conn 1 after_seq=-1 ", true);
	const char *given[] = { "--after-seq", "990" };
	open_at(given, 2, "conn 1 after_seq=990 ", false);
	const char *whole[] = { "--after-seq", "-1" };
	open_at(whole, 2, "conn 1 after_seq=-1 ", false);
	const char *live[] = { "--no-history" };
	open_at(live, 1, "conn 1 after_seq=none ", false);
}

struct found {
	bool done, found;
	uint64_t uid;
	const char *error;
};

static void found_done(void *ctx, const struct history_page_result *r)
{
	struct found *f = ctx;
	f->done = true;
	f->found = r->found;
	f->uid = r->found_uid;
	f->error = r->error;
}

static void quit_when_found(void *arg)
{
	struct run *run = arg;
	if (!history_busy(run->c) || clock_now_us() > run->deadline_us)
		loop_quit(run->loop);
	else
		loop_timer_schedule(run->tick, 10000);
}

/* Lines of the fixture's traffic log that start with prefix. */
static size_t traffic_lines(struct run *run, const char *prefix)
{
	char *traffic = fixture_read_file(run->fp.traffic, NULL);
	assert_non_null(traffic);
	size_t n = 0, len = strlen(prefix);
	for (const char *line = traffic; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, prefix, len))
			n++;
	}
	free(traffic);
	return n;
}

/* Pages the rest of the opening's window, one after another, until history_fetch_window
 * says there is no more; returns how many it asked. */
static int fetch_window(struct run *run)
{
	int asked = 0;
	run->pages = run->failures = 0;
	while (history_fetch_window(run->c, page_done, run)) {
		assert_false(history_fetch_window(run->c, page_done, run)); /* one in flight */
		asked++;
		loop_timer_destroy(run->tick);
		run->tick = loop_timer_create(run->loop, quit_when_idle, run);
		loop_timer_schedule(run->tick, 10000);
		loop_run(run->loop);
		assert_int_equal(run->pages, asked);
		assert_true(asked < 10);
	}
	return asked;
}

/* The oldest loaded durable's seq and the seqs missing above it; every item below it has
 * nothing missing above (the window is whole). */
static int64_t window_top(struct run *run, int64_t *missing_above)
{
	struct item_info info;
	int64_t top = -1;
	for (size_t i = 0; i < transcript_count(run->t); i++) {
		transcript_item(run->t, i, &info);
		if (top < 0 && info.seq >= 0) {
			top = info.seq;
			*missing_above = transcript_missing_before(run->t, i);
		} else if (top >= 0) {
			assert_int_equal(transcript_missing_before(run->t, i), 0);
		}
	}
	return top;
}

/* Opens scenario under policy: the socket's first connection is want_conn, and the window
 * has nothing left to page. */
static void open_with_nothing_to_page(const struct run_policy *policy, const char *scenario,
				      const char *want_conn)
{
	const char *extra[] = { NULL };
	struct run run = { .policy = policy };
	run_open(&run, scenario, extra, NULL, 0);
	run_go(&run, quit_when_synced, 20);
	assert_int_equal(traffic_lines(&run, want_conn), 1);
	assert_int_equal(fetch_window(&run), 0);
	run_close(&run);
}

/* A tail-first open (the TUI's open_tail: a screen's rows): the socket replays that tail, then
 * the rest of the window comes in pages sized to end at the window's first event, exactly
 * as if the socket had replayed the whole window; a tail the window holds already, or a
 * conversation shorter than the tail, opens as before with nothing to page. */
static void test_tail_first_open_pages_the_window(void **state)
{
	(void)state;
	const char *extra[] = { NULL };
	struct run_policy tail = tui_policy;
	tail.open_tail = 30;
	struct run run = { .policy = &tail };
	run_open(&run, "history 1000\n", extra, NULL, 0);
	run_go(&run, quit_when_synced, 20);
	assert_int_equal(traffic_lines(&run, "conn 1 after_seq=969 "), 1);
	int64_t missing = 0, top = window_top(&run, &missing);
	assert_true(top >= 970 && top <= 972); /* 970: a result, an item of its own or not */
	int64_t opened = top;
	/* The rest of the window: 170 events not replayed, a page of 100, then one that ends at
	 * the window's first event (each asked with its anchor, which comes back too). */
	assert_int_equal(fetch_window(&run), 2);
	assert_int_equal(run.failures, 0);
	assert_int_equal(traffic_lines(&run, "rest GET /api/conversations/" CONV "/events/search"), 2);
	char *traffic = fixture_read_file(run.fp.traffic, NULL);
	assert_non_null(strstr(traffic, "&limit=100&"));
	free(traffic);
	size_t nlog;
	char **ids = read_durable(run.fp.durable, &nlog);
	assert_int_equal(nlog, 1000);
	/* Loaded from seq 800 on, nothing missing below (window_top), nothing above it. */
	top = window_top(&run, &missing);
	assert_true(top >= 800 && top <= 801);
	assert_int_equal(missing, 800);
	assert_true(transcript_find_id(run.t, ids[nlog - 1]) >= 0);
	assert_true(transcript_find_id(run.t, ids[799]) < 0);
	free_ids(ids, nlog);
	assert_false(history_fetch_window(run.c, page_done, &run));
	run_close(&run);

	/* The window paged while a page fails: it stops there, asks nothing again by itself
	 * (the gap is the view's to page when the reader scrolls to it). */
	const char *failing[] = { "--search-fail", "1", NULL };
	struct run broken = { .policy = &tail };
	run_open(&broken, "history 1000\n", failing, NULL, 0);
	run_go(&broken, quit_when_synced, 20);
	assert_int_equal(fetch_window(&broken), 1);
	assert_int_equal(broken.failures, 1);
	assert_int_equal(window_top(&broken, &missing), opened);
	assert_int_equal(traffic_lines(&broken, "rest GET /api/conversations/" CONV "/events/search"),
			 1);
	run_close(&broken);

	/* A tail as long as the window, and a conversation shorter than the tail: as before. */
	tail.open_tail = 200;
	open_with_nothing_to_page(&tail, "history 1000\n", "conn 1 after_seq=799 ");
	tail.open_tail = 30;
	open_with_nothing_to_page(&tail, "history 20\n", "conn 1 after_seq=-1 ");
}

/* Asks the server for needle (older than ts, or newer than the match skip_id at ts) and
 * returns the item found (-1: none). */
static long search(struct run *run, const char *needle, const char *ts, const char *skip_id)
{
	struct found f = { 0 };
	assert_true(history_search(run->c, needle, ts, skip_id, found_done, &f));
	assert_false(history_search(run->c, needle, ts, skip_id, found_done, &f));
	loop_timer_destroy(run->tick);
	run->tick = loop_timer_create(run->loop, quit_when_found, run);
	loop_timer_schedule(run->tick, 10000);
	loop_run(run->loop);
	assert_true(f.done);
	assert_null(f.error);
	return f.found ? transcript_index_of(run->t, f.uid) : -1;
}

/* Search over history never loaded: the newest match older than what is loaded, then older
 * than it, then the next newer than the older one; each is placed at its log seq. */
static void test_search_places_matches_never_loaded(void **state)
{
	(void)state;
	struct run run = { 0 };
	const char *extra[] = { NULL };
	run_open(&run,
		 "history 3000\nmessage user \"zebra one\"\n"
		 "history 3000\nmessage user \"zebra two\"\n"
		 "history 3000\n",
		 extra, NULL, 0);
	controller_add_sink(run.c, (struct sink){ .ops = &error_counter, .ctx = &run });
	run_go(&run, quit_when_synced, 30);
	assert_int_equal(items_with_text(run.t, "zebra"), 0);
	size_t nlog;
	char **ids = read_durable(run.fp.durable, &nlog);
	assert_int_equal(nlog, 9002);

	struct item_info two, one, again;
	/* older than everything loaded: the newest match */
	size_t rests = traffic_lines(&run, "rest "), conns = traffic_lines(&run, "tcp ");
	long i1 = search(&run, "ZEBRA ONE", NULL, NULL);
	assert_true(i1 >= 0);
	transcript_item(run.t, (size_t)i1, &one);
	assert_string_equal(one.text, "zebra one");
	assert_int_equal(one.seq, 3000);
	assert_string_equal(one.id, ids[3000]);
	/* The search, the count that places the match and the page after it, one connection:
	 * the events right after the match are loaded, its neighbourhood above is not. */
	assert_int_equal(traffic_lines(&run, "rest ") - rests, 3);
	assert_int_equal(traffic_lines(&run, "tcp ") - conns, 1);
	assert_int_equal(transcript_missing_before(run.t, (size_t)i1 + 1), 0);
	transcript_item(run.t, (size_t)i1 + 1, &again);
	assert_true(again.seq > 3000 && again.seq < 3100);
	/* newer than it, never loaded either: placed at its seq */
	long i2 = search(&run, "zebra", one.timestamp, one.id);
	assert_true(i2 >= 0);
	transcript_item(run.t, (size_t)i2, &two);
	assert_string_equal(two.text, "zebra two");
	assert_int_equal(two.seq, 6001);
	assert_string_equal(two.id, ids[6001]);
	assert_int_equal(search(&run, "zebra", two.timestamp, two.id), -1);
	/* older than "zebra two": "zebra one", loaded already: the same item */
	long o1 = search(&run, "zebra", two.timestamp, NULL);
	assert_true(o1 >= 0);
	transcript_item(run.t, (size_t)o1, &again);
	assert_int_equal(again.uid, one.uid);
	transcript_item(run.t, (size_t)o1, &one);
	assert_int_equal(search(&run, "zebra", one.timestamp, NULL), -1);
	/* each once, history around them still missing (islands) */
	assert_int_equal(items_with_text(run.t, "zebra"), 2);
	assert_int_equal(transcript_missing_before(run.t, (size_t)transcript_find_id(run.t, ids[3000])),
			 3000);

	free_ids(ids, nlog);
	run_close(&run);
}

/* ------------------------------------------------ servers that bend the truth (issue 23) */

static void quit_when_shown(void *arg)
{
	struct run *run = arg;
	if (items_with_text(run->t, run->want) || clock_now_us() > run->deadline_us)
		loop_quit(run->loop);
	else
		loop_timer_schedule(run->tick, 20000);
}

static void tick_to_top(void *arg)
{
	struct run *run = arg;
	struct controller_status st;
	controller_status(run->c, &st);
	if (clock_now_us() > run->deadline_us) {
		loop_quit(run->loop);
		return;
	}
	loop_timer_schedule(run->tick, 20000);
	if (st.connection != SESSION_SYNCED || st.syncing || !transcript_count(run->t))
		return;
	if (history_busy(run->c))
		return;
	/* Every gap, top to bottom, until none is left or a page brings nothing. */
	for (size_t i = 0; i < transcript_count(run->t); i++) {
		struct history_gap gap;
		if (transcript_missing_before(run->t, i) <= 0)
			continue;
		/* down: the gap right below item i-1, filled newer-first from it */
		if (run->down && i > 0 ? !transcript_gap_near(run->t, i - 1, i - 1, 1, &gap) ||
					 gap.before
				       : !transcript_gap_near(run->t, i, i, 0, &gap))
			continue;
		if (run->pages > 200 || !history_fetch_gap(run->c, &gap, page_done, run))
			loop_quit(run->loop);
		return;
	}
	run->paging_done = true;
	loop_quit(run->loop);
}

/* Opens on the tail of scenario against a fixture started with fixture_args, pages to the
 * top and checks the whole log is loaded once, in place. With live_text, /run first and
 * that message must arrive (a live event after a count that lied). */
static int page_all(const char *scenario_text, const char *const *fixture_args,
		    const char *live_text, bool down)
{
	struct run run = { .down = down };
	run_open(&run, scenario_text, fixture_args, NULL, 0);
	controller_add_sink(run.c, (struct sink){ .ops = &error_counter, .ctx = &run });
	run_go(&run, quit_when_synced, 30);
	if (live_text) {
		assert_int_equal(http_request(run.fp.port, "POST", "/api/conversations/" CONV "/run",
					      NULL, "", NULL, 5000), 200);
		run.want = live_text;
		loop_timer_destroy(run.tick);
		run.tick = loop_timer_create(run.loop, quit_when_shown, &run);
		loop_timer_schedule(run.tick, 20000);
		loop_run(run.loop);
		if (!items_with_text(run.t, live_text))
			fail_msg("the live event after the sync never reached the transcript");
	}
	loop_timer_destroy(run.tick);
	run.tick = loop_timer_create(run.loop, tick_to_top, &run);
	loop_timer_schedule(run.tick, 20000);
	loop_run(run.loop);
	assert_true(run.paging_done);
	assert_int_equal(run.failures, 0);
	size_t nlog;
	char **ids = read_durable(run.fp.durable, &nlog);
	check_complete(run.t, ids, nlog, nlog * 4 / 10);
	if (run.down) {
		/* Items far from a view at the top dropped; the gap below it filled downwards. */
		assert_true(transcript_trim(run.t, 0, 20, 64 * 1024, 30) > 100);
		run.paging_done = false;
		loop_timer_schedule(run.tick, 20000);
		loop_run(run.loop);
		assert_true(run.paging_done);
		check_complete(run.t, ids, nlog, nlog * 4 / 10);
	}
	free_ids(ids, nlog);
	run_close(&run);
	return run.out_of_order;
}

/* An honest server whose events share timestamps in runs of 20: pages asked strictly before
 * the anchor's time skipped its equal neighbours (16 of 600 were lost in the middle). */
static void test_equal_timestamps_lose_nothing(void **state)
{
	(void)state;
	const char *args[] = { "--equal-timestamps", "20", NULL };
	assert_int_equal(page_all("history 800\n", args, NULL, false), 0);
}

/* upstream appends an LLM completion log once the step that made it lets go of the state:
 * after events dated later than it. A newer page asked from its time on (timestamp__gte)
 * left it out, and its seq stayed a gap no page filled ("not available from the server");
 * a newer page is asked from the anchor alone. */
static void test_event_dated_out_of_order_is_paged(void **state)
{
	(void)state;
	const char *args[] = { NULL };
	assert_int_equal(page_all("history 400\n"
				  "event {\"id\":\"6c1f5d2e-8a4b-4c3d-9e2f-1a2b3c4d5e6f\","
				  "\"timestamp\":\"2000-01-01T00:00:00.000001\","
				  "\"source\":\"environment\",\"filename\":\"default/1.json\","
				  "\"log_data\":\"{}\",\"model_name\":\"m\",\"usage_id\":"
				  "\"default\",\"kind\":\"LLMCompletionLogEvent\"}\n"
				  "history 400\n", args, NULL, true), 0);
}

/* A server that lists every page in the opposite order to the one asked. */
static void test_reversed_pages_are_turned_round(void **state)
{
	(void)state;
	const char *args[] = { "--reversed-pages", NULL };
	assert_int_equal(page_all("history 800\n", args, NULL, false), 0);
	const char *both[] = { "--reversed-pages", "--equal-timestamps", "7", NULL };
	assert_int_equal(page_all("history 800\n", both, NULL, false), 0);
}

/* Every page holds an event dated where it cannot be: each is refused, never placed, and the
 * refusal is said once for the conversation, not once a page. */
static void test_stray_events_refused_and_said_once(void **state)
{
	(void)state;
	const char *args[] = { "--stray-events", NULL };
	assert_int_equal(page_all("history 800\n", args, NULL, false), 1);
}

/* events/count larger than the log (2^53-1, and a million): the socket resumes past the end,
 * and sync's through_seq below the cursor says so; it resumes from the real end, so live
 * events are not dropped, and the history above them is paged in. */
static void test_lying_count_resumes_from_the_end(void **state)
{
	(void)state;
	const char *scenario = "history 800\n"
			       "on_run:\n"
			       "  message agent \"live after a lying count\"\n";
	const char *huge[] = { "--count-answer", "9007199254740991", NULL };
	page_all(scenario, huge, "live after a lying count", false);
	const char *large[] = { "--count-answer", "1000000", NULL };
	page_all(scenario, large, "live after a lying count", false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages_and_reconnect_lose_and_duplicate_nothing),
		cmocka_unit_test(test_first_cursor),
		cmocka_unit_test(test_tail_first_open_pages_the_window),
		cmocka_unit_test(test_search_places_matches_never_loaded),
		cmocka_unit_test(test_equal_timestamps_lose_nothing),
		cmocka_unit_test(test_reversed_pages_are_turned_round),
		cmocka_unit_test(test_stray_events_refused_and_said_once),
		cmocka_unit_test(test_event_dated_out_of_order_is_paged),
		cmocka_unit_test(test_lying_count_resumes_from_the_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
