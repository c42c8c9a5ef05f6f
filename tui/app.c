/* The modes after option parsing: secrets and keys, the client (headless or TUI), list. */
#include "app.h"
#include "controller.h"
#include "headless.h"
#include "latency.h"
#include "recorder.h"
#include "clean.h"
#include "diagnose.h"
#include "list.h"
#include "picker.h"
#include "tui.h"
#include "terminal.h"
#include "commands.h"
#include "outfile.h"
#include "key_source.h"
#include "key_prompt.h"

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

struct headless_run {
	struct loop *loop;
	struct controller *controller;
	int exit_code;
	bool done;
};

static void headless_finished(void *ctx, int exit_code)
{
	struct headless_run *r = ctx;
	if (r->done)
		return;
	r->done = true;
	r->exit_code = exit_code;
	loop_quit(r->loop);
}

static void headless_notice(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "tether: %s\n", line);
}

static void headless_signal(void *arg, int signo)
{
	struct headless_run *r = arg;
	controller_quit(r->controller, signo == SIGINT ? EXIT_INTERRUPTED : 128 + signo);
}

static int run_headless(const struct options *o, struct loop *loop, struct mask_set *masks,
			const char *api_key, FILE *record)
{
	struct headless_run r = {.loop = loop, .exit_code = EXIT_RUNTIME};
	static const struct sink_ops run_ops = {
		.notice = headless_notice, .finished = headless_finished,
	};
	r.controller = controller_create(loop, o, masks, api_key, true);
	controller_add_sink(r.controller, headless_sink_create(stdout, o->format, o->quiet, masks,
							       r.controller));
	if (record)
		controller_add_sink(r.controller, recorder_create(record, o->record_path, masks,
								  r.controller));
	controller_add_sink(r.controller, (struct sink){.ops = &run_ops, .ctx = &r});
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	if (loop_watch_signals(loop, sigs, 3, headless_signal, &r) != 0 && !o->quiet)
		fprintf(stderr, "tether: signals are not watched; Ctrl-C ends without a result line\n");
	controller_start(r.controller);
	if (!r.done && loop_run(loop) != 0 && !r.done)
		controller_quit(r.controller, EXIT_RUNTIME);
	controller_destroy(r.controller);
	latency_write_stats(NULL, o->render_hz); /* nothing is painted: the line says so */
	return r.exit_code;
}

/* What the picker needs to try a conversation before handing it over. */
struct pick_probe {
	const struct options *o;
	const char *api_key;
	const struct mask_set *masks;
	/* the answer of the last try */
	struct loop *loop;
	int input_fd;
	bool done, cancelled;
	enum rest_outcome outcome;
	int status;
	enum net_cause cause;
	struct buf error;
};

static void probe_done(void *ctx, struct rest_result *res)
{
	struct pick_probe *p = ctx;
	const struct rest_response *r = res->raw;
	p->done = true;
	if (p->loop)
		loop_quit(p->loop);
	p->outcome = res->outcome;
	p->status = r->status;
	p->cause = r->cause;
	buf_clear(&p->error);
	if (r->error) {
		struct buf scratch;
		buf_init(&scratch);
		clean_text(p->masks, r->error, strlen(r->error), &scratch, &p->error);
		buf_fini(&scratch);
	}
}

/* Keys while the picker waits: a lone Esc or a Ctrl-C stops waiting (an arrow's escape
 * sequence does not); the rest is dropped. */
static void probe_input(void *arg)
{
	struct pick_probe *p = arg;
	char in[256];
	ssize_t n = read(p->input_fd, in, sizeof in);
	if (n < 0)
		return;
	if (n == 0 || (n == 1 && in[0] == 0x1b) || memchr(in, 0x03, (size_t)n)) {
		p->cancelled = true;
		loop_quit(p->loop);
	}
}

static void probe_hangup(void *arg)
{
	struct pick_probe *p = arg;
	p->cancelled = true;
	loop_quit(p->loop);
}

/* The picker's Enter: GET the conversation, so that a 404 (or an unreachable server, or a
 * refused key) is said in the picker, which stays, instead of ending tether. */
