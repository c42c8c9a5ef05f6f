#include "options_int.h"
#include "net.h"
#include "clean.h"

#include <getopt.h>
#include <stddef.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: tether [OPTIONS] [CONVERSATION_ID]   interactive (TUI) or headless client\n"
	"       tether [OPTIONS] ID ID …              several at once in the TUI (Alt-1…9, Ctrl-G)\n"
	"       tether list [--format text|ndjson|json]  the server's conversations\n"
	"       tether key set|rm [--server URL]       the session API key in the keyring\n"
	"       tether secret add NAME                 a local secret to mask (value from stdin)\n"
	"       tether secret list | rm NAME\n"
	"       tether confirm ID                      accept the actions waiting for confirmation\n"
	"       tether reject ID [--reason TEXT]       reject them\n"
	"       tether confirm|reject ID --expect CALL_ID …  only if exactly these wait\n"
	"       tether pause ID                        stop the run after the current step\n"
	"       tether resume ID                       start a run (one under way is fine)\n"
	"       tether interrupt ID                    stop the run now\n"
	"       tether usage ID [--format text|ndjson|json]  tokens, cost and context per model\n"
	"       tether watch [--format text|ndjson] [--interval S] [--until never|idle]\n"
	"                    [--on-confirm exit|wait]  a line per status change of any\n"
	"                          conversation on the server (polled every S seconds, default 2)\n"
	"       tether new [--profile NAME] [--title T] [--workdir DIR] [MESSAGE]  start one\n"
	"       tether fork ID [--from EVENT_ID] [--title T]   a copy (up to an event)\n"
	"       tether rename ID TITLE | rm ID [--yes]  rename, delete\n"
	"       tether ask ID QUESTION                 ask aside (not part of the conversation)\n"
	"       tether compact ID                      condense the history\n"
	"       tether model ID [PROFILE]              list the LLM profiles, or switch\n"
	"       tether goal ID OBJECTIVE|stop|resume [--yes]  a goal the agent works to\n"
	"       tether policy ID always|never|risky [LOW|MEDIUM|HIGH] | analyzer llm|pattern|none\n"
	"       tether server-info                     the server's version\n"
	"\n"
	"A conversation ID is a UUID, hyphenated or as 32 hex digits (tether list shows them).\n"
	"\n";

/* The rest of --help (one string literal may hold only 4095 bytes in C11). */
static const char usage_options[] =
	"options:\n"
	"  -s, --server URL        agent server (env TETHER_SERVER, default http://127.0.0.1:8000)\n"
	"      --headless          no TUI; output per --format on stdout\n"
	"                          (also the default when stdout is not a terminal)\n"
	"      --format text|ndjson  headless output format (default text); tether list also\n"
	"                          takes json (one array); in a terminal its text is a table\n"
	"      --send TEXT         send a user message once connected; repeatable (not blank)\n"
	"      --send -            send each stdin line as a user message\n"
	"      --until synced|idle|finished|never  headless: when to exit (default idle):\n"
	"                          synced: at catch-up; idle: when no run is in progress and\n"
	"                          everything was sent (a running conversation is followed to\n"
	"                          the end of its run); finished: at the first finished;\n"
	"                          never: until Ctrl-C\n"
	"      --on-confirm exit|wait|accept|reject  headless: when actions wait for\n"
	"                          confirmation, print them, then exit 7 (default), keep\n"
	"                          waiting, or answer (once per waiting period)\n"
	"  -q, --quiet             only fatal diagnostics on stderr\n"
	"      --after-seq N       first resume cursor; -1 = whole history (default)\n"
	"      --no-history        live traffic only\n"
	"      --mask-file FILE    extra literal secrets to mask, one per line\n"
	"      --ping-interval S   WebSocket ping period (default 20)\n"
	"      --stall-timeout S   silence before the connection is resumed (default 60)\n"
	"      --max-retries N     reconnect attempts in a row; 0 = forever\n"
	"                          (default 0 interactive, 8 headless)\n"
	"      --render-hz N       render clock of the TUI (default 30)\n"
	"      --history-window N  TUI: open on the newest N events, older ones as you scroll\n"
	"                          up (default 200; 0 = load the whole history)\n"
	"      --history-memory MB TUI: about how much loaded history to hold (default 16)\n"
	"      --max-open N        TUI: conversations open at once (default 16)\n"
	"      --record FILE       append every received frame, masked, as NDJSON (created 0600)\n"
	"      --log FILE          debug log, never the screen (created 0600)\n"
	"      --reason TEXT       tether reject: why, for the agent\n"
	"      --expect ID         tether confirm|reject: answer only if exactly these\n"
	"                          tool_call_ids wait (repeatable); else exit 1\n"
	"      --interval S        tether watch: seconds between polls (default 2, at least 0.1)\n"
	"      --title T, --profile NAME, --workdir DIR  tether new (--title: fork too)\n"
	"      --from EVENT_ID     tether fork: the fork ends at that event\n"
	"      --yes               tether rm, tether goal: no question (needed when stdin is\n"
	"                          no terminal)\n"
	"      --insecure          do not verify TLS certificates\n"
	"      --protocol auto|session|events  the socket: the session socket where the server\n"
	"                          has it, else the events socket of older servers (default auto)\n"
	"  -h, --help              this text\n"
	"  -V, --version           the version\n"
	"\n"
	"A value follows its option as --server URL or --server=URL (-s URL or -sURL); short\n"
	"options bundle (-Vs URL); a long option may be shortened while it stays unambiguous.\n"
	"The session API key comes from env TETHER_SESSION_API_KEY, else the keyring.\n"
	"Defaults come from $XDG_CONFIG_HOME/tether/config as `key = value` lines, checked as the\n"
	"flags are (keys: server, render_hz, ping_interval, stall_timeout, osc52, color,\n"
	"theme, mouse, stream_stall, bell, bell_after, notify, input_history, timestamps,\n"
	"history_window, history_memory, protocol; - or _ alike); env TETHER_SERVER,\n"
	"TETHER_OSC52 and NO_COLOR override it; flags override both.\n"
	"Exit codes: 0 ok, 1 error, 2 usage, 3 auth failed, 4 not found, 5 gave up,\n"
	"6 conversation ended in error/stuck, 7 waits for confirmation, 130 interrupted,\n"
	"141 stdout's reader went away.\n";

