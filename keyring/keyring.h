/* keyring: the system keyring (Secret Service) behind a plain-C API, and the streaming
 * secret masker that every output crosses. glib/libsecret stay inside the .c files of keyring/. */
#ifndef TETHER_KEYRING_H
#define TETHER_KEYRING_H

#include "base.h"

/* ---------------------------------------------------------------- keyring */

enum keyring_status {
	KEYRING_OK,
	KEYRING_NOT_FOUND,      /* no such item (or, on lookup, a locked keyring that cannot say) */
	KEYRING_NO_BUS,         /* no D-Bus session bus */
	KEYRING_NO_SERVICE,     /* a bus, but no Secret Service provider */
	KEYRING_LOCKED,         /* the collection is locked */
	KEYRING_ERROR,          /* anything else */
};

/* Every keyring call returns KEYRING_OK (0) or why it failed, and appends one readable line
 * for the user to err. */

/* Looks up the session API key stored for server_url into *key (caller frees). */
enum keyring_status keyring_api_key_get(const char *server_url, char **key, struct buf *err);
/* Stores the session API key for server_url. */
enum keyring_status keyring_api_key_set(const char *server_url, const char *key, struct buf *err);
/* Deletes the session API key for server_url (KEYRING_NOT_FOUND when absent). */
enum keyring_status keyring_api_key_rm(const char *server_url, struct buf *err);
/* Stores (or replaces) a local secret to mask under name. */
enum keyring_status keyring_secret_add(const char *name, const char *value, struct buf *err);
/* Deletes the local secret name (KEYRING_NOT_FOUND when absent). */
enum keyring_status keyring_secret_rm(const char *name, struct buf *err);
/* Lists the names of the local secrets (values when want_values) into items and count
 * (free with keyring_strings_free). */
enum keyring_status keyring_secret_list(bool want_values, char ***items, size_t *count,
					struct buf *err);
/* Frees an array of strings from this module (wiping them first). */
void keyring_strings_free(char **items, size_t count);
/* Where no Secret Service is, session API keys live in a file of the user's own (mode 0600),
 * $XDG_CONFIG_HOME/tether/keys; a symbolic link or a file others may read is refused. */
/* Appends the key file's path to out; -1 when neither XDG_CONFIG_HOME nor HOME says where. */
int keyring_file_path(struct buf *out);
/* Looks up the session API key for server_url in the key file into *key (caller frees). */
enum keyring_status keyring_file_key_get(const char *server_url, char **key, struct buf *err);
/* Stores the session API key for server_url in the key file (made 0600 if new). */
enum keyring_status keyring_file_key_set(const char *server_url, const char *key, struct buf *err);
/* Deletes the key file's entry for server_url (KEYRING_NOT_FOUND when absent). */
enum keyring_status keyring_file_key_rm(const char *server_url, struct buf *err);
/* Bounds every keyring call (default 30 s; also the D-Bus method timeout): a call that
 * takes longer fails with KEYRING_ERROR. ms <= 0 restores the default. */
void keyring_set_timeout_ms(int ms);

/* ------------------------------------------------------------------ masker */

/* What a secret becomes in every output: the server's own marker. */
#define MASK_REPLACEMENT "<secret-hidden>"
/* Secrets shorter than this are refused: they would mask ordinary words. */
#define MASK_MIN_SECRET_LEN 4

/* A set of literal secrets, compiled into one multi-pattern matcher. */
struct mask_set;

/* Creates an empty set. */
struct mask_set *mask_set_create(void);
/* Frees a set (wiping the secrets). */
void mask_set_destroy(struct mask_set *m);
/* Adds a secret. Returns 0, or -1 with a readable reason (too short, not UTF-8) appended to
 * err (which may be NULL). */
int mask_set_add(struct mask_set *m, const char *secret, size_t len, struct buf *err);
/* Adds every non-empty line of a file (trailing blanks, CR and LF stripped). Returns the
 * number added, or -1 with the reason in err when the file cannot be read; refused lines and
 * lines whose trailing blanks were stripped are reported through warn (never the line itself). */
int mask_set_add_file(struct mask_set *m, const char *path, struct buf *err,
		      void (*warn)(void *ctx, const char *line), void *ctx);
/* Number of secrets in the set. */
size_t mask_set_count(const struct mask_set *m);
/* Length of the longest secret (0 when empty). */
size_t mask_set_longest(const struct mask_set *m);

/* One stream of text through the masker. Holds back at most (longest secret - 1) bytes
 * (extended to a character boundary) so that a secret split across feeds is caught. */
struct mask_stream {
	const struct mask_set *set;
	uint32_t state;
	struct buf held;
};

/* Starts a stream over set (which must outlive it). */
void mask_stream_init(struct mask_stream *s, const struct mask_set *set);
/* Frees held text (wiping it). */
void mask_stream_fini(struct mask_stream *s);
/* Appends the masked text that is now certain to out; keeps a possible secret prefix. */
void mask_stream_feed(struct mask_stream *s, const char *in, size_t n, struct buf *out);
/* Ends the stream: appends what is held (it cannot be a whole secret) and starts over. */
void mask_stream_flush(struct mask_stream *s, struct buf *out);
/* One-shot: appends in[0..n) with every secret replaced. */
void mask_text(const struct mask_set *set, const char *in, size_t n, struct buf *out);

#endif
