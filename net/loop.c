/* The one event loop: an lws context that owns the wait. Timers are lws_sul, file
 * descriptors and signals join as adopted raw files (this lws build has no external
 * poll, so nothing else may block). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "net_int.h"

/* One adopted descriptor: a dup of a caller's fd, or a signalfd. */
struct fd_watch {
	struct lws_dll2 node;           /* in loop->watches */
	struct lws *wsi;
	struct loop *loop;
	int fd;                         /* the caller's fd; -1 for signals */
	void (*on_readable)(void *arg);
	void (*on_hangup)(void *arg);
	void (*on_signal)(void *arg, int signo);
	void *arg;
};

/* lws logging has no context pointer, so the sink is process-wide (there is one loop). */
static loop_log_fn log_sink;

static void log_emit(int level, const char *line)
{
	char tmp[1024];
	size_t n = strlen(line);

	if (!log_sink)
		return;
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	if (n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	memcpy(tmp, line, n);
	tmp[n] = '\0';
	log_sink(level, tmp);
}

/* A line of tether's own connection log (--log), formatted. */
void net_log(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!log_sink)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	log_sink(LLL_NOTICE, line);
}

static void watch_drain_signals(struct fd_watch *w)
{
	struct signalfd_siginfo si;
	int fd = lws_get_socket_fd(w->wsi);

	while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		w->on_signal(w->arg, (int)si.ssi_signo);
}

static int fd_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
		       void *in, size_t len)
{
	struct fd_watch *w = lws_get_opaque_user_data(wsi);
	void (*hangup)(void *arg);
	void *arg;

	(void)user;
	(void)in;
	(void)len;
	switch (reason) {
	case LWS_CALLBACK_RAW_RX_FILE:
		if (!w)
			return -1;
		if (w->on_signal)
			watch_drain_signals(w);
		else
			w->on_readable(w->arg);
		return 0;
	case LWS_CALLBACK_RAW_CLOSE_FILE:
	case LWS_CALLBACK_WSI_DESTROY:  /* freed without CLOSE_FILE: never keep it either */
		if (!w)
			return 0;
		lws_set_opaque_user_data(wsi, NULL);
		lws_dll2_remove(&w->node);
		/* still open only at CLOSE_FILE: after it the number may be another file's */
		if (reason == LWS_CALLBACK_RAW_CLOSE_FILE)
			loop_wait_remove(w->loop, lws_get_socket_fd(wsi));
		hangup = w->on_hangup;
		arg = w->arg;
		free(w);
		if (hangup)
			hangup(arg);
		return 0;
	default:
		return 0;
	}
}

static const struct lws_protocols loop_protocols[] = {
	/* rx_buffer_size bounds one RECEIVE callback, not a message: session.c reassembles. */
	{ NET_PROTO_SESSION, session_lws_callback, 0, 65536, 0, NULL, 0 },
	{ NET_PROTO_REST, rest_lws_callback, 0, 16384, 0, NULL, 0 },
	{ NET_PROTO_FD, fd_callback, 0, 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 }  /* LWS_PROTOCOL_LIST_TERM is not in 4.1.6 */
};

/* A vhost's settings; the TLS one's options set up a client TLS context. */
static void vhost_info(struct lws_context_creation_info *info, uint64_t options)
{
	memset(info, 0, sizeof(*info));
	info->port = CONTEXT_PORT_NO_LISTEN;
	info->protocols = loop_protocols;
	info->options = options;
	info->timeout_secs = NET_LWS_TIMEOUT_S;
}

/* A client TLS context costs more than the rest of start-up together (parsing the OS's CA
 * store, some 140 PEM certificates, was most of it) and a server reached over http://
 * never needs one: TLS connections go out on a vhost of their own, made at the first. */
struct lws_vhost *loop_vhost(struct loop *loop, bool tls)
{
	if (!tls)
		return loop->vh;
	if (!loop->tls_vh) {
		struct lws_context_creation_info info;
		vhost_info(&info, LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT);
		info.vhost_name = "tls";
		loop->tls_vh = lws_create_vhost(loop->ctx, &info);
	}
	return loop->tls_vh;
}

/* Creates the one event loop (a libwebsockets context). */
struct loop *loop_create(loop_log_fn log, struct buf *err)
{
	struct lws_context_creation_info info;
	struct loop *loop;

	/* Before the context exists: lws logs to stderr by default, which would
	 * corrupt the screen. Notice level and above never carry frame payloads. */
	log_sink = log;
	lws_set_log_level(log ? LLL_ERR | LLL_WARN | LLL_NOTICE : 0, log_emit);