const char *options_usage(void)
{
	static char text[sizeof usage + sizeof usage_options];
	if (!text[0])
		snprintf(text, sizeof text, "%s%s", usage, usage_options);
	return text;
}

/* The getopt_long tables built from option_specs: a long option's val is its index plus
 * LONG_BASE, so that an error names the option through optopt. */
enum { LONG_BASE = 256 };

static void build_getopt(struct option *longs, char *shorts)
{
	size_t nl = 0, ns = 0;
	/* -: positionals come back in order as 1 (whatever POSIXLY_CORRECT says); ':' reports a
	 * missing value apart from an unknown option. */
	shorts[ns++] = '-';
	shorts[ns++] = ':';
	for (size_t i = 0; i < OPTION_NSPECS; i++) {
		const struct option_spec *s = &option_specs[i];
		if (!(s->where & SPEC_CLI))
			continue;
		bool arg = option_takes_value(s);
		longs[nl++] = (struct option){ s->name, arg ? required_argument : no_argument, NULL,
					       LONG_BASE + (int)i };
		if (s->short_name) {
			shorts[ns++] = s->short_name;
			if (arg)
				shorts[ns++] = ':';
		}
	}
	longs[nl] = (struct option){ 0 };
	shorts[ns] = '\0';
}

static const struct option_spec *spec_of(int code)
{
	if (code >= LONG_BASE && (size_t)(code - LONG_BASE) < OPTION_NSPECS)
		return &option_specs[code - LONG_BASE];
	for (size_t i = 0; i < OPTION_NSPECS; i++)
		if (code > 0 && option_specs[i].short_name == code && (option_specs[i].where & SPEC_CLI))
			return &option_specs[i];
	return NULL;
}

/* What getopt refused (code '?' or ':'), in words. */
static void refusal(int code, const char *arg, struct buf *err)
{
	const struct option_spec *s = spec_of(optopt);
	if (s && code == ':') {
		buf_printf(err, "option --%s needs a value", s->name);
	} else if (s) {
		buf_printf(err, "option --%s takes no value", s->name);
	} else if (optopt) {
		buf_printf(err, "unknown option -%c (see tether --help)", optopt);
	} else {
		/* An unknown or ambiguous --name: getopt says neither apart. */
		size_t n = strcspn(arg + 2, "=");
		struct buf which;
		buf_init(&which);
		int matches = 0;
		for (size_t i = 0; i < OPTION_NSPECS; i++) {
			if ((option_specs[i].where & SPEC_CLI) && n &&
			    !strncmp(option_specs[i].name, arg + 2, n)) {
				buf_printf(&which, "%s--%s", matches++ ? ", " : "", option_specs[i].name);
			}
		}
		if (matches > 1)
			buf_printf(err, "option %.*s is ambiguous (%s)", (int)(n + 2), arg,
				   buf_cstr(&which));
		else
			buf_printf(err, "unknown option %.40s (see tether --help)", arg);
		buf_fini(&which);
	}
}

