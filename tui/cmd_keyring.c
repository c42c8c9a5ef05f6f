/* tether key set|rm and tether secret add|list|rm: the keyring from the command line.
 * Values come from stdin or a no-echo prompt on the terminal and are never printed. */
#include "commands.h"
#include "app.h"
#include "keyring.h"
#include "clean.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* Far above any key or secret; a bound so that a stray pipe cannot fill memory. */
#define VALUE_MAX (64 * 1024)

struct value {
	char *data;
	size_t len;
};

static void value_free(struct value *v)
{
	if (v->data)
		mem_wipe(v->data, VALUE_MAX + 1);
	free(v->data);
	v->data = NULL;
	v->len = 0;
}

/* Reads fd up to end of file (or, when one_line, the first newline) into v. */
static int value_read(int fd, bool one_line, struct value *v)
{
	v->data = xmalloc(VALUE_MAX + 1);
	v->len = 0;
	for (;;) {
		ssize_t n = read(fd, v->data + v->len, VALUE_MAX + 1 - v->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		v->len += (size_t)n;
		if (one_line && memchr(v->data, '\n', v->len))
			break;
		if (v->len > VALUE_MAX)
			break;
	}
	return 0;
}

/* The terminal state to put back if a signal ends the prompt. */
static struct termios prompt_saved;
static int prompt_fd = -1;

static void prompt_on_signal(int sig)
{
	tcsetattr(prompt_fd, TCSAFLUSH, &prompt_saved);
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int prompt_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP };
#define NPROMPT_SIGNALS (sizeof prompt_signals / sizeof prompt_signals[0])

/* Asks on /dev/tty with echo off. */
static int value_prompt(const char *prompt, struct value *v)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct termios t;
	if (tcgetattr(fd, &t) != 0) {
		close(fd);
		return -1;
	}
	prompt_saved = t;
	prompt_fd = fd;
	struct sigaction sa = { .sa_handler = prompt_on_signal }, old[NPROMPT_SIGNALS];
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NPROMPT_SIGNALS; i++)
		sigaction(prompt_signals[i], &sa, &old[i]);
	t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
	t.c_lflag |= ICANON;
	int rc = -1;
	if (tcsetattr(fd, TCSAFLUSH, &t) == 0) {
		if (write(fd, prompt, strlen(prompt)) >= 0)
			rc = value_read(fd, true, v);
		tcsetattr(fd, TCSAFLUSH, &prompt_saved);
		if (write(fd, "\n", 1) < 0) {
			/* only the cosmetic newline after the hidden input is lost */
		}
	}
	for (size_t i = 0; i < NPROMPT_SIGNALS; i++)
		sigaction(prompt_signals[i], &old[i], NULL);
	prompt_fd = -1;
	close(fd);
	return rc;
}

/* Gets one value: all of stdin when it is not a terminal, else a no-echo prompt. One
 * trailing newline (LF or CRLF) is dropped. Returns 0, or an exit code after a message. */
static int value_get(const char *prompt, struct value *v)
{
	bool piped = !isatty(STDIN_FILENO);
	int rc = piped ? value_read(STDIN_FILENO, false, v) : value_prompt(prompt, v);
	if (rc != 0) {
		fprintf(stderr, "tether: cannot read the value from %s: %s\n",
			piped ? "stdin" : "the terminal", strerror(errno));
		value_free(v);
		return EXIT_RUNTIME;
	}
	if (v->len > VALUE_MAX) {
		fprintf(stderr, "tether: the value is longer than %d bytes\n", VALUE_MAX);
		value_free(v);
		return EXIT_USAGE;
	}
	if (v->len && v->data[v->len - 1] == '\n')
		v->len--;
	if (v->len && v->data[v->len - 1] == '\r')
		v->len--;
	v->data[v->len] = '\0';
	if (v->len == 0) {
		fprintf(stderr, "tether: the value is empty; nothing was stored\n");
		value_free(v);
		return EXIT_USAGE;
	}
	if (memchr(v->data, '\n', v->len) || strlen(v->data) != v->len) {
		fprintf(stderr, "tether: the value must be one line of text; nothing was stored\n");
		value_free(v);
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
	if (app_check_server(o->server) != 0)
		return EXIT_USAGE;
	struct value v;
	char *prompt = shown_prompt("session API key for", o->server);
	int rc = value_get(prompt, &v);
	free(prompt);
	if (rc != 0)
		return rc;
	struct buf err;
	buf_init(&err);
	rc = keyring_api_key_set(o->server, v.data, &err) == KEYRING_OK ? EXIT_OK
									 : keyring_failed(&err, "; the key was not stored");
	buf_fini(&err);
	value_free(&v);
	if (rc == EXIT_OK)
		clean_eprintf(NULL, "stored the session API key for %s", o->server);
	return rc;
}

static int key_rm(const struct options *o)
{
	struct buf err;
	buf_init(&err);
	if (keyring_api_key_rm(o->server, &err) != KEYRING_OK)
		return keyring_failed(&err, "; nothing was removed");
	buf_fini(&err);
	clean_eprintf(NULL, "removed the session API key for %s", o->server);
	return EXIT_OK;
}

static int secret_add(const struct options *o)
{
	if (!name_ok(o->secret_name)) {
		fprintf(stderr, "tether: a secret name is 1 to 200 printable characters\n");
		return EXIT_USAGE;
	}
	struct value v;
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
	value_free(&v);
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
