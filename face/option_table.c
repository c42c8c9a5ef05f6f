/* The settings of cli.md in one table, with the value parsing and range checks that the
 * command line and the config file share. */
#include "options_int.h"
#include "net.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(f) offsetof(struct options, f), sizeof(((struct options *)0)->f)

static const char *const formats[] = { "text", "ndjson", "json", NULL };
static const char *const untils[] = { "idle", "finished", "never", "synced", NULL };
static const char *const on_confirms[] = { "exit", "wait", "accept", "reject", NULL };
static const char *const notifies[] = { "off", "osc9", "osc777", NULL };
static const char *const themes[] = { "auto", "dark", "light", NULL };
static const char *const protocols[] = { "auto", "session", "events", NULL };

/* Choice values are enum indexes: the lists follow enum output_format and enum until_mode. */
_Static_assert(FORMAT_TEXT == 0 && FORMAT_NDJSON == 1 && FORMAT_JSON == 2, "formats[] follows the enum");
_Static_assert(UNTIL_IDLE == 0 && UNTIL_FINISHED == 1 && UNTIL_NEVER == 2 && UNTIL_SYNCED == 3,
	       "untils[] follows the enum");
_Static_assert(ON_CONFIRM_EXIT == 0 && ON_CONFIRM_WAIT == 1 && ON_CONFIRM_ACCEPT == 2 &&
	       ON_CONFIRM_REJECT == 3, "on_confirms[] follows the enum");
_Static_assert(NET_PROTOCOL_AUTO == 0 && NET_PROTOCOL_SESSION == 1 && NET_PROTOCOL_EVENTS == 2,
	       "protocols[] follows the enum");
_Static_assert(NOTIFY_OFF == 0 && NOTIFY_OSC9 == 1 && NOTIFY_OSC777 == 2, "notifies[] follows the enum");
_Static_assert(OSC52_OFF == false && OSC52_ON == true, "osc52 = on/off stores the enum");
_Static_assert(THEME_CHOICE_AUTO == 0 && THEME_CHOICE_DARK == 1 && THEME_CHOICE_LIGHT == 2,
	       "themes[] follows the enum");