/* Reads the options of argv into o and collects the other words in pos. Stops at the first
 * refusal. */
static int parse_flags(int argc, char **argv, struct options *o, char **pos, size_t *npos,
		       struct buf *err)
{
	struct option longs[OPTION_NSPECS + 1];
	char shorts[3 + 3 * OPTION_NSPECS];
	build_getopt(longs, shorts);
	optind = 0;         /* glibc: start over, also after an earlier parse */
	opterr = 0;
	int code;
	while ((code = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (code == 1) {
			pos[(*npos)++] = optarg;
			continue;
		}
		const struct option_spec *s = code == '?' || code == ':' ? NULL : spec_of(code);
		if (!s) {
			refusal(code, argv[optind - 1], err);
			return -1;
		}
		char shown[40];
		if (code < LONG_BASE)
			snprintf(shown, sizeof shown, "-%c", code);
		else
			snprintf(shown, sizeof shown, "--%s", s->name);
		if (option_set(s, optarg, false, shown, o, err) != 0)
			return -1;
	}
	while (optind < argc)
		pos[(*npos)++] = argv[optind++];
	return 0;
}

/* The managers of issue 25: a word, an id unless new or server-info, then their words. */
static const struct manager {
	const char *word;
	enum command cmd;
	bool id;
	size_t min, max;            /* words after the id */
	const char *usage;
} managers[] = {
	{ "new", CMD_NEW, false, 0, 1, "tether new [--profile NAME] [--title T] [MESSAGE]" },
	{ "fork", CMD_FORK, true, 0, 0, "tether fork ID [--from EVENT_ID] [--title T]" },
	{ "rename", CMD_RENAME, true, 1, 1, "tether rename ID TITLE" },
	{ "rm", CMD_RM, true, 0, 0, "tether rm ID [--yes]" },
	{ "ask", CMD_ASK, true, 1, 1, "tether ask ID QUESTION" },
	{ "compact", CMD_COMPACT, true, 0, 0, "tether compact ID" },
	{ "model", CMD_MODEL, true, 0, 1, "tether model ID [PROFILE]" },
	{ "goal", CMD_GOAL, true, 1, 1, "tether goal ID OBJECTIVE|stop|resume [--yes]" },
	{ "policy", CMD_POLICY, true, 1, 2,
	  "tether policy ID always|never|risky [LOW|MEDIUM|HIGH] | analyzer llm|pattern|none" },
	{ "server-info", CMD_SERVER_INFO, false, 0, 0, "tether server-info" },
};

static bool word_in(const char *w, const char *const *list)
{
	for (; w && *list; list++)
		if (!strcasecmp(w, *list))
			return true;
	return false;
}

/* policy's words: a policy and maybe its level, or the analyzer and its kind. */
static int check_policy(const struct options *o, struct buf *err)
{
	static const char *const policies[] = { "always", "never", "risky", NULL };
	static const char *const levels[] = { "low", "medium", "high", NULL };
	static const char *const analyzers[] = { "llm", "pattern", "none", NULL };
	const char *a = o->words[0], *b = o->nwords > 1 ? o->words[1] : NULL;
	if (!strcmp(a, "analyzer") && word_in(b, analyzers))
		return 0;
	if (!strcmp(a, "analyzer")) {
		buf_puts(err, "tether policy ID analyzer takes llm, pattern or none");
		return -1;
	}
	if (!word_in(a, policies)) {
		buf_printf(err, "tether policy: '%.40s' is no policy (always, never, risky, or "
			   "analyzer)", a);
		return -1;
	}
	if (b && (strcasecmp(a, "risky") || !word_in(b, levels))) {
		buf_puts(err, "tether policy ID risky takes a level: LOW, MEDIUM or HIGH");
		return -1;
	}
	return 0;
}

/* 1: not a manager's word; else 0 or -1 as parse_command. */
static int parse_manager(char **pos, size_t npos, struct options *o, struct buf *err)
{
	const struct manager *m = NULL;
	for (size_t i = 0; i < sizeof managers / sizeof *managers && !m; i++)
		if (!strcmp(pos[0], managers[i].word))
			m = &managers[i];
	if (!m)
		return 1;
	o->command = m->cmd;
	size_t at = 1;
	if (m->id) {
		if (npos < 2) {
			buf_printf(err, "usage: %s", m->usage);
			return -1;
		}
		if (!conversation_id_valid(pos[1])) {
			char where[32];
			snprintf(where, sizeof where, "%s: ", m->word);
			options_bad_id(where, pos[1], err);
			return -1;
		}
		o->conversation_id = pos[1];
		at = 2;
	}
	if (npos - at < m->min || npos - at > m->max) {
		buf_printf(err, "usage: %s", m->usage);
		return -1;
	}
	for (; at < npos; at++)
		o->words[o->nwords++] = pos[at];
	if (m->cmd == CMD_POLICY)
		return check_policy(o, err);
	if ((m->cmd == CMD_RENAME || m->cmd == CMD_ASK || m->cmd == CMD_GOAL) &&
	    !o->words[0][strspn(o->words[0], " \t\n")]) {
		buf_printf(err, "usage: %s (not blank)", m->usage);
		return -1;
	}
	return 0;
}

/* Each manager's own options go with it alone. */
static int check_managers(const struct options *o, struct buf *err)
{
	static const struct { const char *name; size_t off; enum command a, b; } own[] = {
		{ "--title", offsetof(struct options, title), CMD_NEW, CMD_FORK },
		{ "--profile", offsetof(struct options, profile), CMD_NEW, CMD_NEW },
		{ "--workdir", offsetof(struct options, workdir), CMD_NEW, CMD_NEW },
		{ "--from", offsetof(struct options, from_event), CMD_FORK, CMD_FORK },
	};
	for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
		const char *v = *(const char *const *)((const char *)o + own[i].off);
		if (v && o->command != own[i].a && o->command != own[i].b) {
			buf_printf(err, "%s goes only with tether %s", own[i].name,
				   own[i].a == CMD_NEW && own[i].b == CMD_FORK ? "new or tether fork"
				   : own[i].a == CMD_NEW ? "new" : "fork");
			return -1;
		}
	}
	if (o->yes && o->command != CMD_RM && o->command != CMD_GOAL) {
		buf_puts(err, "--yes goes only with tether rm or tether goal");
		return -1;
	}
	bool follows = o->nsends || o->send_stdin || o->until_given;
	if (follows && o->command >= CMD_FORK && o->command <= CMD_SERVER_INFO) {
		buf_puts(err, "--send and --until follow a conversation: tether new takes them");
		return -1;
	}
	if (follows && o->command == CMD_NEW && o->format == FORMAT_JSON) {
		buf_puts(err, "tether new --send|--until writes text or ndjson");
		return -1;
	}
	return 0;
}

