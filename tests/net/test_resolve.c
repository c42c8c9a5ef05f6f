/* Hostname lookups off the loop (net/resolve.c): a lookup never completes inside the call
 * that starts it, the loop's timers keep firing while it runs, a failed lookup ends the
 * attempt through the session status like a network error, numeric hosts and recent
 * lookups need no lookup, and abandoned lookups are freed without calling back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "net_int.h"

/* Under .example (RFC 2606): never in /etc/hosts, so it needs a DNS query, which fails
 * (no network, or NXDOMAIN) or times out. */
#define UNKNOWN_HOST "tether-test.example"
#define TICK_US 10000

struct watch {
	struct loop *loop;
	struct loop_timer *tick;
	int ticks;
	int64_t last_tick_us, max_gap_us;
	int connecting, closed, gave_up, other;    /* gave_up: stopped for good, either way */
	char reason[200];
};

static void on_tick(void *arg)
{
	struct watch *w = arg;
	int64_t now = clock_now_us();

	if (w->last_tick_us && now - w->last_tick_us > w->max_gap_us)
		w->max_gap_us = now - w->last_tick_us;
	w->last_tick_us = now;
	w->ticks++;
	loop_timer_schedule(w->tick, TICK_US);
}

static void on_status(void *ctx, const struct session_status *st)
{
	struct watch *w = ctx;

	switch (st->state) {
	case SESSION_CONNECTING:
		w->connecting++;
		break;
	case SESSION_CLOSED:
		w->closed++;
		snprintf(w->reason, sizeof(w->reason), "%s", st->reason ? st->reason : "");
		break;
	case SESSION_GAVE_UP:
	case SESSION_FAILED:    /* a name that does not exist is not retried */
		w->gave_up++;
		loop_quit(w->loop);
		break;
	default:
		w->other++;
		break;
	}
}

static struct loop *new_loop(void)
{
	struct loop *loop = loop_create(NULL, NULL);

	assert_non_null(loop);
	alarm(30);
	return loop;
}

static struct session *unknown_host_session(struct watch *w, int max_retries)
{
	struct session_config cfg = { 0 };
	struct session_handlers h = { 0 };

	cfg.server_url = "http://" UNKNOWN_HOST ":9";
	cfg.conversation_id = "c";
	cfg.max_retries = max_retries;
	cfg.stall_timeout_s = 30;
	h.on_status = on_status;
	h.ctx = w;
	return session_create(w->loop, &cfg, &h);
}

/* lws alone would look the name up with a blocking getaddrinfo inside the connect call and
 * report the failure before session_start returned. */
static void test_lookup_does_not_complete_inside_start(void **state)
{
	struct watch w = { 0 };
	struct session *s;

	(void)state;
	resolve_cache_clear();
	w.loop = new_loop();
	s = unknown_host_session(&w, 1);
	session_start(s);
	assert_int_equal(w.connecting, 1);
	assert_int_equal(w.closed, 0);
	assert_int_equal(w.gave_up, 0);
	session_destroy(s);
	loop_destroy(w.loop);
	assert_int_equal(w.closed, 0);  /* an abandoned lookup never reports */
}

/* A 10 ms timer keeps its cadence while the lookup runs (however long the DNS takes, up to
 * the lookup timeout), and the failed lookup ends the attempt through the session status
 * with a readable reason; max_retries 1 then gives up. */
static void test_loop_runs_during_lookup_and_failure_is_reported(void **state)
{
	struct watch w = { 0 };
	struct session *s;

	(void)state;
	resolve_cache_clear();
	resolve_set_timeout_us(3000000);
	w.loop = new_loop();
	w.tick = loop_timer_create(w.loop, on_tick, &w);
	s = unknown_host_session(&w, 1);
	loop_timer_schedule(w.tick, TICK_US);
	session_start(s);
	assert_int_equal(loop_run(w.loop), 0);
	assert_int_equal(w.closed, 1);
	assert_int_equal(w.gave_up, 1);
	assert_non_null(strstr(w.reason, "DNS lookup of " UNKNOWN_HOST));
	/* A blocked loop would show one gap as long as the lookup (seconds when DNS is slow).
	 * The bound is generous for a shared machine; the cadence itself is 10 ms. */
	assert_true(w.max_gap_us < 1000000);
	session_destroy(s);
	loop_timer_destroy(w.tick);
	loop_destroy(w.loop);
	resolve_set_timeout_us(10000000);
}

/* With no time left, a lookup that is still running is given up as timed out; one that
 * already failed reports its own error. Either way: one readable failure. */
