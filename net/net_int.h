/* net private: the loop's internals shared by loop.c, session.c and rest.c.
 * Only the net sources include this; it is the one place lws types meet tether types. */
#ifndef TETHER_NET_INTERNAL_H
#define TETHER_NET_INTERNAL_H

#include <libwebsockets.h>

#include "net.h"
#include "legacy_int.h"

/* lws's own limit on each step of a connection (connect, TLS, the answer to the request):
 * set on the context so that messages can name it. */
#define NET_LWS_TIMEOUT_S 5      /* also written out in rest.c closed_why */
/* One read from a socket at most (lws reads into a per-thread buffer of this size; its default,
 * 4 KB, took 43,000 reads and as many polls for a 176 MB history). */
#define NET_READ_BYTES (64u * 1024u)
/* The descriptors lws keeps tables for (loop_create says why not ulimit -n). */
#define LOOP_FDS_MAX 1024

/* How long loop_run goes on after loop_quit for stopped sessions to finish their close
 * handshake (a close frame and its answer): quitting never hangs on a silent server. */
#define NET_CLOSE_WAIT_US ((int64_t)500 * 1000)

/* Protocol names on the loop's one vhost. */
#define NET_PROTO_SESSION "tether-session"
#define NET_PROTO_REST "tether-rest"
#define NET_PROTO_FD "tether-fd"

struct loop {
	struct lws_context *ctx;
	struct lws_vhost *vh;           /* plain connections and fds: no CA store */
	struct lws_vhost *tls_vh;       /* made at the first TLS connection (loop_vhost) */
	bool quit;
	bool closing;                   /* loop_destroy has begun: no new requests */
	lws_sorted_usec_list_t close_wait; /* wakes loop_run when a quit's close wait is over */
	/* Every object below is detached by loop_destroy so that nothing touches the
	 * freed context afterwards (their owners may outlive the loop). */
	lws_dll2_owner_t timers;        /* struct loop_timer */
	lws_dll2_owner_t watches;       /* struct fd_watch */
	lws_dll2_owner_t sessions;      /* struct session */
	lws_dll2_owner_t requests;      /* struct rest_req */
	/* loop_reads.c: the frame clock's hold on the session sockets' reads. */
	struct loop_timer *holder;      /* the timer whose tick the reads wait for, or NULL */
	int64_t held_since;             /* when the hold began (clock_now_us) */
	struct loop_timer *after;       /* fired with reads waiting: runs after this turn's reads */
	bool in_rx;                     /* inside a session socket's receive callback */
	uint64_t turns;                 /* turns of lws_service taken (waits on the fds) */
	bool held_buffered;             /* the hold began inside one: lws may hold bytes too */
	bool read_since_tick;           /* a session received something since the last tick */
	size_t bytes_since_tick;        /* ... and how many bytes of messages */
	uint64_t checks;                /* polls at a tick for reads waiting (tests count them) */
	uint64_t direct_ticks;          /* ticks that read their sockets at once (tests count) */
	uint64_t backlog_checks;        /* FIONREADs before a hold (tests count them) */
	size_t bytes_in_turn;           /* bytes of messages received in this turn of the loop */
	size_t most_in_a_turn;          /* the most of them in one turn (tests read it) */
	/* loop_wait.c: the quiet wait for a held tick. */
	int epfd;                       /* epoll set of the watched fds, or -1 */
	bool in_direct_tick;            /* a tick that read its sockets itself runs its callback */
	bool quiet_hold;                /* the hold was taken there: lws holds nothing unread */
	lws_usec_t lws_turn_at;         /* when lws_service last took a turn */
	uint64_t quiet_waits;           /* waits taken in epoll_wait (tests count them) */
};

struct loop_timer {
	lws_sorted_usec_list_t sul;     /* first: lws_container_of works either way */
	struct lws_dll2 node;           /* in loop->timers */
	struct loop *loop;              /* NULL once the loop is gone */
	void (*cb)(void *arg);
	void *arg;
	int64_t hold_us;                /* loop_timer_hold_reads: hold when due within this */
};

