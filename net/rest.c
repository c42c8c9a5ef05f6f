/* REST calls (protocol.md §4) through the lws HTTP client on the loop's context: a read
 * started from another's answer (the follow-up: a search, then its count) is queued on that
 * one's kept-alive HTTP/1.1 connection, which closes once it has no follow-up (never left
 * idle for the server to close under a later request); controls connect on their own;
 * the body collected whole, done called exactly once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

#define REST_MAX_BODY ((size_t)64 << 20)

static int64_t rest_timeout_us = (int64_t)15 * 1000000;

struct rest_req {
	struct lws_dll2 node;           /* in loop->requests */
	struct loop *loop;
	struct lws *wsi;
	struct loop_timer *timer;       /* the request timeout, or the deferred failure */
	struct resolve *lookup;         /* the hostname lookup before connecting, or NULL */
	struct server_url url;
	char host[300];                 /* the Host header */
	char *method;
	char *path;                     /* base path + path */
	bool insecure;
	char *api_key;
	char *body;                     /* the request body, or NULL */
	size_t body_len;
	bool json;                      /* the caller gave a body */
	bool body_sent;
	bool counted;                   /* in open_gets: may lead a queue or ride one */
	int status;
	int64_t started_us;             /* when the connection was opened */
	struct buf response;
	char *error;                    /* set before the deferred failure fires */
	enum net_cause cause;           /* what kind of failure, once known */
	int redirect_status;            /* a 3xx answered with a Location */
	char *location;
	char *moved_to;
	rest_done_fn done;
	void *ctx;
};

/* Numeric GETs open now that may lead a queue or ride one, on every loop (one thread). */
static int open_gets;
/* The GET whose answer is being handed to its caller, and whether a GET to the same server
 * was started from there. Only such a follow-up (a search's count) is queued on a
 * connection, which is kept for it; a GET started beside one in flight connects on its own
 * (with the port in Host, so lws does not queue it): lws 4.1.6 leaks a request still queued
 * on another's connection when the loop is destroyed (a start-up answered 401 exits at
 * once), 840 bytes each. */
static const struct rest_req *answering;
static bool follow_up_queued;

static void req_free(struct rest_req *r)
{
	if (r->counted)
		open_gets--;
	lws_dll2_remove(&r->node);
	loop_timer_destroy(r->timer);
	resolve_cancel(r->lookup);
	free(r->method);
	free(r->path);
	str_wipe_free(r->api_key);
	free(r->body);
	free(r->error);
	free(r->location);
	free(r->moved_to);
	buf_fini(&r->response);
	free(r);
}

/* Calls done once and frees the request; its connection no longer reaches it. */
static void req_finish(struct rest_req *r, int status, const char *error)
{
	struct rest_response resp;
	rest_done_fn done = r->done;
	void *ctx = r->ctx;

	if (r->wsi)
		lws_set_opaque_user_data(r->wsi, NULL);
	r->wsi = NULL;
	memset(&resp, 0, sizeof(resp));
	resp.status = error ? 0 : status;
	resp.error = error;
	resp.cause = error ? (r->cause ? r->cause : NET_CAUSE_OTHER) : NET_CAUSE_NONE;
	resp.redirect_status = r->redirect_status;
	resp.location = r->location;
	resp.moved_to = r->moved_to;
	if (error)
		net_log("rest: %s %s: %s", r->method, r->path, error);
	else
		net_log("rest: %s %s: HTTP %d", r->method, r->path, status);
	if (!error) {
		resp.body = buf_cstr(&r->response);
		resp.body_len = r->response.len;
	}
	/* unlinked first: done may start another request or destroy the loop */
	lws_dll2_remove(&r->node);
	done(ctx, &resp);
	req_free(r);
}

static void req_timer_fired(void *arg)
{
	struct rest_req *r = arg;
	struct lws *wsi = r->wsi;

	if (r->error) {
		req_finish(r, 0, r->error);
		return;
	}
	r->wsi = NULL;
	net_wsi_abandon(wsi);
	req_finish(r, 0, "request timed out");
}

