/* The session WebSocket (protocol.md §1, §3, §7): one connection at a time, resumed from
 * the cursor after every drop, durable frames delivered once and in order.
 *
 * User messages are written once and never re-sent: the durable echo (a MessageEvent with
 * source "user") is the only acknowledgement the server gives, so a message written to a
 * socket that then drops may or may not have arrived, and re-sending could duplicate it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

#define DEFAULT_MAX_MESSAGE ((size_t)4 * 1024 * 1024 + 64 * 1024)
#define BACKOFF_BASE_US 500000
#define BACKOFF_MAX_US 30000000
/* A synced connection that lived this long counts as progress even without new frames. */
#define PROGRESS_US ((int64_t)10 * 1000000)

static void session_connect(struct session *s);

/* The wait before reconnecting at backoff level (0 right after progress). */
int64_t session_backoff_us(int level, uint32_t rnd)
{
	int64_t us = BACKOFF_BASE_US;
	int64_t span;

	if (level <= 0)
		return 0;
	for (int i = 1; i < level && us < BACKOFF_MAX_US; i++)
		us *= 2;
	if (us > BACKOFF_MAX_US)
		us = BACKOFF_MAX_US;
	/* ±20%: rnd spread over [-span, +span] */
	span = us / 5;
	return us - span + (int64_t)(rnd % (uint32_t)(2 * span + 1));
}

static const char *const end_names[] = {
	[SESSION_END_NONE] = "-", [SESSION_END_STOPPED] = "stopped",
	[SESSION_END_AUTH] = "authentication", [SESSION_END_NOT_FOUND] = "not found",
	[SESSION_END_BAD_URL] = "bad URL", [SESSION_END_GAVE_UP] = "gave up",
};

/* The --log line of a state change. */
static void session_log(const struct session *s, const struct session_status *st)
{
	const char *why = st->reason ? st->reason : "";

	switch (st->state) {
	case SESSION_CONNECTING:
		if (st->has_after_seq)
			net_log("session: attempt %d: connecting to %s:%d (after_seq %lld) on the %s "
				"socket", st->attempt, s->url.host, s->url.port,
				(long long)st->after_seq, net_protocol_name(st->protocol));
		else
			net_log("session: attempt %d: connecting to %s:%d (live only) on the %s socket",
				st->attempt, s->url.host, s->url.port, net_protocol_name(st->protocol));
		break;
	case SESSION_OPEN:
		net_log("session: attempt %d: open", st->attempt);
		break;
	case SESSION_SYNCED:
		net_log("session: attempt %d: synced (cursor %lld)", st->attempt, (long long)s->cursor);
		break;
	case SESSION_CLOSED:
		net_log("session: attempt %d: closed, code %d: %s", st->attempt, st->close_code, why);
		break;
	case SESSION_RECONNECTING:
		net_log("session: reconnecting in %.3f s as attempt %d (backoff level %d)",
			(double)st->retry_in_us / 1e6, st->attempt, s->backoff_level);
		break;
	case SESSION_GAVE_UP:
		net_log("session: gave up after %d failed attempts: %s", st->attempt, why);
		break;
	case SESSION_FAILED:
		net_log("session: failed (%s), not retried: %s", end_names[st->end], why);
		break;
	}
}

void session_emit(struct session *s, enum session_state state, enum session_end end,
		  int64_t retry_us)
{
	struct session_status st;

	memset(&st, 0, sizeof(st));
	st.state = state;
	st.attempt = s->attempt;
	st.end = end;
	st.retry_in_us = retry_us;
	st.protocol = s->proto;
	if (state == SESSION_CONNECTING) {
		st.has_after_seq = s->has_cursor;
		st.after_seq = s->has_cursor ? s->cursor : 0;
	}
	if (state == SESSION_CLOSED || state == SESSION_FAILED || state == SESSION_GAVE_UP) {
		st.close_code = s->close_code;
		st.reason = s->close_reason[0] ? s->close_reason : NULL;
		st.http_status = s->http_status != 101 ? s->http_status : 0;
		st.cause = s->cause;
	}
	if (state == SESSION_RECONNECTING)
		st.attempt = s->failures + 1;
	if (state == SESSION_GAVE_UP)
		st.attempt = s->failures;
	session_log(s, &st);
	if (s->h.on_status)
		s->h.on_status(s->h.ctx, &st);
}

