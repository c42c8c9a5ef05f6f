/* Finding, storing and removing the session API key across the keyring and the key file. */
#include "key_source.h"
#include "exit_code.h"
#include "clean.h"
#include "diagnose.h"

#include <stdlib.h>

/* Keeps a clean line for the authentication failure to say, should the server want a key. */
static void trouble_keep(struct buf *err)
{
	struct buf shown;
	buf_init(&shown);
	sanitize_text(buf_cstr(err), err->len, &shown);
	diag_set_keyring_trouble(buf_cstr(&shown));
	buf_fini(&shown);
}

char *key_find(const char *server)
{
	const char *env = getenv("TETHER_SESSION_API_KEY");
	if (env && *env)
		return xstrdup(env);
	char *key = NULL;
	struct buf err, ferr;
	buf_init(&err);
	buf_init(&ferr);
	enum keyring_status st = keyring_api_key_get(server, &key, &err);
	enum keyring_status fst = KEYRING_NOT_FOUND;
	if (!key)
		fst = keyring_file_key_get(server, &key, &ferr);
	/* Said only if the server turns out to want a key (cli.md: the keyring is mentioned
	 * only when it was needed and could not serve); a refused key file first. */
	if (!key && fst != KEYRING_NOT_FOUND)
		trouble_keep(&ferr);
	else if (!key && st != KEYRING_NOT_FOUND)
		trouble_keep(&err);
	buf_fini(&err);
	buf_fini(&ferr);
	return key;
}

int key_store(const char *server, const char *key)
{
	struct buf err, path;
	buf_init(&err);
	buf_init(&path);
	int rc = EXIT_OK;
	enum keyring_status st = keyring_api_key_set(server, key, &err);
	if (st == KEYRING_OK) {
		clean_eprintf(NULL, "stored the session API key for %s in the keyring", server);
	} else if (st == KEYRING_NO_BUS || st == KEYRING_NO_SERVICE) {
		buf_putc(&err, '\n');
		size_t said = err.len;
		if (keyring_file_key_set(server, key, &err) == KEYRING_OK) {
			keyring_file_path(&path);
			err.data[said - 1] = '\0';
			clean_eprintf(NULL, "warning: %s; the session API key for %s is stored in plain "
				      "text in %s (mode 0600)", buf_cstr(&err), server, buf_cstr(&path));
		} else {
			clean_eprintf(NULL, "%s; the key was not stored", err.data + said);
			rc = EXIT_RUNTIME;
		}
	} else {
		clean_eprintf(NULL, "%s; the key was not stored", buf_cstr(&err));
		rc = EXIT_RUNTIME;
	}
	buf_fini(&err);
	buf_fini(&path);
	return rc;
}

int key_remove(const char *server)
{
	struct buf err, ferr;
	buf_init(&err);
	buf_init(&ferr);
	enum keyring_status st = keyring_api_key_rm(server, &err);
	enum keyring_status fst = keyring_file_key_rm(server, &ferr);
	int rc = EXIT_OK;
	if (st == KEYRING_OK || fst == KEYRING_OK) {
		clean_eprintf(NULL, "removed the session API key for %s", server);
	} else {
		/* The file's word (none there, or refused), then the keyring's trouble if any. */
		if (st != KEYRING_NOT_FOUND)
			buf_printf(&ferr, " (%s)", buf_cstr(&err));
		clean_eprintf(NULL, "%s; nothing was removed", buf_cstr(&ferr));
		rc = EXIT_RUNTIME;
	}
	buf_fini(&err);
	buf_fini(&ferr);
	return rc;
}