/* loop_reads.c, called by loop.c's timers and loop_run. */
void loop_reads_scheduled(struct loop_timer *t, int64_t delay_us);
void loop_reads_release(struct loop_timer *t);
void loop_reads_fire(struct loop_timer *t);
void loop_reads_after_turn(struct loop *loop);
bool loop_reads_tick_now(struct loop *loop, lws_usec_t now);

/* loop_wait.c, called by loop.c. */
void loop_wait_init(struct loop *loop);
void loop_wait_fini(struct loop *loop);
void loop_wait_add(struct loop *loop, int fd);
void loop_wait_remove(struct loop *loop, int fd);
bool loop_wait_quiet(struct loop *loop, lws_usec_t now, int *lws_timeout);

/* The lws protocol callbacks; loop.c lists them on the vhost. */
int session_lws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
			 void *in, size_t len);
int rest_lws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
		      void *in, size_t len);

/* The vhost a client connection goes out on: the TLS one (made now if need be) or the
 * plain one; NULL when TLS cannot be set up. */
struct lws_vhost *loop_vhost(struct loop *loop, bool tls);

/* Called by loop_destroy: the sessions and requests on loop forget every lws object and
 * never call back again (a session can still be destroyed afterwards). */
void session_detach_all(struct loop *loop);
/* True while a session stopped by its owner still waits for its close handshake. */
bool session_any_closing(struct loop *loop);
void rest_detach_all(struct loop *loop);

/* Sets the timeout of REST requests started from now on (default 15 s; tests). */
void rest_set_timeout_us(int64_t us);

/* Writes one line to the loop's log (--log): connection attempts, closes, errors and
 * reconnect decisions. */
void net_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Drops wsi without further callbacks reaching its owner. Safe inside or outside its
 * own callbacks: lws closes it on the next service turn. */
void net_wsi_abandon(struct lws *wsi);

/* Durable event ids remembered for dedupe (protocol.md §7.1 rule 4). */
#define SEEN_CAPACITY 4096

/* ------------------------------------------------- oversized messages (sniff.c) */

enum sniff_kind {
	SNIFF_UNKNOWN,          /* cannot tell: maybe durable */
	SNIFF_DURABLE,
	SNIFF_OTHER,            /* a frame type that never moves the cursor */
};

/* What the start of a message says about it. */
struct sniff {
	enum sniff_kind kind;
	char type[24];          /* the type name when read */
	bool has_seq;
	int64_t seq;            /* durable only, when "seq" directly follows "type" */
};

/* Reads the type (and a durable frame's seq) from the first bytes of a message that is
 * too large to keep; the server writes "type" first and "seq" right after it. */
void sniff_frame(const char *p, size_t n, struct sniff *out);

/* ------------------------------------------------- hostname lookups (resolve.c) */

struct resolve;

/* A lookup's outcome: the numeric address to connect to, or NULL and a readable reason;
 * final when the name does not exist (not a timeout or a temporary failure). */
typedef void (*resolve_done_fn)(void *ctx, const char *address, const char *error, bool final);

/* ------------------------------------------------- failures in words (failure.c) */

/* Appends why a connection failed (lws's error text in[0..len), NULL for none) in words
 * to out, reading the TLS verify result of wsi (may be NULL), and says what kind it was. */
enum net_cause net_failure_describe(struct lws *wsi, const char *in, size_t len, struct buf *out);

/* True when host is an IPv4 or IPv6 literal. */
bool resolve_is_numeric(const char *host);
/* The address to connect to right now: host itself when numeric, a lookup of it made in
 * the last minute (copied into buf), or NULL when a lookup is needed. */
const char *resolve_now(const char *host, char *buf, size_t cap);
/* Starts looking host up without blocking; done runs once, later, from a loop timer
 * (also on failure and after the overall timeout). */
struct resolve *resolve_start(struct loop *loop, const char *host, resolve_done_fn done,
			      void *ctx);
/* Abandons a lookup: done never runs. A lookup glibc is still running is freed once it
 * finishes. NULL is fine. */
void resolve_cancel(struct resolve *r);
/* Sets the overall lookup timeout (default 10 s; tests). */
void resolve_set_timeout_us(int64_t us);
/* Forgets every cached lookup (tests). */
void resolve_cache_clear(void);

