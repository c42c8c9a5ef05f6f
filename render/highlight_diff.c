/* highlight_diff: a unified diff's lines — file headers, hunk lines, removed and added lines
 * — and inside a removed line paired with an added one (the n-th of a run of "-" lines with
 * the n-th of the "+" run after it), the words that changed. The pair is found in the source
 * around the line, so each line is still laid out alone. */
#include "layout_int.h"

#include <stdint.h>
#include <string.h>

/* Lines looked at around a line for its pair, tokens compared within one, and edits allowed
 * between two lines: beyond them a line shows without word highlights. */
enum { PAIR_SCAN_LINES = 64, WORDS_MAX = 256, WORDS_COST = 64 };

struct text_line {
	const char *s;
	size_t n;
};

/* The line before the one starting at off (which must not be the first). */
static struct text_line line_before(const char *src, size_t off)
{
	size_t end = off - 1, start = end;
	while (start > 0 && src[start - 1] != '\n')
		start--;
	return (struct text_line){ src + start, end - start };
}

/* The line after the one at off..off+n, if any. */
static bool line_after(const char *src, size_t len, size_t off, size_t n, struct text_line *out)
{
	size_t start = off + n + 1;
	if (off + n >= len || start > len)
		return false;
	const char *nl = memchr(src + start, '\n', len - start);
	*out = (struct text_line){ src + start, nl ? (size_t)(nl - src) - start : len - start };
	return true;
}

static bool marked(struct text_line l, char c)
{
	return l.n && l.s[0] == c && !(l.n >= 3 && l.s[1] == c && l.s[2] == c && l.n >= 4 &&
				       l.s[3] == ' ');
}

/* Lines of the run of lines marked c from l on (l included), at most PAIR_SCAN_LINES; *nth
 * gets the run's line want (0 first). */
static size_t run_forward(const char *src, size_t len, struct text_line l, char c,
			  struct text_line *nth, size_t want)
{
	size_t k = 0;
	while (k < PAIR_SCAN_LINES && marked(l, c)) {
		if (k == want)
			*nth = l;
		k++;
		if (!line_after(src, len, (size_t)(l.s - src), l.n, &l))
			break;
	}
	return k;
}

/* The line paired with s[0..n) at off, when a run of "-" lines is followed by a run of as
 * many "+" lines (as git's diff-highlight, a replacement line for line): the line as far
 * into the other run. */
static bool find_pair(const char *src, size_t len, size_t off, size_t n, struct text_line *out)
{
	char mark = src[off];
	struct text_line first = { src + off, n }, unused;
	size_t place = 0;
	while (first.s > src && place < PAIR_SCAN_LINES) {
		struct text_line prev = line_before(src, (size_t)(first.s - src));
		if (!marked(prev, mark))
			break;
		place++;
		first = prev;
	}
	struct text_line dels = first, adds;
	if (mark == '+') {
		/* the "-" run right before this "+" run */
		if (first.s == src)
			return false;
		dels = line_before(src, (size_t)(first.s - src));
		size_t k = 0;
		while (k < PAIR_SCAN_LINES && marked(dels, '-') && dels.s > src) {
			struct text_line prev = line_before(src, (size_t)(dels.s - src));
			if (!marked(prev, '-'))
				break;
			dels = prev;
			k++;
		}
		if (!marked(dels, '-'))
			return false;
	}
	size_t ndel = run_forward(src, len, dels, '-', mark == '+' ? out : &unused,
				  mark == '+' ? place : SIZE_MAX);
	/* the first line after the "-" run starts the "+" run */
	struct text_line l = dels;
	for (size_t k = 0; k < ndel; k++)
		if (!line_after(src, len, (size_t)(l.s - src), l.n, &l))
			return false;
	adds = l;
	size_t nadd = run_forward(src, len, adds, '+', mark == '-' ? out : &unused,
				  mark == '-' ? place : SIZE_MAX);
	return ndel == nadd && place < ndel && ndel < PAIR_SCAN_LINES;
}

struct words {
	uint32_t start[WORDS_MAX + 1];
	size_t n;
	const char *s;
};