void session_set_reason(struct session *s, const char *text, size_t len)
{
	if (len >= sizeof(s->close_reason))
		len = sizeof(s->close_reason) - 1;
	memcpy(s->close_reason, text, len);
	s->close_reason[len] = '\0';
}

/* Why a close must not be retried, or SESSION_END_NONE. */
static enum session_end fatal_end(const struct session *s)
{
	if (s->close_code == 4001 || s->http_status == 401 || s->http_status == 403)
		return SESSION_END_AUTH;
	if (s->close_code == 4004 || s->http_status == 404)
		return SESSION_END_NOT_FOUND;
	return SESSION_END_NONE;
}

/* The current connection is over (closing: lws is already closing wsi). Decides between
 * failing, giving up and reconnecting. */
void session_conn_end(struct session *s, struct lws *wsi, bool closing)
{
	bool was_synced = s->phase == PHASE_SYNCED;
	bool frame_too_large;
	int64_t delay;
	uint32_t rnd = 0;
	enum session_end end;

	if (wsi) {
		if (closing)
			lws_set_opaque_user_data(wsi, NULL);
		else
			net_wsi_abandon(wsi);
	}
	s->wsi = NULL;
	legacy_cancel(s, false);
	resolve_cancel(s->lookup);
	s->lookup = NULL;
	s->phase = PHASE_IDLE;
	s->stopping = false;
	loop_timer_cancel(s->stall_timer);
	loop_timer_cancel(s->ping_timer);
	session_rx_reset(s);
	/* A refused session upgrade is not a failure: the same attempt goes on at once on the
	 * events socket, said in --log only (its connecting status names the socket). */
	if (s->running && legacy_fallback(s)) {
		loop_timer_schedule(s->retry_timer, 0);
		return;
	}
	if (!s->close_reason[0] && !s->close_code)
		session_set_reason(s, "connection closed", strlen("connection closed"));
	if (!was_synced) {
		if (s->close_code)
			snprintf(s->last_failure, sizeof(s->last_failure), "close %d: %.200s",
				 s->close_code, s->close_reason);
		else
			snprintf(s->last_failure, sizeof(s->last_failure), "%s", s->close_reason);
	}
	session_emit(s, SESSION_CLOSED, s->running ? SESSION_END_NONE : SESSION_END_STOPPED, 0);
	if (!s->running)
		return;
	end = fatal_end(s);
	if (end != SESSION_END_NONE) {
		s->running = false;
		session_emit(s, SESSION_FAILED, end, 0);
		return;
	}
	frame_too_large = s->oversize ||
			  (s->close_code == 1013 && !strcmp(s->close_reason, "frame_too_large"));
	if (frame_too_large)
		session_too_large(s);
	if (!s->running)
		return;
	if (!was_synced)
		s->failures++;
	if (s->cfg.max_retries > 0 && s->failures >= s->cfg.max_retries) {
		s->running = false;
		session_emit(s, SESSION_GAVE_UP, SESSION_END_GAVE_UP, 0);
		return;
	}
	/* A connection that got somewhere is resumed at once. One that did not (refused, or
	 * closed before sync) backs off. One that synced but brought nothing new gets one
	 * immediate retry (a cut can land right after sync), then backs off too, so a
	 * server that keeps closing right after sync is not hammered. */
	if (was_synced && (s->progressed || clock_now_us() - s->synced_at >= PROGRESS_US))
		s->backoff_level = 0;
	else
		s->backoff_level++;
	lws_get_random(s->loop->ctx, &rnd, sizeof(rnd));
	delay = session_backoff_us(s->backoff_level, rnd);
	if (was_synced && s->backoff_level == 1)
		delay = 0;
	loop_timer_schedule(s->retry_timer, delay);
	session_emit(s, SESSION_RECONNECTING, SESSION_END_NONE, delay);
}

/* Seconds from the command line as a timer delay; a week bounds the absurd. */
static int64_t secs_to_us(double secs)
{
	if (!(secs > 0))
		return 0;
	if (secs > 604800)
		secs = 604800;
	return (int64_t)(secs * 1e6);
}