/* ---------------------------------------------------------------- session */

#define NO_SEQ INT64_MIN

/* A REST call's link back to its session, cut when the session stops waiting for it. */
struct legacy_ticket {
	struct session *s;
};
struct legacy_fetch;

/* Where the current connection stands. */
enum phase { PHASE_IDLE, PHASE_CONNECTING, PHASE_OPEN, PHASE_SYNCED };

struct session {
	struct lws_dll2 node;           /* in loop->sessions */
	struct loop *loop;              /* NULL once the loop is gone */
	struct session_config cfg;      /* strings owned */
	struct session_handlers h;
	struct server_url url;
	bool url_ok;
	char host_header[300];
	lws_retry_bo_t idle;

	bool running;                   /* started and neither stopped nor finished */
	bool stopping;                  /* session_stop: close the open socket normally */
	enum phase phase;
	struct lws *wsi;                /* the current connection */
	struct resolve *lookup;         /* the hostname lookup before connecting, or NULL */
	int failures;                   /* consecutive attempts that did not reach sync */
	int backoff_level;              /* consecutive connections that made no progress */
	int attempt;                    /* number of the current or last attempt */
	char last_failure[256];         /* close reason of the last attempt short of sync */
	bool ever_synced;               /* some connection of this session reached sync */


	/* the current connection */
	int close_code;
	char close_reason[256];
	int http_status;
	enum net_cause cause;           /* why the attempt failed before any answer */
	bool auth_pending, ping_pending;
	bool live_only;                 /* connected without after_seq */
	bool progressed;                /* delivered a new durable frame */
	int64_t synced_at;              /* clock_now_us of the sync, 0 before */
	int64_t sync_through;           /* the sync's through_seq, NO_SEQ before or without */
	bool oversize;                  /* closed by us: a message over the limit */
	struct sniff oversize_sniff;
	struct buf rx;
	bool rx_dropping;
	size_t max_message;

	/* the cursor (cli.md "Cursor") */
	bool has_cursor;
	int64_t cursor;
	int64_t last_seq;               /* highest seq delivered, NO_SEQ before any */
	struct recent_ids seen;         /* recent durable event ids */
	/* protocol.md §7.3: the cursor at which a durable frame was too large, and how often */
	bool tl_valid;
	int64_t tl_cursor, tl_seq;
	int tl_count;

	/* user messages not yet written, encoded, oldest first */
	char **queue;
	size_t queue_head, queue_len, queue_cap;

	struct loop_timer *retry_timer, *stall_timer, *ping_timer;
	int64_t stall_from_us;          /* when the last frame came: the stall counts from there */

	/* the socket (issue 26): which one, the server's version, the legacy adapter */
	enum net_protocol proto;        /* of the current attempt: SESSION or EVENTS */
	bool prefer_events;             /* auto: the session socket's upgrade was refused */
	bool session_upgraded;          /* a session socket upgrade succeeded: stay on it */
	bool dial_waits;                /* the events socket waits for /server_info's answer */
	struct server_version version;  /* /server_info's; known false until it answers */
	struct legacy_ticket *probe;    /* the /server_info call under way, or NULL */
	struct legacy_ticket *fetch;    /* the REST catch-up call under way, or NULL */
	struct legacy_fetch *catchup;   /* the REST catch-up's state while it runs */
	enum legacy_auth auth;          /* how this attempt's key goes (EVENTS) */
	struct legacy_rx legacy;
};


/* session.c */
/* Opens the connection of the current attempt (resolving the host first if needed). */
void session_dial(struct session *s);
/* Reports a state change to on_status. */
void session_emit(struct session *s, enum session_state state, enum session_end end,
		  int64_t retry_us);
/* Sets the close reason of the current connection (text need not be NUL-terminated). */
void session_set_reason(struct session *s, const char *text, size_t len);
/* The current connection is over (closing: lws is already closing wsi). Decides between
 * failing, giving up and reconnecting. */
void session_conn_end(struct session *s, struct lws *wsi, bool closing);
/* Restarts the stall timer: called on anything received. */
void session_stall_rearm(struct session *s);