const struct option_spec option_specs[] = {
	{ "help", 'h', SPEC_COMMAND, SPEC_CLI, 0, 0, CMD_HELP, 0, NULL },
	{ "version", 'V', SPEC_COMMAND, SPEC_CLI, 0, 0, CMD_VERSION, 0, NULL },
	{ "server", 's', SPEC_STRING, SPEC_CLI | SPEC_CONFIG, FIELD(server), 0, 0, NULL },
	{ "headless", 0, SPEC_TRUE, SPEC_CLI, FIELD(headless), 0, 0, NULL },
	{ "format", 0, SPEC_CHOICE, SPEC_CLI, FIELD(format), 0, 0, formats },
	{ "send", 0, SPEC_SEND, SPEC_CLI, 0, 0, 0, 0, NULL },
	{ "until", 0, SPEC_CHOICE, SPEC_CLI, FIELD(until), 0, 0, untils },
	{ "on-confirm", 0, SPEC_CHOICE, SPEC_CLI, FIELD(on_confirm), 0, 0, on_confirms },
	{ "quiet", 'q', SPEC_TRUE, SPEC_CLI, FIELD(quiet), 0, 0, NULL },
	{ "after-seq", 0, SPEC_INT, SPEC_CLI, FIELD(after_seq), -1, NET_SEQ_MAX, NULL },
	{ "no-history", 0, SPEC_TRUE, SPEC_CLI, FIELD(no_history), 0, 0, NULL },
	{ "mask-file", 0, SPEC_MASK_FILE, SPEC_CLI, 0, 0, 0, 0, NULL },
	{ "ping-interval", 0, SPEC_SECONDS, SPEC_CLI | SPEC_CONFIG, FIELD(ping_interval_s), 0, 0, NULL },
	{ "stall-timeout", 0, SPEC_SECONDS, SPEC_CLI | SPEC_CONFIG, FIELD(stall_timeout_s), 0, 0, NULL },
	{ "max-retries", 0, SPEC_INT, SPEC_CLI, FIELD(max_retries), 0, 1000000, NULL },
	{ "render-hz", 0, SPEC_INT, SPEC_CLI | SPEC_CONFIG, FIELD(render_hz), 1, 240, NULL },
	{ "record", 0, SPEC_STRING, SPEC_CLI, FIELD(record_path), 0, 0, NULL },
	{ "log", 0, SPEC_STRING, SPEC_CLI, FIELD(log_path), 0, 0, NULL },
	{ "reason", 0, SPEC_STRING, SPEC_CLI, FIELD(reason), 0, 0, NULL },
	{ "expect", 0, SPEC_EXPECT, SPEC_CLI, 0, 0, 0, 0, NULL },
	{ "insecure", 0, SPEC_TRUE, SPEC_CLI, FIELD(insecure), 0, 0, NULL },
	{ "osc52", 0, SPEC_ONOFF, SPEC_CONFIG, FIELD(osc52), 0, 0, NULL },
	{ "color", 0, SPEC_ONOFF, SPEC_CONFIG, FIELD(color), 0, 0, NULL },
	{ "stream-stall", 0, SPEC_SECONDS, SPEC_CONFIG, FIELD(stream_stall_s), 0, 0, NULL },
	{ "bell", 0, SPEC_ONOFF, SPEC_CONFIG, FIELD(bell), 0, 0, NULL },
	{ "bell-after", 0, SPEC_INT, SPEC_CONFIG, FIELD(bell_after_s), 0, 86400, NULL },
	{ "notify", 0, SPEC_CHOICE, SPEC_CONFIG, FIELD(notify), 0, 0, notifies },
	{ "input-history", 0, SPEC_ONOFF, SPEC_CONFIG, FIELD(history), 0, 0, NULL },
	{ "timestamps", 0, SPEC_ONOFF, SPEC_CONFIG, FIELD(timestamps), 0, 0, NULL },
	{ "theme", 0, SPEC_CHOICE, SPEC_CONFIG, FIELD(theme), 0, 0, themes },
	{ "mouse", 0, SPEC_ONOFF, SPEC_CONFIG, FIELD(mouse), 0, 0, NULL },
	{ "history-window", 0, SPEC_INT, SPEC_CLI | SPEC_CONFIG, FIELD(history_window), 0, 1000000, NULL },
	{ "history-memory", 0, SPEC_INT, SPEC_CLI | SPEC_CONFIG, FIELD(history_memory_mb), 4, 65536, NULL },
	{ "interval", 0, SPEC_SECONDS, SPEC_CLI, FIELD(watch_interval_s), 0, 0, NULL },
	{ "max-open", 0, SPEC_INT, SPEC_CLI | SPEC_CONFIG, FIELD(max_open), 1, 64, NULL },
	{ "title", 0, SPEC_STRING, SPEC_CLI, FIELD(title), 0, 0, NULL },
	{ "profile", 0, SPEC_STRING, SPEC_CLI, FIELD(profile), 0, 0, NULL },
	{ "from", 0, SPEC_STRING, SPEC_CLI, FIELD(from_event), 0, 0, NULL },
	{ "workdir", 0, SPEC_STRING, SPEC_CLI, FIELD(workdir), 0, 0, NULL },
	{ "yes", 0, SPEC_TRUE, SPEC_CLI, FIELD(yes), 0, 0, NULL },
	{ "protocol", 0, SPEC_CHOICE, SPEC_CLI | SPEC_CONFIG, FIELD(protocol), 0, 0, protocols },
};

bool option_takes_value(const struct option_spec *s)
{
	return s->kind != SPEC_COMMAND && s->kind != SPEC_TRUE;
}

/* name equals spec, a config key also with _ for -. */
static bool same_name(const char *name, const char *spec, bool config)
{
	for (; *name && *spec; name++, spec++)
		if (*name != *spec && !(config && *name == '_' && *spec == '-'))
			return false;
	return !*name && !*spec;
}

const struct option_spec *option_find(const char *name, unsigned where)
{
	for (size_t i = 0; i < OPTION_NSPECS; i++)
		if ((option_specs[i].where & where) &&
		    same_name(name, option_specs[i].name, where == SPEC_CONFIG))
			return &option_specs[i];
	return NULL;
}

