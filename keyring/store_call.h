/* keyring-private: one bounded call into the Secret Service (store_call.c), used by the
 * keyring API of store.c. */
#ifndef TETHER_STORE_CALL_H
#define TETHER_STORE_CALL_H

#include "keyring.h"

#include <libsecret/secret.h>

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

/* Connects (or reuses the connection) and arms the watchdog. 0, or -1 with err set and
 * the call already ended. */
int keyring_call_begin(struct keyring_call *c, struct keyring_error *err);
/* Disarms the watchdog and drops the references. */
void keyring_call_end(struct keyring_call *c);
/* Fills err from a GError (consumed) per the error matrix of stack.md; returns -1. */
int keyring_call_fail(GError *e, struct keyring_error *err);
/* Sets err to status with a printf-style message; returns -1. */
int keyring_call_error(struct keyring_error *err, enum keyring_status status, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);
/* Whether the default collection exists and is locked (errors count as not locked). */
bool keyring_call_default_locked(struct keyring_call *c);
/* Reports "locked" when the default collection is, else NOT_FOUND with the given text. */
int keyring_call_absent(struct keyring_call *c, struct keyring_error *err, const char *what);

#endif
