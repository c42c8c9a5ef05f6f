/* net private: the legacy events socket (/sockets/events/{id}, issue 26) as an adapter. Its
 * frames are bare events; they become the session socket's frames (sync, durable with a seq
 * assigned here, transient snapshot, a preview stream for identity-less deltas, error), so
 * nothing above net/ knows which socket it is on. No lws here: tests/net drive it alone. */
#ifndef TETHER_LEGACY_INTERNAL_H
#define TETHER_LEGACY_INTERNAL_H

#include "net.h"

/* The first release with the session socket: the mirror's last tag (v1.43.1) has none;
 * upstream's session socket PR (#4807) landed after it. Older versions go to events. */
#define LEGACY_SESSION_MAJOR 1
#define LEGACY_SESSION_MINOR 44

/* How the legacy socket gets the key, by the server's version (research §5.1). */
enum legacy_auth {
	LEGACY_AUTH_FRAME,              /* {"type":"auth",…} first (1.22.1+; the session socket) */
	LEGACY_AUTH_HEADER,             /* X-Session-API-Key (1.12.0+, and an unknown version) */
	LEGACY_AUTH_QUERY,              /* ?session_api_key= (before 1.12.0: in proxies' logs) */
};

/* The key path a server of version v takes (unknown: the header, which 1.12+ reads and a
 * keyless server ignores). */
enum legacy_auth legacy_auth_for(const struct server_version *v);
/* Appends the legacy socket's path: resend since the timestamp since (NULL or "": all;
 * resend_all before 1.15), and the key in the query when auth says so. */
void legacy_path(struct buf *path, const char *base_path, const char *conversation_id,
		 const char *since, const struct server_version *v, enum legacy_auth auth,
		 const char *api_key);

/* What one legacy frame is. */
enum legacy_class {
	LEGACY_EVENT,           /* a logged event: durable */
	LEGACY_SNAPSHOT,        /* ConversationStateUpdateEvent full_state: never logged */
	LEGACY_DELTA,           /* StreamingDeltaEvent: no identity, never logged */
	LEGACY_ERROR,           /* ServerErrorEvent: a bad inbound frame */
};

/* The fields of a legacy frame the adapter acts on (codec_legacy.c); strings owned. */
struct legacy_peek {
	enum legacy_class cls;
	char *id;
	char *timestamp;        /* as sent: naive server-local ISO 8601 */
	bool from_agent;        /* source "agent" */
	bool ends_run;          /* a status other than running, or an error event */
	char *content;          /* LEGACY_DELTA: text (NULL: none or empty) */
	char *reasoning;        /* LEGACY_DELTA: reasoning_content (NULL: none or empty) */
	char *code, *detail;    /* LEGACY_ERROR */
};

/* Reads json[0..len) as a legacy frame. Returns 0 (free with legacy_peek_fini), or -1 with
 * *err (not JSON, not an object, no kind). */
int legacy_peek_decode(const char *json, size_t len, struct legacy_peek *out,
		       struct codec_error *err);
/* Frees what legacy_peek_decode allocated. */
void legacy_peek_fini(struct legacy_peek *p);
/* The event at index i of an events/search page as compact JSON. Caller frees. */
char *event_page_event_json(const struct event_page *p, size_t i);

/* How the adapter hands frames on: emit takes one session-socket frame (0: go on, -1: the
 * session stopped); cursor is the session's resume cursor (the last seq delivered). */
struct legacy_ops {
	void *ctx;
	int (*emit)(void *ctx, const char *json, size_t len);
	int64_t (*cursor)(void *ctx);
};

/* The adapter's state across the connections of one session. */
struct legacy_rx {
	struct recent_ids seen;         /* event ids delivered or known from REST */
	char last_ts[64];               /* the last durable's timestamp: where since resumes */
	bool synced;                    /* this connection's sync was emitted */
	char **tail;                    /* REST events to deliver after the sync, oldest first */
	size_t tail_len, tail_cap;
	/* the preview stream of identity-less deltas */
	bool preview_open;
	unsigned preview_serial;
	char preview_id[32];
	int64_t preview_order;
	char retired_ts[64];            /* a delta dated at or before this is late: dropped */
};

/* Initialises an empty adapter. */
void legacy_rx_init(struct legacy_rx *l);
/* Frees what the adapter holds. */
void legacy_rx_fini(struct legacy_rx *l);
/* A new connection starts (nothing is emitted yet). */
void legacy_rx_connect(struct legacy_rx *l);
/* The connection is open: the sync, then the REST tail (once per connection; a frame before
 * it brings it too). Returns -1 when emit said stop. */
int legacy_rx_open(struct legacy_rx *l, const struct legacy_ops *ops);
/* Keeps one REST event (JSON) to deliver after the next sync, as the socket's would be. */
void legacy_rx_tail_push(struct legacy_rx *l, const char *json);
/* Notes an event id known from REST but before the cursor: never delivered. */
void legacy_rx_known(struct legacy_rx *l, const char *id, const char *timestamp);
/* One legacy frame in: the session frames it stands for out through ops. Returns -1 when
 * emit said stop, else 0. A frame that does not decode is said as an error frame. */
int legacy_rx_feed(struct legacy_rx *l, const char *json, size_t len,
		   const struct legacy_ops *ops);

#endif
