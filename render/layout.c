/* Layout: the source, line by line, into rows. Here: the incremental bookkeeping and block
 * markdown (fences, headings, lists, quotes, rules); markdown.c does inline markup and
 * wrap.c the wrapping.
 *
 * A '\n' ends a line, so "a\n" is one row and "a\n\nb" three. A line with its '\n' is laid
 * out for good: its rows depend only on its text and on whether a code fence is open,
 * which is all that carries from one line to the next. */
#include "layout_int.h"

#include <stdlib.h>
#include <string.h>

/* md state of a line start: 0 outside a fence, else which fence is open. */
#define FENCE_OPEN 1
#define FENCE_TILDE 2
#define FENCE_LEN_SHIFT 2
#define FENCE_INDENT_SHIFT 10
#define FENCE_FIELD 0xFF

#define CODE_INDENT 2
#define QUOTE_MAX 4
#define NEST_MAX 32
#define ORDINAL_DIGITS 9
/* PAD must cover NEST_MAX + ORDINAL_DIGITS + 2 */

static const char BAR[] = "\xe2\x94\x82 ";      /* "│ " */
static const char BULLET[] = "\xe2\x80\xa2 ";   /* "• " */
static const char RULE[] = "\xe2\x94\x80";      /* "─" */
static const char PAD[] = "                                                ";

void layout_init(struct layout *l)
{
	memset(l, 0, sizeof(*l));
	buf_init(&l->text);
}

void layout_fini(struct layout *l)
{
	buf_fini(&l->text);
	free(l->spans);
	free(l->rows);
	layout_init(l);
}

