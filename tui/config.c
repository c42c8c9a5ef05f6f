/* The config file: `key = value` lines for defaults. Flags and env override it. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int parse_bool(const char *v)
{
	static const char *const yes[] = {"1", "on", "yes", "true"};
	static const char *const no[] = {"0", "off", "no", "false"};
	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(v, yes[i]))
			return 1;
		if (!strcmp(v, no[i]))
			return 0;
	}
	return -1;
}

static bool config_path(struct buf *path)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	if (xdg && *xdg)
		buf_printf(path, "%s/tether/config", xdg);
	else if (home && *home)
		buf_printf(path, "%s/.config/tether/config", home);
	else
		return false;
	return true;
}

/* Applies one `key = value`; returns NULL or why the line was refused. */
static const char *apply(struct options *o, const char *key, const char *value)
{
	int b;
	char *end;
	if (!strcmp(key, "server")) {
		free(o->config_storage_);
		o->config_storage_ = xstrdup(value);
		o->server = o->config_storage_;
		return NULL;
	}
	if (!strcmp(key, "render_hz")) {
		long v = strtol(value, &end, 10);
		if (*end || v < 1 || v > 240)
			return "render_hz takes 1 to 240";
		o->render_hz = (int)v;
		return NULL;
	}
	if (!strcmp(key, "osc52") || !strcmp(key, "color")) {
		if ((b = parse_bool(value)) < 0)
			return "takes on or off";
		*(key[0] == 'o' ? &o->osc52 : &o->color) = b;
		return NULL;
	}
	static const struct {
		const char *key;
		size_t offset;
	} seconds[] = {
		{"ping_interval", offsetof(struct options, ping_interval_s)},
		{"stall_timeout", offsetof(struct options, stall_timeout_s)},
		{"stream_stall", offsetof(struct options, stream_stall_s)},
	};
	for (size_t i = 0; i < sizeof seconds / sizeof seconds[0]; i++) {
		if (strcmp(key, seconds[i].key))
			continue;
		double v = strtod(value, &end);
		if (*end || !(v > 0 && v <= 86400))
			return "takes seconds > 0";
		*(double *)((char *)o + seconds[i].offset) = v;
		return NULL;
	}
	return "unknown key (known: server, render_hz, osc52, color, ping_interval, stall_timeout, "
	       "stream_stall)";
}

void options_load_config(struct options *o, void (*warn)(const char *line))
{
	struct buf path;
	buf_init(&path);
	if (!config_path(&path)) {
		buf_fini(&path);
		return;
	}
	FILE *f = fopen(buf_cstr(&path), "r");
	if (!f) {
		if (errno != ENOENT && warn) {
			struct buf m;
			buf_init(&m);
			buf_printf(&m, "config %s: %s", buf_cstr(&path), strerror(errno));
			warn(buf_cstr(&m));
			buf_fini(&m);
		}
		buf_fini(&path);
		return;
	}
	/* Lines of any length: a fixed buffer would split a long one and apply its tail (a
	 * comment's, say) as a setting of its own. */
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		const char *why = "expected key = value";
		if (eq) {
			*eq = '\0';
			why = apply(o, trim(s), trim(eq + 1));
		}
		if (why && warn) {
			struct buf m;
			buf_init(&m);
			buf_printf(&m, "config %s:%d: %s", buf_cstr(&path), lineno, why);
			warn(buf_cstr(&m));
			buf_fini(&m);
		}
	}
	free(line);
	fclose(f);
	buf_fini(&path);
}