static void stall_fired(void *arg)
{
	struct session *s = arg;
	char why[96];

	if (s->phase == PHASE_IDLE)
		return;
	int64_t quiet = clock_now_us() - s->stall_from_us, limit = secs_to_us(s->cfg.stall_timeout_s);
	if (quiet < limit) {
		loop_timer_schedule(s->stall_timer, limit - quiet);
		return;
	}
	snprintf(why, sizeof(why), "stalled: nothing received for %.1f s",
		 s->cfg.stall_timeout_s);
	s->close_code = 0;
	session_set_reason(s, why, strlen(why));
	session_conn_end(s, s->wsi, false);
}

/* Every received frame counts as life, so the timer is not moved for each one (a sorted
 * list's removal and insertion, 200 times a second while streaming): it fires at the first
 * deadline and, if something came meanwhile, waits out the rest from the last arrival. */
void session_stall_rearm(struct session *s)
{
	if (!(s->cfg.stall_timeout_s > 0))
		return;
	s->stall_from_us = clock_now_us();
	if (!loop_timer_pending(s->stall_timer))
		loop_timer_schedule(s->stall_timer, secs_to_us(s->cfg.stall_timeout_s));
}

static void ping_rearm(struct session *s)
{
	int64_t us = secs_to_us(s->cfg.ping_interval_s);

	if (us > 0)
		loop_timer_schedule(s->ping_timer, us < 50000 ? 50000 : us);
}

static void ping_fired(void *arg)
{
	struct session *s = arg;

	if (s->phase < PHASE_OPEN || !s->wsi)
		return;
	s->ping_pending = true;
	lws_callback_on_writable(s->wsi);
	ping_rearm(s);
}

static void retry_fired(void *arg)
{
	struct session *s = arg;

	if (s->running && s->phase == PHASE_IDLE)
		session_connect(s);
}

static void build_path(struct session *s, struct buf *path)
{
	if (s->proto == NET_PROTOCOL_EVENTS) {
		legacy_build_path(s, path);
		return;
	}
	buf_puts(path, s->url.base_path);
	buf_puts(path, "/sockets/session/");
	url_append_escaped(path, s->cfg.conversation_id);
	if (s->has_cursor)
		buf_printf(path, "?after_seq=%lld", (long long)s->cursor);
}

#define TLS_NOT_SET_UP "cannot set up TLS (libwebsockets made no client context)"

/* Opens the socket to address (numeric): lws resolves it without a query. */
static void session_open(struct session *s, const char *address)
{
	struct lws_client_connect_info ci;
	struct buf path;
	struct lws *wsi;

	buf_init(&path);
	build_path(s, &path);
	memset(&ci, 0, sizeof(ci));
	ci.context = s->loop->ctx;
	ci.vhost = loop_vhost(s->loop, s->url.tls);
	ci.address = address;
	ci.port = s->url.port;
	ci.path = buf_cstr(&path);
	/* ci.host is the Host header and, in lws 4.1.6 (lws_ssl_client_bio_create), also the
	 * name TLS checks: it is copied (":port" stripped) into SNI and
	 * X509_VERIFY_PARAM_set1_host, while ci.address only feeds the socket connect. So a
	 * resolved address still verifies the certificate against the hostname. */
	ci.host = s->host_header;
	ci.ietf_version_or_minus_one = -1;
	ci.local_protocol_name = NET_PROTO_SESSION;
	ci.retry_and_idle_policy = &s->idle;
	ci.opaque_user_data = s;
	ci.pwsi = &s->wsi;      /* known before any callback of the connection runs */
	if (s->url.tls) {
		ci.ssl_connection = LCCSCF_USE_SSL;
		if (s->cfg.insecure)
			ci.ssl_connection |= LCCSCF_ALLOW_SELFSIGNED |
					     LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK |
					     LCCSCF_ALLOW_EXPIRED;
	}
	if (!ci.vhost) {
		buf_fini(&path);
		session_set_reason(s, TLS_NOT_SET_UP, strlen(TLS_NOT_SET_UP));
		session_conn_end(s, NULL, true);
		return;
	}
	session_stall_rearm(s);
	wsi = lws_client_connect_via_info(&ci);
	buf_fini(&path);
	if (s->phase != PHASE_CONNECTING) {
		s->wsi = NULL;  /* already failed inside the call */
		return;
	}
	if (!wsi) {
		session_set_reason(s, "cannot start the connection", strlen("cannot start the connection"));
		session_conn_end(s, NULL, true);
		return;
	}
	s->wsi = wsi;
}

