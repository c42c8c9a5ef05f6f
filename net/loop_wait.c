/* loop_wait: while a stream comes in, the loop sleeps until its frame tick in epoll_wait on
 * the watched descriptors (the terminal, the signals), not in lws's poll.
 *
 * Held for the tick, the session sockets need not wake the loop, so the one wait of a frame
 * only has to end at the tick or at a key or a signal. lws's poll over its whole set costs
 * that wait far more on this machine kind (measured: 30 Hz wake-ups of a process sleeping in
 * poll on a tty, an eventfd, a signalfd and a socket took ~20 µs more each than in epoll_wait
 * on the first three; any poll over them, even with no timeout, cost as much), because each
 * fd is polled and queued on at every call where epoll keeps its interest across waits.
 * The quiet wait is taken only when lws has nothing of its own to do before the tick: the
 * hold was taken by a stream's tick that read its sockets itself, no other timer is due
 * sooner, no connection is opening, closing, making a REST call or has something to write,
 * no bytes are buffered to hand over; and lws's own timers are given a turn at least every
 * QUIET_BOUND_US. Anything the wait reports (a key, a signal, a hangup) is left for the
 * lws turn that follows, which finds it at once. */
#include <sys/epoll.h>
#include <unistd.h>

#include "net_int.h"

/* The longest the quiet wait keeps lws's own timers waiting: they count whole seconds (its
 * connection timeouts, the idle backstop) or only free an abandoned connection. */
#define QUIET_BOUND_US ((lws_usec_t)1000 * 1000)

/* Opens the loop's epoll set; without one (-1) every wait is lws's. */
void loop_wait_init(struct loop *loop)
{
	loop->epfd = epoll_create1(EPOLL_CLOEXEC);
}

/* Closes the epoll set. */
void loop_wait_fini(struct loop *loop)
{
	if (loop->epfd >= 0)
		close(loop->epfd);
	loop->epfd = -1;
}

/* A watched descriptor joins the set; when it cannot, the quiet wait is given up for good
 * (it would sleep through that descriptor's input). */
void loop_wait_add(struct loop *loop, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	if (loop->epfd >= 0 && epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		loop_wait_fini(loop);
}

/* A watched descriptor leaves the set before it is closed (a dup's interest would outlive
 * its close while the description stays open through the original). */
void loop_wait_remove(struct loop *loop, int fd)
{
	if (loop->epfd >= 0 && fd >= 0)
		epoll_ctl(loop->epfd, EPOLL_CTL_DEL, fd, NULL);
}

/* True when no session socket needs lws before the tick: each is open, held, and has
 * nothing to write (a message, a ping, the auth frame, a close, the rest of a send). */
static bool sessions_quiet(struct loop *loop)
{
	lws_start_foreach_dll(struct lws_dll2 *, d, lws_dll2_get_head(&loop->sessions)) {
		struct session *s = lws_container_of(d, struct session, node);
		if (s->wsi && (s->phase < PHASE_OPEN || s->stopping || s->auth_pending ||
			       s->ping_pending || s->queue_len || lws_partial_buffered(s->wsi)))
			return false;
	} lws_end_foreach_dll(d);
	return true;
}

/* True when a timer other than the tick is due before it. */
static bool timer_before(struct loop *loop, const struct loop_timer *tick,
			 lws_usec_t due)
{
	lws_start_foreach_dll(struct lws_dll2 *, d, lws_dll2_get_head(&loop->timers)) {
		const struct loop_timer *t = lws_container_of(d, struct loop_timer, node);
		if (t != tick && !lws_dll2_is_detached(&t->sul.list) && t->sul.us < due)
			return true;
	} lws_end_foreach_dll(d);
	return false;
}

/* The loop's wait for this turn when it may be the quiet one: sleeps in epoll_wait until the
 * held tick is due (within the millisecond loop_reads_tick_now allows) or a watched fd has
 * something. True when it waited; false when lws must take the turn instead, with
 * *lws_timeout the timeout to pass lws_service (-1: its timers are overdue, so a turn that
 * runs them and does not wait, after which the quiet wait may follow). */
bool loop_wait_quiet(struct loop *loop, lws_usec_t now, int *lws_timeout)
{
	struct loop_timer *tick = loop->holder;
	struct epoll_event ev[4];

	*lws_timeout = 0;
	/* quiet_hold implies the hold was not taken inside a receive (held_buffered) */
	if (loop->epfd < 0 || !tick || !loop->quiet_hold || !loop->read_since_tick ||
	    loop->quit || loop->after || lws_dll2_is_detached(&tick->sul.list))
		return false;
	lws_usec_t due = tick->sul.us;
	if (due <= now + LWS_US_PER_MS || loop->requests.count || !sessions_quiet(loop) ||
	    timer_before(loop, tick, due) || !lws_service_adjust_timeout(loop->ctx, 1, 0))
		return false;
	if (now - loop->lws_turn_at >= QUIET_BOUND_US) {
		*lws_timeout = -1;
		return false;
	}
	int n = epoll_wait(loop->epfd, ev, 4, (int)((due - now) / LWS_US_PER_MS));
	if (n != 0)
		return false;   /* input, a signal, a hangup or EINTR: lws's turn finds it */
	loop->quiet_waits++;
	return true;
}
