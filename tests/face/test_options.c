/* The command line of cli.md: every option parses, bad input is a usage error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"

#define ID "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91"
#define ID32 "5F2C9B7E1A3D4E8F9B6A0C4D2E7F8A91"

static struct buf *warnings_seen;

static int parse(struct options *o, struct buf *err, const char *first, ...)
{
	char *argv[32] = {"tether"};
	int argc = 1;
	va_list ap;
	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	buf_clear(err);
	return options_parse(argc, argv, o, err);
}

static void test_defaults(void **state)
{
	(void)state;
	struct options o;
	struct buf err;
	buf_init(&err);
	unsetenv("TETHER_SERVER");
	assert_int_equal(parse(&o, &err, ID, NULL), 0);
	assert_int_equal(o.command, CMD_CLIENT);
	assert_string_equal(o.conversation_id, ID);
	assert_string_equal(o.server, "http://127.0.0.1:8000");
	assert_int_equal(o.format, FORMAT_TEXT);
	assert_int_equal(o.until, UNTIL_IDLE);
	assert_int_equal(o.after_seq, -1);
	assert_true(o.ping_interval_s == 20);
	assert_true(o.stall_timeout_s == 60);
	assert_int_equal(o.max_retries, -1);
	assert_int_equal(o.render_hz, 30);
	assert_false(o.headless);
	options_fini(&o);
	setenv("TETHER_SERVER", "https://example.test", 1);
	assert_int_equal(parse(&o, &err, ID32, NULL), 0);
	assert_string_equal(o.server, "https://example.test");
	unsetenv("TETHER_SERVER");
	options_fini(&o);
	buf_fini(&err);
}

static void test_every_option(void **state)
{
	(void)state;
	struct options o;
	struct buf err;
	buf_init(&err);
	assert_int_equal(parse(&o, &err, "-s", "http://h:1", "--headless", "--format", "ndjson",
			       "--send", "one", "--send=two", "--send", "-", "--until", "finished",
			       "--after-seq", "41", "--mask-file", "m1", "--mask-file", "m2",
			       "--ping-interval", "0.5", "--stall-timeout=2.25", "--max-retries", "3",
			       "--render-hz", "60", "--record", "rec", "--log", "log", "--insecure",
			       ID, NULL),
			 0);
	assert_string_equal(o.server, "http://h:1");
	assert_true(o.headless);
	assert_int_equal(o.format, FORMAT_NDJSON);
	assert_int_equal(o.nsends, 2);
	assert_string_equal(o.sends[0], "one");
	assert_string_equal(o.sends[1], "two");
	assert_true(o.send_stdin);
	assert_int_equal(o.until, UNTIL_FINISHED);
	assert_int_equal(o.after_seq, 41);
	assert_int_equal(o.nmask_files, 2);
	assert_true(o.ping_interval_s == 0.5);
	assert_true(o.stall_timeout_s == 2.25);
	assert_int_equal(o.max_retries, 3);
	assert_int_equal(o.render_hz, 60);
	assert_string_equal(o.record_path, "rec");
	assert_string_equal(o.log_path, "log");
	assert_true(o.insecure);
	assert_string_equal(o.conversation_id, ID);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--no-history", "--until", "never", ID, NULL), 0);
	assert_true(o.no_history);
	assert_int_equal(o.until, UNTIL_NEVER);
	assert_int_equal(o.on_confirm, ON_CONFIRM_EXIT);
	assert_false(o.quiet);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--until", "synced", "--on-confirm", "reject", "-q", ID, NULL), 0);
	assert_int_equal(o.until, UNTIL_SYNCED);
	assert_int_equal(o.on_confirm, ON_CONFIRM_REJECT);
	assert_true(o.quiet);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--on-confirm=accept", "--quiet", ID, NULL), 0);
	assert_int_equal(o.on_confirm, ON_CONFIRM_ACCEPT);
	assert_true(o.quiet);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--on-confirm", "wait", ID, NULL), 0);
	assert_int_equal(o.on_confirm, ON_CONFIRM_WAIT);
	options_fini(&o);
	buf_fini(&err);
}

static void test_usage_errors(void **state)
{
	(void)state;
	static const char *const bad[][4] = {
		{"--bogus"}, {"--format", "xml"}, {"--until", "soon"}, {"--on-confirm", "maybe"},
		{"--quiet=yes"}, {"--after-seq", "-2"},
		{"--after-seq", "x"}, {"--ping-interval", "0"}, {"--stall-timeout", "-1"},
		{"--stall-timeout", "nan"}, {"--max-retries", "-1"}, {"--render-hz", "0"},
		{"--render-hz", "1000"}, {"--send"}, {"--headless=yes"}, {"a", "b"},
		{"secret", "add", "NAME", "VALUE"}, {"secret", "add"}, {"key", "set", "K"},
		{"key"}, {"secret", "frob"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *argv[6] = {"tether"};
		int argc = 1;
		for (int k = 0; k < 4 && bad[i][k]; k++)
			argv[argc++] = (char *)bad[i][k];
		struct options o;
		struct buf err;
		buf_init(&err);
		assert_int_equal(options_parse(argc, argv, &o, &err), -1);
		assert_true(err.len > 0);
		options_fini(&o);
		buf_fini(&err);
	}
	struct options o;
	struct buf err;
	buf_init(&err);
	assert_int_equal(parse(&o, &err, "--no-history", "--after-seq", "3", ID, NULL), -1);
	options_fini(&o);
	buf_fini(&err);
}

static void test_commands(void **state)
{
	(void)state;
	struct options o;
	struct buf err;
	buf_init(&err);
	assert_int_equal(parse(&o, &err, "list", "--format", "ndjson", NULL), 0);
	assert_int_equal(o.command, CMD_LIST);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "key", "set", "--server", "http://x", NULL), 0);
	assert_int_equal(o.command, CMD_KEY_SET);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "key", "rm", NULL), 0);
	assert_int_equal(o.command, CMD_KEY_RM);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "secret", "add", "gh", NULL), 0);
	assert_int_equal(o.command, CMD_SECRET_ADD);
	assert_string_equal(o.secret_name, "gh");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "secret", "list", NULL), 0);
	assert_int_equal(o.command, CMD_SECRET_LIST);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "secret", "rm", "gh", NULL), 0);
	assert_int_equal(o.command, CMD_SECRET_RM);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--bogus-but-help-wins", "--help", NULL), -1);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "-h", NULL), 0);
	assert_int_equal(o.command, CMD_HELP);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "-V", NULL), 0);
	assert_int_equal(o.command, CMD_VERSION);
	options_fini(&o);
	/* After --, a word with a dash is a word: it is judged as an id, not as an option. */
	assert_int_equal(parse(&o, &err, "--", "-dash-id", NULL), -1);
	assert_string_equal(buf_cstr(&err), "'-dash-id' is not a conversation id: ids are UUIDs, "
			    "hyphenated or as 32 hex digits (tether list shows them)");
	options_fini(&o);
	buf_fini(&err);
}