/* The lookup of a hostname ended: connect, or fail like a network error (retried). */
static void session_resolved(void *ctx, const char *address, const char *error, bool final)
{
	struct session *s = ctx;

	s->lookup = NULL;
	if (!address) {
		s->cause = final ? NET_CAUSE_DNS : NET_CAUSE_OTHER;
		session_set_reason(s, error, strlen(error));
		session_conn_end(s, NULL, true);
		return;
	}
	session_open(s, address);
}

static void session_connect(struct session *s)
{
	s->attempt = s->failures + 1;
	s->close_code = 0;
	s->close_reason[0] = '\0';
	s->http_status = 0;
	s->cause = NET_CAUSE_NONE;
	s->auth_pending = s->ping_pending = false;
	s->oversize = false;
	s->progressed = false;
	s->synced_at = 0;
	s->sync_through = NO_SEQ;
	s->live_only = !s->has_cursor;
	session_rx_reset(s);
	/* protocol.md rule 10: progress frames are never replayed */
	if (s->h.on_discard_streams)
		s->h.on_discard_streams(s->h.ctx);
	bool catch_up = legacy_attempt_start(s);
	session_emit(s, SESSION_CONNECTING, SESSION_END_NONE, 0);
	if (!s->running || !s->loop)
		return;
	s->phase = PHASE_CONNECTING;
	if (catch_up)
		legacy_fetch_start(s);
	else if (s->proto == NET_PROTOCOL_EVENTS)
		legacy_dial(s);
	else
		session_dial(s);
}

void session_dial(struct session *s)
{
	char cached[64];
	const char *address;

	/* lws would resolve a hostname with a blocking getaddrinfo (stack.md P8): look it up
	 * on the side (bounded by its own timeout; the stall timer starts with the socket).
	 * Numeric hosts and recent lookups connect at once. */
	address = resolve_now(s->url.host, cached, sizeof(cached));
	if (address)
		session_open(s, address);
	else
		s->lookup = resolve_start(s->loop, s->url.host, session_resolved, s);
}

/* The 1013 ("try again later") reasons of protocol.md §1.3. */
static const char *const try_again_reasons[] = {
	"frame_too_large", "slow_consumer", "Too many connections for this conversation",
	"credential_binding_activation_required",
};

static void on_peer_close(struct session *s, const unsigned char *in, size_t len)
{
	if (len < 2)
		return;
	s->close_code = (in[0] << 8) | in[1];
	session_set_reason(s, (const char *)in + 2, len - 2);
	/* lws 4.1.6 rewrites the codes 1012-1015 (and 1016-2999) to 1002 before the callback
	 * sees them; the documented 1013 reasons get their code back. */
	if (s->close_code == 1002)
		for (size_t i = 0; i < sizeof(try_again_reasons) / sizeof(*try_again_reasons); i++)
			if (!strcmp(s->close_reason, try_again_reasons[i]))
				s->close_code = 1013;
}

/* lws's handshake failures, in words. */
static const struct {
	const char *lws, *says;
} handshake_texts[] = {
	{ "HS: Accept hash wrong", "the server's Sec-WebSocket-Accept is wrong (not a WebSocket server?)" },
	{ "read failed", "the connection failed or closed before a WebSocket handshake answer" },
	{ "HS: URI missing", "the answer to the WebSocket handshake is not HTTP" },
};

static void handshake_reason(struct session *s, const char *in, size_t len)
{
	char why[200];

	for (size_t i = 0; i < sizeof(handshake_texts) / sizeof(*handshake_texts); i++)
		if (strlen(handshake_texts[i].lws) == len && !memcmp(in, handshake_texts[i].lws, len)) {
			session_set_reason(s, handshake_texts[i].says, strlen(handshake_texts[i].says));
			return;
		}
	if (s->phase == PHASE_CONNECTING) {
		snprintf(why, sizeof(why), "WebSocket handshake failed: %.*s", (int)len, in);
		session_set_reason(s, why, strlen(why));
	} else {
		session_set_reason(s, in, len);
	}
}

