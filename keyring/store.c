/* The keyring API: session API keys per server and named local secrets, stored in the
 * Secret Service's default collection under two schemas of our own. */
#include "store_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const SecretSchema api_key_schema = {
	.name = "org.tether.ApiKey",
	.flags = SECRET_SCHEMA_NONE,
	.attributes = { { .name = "server", .type = SECRET_SCHEMA_ATTRIBUTE_STRING } },
};

static const SecretSchema secret_schema = {
	.name = "org.tether.Secret",
	.flags = SECRET_SCHEMA_NONE,
	.attributes = { { .name = "name", .type = SECRET_SCHEMA_ATTRIBUTE_STRING } },
};

/* One key per server however its URL is spelled: scheme and host lowercased, ws(s)
 * read as http(s) (the same server, see cli.md), trailing slashes dropped. */
char *keyring_server_normalize(const char *url)
{
	static const struct {
		const char *from, *to;
	} schemes[] = { { "ws", "http" }, { "wss", "https" } };
	struct buf b;
	buf_init(&b);
	const char *sep = strstr(url, "://");
	const char *rest = url;
	if (sep) {
		char scheme[16];
		size_t n = (size_t)(sep - url);
		if (n < sizeof scheme) {
			for (size_t i = 0; i < n; i++)
				scheme[i] = (char)tolower((unsigned char)url[i]);
			scheme[n] = '\0';
			for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
				if (!strcmp(scheme, schemes[i].from))
					snprintf(scheme, sizeof scheme, "%s", schemes[i].to);
			buf_puts(&b, scheme);
		} else {
			buf_append(&b, url, n);
		}
		buf_puts(&b, "://");
		rest = sep + 3;
	}
	size_t auth = strcspn(rest, "/?#");
	const char *at = memchr(rest, '@', auth);
	size_t host_from = at ? (size_t)(at - rest) + 1 : 0;
	for (size_t i = 0; i < auth; i++)
		buf_putc(&b, i < host_from ? rest[i] : (char)tolower((unsigned char)rest[i]));
	buf_puts(&b, rest + auth);
	while (b.len > 0 && b.data[b.len - 1] == '/')
		b.data[--b.len] = '\0';
	return buf_steal(&b);
}

static GHashTable *attributes_one(const char *name, const char *value)
{
	GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
	g_hash_table_insert(h, (gpointer)name, (gpointer)value);
	return h;
}

static char *value_copy(SecretValue *v)
{
	gsize len = 0;
	const gchar *data = secret_value_get(v, &len);
	return xstrndup(data ? data : "", data ? len : 0);
}

static enum keyring_status store(const SecretSchema *schema, const char *attr,
				  const char *value_of_attr, const char *label, const char *secret,
				  struct buf *err)
{
	struct keyring_call c;
	enum keyring_status st = keyring_call_begin(&c, err);
	if (st != KEYRING_OK)
		return st;
	GHashTable *attrs = attributes_one(attr, value_of_attr);
	SecretValue *v = secret_value_new(secret, -1, "text/plain");
	GError *e = NULL;
	gboolean ok = secret_service_store_sync(c.service, schema, attrs, SECRET_COLLECTION_DEFAULT,
						label, v, c.cancel, &e);
	secret_value_unref(v);
	g_hash_table_unref(attrs);
	keyring_call_end(&c);
	if (!ok)
		return keyring_call_fail(e, err);
	return KEYRING_OK;
}

static enum keyring_status clear(const SecretSchema *schema, const char *attr,
				  const char *value_of_attr, const char *what, struct buf *err)
{
	struct keyring_call c;
	enum keyring_status st = keyring_call_begin(&c, err);
	if (st != KEYRING_OK)
		return st;
	GHashTable *attrs = attributes_one(attr, value_of_attr);
	GError *e = NULL;
	gboolean ok = secret_service_clear_sync(c.service, schema, attrs, c.cancel, &e);
	g_hash_table_unref(attrs);
	enum keyring_status rc = KEYRING_OK;
	if (e)
		rc = keyring_call_fail(e, err);
	else if (!ok)
		rc = keyring_call_absent(&c, err, what);
	keyring_call_end(&c);
	return rc;
}

enum keyring_status keyring_api_key_get(const char *server_url, char **key, struct buf *err)
{
	*key = NULL;
	if (!server_url || !*server_url)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: no server URL given");
	struct keyring_call c;
	enum keyring_status st = keyring_call_begin(&c, err);
	if (st != KEYRING_OK)
		return st;
	char *server = keyring_server_normalize(server_url);
	GHashTable *attrs = attributes_one("server", server);
	GError *e = NULL;
	SecretValue *v = secret_service_lookup_sync(c.service, &api_key_schema, attrs, c.cancel, &e);
	g_hash_table_unref(attrs);
	enum keyring_status rc = KEYRING_OK;
	if (v) {
		*key = value_copy(v);
		secret_value_unref(v);
	} else if (e) {
		rc = keyring_call_fail(e, err);
	} else {
		/* A locked keyring answers a lookup with nothing, exactly like a missing item. */
		char what[320];
		snprintf(what, sizeof what, "session API key for %s", server);
		rc = keyring_call_absent(&c, err, what);
	}
	keyring_call_end(&c);
	free(server);
	return rc;
}