#define COMMANDS "the commands are list, key, secret, confirm, reject, pause, resume, " \
		 "interrupt, watch, new, fork, rename, rm, ask, compact, model, goal, policy, " \
		 "server-info, usage (tether --help)"

/* Ids are UUIDs, hyphenated or 32 hex digits; any other word is a usage error that says so,
 * and names the commands when it looks like one. */
static void test_conversation_ids(void **state)
{
	(void)state;
	static const char *const good[] = {
		ID, ID32, "00000000-0000-0000-0000-000000000000", "abcdefABCDEF0123456789abcdef0123",
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		assert_true(conversation_id_valid(good[i]));
	}
	static const char *const bad[] = {
		"", "conv-1", "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a9", "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91x",
		"5f2c9b7e1a3d-4e8f-9b6a-0c4d2e7f8a91-", "5f2c9b7e-1a3d-4e8f-9b6a_0c4d2e7f8a91",
		"g0000000000000000000000000000000", "0000000000000000000000000000000",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_false(conversation_id_valid(bad[i]));

	struct options o;
	struct buf err;
	buf_init(&err);
	static const struct { const char *word, *message; } cases[] = {
		{"lsit", "'lsit' is neither a command nor a conversation id (did you mean list?); "
			 COMMANDS},
		{"help", "'help' is neither a command nor a conversation id; " COMMANDS},
		{"confrim", "'confrim' is neither a command nor a conversation id (did you mean "
			    "confirm?); " COMMANDS},
		{"Pause", "'Pause' is neither a command nor a conversation id (did you mean pause?); "
			  COMMANDS},
		{"ls", "'ls' is neither a command nor a conversation id; " COMMANDS},
		{"status", "'status' is neither a command nor a conversation id; " COMMANDS},
		{"conv-1", "'conv-1' is not a conversation id: ids are UUIDs, hyphenated or as 32 hex "
			   "digits (tether list shows them)"},
		{"deadbeef", "'deadbeef' is not a conversation id: ids are UUIDs, hyphenated or as 32 "
			     "hex digits (tether list shows them)"},
		{"", "the conversation id is empty (tether list shows the ids)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(parse(&o, &err, cases[i].word, NULL), -1);
		assert_string_equal(buf_cstr(&err), cases[i].message);
		options_fini(&o);
	}
	/* The same judgement for the id of a subcommand. */
	assert_int_equal(parse(&o, &err, "pause", "lsit", NULL), -1);
	assert_string_equal(buf_cstr(&err), "pause: 'lsit' is neither a command nor a conversation "
			    "id (did you mean list?); " COMMANDS);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "confirm", "abc", NULL), -1);
	assert_string_equal(buf_cstr(&err), "confirm: 'abc' is not a conversation id: ids are UUIDs, "
			    "hyphenated or as 32 hex digits (tether list shows them)");
	options_fini(&o);
	buf_fini(&err);
}