static void on_connection_error(struct session *s, struct lws *wsi, const char *in,
				size_t len)
{
	unsigned int status = lws_http_client_http_response(wsi);

	if (status && !s->http_status)
		s->http_status = (int)status;
	if (s->close_reason[0]) {
		/* already said (a redirect refused) */
	} else if (s->http_status && s->http_status != 101) {
		char why[96];

		snprintf(why, sizeof(why), "HTTP %d from the WebSocket handshake", s->http_status);
		session_set_reason(s, why, strlen(why));
	} else if (in && len) {
		struct buf why;

		buf_init(&why);
		s->cause = net_failure_describe(wsi, in, strnlen(in, len), &why);
		if (s->cause == NET_CAUSE_OTHER)
			handshake_reason(s, in, len);
		else
			session_set_reason(s, why.data, why.len);
		buf_fini(&why);
	} else {
		session_set_reason(s, "connection failed", strlen("connection failed"));
	}
	session_conn_end(s, wsi, true);
}

/* A redirect on the upgrade (lws passes Location and the status): a failed attempt. */
static void on_redirect(struct session *s, const char *location, int status)
{
	struct buf why;

	s->http_status = status;
	buf_init(&why);
	buf_printf(&why, "HTTP %d redirect to ", status);
	url_describe(location ? location : "", &why);
	buf_puts(&why, " (not followed)");
	session_set_reason(s, why.data, why.len);
	buf_fini(&why);
}

/* lws frees a connection without CLIENT_CONNECTION_ERROR or CLIENT_CLOSED in some paths
 * (its own handshake timeout among them): the last word on a wsi still held is here. */
static void on_destroy(struct session *s, struct lws *wsi)
{
	if (s->wsi != wsi || s->phase == PHASE_IDLE) {
		lws_set_opaque_user_data(wsi, NULL);
		return;
	}
	if (!s->close_reason[0] && !s->close_code) {
		char why[96];

		if (s->phase == PHASE_CONNECTING)
			snprintf(why, sizeof(why), "timed out: no answer to the WebSocket handshake "
				 "within %d s", NET_LWS_TIMEOUT_S);
		else
			snprintf(why, sizeof(why), "connection closed");
		session_set_reason(s, why, strlen(why));
	}
	session_conn_end(s, wsi, true);
}

static void on_established(struct session *s, struct lws *wsi)
{
	s->wsi = wsi;
	if (s->proto == NET_PROTOCOL_SESSION)
		s->session_upgraded = true;
	s->phase = PHASE_OPEN;
	session_stall_rearm(s);
	ping_rearm(s);
	if (s->cfg.api_key && (s->proto != NET_PROTOCOL_EVENTS || s->auth == LEGACY_AUTH_FRAME)) {
		s->auth_pending = true;
		lws_callback_on_writable(wsi);
	}
	session_emit(s, SESSION_OPEN, SESSION_END_NONE, 0);
	if (s->proto == NET_PROTOCOL_EVENTS && s->wsi == wsi && s->running)
		legacy_on_open(s);
}

/* The legacy socket's key as a header (servers 1.12.0 to 1.22.0, research §5.1). */
static int append_key_header(struct session *s, struct lws *wsi, void *in, size_t len)
{
	unsigned char **p = in;
	const char *key = s->cfg.api_key;

	if (s->proto != NET_PROTOCOL_EVENTS || s->auth != LEGACY_AUTH_HEADER || !key)
		return 0;
	return lws_add_http_header_by_name(wsi, (const unsigned char *)"x-session-api-key:",
					   (const unsigned char *)key, (int)strlen(key), p,
					   *p + len) ? -1 : 0;
}

