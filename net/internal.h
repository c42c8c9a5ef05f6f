/* net private: the loop's internals shared by loop.c, session.c and rest.c.
 * Only the net sources include this; it is the one place lws types meet tether types. */
#ifndef TETHER_NET_INTERNAL_H
#define TETHER_NET_INTERNAL_H

#include <libwebsockets.h>

#include "net.h"

/* Protocol names on the loop's one vhost. */
#define NET_PROTO_SESSION "tether-session"
#define NET_PROTO_REST "tether-rest"
#define NET_PROTO_FD "tether-fd"

struct loop {
	struct lws_context *ctx;
	struct lws_vhost *vh;
	bool quit;
	/* Every object below is detached by loop_destroy so that nothing touches the
	 * freed context afterwards (their owners may outlive the loop). */
	lws_dll2_owner_t timers;        /* struct loop_timer */
	lws_dll2_owner_t watches;       /* struct fd_watch */
	lws_dll2_owner_t sessions;      /* struct session */
	lws_dll2_owner_t requests;      /* struct rest_req */
};

struct loop_timer {
	lws_sorted_usec_list_t sul;     /* first: lws_container_of works either way */
	struct lws_dll2 node;           /* in loop->timers */
	struct loop *loop;              /* NULL once the loop is gone */
	void (*cb)(void *arg);
	void *arg;
};

/* The lws protocol callbacks; loop.c lists them on the vhost. */
int session_lws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
			 void *in, size_t len);
int rest_lws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
		      void *in, size_t len);

/* Called by loop_destroy: the sessions and requests on loop forget every lws object and
 * never call back again (a session can still be destroyed afterwards). */
void session_detach_all(struct loop *loop);
void rest_detach_all(struct loop *loop);

/* Drops wsi without further callbacks reaching its owner. Safe inside or outside its
 * own callbacks: lws closes it on the next service turn. */
void net_wsi_abandon(struct lws *wsi);

/* ------------------------------------------------------------ seen ids (seen.c) */

#define SEEN_CAPACITY 4096
#define SEEN_BUCKETS 8192

struct seen_entry;

/* A bounded set of recent durable event ids (protocol.md §7.1 rule 4). */
struct seen_ids {
	struct seen_entry *ring[SEEN_CAPACITY];     /* oldest at next once full */
	struct seen_entry *buckets[SEEN_BUCKETS];
	size_t next;
	size_t count;
};

/* Makes an empty set. */
void seen_init(struct seen_ids *set);
/* Frees every id. */
void seen_fini(struct seen_ids *set);
/* True when id was added and not yet evicted. */
bool seen_contains(const struct seen_ids *set, const char *id);
/* Adds id (a duplicate is ignored), evicting the oldest id when full. */
void seen_add(struct seen_ids *set, const char *id);

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

/* ------------------------------------------------------------ session policy */

/* The wait before reconnecting at backoff level (consecutive connections that made no
 * progress): 0 at level 0, then 0.5 s doubling to 30 s, with ±20% jitter from rnd. */
int64_t session_backoff_us(int level, uint32_t rnd);

/* Appends s to out with everything but RFC 3986 unreserved characters %-escaped. */
void net_append_escaped(struct buf *out, const char *s);

#endif