/* --help names every command. */
static void test_usage_lists_commands(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"       tether list [--format text|ndjson|json]  the server's conversations\n",
		"       tether key set|rm [--server URL]       the session API key in the keyring\n",
		"       tether secret add NAME                 a local secret to mask (value from stdin)\n",
		"       tether secret list | rm NAME\n",
		"       tether confirm ID                      accept the actions waiting for confirmation\n",
		"       tether reject ID [--reason TEXT]       reject them\n",
		"       tether pause ID                        stop the run after the current step\n",
		"       tether resume ID                       start a run (one under way is fine)\n",
		"       tether interrupt ID                    stop the run now\n",
		"      --reason TEXT       tether reject: why, for the agent\n",
		"       tether confirm|reject ID --expect CALL_ID …  only if exactly these wait\n",
		"      --expect ID         tether confirm|reject: answer only if exactly these\n",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		assert_non_null(strstr(options_usage(), lines[i]));
}

/* confirm, reject [--reason], pause, resume, interrupt: one id each. */
static void test_control_commands(void **state)
{
	(void)state;
	struct options o;
	struct buf err;
	buf_init(&err);
	static const struct { const char *word; enum command cmd; } words[] = {
		{"confirm", CMD_CONFIRM}, {"reject", CMD_REJECT}, {"pause", CMD_PAUSE},
		{"resume", CMD_RESUME}, {"interrupt", CMD_INTERRUPT},
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		assert_int_equal(parse(&o, &err, words[i].word, ID, NULL), 0);
		assert_int_equal(o.command, words[i].cmd);
		assert_string_equal(o.conversation_id, ID);
		options_fini(&o);
		assert_int_equal(parse(&o, &err, words[i].word, NULL), -1);
		options_fini(&o);
		assert_int_equal(parse(&o, &err, words[i].word, ID, ID, NULL), -1);
		assert_string_equal(buf_cstr(&err), "unexpected argument '" ID "'");
		options_fini(&o);
	}
	assert_int_equal(parse(&o, &err, "pause", NULL), -1);
	assert_string_equal(buf_cstr(&err), "usage: tether pause CONVERSATION_ID");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "reject", NULL), -1);
	assert_string_equal(buf_cstr(&err), "usage: tether reject CONVERSATION_ID [--reason TEXT]");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "reject", ID32, "--reason", "not now", NULL), 0);
	assert_string_equal(o.reason, "not now");
	assert_string_equal(o.conversation_id, ID32);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "confirm", ID, "--reason", "why", NULL), -1);
	assert_string_equal(buf_cstr(&err), "--reason goes only with tether reject");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "list", "--format", "json", NULL), 0);
	assert_int_equal(o.format, FORMAT_JSON);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--format", "json", ID, NULL), -1);
	assert_string_equal(buf_cstr(&err),
			    "--format json is for tether list; the client writes text or ndjson");
	options_fini(&o);
	buf_fini(&err);
}

