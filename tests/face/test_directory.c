/* The conversation directory (face/directory.c) against the real fixture and real sockets:
 * polls see a status change, every page, cleaned strings; a failing server is called back
 * with the failure and backed off; a server handing out pages for ever is a failure; poll
 * now and a new interval; destroy with a request in flight and from inside the callback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "directory.h"
#include "spawn.h"

#define MAIN "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91"
#define AAAA "aaaa0001-1111-4111-8111-111111111111"
#define CCCC "cccc0003-3333-4333-8333-333333333333"

struct poll_seen {
	bool failed;
	bool refused;
	char *words;
	int failures;
	double retry_s;
	int64_t at_us;
	size_t count, pages;
	bool walked_all, has_cccc;
	char *first_id, *aaaa_status, *titles, *last_id;
};

struct run {
	struct loop *loop;
	struct loop_timer *tick;
	struct directory *d;
	struct poll_seen seen[16];
	int polls;
	int stop_after;                 /* quit the loop after this many callbacks */
	bool destroy_in_callback;
	int64_t deadline_us;
};

static void on_poll(void *ctx, const struct directory_poll *p)
{
	struct run *run = ctx;
	assert_true(run->polls < 16);
	struct poll_seen *s = &run->seen[run->polls++];
	s->failed = p->failed;
	s->at_us = clock_now_us();
	if (p->failed) {
		s->refused = p->refused;
		s->words = strdup(p->words);
		s->failures = p->failures;
		s->retry_s = p->retry_s;
		assert_non_null(p->cause);
	} else {
		struct buf titles;
		buf_init(&titles);
		s->count = p->count;
		s->pages = p->pages;
		s->walked_all = p->walked_all;
		s->last_id = p->count && p->items[p->count - 1].id ? strdup(p->items[p->count - 1].id)
								   : NULL;
		s->first_id = p->count && p->items[0].id ? strdup(p->items[0].id) : NULL;
		for (size_t i = 0; i < p->count; i++) {
			if (p->items[i].id && !strcmp(p->items[i].id, AAAA))
				s->aaaa_status = strdup(p->items[i].execution_status);
			if (p->items[i].id && !strcmp(p->items[i].id, CCCC))
				s->has_cccc = true;
			buf_printf(&titles, "%s|", p->items[i].title ? p->items[i].title : "");
		}
		s->titles = buf_steal(&titles);
	}
	if (run->destroy_in_callback) {
		directory_destroy(run->d);
		run->d = NULL;
	}
	if (run->polls >= run->stop_after)
		loop_quit(run->loop);
}

static void tick(void *arg)
{
	struct run *run = arg;
	if (clock_now_us() > run->deadline_us)
		loop_quit(run->loop);
	else
		loop_timer_schedule(run->tick, 50000);
}

static void run_start(struct run *run)
{
	struct buf e;
	buf_init(&e);
	run->loop = loop_create(NULL, &e);
	assert_non_null(run->loop);
	buf_fini(&e);
	run->tick = loop_timer_create(run->loop, tick, run);
}

/* Runs the loop until stop_after callbacks or seconds have passed. */
static void run_loop(struct run *run, double seconds)
{
	run->deadline_us = clock_now_us() + (int64_t)(seconds * 1e6);
	loop_timer_schedule(run->tick, 50000);
	assert_int_equal(loop_run(run->loop), 0);
}

static void run_end(struct run *run)
{
	directory_destroy(run->d);
	loop_timer_destroy(run->tick);
	loop_destroy(run->loop);
	for (int i = 0; i < run->polls; i++) {
		free(run->seen[i].words);
		free(run->seen[i].first_id);
		free(run->seen[i].aaaa_status);
		free(run->seen[i].titles);
		free(run->seen[i].last_id);
	}
}