enum keyring_status keyring_api_key_set(const char *server_url, const char *key, struct buf *err)
{
	if (!server_url || !*server_url)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: no server URL given");
	if (!key || !*key)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: the API key is empty");
	char *server = keyring_server_normalize(server_url);
	char label[320];
	snprintf(label, sizeof label, "tether session API key for %s", server);
	enum keyring_status rc = store(&api_key_schema, "server", server, label, key, err);
	free(server);
	return rc;
}

enum keyring_status keyring_api_key_rm(const char *server_url, struct buf *err)
{
	if (!server_url || !*server_url)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: no server URL given");
	char *server = keyring_server_normalize(server_url);
	char what[320];
	snprintf(what, sizeof what, "session API key for %s", server);
	enum keyring_status rc = clear(&api_key_schema, "server", server, what, err);
	free(server);
	return rc;
}

enum keyring_status keyring_secret_add(const char *name, const char *value, struct buf *err)
{
	if (!name || !*name)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: a secret needs a name");
	if (!value || !*value)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: the secret is empty");
	char label[320];
	snprintf(label, sizeof label, "tether secret %s", name);
	return store(&secret_schema, "name", name, label, value, err);
}

enum keyring_status keyring_secret_rm(const char *name, struct buf *err)
{
	if (!name || !*name)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: a secret needs a name");
	char what[320];
	snprintf(what, sizeof what, "secret named %s", name);
	return clear(&secret_schema, "name", name, what, err);
}

struct named {
	char *name;
	char *value;
};

static int named_compare(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

static void named_free(struct named *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(items[i].name);
		str_wipe_free(items[i].value);
	}
	free(items);
}

/* Reads the search results; false when any item is still locked. */
static bool named_collect(GList *found, bool want_values, struct named **out, size_t *count)
{
	struct named *items = xcalloc(g_list_length(found) + 1, sizeof *items);
	size_t n = 0;
	bool locked = false;
	for (GList *l = found; l; l = l->next) {
		SecretItem *item = l->data;
		if (secret_item_get_locked(item)) {
			locked = true;
			continue;
		}
		GHashTable *attrs = secret_item_get_attributes(item);
		const char *name = attrs ? g_hash_table_lookup(attrs, "name") : NULL;
		SecretValue *v = want_values ? secret_item_get_secret(item) : NULL;
		if (name && (!want_values || v)) {
			items[n].name = xstrdup(name);
			items[n].value = v ? value_copy(v) : NULL;
			n++;
		}
		if (v)
			secret_value_unref(v);
		if (attrs)
			g_hash_table_unref(attrs);
	}
	qsort(items, n, sizeof *items, named_compare);
	*out = items;
	*count = n;
	return !locked;
}

enum keyring_status keyring_secret_list(bool want_values, char ***items, size_t *count,
					struct buf *err)
{
	*items = NULL;
	*count = 0;
	struct keyring_call c;
	enum keyring_status st = keyring_call_begin(&c, err);
	if (st != KEYRING_OK)
		return st;
	GHashTable *none = g_hash_table_new(g_str_hash, g_str_equal);
	SecretSearchFlags flags = SECRET_SEARCH_ALL | SECRET_SEARCH_UNLOCK;
	if (want_values)
		flags |= SECRET_SEARCH_LOAD_SECRETS;
	GError *e = NULL;
	GList *found = secret_service_search_sync(c.service, &secret_schema, none, flags, c.cancel, &e);
	g_hash_table_unref(none);
	if (e) {
		keyring_call_end(&c);
		return keyring_call_fail(e, err);
	}
	struct named *named;
	size_t n;
	bool all_open = named_collect(found, want_values, &named, &n);
	g_list_free_full(found, g_object_unref);
	/* Nothing found in a locked keyring says nothing about what it holds. */
	if (!all_open || (n == 0 && keyring_call_default_locked(&c))) {
		keyring_call_end(&c);
		named_free(named, n);
		return keyring_call_error(err, KEYRING_LOCKED,
					  "keyring: the default keyring is locked, so the secrets to "
					  "mask cannot be read; unlock it, or use --mask-file");
	}
	keyring_call_end(&c);
	char **out = xcalloc(n + 1, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		out[i] = want_values ? named[i].value : named[i].name;
		if (want_values)
			named[i].value = NULL;
		else
			named[i].name = NULL;
	}
	named_free(named, n);
	*items = out;
	*count = n;
	return KEYRING_OK;
}

void keyring_strings_free(char **items, size_t count)
{
	if (!items)
		return;
	for (size_t i = 0; i < count; i++)
		str_wipe_free(items[i]);
	free(items);
}
