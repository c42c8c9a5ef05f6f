/* Failures in words for the user (cli.md "Messages"): what failed (the server, the
 * conversation), the cause, and the next step. net/ says what kind of failure it was;
 * this is the one place that words it. Every string passed in is already clean. */
#ifndef TETHER_DIAGNOSE_H
#define TETHER_DIAGNOSE_H

#include "net.h"

/* Who a diagnostic is about: the server URL and conversation id as shown (clean), and
 * whether a session API key was sent. */
struct diag_about {
	const char *server;
	const char *conversation_id;    /* NULL when none */
	bool has_key;
};

/* Appends why a REST call failed (no answer, or an HTTP status other than 2xx); cause_text
 * is the clean error text of r (NULL when r has a status). */
void diag_rest_failure(struct buf *out, const struct diag_about *a, const struct rest_response *r,
		       const char *cause_text);
/* Remembers why the keyring could not give a session API key (why: clean), for an
 * authentication failure to say: the keyring matters only when the server wants a key. */
void diag_set_keyring_trouble(const char *why);
/* Why the keyring could not give a key ("" when it could, or had none). */
const char *diag_keyring_trouble(void);
/* Appends an authentication failure (HTTP 401/403, close 4001) with the next step. */
void diag_auth(struct buf *out, const struct diag_about *a);
/* Appends the server not reached: cause_text is the clean reason, cause its kind. */
void diag_unreachable(struct buf *out, const struct diag_about *a, enum net_cause cause,
		      const char *cause_text);
/* Appends the conversation not found on the server, with tether list as the next step. */
void diag_not_found(struct buf *out, const struct diag_about *a);
/* Appends a server whose REST finds the conversation while its session socket is 404. */
void diag_no_session_socket(struct buf *out, const struct diag_about *a);
/* Appends the give-up after attempts failed attempts in a row; why is the last failure
 * (clean, may be NULL). */
void diag_gave_up(struct buf *out, const struct diag_about *a, int attempts, const char *why);
/* The same, when no connection was ever made: it gave up connecting, not reconnecting. */
void diag_gave_up_connecting(struct buf *out, const struct diag_about *a, int attempts,
			     const char *why);
/* An execution status as words ("waiting_for_confirmation" → "waiting for confirmation")
 * into out; s is clean. */
void diag_status_words(struct buf *out, const char *s);

#endif