static char *start_fixture(struct fixture_proc *fp, const char *text)
{
	char *scenario = fixture_scenario_file(text);
	assert_non_null(scenario);
	assert_int_equal(fixture_start(fp, NULL, scenario, NULL), 0);
	unlink(scenario);
	free(scenario);
	char *url = malloc(64);
	snprintf(url, 64, "http://127.0.0.1:%d", fp->port);
	return url;
}

static void stop_fixture(struct fixture_proc *fp, char *url)
{
	fixture_stop(fp);
	fixture_cleanup(fp);
	free(url);
}

/* Two polls: the second sees the status change; the list is in the server's order, with
 * every title sanitized and masked. */
static void test_polls_see_a_change(void **state)
{
	(void)state;
	struct fixture_proc fp;
	char *url = start_fixture(&fp,
		"title \"Main\"\n"
		"list_extra " AAAA " running \"Build\" then=waiting_for_confirmation after=0.5\n"
		"list_extra bbbb0002-2222-4222-8222-222222222222 idle "
		"\"evil \\u001b[31mred dir-secret-7\"\n");
	struct mask_set *masks = mask_set_create();
	struct buf err;
	buf_init(&err);
	assert_int_equal(mask_set_add(masks, "dir-secret-7", 12, &err), 0);
	struct options o = {.server = url, .watch_interval_s = 0.3};
	struct run run = {.stop_after = 8};
	run_start(&run);
	run.d = directory_create(run.loop, &o, masks, NULL, on_poll, &run);
	assert_int_equal(run.polls, 0);     /* never inside create */
	run.stop_after = 1;
	run_loop(&run, 10);
	assert_int_equal(run.polls, 1);
	assert_false(run.seen[0].failed);
	assert_int_equal(run.seen[0].count, 3);
	assert_string_equal(run.seen[0].first_id, MAIN);
	assert_string_equal(run.seen[0].aaaa_status, "running");
	assert_null(strstr(run.seen[0].titles, "dir-secret-7"));
	assert_null(strchr(run.seen[0].titles, '\x1b'));
	assert_non_null(strstr(run.seen[0].titles, "Main|Build|evil"));
	assert_non_null(strstr(run.seen[0].titles, "<secret-hidden>"));
	run.stop_after = 8;
	for (int i = 1; i < 8 && strcmp(run.seen[run.polls - 1].aaaa_status, "running") == 0; i++) {
		run.stop_after = run.polls + 1;
		run_loop(&run, 5);
		assert_int_equal(run.polls, i + 1);
		assert_false(run.seen[i].failed);
		/* polls come at the interval, not faster */
		assert_true(run.seen[i].at_us - run.seen[i - 1].at_us >= 250000);
	}
	assert_string_equal(run.seen[run.polls - 1].aaaa_status, "waiting_for_confirmation");
	run_end(&run);
	mask_set_destroy(masks);
	buf_fini(&err);
	stop_fixture(&fp, url);
}

/* More than 10,000 conversations (was: a failure past 100 pages): the first poll has every
 * one; later polls ask the newest pages only, up to the first unchanged one — one page while
 * nothing changes, two when a conversation on the first changed — and still see a status
 * change and a conversation gone, the rest of the list kept from the poll before. */