static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **p,
		      unsigned char *end)
{
	return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
					   (const unsigned char *)value, (int)strlen(value), p, end);
}

static int append_headers(struct rest_req *r, struct lws *wsi, unsigned char **p, size_t len)
{
	unsigned char *end = *p + len - 1;
	char clen[24];

	if (r->api_key && add_header(wsi, "X-Session-API-Key:", r->api_key, p, end))
		return -1;
	if (r->json && add_header(wsi, "Content-Type:", "application/json", p, end))
		return -1;
	snprintf(clen, sizeof(clen), "%zu", r->body_len);
	if (r->body && add_header(wsi, "Content-Length:", clen, p, end))
		return -1;
	if (r->body_len) {
		lws_client_http_body_pending(wsi, 1);
		lws_callback_on_writable(wsi);
	}
	return 0;
}

static int write_body(struct rest_req *r, struct lws *wsi)
{
	unsigned char *b;
	int n;

	if (r->body_sent || !r->body_len)
		return 0;
	b = xmalloc(LWS_PRE + r->body_len + 1);
	memcpy(b + LWS_PRE, r->body, r->body_len);
	n = lws_write(wsi, b + LWS_PRE, r->body_len, LWS_WRITE_HTTP_FINAL);
	free(b);
	r->body_sent = true;
	lws_client_http_body_pending(wsi, 0);
	return n < (int)r->body_len ? -1 : 0;
}

static int read_response(struct lws *wsi)
{
	char buffer[LWS_PRE + 16384];
	char *px = buffer + LWS_PRE;
	int lenx = (int)sizeof(buffer) - LWS_PRE;

	return lws_http_client_read(wsi, &px, &lenx) < 0 ? -1 : 0;
}

static void fail_with_text(struct rest_req *r, const char *prefix, const char *in, size_t len)
{
	char msg[200];

	if (in && len)
		snprintf(msg, sizeof(msg), "%s: %.*s", prefix, (int)strnlen(in, len), in);
	else
		snprintf(msg, sizeof(msg), "%s", prefix);
	req_finish(r, 0, msg);
}

/* A connection that ended before the response: lws closes one that got no answer after
 * NET_LWS_TIMEOUT_S with no word of why, so the clock tells a timeout from a close. */
static const char *closed_why(const struct rest_req *r)
{
	if (!r->status && clock_now_us() - r->started_us >= (int64_t)NET_LWS_TIMEOUT_S * 900000)
		return "timed out: no answer from the server within 5 s";
	return "connection closed before the response was complete";
}

/* A redirect, kept for the words: when Location is this request's route (query aside) under
 * another base, that base is the server the user meant. */
static void note_redirect(struct rest_req *r, const char *location, int status)
{
	const char *route = r->path + strlen(r->url.base_path);
	size_t rlen = strcspn(route, "?#"), llen = location ? strcspn(location, "?#") : 0;

	r->cause = NET_CAUSE_REDIRECT;
	r->redirect_status = status;
	if (!location)
		return;         /* a 3xx without Location: lws refuses it as a connection error */
	r->location = xstrdup(location);
	if (llen > rlen && !memcmp(location + llen - rlen, route, rlen))
		r->moved_to = xstrndup(location, llen - rlen);
}