/* Writes body as the config file of a new XDG_CONFIG_HOME (set); its path goes to path. */
static void write_config(char *path, size_t size, const char *body)
{
	static char dir[64];
	snprintf(dir, sizeof dir, "/tmp/tether-config-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, size, "%s/tether", dir);
	mkdir(path, 0700);
	snprintf(path, size, "%s/tether/config", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
	setenv("XDG_CONFIG_HOME", dir, 1);
}

static void test_config_file(void **state)
{
	(void)state;
	char path[128];
	write_config(path, sizeof path,
		     "# defaults\nserver = http://config:1\nrender_hz = 12\nbogus line\nosc52 = on\n"
		     "render_hz = 9999\ncolor = off\nstream_stall = 2.5\n");
	unsetenv("TETHER_SERVER");
	unsetenv("NO_COLOR");
	unsetenv("TETHER_OSC52");
	struct options o;
	struct buf err;
	buf_init(&err);
	/* Bad lines are skipped with a warning; good ones apply. */
	assert_int_equal(parse(&o, &err, ID, NULL), 0);
	assert_string_equal(o.server, "http://config:1");
	assert_int_equal(o.render_hz, 12);
	assert_int_equal(o.osc52, OSC52_ON);
	assert_false(o.color);
	assert_true(o.stream_stall_s == 2.5);
	options_fini(&o);
	/* env beats the file, flags beat both */
	setenv("TETHER_SERVER", "http://env:2", 1);
	assert_int_equal(parse(&o, &err, ID, NULL), 0);
	assert_string_equal(o.server, "http://env:2");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--server", "http://flag:3", "--render-hz", "5", ID, NULL), 0);
	assert_string_equal(o.server, "http://flag:3");
	assert_int_equal(o.render_hz, 5);
	options_fini(&o);
	unsetenv("TETHER_SERVER");
	unsetenv("XDG_CONFIG_HOME");
	unlink(path);
	buf_fini(&err);
}

/* The attention keys: on by default with a 10 s threshold and no notifications; each read
 * from the config file with its checks. */
static void test_config_attention_keys(void **state)
{
	(void)state;
	char path[128];
	unsetenv("TETHER_SERVER");
	write_config(path, sizeof path, "# nothing\n");
	struct options o;
	struct buf err;
	buf_init(&err);
	assert_int_equal(parse(&o, &err, ID, NULL), 0);
	assert_true(o.bell);
	assert_int_equal(o.bell_after_s, 10);
	assert_int_equal(o.notify, NOTIFY_OFF);
	options_fini(&o);
	unlink(path);
	write_config(path, sizeof path, "bell = off\nbell_after = 0\nnotify = osc777\n");
	assert_int_equal(parse(&o, &err, ID, NULL), 0);
	assert_false(o.bell);
	assert_int_equal(o.bell_after_s, 0);
	assert_int_equal(o.notify, NOTIFY_OSC777);
	options_fini(&o);
	unlink(path);
	write_config(path, sizeof path, "notify = osc9\nbell-after = 90\n");
	assert_int_equal(parse(&o, &err, ID, NULL), 0);
	assert_int_equal(o.notify, NOTIFY_OSC9);
	assert_int_equal(o.bell_after_s, 90);
	options_fini(&o);
	unlink(path);
	unsetenv("XDG_CONFIG_HOME");
	buf_fini(&err);
}

/* getopt_long's forms: -sURL, -s URL, --server=URL, --server URL, bundled short flags,
 * unambiguous abbreviations; an ambiguous one is refused naming the candidates. */
static void test_getopt_forms(void **state)
{
	(void)state;
	struct options o;
	struct buf err;
	buf_init(&err);
	unsetenv("TETHER_SERVER");
	assert_int_equal(parse(&o, &err, "-shttp://glued:1", ID, NULL), 0);
	assert_string_equal(o.server, "http://glued:1");
	assert_string_equal(o.conversation_id, ID);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--server=http://eq:2", ID, NULL), 0);
	assert_string_equal(o.server, "http://eq:2");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, ID, "--server", "http://after:3", NULL), 0);
	assert_string_equal(o.server, "http://after:3");
	assert_string_equal(o.conversation_id, ID);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "-s", "http://apart:4", ID, NULL), 0);
	assert_string_equal(o.server, "http://apart:4");
	options_fini(&o);
	/* -Vs URL: a bundle ending in an option that takes the next word. */
	assert_int_equal(parse(&o, &err, "-Vs", "http://bundle:5", NULL), 0);
	assert_int_equal(o.command, CMD_VERSION);
	assert_string_equal(o.server, "http://bundle:5");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--render=7", "--head", ID, NULL), 0);
	assert_int_equal(o.render_hz, 7);
	assert_true(o.headless);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--s", "x", ID, NULL), -1);
	assert_non_null(strstr(buf_cstr(&err), "ambiguous"));
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "-s", NULL), -1);
	assert_string_equal(buf_cstr(&err), "option --server needs a value");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--headless=yes", ID, NULL), -1);
	assert_string_equal(buf_cstr(&err), "option --headless takes no value");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "-x", ID, NULL), -1);
	assert_string_equal(buf_cstr(&err), "unknown option -x (see tether --help)");
	options_fini(&o);
	buf_fini(&err);
}

