/* The loop: timers (order, rescheduling, cancel), quit from a timer, fd and signal
 * watches, unwatching an always-readable fd, logging before the context exists. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "net_int.h"

struct rec {
	struct loop *loop;
	char order[16];
	int n;
	int quit_after;
	int readable, hangups, signo;
	int fd;
};

static struct loop *new_loop(void)
{
	struct loop *loop = loop_create(NULL, NULL);

	assert_non_null(loop);
	/* a loop that never returns fails the test instead of hanging it */
	alarm(10);
	return loop;
}

static void mark(struct rec *r, char c)
{
	r->order[r->n++] = c;
	if (r->n == r->quit_after)
		loop_quit(r->loop);
}

static struct rec *g_rec;
static void fire_a(void *arg) { (void)arg; mark(g_rec, 'a'); }
static void fire_b(void *arg) { (void)arg; mark(g_rec, 'b'); }
static void fire_c(void *arg) { (void)arg; mark(g_rec, 'c'); }

/* Timers fire by deadline, not by creation order, and a timer callback can end loop_run
 * (it runs before lws polls, so loop_quit must wake the poll). */
static void test_timers_fire_in_deadline_order(void **state)
{
	struct rec r = { .quit_after = 3 };
	struct loop_timer *a, *b, *c;

	(void)state;
	r.loop = new_loop();
	g_rec = &r;
	a = loop_timer_create(r.loop, fire_a, NULL);
	b = loop_timer_create(r.loop, fire_b, NULL);
	c = loop_timer_create(r.loop, fire_c, NULL);
	loop_timer_schedule(a, 60000);
	loop_timer_schedule(b, 10000);
	loop_timer_schedule(c, 35000);
	assert_true(loop_timer_pending(a));
	assert_int_equal(loop_run(r.loop), 0);
	assert_string_equal(r.order, "bca");
	assert_false(loop_timer_pending(a));
	loop_timer_destroy(a);
	loop_timer_destroy(b);
	loop_timer_destroy(c);
	loop_destroy(r.loop);
}

/* Rescheduling replaces the earlier deadline; a cancelled timer never fires. */
static void test_timer_reschedule_and_cancel(void **state)
{
	struct rec r = { .quit_after = 2 };
	struct loop_timer *a, *b, *c;

	(void)state;
	r.loop = new_loop();
	g_rec = &r;
	a = loop_timer_create(r.loop, fire_a, NULL);
	b = loop_timer_create(r.loop, fire_b, NULL);
	c = loop_timer_create(r.loop, fire_c, NULL);
	loop_timer_schedule(a, 5000);
	loop_timer_schedule(a, 50000);          /* now after b */
	loop_timer_schedule(b, 20000);
	loop_timer_schedule(c, 10000);
	loop_timer_cancel(c);
	assert_false(loop_timer_pending(c));
	assert_int_equal(loop_run(r.loop), 0);
	assert_string_equal(r.order, "ba");
	loop_timer_destroy(a);
	loop_timer_destroy(b);
	loop_timer_destroy(c);
	loop_destroy(r.loop);
}

static void quit_now(void *arg)
{
	loop_quit(arg);
}

/* loop_quit before loop_run makes it return at once; the next run runs again. */
static void test_quit_before_run_and_rerun(void **state)
{
	struct loop *loop;
	struct loop_timer *t;

	(void)state;
	loop = new_loop();
	loop_quit(loop);
	assert_int_equal(loop_run(loop), 0);
	t = loop_timer_create(loop, quit_now, loop);
	loop_timer_schedule(t, 1000);
	assert_int_equal(loop_run(loop), 0);
	assert_false(loop_timer_pending(t));
	loop_timer_destroy(t);
	loop_destroy(loop);
}

static void pipe_readable(void *arg)
{
	struct rec *r = arg;
	char buf[16];

	r->readable++;
	assert_true(read(r->fd, buf, sizeof(buf)) > 0);
	loop_quit(r->loop);
}

static void pipe_hangup(void *arg)
{
	struct rec *r = arg;

	r->hangups++;
	loop_quit(r->loop);
}

/* A watched pipe reports input, then one hangup when the writer closes; the caller's fd
 * stays open (the loop watched a dup). */
static void test_watch_fd_readable_then_hangup(void **state)
{
	struct rec r = { 0 };
	int p[2];

	(void)state;
	r.loop = new_loop();
	assert_int_equal(pipe(p), 0);
	r.fd = p[0];
	assert_int_equal(loop_watch_fd(r.loop, p[0], pipe_readable, pipe_hangup, &r), 0);
	assert_int_equal(write(p[1], "x", 1), 1);
	assert_int_equal(loop_run(r.loop), 0);
	assert_int_equal(r.readable, 1);
	close(p[1]);
	assert_int_equal(loop_run(r.loop), 0);
	assert_int_equal(r.hangups, 1);
	assert_true(fcntl(p[0], F_GETFD) >= 0);
	close(p[0]);
	loop_destroy(r.loop);
}

static void devnull_readable(void *arg)
{
	struct rec *r = arg;

	r->readable++;
	assert_int_equal(loop_unwatch_fd(r->loop, r->fd), 0);
}

/* An fd that stays readable at its end (here /dev/null) can be unwatched: the loop then
 * sleeps instead of calling back forever, and on_hangup is not called. */
