/* tether key set|rm and tether secret add|list|rm: the keyring from the command line.
 * Values come from stdin or a no-echo prompt on the terminal and are never printed. */
#include "commands.h"
#include "app.h"
#include "server_check.h"
#include "keyring.h"
#include "clean.h"
#include "key_source.h"
#include "tty_prompt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Gets one value: all of stdin when it is not a terminal, else a no-echo prompt. One
 * trailing newline (LF or CRLF) is dropped. Returns 0, or an exit code after a message. */
static int value_get(const char *prompt, struct tty_value *v)
{
	bool piped = !isatty(STDIN_FILENO);
	int rc = piped ? tty_value_read(STDIN_FILENO, false, v) : tty_prompt(prompt, false, v);
	if (rc != 0) {
		fprintf(stderr, "tether: cannot read the value from %s: %s\n",
			piped ? "stdin" : "the terminal", strerror(errno));
		tty_value_free(v);
		return EXIT_RUNTIME;
	}
	if (v->len > TTY_VALUE_MAX) {
		fprintf(stderr, "tether: the value is longer than %d bytes\n", TTY_VALUE_MAX);
		tty_value_free(v);
		return EXIT_USAGE;
	}
	if (v->len && v->data[v->len - 1] == '\n')
		v->len--;
	if (v->len && v->data[v->len - 1] == '\r')
		v->len--;
	v->data[v->len] = '\0';
	if (v->len == 0) {
		fprintf(stderr, "tether: the value is empty; nothing was stored\n");
		tty_value_free(v);
		return EXIT_USAGE;
	}
	if (memchr(v->data, '\n', v->len) || strlen(v->data) != v->len) {
		fprintf(stderr, "tether: the value must be one line of text; nothing was stored\n");
		tty_value_free(v);
		return EXIT_USAGE;
	}
	return 0;
}

/* Says why a keyring call failed and what did not happen (then, "" for nothing); frees err. */
static int keyring_failed(struct buf *err, const char *then)
{
	clean_eprintf(NULL, "%s%s", buf_cstr(err), then);
	buf_fini(err);
	return EXIT_RUNTIME;
}

/* Names end up one per line in secret list, so no control characters. */
static bool name_ok(const char *name)
{
	if (!name || !*name || strlen(name) > 200)
		return false;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* "what arg: ", a prompt that names what the user typed, safe for the terminal. */
static char *shown_prompt(const char *what, const char *arg)
{
	struct buf raw, shown;
	buf_init(&raw);
	buf_init(&shown);
	buf_printf(&raw, "%s %s: ", what, arg);
	sanitize_text(buf_cstr(&raw), raw.len, &shown);
	buf_fini(&raw);
	return buf_steal(&shown);
}

static int key_set(const struct options *o)
{
	/* a key stored under a URL the client refuses could never be used */
	if (server_check(o->server) != 0)
		return EXIT_USAGE;
	struct tty_value v;
	char *prompt = shown_prompt("session API key for", o->server);
	int rc = value_get(prompt, &v);
	free(prompt);
	if (rc != 0)
		return rc;
	rc = key_store(o->server, v.data);
	tty_value_free(&v);
	return rc;
}

static int key_rm(const struct options *o)
{
	return key_remove(o->server);
}

static int secret_add(const struct options *o)
{
	if (!name_ok(o->secret_name)) {
		fprintf(stderr, "tether: a secret name is 1 to 200 printable characters\n");
		return EXIT_USAGE;
	}
	struct tty_value v;
	char *prompt = shown_prompt("value of secret", o->secret_name);
	int rc = value_get(prompt, &v);
	free(prompt);
	if (rc != 0)
		return rc;
	/* The masker's own rules decide what can be a secret. */
	struct mask_set *check = mask_set_create();
	struct buf err;
	buf_init(&err);
	if (mask_set_add(check, v.data, v.len, &err) != 0) {
		clean_eprintf(NULL, "secret %s not stored: %s", o->secret_name, buf_cstr(&err));
		rc = EXIT_USAGE;
	} else {
		rc = keyring_secret_add(o->secret_name, v.data, &err) == KEYRING_OK
			     ? EXIT_OK : keyring_failed(&err, "; the secret was not stored");
	}
	buf_fini(&err);
	mask_set_destroy(check);
	tty_value_free(&v);
	if (rc == EXIT_OK)
		clean_eprintf(NULL, "stored secret %s", o->secret_name);
	return rc;
}

static int secret_list(const struct options *o)
{
	(void)o;
	char **names = NULL;
	size_t n = 0;
	struct buf err;
	buf_init(&err);
	if (keyring_secret_list(false, &names, &n, &err) != KEYRING_OK)
		return keyring_failed(&err, "");
	buf_fini(&err);
	struct buf shown;
	buf_init(&shown);
	for (size_t i = 0; i < n; i++) {
		/* Names stored by other tools may hold anything: keep the terminal safe. */
		for (char *p = names[i]; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		buf_clear(&shown);
		sanitize_text(names[i], strlen(names[i]), &shown);
		printf("%s\n", buf_cstr(&shown));
	}
	buf_fini(&shown);
	keyring_strings_free(names, n);
	return command_flush_stdout();
}

static int secret_rm(const struct options *o)
{
	if (!name_ok(o->secret_name)) {
		fprintf(stderr, "tether: a secret name is 1 to 200 printable characters\n");
		return EXIT_USAGE;
	}
	struct buf err;
	buf_init(&err);
	if (keyring_secret_rm(o->secret_name, &err) != KEYRING_OK)
		return keyring_failed(&err, "; nothing was removed");
	buf_fini(&err);
	clean_eprintf(NULL, "removed secret %s", o->secret_name);
	return EXIT_OK;
}

static const struct {
	enum command command;
	int (*run)(const struct options *o);
} keyring_commands[] = {
	{ CMD_KEY_SET, key_set },
	{ CMD_KEY_RM, key_rm },
	{ CMD_SECRET_ADD, secret_add },
	{ CMD_SECRET_LIST, secret_list },
	{ CMD_SECRET_RM, secret_rm },
};

int cmd_keyring_run(const struct options *o)
{
	for (size_t i = 0; i < sizeof keyring_commands / sizeof keyring_commands[0]; i++)
		if (keyring_commands[i].command == o->command)
			return keyring_commands[i].run(o);
	fprintf(stderr, "tether: not a keyring command\n");
	return EXIT_USAGE;
}
