#include "options.h"
#include "net.h"
#include "clean.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: tether [OPTIONS] [CONVERSATION_ID]   interactive (TUI) or headless client\n"
	"       tether list [--format text|ndjson]     the server's conversations\n"
	"       tether key set|rm [--server URL]       the session API key in the keyring\n"
	"       tether secret add NAME                 a local secret to mask (value from stdin)\n"
	"       tether secret list | rm NAME\n"
	"\n"
	"options:\n"
	"  -s, --server URL        agent server (env TETHER_SERVER, default http://127.0.0.1:8000)\n"
	"      --headless          no TUI; output per --format on stdout\n"
	"                          (also the default when stdout is not a terminal)\n"
	"      --format text|ndjson  headless output format (default text)\n"
	"      --send TEXT         send a user message once connected; repeatable (not blank)\n"
	"      --send -            send each stdin line as a user message\n"
	"      --until idle|finished|never  headless: when to exit (default idle)\n"
	"      --after-seq N       first resume cursor; -1 = whole history (default)\n"
	"      --no-history        live traffic only\n"
	"      --mask-file FILE    extra literal secrets to mask, one per line\n"
	"      --ping-interval S   WebSocket ping period (default 20)\n"
	"      --stall-timeout S   silence before the connection is resumed (default 60)\n"
	"      --max-retries N     reconnect attempts in a row; 0 = forever\n"
	"                          (default 0 interactive, 8 headless)\n"
	"      --render-hz N       render clock of the TUI (default 30)\n"
	"      --record FILE       append every received frame, masked, as NDJSON (created 0600)\n"
	"      --log FILE          debug log, never the screen (created 0600)\n"
	"      --insecure          do not verify TLS certificates\n"
	"  -h, --help              this text\n"
	"  -V, --version           the version\n"
	"\n"
	"The session API key comes from env TETHER_SESSION_API_KEY, else the keyring.\n"
	"Defaults come from $XDG_CONFIG_HOME/tether/config (server, render_hz, osc52, color,\n"
	"ping_interval, stall_timeout, stream_stall as `key = value` lines); env TETHER_SERVER,\n"
	"TETHER_OSC52"
	" and NO_COLOR override it; flags override both.\n"
	"Exit codes: 0 ok, 1 error, 2 usage, 3 auth failed, 4 not found, 5 gave up,\n"
	"6 conversation ended in error/stuck, 130 interrupted, 141 stdout's reader went away.\n";

const char *options_usage(void)
{
	return usage;
}

static bool parse_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 86400)
		return false;
	*out = v;
	return true;
}

