/* Failures in words: one sentence each, the same in the TUI and headless. */
#include "diagnose.h"

#include <stdio.h>
#include <string.h>

static const char next_server[] = "; choose another server with --server URL or TETHER_SERVER";
static const char next_key[] = "; set the key with tether key set or TETHER_SESSION_API_KEY";

/* One process, one run: set once at start-up, read by the one failure that needs it. */
static char keyring_trouble[256];

void diag_set_keyring_trouble(const char *why)
{
	snprintf(keyring_trouble, sizeof keyring_trouble, "%s", why ? why : "");
}

const char *diag_keyring_trouble(void)
{
	return keyring_trouble;
}

void diag_auth(struct buf *out, const struct diag_about *a)
{
	buf_printf(out, "authentication failed at %s: %s", a->server,
		   a->has_key ? "the server refused the session API key"
			      : "the server wants a session API key and none was given");
	if (!a->has_key && keyring_trouble[0])
		buf_printf(out, " (%s)", keyring_trouble);
	buf_puts(out, next_key);
}

void diag_unreachable(struct buf *out, const struct diag_about *a, enum net_cause cause,
		      const char *cause_text)
{
	buf_printf(out, "cannot reach the server at %s: %s", a->server,
		   cause_text && *cause_text ? cause_text : "no answer");
	if (cause == NET_CAUSE_REFUSED || cause == NET_CAUSE_DNS)
		buf_puts(out, next_server);
}

/* A 3xx is an answer, not its absence: named with where it points, and the --server that
 * would reach it when the Location is the same route under another base. */
static void diag_redirect(struct buf *out, const struct diag_about *a, const struct rest_response *r)
{
	buf_printf(out, "the server at %s redirected (HTTP %d) ", a->server, r->redirect_status);
	if (!r->location) {
		buf_puts(out, "without saying where (no Location)");
		buf_puts(out, next_server);
		return;
	}
	buf_puts(out, "to ");
	url_describe(r->location, out);
	buf_puts(out, ", not followed (the session API key would go there)");
	if (r->moved_to) {
		buf_puts(out, "; use --server ");
		url_describe(r->moved_to, out);
	} else {
		buf_puts(out, next_server);
	}
}

void diag_rest_failure(struct buf *out, const struct diag_about *a, const struct rest_response *r,
		       const char *cause_text)
{
	if (r->status == 401 || r->status == 403) {
		diag_auth(out, a);
		return;
	}
	if (r->status == 0 && r->cause == NET_CAUSE_REDIRECT) {
		diag_redirect(out, a, r);
		return;
	}
	if (r->status == 0) {
		if (r->cause == NET_CAUSE_REFUSED || r->cause == NET_CAUSE_DNS ||
		    r->cause == NET_CAUSE_TLS)
			diag_unreachable(out, a, r->cause, cause_text);
		else
			buf_printf(out, "no answer from the server at %s: %s", a->server,
				   cause_text && *cause_text ? cause_text : "no response");
		return;
	}
	buf_printf(out, "the server at %s answered HTTP %d", a->server, r->status);
	if (r->status == 404)
		buf_puts(out, " (not found: is it an OpenHands agent server?)");
	else if (r->status >= 300 && r->status < 400)
		buf_puts(out, " (a redirect, not followed: is the URL the server's own?)");
	else if (r->status >= 500)
		buf_puts(out, " (a server error)");
}

void diag_not_found(struct buf *out, const struct diag_about *a)
{
	buf_printf(out, "conversation %s not found at %s; tether list shows the conversations there",
		   a->conversation_id ? a->conversation_id : "?", a->server);
}

void diag_no_session_socket(struct buf *out, const struct diag_about *a)
{
	/* Upstream answers 403 where no route matches (auto then takes the events socket): a
	 * 404 comes from something else on the way, such as a proxy. */
	buf_printf(out, "the server at %s has conversation %s but no session socket "
		   "(HTTP 404 on /sockets/session); --protocol events uses the events socket of "
		   "agent-servers before 1.44",
		   a->server, a->conversation_id ? a->conversation_id : "?");
}

static void gave_up(struct buf *out, const char *verb, const struct diag_about *a, int attempts,
		    const char *why)
{
	buf_printf(out, "gave up %s to %s after %d failed attempt%s in a row (--max-retries)",
		   verb, a->server, attempts, attempts == 1 ? "" : "s");
	if (why && *why)
		buf_printf(out, ": %s", why);
}

void diag_gave_up(struct buf *out, const struct diag_about *a, int attempts, const char *why)
{
	gave_up(out, "reconnecting", a, attempts, why);
}

void diag_gave_up_connecting(struct buf *out, const struct diag_about *a, int attempts,
			     const char *why)
{
	gave_up(out, "connecting", a, attempts, why);
}

void diag_status_words(struct buf *out, const char *s)
{
	for (; *s; s++)
		buf_append(out, *s == '_' ? " " : s, 1);
}