	loop = xcalloc(1, sizeof(*loop));
	loop_wait_init(loop);
	/* The library's TLS set-up is the context's (lws 4.1.6 exports no way to do it later);
	 * the vhosts are made here, the plain one without a client TLS context. */
	vhost_info(&info, LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT | LWS_SERVER_OPTION_EXPLICIT_VHOSTS);
	info.gid = -1;
	info.uid = -1;
	info.pt_serv_buf_size = NET_READ_BYTES;
	/* lws sizes (and zeroes) its fd tables by ulimit -n unless told: 20,000 here, a million
	 * in many containers (16 MB touched at start). 64 conversations, each a socket and a few
	 * REST reads, stay far below this; lws then finds a socket's connection by a scan of the
	 * table, where ours sit in its first slots. */
	info.fd_limit_per_thread = LOOP_FDS_MAX;
	loop->ctx = lws_create_context(&info);
	if (!loop->ctx) {
		if (err)
			buf_puts(err, "cannot create the libwebsockets context");
		loop_wait_fini(loop);
		free(loop);
		return NULL;
	}
	vhost_info(&info, 0);
	info.vhost_name = "default";
	loop->vh = lws_create_vhost(loop->ctx, &info);
	if (!loop->vh) {
		if (err)
			buf_puts(err, "libwebsockets created no default vhost");
		lws_context_destroy(loop->ctx);
		loop_wait_fini(loop);
		free(loop);
		return NULL;
	}
	return loop;
}

static int watch_forget(struct lws_dll2 *d, void *user)
{
	struct fd_watch *w = lws_container_of(d, struct fd_watch, node);

	(void)user;
	lws_set_opaque_user_data(w->wsi, NULL);
	lws_dll2_remove(d);
	loop_wait_remove(w->loop, lws_get_socket_fd(w->wsi));
	free(w);
	return 0;
}

static int timer_forget(struct lws_dll2 *d, void *user)
{
	struct loop_timer *t = lws_container_of(d, struct loop_timer, node);

	(void)user;
	lws_sul_cancel(&t->sul);
	lws_dll2_remove(d);
	t->loop = NULL;
	return 0;
}

/* Destroys the loop and everything still attached to it. */
void loop_destroy(struct loop *loop)
{
	if (!loop)
		return;
	loop->closing = true;
	session_detach_all(loop);
	rest_detach_all(loop);
	lws_dll2_foreach_safe(&loop->watches, NULL, watch_forget);
	lws_dll2_foreach_safe(&loop->timers, NULL, timer_forget);
	lws_context_destroy(loop->ctx);
	loop_wait_fini(loop);
	free(loop);
}

/* lws rounds its poll timeout down to whole milliseconds, so in the last millisecond before a
 * timer it would poll with timeout 0 over and over (measured: 4 polls per read while
 * streaming); sleeping that remainder out cost a second wake-up in a fifth of the frames
 * (strace: 68 sleeps over 356 frames). A timer of ours due within it is made due now: it fires
 * up to a millisecond early, in the turn that follows, without a wait. */
static void due_now_if_close(struct loop *loop, lws_usec_t now)
{
	lws_start_foreach_dll(struct lws_dll2 *, d, lws_dll2_get_head(&loop->timers)) {
		struct loop_timer *t = lws_container_of(d, struct loop_timer, node);
		if (!lws_dll2_is_detached(&t->sul.list) && t->sul.us > now &&
		    t->sul.us - now < LWS_US_PER_MS)
			lws_sul_schedule(loop->ctx, 0, &t->sul, t->sul.cb, 0);
	} lws_end_foreach_dll(d);
}

static void close_wait_over(lws_sorted_usec_list_t *sul)
{
	struct loop *loop = lws_container_of(sul, struct loop, close_wait);

	/* a sul callback does not end the poll that follows it */
	lws_cancel_service(loop->ctx);
}

/* After loop_quit: true while a stopped session's close handshake may still finish. */
static bool closing_on_quit(struct loop *loop, lws_usec_t *until)
{
	lws_usec_t now = lws_now_usecs();

	if (!session_any_closing(loop))
		return false;
	if (!*until) {
		*until = now + NET_CLOSE_WAIT_US;
		lws_sul_schedule(loop->ctx, 0, &loop->close_wait, close_wait_over,
				 NET_CLOSE_WAIT_US);
	}
	return now < *until;
}

/* Runs until loop_quit; returns 0, or -1 if the loop failed. Sessions stopped on the way out
 * get NET_CLOSE_WAIT_US to close cleanly first. */
int loop_run(struct loop *loop)
{
	int rc = 0;
	lws_usec_t close_until = 0;

	while (!loop->quit || closing_on_quit(loop, &close_until)) {
		lws_usec_t now = lws_now_usecs();
		loop->bytes_in_turn = 0;
		/* a tick's read and paint take time: the wait after it counts from their end */
		if (loop_reads_tick_now(loop, now))
			now = lws_now_usecs();
		loop->turns++;
		int lws_timeout;
		if (!loop_wait_quiet(loop, now, &lws_timeout)) {
			due_now_if_close(loop, now);
			loop->lws_turn_at = now;
			if (lws_service(loop->ctx, lws_timeout) < 0) {
				rc = -1;
				break;
			}
		}
		if (loop->bytes_in_turn > loop->most_in_a_turn)
			loop->most_in_a_turn = loop->bytes_in_turn;
		loop_reads_after_turn(loop);
	}
	lws_sul_cancel(&loop->close_wait);
	loop->quit = false;
	return rc;
}

