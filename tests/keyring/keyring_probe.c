/* Test helper for keyring_cases.sh: one keyring call, then the status name and the
 * message on stdout (exit 0 whenever the call returned). Values come from argv here
 * only because this is a test program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyring.h"

static const char *const status_names[] = {
	[KEYRING_OK] = "OK",
	[KEYRING_NOT_FOUND] = "NOT_FOUND",
	[KEYRING_NO_BUS] = "NO_BUS",
	[KEYRING_NO_SERVICE] = "NO_SERVICE",
	[KEYRING_LOCKED] = "LOCKED",
	[KEYRING_ERROR] = "ERROR",
};

int main(int argc, char **argv)
{
	int a = 1;
	if (a + 1 < argc && !strcmp(argv[a], "--timeout-ms")) {
		keyring_set_timeout_ms(atoi(argv[a + 1]));
		a += 2;
	}
	if (a >= argc) {
		fprintf(stderr, "usage: keyring_probe [--timeout-ms N] get|set|rm SERVER [KEY] | "
				"add|rm-secret NAME [VALUE] | list\n");
		return 2;
	}
	const char *op = argv[a], *arg = a + 1 < argc ? argv[a + 1] : "";
	const char *value = a + 2 < argc ? argv[a + 2] : "";
	struct buf err;
	buf_init(&err);
	enum keyring_status st = KEYRING_OK;
	char *key = NULL;
	char **items = NULL;
	size_t n = 0;
	if (!strcmp(op, "get")) {
		st = keyring_api_key_get(arg, &key, &err);
	} else if (!strcmp(op, "set")) {
		st = keyring_api_key_set(arg, value, &err);
	} else if (!strcmp(op, "rm")) {
		st = keyring_api_key_rm(arg, &err);
	} else if (!strcmp(op, "add")) {
		st = keyring_secret_add(arg, value, &err);
	} else if (!strcmp(op, "rm-secret")) {
		st = keyring_secret_rm(arg, &err);
	} else if (!strcmp(op, "list")) {
		st = keyring_secret_list(false, &items, &n, &err);
	} else {
		fprintf(stderr, "keyring_probe: unknown operation %s\n", op);
		return 2;
	}
	printf("%s\n%s\n", status_names[st], buf_cstr(&err));
	buf_fini(&err);
	if (key)
		printf("key=%s\n", key);
	for (size_t i = 0; i < n; i++)
		printf("name=%s\n", items[i]);
	free(key);
	keyring_strings_free(items, n);
	return 0;
}
