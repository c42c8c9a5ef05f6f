/* REST requests that get no answer: a listener that never accepts times out (done once,
 * with an error), a closed port fails fast, and a loop destroyed with a request pending
 * calls done once, with an error, so the caller can free its context. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "net_int.h"

struct result {
	struct loop *loop;
	int calls;
	int status;
	char error[200];
	enum net_cause cause;
};

static void on_done(void *ctx, const struct rest_response *r)
{
	struct result *res = ctx;

	res->calls++;
	res->status = r->status;
	res->cause = r->cause;
	snprintf(res->error, sizeof(res->error), "%s", r->error ? r->error : "");
	loop_quit(res->loop);
}

static void quit_after(void *arg)
{
	loop_quit(arg);
}

/* A TCP listener on 127.0.0.1 that never accepts: connects complete, nothing answers. */
static int mute_listener(char *url, size_t cap)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	snprintf(url, cap, "http://127.0.0.1:%d", ntohs(a.sin_port));
	return fd;
}

static struct loop *new_loop(void)
{
	struct loop *loop = loop_create(NULL, NULL);

	assert_non_null(loop);
	alarm(20);
	return loop;
}

static void test_silent_server_times_out_once(void **state)
{
	struct result res = { 0 };
	struct loop_timer *linger;
	char url[64];
	int fd = mute_listener(url, sizeof(url));

	(void)state;
	res.loop = new_loop();
	rest_set_timeout_us(300000);
	assert_int_equal(rest_request(res.loop, url, "k", false, "POST", "/api/x", "{}", on_done,
				      &res), 0);
	assert_int_equal(loop_run(res.loop), 0);
	assert_int_equal(res.calls, 1);
	assert_int_equal(res.status, 0);
	assert_string_equal(res.error, "request timed out");
	/* nothing calls done a second time, e.g. when the abandoned connection closes */
	linger = loop_timer_create(res.loop, quit_after, res.loop);
	loop_timer_schedule(linger, 300000);
	close(fd);
	assert_int_equal(loop_run(res.loop), 0);
	assert_int_equal(res.calls, 1);
	loop_timer_destroy(linger);
	loop_destroy(res.loop);
	rest_set_timeout_us(15000000);
}

static void test_closed_port_fails_fast(void **state)
{
	struct result res = { 0 };
	char url[64];
	int fd = mute_listener(url, sizeof(url));

	(void)state;
	close(fd);      /* the port is now closed */
	res.loop = new_loop();
	assert_int_equal(rest_request(res.loop, url, NULL, false, "GET", "/api/x", NULL, on_done,
				      &res), 0);
	assert_int_equal(loop_run(res.loop), 0);
	assert_int_equal(res.calls, 1);
	assert_int_equal(res.status, 0);
	assert_string_equal(res.error, "connection refused (no server is listening there)");
	assert_int_equal(res.cause, NET_CAUSE_REFUSED);
	loop_destroy(res.loop);
}

static void test_bad_url_is_refused(void **state)
{
	struct result res = { 0 };

	(void)state;
	res.loop = new_loop();
	assert_int_equal(rest_request(res.loop, "ftp://x", NULL, false, "GET", "/", NULL, on_done,
				      &res), -1);
	loop_destroy(res.loop);
	assert_int_equal(res.calls, 0);
}

static void test_destroy_with_pending_request(void **state)
{
	struct result res = { 0 };
	struct loop_timer *t;
	char url[64];
	int fd = mute_listener(url, sizeof(url));

	(void)state;
	res.loop = new_loop();
	assert_int_equal(rest_request(res.loop, url, "k", false, "GET", "/", NULL, on_done, &res),
			 0);
	t = loop_timer_create(res.loop, quit_after, res.loop);
	loop_timer_schedule(t, 100000);
	assert_int_equal(loop_run(res.loop), 0);
	loop_timer_destroy(t);
	assert_int_equal(res.calls, 0);
	loop_destroy(res.loop);
	assert_int_equal(res.calls, 1);
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.error, "closed"));
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_silent_server_times_out_once),
		cmocka_unit_test(test_closed_port_fails_fast),
		cmocka_unit_test(test_bad_url_is_refused),
		cmocka_unit_test(test_destroy_with_pending_request),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