static bool parse_int(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static void push(const char ***arr, size_t *n, const char *v)
{
	*arr = xrealloc(*arr, (*n + 1) * sizeof **arr);
	(*arr)[(*n)++] = v;
}

/* Splits "--name=value" and finds the value of an option that takes one. */
static const char *take_value(int argc, char **argv, int *i, const char *inline_value,
			      const char *name, struct buf *err)
{
	if (inline_value)
		return inline_value;
	if (*i + 1 >= argc) {
		buf_printf(err, "option %s needs a value", name);
		return NULL;
	}
	return argv[++*i];
}

static int parse_option(int argc, char **argv, int *i, struct options *o, struct buf *err)
{
	char *arg = argv[*i];
	char name[64];
	const char *inline_value = NULL;
	const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
	size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
	if (nlen >= sizeof name) {
		buf_printf(err, "unknown option %.40s", arg);
		return -1;
	}
	memcpy(name, arg, nlen);
	name[nlen] = '\0';
	if (eq)
		inline_value = eq + 1;

#define VALUE() take_value(argc, argv, i, inline_value, name, err)
	const char *v;
	long long n;
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
		o->command = CMD_HELP;
	} else if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		o->command = CMD_VERSION;
	} else if (!strcmp(name, "-s") || !strcmp(name, "--server")) {
		if (!(v = VALUE()))
			return -1;
		o->server = v;
	} else if (!strcmp(name, "--headless")) {
		o->headless = o->headless_explicit = true;
	} else if (!strcmp(name, "--format")) {
		if (!(v = VALUE()))
			return -1;
		if (!strcmp(v, "text"))
			o->format = FORMAT_TEXT;
		else if (!strcmp(v, "ndjson"))
			o->format = FORMAT_NDJSON;
		else {
			buf_printf(err, "--format must be text or ndjson, not '%.40s'", v);
			return -1;
		}
	} else if (!strcmp(name, "--send")) {
		if (!(v = VALUE()))
			return -1;
		if (!strcmp(v, "-")) {
			o->send_stdin = true;
		} else if (!v[strspn(v, " \t\r\n")]) {
			/* The TUI never sends a blank message either. */
			buf_puts(err, "--send: the message is empty or blank; nothing would be sent");
			return -1;
		} else {
			push(&o->sends, &o->nsends, v);
		}
	} else if (!strcmp(name, "--until")) {
		if (!(v = VALUE()))
			return -1;
		if (!strcmp(v, "idle"))
			o->until = UNTIL_IDLE;
		else if (!strcmp(v, "finished"))
			o->until = UNTIL_FINISHED;
		else if (!strcmp(v, "never"))
			o->until = UNTIL_NEVER;
		else {
			buf_printf(err, "--until must be idle, finished or never, not '%.40s'", v);
			return -1;
		}
	} else if (!strcmp(name, "--after-seq")) {
		if (!(v = VALUE()))
			return -1;
		if (!parse_int(v, -1, NET_SEQ_MAX, &n)) {
			buf_printf(err, "--after-seq takes an integer from -1 to %lld, not '%.40s'",
				   (long long)NET_SEQ_MAX, v);
			return -1;
		}
		o->after_seq = n;
	} else if (!strcmp(name, "--no-history")) {
		o->no_history = true;
	} else if (!strcmp(name, "--mask-file")) {
		if (!(v = VALUE()))
			return -1;
		push(&o->mask_files, &o->nmask_files, v);
	} else if (!strcmp(name, "--ping-interval") || !strcmp(name, "--stall-timeout")) {
		if (!(v = VALUE()))
			return -1;
		double *dst = name[2] == 'p' ? &o->ping_interval_s : &o->stall_timeout_s;
		if (!parse_seconds(v, dst)) {
			buf_printf(err, "%s takes seconds > 0, not '%.40s'", name, v);
			return -1;
		}
	} else if (!strcmp(name, "--max-retries")) {
		if (!(v = VALUE()))
			return -1;
		if (!parse_int(v, 0, 1000000, &n)) {
			buf_printf(err, "--max-retries takes an integer >= 0, not '%.40s'", v);
			return -1;
		}
		o->max_retries = (int)n;
	} else if (!strcmp(name, "--render-hz")) {
		if (!(v = VALUE()))
			return -1;
		if (!parse_int(v, 1, 240, &n)) {
			buf_printf(err, "--render-hz takes 1 to 240, not '%.40s'", v);
			return -1;
		}
		o->render_hz = (int)n;
	} else if (!strcmp(name, "--record")) {
		if (!(v = VALUE()))
			return -1;
		o->record_path = v;
	} else if (!strcmp(name, "--log")) {
		if (!(v = VALUE()))
			return -1;
		o->log_path = v;
	} else if (!strcmp(name, "--insecure")) {
		o->insecure = true;
	} else {
		buf_printf(err, "unknown option %.40s (see tether --help)", arg);
		return -1;
	}
	if (inline_value && (!strcmp(name, "--headless") || !strcmp(name, "--no-history") ||
			     !strcmp(name, "--insecure") || !strcmp(name, "--help") ||
			     !strcmp(name, "--version"))) {
		buf_printf(err, "option %s takes no value", name);
		return -1;
	}
#undef VALUE
	return 0;
}