/* Makes loop_run return after the current callback. */
void loop_quit(struct loop *loop)
{
	loop->quit = true;
	/* The close handshakes of stopping sessions are read as they come. */
	if (loop->holder)
		loop_reads_release(loop->holder);
	/* A sul callback runs before lws_service polls; without a wake it would sleep on. */
	lws_cancel_service(loop->ctx);
}

static void timer_fire(lws_sorted_usec_list_t *sul)
{
	struct loop_timer *t = lws_container_of(sul, struct loop_timer, sul);

	loop_reads_fire(t);
}

/* Creates a one-shot timer that calls cb(arg) on the loop. */
struct loop_timer *loop_timer_create(struct loop *loop, void (*cb)(void *arg), void *arg)
{
	struct loop_timer *t = xcalloc(1, sizeof(*t));

	t->loop = loop;
	t->cb = cb;
	t->arg = arg;
	lws_dll2_add_tail(&t->node, &loop->timers);
	return t;
}

/* (Re)schedules the timer delay_us from now. */
void loop_timer_schedule(struct loop_timer *t, int64_t delay_us)
{
	if (!t->loop)
		return;
	if (delay_us < 0)
		delay_us = 0;
	lws_sul_schedule(t->loop->ctx, 0, &t->sul, timer_fire, (lws_usec_t)delay_us);
	loop_reads_scheduled(t, delay_us);
}

/* Unschedules the timer if it is pending. */
void loop_timer_cancel(struct loop_timer *t)
{
	if (t->loop) {
		lws_sul_cancel(&t->sul);
		loop_reads_release(t);
	}
}

/* True while the timer is scheduled. */
bool loop_timer_pending(const struct loop_timer *t)
{
	return t->loop && !lws_dll2_is_detached(&t->sul.list);
}

/* Cancels and frees the timer. */
void loop_timer_destroy(struct loop_timer *t)
{
	if (!t)
		return;
	if (t->loop) {
		lws_sul_cancel(&t->sul);
		loop_reads_release(t);
		lws_dll2_remove(&t->node);
	}
	free(t);
}

static struct fd_watch *watch_adopt(struct loop *loop, int fd, struct fd_watch *w)
{
	lws_sock_file_fd_type u;

	u.filefd = fd;
	w->wsi = lws_adopt_descriptor_vhost(loop->vh, LWS_ADOPT_RAW_FILE_DESC, u,
					    NET_PROTO_FD, NULL);
	if (!w->wsi) {
		free(w);
		return NULL;
	}
	lws_set_opaque_user_data(w->wsi, w);
	lws_dll2_add_tail(&w->node, &loop->watches);
	w->loop = loop;
	loop_wait_add(loop, fd);
	return w;
}

/* Watches fd for input (through a dup that lws owns and closes). */
int loop_watch_fd(struct loop *loop, int fd, void (*on_readable)(void *arg),
		  void (*on_hangup)(void *arg), void *arg)
{
	struct fd_watch *w;
	int dfd = dup(fd);

	if (dfd < 0)
		return -1;
	w = xcalloc(1, sizeof(*w));
	w->fd = fd;
	w->on_readable = on_readable;
	w->on_hangup = on_hangup;
	w->arg = arg;
	if (!watch_adopt(loop, dfd, w)) {
		close(dfd);
		return -1;
	}
	return 0;
}

/* Stops watching fd without calling on_hangup. */
int loop_unwatch_fd(struct loop *loop, int fd)
{
	lws_start_foreach_dll_safe(struct lws_dll2 *, d, d1, loop->watches.head) {
		struct fd_watch *w = lws_container_of(d, struct fd_watch, node);

		if (!w->on_signal && w->fd == fd) {
			struct lws *wsi = w->wsi;

			watch_forget(d, NULL);
			net_wsi_abandon(wsi);
			return 0;
		}
	} lws_end_foreach_dll_safe(d, d1);
	return -1;
}

/* Blocks the signals and delivers them through a signalfd on the loop. */
int loop_watch_signals(struct loop *loop, const int *signals, int count,
		       void (*on_signal)(void *arg, int signo), void *arg)
{
	struct fd_watch *w;
	sigset_t set;
	int sfd;

	sigemptyset(&set);
	for (int i = 0; i < count; i++)
		if (sigaddset(&set, signals[i]) < 0)
			return -1;
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0)
		return -1;
	w = xcalloc(1, sizeof(*w));
	w->fd = -1;
	w->on_signal = on_signal;
	w->arg = arg;
	if (!watch_adopt(loop, sfd, w)) {
		close(sfd);
		return -1;
	}
	return 0;
}

/* Drops wsi without further callbacks reaching its owner. */
void net_wsi_abandon(struct lws *wsi)
{
	if (!wsi)
		return;
	lws_set_opaque_user_data(wsi, NULL);
	lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}