int session_lws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
			 void *in, size_t len)
{
	struct session *s = lws_get_opaque_user_data(wsi);

	(void)user;
	if (!s) {
		/* an abandoned connection: only let it close */
		switch (reason) {
		case LWS_CALLBACK_CLIENT_RECEIVE:
		case LWS_CALLBACK_CLIENT_WRITEABLE:
		case LWS_CALLBACK_CLIENT_ESTABLISHED:
			return -1;
		default:
			return 0;
		}
	}
	switch (reason) {
	case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
		return append_key_header(s, wsi, in, len);
	case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
		s->http_status = (int)lws_http_client_http_response(wsi);
		return 0;
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		on_established(s, wsi);
		return s->wsi == wsi ? 0 : -1;
	case LWS_CALLBACK_CLIENT_RECEIVE: {
		struct loop *loop = s->loop;
		if (loop) {
			loop->in_rx = true;
			loop->read_since_tick = true;
			loop->bytes_since_tick += len;
			loop->bytes_in_turn += len;
		}
		int rc = session_on_receive(s, wsi, in, len);
		if (loop)
			loop->in_rx = false;
		return rc;
	}
	case LWS_CALLBACK_CLIENT_RECEIVE_PONG:
		session_stall_rearm(s);
		return 0;
	case LWS_CALLBACK_CLIENT_WRITEABLE:
		return session_on_writeable(s, wsi);
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		on_peer_close(s, in, len);
		return 0;
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		on_connection_error(s, wsi, in, len);
		return 0;
	case LWS_CALLBACK_CLIENT_CLOSED:
		session_conn_end(s, wsi, true);
		return 0;
	case LWS_CALLBACK_CLIENT_HTTP_REDIRECT:
		on_redirect(s, in, (int)len);
		return -1;      /* never followed: the auth frame would go wherever it points */
	case LWS_CALLBACK_WSI_DESTROY:
		on_destroy(s, wsi);
		return 0;
	default:
		return 0;
	}
}

static void config_copy(struct session *s, const struct session_config *cfg)
{
	s->cfg = *cfg;
	s->cfg.server_url = xstrdup(cfg->server_url ? cfg->server_url : "");
	s->cfg.conversation_id = xstrdup(cfg->conversation_id ? cfg->conversation_id : "");
	s->cfg.api_key = cfg->api_key ? xstrdup(cfg->api_key) : NULL;
	s->max_message = cfg->max_message_bytes ? cfg->max_message_bytes : DEFAULT_MAX_MESSAGE;
}

static void idle_policy_init(struct session *s)
{
	double stall = s->cfg.stall_timeout_s;
	uint16_t secs = 0;

	/* lws 4.1 counts whole seconds since the last pong (or, as on_receive confirms, the
	 * last frame) and hangs up after secs_since_valid_hangup: a backstop behind the
	 * stall timer, which allows fractions. With ping == hangup lws never pings itself:
	 * the ping timer does, at ping_interval_s. */
	if (stall >= 65535)
		secs = 65535;
	else if (stall > 0)
		secs = (uint16_t)(stall + 0.999999);    /* round up; at least 1 */
	s->idle.secs_since_valid_ping = secs;
	s->idle.secs_since_valid_hangup = secs;
}

/* Creates a session on the loop; nothing connects until session_start. */
struct session *session_create(struct loop *loop, const struct session_config *cfg,
			       const struct session_handlers *h)
{
	struct session *s = xcalloc(1, sizeof(*s));

	s->loop = loop;
	config_copy(s, cfg);
	if (h)
		s->h = *h;
	s->url_ok = !server_url_parse(s->cfg.server_url, &s->url);
	if (s->url_ok) {
		bool v6 = strchr(s->url.host, ':') != NULL;

		snprintf(s->host_header, sizeof(s->host_header), v6 ? "[%s]:%d" : "%s:%d",
			 s->url.host, s->url.port);
	}
	idle_policy_init(s);
	s->has_cursor = !cfg->no_history;
	s->cursor = cfg->no_history ? 0 : cfg->after_seq;
	s->last_seq = NO_SEQ;
	buf_init(&s->rx);
	recent_ids_init(&s->seen, SEEN_CAPACITY);
	legacy_rx_init(&s->legacy);
	s->retry_timer = loop_timer_create(loop, retry_fired, s);
	s->stall_timer = loop_timer_create(loop, stall_fired, s);
	s->ping_timer = loop_timer_create(loop, ping_fired, s);
	lws_dll2_add_tail(&s->node, &loop->sessions);
	return s;
}

void session_set_cursor(struct session *s, int64_t after_seq)
{
	if (s->running || s->phase != PHASE_IDLE || after_seq < -1 || after_seq > NET_SEQ_MAX)
		return;
	s->has_cursor = true;
	s->cursor = after_seq;
}

