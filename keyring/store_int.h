/* keyring-private: one bounded call into the Secret Service (store_call.c), used by the
 * keyring API of store.c. */
#ifndef TETHER_STORE_CALL_H
#define TETHER_STORE_CALL_H

#include "keyring.h"

#include <libsecret/secret.h>

/* The server URL as keys are stored under (caller frees): one key per server however its
 * URL is spelled. */
char *keyring_server_normalize(const char *url);

/* Every keyring call gives up after this long (also the D-Bus method timeout). The sync
 * API would otherwise wait 25 s per D-Bus call, or forever for an unlock prompt. */
#define KEYRING_TIMEOUT_MS_DEFAULT 30000

/* One call: the shared service connection and a watchdog that cancels it in time. */
struct keyring_call {
	SecretService *service;
	GCancellable *cancel;
	GThread *watchdog;
	GMutex lock;
	GCond cond;
	bool done;
};

/* Connects (or reuses the connection) and arms the watchdog. KEYRING_OK, or the failure with
 * its line appended to err and the call already ended. */
enum keyring_status keyring_call_begin(struct keyring_call *c, struct buf *err);
/* Disarms the watchdog and drops the references. */
void keyring_call_end(struct keyring_call *c);
/* Appends the line for a GError (consumed) per the error matrix of stack.md to err; returns
 * its status. */
enum keyring_status keyring_call_fail(GError *e, struct buf *err);
/* Appends a printf-style message (made one line) to err; returns status. */
enum keyring_status keyring_call_error(struct buf *err, enum keyring_status status,
				       const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* Whether the default collection exists and is locked (errors count as not locked). */
bool keyring_call_default_locked(struct keyring_call *c);
/* Reports "locked" when the default collection is, else NOT_FOUND with the given text. */
enum keyring_status keyring_call_absent(struct keyring_call *c, struct buf *err,
					const char *what);

#endif