void option_list_config_keys(struct buf *out)
{
	const char *sep = "";
	for (size_t i = 0; i < OPTION_NSPECS; i++) {
		if (!(option_specs[i].where & SPEC_CONFIG))
			continue;
		buf_puts(out, sep);
		for (const char *c = option_specs[i].name; *c; c++)
			buf_putc(out, *c == '-' ? '_' : *c);
		sep = ", ";
	}
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

static int parse_onoff(const char *v)
{
	static const char *const yes[] = { "1", "on", "yes", "true" };
	static const char *const no[] = { "0", "off", "no", "false" };
	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(v, yes[i]))
			return 1;
		if (!strcmp(v, no[i]))
			return 0;
	}
	return -1;
}

static void push(const char ***arr, size_t *n, const char *v)
{
	*arr = xrealloc(*arr, (*n + 1) * sizeof **arr);
	(*arr)[(*n)++] = v;
}

/* "a, b or c" */
static void list_choices(struct buf *out, const char *const *c)
{
	for (size_t i = 0; c[i]; i++)
		buf_printf(out, "%s%s", i == 0 ? "" : c[i + 1] ? ", " : " or ", c[i]);
}

static const char *keep(struct options *o, const char *value, bool copy)
{
	if (!copy)
		return value;
	char *dup = xstrdup(value);
	o->config_strings_ = xrealloc(o->config_strings_,
				      (o->nconfig_strings_ + 1) * sizeof *o->config_strings_);
	o->config_strings_[o->nconfig_strings_++] = dup;
	return dup;
}

static void store_int(void *field, size_t size, long long v)
{
	if (size == sizeof(int64_t)) {
		int64_t w = v;
		memcpy(field, &w, sizeof w);
	} else {
		int w = (int)v;
		memcpy(field, &w, sizeof w);
	}
}

int option_set(const struct option_spec *s, const char *value, bool copy, const char *shown,
	       struct options *o, struct buf *err)
{
	void *field = (char *)o + s->offset;
	long long n;
	double d;
	int b;
	switch (s->kind) {
	case SPEC_COMMAND:
		o->command = (enum command)s->lo;
		return 0;
	case SPEC_TRUE:
		*(bool *)field = true;
		return 0;
	case SPEC_STRING:
		*(const char **)field = keep(o, value, copy);
		return 0;
	case SPEC_MASK_FILE:
		push(&o->mask_files, &o->nmask_files, keep(o, value, copy));
		return 0;
	case SPEC_EXPECT:
		push(&o->expects, &o->nexpects, keep(o, value, copy));
		return 0;
	case SPEC_SEND:
		if (!strcmp(value, "-")) {
			o->send_stdin = true;
		} else if (!value[strspn(value, " \t\r\n")]) {
			/* The TUI never sends a blank message either. */
			buf_printf(err, "%s: the message is empty or blank; nothing would be sent", shown);
			return -1;
		} else {
			push(&o->sends, &o->nsends, keep(o, value, copy));
		}
		return 0;
	case SPEC_INT:
		if (!parse_int(value, s->lo, s->hi, &n)) {
			buf_printf(err, "%s takes an integer from %lld to %lld, not '%.40s'", shown, s->lo,
				   s->hi, value);
			return -1;
		}
		store_int(field, s->size, n);
		return 0;
	case SPEC_SECONDS:
		if (!parse_seconds(value, &d)) {
			buf_printf(err, "%s takes seconds > 0 (at most 86400), not '%.40s'", shown, value);
			return -1;
		}
		*(double *)field = d;
		return 0;
	case SPEC_ONOFF:
		if ((b = parse_onoff(value)) < 0) {
			buf_printf(err, "%s takes on or off, not '%.40s'", shown, value);
			return -1;
		}
		if (s->size == sizeof(bool))
			*(bool *)field = b;
		else
			store_int(field, s->size, b);   /* an enum whose off and on are 0 and 1 */
		return 0;
	case SPEC_CHOICE:
		for (size_t i = 0; s->choices[i]; i++) {
			if (!strcmp(value, s->choices[i])) {
				store_int(field, s->size, (long long)i);
				return 0;
			}
		}
		buf_printf(err, "%s must be ", shown);
		list_choices(err, s->choices);
		buf_printf(err, ", not '%.40s'", value);
		return -1;
	}
	return -1;
}