static void test_ten_thousand_polled_newest_first(void **state)
{
	(void)state;
	struct fixture_proc fp;
	char *url = start_fixture(&fp,
		"title \"Main\"\n"
		"list_extra " AAAA " running \"Build\" then=waiting_for_confirmation after=1.5\n"
		"list_extra " CCCC " idle \"Old\" gone_after=3\n"
		"list_synth 10200\n");
	struct options o = {.server = url, .watch_interval_s = 0.3};
	struct run run = {.stop_after = 1};
	run_start(&run);
	run.d = directory_create(run.loop, &o, NULL, NULL, on_poll, &run);
	run_loop(&run, 30);
	assert_int_equal(run.polls, 1);
	assert_false(run.seen[0].failed);
	assert_true(run.seen[0].walked_all);
	assert_int_equal(run.seen[0].count, 10203);
	assert_int_equal(run.seen[0].pages, 103);
	assert_string_equal(run.seen[0].last_id, "5e000000-0000-4000-8000-000000010199");
	assert_true(run.seen[0].has_cccc);
	bool changed = false, gone = false;
	for (int i = 1; i < 15 && !(changed && gone); i++) {
		run.stop_after = run.polls + 1;
		run_loop(&run, 10);
		assert_int_equal(run.polls, i + 1);
		const struct poll_seen *s = &run.seen[i], *before = &run.seen[i - 1];
		assert_false(s->failed);
		assert_false(s->walked_all);
		assert_string_equal(s->last_id, "5e000000-0000-4000-8000-000000010199");
		bool now_changed = !strcmp(s->aaaa_status, "waiting_for_confirmation");
		bool now_gone = !s->has_cccc;
		/* the poll that sees a change on the first page asks the second; one page else (a
		 * conversation gone leaves the first page's others as they were) */
		assert_int_equal(s->pages, now_changed != changed ? 2 : 1);
		assert_int_equal(s->count, now_gone ? 10202 : 10203);
		assert_true(now_changed || !strcmp(s->aaaa_status, "running"));
		assert_true(before->count >= s->count);
		changed = now_changed;
		gone = now_gone;
	}
	assert_true(changed);
	assert_true(gone);
	run_end(&run);
	stop_fixture(&fp, url);
}

/* A free port on loopback (nothing listens there once this returns). */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof a;
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	return ntohs(a.sin_port);
}

/* Nobody listens: the failure comes back in words, then again 2 s later (not before), with
 * failures counting up and the next wait doubling. */
static void test_failing_server_backs_off(void **state)
{
	(void)state;
	char url[64];
	snprintf(url, sizeof url, "http://127.0.0.1:%d", free_port());
	struct options o = {.server = url, .watch_interval_s = 0.1};
	struct run run = {.stop_after = 2};
	run_start(&run);
	run.d = directory_create(run.loop, &o, NULL, NULL, on_poll, &run);
	run_loop(&run, 10);
	assert_int_equal(run.polls, 2);
	for (int i = 0; i < 2; i++) {
		assert_true(run.seen[i].failed);
		assert_false(run.seen[i].refused);
		assert_int_equal(run.seen[i].failures, i + 1);
		assert_non_null(strstr(run.seen[i].words, "cannot reach the server at"));
	}
	assert_true(run.seen[0].retry_s == 2 && run.seen[1].retry_s == 4);
	assert_true(run.seen[1].at_us - run.seen[0].at_us >= 1900000);
	run_end(&run);
}

/* A refused key is a failure with its status; a list that never ends is a failure, not a
 * poll that never completes. */
static void test_auth_and_endless_pages_fail(void **state)
{
	(void)state;
	struct fixture_proc fp;
	char *url = start_fixture(&fp, "key dir-test-key\n");
	struct options o = {.server = url, .watch_interval_s = 0.1};
	struct run run = {.stop_after = 1};
	run_start(&run);
	run.d = directory_create(run.loop, &o, NULL, "wrong-key", on_poll, &run);
	run_loop(&run, 10);
	assert_int_equal(run.polls, 1);
	assert_true(run.seen[0].failed);
	assert_true(run.seen[0].refused);
	assert_non_null(strstr(run.seen[0].words, "refused the session API key"));
	run_end(&run);
	stop_fixture(&fp, url);

	url = start_fixture(&fp, "list_next_page again-and-again\n");
	o.server = url;
	run = (struct run){.stop_after = 1};
	run_start(&run);
	run.d = directory_create(run.loop, &o, NULL, NULL, on_poll, &run);
	run_loop(&run, 10);
	assert_int_equal(run.polls, 1);
	assert_true(run.seen[0].failed);
	assert_false(run.seen[0].refused);
	assert_non_null(strstr(run.seen[0].words, "a page id came a second time"));
	run_end(&run);
	stop_fixture(&fp, url);
}