void layout_reset(struct layout *l)
{
	buf_clear(&l->text);
	l->nspans = 0;
	l->nrows = 0;
	l->width = 0;
	l->flags = 0;
	l->settled_src = 0;
	l->settled_text = 0;
	l->settled_spans = 0;
	l->settled_rows = 0;
	l->settled_md_state = 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static size_t skip_blanks(const char *s, size_t i, size_t n)
{
	while (i < n && is_blank(s[i]))
		i++;
	return i;
}

static size_t run_of(const char *s, size_t i, size_t n, char c)
{
	size_t j = i;
	while (j < n && s[j] == c)
		j++;
	return j - i;
}

static void shape_add(struct row_shape *sh, int kind, const char *s, size_t len, uint16_t style)
{
	sh->piece[kind][sh->npieces[kind]++] = (struct prefix_piece){ .s = s, .len = (uint16_t)len,
								      .style = style };
}

static void shape_code(struct row_shape *sh, uint16_t empty_style)
{
	sh->indent[0] = sh->indent[1] = CODE_INDENT;
	sh->empty_style = empty_style;
}

/* A line opening a code fence (``` or ~~~, any indent, any info string): true, and the
 * label row (the info string, or an empty code row) is laid out. */
static bool lay_fence_open(struct layout *l, struct line_buf *lb, const char *s, size_t n, int *md)
{
	size_t i = skip_blanks(s, 0, n);
	if (i == n || (s[i] != '`' && s[i] != '~'))
		return false;
	size_t k = run_of(s, i, n, s[i]);
	if (k < 3)
		return false;
	size_t a = skip_blanks(s, i + k, n), b = n;
	while (b > a && is_blank(s[b - 1]))
		b--;
	*md = FENCE_OPEN | (s[i] == '~' ? FENCE_TILDE : 0) |
	      (int)(k < FENCE_FIELD ? k : FENCE_FIELD) << FENCE_LEN_SHIFT |
	      (int)(i < FENCE_FIELD ? i : FENCE_FIELD) << FENCE_INDENT_SHIFT;
	struct row_shape sh = { 0 };
	shape_code(&sh, STYLE_DIM | STYLE_CODEBLOCK);
	line_buf_put(lb, s + a, b - a, STYLE_DIM | STYLE_CODEBLOCK);
	wrap_line(l, lb, &sh);
	return true;
}

/* A line inside a fence: the closing fence (dropped), or code. */
static void lay_code(struct layout *l, struct line_buf *lb, const char *s, size_t n, bool growing,
		     int *md)
{
	char fc = (*md & FENCE_TILDE) ? '~' : '`';
	size_t need = (size_t)(*md >> FENCE_LEN_SHIFT) & FENCE_FIELD;
	size_t indent = (size_t)(*md >> FENCE_INDENT_SHIFT) & FENCE_FIELD;
	size_t i = skip_blanks(s, 0, n);
	size_t k = run_of(s, i, n, fc);
	if (k >= need && skip_blanks(s, i + k, n) == n) {
		*md = 0;
		return;
	}
	/* what may still become the closing fence is not shown while it grows */
	if (growing && k > 0 && i + k == n)
		return;
	size_t j = 0;
	while (j < n && j < indent && s[j] == ' ')
		j++;
	struct row_shape sh = { 0 };
	shape_code(&sh, STYLE_CODEBLOCK);
	line_buf_put(lb, s + j, n - j, STYLE_CODEBLOCK);
	wrap_line(l, lb, &sh);
}

/* "---", "***", "_ _ _": three or more of one character and blanks; *only_marks tells
 * whether the line has nothing but such characters (a growing line may become a rule). */
static bool is_rule(const char *s, size_t i, size_t n, bool *only_marks)
{
	char c = s[i];
	size_t count = 0;
	*only_marks = false;
	if (c != '-' && c != '*' && c != '_')
		return false;
	for (; i < n; i++) {
		if (s[i] == c)
			count++;
		else if (!is_blank(s[i]))
			return false;
	}
	*only_marks = true;
	return count >= 3;
}

/* Whether a growing line's start may still turn into a block marker ("#", "-", "12.",
 * "~~", "--"), so that it is better not shown yet. */
static bool is_pending_marker(const char *s, size_t j, size_t n)
{
	bool only_marks;
	if (j == n)
		return false;
	if (s[j] == '#' || s[j] == '~')
		return run_of(s, j, n, s[j]) == n - j;
	if (is_rule(s, j, n, &only_marks) || only_marks)
		return true;
	size_t d = j;
	while (d < n && s[d] >= '0' && s[d] <= '9')
		d++;
	return d > j && (d == n || (d + 1 == n && (s[d] == '.' || s[d] == ')')));
}

static void lay_rule(struct layout *l, struct line_buf *lb, struct row_shape *sh)
{
	int cols = l->width - sh->indent[0];
	for (int i = 0; i < sh->npieces[0]; i++)
		cols -= text_width(sh->piece[0][i].s, sh->piece[0][i].len);
	for (int i = 0; i < cols; i++)
		line_buf_put(lb, RULE, sizeof(RULE) - 1, STYLE_DIM);
	wrap_line(l, lb, sh);
}

/* "- ", "* ", "+ " or "12. ", "3) " at s[j]: the marker's length (with its blank), or 0. */
static size_t list_marker(const char *s, size_t j, size_t n, bool *ordered)
{
	*ordered = false;
	if (j + 1 < n && (s[j] == '-' || s[j] == '*' || s[j] == '+') && is_blank(s[j + 1]))
		return 2;
	size_t d = j;
	while (d < n && d - j < ORDINAL_DIGITS && s[d] >= '0' && s[d] <= '9')
		d++;
	if (d == j || d + 1 >= n || (s[d] != '.' && s[d] != ')') || !is_blank(s[d + 1]))
		return 0;
	*ordered = true;
	return d + 2 - j;
}

/* A list item: bullet or number, continuation rows hang under its text. */
static void lay_item(struct layout *l, struct line_buf *lb, struct row_shape *sh, const char *s,
		     size_t n, size_t j, int nest, bool growing, uint16_t base)
{
	bool ordered;
	size_t mlen = list_marker(s, j, n, &ordered);
	int markw = ordered ? (int)mlen : 2;
	bool quoted = sh->npieces[0] > 0;
	if (quoted) {
		shape_add(sh, 0, PAD, (size_t)nest, base);
		shape_add(sh, 1, PAD, (size_t)(nest + markw), base);
	} else {
		sh->indent[0] = (uint16_t)nest;
		sh->indent[1] = (uint16_t)(nest + markw);
	}
	if (ordered) {
		shape_add(sh, 0, s + j, mlen - 1, base);
		shape_add(sh, 0, PAD, 1, base);
	} else {
		shape_add(sh, 0, BULLET, sizeof(BULLET) - 1, base);
	}
	size_t c = skip_blanks(s, j + mlen, n);
	markdown_inline(lb, s + c, n - c, base, growing);
	wrap_line(l, lb, sh);
}

/* A line outside code: quotes, then a heading, list item, rule or paragraph. */
static void lay_block(struct layout *l, struct line_buf *lb, const char *s, size_t n, bool growing)
{
	struct row_shape sh = { 0 };
	uint16_t base = STYLE_PLAIN;
	size_t i = 0;
	for (int depth = 0; depth < QUOTE_MAX; depth++) {
		size_t j = i;
		while (j < n && j - i < 3 && s[j] == ' ')
			j++;
		if (j == n || s[j] != '>')
			break;
		i = j + 1 < n && s[j + 1] == ' ' ? j + 2 : j + 1;
		base = STYLE_QUOTE;
		shape_add(&sh, 0, BAR, sizeof(BAR) - 1, STYLE_QUOTE);
		shape_add(&sh, 1, BAR, sizeof(BAR) - 1, STYLE_QUOTE);
	}
	size_t j = i;
	int nest = 0;
	for (; j < n && is_blank(s[j]); j++)
		nest += s[j] == '\t' ? LAYOUT_TAB : 1;
	nest = nest < NEST_MAX ? nest : NEST_MAX;
	bool only_marks, ordered;
	if (growing && is_pending_marker(s, j, n)) {
		wrap_line(l, lb, &sh);
		return;
	}
	size_t hashes = run_of(s, j, n, '#');
	if (nest <= 3 && hashes >= 1 && hashes <= 6 && (j + hashes == n || is_blank(s[j + hashes]))) {
		size_t c = skip_blanks(s, j + hashes, n);
		markdown_inline(lb, s + c, n - c, base | STYLE_HEADING | STYLE_BOLD, growing);
		wrap_line(l, lb, &sh);
	} else if (j < n && is_rule(s, j, n, &only_marks)) {
		lay_rule(l, lb, &sh);
	} else if (list_marker(s, j, n, &ordered) > 0) {
		lay_item(l, lb, &sh, s, n, j, nest, growing, base);
	} else {
		markdown_inline(lb, s + i, n - i, base, growing);
		wrap_line(l, lb, &sh);
	}
}

static void lay_line(struct layout *l, struct line_buf *lb, const char *s, size_t n, bool growing,
		     int *md)
{
	line_buf_clear(lb);
	if (!(l->flags & LAYOUT_MARKDOWN)) {
		struct row_shape sh = { 0 };
		line_buf_put(lb, s, n, STYLE_PLAIN);
		wrap_line(l, lb, &sh);
	} else if (*md) {
		lay_code(l, lb, s, n, growing, md);
	} else if (!lay_fence_open(l, lb, s, n, md)) {
		lay_block(l, lb, s, n, growing);
	}
}

static void settle(struct layout *l, size_t src, int md)
{
	l->settled_src = src;
	l->settled_text = l->text.len;
	l->settled_spans = l->nspans;
	l->settled_rows = l->nrows;
	l->settled_md_state = md;
}

void layout_update(struct layout *l, const char *src, size_t len, int width, unsigned flags)
{
	width = width < 1 ? 1 : width > UINT16_MAX ? UINT16_MAX : width;
	/* settled lines do not depend on LAYOUT_STREAMING: only the growing last line does */
	unsigned kept = ~(unsigned)LAYOUT_STREAMING;
	if (l->width != width || (l->flags & kept) != (flags & kept) || len < l->settled_src)
		layout_reset(l);
	l->width = width;
	l->flags = flags;
	l->text.len = l->settled_text;
	if (l->text.data)
		l->text.data[l->text.len] = '\0';
	l->nspans = l->settled_spans;
	l->nrows = l->settled_rows;
	int md = l->settled_md_state;
	struct line_buf lb;
	line_buf_init(&lb);
	size_t pos = l->settled_src;
	while (pos < len) {
		const char *nl = memchr(src + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - src) : len;
		lay_line(l, &lb, src + pos, end - pos, !nl && (flags & LAYOUT_STREAMING), &md);
		if (!nl)
			break;
		pos = end + 1;
		settle(l, pos, md);
	}
	line_buf_fini(&lb);
}
