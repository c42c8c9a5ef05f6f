/* Which socket a session speaks, and the legacy events socket's connections (issue 26):
 * /server_info asked beside the first connect, the session socket tried unless the version
 * is older than it, a refused upgrade (upstream answers 403 where no route matches) falling
 * back to /sockets/events; there the key goes as that version takes it, the history's tail
 * comes through REST first and every reconnect resends since the last durable's timestamp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

/* A REST call's link back to its session, cut when the session stops waiting for it. */
struct legacy_ticket {
	struct session *s;
};

/* The REST catch-up of a first connection: the count, then pages newest first. */
struct legacy_fetch {
	int64_t count;                  /* events/count; -1 unknown */
	int64_t want;                   /* events after the cursor; -1 every one */
	char *page_id;
	char **events;                  /* newest first */
	size_t len, cap;
};

const char *net_protocol_name(enum net_protocol p)
{
	return p == NET_PROTOCOL_SESSION ? "session" : p == NET_PROTOCOL_EVENTS ? "events" : "auto";
}

static bool version_before(const struct server_version *v, int major, int minor, int patch)
{
	if (!v->known)
		return false;
	if (v->major != major)
		return v->major < major;
	if (v->minor != minor)
		return v->minor < minor;
	return v->patch < patch;
}

static struct legacy_ticket *ticket_new(struct session *s)
{
	struct legacy_ticket *t = xcalloc(1, sizeof *t);
	t->s = s;
	return t;
}

/* The ticket's session, or NULL when it stopped waiting; frees the ticket either way. */
static struct session *ticket_end(struct legacy_ticket *t)
{
	struct session *s = t->s;
	free(t);
	return s;
}

static struct rest_server server_of(const struct session *s)
{
	return (struct rest_server){ .loop = s->loop, .url = s->cfg.server_url,
				     .api_key = s->cfg.api_key, .insecure = s->cfg.insecure };
}

static void probe_done(void *ctx, struct rest_result *r)
{
	struct session *s = ticket_end(ctx);
	if (!s)
		return;
	s->probe = NULL;
	if (r->outcome != REST_OK) {
		net_log("session: /server_info did not answer (%s): the socket is found by trying",
			r->raw && r->raw->error ? r->raw->error : "no version");
		return;
	}
	s->version = r->version;
	net_log("session: the server's version is %s", s->version.text[0] ? s->version.text : "unknown");
	/* The version alone never skips the session socket: a build from main reports the
	 * last release's version while having newer routes (research §1.3, §5.6). The
	 * upgrade decides; the version says how the events socket takes the key. */
	if (version_before(&s->version, LEGACY_SESSION_MAJOR, LEGACY_SESSION_MINOR, 0))
		net_log("session: %s is older than the session socket (1.44): the events socket "
			"if its upgrade is refused", s->version.text);
}

void legacy_probe_start(struct session *s)
{
	struct rest_server srv = server_of(s);
	struct rest_args a = {0};
	if (s->cfg.protocol == NET_PROTOCOL_SESSION || s->probe || s->version.known)
		return;
	s->probe = ticket_new(s);
	if (rest_call(&srv, REST_SERVER_INFO, &a, probe_done, s->probe) < 0) {
		free(s->probe);
		s->probe = NULL;
	}
}

static void fetch_free(struct legacy_fetch *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->len; i++)
		free(f->events[i]);
	free(f->events);
	free(f->page_id);
	free(f);
}

void legacy_cancel(struct session *s, bool all)
{
	if (s->fetch)
		s->fetch->s = NULL;
	s->fetch = NULL;
	fetch_free(s->catchup);
	s->catchup = NULL;
	if (all && s->probe) {
		s->probe->s = NULL;
		s->probe = NULL;
	}
}

/* The catch-up failed: the attempt ends as a connection that could not start would. */
static void fetch_failed(struct session *s, const struct rest_result *r)
{
	char why[256];
	const char *said = r->detail ? r->detail : r->raw && r->raw->error ? r->raw->error : NULL;

	legacy_cancel(s, false);
	if (r->outcome == REST_AUTH)
		s->http_status = 401;
	else if (r->outcome == REST_NOT_FOUND)
		s->http_status = 404;
	s->cause = r->outcome == REST_NO_ANSWER && r->raw ? r->raw->cause : NET_CAUSE_NONE;
	snprintf(why, sizeof why, "the history could not be read over REST (%s%s%.160s)",
		 rest_call_name(r->call), said ? ": " : "", said ? said : "");
	session_set_reason(s, why, strlen(why));
	session_conn_end(s, NULL, true);
}

