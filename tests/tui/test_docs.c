/* The README and the man page cannot go stale: every key of every context (named as the keys
 * overlay names it), every slash command and every config key appear in both. The key
 * tables are the ones that dispatch, so a binding added without its documentation fails
 * here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conv.h"
#include "bindings.h"
#include "options_int.h"

static const char *readme_path, *man_path;

/* The file's text; the man page with roff's escapes taken out (Ctrl\-O reads Ctrl-O). */
static char *slurp(const char *path, bool roff)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	struct buf b;
	buf_init(&b);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	char *s = buf_steal(&b);
	if (roff) {
		char *w = s;
		for (char *r = s; *r; r++) {
			if (r[0] == '\\' && (r[1] == '-' || r[1] == '&' || r[1] == ' ')) {
				if (r[1] != '&')
					*w++ = r[1];
				r++;
				continue;
			}
			if (r[0] == '\\' && r[1] == 'f' && r[2]) {
				r += 2;
				continue;
			}
			*w++ = *r;
		}
		*w = '\0';
	}
	return s;
}

/* README's "## Keys" section, up to the next section. */
static char *keys_section(char *readme)
{
	char *at = strstr(readme, "\n## Keys");
	if (!at)
		fail_msg("README.md has no \"## Keys\" section");
	char *end = strstr(at + 1, "\n## ");
	if (end)
		*end = '\0';
	return at;
}

static void check_all(const char *doc, const char *what)
{
	struct buf missing;
	buf_init(&missing);
	struct bindings_context c[16];
	size_t n = bindings_contexts(c, 16);
	for (size_t i = 0; i < n; i++)
		for (size_t t = 0; t < c[i].ntables; t++)
			for (size_t r = 0; r < c[i].count[t]; r++) {
				const struct binding *b = &c[i].rows[t][r];
				if (b->command) {
					char want[64];
					snprintf(want, sizeof want, "/%s", b->command);
					if (!strstr(doc, want))
						buf_printf(&missing, "  %s\n", want);
				}
				if (b->kind == KEYS_NONE)
					continue;
				struct buf name;
				buf_init(&name);
				keys_describe(b->kind, b->mods, b->cp, &name);
				/* "Ctrl-J/Alt-Enter" is two keys: each must be named */
				char *names = (char *)buf_cstr(&name), *save = NULL;
				for (char *k = strtok_r(names, "/", &save); k; k = strtok_r(NULL, "/", &save))
					if (!strstr(doc, k))
						buf_printf(&missing, "  %s (%s: %s)\n", k, c[i].name, b->help);
				buf_fini(&name);
			}
	for (size_t i = 0; i < OPTION_NSPECS; i++) {
		if (!(option_specs[i].where & SPEC_CONFIG))
			continue;
		char key[64];
		snprintf(key, sizeof key, "%s", option_specs[i].name);
		for (char *p = key; *p; p++)
			if (*p == '-')
				*p = '_';
		if (!strstr(doc, key))
			buf_printf(&missing, "  the config key %s\n", key);
	}
	if (missing.len)
		fail_msg("%s does not name:\n%s", what, buf_cstr(&missing));
	buf_fini(&missing);
}

static void readme_lists_everything(void **state)
{
	(void)state;
	char *readme = slurp(readme_path, false);
	check_all(keys_section(readme), "README.md's Keys section");
	free(readme);
}

/* s with every run of white space (line breaks and the indent of a wrapped line too) as one
 * space. */
static char *squeeze(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *w = out;
	bool space = false;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\n' || *s == '\t') {
			space = w != out;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = false;
		*w++ = *s;
	}
	*w = '\0';
	return out;
}

/* A row's command as the list gives it: beside its key ("F5 /reconnect") or at the start of
 * a line of its own ("/pause"), in doc squeezed. */
static void command_line(const struct binding *b, const char *doc, struct buf *missing)
{
	struct buf want;
	buf_init(&want);
	if (b->kind != KEYS_NONE) {
		keys_describe(b->kind, b->mods, b->cp, &want);
		buf_putc(&want, ' ');
	}
	buf_printf(&want, "/%s%s%s ", b->command, b->args && *b->args ? " " : "",
		   b->args ? b->args : "");
	/* the line's start: a space before it, the list's lines being squeezed into one */
	struct buf line;
	buf_init(&line);
	buf_printf(&line, " %s", buf_cstr(&want));
	if (!strstr(doc, buf_cstr(&line)))
		buf_printf(missing, "  the line \"%s\"\n", buf_cstr(&want));
	buf_fini(&line);
	buf_fini(&want);
}

/* README's Keys section is the keys overlay's list: every context by its name (the board's
 * too), every row's help text, however the lines wrap, and every command as a line of the
 * list (beside its key when it has one). */
static void readme_lists_every_row(void **state)
{
	(void)state;
	char *readme = slurp(readme_path, false);
	char *doc = squeeze(keys_section(readme));
	struct buf missing;
	buf_init(&missing);
	struct bindings_context c[16];
	size_t n = bindings_contexts(c, 16);
	for (size_t i = 0; i < n; i++) {
		if (!strstr(doc, c[i].name))
			buf_printf(&missing, "  the context \"%s\"\n", c[i].name);
		for (size_t t = 0; t < c[i].ntables; t++)
			for (size_t r = 0; r < c[i].count[t]; r++) {
				const struct binding *b = &c[i].rows[t][r];
				char *help = squeeze(b->help);
				if (!strstr(doc, help))
					buf_printf(&missing, "  %s: %s\n", c[i].name, help);
				free(help);
				if (b->command)
					command_line(b, doc, &missing);
			}
	}
	if (missing.len)
		fail_msg("README.md's Keys section does not say:\n%s", buf_cstr(&missing));
	buf_fini(&missing);
	free(doc);
	free(readme);
}