static void collect_warning(const char *line)
{
	struct buf *b = warnings_seen;
	buf_printf(b, "%s\n", line);
}

/* timestamps = on|off (issue 15 point 9): a config key only, off by default, on/off checked. */
static void test_config_timestamps(void **state)
{
	(void)state;
	char path[128];
	struct buf warnings;
	buf_init(&warnings);
	warnings_seen = &warnings;
	struct options o;
	memset(&o, 0, sizeof o);
	write_config(path, sizeof path, "color = off\n");
	options_load_config(&o, collect_warning);
	assert_false(o.timestamps);
	options_fini(&o);
	write_config(path, sizeof path, "timestamps = on\n");
	memset(&o, 0, sizeof o);
	options_load_config(&o, collect_warning);
	assert_true(o.timestamps);
	options_fini(&o);
	write_config(path, sizeof path, "timestamps = sometimes\n");
	memset(&o, 0, sizeof o);
	options_load_config(&o, collect_warning);
	assert_false(o.timestamps);
	assert_non_null(strstr(buf_cstr(&warnings), ":1: timestamps takes on or off, not 'sometimes'"));
	options_fini(&o);
	struct buf err;
	buf_init(&err);
	assert_int_equal(parse(&o, &err, "--timestamps", ID, NULL), -1);
	assert_non_null(strstr(buf_cstr(&err), "unknown option --timestamps"));
	options_fini(&o);
	buf_fini(&err);
	unsetenv("XDG_CONFIG_HOME");
	unlink(path);
	buf_fini(&warnings);
}

/* A config key is an option's long name (- or _) read through the same table: the same value
 * parsing, range checks and messages as the flag. */
