/* loop_reads: a frame clock holds the session sockets' reads until its tick.
 *
 * The screen cannot show a delta before the next frame, so while a frame is due the sockets
 * need not wake the loop for each WebSocket frame (200 a second while streaming, against a
 * 30 Hz clock): what they bring waits in the kernel and is read at the tick, all at once,
 * just before the paint. While a stream comes in, the tick is taken at the top of the turn
 * that follows the poll that slept until it: its sockets are read there and then
 * (loop_reads_tick_now), so that poll is the frame's only one. Otherwise a turn of
 * lws_service runs its timers before it polls, so a tick that finds bytes waiting lets the
 * poll of the same turn read them and runs its callback after that turn
 * (loop_reads_after_turn); a tick that finds none runs it at once. Idle (no frame due)
 * nothing is held and nothing wakes. */
#include <poll.h>
#include <sys/ioctl.h>

#include "net_int.h"

/* More open sessions than this and nothing is held: their sockets are read as they come. */
enum { HOLD_MAX = 16 };

/* The longest a tick waits for the reads it expects. */
#define AFTER_BOUND_US ((lws_usec_t)1000)

static bool session_readable(const struct session *s)
{
	return s->wsi && s->phase >= PHASE_OPEN;
}

/* Switches reading on or off on every open session socket; false when there are too many
 * to hold. */
static bool reads_set(struct loop *loop, bool on)
{
	if (!on && loop->sessions.count > HOLD_MAX)
		return false;
	lws_start_foreach_dll(struct lws_dll2 *, d, lws_dll2_get_head(&loop->sessions)) {
		struct session *s = lws_container_of(d, struct session, node);
		if (session_readable(s))
			lws_rx_flow_control(s->wsi, on);
	} lws_end_foreach_dll(d);
	return true;
}

/* A socket with at least this many bytes queued is not held: that is a replay or a burst, not
 * a streamed delta, and held it would be read one service buffer (NET_READ_BYTES) per tick. */
#define BACKLOG_BYTES 4096

/* True when a session socket has something for lws to read (bytes, a hangup, an error). */
static bool reads_waiting(struct loop *loop)
{
	struct pollfd fds[HOLD_MAX];
	nfds_t n = 0;

	lws_start_foreach_dll(struct lws_dll2 *, d, lws_dll2_get_head(&loop->sessions)) {
		struct session *s = lws_container_of(d, struct session, node);
		if (session_readable(s) && n < HOLD_MAX) {
			fds[n].fd = lws_get_socket_fd(s->wsi);
			fds[n].events = POLLIN;
			fds[n].revents = 0;
			if (fds[n].fd >= 0)
				n++;
		}
	} lws_end_foreach_dll(d);
	loop->checks++;
	return n && poll(fds, n, 0) > 0;
}

/* True when a session socket has BACKLOG_BYTES or more queued (a replay, not a streamed
 * delta). One ioctl a socket, no poll: a hangup held is seen at the tick (poll reports it on a
 * socket whose reads are off too). */
static bool backlog_waiting(struct loop *loop)
{
	/* Taken after a tick (the paint asks for the next frame), the reads of that tick say
	 * it: a stream's tick reads a few hundred bytes a delta; a replay's a full buffer. Taken
	 * inside a receive, lws may have read far more than it has handed over yet: asked. */
	if (!loop->in_rx && loop->bytes_since_tick < BACKLOG_BYTES)
		return false;
	loop->backlog_checks++;
	lws_start_foreach_dll(struct lws_dll2 *, d, lws_dll2_get_head(&loop->sessions)) {
		struct session *s = lws_container_of(d, struct session, node);
		int fd = session_readable(s) ? lws_get_socket_fd(s->wsi) : -1, queued = 0;
		if (fd >= 0 && ioctl(fd, FIONREAD, &queued) == 0 && queued >= BACKLOG_BYTES)
			return true;
	} lws_end_foreach_dll(d);
	return false;
}

static void hold(struct loop_timer *t)
{
	struct loop *loop = t->loop;

	if (loop->holder == t)
		return;
	/* A backlog (a replay, a burst faster than a tick's read takes) held would be read one
	 * buffer per tick: it is read as it comes until the socket drains. */
	if (loop->holder || backlog_waiting(loop) || !reads_set(loop, false))
		return;
	loop->holder = t;
	loop->held_since = clock_now_us();
	/* Held inside a receive: lws keeps the rest of what it read for after the hold. */
	loop->held_buffered = loop->in_rx;
	/* Taken by the callback of a tick that has just read the sockets itself (a stream's
	 * frame): lws holds nothing of theirs unread, so the wait may be the quiet one. A hold
	 * taken anywhere else (the first frame after a connection's upgrade, say, whose read
	 * lws has only partly handed over) leaves the wait to lws. */
	loop->quiet_hold = loop->in_direct_tick && !loop->in_rx;
}

/* t was scheduled delay_us from now: its reads wait for it when it is a hold within reach. */
void loop_reads_scheduled(struct loop_timer *t, int64_t delay_us)
{
	if (t->loop->after == t)
		t->loop->after = NULL;  /* one run: the new schedule replaces the wait */
	if (!t->hold_us)
		return;
	if (delay_us <= t->hold_us)
		hold(t);
	else
		loop_reads_release(t);
}

