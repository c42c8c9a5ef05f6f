/* The keyring API (keyring/store*.c) against a real Secret Service: scripts/test runs
 * the suite inside dbus-run-session with an unlocked gnome-keyring. Without a session
 * bus or a provider the test is skipped (exit 77). Names are unique per run and every
 * item made here is removed again. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "keyring.h"

static char run_id[64];

static void name_of(char *out, size_t cap, const char *what)
{
	snprintf(out, cap, "tether-test-%s-%s", run_id, what);
}

static bool list_has(char **items, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(items[i], want))
			return true;
	return false;
}

static void test_api_key_roundtrip(void **state)
{
	(void)state;
	char host[160], stored[200], other[200];
	snprintf(host, sizeof host, "Host-%s.Example", run_id);
	snprintf(stored, sizeof stored, "HTTP://%s:8000/", host);
	struct buf err;
	buf_init(&err);
	assert_int_equal(keyring_api_key_set(stored, "key-one-2345", &err), KEYRING_OK);
	assert_int_equal(err.len, 0);          /* a success says nothing */

	/* The same server however the URL is spelled. */
	for (char *p = host; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	const char *fmts[] = { "http://%s:8000", "ws://%s:8000//", "http://%s:8000/" };
	for (size_t i = 0; i < 3; i++) {
		snprintf(other, sizeof other, fmts[i], host);
		char *key = NULL;
		assert_int_equal(keyring_api_key_get(other, &key, &err), 0);
		assert_string_equal(key, "key-one-2345");
		free(key);
	}
	/* Another port or scheme is another server. */
	snprintf(other, sizeof other, "https://%s:8000", host);
	char *key = (char *)"sentinel";
	buf_clear(&err);
	assert_int_equal(keyring_api_key_get(other, &key, &err), KEYRING_NOT_FOUND);
	assert_null(key);

	/* Storing again replaces. */
	assert_int_equal(keyring_api_key_set(stored, "key-two-6789", &err), 0);
	assert_int_equal(keyring_api_key_get(stored, &key, &err), 0);
	assert_string_equal(key, "key-two-6789");
	free(key);

	assert_int_equal(keyring_api_key_rm(stored, &err), 0);
	key = NULL;
	buf_clear(&err);
	assert_int_equal(keyring_api_key_get(stored, &key, &err), KEYRING_NOT_FOUND);
	assert_non_null(strstr(buf_cstr(&err), "no session API key"));
	buf_clear(&err);
	assert_int_equal(keyring_api_key_rm(stored, &err), KEYRING_NOT_FOUND);
	buf_fini(&err);
}

static void test_secrets_roundtrip(void **state)
{
	(void)state;
	char a[128], b[128];
	name_of(b, sizeof b, "zulu");
	name_of(a, sizeof a, "alpha");
	struct buf err;
	buf_init(&err);
	assert_int_equal(keyring_secret_add(b, "value-of-zulu", &err), 0);
	assert_int_equal(keyring_secret_add(a, "value-of-alpha-old", &err), 0);
	assert_int_equal(keyring_secret_add(a, "value-of-alpha", &err), 0);

	char **names = NULL;
	size_t n = 0;
	assert_int_equal(keyring_secret_list(false, &names, &n, &err), 0);
	assert_true(list_has(names, n, a));
	assert_true(list_has(names, n, b));
	assert_false(list_has(names, n, "value-of-zulu"));
	size_t ia = n, ib = n;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(names[i], a))
			ia = i;
		if (!strcmp(names[i], b))
			ib = i;
		if (i)
			assert_true(strcmp(names[i - 1], names[i]) <= 0);
	}
	assert_true(ia < ib);
	keyring_strings_free(names, n);

	char **values = NULL;
	size_t nv = 0;
	assert_int_equal(keyring_secret_list(true, &values, &nv, &err), 0);
	assert_true(list_has(values, nv, "value-of-zulu"));
	assert_true(list_has(values, nv, "value-of-alpha"));
	assert_false(list_has(values, nv, "value-of-alpha-old"));
	assert_false(list_has(values, nv, a));
	assert_int_equal(nv, n);
	keyring_strings_free(values, nv);

	assert_int_equal(keyring_secret_rm(a, &err), 0);
	assert_int_equal(keyring_secret_rm(b, &err), 0);
	assert_int_equal(keyring_secret_list(false, &names, &n, &err), 0);
	assert_false(list_has(names, n, a));
	assert_false(list_has(names, n, b));
	keyring_strings_free(names, n);
	buf_clear(&err);
	assert_int_equal(keyring_secret_rm(a, &err), KEYRING_NOT_FOUND);
	assert_non_null(strstr(buf_cstr(&err), a));
	buf_fini(&err);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	struct buf err;
	buf_init(&err);
	char *key = NULL;
	assert_int_equal(keyring_api_key_get("", &key, &err), KEYRING_ERROR);
	buf_clear(&err);
	assert_int_equal(keyring_api_key_set("http://x", "", &err), KEYRING_ERROR);
	buf_clear(&err);
	assert_int_equal(keyring_secret_add("", "value-1234", &err), KEYRING_ERROR);
	assert_non_null(strstr(buf_cstr(&err), "needs a name"));
	keyring_strings_free(NULL, 0);
	buf_fini(&err);
}

int main(void)
{
	if (!getenv("DBUS_SESSION_BUS_ADDRESS")) {
		fprintf(stderr, "no D-Bus session bus: skipped\n");
		return 77;
	}
	snprintf(run_id, sizeof run_id, "%ld-%ld", (long)getpid(), (long)time(NULL));
	char **items = NULL;
	size_t n = 0;
	struct buf err;
	buf_init(&err);
	enum keyring_status st = keyring_secret_list(false, &items, &n, &err);
	if (st != KEYRING_OK) {
		if (st == KEYRING_NO_BUS || st == KEYRING_NO_SERVICE) {
			fprintf(stderr, "%s: skipped\n", buf_cstr(&err));
			buf_fini(&err);
			return 77;
		}
	} else {
		keyring_strings_free(items, n);
	}
	buf_fini(&err);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_key_roundtrip),
		cmocka_unit_test(test_secrets_roundtrip),
		cmocka_unit_test(test_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
