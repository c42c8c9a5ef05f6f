/* The command line of cli.md and the config file, parsed into one struct through one table
 * of options (options_int.h). */
#ifndef TETHER_OPTIONS_H
#define TETHER_OPTIONS_H

#include "base.h"

/* The server when neither flag, environment nor config file names one. */
#define OPTIONS_DEFAULT_SERVER "http://127.0.0.1:8000"

enum command {
	CMD_CLIENT,         /* tether [OPTIONS] [CONVERSATION_ID] */
	CMD_LIST,
	CMD_KEY_SET,
	CMD_KEY_RM,
	CMD_SECRET_ADD,
	CMD_SECRET_LIST,
	CMD_SECRET_RM,
	CMD_CONFIRM,        /* tether confirm|reject|pause|resume|interrupt CONVERSATION_ID */
	CMD_REJECT,
	CMD_PAUSE,
	CMD_RESUME,
	CMD_INTERRUPT,
	CMD_HELP,
	CMD_VERSION,
	CMD_WATCH,          /* tether watch: status changes of every conversation */
	CMD_USAGE,          /* tether usage CONVERSATION_ID: tokens, cost and context */
	/* the conversation managers (issue 25), one REST call each (cmd_manage.c) */
	CMD_NEW,            /* tether new [MESSAGE] */
	CMD_FORK,           /* tether fork ID */
	CMD_RENAME,         /* tether rename ID TITLE */
	CMD_RM,             /* tether rm ID */
	CMD_ASK,            /* tether ask ID QUESTION */
	CMD_COMPACT,        /* tether compact ID */
	CMD_MODEL,          /* tether model ID [PROFILE] */
	CMD_GOAL,           /* tether goal ID OBJECTIVE|stop|resume */
	CMD_POLICY,         /* tether policy ID always|never|risky [LEVEL] | analyzer KIND */
	CMD_SERVER_INFO,    /* tether server-info */
};

enum output_format { FORMAT_TEXT, FORMAT_NDJSON, FORMAT_JSON /* tether list only */ };
enum until_mode { UNTIL_IDLE, UNTIL_FINISHED, UNTIL_NEVER, UNTIL_SYNCED,
		  UNTIL_UNSET /* not given: the command's default */ };
/* --on-confirm: what headless does when actions wait for confirmation. */
enum on_confirm { ON_CONFIRM_EXIT, ON_CONFIRM_WAIT, ON_CONFIRM_ACCEPT, ON_CONFIRM_REJECT };

/* notify =: a desktop notification through the terminal's escape sequence, or none. */
enum notify_mode { NOTIFY_OFF, NOTIFY_OSC9, NOTIFY_OSC777 };
/* osc52 =: /copy through the terminal's clipboard; not set, where the terminal says it
 * takes it. */
enum osc52_mode { OSC52_OFF, OSC52_ON, OSC52_AUTO };
/* theme =: colours for a dark or a light background; auto asks the terminal. */
enum theme_choice { THEME_CHOICE_AUTO, THEME_CHOICE_DARK, THEME_CHOICE_LIGHT };

enum { OPTIONS_MORE_IDS_MAX = 63 };

struct options {
	enum command command;
	const char *conversation_id;
	const char *secret_name;
	const char *reason;         /* tether reject --reason */
	const char **expects;       /* tether confirm|reject --expect: the tool_call_ids that must wait */
	size_t nexpects;
	const char *server;
	bool headless;
	enum output_format format;
	const char **sends;         /* --send values in order; "-" means stdin */
	size_t nsends;
	bool send_stdin;
	enum until_mode until;
	enum on_confirm on_confirm;
	bool quiet;                 /* -q: only fatal diagnostics on stderr */
	int64_t after_seq;
	bool no_history;
	const char **mask_files;
	size_t nmask_files;
	double ping_interval_s;
	double stall_timeout_s;
	int max_retries;            /* -1: the default for the mode */
	int render_hz;
	const char *record_path;
	const char *log_path;
	bool insecure;
	int protocol;               /* enum net_protocol: auto, session or events (issue 26) */
	/* From the config file (or env): */
	enum osc52_mode osc52;      /* /copy writes the clipboard through OSC 52 */
	enum theme_choice theme;    /* the colours' background */
	bool mouse;                 /* the wheel scrolls, a click focuses (mouse reporting on) */
	bool color;                 /* false: monochrome (also when NO_COLOR is set) */
	double stream_stall_s;      /* no delta for this long marks a streaming item stalled */
	bool bell;                  /* ring when a confirmation is asked and a long run ends */
	int bell_after_s;           /* a run ending rings only after running this long */
	enum notify_mode notify;    /* desktop notifications through the terminal */
	bool history;               /* the TUI keeps the input history in $XDG_STATE_HOME/tether */
	bool timestamps;            /* item headers show their time (/time toggles it) */
	bool after_seq_given;       /* --after-seq was given: the TUI resumes there, not at the tail */
	int history_window;         /* TUI: events loaded at start, the newest (0: all of them) */
	int history_memory_mb;      /* TUI: about how much the loaded history may hold, in MB */
	double watch_interval_s;    /* tether watch --interval: seconds between polls */
	const char *more_ids[OPTIONS_MORE_IDS_MAX]; /* TUI: more conversations to open */
	size_t nmore_ids;
	int max_open;               /* TUI: conversations open at once, at most */
	const char *words[2];       /* the words after a manager's id (its title, question …) */
	size_t nwords;
	const char *title;          /* tether new|fork --title */
	const char *profile;        /* tether new --profile: an agent profile's name or id */
	const char *from_event;     /* tether fork --from: the event the fork ends at */
	const char *workdir;        /* tether new --workdir: a path on the server's machine */
	bool yes;                   /* tether rm --yes: no question */
	bool until_given;           /* --until was given (tether new: follow the run) */
	char **config_strings_;     /* private: values copied from the config file */
	size_t nconfig_strings_;
};

/* Parses argv per cli.md. Returns 0, or -1 with a one-line message in err (exit 2). */
int options_parse(int argc, char **argv, struct options *o, struct buf *err);
/* Applies $XDG_CONFIG_HOME/tether/config (or ~/.config/tether/config) to o; each bad line is
 * reported through warn and skipped. Called by options_parse before env and flags. */
void options_load_config(struct options *o, void (*warn)(const char *line));
/* Frees what options_parse allocated. */
void options_fini(struct options *o);
/* True when s is a conversation id: a UUID, hyphenated (8-4-4-4-12) or as 32 hex digits. */
bool conversation_id_valid(const char *s);
/* True when a and b name the same conversation: the same hex digits, hyphens and case aside. */
bool conversation_id_same(const char *a, const char *b);
/* The --help text. */
const char *options_usage(void);

#endif