static void test_unwatch_stops_callbacks(void **state)
{
	struct rec r = { 0 };
	struct loop_timer *t;

	(void)state;
	r.loop = new_loop();
	r.fd = open("/dev/null", O_RDONLY);
	assert_true(r.fd >= 0);
	assert_int_equal(loop_watch_fd(r.loop, r.fd, devnull_readable, pipe_hangup, &r), 0);
	t = loop_timer_create(r.loop, quit_now, r.loop);
	loop_timer_schedule(t, 100000);
	assert_int_equal(loop_run(r.loop), 0);
	assert_int_equal(r.readable, 1);
	assert_int_equal(r.hangups, 0);
	assert_int_equal(loop_unwatch_fd(r.loop, r.fd), -1);
	loop_timer_destroy(t);
	close(r.fd);
	loop_destroy(r.loop);
}

static void got_signal(void *arg, int signo)
{
	struct rec *r = arg;

	r->signo = signo;
	loop_quit(r->loop);
}

static void raise_usr1(void *arg)
{
	(void)arg;
	raise(SIGUSR1);
}

/* A watched signal is blocked (its default action would kill us) and delivered through
 * the loop with its number. */
static void test_watch_signals(void **state)
{
	struct rec r = { 0 };
	struct loop_timer *t;
	int sigs[] = { SIGUSR1 };

	(void)state;
	r.loop = new_loop();
	assert_int_equal(loop_watch_signals(r.loop, sigs, 1, got_signal, &r), 0);
	t = loop_timer_create(r.loop, raise_usr1, NULL);
	loop_timer_schedule(t, 1000);
	assert_int_equal(loop_run(r.loop), 0);
	assert_int_equal(r.signo, SIGUSR1);
	loop_timer_destroy(t);
	loop_destroy(r.loop);
}

/* Timers may outlive their loop: destroying them afterwards touches nothing freed. */
static void test_timer_outlives_loop(void **state)
{
	struct loop *loop;
	struct loop_timer *t;

	(void)state;
	loop = new_loop();
	t = loop_timer_create(loop, quit_now, loop);
	loop_timer_schedule(t, 1000000);
	loop_destroy(loop);
	assert_false(loop_timer_pending(t));
	loop_timer_schedule(t, 10);     /* a no-op now */
	loop_timer_destroy(t);
}

static int log_lines;
static void count_log(int level, const char *line)
{
	(void)level;
	assert_null(strchr(line, '\n'));
	log_lines++;
}

/* lws's context-creation notice goes to the log function, never to stderr (the screen);
 * with no log function it is dropped. */
static void test_logging_never_reaches_stderr(void **state)
{
	char path[] = "/tmp/tether-loop-stderr-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	struct loop *loop;

	(void)state;
	assert_true(fd >= 0);
	dup2(fd, 2);
	loop = loop_create(count_log, NULL);
	assert_non_null(loop);
	loop_destroy(loop);
	loop = loop_create(NULL, NULL);
	assert_non_null(loop);
	loop_destroy(loop);
	dup2(saved, 2);
	close(saved);
	assert_true(log_lines > 0);
	assert_int_equal(lseek(fd, 0, SEEK_END), 0);
	close(fd);
	unlink(path);
}

/* ------------------------------------------------------------ the close wait on quit */

struct closing {
	struct loop *loop;
	struct session *s;
};

static void quit_closing(void *arg)
{
	loop_quit(((struct closing *)arg)->loop);
}

/* The close handshake ends (what CLIENT_CLOSED does), waking the loop as a socket event would. */
static void close_done(void *arg)
{
	struct closing *c = arg;

	c->s->stopping = false;
	loop_quit(c->loop);
}

/* ms that loop_run took, with quit at 100 ms and the handshake ending at done_ms (0: never). */
static int64_t run_with_close(bool stopping, int done_ms)
{
	struct session_config cfg = { .server_url = "http://127.0.0.1:1", .conversation_id = "c" };
	struct closing c;
	struct loop_timer *quit, *done;
	int64_t t0;

	c.loop = new_loop();
	c.s = session_create(c.loop, &cfg, NULL);
	c.s->stopping = stopping;       /* as session_stop leaves an open socket */
	quit = loop_timer_create(c.loop, quit_closing, &c);
	done = loop_timer_create(c.loop, close_done, &c);
	loop_timer_schedule(quit, 100000);
	if (done_ms)
		loop_timer_schedule(done, (int64_t)done_ms * 1000);
	t0 = clock_now_us();
	assert_int_equal(loop_run(c.loop), 0);
	t0 = (clock_now_us() - t0) / 1000;
	loop_timer_destroy(quit);
	loop_timer_destroy(done);
	session_destroy(c.s);
	loop_destroy(c.loop);
	return t0;
}

/* After loop_quit, loop_run waits for a stopped session's close handshake, at most
 * NET_CLOSE_WAIT_US, and not at all when no session is closing. */
static void test_quit_waits_for_close_bounded(void **state)
{
	int64_t ms;

	(void)state;
	ms = run_with_close(false, 0);
	assert_true(ms >= 90 && ms < 300);
	ms = run_with_close(true, 250);
	assert_true(ms >= 240 && ms < 450);
	ms = run_with_close(true, 0);
	assert_true(ms >= 100 + NET_CLOSE_WAIT_US / 1000 - 10 && ms < 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timers_fire_in_deadline_order),
		cmocka_unit_test(test_timer_reschedule_and_cancel),
		cmocka_unit_test(test_quit_before_run_and_rerun),
		cmocka_unit_test(test_watch_fd_readable_then_hangup),
		cmocka_unit_test(test_unwatch_stops_callbacks),
		cmocka_unit_test(test_watch_signals),
		cmocka_unit_test(test_timer_outlives_loop),
		cmocka_unit_test(test_logging_never_reaches_stderr),
		cmocka_unit_test(test_quit_waits_for_close_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