/* Everything fetched: the cursor below the tail, the tail kept for after the sync, and the
 * newest event's timestamp as where the socket resends from. */
static void fetch_finish(struct session *s)
{
	struct legacy_fetch *f = s->catchup;
	size_t tail = f->want < 0 || (uint64_t)f->want > f->len ? f->len : (size_t)f->want;
	/* every event read: the log as REST walked it, whatever the count said before */
	int64_t end = f->count >= 0 && f->want >= 0 ? f->count : (int64_t)f->len;
	struct legacy_peek p;
	struct codec_error err;

	s->has_cursor = true;
	s->cursor = end - 1 - (int64_t)tail;
	for (size_t i = f->len; i-- > 0;) {
		if (i < tail) {
			legacy_rx_tail_push(&s->legacy, f->events[i]);
		} else if (legacy_peek_decode(f->events[i], strlen(f->events[i]), &p, &err) == 0) {
			legacy_rx_known(&s->legacy, p.id, NULL);
			legacy_peek_fini(&p);
		}
	}
	if (f->len && legacy_peek_decode(f->events[0], strlen(f->events[0]), &p, &err) == 0) {
		legacy_rx_known(&s->legacy, NULL, p.timestamp);
		legacy_peek_fini(&p);
	}
	net_log("session: history through REST: %zu events, %zu after the cursor %lld", f->len,
		tail, (long long)s->cursor);
	legacy_cancel(s, false);
	session_dial(s);
}

static void fetch_page(struct session *s);

static void page_done(void *ctx, struct rest_result *r)
{
	struct session *s = ticket_end(ctx);
	if (!s)
		return;
	s->fetch = NULL;
	if (r->outcome != REST_OK) {
		fetch_failed(s, r);
		return;
	}
	struct legacy_fetch *f = s->catchup;
	for (size_t i = 0; i < r->events.count; i++) {
		char *json = event_page_event_json(&r->events, i);
		if (!json)
			continue;
		if (f->len == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 64;
			f->events = xrealloc(f->events, f->cap * sizeof *f->events);
		}
		f->events[f->len++] = json;
	}
	free(f->page_id);
	f->page_id = r->events.next_page_id && r->events.count ? xstrdup(r->events.next_page_id) : NULL;
	/* one event at least: its timestamp is where the socket resumes */
	bool enough = f->want >= 0 && f->len >= (size_t)(f->want > 0 ? f->want : 1);
	if (enough || !f->page_id)
		fetch_finish(s);
	else
		fetch_page(s);
}

static void fetch_page(struct session *s)
{
	struct legacy_fetch *f = s->catchup;
	struct rest_server srv = server_of(s);
	int64_t left = f->want < 0 ? 100 : (f->want > 0 ? f->want : 1) - (int64_t)f->len;
	struct event_query q = { .page_id = f->page_id, .limit = left > 100 ? 100 : (int)left,
				 .order = EVENT_ORDER_NEWEST_FIRST };
	struct rest_args a = { .id = s->cfg.conversation_id, .query = &q };

	s->fetch = ticket_new(s);
	if (rest_call(&srv, REST_SEARCH_EVENTS, &a, page_done, s->fetch) < 0) {
		struct rest_result r = { .call = REST_SEARCH_EVENTS, .outcome = REST_NO_ANSWER };
		free(s->fetch);
		s->fetch = NULL;
		fetch_failed(s, &r);
	}
}

static void count_done(void *ctx, struct rest_result *r)
{
	struct session *s = ticket_end(ctx);
	if (!s)
		return;
	s->fetch = NULL;
	struct legacy_fetch *f = s->catchup;
	if (r->outcome == REST_AUTH || r->outcome == REST_NOT_FOUND) {
		fetch_failed(s, r);
		return;
	}
	/* Without a count every event is read (the cursor cannot be placed); so is the whole
	 * history, whose oldest events a count made before the walk could leave out. */
	f->count = r->outcome == REST_OK && r->count >= 0 ? r->count : -1;
	if (f->count < 0 || (s->has_cursor && s->cursor < 0))
		f->want = -1;
	else if (!s->has_cursor)
		f->want = 0;            /* --no-history: live from the log's end */
	else
		f->want = s->cursor + 1 >= f->count ? 0 : f->count - 1 - s->cursor;
	if (f->count == 0 && f->want >= 0) {
		fetch_finish(s);
		return;
	}
	fetch_page(s);
}

