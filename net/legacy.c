/* Which socket a session speaks, and the legacy events socket's connections (issue 26):
 * /server_info asked beside the first connect, the session socket tried first, a 403 on its
 * upgrade (upstream's answer where no route matches) moving to /sockets/events; there the
 * key goes as the version takes it, the tail comes through REST first (legacy_fetch.c) and
 * every reconnect resends since the last durable's timestamp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

/* "auto", "session" or "events". */
const char *net_protocol_name(enum net_protocol p)
{
	return p == NET_PROTOCOL_SESSION ? "session" : p == NET_PROTOCOL_EVENTS ? "events" : "auto";
}

bool legacy_version_before(const struct server_version *v, int major, int minor, int patch)
{
	if (!v->known)
		return false;
	if (v->major != major)
		return v->major < major;
	if (v->minor != minor)
		return v->minor < minor;
	return v->patch < patch;
}

struct legacy_ticket *legacy_ticket_new(struct session *s)
{
	struct legacy_ticket *t = xcalloc(1, sizeof *t);
	t->s = s;
	return t;
}

/* The ticket's session, or NULL when it stopped waiting; frees the ticket either way. */
struct session *legacy_ticket_end(struct legacy_ticket *t)
{
	struct session *s = t->s;
	free(t);
	return s;
}

struct rest_server legacy_server_of(const struct session *s)
{
	return (struct rest_server){ .loop = s->loop, .url = s->cfg.server_url,
				     .api_key = s->cfg.api_key, .insecure = s->cfg.insecure };
}

static void version_known(struct session *s, const struct server_version *v)
{
	s->version = *v;
	net_log("session: the server's version is %s", s->version.text[0] ? s->version.text : "unknown");
	/* The version alone never skips the session socket: a build from main reports the
	 * last release's version while having newer routes (research §1.3, §5.6). The
	 * upgrade decides; the version says how the events socket takes the key. */
	if (legacy_version_before(&s->version, LEGACY_SESSION_MAJOR, LEGACY_SESSION_MINOR, 0))
		net_log("session: %s is older than the session socket (1.44): the events socket "
			"if its upgrade is refused", s->version.text);
}

static void probe_done(void *ctx, struct rest_result *r)
{
	struct session *s = legacy_ticket_end(ctx);
	if (!s)
		return;
	s->probe = NULL;
	if (r->outcome != REST_OK) {
		net_log("session: /server_info did not answer (%s): the socket is found by trying",
			r->raw && r->raw->error ? r->raw->error : "no version");
	} else {
		version_known(s, &r->version);
	}
	if (s->dial_waits) {
		s->dial_waits = false;
		session_dial(s);
	}
}

void legacy_dial(struct session *s)
{
	if (s->probe) {
		s->dial_waits = true;   /* the key path needs the version */
		return;
	}
	session_dial(s);
}

void legacy_probe_start(struct session *s)
{
	struct rest_server srv = legacy_server_of(s);
	struct rest_args a = {0};
	if (s->cfg.protocol == NET_PROTOCOL_SESSION || s->probe || s->version.known)
		return;
	s->probe = legacy_ticket_new(s);
	if (rest_call(&srv, REST_SERVER_INFO, &a, probe_done, s->probe) < 0) {
		free(s->probe);
		s->probe = NULL;
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
	/* Every connection, reconnects too: the socket has no end marker and sends its snapshot
	 * (the run's status) before its resend, so what was missed comes first through REST,
	 * delivered at the sync; the resend's copies are dropped by id. */
	return true;
}

enum legacy_auth legacy_auth_for(const struct server_version *v)
{
	if (legacy_version_before(v, 1, 12, 0))
		return LEGACY_AUTH_QUERY;
	/* Not from 1.18.1: a keyless server before 1.22.1 echoes the auth frame, key and
	 * all, in a ServerErrorEvent. */
	if (v->known && !legacy_version_before(v, 1, 22, 1))
		return LEGACY_AUTH_FRAME;
	return LEGACY_AUTH_HEADER;
}

void legacy_path(struct buf *path, const char *base_path, const char *conversation_id,
		 const char *since, const struct server_version *v, enum legacy_auth auth,
		 const char *api_key)
{
	bool old = legacy_version_before(v, 1, 15, 0);

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
