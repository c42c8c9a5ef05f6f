/* diff_text: two texts as a unified diff — lines compared by hash then bytes, hunks with a
 * few lines of context, line numbers when the caller knows where the texts start. */
#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct line {
	const char *s;
	size_t n;
	uint64_t hash;
};

struct lines {
	struct line *v;
	size_t n;
};

/* Splits s, which holds newlines line breaks, into lines; a final line break ends the last
 * line rather than starting one. */
static void split(const char *s, size_t len, size_t newlines, struct lines *out)
{
	size_t n = len ? newlines + (s[len - 1] != '\n') : 0;
	out->v = xmalloc((n ? n : 1) * sizeof *out->v);
	out->n = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(s + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - s) : len;
		uint64_t h = 0xcbf29ce484222325ULL;
		for (size_t i = pos; i < end; i++)
			h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
		out->v[out->n++] = (struct line){ .s = s + pos, .n = end - pos, .hash = h };
		pos = end + 1;
	}
}

struct pair {
	const struct lines *a, *b;
};

static bool line_eq(void *ctx, size_t i, size_t j)
{
	const struct pair *p = ctx;
	const struct line *x = &p->a->v[i], *y = &p->b->v[j];
	return x->hash == y->hash && x->n == y->n && memcmp(x->s, y->s, x->n) == 0;
}

/* "3,2", "3" for one line, "2,0" for none after line 2, "?,2" when not known. */
static void put_range(struct buf *out, size_t first, size_t at, size_t count)
{
	if (!first) {
		buf_printf(out, "?,%zu", count);
		return;
	}
	size_t start = first + at;
	if (count == 0)
		buf_printf(out, "%zu,0", start - 1);
	else if (count == 1)
		buf_printf(out, "%zu", start);
	else
		buf_printf(out, "%zu,%zu", start, count);
}

static void put_line(struct buf *out, char mark, const struct line *l)
{
	buf_putc(out, mark);
	buf_append(out, l->s, l->n);
	buf_putc(out, '\n');
}

/* One hunk: ops[from..to). */
static void put_hunk(struct buf *out, const struct diff_script *s, size_t from, size_t to,
		     const struct lines *a, const struct lines *b, const struct diff_unified_opts *o)
{
	size_t na = 0, nb = 0;
	for (size_t i = from; i < to; i++) {
		na += s->ops[i].op != DIFF_ADD;
		nb += s->ops[i].op != DIFF_DEL;
	}
	buf_puts(out, "@@ -");
	put_range(out, o->old_first, s->ops[from].a, na);
	buf_puts(out, " +");
	put_range(out, o->new_first, s->ops[from].b, nb);
	buf_puts(out, " @@\n");
	for (size_t i = from; i < to; i++) {
		const struct diff_edit *e = &s->ops[i];
		if (e->op == DIFF_SAME)
			put_line(out, ' ', &a->v[e->a]);
		else if (e->op == DIFF_DEL)
			put_line(out, '-', &a->v[e->a]);
		else
			put_line(out, '+', &b->v[e->b]);
	}
}

/* Hunks: each change with context lines around it; changes closer than twice the context
 * share a hunk. */
static void put_hunks(struct buf *out, const struct diff_script *s, const struct lines *a,
		      const struct lines *b, const struct diff_unified_opts *o)
{
	size_t i = 0;
	while (i < s->n) {
		while (i < s->n && s->ops[i].op == DIFF_SAME)
			i++;
		if (i == s->n)
			return;
		size_t from = i > o->context ? i - o->context : 0;
		size_t end = i, same = 0;
		for (size_t j = i; j < s->n; j++) {
			if (s->ops[j].op != DIFF_SAME) {
				end = j + 1;
				same = 0;
			} else if (++same > 2 * o->context) {
				break;
			}
		}
		size_t to = end + o->context < s->n ? end + o->context : s->n;
		put_hunk(out, s, from, to, a, b, o);
		i = to;
	}
}

bool diff_unified(struct buf *out, const char *a, size_t an, const char *b, size_t bn,
		  const struct diff_unified_opts *o)
{
	if (an > DIFF_MAX_BYTES || bn > DIFF_MAX_BYTES)
		return false;
	size_t a_newlines = count_newlines(a, an), b_newlines = count_newlines(b, bn);
	if (a_newlines >= DIFF_MAX_LINES || b_newlines >= DIFF_MAX_LINES)
		return false;
	struct lines la, lb;
	split(a, an, a_newlines, &la);
	split(b, bn, b_newlines, &lb);
	struct pair p = { &la, &lb };
	struct diff_script s = { 0 };
	diff_run(&s, la.n, lb.n, line_eq, &p, DIFF_MAX_COST);
	if (o->old_path)
		buf_printf(out, "--- %s\n", o->old_path);
	if (o->new_path)
		buf_printf(out, "+++ %s\n", o->new_path);
	put_hunks(out, &s, &la, &lb, o);
	diff_script_fini(&s);
	free(la.v);
	free(lb.v);
	return true;
}

bool diff_block_opens(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == '`' || s[i] == '~'))
		i++;
	return i >= 3 && n - i >= 4 && memcmp(s + i, "diff", 4) == 0 &&
	       (n - i == 4 || s[i + 4] == '\n' || s[i + 4] == ' ');
}
