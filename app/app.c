/* The modes after option parsing: secrets and keys, the client (headless or TUI), list. */
#include "app.h"
#include "clean.h"
#include "commands.h"
#include "headless_run.h"
#include "key_prompt.h"
#include "key_source.h"
#include "list.h"
#include "outfile.h"
#include "pick.h"
#include "server_check.h"
#include "terminal.h"
#include "tui.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Library and debug logging goes to --log (masked), never to the terminal. */
static FILE *log_file;
static const struct mask_set *log_masks;
/* errno of a failed --log write: logging stops, and it is said once at exit (the screen may
 * be taken when it happens; a debug log is not worth ending the run for). */
static int log_error;

static void log_line(int level, const char *line)
{
	(void)level;
	if (!log_file)
		return;
	struct buf clean, masked;
	buf_init(&clean);
	buf_init(&masked);
	clean_text(log_masks, line, strlen(line), &clean, &masked);
	errno = 0;
	fprintf(log_file, "%.3f %s", (double)clock_now_us() / 1e6, buf_cstr(&masked));
	if (!masked.len || masked.data[masked.len - 1] != '\n')
		fputc('\n', log_file);
	if (fflush(log_file) != 0 || ferror(log_file)) {
		log_error = errno ? errno : EIO;
		fclose(log_file);
		log_file = NULL;
	}
	buf_fini(&clean);
	buf_fini(&masked);
}

static void warn_refused(void *ctx, const char *line)
{
	const struct options *o = ctx;
	if (!o->quiet)
		clean_eprintf(NULL, "%s", line);
}

/* Gathers the local secrets: --mask-file entries and the keyring's list. Keyring trouble is
 * one line on stderr, never fatal. Returns -1 only for an unreadable --mask-file. */
/* The keyring is mentioned at most once per run (cli.md "Messages"). */
static void keyring_say(const char *why, const char *then)
{
	static bool said;
	if (said)
		return;
	said = true;
	clean_eprintf(NULL, "%s%s", why, then);
}

static int load_masks(const struct options *o, struct mask_set *masks)
{
	struct buf err;
	buf_init(&err);
	for (size_t i = 0; i < o->nmask_files; i++) {
		if (mask_set_add_file(masks, o->mask_files[i], &err, warn_refused, (void *)o) < 0) {
			clean_eprintf(NULL, "--mask-file %s: %s", o->mask_files[i], buf_cstr(&err));
			buf_fini(&err);
			return -1;
		}
	}
	char **values = NULL;
	size_t n = 0;
	enum keyring_status st = keyring_secret_list(true, &values, &n, &err);
	if (st == KEYRING_OK) {
		for (size_t i = 0; i < n; i++) {
			buf_clear(&err);
			if (mask_set_add(masks, values[i], strlen(values[i]), &err) != 0 && !o->quiet)
				fprintf(stderr, "tether: a keyring secret was not used: %s\n",
					buf_cstr(&err));
		}
		keyring_strings_free(values, n);
	} else if (st != KEYRING_NOT_FOUND && st != KEYRING_NO_BUS && st != KEYRING_NO_SERVICE) {
		/* a keyring that is there but does not answer may hold secrets: say so */
		if (!o->quiet)
			keyring_say(buf_cstr(&err), "; stored secrets are not masked");
	} else if (st != KEYRING_NOT_FOUND) {
		/* no keyring, so nothing stored there to mask: only the log hears of it */
		buf_putc(&err, '\n');
		log_line(0, buf_cstr(&err));
	}
	buf_fini(&err);
	return 0;
}

/* The loop takes these through a signalfd. They are blocked before the keyring starts glib's
 * D-Bus worker thread, which inherits the mask: a thread with them unblocked would take a
 * process-wide SIGINT or SIGWINCH itself and the loop would never hear of it. */
static void block_loop_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT};
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&set, sigs[i]);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* Local secrets and the API key, which is masked too. Returns -1 for an unusable --mask-file. */
static int load_secrets(const struct options *o, struct mask_set *masks, char **api_key)
{
	if (load_masks(o, masks) != 0)
		return -1;
	*api_key = key_find(o->server);
	if (*api_key && mask_set_add(masks, *api_key, strlen(*api_key), NULL) != 0 && log_file)
		log_line(0, "the session API key is too short to be masked");
	log_masks = masks;
	return 0;
}

static void forget_secrets(struct mask_set *masks, char *api_key)
{
	str_wipe_free(api_key);
	log_masks = NULL;
	mask_set_destroy(masks);
}

/* The run's event loop, or NULL (said). */
static struct loop *create_loop(const struct mask_set *masks)
{
	struct buf err;
	buf_init(&err);
	struct loop *loop = loop_create(log_line, &err);
	if (!loop)
		clean_eprintf(masks, "cannot create the event loop: %s", buf_cstr(&err));
	buf_fini(&err);
	return loop;
}

