/* keys_help: the keys overlay's text, made from the very tables that dispatch the keys and
 * run the slash commands (bindings_contexts), so it lists every key and command the code has
 * and cannot go stale. Keys of one context that do the same thing share a line ("PgUp,
 * Shift-PgUp"); a row's command stands beside its key ("F5  /reconnect"). */
#include "conv.h"
#include "bindings.h"

#include <stdlib.h>
#include <string.h>

enum { KEYS_COLUMN_MAX = 32 };

/* One line of the list: the keys, then the command, and what they do. */
struct entry {
	struct buf keys;
	struct buf command;
	const char *help;
};

struct entries {
	struct entry *e;
	size_t n, cap;
};

static struct entry *entry_add(struct entries *l, const char *help)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		l->e = xrealloc(l->e, l->cap * sizeof *l->e);
	}
	struct entry *e = &l->e[l->n++];
	buf_init(&e->keys);
	buf_init(&e->command);
	e->help = help;
	return e;
}

static void entries_clear(struct entries *l)
{
	for (size_t i = 0; i < l->n; i++) {
		buf_fini(&l->e[i].keys);
		buf_fini(&l->e[i].command);
	}
	l->n = 0;
}

/* Whether name is already one of the comma-separated keys. */
static bool listed(const struct buf *keys, const char *name)
{
	const char *s = keys->data ? keys->data : "";
	size_t n = strlen(name);
	for (const char *p = s; (p = strstr(p, name)) != NULL; p++)
		if ((p == s || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* The context's rows, those with one help text on one line, in the order of their first. */
static void context_entries(const struct bindings_context *c, struct entries *out)
{
	for (size_t t = 0; t < c->ntables; t++) {
		for (size_t r = 0; r < c->count[t]; r++) {
			const struct binding *b = &c->rows[t][r];
			const char *help = b->help ? b->help : "";
			struct entry *e = NULL;
			for (size_t i = 0; i < out->n && !e; i++)
				if (!strcmp(out->e[i].help, help))
					e = &out->e[i];
			if (!e)
				e = entry_add(out, help);
			if (b->command && !e->command.len)
				buf_printf(&e->command, "/%s%s%s", b->command,
					   b->args && *b->args ? " " : "", b->args ? b->args : "");
			if (b->kind == KEYS_NONE)
				continue;
			struct buf name;
			buf_init(&name);
			keys_describe(b->kind, b->mods, b->cp, &name);
			if (!listed(&e->keys, buf_cstr(&name))) {
				if (e->keys.len)
					buf_puts(&e->keys, ", ");
				buf_append(&e->keys, name.data, name.len);
			}
			buf_fini(&name);
		}
	}
}

static void pad(struct buf *out, int n)
{
	while (n-- > 0)
		buf_putc(out, ' ');
}

/* Appends words wrapped to width, each line after the first indented by indent. */
static void wrap_words(struct buf *out, const char *s, int first_col, int indent, int width)
{
	int col = first_col;
	bool first = true;
	while (*s) {
		size_t n = strcspn(s, " ");
		int w = text_width(s, n);
		if (!first && col + 1 + w > width) {
			buf_putc(out, '\n');
			pad(out, indent);
			col = indent;
		} else if (!first) {
			buf_putc(out, ' ');
			col++;
		}
		buf_append(out, s, n);
		col += w;
		first = false;
		s += n;
		while (*s == ' ')
			s++;
	}
	buf_putc(out, '\n');
}

/* A heading, then "  KEYS  help" lines: the help beside the keys when both fit, under
 * them otherwise. */
static void put_section(struct buf *out, const char *heading, const struct entries *l, int width)
{
	struct buf *cols = xmalloc((l->n ? l->n : 1) * sizeof *cols);
	int column = 0;
	for (size_t i = 0; i < l->n; i++) {
		buf_init(&cols[i]);
		buf_append(&cols[i], l->e[i].keys.data, l->e[i].keys.len);
		if (l->e[i].keys.len && l->e[i].command.len)
			buf_puts(&cols[i], "  ");
		buf_append(&cols[i], l->e[i].command.data, l->e[i].command.len);
		int w = text_width(buf_cstr(&cols[i]), cols[i].len);
		if (w > column)
			column = w;
	}
	if (column > KEYS_COLUMN_MAX)
		column = KEYS_COLUMN_MAX;
	if (column > width / 2)
		column = width / 2;
	buf_putc(out, '\n');
	buf_puts(out, heading);
	buf_putc(out, '\n');
	for (size_t i = 0; i < l->n; i++) {
		const struct entry *e = &l->e[i];
		int w = text_width(buf_cstr(&cols[i]), cols[i].len);
		buf_puts(out, "  ");
		if (2 + w <= width) {
			buf_append(out, cols[i].data, cols[i].len);
			buf_putc(out, '\n');
		} else {
			/* a long list of keys wraps */
			wrap_words(out, buf_cstr(&cols[i]), 2, 4, width);
		}
		if (w <= column && width >= 60) {
			out->len--; /* the keys fit the column: the help goes beside them */
			pad(out, column - w + 2);
			wrap_words(out, e->help, 4 + column, 4 + column, width);
		} else {
			pad(out, 4);
			wrap_words(out, e->help, 4, 4, width);
		}
		buf_fini(&cols[i]);
	}
	free(cols);
}

void overlay_text(int width, struct buf *out)
{
	if (width < 10)
		width = 10;
	struct bindings_context contexts[BINDINGS_CONTEXTS_MAX];
	size_t n = bindings_contexts(contexts, BINDINGS_CONTEXTS_MAX);
	struct entries l = { 0 };
	for (size_t i = 0; i < n; i++) {
		context_entries(&contexts[i], &l);
		put_section(out, contexts[i].name, &l, width);
		entries_clear(&l);
	}
	free(l.e);
}
