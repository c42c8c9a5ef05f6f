/* The user's messages on their way out: over the socket when it is synced, held while it is
 * down, and sent through REST when the socket stays down too long. Never dropped, never twice. */
#ifndef TETHER_OUTBOX_H
#define TETHER_OUTBOX_H

#include "net.h"

struct outbox;

/* Creates the outbox for session; with rest_fallback, a message held too long goes through
 * REST to server_url for conversation_id. on_error hears a readable line when a REST send
 * fails (the message stays held). */
struct outbox *outbox_create(struct loop *loop, struct session *session, bool rest_fallback,
			     const char *server_url, const char *conversation_id,
			     const char *api_key, bool insecure,
			     void (*on_error)(void *ctx, const char *line), void *ctx);
/* Sends text now when the socket is synced, else holds it (and arms the REST fallback). */
void outbox_send(struct outbox *b, const char *text);
/* The socket is synced again: held messages go over it (unless held back). */
void outbox_synced(struct outbox *b);
/* hold: nothing goes out, over the socket or REST, until released (the conversation's status
 * is not known yet, or actions wait for confirmation: a message would allow them). */
void outbox_hold(struct outbox *b, bool hold);
/* Where a message not sent yet is. */
enum outbox_state {
	OUTBOX_QUEUED,          /* waits for the socket (or the REST fallback) */
	OUTBOX_HELD,            /* held back: actions wait for confirmation, or a replay runs */
	OUTBOX_SENDING,         /* handed to the socket or to REST, not written or answered yet */
	OUTBOX_FAILED,          /* the REST send failed; it waits for the connection again */
};

/* One message not sent yet, as typed (text stays owned by the outbox). */
struct outbox_message {
	const char *text;
	enum outbox_state state;
};

/* The messages not sent yet, oldest first: the oldest max of them in out (max may be 0);
 * returns how many there are. Valid until the outbox changes. */
size_t outbox_unsent(const struct outbox *b, struct outbox_message *out, size_t max);
/* Frees the outbox; REST calls still in flight finish into nothing. */
void outbox_destroy(struct outbox *b);

#endif