static void test_config_same_table(void **state)
{
	(void)state;
	char path[128];
	write_config(path, sizeof path,
		     "render-hz = 7\nstall_timeout = 0\nping-interval = 1.5\nserver = http://cfg:9\n"
		     "headless = on\n");
	struct buf warnings, err;
	buf_init(&warnings);
	buf_init(&err);
	warnings_seen = &warnings;
	struct options o;
	memset(&o, 0, sizeof o);
	options_load_config(&o, collect_warning);
	assert_int_equal(o.render_hz, 7);
	assert_true(o.ping_interval_s == 1.5);
	assert_string_equal(o.server, "http://cfg:9");
	assert_false(o.headless);      /* a command-line-only option is not a config key */
	options_fini(&o);
	/* The flag's own message, with the key in the flag's place. */
	assert_int_equal(parse(&o, &err, "--stall-timeout", "0", ID, NULL), -1);
	char want[256];
	snprintf(want, sizeof want, "config %s:2: stall_timeout%s\n", path,
		 strstr(buf_cstr(&err), " takes"));
	assert_non_null(strstr(buf_cstr(&warnings), want));
	assert_non_null(strstr(buf_cstr(&warnings), ":5: unknown key (known: server, ping_interval, "
				"stall_timeout, render_hz, osc52, color, stream_stall"));
	options_fini(&o);
	unsetenv("XDG_CONFIG_HOME");
	unlink(path);
	buf_fini(&warnings);
	buf_fini(&err);
}

/* tether watch: its own defaults (until never, every 2 s) and only the modes that make
 * sense for many conversations; the client keeps its own default. */
/* The TUI opens every id named (the first shown); headless follows one. */
static void test_several_ids(void **state)
{
	(void)state;
	struct options o;
	struct buf err;
	buf_init(&err);
	assert_int_equal(parse(&o, &err, ID, ID32, "--max-open", "5", NULL), 0);
	assert_string_equal(o.conversation_id, ID);
	assert_int_equal(o.nmore_ids, 1);
	assert_string_equal(o.more_ids[0], ID32);
	assert_int_equal(o.max_open, 5);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, ID, "not-an-id", NULL), -1);
	assert_non_null(strstr(buf_cstr(&err), "not-an-id"));
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--headless", ID, ID32, NULL), -1);
	assert_string_equal(buf_cstr(&err), "--headless follows one conversation (tether watch: "
					    "every conversation on the server)");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, ID, "--max-open", "0", NULL), -1);
	options_fini(&o);
	char *argv[70] = { "tether", ID };
	for (int i = 2; i < 67; i++)
		argv[i] = ID32;
	buf_clear(&err);
	assert_int_equal(options_parse(66, argv, &o, &err), -1);
	assert_string_equal(buf_cstr(&err), "at most 64 conversations at once");
	options_fini(&o);
	/* one conversation, written two ways */
	assert_true(conversation_id_same(ID, ID32));
	assert_true(conversation_id_same(ID32, ID));
	assert_false(conversation_id_same(ID, "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a92"));
	assert_false(conversation_id_same(ID, "5f2c9b7e"));
	assert_int_equal(parse(&o, &err, ID, NULL), 0);
	assert_int_equal(o.max_open, 16);
	assert_int_equal(o.nmore_ids, 0);
	options_fini(&o);
	buf_fini(&err);
}

static void test_watch(void **state)
{
	(void)state;
	struct options o;
	struct buf err;
	buf_init(&err);
	assert_int_equal(parse(&o, &err, "watch", NULL), 0);
	assert_int_equal(o.command, CMD_WATCH);
	assert_int_equal(o.until, UNTIL_NEVER);
	assert_int_equal(o.on_confirm, ON_CONFIRM_EXIT);
	assert_true(o.watch_interval_s == 2);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "--until", "idle", "watch", "--interval=0.5",
			       "--on-confirm", "wait", "--format", "ndjson", NULL), 0);
	assert_int_equal(o.until, UNTIL_IDLE);
	assert_int_equal(o.on_confirm, ON_CONFIRM_WAIT);
	assert_true(o.watch_interval_s == 0.5);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "watch", "--until", "synced", NULL), -1);
	assert_string_equal(buf_cstr(&err), "tether watch: --until takes never or idle");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "watch", "--interval", "0.05", NULL), -1);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "list", "--interval", "3", NULL), -1);
	assert_string_equal(buf_cstr(&err), "--interval goes only with tether watch");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, ID, "--until", "never", NULL), 0);
	assert_int_equal(o.until, UNTIL_NEVER);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, ID, NULL), 0);
	assert_int_equal(o.until, UNTIL_IDLE);
	options_fini(&o);
	buf_fini(&err);
}