static int parse_command(char **pos, size_t npos, struct options *o, struct buf *err)
{
	if (npos == 0)
		return 0;
	const char *c = pos[0];
	if (!strcmp(c, "list")) {
		o->command = CMD_LIST;
		if (npos > 1)
			goto extra;
		return 0;
	}
	if (!strcmp(c, "key")) {
		if (npos < 2 || (strcmp(pos[1], "set") && strcmp(pos[1], "rm"))) {
			buf_puts(err, "usage: tether key set|rm [--server URL]");
			return -1;
		}
		o->command = !strcmp(pos[1], "set") ? CMD_KEY_SET : CMD_KEY_RM;
		if (npos > 2) {
			buf_puts(err, "tether key takes no value on the command line: it reads the key from stdin or a prompt");
			return -1;
		}
		return 0;
	}
	if (!strcmp(c, "secret")) {
		if (npos >= 2 && !strcmp(pos[1], "list")) {
			o->command = CMD_SECRET_LIST;
			if (npos > 2)
				goto extra;
			return 0;
		}
		if (npos >= 2 && (!strcmp(pos[1], "add") || !strcmp(pos[1], "rm"))) {
			if (npos < 3) {
				buf_printf(err, "usage: tether secret %s NAME", pos[1]);
				return -1;
			}
			if (npos > 3) {
				buf_puts(err, "secret values are never taken from the command line: "
					      "tether secret add NAME reads the value from stdin or a prompt");
				return -1;
			}
			o->command = !strcmp(pos[1], "add") ? CMD_SECRET_ADD : CMD_SECRET_RM;
			o->secret_name = pos[2];
			return 0;
		}
		buf_puts(err, "usage: tether secret add NAME | list | rm NAME");
		return -1;
	}
	o->command = CMD_CLIENT;
	if (!*c) {
		buf_puts(err, "the conversation id is empty (tether list shows the ids)");
		return -1;
	}
	o->conversation_id = c;
	if (npos > 1)
		goto extra;
	return 0;
extra:
	buf_printf(err, "unexpected argument '%.60s'", pos[npos - 1]);
	return -1;
}

static void config_warn(const char *line)
{
	clean_eprintf(NULL, "%s", line);
}

int options_parse(int argc, char **argv, struct options *o, struct buf *err)
{
	memset(o, 0, sizeof *o);
	o->command = CMD_CLIENT;
	o->format = FORMAT_TEXT;
	o->until = UNTIL_IDLE;
	o->after_seq = -1;
	o->ping_interval_s = 20;
	o->stall_timeout_s = 60;
	o->max_retries = -1;
	o->render_hz = 30;
	o->color = true;
	o->stream_stall_s = 10;
	o->server = "http://127.0.0.1:8000";
	options_load_config(o, config_warn);
	/* The environment overrides the config file; flags override both. */
	const char *env_server = getenv("TETHER_SERVER");
	if (env_server && *env_server)
		o->server = env_server;
	const char *env_osc52 = getenv("TETHER_OSC52");
	if (env_osc52 && *env_osc52)
		o->osc52 = !strcmp(env_osc52, "1");
	if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
		o->color = false;

	char **pos = xcalloc((size_t)argc + 1, sizeof *pos);
	size_t npos = 0;
	bool only_positional = false;
	int rc = 0;
	enum command early = CMD_CLIENT;
	for (int i = 1; i < argc && rc == 0; i++) {
		if (only_positional || argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			pos[npos++] = argv[i];
		} else if (!strcmp(argv[i], "--")) {
			only_positional = true;
		} else {
			rc = parse_option(argc, argv, &i, o, err);
			if (o->command == CMD_HELP || o->command == CMD_VERSION)
				early = o->command;
		}
	}
	if (rc == 0 && early == CMD_CLIENT)
		rc = parse_command(pos, npos, o, err);
	if (early != CMD_CLIENT)
		o->command = early;
	free(pos);
	if (rc == 0 && o->no_history && o->after_seq != -1) {
		buf_puts(err, "--no-history and --after-seq exclude each other");
		rc = -1;
	}
	return rc;
}

void options_fini(struct options *o)
{
	free(o->sends);
	free(o->mask_files);
	free(o->config_storage_);
	o->config_storage_ = NULL;
	o->sends = NULL;
	o->mask_files = NULL;
}