int rest_lws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
		      void *in, size_t len)
{
	struct rest_req *r = lws_get_opaque_user_data(wsi);

	(void)user;
	if (!r) {
		switch (reason) {
		case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
		case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
		case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
			return -1;
		default:
			return 0;
		}
	}
	switch (reason) {
	case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
		return append_headers(r, wsi, (unsigned char **)in, len);
	case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
		return write_body(r, wsi);
	case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
		r->status = (int)lws_http_client_http_response(wsi);
		return 0;
	case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
		return read_response(wsi);
	case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
		if (r->response.len + len > REST_MAX_BODY) {
			req_finish(r, 0, "response body too large");
			return -1;
		}
		buf_append(&r->response, in, len);
		return 0;
	case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
		answering = r;
		follow_up_queued = false;
		req_finish(r, r->status, NULL);
		answering = NULL;
		/* kept for the follow-up queued on it (lws hands it the connection), else closed:
		 * no connection is left idle for the server to close under a later request */
		return follow_up_queued ? 0 : -1;
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR: {
		struct buf why;
		unsigned int answered = wsi ? lws_http_client_http_response(wsi) : 0;

		if (answered >= 300 && answered < 400) {
			note_redirect(r, NULL, (int)answered);
			fail_with_text(r, "request failed", in, len);
			return 0;
		}
		buf_init(&why);
		r->cause = net_failure_describe(wsi, in, in ? strnlen(in, len) : 0, &why);
		if (r->cause == NET_CAUSE_OTHER)
			fail_with_text(r, "request failed", in, len);
		else
			req_finish(r, 0, buf_cstr(&why));
		buf_fini(&why);
		return 0;
	}
	case LWS_CALLBACK_CLIENT_HTTP_REDIRECT: {
		/* never followed: the API key would go wherever it points */
		struct buf why;

		buf_init(&why);
		buf_printf(&why, "HTTP %d redirect to ", (int)len);
		url_describe(in ? in : "", &why);
		buf_puts(&why, " (not followed)");
		note_redirect(r, in ? in : "", (int)len);
		req_finish(r, 0, buf_cstr(&why));
		buf_fini(&why);
		return -1;
	}
	case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
		req_finish(r, 0, closed_why(r));
		return 0;
	case LWS_CALLBACK_WSI_DESTROY:
		/* freed without either callback above (lws's own timeouts): never keep it */
		if (r->wsi == wsi)
			req_finish(r, 0, closed_why(r));
		return 0;
	default:
		return 0;
	}
}

/* Opens the connection to address (numeric): lws resolves it without a query. */
static void req_open(struct rest_req *r, const char *address)
{
	struct lws_client_connect_info ci;

	memset(&ci, 0, sizeof(ci));
	r->started_us = clock_now_us();
	ci.context = r->loop->ctx;
	ci.vhost = loop_vhost(r->loop, r->url.tls);
	ci.address = address;
	ci.port = r->url.port;
	ci.path = r->path;
	/* the Host header, and for TLS the SNI and certificate name (see session_open). lws
	 * 4.1.6 queues a request on a live connection (LCCSCF_PIPELINE) only when that one's
	 * host equals the new one's address: a GET to a numeric server goes without the port
	 * in Host (upstream never reads it), so that a GET started from its answer (the
	 * follow-up: a search, then its count) is queued on it. A POST (a control) connects
	 * on its own: it never waits behind a slow read. */
	bool numeric_get = !strcmp(r->url.host, address) && !strcmp(r->method, "GET");
	/* lws takes the first live connection whose Host matches, not the answering one: a
	 * follow-up is queued only when the answering GET's is the only such connection (else
	 * it rode another read's, closed under it when that one was answered). */
	bool follow_up = numeric_get && answering && answering->counted && open_gets == 1 &&
			 answering->url.port == r->url.port && answering->url.tls == r->url.tls &&
			 !strcmp(answering->url.host, r->url.host);
	numeric_get = numeric_get && (follow_up || open_gets == 0);
	if (follow_up)
		follow_up_queued = true;
	ci.host = numeric_get ? address : r->host;
	ci.method = r->method;
	ci.alpn = "http/1.1";
	ci.local_protocol_name = NET_PROTO_REST;
	ci.opaque_user_data = r;
	ci.pwsi = &r->wsi;      /* known before any callback of the connection runs */
	/* a numeric GET may lead a queue, or join the queue of one in flight */
	ci.ssl_connection = numeric_get ? LCCSCF_PIPELINE : 0;
	if (numeric_get && !r->counted) {
		r->counted = true;
		open_gets++;
	}
	if (r->url.tls) {
		ci.ssl_connection |= LCCSCF_USE_SSL;
		if (r->insecure)
			ci.ssl_connection |= LCCSCF_ALLOW_SELFSIGNED |
					     LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK |
					     LCCSCF_ALLOW_EXPIRED;
	}
	r->wsi = ci.vhost ? lws_client_connect_via_info(&ci) : NULL;
	if (!ci.vhost) {
		r->error = xstrdup("cannot set up TLS (libwebsockets made no client context)");
		loop_timer_schedule(r->timer, 0);
	} else if (!r->wsi) {
		/* done must not run inside rest_request: fail on the next loop turn */
		r->error = xstrdup("cannot start the request (address lookup or socket failed)");
		loop_timer_schedule(r->timer, 0);
	}
}