/* Splits a line into words, runs of blanks and single other characters. */
static bool split_words(const char *s, size_t n, struct words *w)
{
	w->s = s;
	w->n = 0;
	for (size_t i = 0; i < n;) {
		if (w->n == WORDS_MAX)
			return false;
		w->start[w->n++] = (uint32_t)i;
		unsigned char c = (unsigned char)s[i];
		bool word = c == '_' || c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
		size_t j = i + 1;
		while (j < n && (word ? (s[j] == '_' || (unsigned char)s[j] >= 0x80 ||
					(s[j] >= '0' && s[j] <= '9') ||
					((s[j] | 0x20) >= 'a' && (s[j] | 0x20) <= 'z'))
				      : (c == ' ' && s[j] == ' ')))
			j++;
		i = j;
	}
	w->start[w->n] = (uint32_t)n;
	return true;
}

struct word_pair {
	const struct words *a, *b;
};

static bool word_eq(void *ctx, size_t i, size_t j)
{
	const struct word_pair *p = ctx;
	size_t na = p->a->start[i + 1] - p->a->start[i], nb = p->b->start[j + 1] - p->b->start[j];
	return na == nb && memcmp(p->a->s + p->a->start[i], p->b->s + p->b->start[j], na) == 0;
}

/* The line's text after its mark with the words not in other highlighted; false (nothing
 * put) when the lines are too long or share too little to be worth it. */
static bool put_words(struct line_buf *lb, const char *s, size_t n, struct text_line other,
		      uint16_t base, enum token line, enum token word)
{
	struct words a, b;
	if (!split_words(s, n, &a) || !split_words(other.s + 1, other.n - 1, &b))
		return false;
	bool del = line == TOKEN_DIFF_DEL;
	struct word_pair p = { del ? &a : &b, del ? &b : &a };
	struct diff_script sc = { 0 };
	diff_run(&sc, p.a->n, p.b->n, word_eq, &p, WORDS_COST);
	size_t same = 0;
	for (size_t i = 0; i < sc.n; i++)
		if (sc.ops[i].op == DIFF_SAME)
			same += a.start[(del ? sc.ops[i].a : sc.ops[i].b) + 1] -
				a.start[del ? sc.ops[i].a : sc.ops[i].b];
	/* a line that keeps less than a third is a new line, not an edit of the other */
	if (same * 3 < n) {
		diff_script_fini(&sc);
		return false;
	}
	enum diff_op mine = del ? DIFF_DEL : DIFF_ADD;
	for (size_t i = 0; i < sc.n; i++) {
		const struct diff_edit *e = &sc.ops[i];
		if (e->op != DIFF_SAME && e->op != mine)
			continue;
		size_t k = del ? e->a : e->b;
		line_buf_put(lb, s + a.start[k], a.start[k + 1] - a.start[k],
			     (uint16_t)(base | STYLE_TOKEN(e->op == DIFF_SAME ? line : word)));
	}
	diff_script_fini(&sc);
	return true;
}

void highlight_diff_line(struct line_buf *lb, const char *src, size_t len, size_t off, size_t n,
			 uint16_t base)
{
	const char *s = src + off;
	enum token t = TOKEN_NONE;
	if (n >= 4 && (memcmp(s, "--- ", 4) == 0 || memcmp(s, "+++ ", 4) == 0))
		t = TOKEN_DIFF_FILE;
	else if (n >= 2 && s[0] == '@' && s[1] == '@')
		t = TOKEN_DIFF_HUNK;
	else if (n && s[0] == '-')
		t = TOKEN_DIFF_DEL;
	else if (n && s[0] == '+')
		t = TOKEN_DIFF_ADD;
	if (t != TOKEN_DIFF_DEL && t != TOKEN_DIFF_ADD) {
		line_buf_put(lb, s, n, (uint16_t)(base | STYLE_TOKEN(t)));
		return;
	}
	line_buf_put(lb, s, 1, (uint16_t)(base | STYLE_TOKEN(t)));
	struct text_line other;
	if (n > 1 && find_pair(src, len, off, n, &other) &&
	    put_words(lb, s + 1, n - 1, other, base, t,
		      t == TOKEN_DIFF_DEL ? TOKEN_DIFF_DEL_WORD : TOKEN_DIFF_ADD_WORD))
		return;
	line_buf_put(lb, s + 1, n - 1, (uint16_t)(base | STYLE_TOKEN(t)));
}
