/* highlight_diff: a unified diff's lines — file headers, hunk lines, removed and added lines
 * — and inside an added line paired with a removed one (the n-th of a run of "+" lines with
 * the n-th of the "-" run right before), the words it changed. The pair is found in the
 * source before the line, so each line is still laid out alone, once. */
#include "layout_int.h"

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

static bool marked(struct text_line l, char c)
{
	return l.n && l.s[0] == c && !(l.n >= 3 && l.s[1] == c && l.s[2] == c && l.n >= 4 &&
				       l.s[3] == ' ');
}

/* The line paired with the "+" line s[0..n) at off: the "-" line as far into the run of "-"
 * lines right before its run of "+" lines. Only lines before it decide, so a line laid out
 * while a diff streams in is never changed by what comes after it. */
static bool find_pair(const char *src, size_t off, size_t n, struct text_line *out)
{
	struct text_line first = { src + off, n };
	size_t place = 0;
	while (first.s > src && place < PAIR_SCAN_LINES) {
		struct text_line prev = line_before(src, (size_t)(first.s - src));
		if (!marked(prev, '+'))
			break;
		place++;
		first = prev;
	}
	if (first.s == src)
		return false;
	struct text_line runv[PAIR_SCAN_LINES];
	size_t run = 0;
	struct text_line l = line_before(src, (size_t)(first.s - src));
	while (marked(l, '-') && run < PAIR_SCAN_LINES) {
		runv[run++] = l;
		if (l.s == src)
			break;
		l = line_before(src, (size_t)(l.s - src));
	}
	if (place >= run || (run == PAIR_SCAN_LINES && marked(l, '-')))
		return false;
	*out = runv[run - 1 - place];
	return true;
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
		bool word = code_word_byte(s[i]);
		size_t j = i + 1;
		while (j < n && (word ? code_word_byte(s[j]) : (c == ' ' && s[j] == ' ')))
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

static size_t nonblank(const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] != ' ' && s[i] != '\t';
	return k;
}

/* The added line's text after its mark with the words not in the removed line set apart;
 * false (nothing put) when the lines are too long or keep too little of each other. */
static bool put_words(struct line_buf *lb, const char *s, size_t n, struct text_line removed,
		      uint16_t base)
{
	struct words a, b;
	if (!split_words(removed.s + 1, removed.n - 1, &a) || !split_words(s, n, &b))
		return false;
	struct word_pair p = { &a, &b };
	struct diff_script sc = { 0 };
	diff_run(&sc, a.n, b.n, word_eq, &p, WORDS_COST);
	size_t same = 0;
	for (size_t i = 0; i < sc.n; i++)
		if (sc.ops[i].op == DIFF_SAME)
			same += nonblank(s + b.start[sc.ops[i].b], b.start[sc.ops[i].b + 1] -
								 b.start[sc.ops[i].b]);
	/* a line that keeps less than half of its words is a new line, not an edit */
	if (same * 2 < nonblank(s, n)) {
		diff_script_fini(&sc);
		return false;
	}
	for (size_t i = 0; i < sc.n; i++) {
		const struct diff_edit *e = &sc.ops[i];
		if (e->op == DIFF_DEL)
			continue;
		enum token t = e->op == DIFF_SAME ? TOKEN_DIFF_ADD : TOKEN_DIFF_ADD_WORD;
		line_buf_put(lb, s + b.start[e->b], b.start[e->b + 1] - b.start[e->b],
			     (uint16_t)(base | STYLE_TOKEN(t)));
	}
	diff_script_fini(&sc);
	return true;
}

void highlight_diff_line(struct line_buf *lb, const char *src, size_t off, size_t n, uint16_t base)
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
	struct text_line removed;
	if (t == TOKEN_DIFF_ADD && n > 1 && find_pair(src, off, n, &removed) &&
	    put_words(lb, s + 1, n - 1, removed, base))
		return;
	line_buf_put(lb, s + 1, n - 1, (uint16_t)(base | STYLE_TOKEN(t)));
}