/* The lookup of a hostname ended: connect, or fail the request. */
static void req_resolved(void *ctx, const char *address, const char *error, bool final)
{
	struct rest_req *r = ctx;

	r->lookup = NULL;
	if (!address) {
		r->cause = final ? NET_CAUSE_DNS : NET_CAUSE_OTHER;
		req_finish(r, 0, error);
		return;
	}
	req_open(r, address);
}

/* Starts METHOD server_url+path; calls done exactly once. Returns -1 (and never calls
 * done) only when server_url does not parse. */
int rest_request(struct loop *loop, const char *server_url, const char *api_key, bool insecure,
		 const char *method, const char *path, const char *body, rest_done_fn done,
		 void *ctx)
{
	struct server_url url;
	struct rest_req *r;
	struct buf full;
	char cached[64];
	const char *address;

	if (!loop || loop->closing || !server_url || server_url_parse(server_url, &url))
		return -1;
	/* paths come escaped (rest_path_conversation): a raw control, space or fragment mark
	 * would reach the request line */
	for (const char *p = path ? path : ""; *p; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f || *p == '#')
			return -1;
	r = xcalloc(1, sizeof(*r));
	r->loop = loop;
	r->done = done;
	r->ctx = ctx;
	r->api_key = api_key ? xstrdup(api_key) : NULL;
	if (body) {
		r->body = xstrdup(body);
		r->body_len = strlen(body);
		r->json = true;
	} else if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		r->body = xstrdup("");  /* an explicit Content-Length: 0 */
	}
	buf_init(&r->response);
	r->timer = loop_timer_create(loop, req_timer_fired, r);
	lws_dll2_add_tail(&r->node, &loop->requests);

	r->url = url;
	r->insecure = insecure;
	r->method = xstrdup(method);
	snprintf(r->host, sizeof(r->host), strchr(url.host, ':') ? "[%s]:%d" : "%s:%d",
		 url.host, url.port);
	buf_init(&full);
	buf_puts(&full, url.base_path);
	buf_puts(&full, path && *path ? path : "/");
	r->path = xstrdup(buf_cstr(&full));
	buf_fini(&full);
	/* the timeout covers the lookup too */
	loop_timer_schedule(r->timer, rest_timeout_us);
	/* lws would resolve a hostname with a blocking getaddrinfo (stack.md P8) */
	address = resolve_now(url.host, cached, sizeof(cached));
	if (address)
		req_open(r, address);
	else
		r->lookup = resolve_start(loop, url.host, req_resolved, r);
	return 0;
}

/* "/api/conversations/" + the escaped id + tail. */
void rest_path_conversation(struct buf *out, const char *conversation_id, const char *tail)
{
	buf_puts(out, "/api/conversations/");
	url_append_escaped(out, conversation_id ? conversation_id : "");
	buf_puts(out, tail ? tail : "");
}

/* Sets the timeout of requests started from now on (tests). */
void rest_set_timeout_us(int64_t us)
{
	rest_timeout_us = us;
}

static int forget_one(struct lws_dll2 *d, void *user)
{
	struct rest_req *r = lws_container_of(d, struct rest_req, node);

	(void)user;
	req_finish(r, 0, "the event loop was closed");
	return 0;
}

/* Called by loop_destroy: pending requests end with an error, so done still runs exactly once
 * and its owner can free what it gave as ctx. */
void rest_detach_all(struct loop *loop)
{
	lws_dll2_foreach_safe(&loop->requests, NULL, forget_one);
}