static int try_open(void *ctx, const char *id, int input_fd, struct buf *why)
{
	struct pick_probe *p = ctx;
	struct buf err, url;
	buf_init(&err);
	buf_init(&url);
	url_describe(p->o->server, &url);
	struct diag_about about = { .server = buf_cstr(&url), .conversation_id = id,
				    .has_key = p->api_key != NULL };
	struct loop *loop = loop_create(log_line, &err);
	int rc = -1;
	p->done = p->cancelled = false;
	p->loop = loop;
	p->input_fd = input_fd;
	if (!loop) {
		buf_printf(why, "cannot create the event loop: %s", buf_cstr(&err));
		goto out;
	}
	struct rest_server srv = { .loop = loop, .url = p->o->server, .api_key = p->api_key,
				   .insecure = p->o->insecure };
	struct rest_args a = {.id = id};
	if (rest_call(&srv, REST_GET_CONVERSATION, &a, probe_done, p) != 0) {
		buf_printf(why, "cannot start the request to %s about conversation %s",
			   about.server, id);
	} else {
		bool watched = loop_watch_fd(loop, input_fd, probe_input, probe_hangup, p) == 0;
		if (!p->done)
			loop_run(loop);
		if (watched)
			loop_unwatch_fd(loop, input_fd);
		if (!p->done && p->cancelled) {
			buf_printf(why, "stopped waiting for the server at %s to answer about "
				   "conversation %s", about.server, id);
		} else if (p->outcome == REST_OK || p->outcome == REST_BAD_BODY) {
			rc = 0;
		} else if (p->outcome == REST_NOT_FOUND) {
			buf_printf(why, "conversation %s is not on this server (HTTP 404): pick "
				   "another", id);
		} else if (p->outcome == REST_NO_ANSWER || p->outcome == REST_AUTH) {
			struct rest_response r = { .status = p->status, .error = buf_cstr(&p->error),
						   .cause = p->cause };
			diag_rest_failure(why, &about, &r, buf_cstr(&p->error));
		} else {
			buf_printf(why, "the server at %s answered HTTP %d for conversation %s",
				   about.server, p->status, id);
		}
	}
	p->loop = NULL;
	loop_destroy(loop);
out:
	buf_fini(&err);
	buf_fini(&url);
	return rc;
}

/* No conversation id in a terminal: list the server's conversations and let the user pick. */
static int pick_conversation(const struct options *o, const struct mask_set *masks,
			     const char *api_key, char **id)
{
	struct conversation_info *items = NULL;
	size_t n = 0;
	int rc = list_fetch(o, log_line, api_key, masks, &items, &n);
	if (rc != EXIT_OK)
		return rc;
	if (n == 0) {
		conversation_infos_free(items, n);
		struct buf url;
		buf_init(&url);
		url_describe(o->server, &url);
		clean_eprintf(masks, "the server at %s has no conversations yet: start one there "
			      "(tether opens existing conversations), then run tether again",
			      buf_cstr(&url));
		buf_fini(&url);
		return EXIT_NOT_FOUND;
	}
	long i;
	int signo;
	struct buf err;
	buf_init(&err);
	struct pick_probe probe = { .o = o, .api_key = api_key, .masks = masks };
	buf_init(&probe.error);
	rc = EXIT_OK;
	if (picker_choose(o->server, items, n, o->color, try_open, &probe, &i, &signo, &err) != 0) {
		clean_eprintf(masks, "%s", buf_cstr(&err));
		rc = EXIT_RUNTIME;
	} else if (signo) {
		rc = 128 + signo;
	}
	buf_fini(&probe.error);
	buf_fini(&err);
	*id = i >= 0 ? xstrdup(items[i].id) : NULL;
	conversation_infos_free(items, n);
	return rc;
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

int app_check_server(const char *server)
{
	const char *why = server_url_problem(server);
	if (!why)
		return 0;
	struct buf shown;
	buf_init(&shown);
	url_describe(server ? server : "", &shown);
	fprintf(stderr, "tether: --server: the URL '%s' %s\n", buf_cstr(&shown), why);
	buf_fini(&shown);
	return EXIT_USAGE;
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
	if (app_check_server(o->server) != 0)
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
		rc = pick_conversation(o, masks, api_key, &picked);
		if (rc != EXIT_OK || !picked)
			goto out;
		copy.conversation_id = picked;
		if (!(loop = create_loop(masks))) {
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	rc = headless ? run_headless(o, loop, masks, api_key, record)
		      : tui_run(o, loop, masks, api_key, record);
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

/* One shell word: bare when it is made of characters no shell treats specially, else in
 * single quotes; a control character (an id the server made up) as $'\xHH' outside them. */
static void shell_word(const char *s, struct buf *out)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789-_./:@%+=,";
	if (*s && s[strspn(s, safe)] == '\0') {
		buf_puts(out, s);
		return;
	}
	bool open = false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool control = *p < 0x20 || *p == 0x7f;
		if ((control || *p == '\'') && open) {
			buf_putc(out, '\'');
			open = false;
		}
		if (control)
			buf_printf(out, "$'\\x%02x'", *p);
		else if (*p == '\'')
			buf_puts(out, "\\'");
		else {
			if (!open)
				buf_putc(out, '\'');
			open = true;
			buf_putc(out, (char)*p);
		}
	}
	if (open)
		buf_putc(out, '\'');
	if (!*s)
		buf_puts(out, "''");
}

void app_come_back(const struct options *o, struct buf *out)
{
	buf_puts(out, "tether");
	if (o->server && strcmp(o->server, OPTIONS_DEFAULT_SERVER) != 0) {
		buf_puts(out, " -s ");
		shell_word(o->server, out);
	}
	buf_putc(out, ' ');
	shell_word(o->conversation_id ? o->conversation_id : "", out);
	for (size_t i = 0; i < o->nmore_ids; i++) {
		buf_putc(out, ' ');
		shell_word(o->more_ids[i], out);
	}
}

void app_print_come_back(const struct options *o, FILE *f)
{
	if (!o->conversation_id)
		return;
	struct buf line;
	buf_init(&line);
	app_come_back(o, &line);
	fprintf(f, "to come back: %s\n", buf_cstr(&line));
	fflush(f);
	buf_fini(&line);
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