/* t no longer holds the reads (cancelled, destroyed, scheduled far off). */
void loop_reads_release(struct loop_timer *t)
{
	struct loop *loop = t->loop;

	if (loop && loop->after == t)
		loop->after = NULL;
	if (!loop || loop->holder != t)
		return;
	loop->holder = NULL;
	reads_set(loop, true);
}

/* t's time has come: reading resumes, and its callback runs after what waits is read. */
void loop_reads_fire(struct loop_timer *t)
{
	struct loop *loop = t->loop;

	if (loop->holder != t) {
		t->cb(t->arg);
		return;
	}
	loop->holder = NULL;
	reads_set(loop, true);
	/* While a stream comes in every tick has reads waiting: the poll that would say so is
	 * skipped when something was read since the last tick (one that then finds none waits
	 * AFTER_BOUND_US). */
	bool streaming = loop->read_since_tick;
	loop->read_since_tick = false;
	loop->bytes_since_tick = 0;
	if (loop->held_buffered || streaming || reads_waiting(loop)) {
		/* The poll of this turn reads them, then the callback runs. The timer bounds that
		 * poll should lws have nothing after all; the turn's end cancels it. */
		loop->after = t;
		lws_sul_schedule(loop->ctx, 0, &t->sul, t->sul.cb, AFTER_BOUND_US);
		return;
	}
	t->cb(t->arg);
}

/* After a turn of lws_service: the callback of a tick that waited for its reads. */
void loop_reads_after_turn(struct loop *loop)
{
	struct loop_timer *t = loop->after;

	if (!t)
		return;
	loop->after = NULL;
	lws_sul_cancel(&t->sul);
	t->cb(t->arg);
}

/* True when fd is still an open session's socket. */
static bool session_fd(struct loop *loop, int fd)
{
	lws_start_foreach_dll(struct lws_dll2 *, d, lws_dll2_get_head(&loop->sessions)) {
		struct session *s = lws_container_of(d, struct session, node);
		if (session_readable(s) && lws_get_socket_fd(s->wsi) == fd)
			return true;
	} lws_end_foreach_dll(d);
	return false;
}

/* The held session sockets read at once, as lws would read them had its poll said they were
 * readable (a socket with nothing waiting reads nothing; one closed reads its end). */
static void read_held_now(struct loop *loop)
{
	int fds[HOLD_MAX];
	size_t n = 0;

	lws_start_foreach_dll(struct lws_dll2 *, d, lws_dll2_get_head(&loop->sessions)) {
		struct session *s = lws_container_of(d, struct session, node);
		int fd = session_readable(s) ? lws_get_socket_fd(s->wsi) : -1;
		if (fd >= 0 && n < HOLD_MAX)
			fds[n++] = fd;
	} lws_end_foreach_dll(d);
	/* By fd, and each looked up again: a read may end a session, and its fd number may come
	 * back as another connection's, which must not be told it is readable. */
	for (size_t i = 0; i < n; i++) {
		struct lws_pollfd pfd = { .fd = fds[i], .events = POLLIN, .revents = POLLIN };
		if (i == 0 || session_fd(loop, fds[i]))
			lws_service_fd(loop->ctx, &pfd);
	}
}

/* At the top of a turn: the tick of a hold that is due (within the millisecond lws's poll
 * timeout rounds away) while a stream comes in reads its sockets here, then runs its callback,
 * instead of waiting for the poll of the next turn to say they are readable: one poll a frame,
 * not two. Not when lws may hold bytes of its own from the hold (held_buffered), nor when
 * nothing came since the last tick (the tick's own check finds out). True when it fired. */
bool loop_reads_tick_now(struct loop *loop, lws_usec_t now)
{
	struct loop_timer *t = loop->holder;

	if (!t || !loop->read_since_tick || loop->held_buffered ||
	    lws_dll2_is_detached(&t->sul.list) || t->sul.us > now + LWS_US_PER_MS)
		return false;
	lws_sul_cancel(&t->sul);
	loop->holder = NULL;
	reads_set(loop, true);
	loop->read_since_tick = false;
	loop->bytes_since_tick = 0;
	loop->direct_ticks++;
	/* What is read now waited since the hold began (loop_read_since); as after a turn, a
	 * timer that what was read scheduled anew, cancelled or destroyed is not run. */
	loop->after = t;
	read_held_now(loop);
	if (loop->after != t)
		return true;
	loop->after = NULL;
	loop->in_direct_tick = true;
	t->cb(t->arg);
	loop->in_direct_tick = false;
	return true;
}

/* Holds the session sockets' reads while t is due within hold_us (0: never). */
void loop_timer_hold_reads(struct loop_timer *t, int64_t hold_us)
{
	t->hold_us = hold_us > 0 ? hold_us : 0;
	if (!t->hold_us)
		loop_reads_release(t);
}

/* When what is being read now could have been read first: the start of the hold it waited
 * out, else now_us. */
int64_t loop_read_since(const struct loop *loop, int64_t now_us)
{
	if (loop && loop->after && loop->held_since < now_us)
		return loop->held_since;
	return now_us;
}