/* legacy.c */
/* True when v is known and older than major.minor.patch. */
bool legacy_version_before(const struct server_version *v, int major, int minor, int patch);
/* A ticket for one REST call of s; legacy_ticket_end in its callback. */
struct legacy_ticket *legacy_ticket_new(struct session *s);
/* The ticket's session, or NULL when it stopped waiting; frees the ticket either way. */
struct session *legacy_ticket_end(struct legacy_ticket *t);
/* Where s's REST calls go. */
struct rest_server legacy_server_of(const struct session *s);
/* Starts asking /server_info when the socket is not forced to the session one. */
void legacy_probe_start(struct session *s);
/* Chooses this attempt's socket and key path; true when the REST catch-up must run first. */
bool legacy_attempt_start(struct session *s);
/* The tail of the history through REST before the first legacy connection (legacy_fetch.c);
 * session_dial when done, or the attempt ends as a failed connection. */
void legacy_fetch_start(struct session *s);
/* The path of the legacy socket for this attempt (resume point and, before 1.12, the key);
 * chooses how the key goes. */
void legacy_build_path(struct session *s, struct buf *path);
/* A session socket upgrade refused with 403 (no such route upstream) in auto mode: switch to the
 * events socket. True when it did (the caller reconnects at once). */
bool legacy_fallback(struct session *s);
/* Opens the events socket once /server_info answered (its version picks the key path). */
void legacy_dial(struct session *s);
/* The legacy socket is open: its sync and the REST tail delivered. */
void legacy_on_open(struct session *s);
/* One message of the legacy socket, translated and delivered. */
void legacy_on_message(struct session *s, const char *json, size_t len);
/* Abandons REST calls under way (their answers are ignored); all: the probe too. */
void legacy_cancel(struct session *s, bool all);

/* session_rx.c */
/* One session-socket frame: decoded, deduplicated and handed on (the cursor moved first). */
void session_rx_deliver(struct session *s, const char *json, size_t len);
/* Forgets a partial message. */
void session_rx_reset(struct session *s);
/* protocol.md §7.3: counts a durable frame too large at the cursor; the second time, skips
 * it. A frame that may not be that durable (a progress frame) is never counted. */
void session_too_large(struct session *s);
/* LWS_CALLBACK_CLIENT_RECEIVE; returns -1 to close the connection. */
int session_on_receive(struct session *s, struct lws *wsi, const char *in, size_t len);

/* session_tx.c */
/* Appends an encoded message to the queue. */
void session_queue_push(struct session *s, char *msg);
/* Takes the oldest queued message (the caller frees it), or NULL. */
char *session_queue_pop(struct session *s);
/* LWS_CALLBACK_CLIENT_WRITEABLE; returns -1 to close the connection. */
int session_on_writeable(struct session *s, struct lws *wsi);

/* rest.c */
/* Starts METHOD server_url+path with the X-Session-API-Key header when api_key is set and
 * a JSON body when body is non-NULL; calls done exactly once (with an error when the loop is
 * destroyed first). Returns 0, or -1 without calling done (bad URL, loop closing, a path
 * that is not escaped). Only the table of api.c names paths. */
int rest_request(struct loop *loop, const char *server_url, const char *api_key, bool insecure,
		 const char *method, const char *path, const char *body, rest_done_fn done,
		 void *ctx);
/* The path of a call about one conversation: "/api/conversations/" + the id as one escaped
 * path segment + tail (a fixed path such as "/events", or ""). Appended to out. */
void rest_path_conversation(struct buf *out, const char *conversation_id, const char *tail);

/* url.c */
/* Appends s as one URL path segment or query value: everything but RFC 3986 unreserved
 * characters %-escaped. The one escaping of every server path tether builds. */
void url_append_escaped(struct buf *out, const char *s);

/* ------------------------------------------------------------ session policy */

/* The wait before reconnecting at backoff level (consecutive connections that made no
 * progress): 0 at level 0, then 0.5 s doubling to 30 s, with ±20% jitter from rnd. */
int64_t session_backoff_us(int level, uint32_t rnd);

#endif