static int run_client(const struct options *given)
{
	struct options copy = *given;
	const struct options *o = &copy;
	bool headless = o->headless || !isatty(STDOUT_FILENO);
	if (headless && !o->conversation_id) {
		fprintf(stderr, "tether: headless mode needs a CONVERSATION_ID (see tether list)\n");
		return EXIT_USAGE;
	}
	if (server_check(o->server) != 0)
		return EXIT_USAGE;
	if (!headless) {
		struct buf why;
		buf_init(&why);
		int usable = terminal_check(&why);
		if (usable != 0)
			clean_eprintf(NULL, "%s", buf_cstr(&why));
		buf_fini(&why);
		if (usable != 0)
			return EXIT_USAGE;
	}
	block_loop_signals();
	if (o->insecure && !o->quiet)
		fprintf(stderr, "tether: warning: --insecure: TLS certificates are not verified\n");

	/* Opened before anything else, like --log: a record that cannot be written is a usage
	 * error, said before the screen is taken. */
	FILE *record = NULL;
	if (o->record_path && !(record = outfile_open_append(o->record_path))) {
		clean_eprintf(NULL, "--record %s: %s", o->record_path, outfile_strerror(errno));
		return EXIT_USAGE;
	}
	/* A reader that goes away is seen as EPIPE on the write and ends the run (exit 141). */
	signal(SIGPIPE, SIG_IGN);
	struct mask_set *masks = mask_set_create();
	char *api_key = NULL, *picked = NULL;
	int rc = EXIT_USAGE;
	if (load_secrets(o, masks, &api_key) != 0)
		goto out;
	struct loop *loop = create_loop(masks);
	if (!loop) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (!headless)
		key_prompt(o, loop, masks, &api_key);
	if (!headless && !o->conversation_id) {
		/* The picker runs its own loop, as before the key question shared this one. */
		loop_destroy(loop);
		rc = pick_conversation(o, log_line, masks, api_key, &picked);
		if (rc != EXIT_OK || !picked)
			goto out;
		copy.conversation_id = picked;
		if (!(loop = create_loop(masks))) {
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	if (headless) {
		rc = headless_run(o, loop, masks, api_key, record);
	} else {
		struct tui_reopen reopen;
		rc = tui_run(o, loop, masks, api_key, record, &reopen);
		app_print_reopen(o, &reopen);
	}
	record = NULL; /* the controller closed it */
	loop_destroy(loop);
out:
	if (record)
		fclose(record);
	free(picked);
	forget_secrets(masks, api_key);
	return rc;
}

typedef int (*rest_command_fn)(const struct options *o, loop_log_fn log, const char *api_key,
			       const struct mask_set *masks);

/* A command that only makes REST calls: list and the controls. */
static int run_rest_command(const struct options *o, rest_command_fn fn)
{
	struct mask_set *masks = mask_set_create();
	char *api_key = NULL;
	int rc = EXIT_USAGE;
	if (load_secrets(o, masks, &api_key) == 0)
		rc = fn(o, log_line, api_key, masks);
	forget_secrets(masks, api_key);
	return rc;
}

/* tether new: the conversation made, then with --send or --until a headless run on it. */
static int run_new(const struct options *o)
{
	struct mask_set *masks = mask_set_create();
	char *api_key = NULL, *id = NULL;
	bool follow = o->nsends || o->send_stdin || o->until_given;
	int rc = EXIT_USAGE;
	if (load_secrets(o, masks, &api_key) == 0)
		rc = cmd_manage_run(o, log_line, api_key, masks, follow ? &id : NULL);
	forget_secrets(masks, api_key);
	if (rc == EXIT_OK && id) {
		struct options copy = *o;
		copy.command = CMD_CLIENT;
		copy.headless = true;
		copy.conversation_id = id;
		rc = run_client(&copy);
	}
	free(id);
	return rc;
}

static int manage_run(const struct options *o, loop_log_fn log, const char *api_key,
		      const struct mask_set *masks)
{
	return cmd_manage_run(o, log, api_key, masks, NULL);
}

int app_run(const struct options *o)
{
	if (o->log_path) {
		log_file = outfile_open_append(o->log_path);
		if (!log_file) {
			clean_eprintf(NULL, "--log %s: %s", o->log_path, outfile_strerror(errno));
			return EXIT_USAGE;
		}
	}
	struct buf why;
	buf_init(&why);
	/* Written at the end: a stats file that cannot be written is said now, not lost then. */
	if (o->command == CMD_CLIENT && outfile_check_stats(&why) != 0) {
		clean_eprintf(NULL, "%s", buf_cstr(&why));
		buf_fini(&why);
		if (log_file)
			fclose(log_file);
		log_file = NULL;
		return EXIT_USAGE;
	}
	buf_fini(&why);
	int rc;
	switch (o->command) {
	case CMD_CLIENT:
		rc = run_client(o);
		break;
	case CMD_LIST:
		rc = run_rest_command(o, list_run);
		break;
	case CMD_CONFIRM:
	case CMD_REJECT:
	case CMD_PAUSE:
	case CMD_RESUME:
	case CMD_INTERRUPT:
		rc = run_rest_command(o, cmd_control_run);
		break;
	case CMD_NEW:
		rc = run_new(o);
		break;
	case CMD_FORK:
	case CMD_RENAME:
	case CMD_RM:
	case CMD_ASK:
	case CMD_COMPACT:
	case CMD_MODEL:
	case CMD_GOAL:
	case CMD_POLICY:
	case CMD_SERVER_INFO:
		rc = run_rest_command(o, manage_run);
		break;
	case CMD_WATCH:
		block_loop_signals(); /* before the keyring's thread starts: the loop takes them */
		rc = run_rest_command(o, cmd_watch_run);
		break;
	default:
		rc = cmd_keyring_run(o);
		break;
	}
	if (log_file && fclose(log_file) != 0 && !log_error)
		log_error = errno ? errno : EIO;
	log_file = NULL;
	if (log_error)
		clean_eprintf(NULL, "--log %s: cannot write: %s; the log is incomplete", o->log_path,
			      strerror(log_error));
	return rc;
}