/* With a long interval, poll now and a shorter interval bring the next poll at once. */
static void test_poll_now_and_interval(void **state)
{
	(void)state;
	struct fixture_proc fp;
	char *url = start_fixture(&fp, "title \"Main\"\n");
	struct options o = {.server = url, .watch_interval_s = 60};
	struct run run = {.stop_after = 1};
	run_start(&run);
	run.d = directory_create(run.loop, &o, NULL, NULL, on_poll, &run);
	run_loop(&run, 10);
	assert_int_equal(run.polls, 1);
	run.stop_after = 2;
	run_loop(&run, 1);
	assert_int_equal(run.polls, 1);     /* the interval holds */
	directory_poll_now(run.d);
	assert_int_equal(run.polls, 1);     /* never inside the call */
	run_loop(&run, 10);
	assert_int_equal(run.polls, 2);
	directory_set_interval(run.d, 0.2);
	run.stop_after = 4;
	run_loop(&run, 10);
	assert_int_equal(run.polls, 4);
	assert_false(run.seen[3].failed);
	/* no interval is shorter than 0.1 s: not a busy loop of requests */
	directory_set_interval(run.d, 0);
	run.stop_after = 7;
	run_loop(&run, 10);
	assert_int_equal(run.polls, 7);
	for (int i = 5; i < 7; i++)
		assert_true(run.seen[i].at_us - run.seen[i - 1].at_us >= 90000);
	run_end(&run);
	stop_fixture(&fp, url);
}

/* A server that takes the connection and never answers: the request stays in flight. Destroy
 * then, and the loop's end answers the request: nothing may reach the freed directory (ASan),
 * and no callback comes. */
static void test_destroy_with_request_in_flight(void **state)
{
	(void)state;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof a;
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	assert_int_equal(listen(fd, 4), 0);
	char url[64];
	snprintf(url, sizeof url, "http://127.0.0.1:%d", ntohs(a.sin_port));
	struct options o = {.server = url, .watch_interval_s = 0.1};
	struct run run = {.stop_after = 1};
	run_start(&run);
	run.d = directory_create(run.loop, &o, NULL, "a-key", on_poll, &run);
	run_loop(&run, 0.5);
	assert_int_equal(run.polls, 0);
	directory_destroy(run.d);
	run.d = NULL;
	run_loop(&run, 0.3);
	run_end(&run);                      /* the loop's destroy answers the request */
	assert_int_equal(run.polls, 0);
	close(fd);
}

/* The owner may destroy the directory from inside its callback, on success and on failure. */
static void test_destroy_in_callback(void **state)
{
	(void)state;
	struct fixture_proc fp;
	char *url = start_fixture(&fp, "title \"Main\"\n");
	struct options o = {.server = url, .watch_interval_s = 0.05};
	struct run run = {.stop_after = 5, .destroy_in_callback = true};
	run_start(&run);
	run.d = directory_create(run.loop, &o, NULL, NULL, on_poll, &run);
	run_loop(&run, 2);
	assert_int_equal(run.polls, 1);
	assert_false(run.seen[0].failed);
	run_end(&run);
	stop_fixture(&fp, url);

	char down[64];
	snprintf(down, sizeof down, "http://127.0.0.1:%d", free_port());
	o.server = down;
	run = (struct run){.stop_after = 5, .destroy_in_callback = true};
	run_start(&run);
	run.d = directory_create(run.loop, &o, NULL, NULL, on_poll, &run);
	run_loop(&run, 4);
	assert_int_equal(run.polls, 1);
	assert_true(run.seen[0].failed);
	run_end(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_polls_see_a_change),
		cmocka_unit_test(test_ten_thousand_polled_newest_first),
		cmocka_unit_test(test_failing_server_backs_off),
		cmocka_unit_test(test_auth_and_endless_pages_fail),
		cmocka_unit_test(test_poll_now_and_interval),
		cmocka_unit_test(test_destroy_with_request_in_flight),
		cmocka_unit_test(test_destroy_in_callback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
