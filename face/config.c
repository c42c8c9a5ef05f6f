/* The config file: `key = value` lines for defaults, read through the command line's table
 * of options (a key is an option's long name, - or _ alike). Flags and env override it. */
#include "options_int.h"

#include <ctype.h>
#include <errno.h>
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

/* Applies one `key = value` through the command line's table; a refusal goes to why. */
static void apply(struct options *o, const char *key, const char *value, struct buf *why)
{
	const struct option_spec *s = option_find(key, SPEC_CONFIG);
	if (!s) {
		buf_puts(why, "unknown key (known: ");
		option_list_config_keys(why);
		buf_putc(why, ')');
		return;
	}
	option_set(s, value, true, key, o, why);
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
		struct buf why;
		buf_init(&why);
		if (eq) {
			*eq = '\0';
			apply(o, trim(s), trim(eq + 1), &why);
		} else {
			buf_puts(&why, "expected key = value");
		}
		if (why.len && warn) {
			struct buf m;
			buf_init(&m);
			buf_printf(&m, "config %s:%d: %s", buf_cstr(&path), lineno, buf_cstr(&why));
			warn(buf_cstr(&m));
			buf_fini(&m);
		}
		buf_fini(&why);
	}
	free(line);
	fclose(f);
	buf_fini(&path);
}