void legacy_fetch_start(struct session *s)
{
	struct rest_server srv = server_of(s);
	struct rest_args a = { .id = s->cfg.conversation_id };

	s->catchup = xcalloc(1, sizeof *s->catchup);
	s->catchup->count = -1;
	s->fetch = ticket_new(s);
	if (rest_call(&srv, REST_COUNT_EVENTS, &a, count_done, s->fetch) < 0) {
		struct rest_result r = { .call = REST_COUNT_EVENTS, .outcome = REST_NO_ANSWER };
		free(s->fetch);
		s->fetch = NULL;
		fetch_failed(s, &r);
	}
}

bool legacy_attempt_start(struct session *s)
{
	if (s->cfg.protocol != NET_PROTOCOL_AUTO)
		s->proto = s->cfg.protocol;
	else
		s->proto = s->prefer_events && !s->session_upgraded ? NET_PROTOCOL_EVENTS
								    : NET_PROTOCOL_SESSION;
	if (s->proto != NET_PROTOCOL_EVENTS)
		return false;
	legacy_rx_connect(&s->legacy);
	return !s->legacy.last_ts[0];  /* else resent since then, deduplicated by id */
}

enum legacy_auth legacy_auth_for(const struct server_version *v)
{
	if (version_before(v, 1, 12, 0))
		return LEGACY_AUTH_QUERY;
	/* Not from 1.18.1: a keyless server before 1.22.1 echoes the auth frame, key and
	 * all, in a ServerErrorEvent. */
	if (v->known && !version_before(v, 1, 22, 1))
		return LEGACY_AUTH_FRAME;
	return LEGACY_AUTH_HEADER;
}

void legacy_path(struct buf *path, const char *base_path, const char *conversation_id,
		 const char *since, const struct server_version *v, enum legacy_auth auth,
		 const char *api_key)
{
	bool old = version_before(v, 1, 15, 0);

	buf_puts(path, base_path);
	buf_puts(path, "/sockets/events/");
	url_append_escaped(path, conversation_id);
	if (!since || !since[0] || old) {
		/* nothing seen yet (an empty log), or a server without since: all, deduped */
		buf_puts(path, old ? "?resend_all=true" : "?resend_mode=all");
	} else {
		buf_puts(path, "?resend_mode=since&after_timestamp=");
		url_append_escaped(path, since);
	}
	if (auth == LEGACY_AUTH_QUERY && api_key) {
		buf_puts(path, "&session_api_key=");
		url_append_escaped(path, api_key);
	}
}

void legacy_build_path(struct session *s, struct buf *path)
{
	/* chosen as the socket opens: by then /server_info has answered (REST runs first) */
	s->auth = legacy_auth_for(&s->version);
	if (s->auth == LEGACY_AUTH_QUERY && s->cfg.api_key)
		net_log("session: %s takes the key only in the URL (proxies may log it)",
			s->version.text);
	legacy_path(path, s->url.base_path, s->cfg.conversation_id, s->legacy.last_ts, &s->version,
		    s->auth, s->cfg.api_key);
}

bool legacy_fallback(struct session *s)
{
	if (s->cfg.protocol != NET_PROTOCOL_AUTO || s->proto != NET_PROTOCOL_SESSION ||
	    s->session_upgraded || s->http_status != 403)
		return false;
	net_log("session: the server refused the session socket (HTTP %d): the events socket "
		"instead", s->http_status);
	s->prefer_events = true;
	return true;
}

static int legacy_emit(void *ctx, const char *json, size_t len)
{
	struct session *s = ctx;
	struct lws *wsi = s->wsi;
	session_rx_deliver(s, json, len);
	return s->wsi == wsi && s->running ? 0 : -1;
}

static int64_t legacy_cursor(void *ctx)
{
	const struct session *s = ctx;
	return s->has_cursor ? s->cursor : -1;
}

void legacy_on_message(struct session *s, const char *json, size_t len)
{
	const struct legacy_ops ops = { .ctx = s, .emit = legacy_emit, .cursor = legacy_cursor };
	legacy_rx_feed(&s->legacy, json, len, &ops);
}

void legacy_on_open(struct session *s)
{
	const struct legacy_ops ops = { .ctx = s, .emit = legacy_emit, .cursor = legacy_cursor };
	legacy_rx_open(&s->legacy, &ops);
}