/* Whether the man page has a heading line (".B", ".BR") naming both key and command. */
static bool man_heading(const char *man, const char *key, const char *command)
{
	for (const char *p = man; (p = strstr(p, "\n.B")) != NULL; p++) {
		const char *end = strchr(p + 1, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *line = xstrndup(p, n);
		bool both = strstr(line, key) && strstr(line, command);
		free(line);
		if (both)
			return true;
	}
	return false;
}

/* The man page names every key and command; a key and its command head one entry. */
static void man_page_lists_everything(void **state)
{
	(void)state;
	char *man = slurp(man_path, true);
	check_all(man, "tether.1");
	struct buf missing;
	buf_init(&missing);
	struct bindings_context c[BINDINGS_CONTEXTS_MAX];
	size_t n = bindings_contexts(c, BINDINGS_CONTEXTS_MAX);
	for (size_t i = 0; i < n; i++)
		for (size_t t = 0; t < c[i].ntables; t++)
			for (size_t r = 0; r < c[i].count[t]; r++) {
				const struct binding *b = &c[i].rows[t][r];
				if (!b->command || b->kind == KEYS_NONE)
					continue;
				struct buf key;
				buf_init(&key);
				keys_describe(b->kind, b->mods, b->cp, &key);
				char command[64];
				snprintf(command, sizeof command, "/%s", b->command);
				if (!man_heading(man, buf_cstr(&key), command))
					buf_printf(&missing, "  %s, %s\n", buf_cstr(&key), command);
				buf_fini(&key);
			}
	if (missing.len)
		fail_msg("tether.1 has no entry headed by both:\n%s", buf_cstr(&missing));
	buf_fini(&missing);
	free(man);
}

/* osc52 as the code reads it: the values the table's kind takes, the option the command
 * line lacks, and TETHER_OSC52 overriding the file both ways. */
static bool osc52_with(const char *config_line, const char *env)
{
	char dir[] = "/tmp/tether-docs-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[96];
	snprintf(path, sizeof path, "%s/tether", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/tether/config", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", config_line);
	fclose(f);
	setenv("XDG_CONFIG_HOME", dir, 1);
	setenv("TETHER_OSC52", env, 1);
	char *argv[] = { "tether", "list", NULL };
	struct options o;
	struct buf err;
	buf_init(&err);
	assert_int_equal(options_parse(2, argv, &o, &err), 0);
	bool on = o.osc52;
	options_fini(&o);
	buf_fini(&err);
	unlink(path);
	snprintf(path, sizeof path, "%s/tether", dir);
	rmdir(path);
	rmdir(dir);
	unsetenv("TETHER_OSC52");
	unsetenv("XDG_CONFIG_HOME");
	return on;
}

static void man_page_osc52_as_the_code(void **state)
{
	(void)state;
	char *man = slurp(man_path, true);
	const struct option_spec *s = option_find("osc52", SPEC_CONFIG);
	assert_non_null(s);
	assert_int_equal(s->kind, SPEC_ONOFF);
	static const char *const words[] = { "on", "off", "yes", "no", "true", "false" };
	struct options o = {0};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		struct buf err;
		buf_init(&err);
		assert_int_equal(option_set(s, words[i], true, "osc52", &o, &err), 0);
		assert_int_equal(o.osc52, i % 2 == 0);
		buf_fini(&err);
		char said[32];
		snprintf(said, sizeof said, "\n.BR %s / %s", words[i & ~1u], words[i | 1u]);
		if (i % 2 == 0 && !strstr(man, said) && !strstr(man, said + 4))
			fail_msg("tether.1 does not give osc52 the values %s/%s", words[i],
				 words[i + 1]);
	}
	/* no --osc52: the man page says the file and the environment set it */
	assert_null(option_find("osc52", SPEC_CLI));
	const char *file = strstr(man, "\n.B osc52\n.RB ( on / off ,");
	assert_non_null(file);
	assert_non_null(strstr(file, "has no command-line option"));
	/* TETHER_OSC52=1 turns it on over the file's off; another value off over its on */
	assert_true(osc52_with("osc52 = off", "1"));
	assert_false(osc52_with("osc52 = on", "0"));
	assert_false(osc52_with("osc52 = on", "yes"));
	const char *env = strstr(man, "\n.B TETHER_OSC52\n.B 1\nlets");
	assert_non_null(env);
	const char *end = strstr(env + 1, "\n.TP");
	assert_non_null(end);
	const char *other = strstr(env, "any other value that is not empty keeps them off");
	assert_true(other && other < end);
	free(man);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s README.md tether.1\n", argv[0]);
		return 2;
	}
	readme_path = argv[1];
	man_path = argv[2];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(readme_lists_everything),
		cmocka_unit_test(readme_lists_every_row),
		cmocka_unit_test(man_page_lists_everything),
		cmocka_unit_test(man_page_osc52_as_the_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