static int parse_command(char **pos, size_t npos, struct options *o, struct buf *err)
{
	if (npos == 0)
		return 0;
	const char *c = pos[0];
	if (!strcmp(c, "watch")) {
		o->command = CMD_WATCH;
		if (npos > 1)
			goto extra;
		return 0;
	}
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
	static const struct { const char *word; enum command cmd; } controls[] = {
		{"confirm", CMD_CONFIRM}, {"reject", CMD_REJECT}, {"pause", CMD_PAUSE},
		{"resume", CMD_RESUME}, {"interrupt", CMD_INTERRUPT}, {"usage", CMD_USAGE},
	};
	for (size_t i = 0; i < sizeof controls / sizeof controls[0]; i++) {
		if (strcmp(c, controls[i].word))
			continue;
		if (npos < 2) {
			buf_printf(err, "usage: tether %s CONVERSATION_ID%s", c,
				   controls[i].cmd == CMD_REJECT ? " [--reason TEXT]" : "");
			return -1;
		}
		o->command = controls[i].cmd;
		if (!conversation_id_valid(pos[1])) {
			char where[32];
			snprintf(where, sizeof where, "%s: ", c);
			options_bad_id(where, pos[1], err);
			return -1;
		}
		o->conversation_id = pos[1];
		if (npos > 2)
			goto extra;
		return 0;
	}
	int m = parse_manager(pos, npos, o, err);
	if (m != 1)
		return m;
	o->command = CMD_CLIENT;
	if (!conversation_id_valid(c)) {
		options_bad_id("", c, err);
		return -1;
	}
	o->conversation_id = c;
	/* The TUI opens every conversation named; the first is shown. */
	for (size_t i = 1; i < npos; i++) {
		if (!conversation_id_valid(pos[i])) {
			options_bad_id("", pos[i], err);
			return -1;
		}
		if (o->nmore_ids == OPTIONS_MORE_IDS_MAX) {
			buf_printf(err, "at most %d conversations at once", OPTIONS_MORE_IDS_MAX + 1);
			return -1;
		}
		o->more_ids[o->nmore_ids++] = pos[i];
	}
	if (o->nmore_ids && o->headless) {
		buf_puts(err, "--headless follows one conversation (tether watch: every conversation "
			      "on the server)");
		return -1;
	}
	return 0;
extra:
	buf_printf(err, "unexpected argument '%.60s'", pos[npos - 1]);
	return -1;
}

