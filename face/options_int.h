/* Private to the option parsers: the one table of settings that the command line
 * (options.c, getopt_long) and the config file (config.c) both read. */
#ifndef TETHER_OPTIONS_INT_H
#define TETHER_OPTIONS_INT_H

#include "options.h"

enum spec_kind {
	SPEC_COMMAND,       /* -h, -V: lo is the command */
	SPEC_TRUE,          /* a flag without a value: the bool at offset becomes true */
	SPEC_STRING,        /* the const char * at offset */
	SPEC_MASK_FILE,     /* appended to mask_files */
	SPEC_SEND,          /* appended to sends, or "-": send_stdin */
	SPEC_EXPECT,        /* appended to expects */
	SPEC_INT,           /* an integer from lo to hi, into an int or int64_t (size) */
	SPEC_SECONDS,       /* decimal seconds > 0, at most a day, into a double */
	SPEC_ONOFF,         /* on/off, yes/no, true/false, 1/0 into a bool */
	SPEC_CHOICE,        /* one of choices, its index into an enum */
};

enum spec_where { SPEC_CLI = 1, SPEC_CONFIG = 2 };

struct option_spec {
	const char *name;           /* --name; the config key is name, or name with _ for - */
	char short_name;            /* -c, or 0 */
	enum spec_kind kind;
	unsigned where;             /* enum spec_where bits */
	size_t offset, size;        /* the field of struct options */
	long long lo, hi;
	const char *const *choices; /* NULL-terminated */
};

/* The table (its definition must have exactly this many entries). */
enum { OPTION_NSPECS = 41 };
extern const struct option_spec option_specs[OPTION_NSPECS];

/* Whether the spec takes a value. */
bool option_takes_value(const struct option_spec *s);
/* The spec whose --name (or config key) is name, where it may be given; NULL when none.
 * A config key may spell - as _. */
const struct option_spec *option_find(const char *name, unsigned where);
/* Sets what s stands for from value (NULL for a flag). A config value is copied (the line it
 * came from is freed); a command-line one is borrowed from argv. Returns 0, or -1 with
 * "<shown> <why>" in err, shown being the option as the user wrote it. */
int option_set(const struct option_spec *s, const char *value, bool copy, const char *shown,
	       struct options *o, struct buf *err);
/* Says in err why word, in a conversation id's place, is not one; where prefixes the
 * message ("" or "pause: "). A word that looks like a command names the commands. */
void options_bad_id(const char *where, const char *word, struct buf *err);
/* The config keys, for a message: "server, render_hz, …". */
void option_list_config_keys(struct buf *out);

#endif