/* Starts connecting (and reconnecting per the backoff policy). */
void session_start(struct session *s)
{
	if (s->running || !s->loop || s->phase != PHASE_IDLE)
		return;
	s->failures = 0;
	if (!s->url_ok) {
		/* retrying cannot help */
		s->attempt = 0;
		s->close_code = 0;
		session_set_reason(s, "invalid server URL", strlen("invalid server URL"));
		session_emit(s, SESSION_FAILED, SESSION_END_BAD_URL, 0);
		return;
	}
	s->running = true;
	s->backoff_level = 0;
	legacy_probe_start(s);
	session_connect(s);
}

/* Queues a user message; it is written once the connection is synced. */
void session_send_user_message(struct session *s, const char *text)
{
	session_queue_push(s, frame_encode_user_message(text));
	if (s->phase == PHASE_SYNCED && s->wsi)
		lws_callback_on_writable(s->wsi);
}

/* Messages queued and not yet written to a socket. */
size_t session_pending_messages(const struct session *s)
{
	return s->queue_len;
}

/* The resume cursor. */
int64_t session_cursor(const struct session *s)
{
	return s->cursor;
}

/* True when the cursor holds a value. */
bool session_has_cursor(const struct session *s)
{
	return s->has_cursor;
}

/* True while a connection is synced. */
bool session_is_live(const struct session *s)
{
	return s->phase == PHASE_SYNCED;
}

/* Why the last attempt short of sync ended, or NULL. */
const char *session_last_failure(const struct session *s)
{
	return s->last_failure[0] ? s->last_failure : NULL;
}

/* Cuts the wait between attempts short: connects now, from the cursor as any reconnect. */
bool session_reconnect_now(struct session *s)
{
	if (!s->loop || !s->running || s->phase != PHASE_IDLE)
		return false;
	loop_timer_cancel(s->retry_timer);
	session_connect(s);
	return true;
}

/* Closes the connection normally and stops reconnecting. */
void session_stop(struct session *s)
{
	bool retrying = s->running && s->phase == PHASE_IDLE;

	s->running = false;
	if (!s->loop)
		return;
	loop_timer_cancel(s->retry_timer);
	if (s->phase >= PHASE_OPEN && s->wsi) {
		s->stopping = true;
		lws_callback_on_writable(s->wsi);
	} else if (s->phase == PHASE_CONNECTING) {
		session_set_reason(s, "stopped", strlen("stopped"));
		session_conn_end(s, s->wsi, false);
	} else if (retrying) {
		s->close_code = 0;
		session_set_reason(s, "stopped", strlen("stopped"));
		session_emit(s, SESSION_CLOSED, SESSION_END_STOPPED, 0);
	}
}

static void session_forget_loop(struct session *s)
{
	if (!s->loop)
		return;
	if (s->wsi)
		net_wsi_abandon(s->wsi);
	s->wsi = NULL;
	resolve_cancel(s->lookup);
	s->lookup = NULL;
	legacy_cancel(s, true);
	s->phase = PHASE_IDLE;
	s->running = false;
	lws_dll2_remove(&s->node);
	s->loop = NULL;
}

bool session_any_closing(struct loop *loop)
{
	lws_start_foreach_dll(struct lws_dll2 *, d, lws_dll2_get_head(&loop->sessions)) {
		if (lws_container_of(d, struct session, node)->stopping)
			return true;
	} lws_end_foreach_dll(d);
	return false;
}

static int detach_one(struct lws_dll2 *d, void *user)
{
	(void)user;
	session_forget_loop(lws_container_of(d, struct session, node));
	return 0;
}

/* Called by loop_destroy: sessions forget every lws object. */
void session_detach_all(struct loop *loop)
{
	lws_dll2_foreach_safe(&loop->sessions, NULL, detach_one);
}

/* Stops and frees. */
void session_destroy(struct session *s)
{
	char *msg;

	if (!s)
		return;
	session_forget_loop(s);
	loop_timer_destroy(s->retry_timer);
	loop_timer_destroy(s->stall_timer);
	loop_timer_destroy(s->ping_timer);
	while ((msg = session_queue_pop(s)))
		free(msg);
	free(s->queue);
	buf_fini(&s->rx);
	recent_ids_fini(&s->seen);
	legacy_rx_fini(&s->legacy);
	if (s->cfg.api_key)
		mem_wipe((char *)s->cfg.api_key, strlen(s->cfg.api_key));
	free((char *)s->cfg.server_url);
	free((char *)s->cfg.conversation_id);
	free((char *)s->cfg.api_key);
	free(s);
}