static void test_timeout_reports_once(void **state)
{
	struct watch w = { 0 };
	struct session *s;

	(void)state;
	resolve_cache_clear();
	resolve_set_timeout_us(0);
	w.loop = new_loop();
	s = unknown_host_session(&w, 1);
	session_start(s);
	assert_int_equal(loop_run(w.loop), 0);
	assert_int_equal(w.closed, 1);
	assert_int_equal(w.gave_up, 1);
	assert_non_null(strstr(w.reason, "DNS lookup of " UNKNOWN_HOST));
	session_destroy(s);
	loop_destroy(w.loop);
	resolve_set_timeout_us(10000000);
}

struct lookup_result {
	struct loop *loop;
	int calls;
	char address[64];
	char error[200];
};

static void on_resolved(void *ctx, const char *address, const char *error, bool final)
{
	struct lookup_result *res = ctx;

	(void)final;
	res->calls++;
	snprintf(res->address, sizeof(res->address), "%s", address ? address : "");
	snprintf(res->error, sizeof(res->error), "%s", error ? error : "");
	loop_quit(res->loop);
}

static void test_numeric_hosts_need_no_lookup(void **state)
{
	const char *hosts[] = { "127.0.0.1", "::1", "10.1.2.3", "fe80::1" };
	char buf[64];

	(void)state;
	resolve_cache_clear();
	for (size_t i = 0; i < sizeof(hosts) / sizeof(*hosts); i++) {
		assert_true(resolve_is_numeric(hosts[i]));
		assert_ptr_equal(resolve_now(hosts[i], buf, sizeof(buf)), hosts[i]);
	}
	assert_false(resolve_is_numeric("localhost"));
	assert_false(resolve_is_numeric("1.2.3.example"));
	assert_null(resolve_now("localhost", buf, sizeof(buf)));
}

/* A successful lookup is reused (no second query) until it is a minute old. */
static void test_success_is_cached(void **state)
{
	struct lookup_result res = { 0 };
	char buf[64];
	const char *cached;

	(void)state;
	resolve_cache_clear();
	res.loop = new_loop();
	assert_null(resolve_now("localhost", buf, sizeof(buf)));
	resolve_start(res.loop, "localhost", on_resolved, &res);
	assert_int_equal(res.calls, 0);
	assert_int_equal(loop_run(res.loop), 0);
	assert_int_equal(res.calls, 1);
	if (res.error[0])
		skip();         /* no localhost entry on this machine */
	assert_true(resolve_is_numeric(res.address));
	cached = resolve_now("localhost", buf, sizeof(buf));
	assert_non_null(cached);
	assert_string_equal(cached, res.address);
	/* a failure is not cached */
	assert_null(resolve_now(UNKNOWN_HOST, buf, sizeof(buf)));
	loop_destroy(res.loop);
	resolve_cache_clear();
}

static void quit_loop(void *arg)
{
	loop_quit(arg);
}

/* Cancelled lookups (stopped sessions, destroyed loops) never call back and leak nothing
 * (checked by ASan/LSan). */
static void test_cancelled_lookups_never_call_back(void **state)
{
	struct lookup_result res = { 0 };
	struct loop_timer *quit;
	struct watch w = { 0 };
	struct session *s;

	(void)state;
	resolve_cache_clear();
	res.loop = new_loop();
	resolve_cancel(resolve_start(res.loop, UNKNOWN_HOST, on_resolved, &res));
	resolve_cancel(NULL);
	quit = loop_timer_create(res.loop, quit_loop, res.loop);
	loop_timer_schedule(quit, 200000);
	assert_int_equal(loop_run(res.loop), 0);
	assert_int_equal(res.calls, 0);
	loop_timer_destroy(quit);
	loop_destroy(res.loop);

	/* a session stopped mid-lookup reports "stopped", not the lookup's outcome */
	w.loop = new_loop();
	s = unknown_host_session(&w, 0);
	session_start(s);
	session_stop(s);
	assert_int_equal(w.closed, 1);
	assert_string_equal(w.reason, "stopped");
	quit = loop_timer_create(w.loop, quit_loop, w.loop);
	loop_timer_schedule(quit, 200000);
	assert_int_equal(loop_run(w.loop), 0);
	assert_int_equal(w.closed, 1);
	assert_int_equal(w.connecting, 1);
	session_destroy(s);
	loop_timer_destroy(quit);
	loop_destroy(w.loop);

	/* a loop destroyed under a session mid-lookup: the session is destroyed afterwards */
	memset(&w, 0, sizeof(w));
	w.loop = new_loop();
	s = unknown_host_session(&w, 0);
	session_start(s);
	loop_destroy(w.loop);
	session_destroy(s);
	assert_int_equal(w.closed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_does_not_complete_inside_start),
		cmocka_unit_test(test_loop_runs_during_lookup_and_failure_is_reported),
		cmocka_unit_test(test_timeout_reports_once),
		cmocka_unit_test(test_numeric_hosts_need_no_lookup),
		cmocka_unit_test(test_success_is_cached),
		cmocka_unit_test(test_cancelled_lookups_never_call_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