/* tether watch takes the modes that make sense for many conversations at once; the other
 * commands do not take --interval. */
static int check_watch(const struct options *o, struct buf *err)
{
	if (o->command != CMD_WATCH) {
		if (o->watch_interval_s != 2) {
			buf_puts(err, "--interval goes only with tether watch");
			return -1;
		}
		return 0;
	}
	if (o->until != UNTIL_UNSET && o->until != UNTIL_NEVER && o->until != UNTIL_IDLE) {
		buf_puts(err, "tether watch: --until takes never or idle");
		return -1;
	}
	if (o->on_confirm != ON_CONFIRM_EXIT && o->on_confirm != ON_CONFIRM_WAIT) {
		buf_puts(err, "tether watch: --on-confirm takes exit or wait (answer with tether confirm ID)");
		return -1;
	}
	if (o->format == FORMAT_JSON) {
		buf_puts(err, "tether watch: --format takes text or ndjson");
		return -1;
	}
	if (o->watch_interval_s < 0.1) {
		buf_puts(err, "tether watch: --interval must be at least 0.1 seconds");
		return -1;
	}
	if (o->nsends || o->send_stdin) {
		buf_puts(err, "tether watch sends nothing: --send goes with a conversation");
		return -1;
	}
	return 0;
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
	o->until = UNTIL_UNSET;
	o->watch_interval_s = 2;
	o->after_seq = -2; /* not given: -1 below */
	o->history_window = 200;
	o->history_memory_mb = 16;
	o->max_open = 16;
	o->ping_interval_s = 20;
	o->stall_timeout_s = 60;
	o->max_retries = -1;
	o->render_hz = 30;
	o->osc52 = OSC52_AUTO;
	o->color = true;
	o->stream_stall_s = 10;
	o->bell = true;
	o->bell_after_s = 10;
	o->history = true;
	o->server = OPTIONS_DEFAULT_SERVER;
	options_load_config(o, config_warn);
	/* The environment overrides the config file; flags override both. */
	const char *env_server = getenv("TETHER_SERVER");
	if (env_server && *env_server)
		o->server = env_server;
	const char *env_osc52 = getenv("TETHER_OSC52");
	if (env_osc52 && *env_osc52)
		o->osc52 = !strcmp(env_osc52, "1") ? OSC52_ON : OSC52_OFF;
	if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
		o->color = false;

	char **pos = xcalloc((size_t)argc + 1, sizeof *pos);
	size_t npos = 0;
	int rc = parse_flags(argc, argv, o, pos, &npos, err);
	/* --help and --version win over the words around them. */
	if (rc == 0 && o->command == CMD_CLIENT)
		rc = parse_command(pos, npos, o, err);
	free(pos);
	o->after_seq_given = o->after_seq != -2;
	if (!o->after_seq_given)
		o->after_seq = -1;
	if (rc == 0 && o->reason && o->command != CMD_REJECT) {
		buf_puts(err, "--reason goes only with tether reject");
		rc = -1;
	}
	if (rc == 0 && o->nexpects && o->command != CMD_CONFIRM && o->command != CMD_REJECT) {
		buf_puts(err, "--expect goes only with tether confirm or tether reject");
		rc = -1;
	}
	if (rc == 0 && o->format == FORMAT_JSON && o->command == CMD_CLIENT) {
		buf_puts(err, "--format json is for tether list; the client writes text or ndjson");
		rc = -1;
	}
	if (rc == 0)
		rc = check_watch(o, err);
	o->until_given = o->until != UNTIL_UNSET;
	if (rc == 0)
		rc = check_managers(o, err);
	if (o->until == UNTIL_UNSET)
		o->until = o->command == CMD_WATCH ? UNTIL_NEVER : UNTIL_IDLE;
	if (rc == 0 && o->no_history && o->after_seq != -1) {
		buf_puts(err, "--no-history and --after-seq exclude each other");
		rc = -1;
	}
	return rc;
}

void options_fini(struct options *o)
{
	free(o->sends);
	free(o->expects);
	free(o->mask_files);
	for (size_t i = 0; i < o->nconfig_strings_; i++)
		free(o->config_strings_[i]);
	free(o->config_strings_);
	o->config_strings_ = NULL;
	o->nconfig_strings_ = 0;
	o->sends = NULL;
	o->mask_files = NULL;
}