/* The managers of issue 25: their words and ids, their own options with them alone, the
 * policy's words checked; new follows a run only with --send or --until. */
static void test_managers(void **state)
{
	(void)state;
	struct options o;
	struct buf err;
	buf_init(&err);
	assert_int_equal(parse(&o, &err, "new", "--title", "T", "--profile", "p", "hello", NULL), 0);
	assert_int_equal(o.command, CMD_NEW);
	assert_null(o.conversation_id);
	assert_int_equal(o.nwords, 1);
	assert_string_equal(o.words[0], "hello");
	assert_string_equal(o.title, "T");
	assert_string_equal(o.profile, "p");
	assert_false(o.until_given);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "new", "--until", "finished", NULL), 0);
	assert_true(o.until_given);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "fork", ID, "--from", "e1", NULL), 0);
	assert_int_equal(o.command, CMD_FORK);
	assert_string_equal(o.conversation_id, ID);
	assert_string_equal(o.from_event, "e1");
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "policy", ID, "risky", "Medium", NULL), 0);
	assert_int_equal(o.nwords, 2);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "policy", ID, "analyzer", "none", NULL), 0);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "rm", ID, "--yes", "--format", "json", NULL), 0);
	assert_true(o.yes);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "goal", ID, "tests pass", "--yes", NULL), 0);
	assert_true(o.yes);
	options_fini(&o);
	assert_int_equal(parse(&o, &err, "server-info", NULL), 0);
	assert_int_equal(o.command, CMD_SERVER_INFO);
	options_fini(&o);

	static const struct {
		const char *args[6];
		const char *err;
	} bad[] = {
		{ { "rename", ID }, "usage: tether rename ID TITLE" },
		{ { "rename", ID, "  " }, "usage: tether rename ID TITLE (not blank)" },
		{ { "ask", "n0-pe", "q" }, "ask: 'n0-pe' is not a conversation id: ids are UUIDs, "
		  "hyphenated or as 32 hex digits (tether list shows them)" },
		{ { "fork" }, "usage: tether fork ID [--from EVENT_ID] [--title T]" },
		{ { "new", "a", "b" }, "usage: tether new [--profile NAME] [--title T] [MESSAGE]" },
		{ { "policy", ID, "sometimes" }, "tether policy: 'sometimes' is no policy (always, "
		  "never, risky, or analyzer)" },
		{ { "policy", ID, "always", "high" }, "tether policy ID risky takes a level: LOW, "
		  "MEDIUM or HIGH" },
		{ { "policy", ID, "analyzer", "magic" }, "tether policy ID analyzer takes llm, "
		  "pattern or none" },
		{ { "rename", ID, "x", "--from", "e" }, "--from goes only with tether fork" },
		{ { "fork", ID, "--profile", "p" }, "--profile goes only with tether new" },
		{ { "list", "--title", "t" }, "--title goes only with tether new or tether fork" },
		{ { "pause", ID, "--yes" }, "--yes goes only with tether rm or tether goal" },
		{ { "ask", ID, "q", "--send", "x" }, "--send and --until follow a conversation: "
		  "tether new takes them" },
		{ { "new", "--send", "x", "--format", "json" }, "tether new --send|--until writes "
		  "text or ndjson" },
		{ { "server-info", "x" }, "usage: tether server-info" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *const *a = bad[i].args;
		assert_int_equal(parse(&o, &err, a[0], a[1], a[2], a[3], a[4], a[5], NULL), -1);
		assert_string_equal(buf_cstr(&err), bad[i].err);
		options_fini(&o);
	}
	buf_fini(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_conversation_ids),
		cmocka_unit_test(test_control_commands),
		cmocka_unit_test(test_usage_lists_commands),
		cmocka_unit_test(test_config_file),
		cmocka_unit_test(test_getopt_forms),
		cmocka_unit_test(test_config_same_table),
		cmocka_unit_test(test_config_attention_keys),
		cmocka_unit_test(test_config_timestamps),
		cmocka_unit_test(test_watch),
		cmocka_unit_test(test_several_ids),
		cmocka_unit_test(test_managers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
