/* The session API key: where it is found (the environment, the keyring, the key file) and
 * where it is stored (the keyring, else the key file with a warning, as gh does). */
#ifndef TETHER_KEY_SOURCE_H
#define TETHER_KEY_SOURCE_H

#include "keyring.h"

/* The key for server: TETHER_SESSION_API_KEY, the keyring, then the key file; NULL when none
 * (why the keyring or the file could not serve is kept for an authentication failure to say). */
char *key_find(const char *server);
/* Stores key for server in the keyring or, with no Secret Service there, in the key file with
 * a warning; says on stderr where it went or why not. Returns an exit code of app.h. */
int key_store(const char *server, const char *key);
/* Removes the key for server from the keyring and the key file; says what happened on stderr.
 * Returns an exit code of app.h. */
int key_remove(const char *server);

#endif
