/* The key file (keyring/key_file.c): one line per server however its URL is spelled, set
 * replaces, rm removes only its own line, the last rm removes the file, and a file that is a
 * link or that others may read is refused untouched. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keyring.h"

static char dir[64];
static char path[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/tether-keyfile-XXXXXX");
	assert_non_null(mkdtemp(dir));
	setenv("XDG_CONFIG_HOME", dir, 1);
	snprintf(path, sizeof path, "%s/tether/keys", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* The key stored for url, or NULL; the status in *st. */
static char *get(const char *url, enum keyring_status *st)
{
	struct buf err;
	buf_init(&err);
	char *key = NULL;
	*st = keyring_file_key_get(url, &key, &err);
	buf_fini(&err);
	return key;
}

static void set(const char *url, const char *key)
{
	struct buf err;
	buf_init(&err);
	assert_int_equal(keyring_file_key_set(url, key, &err), KEYRING_OK);
	buf_fini(&err);
}

static char *slurp(void)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char text[4096];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void test_servers_apart_spellings_alike(void **state)
{
	(void)state;
	enum keyring_status st;
	assert_null(get("http://a.example:1", &st));
	assert_int_equal(st, KEYRING_NOT_FOUND);
	set("http://A.example:1/", "key-a-1111");
	set("https://b.example", "key-b with spaces\tand a tab");
	set("ws://a.example:1", "key-a-2222");          /* the same server: replaced */
	char *k = get("HTTP://a.EXAMPLE:1", &st);
	assert_int_equal(st, KEYRING_OK);
	assert_string_equal(k, "key-a-2222");
	free(k);
	k = get("wss://b.example/", &st);
	assert_string_equal(k, "key-b with spaces\tand a tab");
	free(k);
	assert_string_equal(slurp(), "https://b.example\tkey-b with spaces\tand a tab\n"
				     "http://a.example:1\tkey-a-2222\n");
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);

	struct buf err;
	buf_init(&err);
	assert_int_equal(keyring_file_key_rm("http://a.example:1", &err), KEYRING_OK);
	assert_int_equal(keyring_file_key_rm("http://a.example:1", &err), KEYRING_NOT_FOUND);
	assert_string_equal(slurp(), "https://b.example\tkey-b with spaces\tand a tab\n");
	assert_int_equal(keyring_file_key_rm("https://b.example", &err), KEYRING_OK);
	assert_int_equal(access(path, F_OK), -1);       /* no keys left: no file */
	buf_fini(&err);
}

static void test_one_line_keys_only(void **state)
{
	(void)state;
	struct buf err;
	buf_init(&err);
	assert_int_equal(keyring_file_key_set("http://x", "two\nlines", &err), KEYRING_ERROR);
	assert_int_equal(keyring_file_key_set("http://x", "", &err), KEYRING_ERROR);
	assert_int_equal(access(path, F_OK), -1);
	buf_fini(&err);
}

static void test_wide_or_linked_file_refused(void **state)
{
	(void)state;
	set("http://x", "key-x-1234");
	assert_int_equal(chmod(path, 0640), 0);
	enum keyring_status st;
	struct buf err;
	buf_init(&err);
	char *key = NULL;
	assert_int_equal(keyring_file_key_get("http://x", &key, &err), KEYRING_ERROR);
	assert_null(key);
	assert_non_null(strstr(buf_cstr(&err), "has mode 0640"));
	buf_clear(&err);
	assert_int_equal(keyring_file_key_set("http://x", "key-y-1234", &err), KEYRING_ERROR);
	assert_int_equal(chmod(path, 0600), 0);
	assert_string_equal(slurp(), "http://x\tkey-x-1234\n");

	char target[160];
	snprintf(target, sizeof target, "%s/elsewhere", dir);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink(target, path), 0);
	buf_clear(&err);
	assert_null(get("http://x", &st));
	assert_int_equal(st, KEYRING_ERROR);
	assert_int_equal(keyring_file_key_rm("http://x", &err), KEYRING_ERROR);
	assert_non_null(strstr(buf_cstr(&err), "is a symbolic link"));
	struct stat sb;
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	buf_fini(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_servers_apart_spellings_alike, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_line_keys_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wide_or_linked_file_refused, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
