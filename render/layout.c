/* Layout: the source, line by line, into rows. Here: the incremental bookkeeping and block
 * markdown (fences, headings, lists, quotes, rules, paragraphs, tables); markdown.c does
 * inline markup, table.c a table's columns and wrap.c the wrapping.
 *
 * A '\n' ends a line, so "a\n" is one row and "a\n\nb" three, except inside a block that
 * spans lines: a paragraph with LAYOUT_REFLOW (its soft breaks are spaces, so it reflows to
 * the width) and a pipe table (its columns need every row). Such a block stays open, laid
 * out again on each update, until a line ends it; everything before it is laid out for
 * good: its rows depend only on its text, on whether a code fence is open and on how many
 * links were numbered, which is all that carries from one block to the next.
 *
 * Streaming: what may still change meaning is not shown while it grows: the growing line's
 * possible block marker, a lone "| header |" line that may become a table, a table's
 * unfinished row. So rows only grow at the end; they never show raw and then turn. */
#include "layout_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* md state of a line start: 0 outside a fence, else which fence is open. */
#define FENCE_OPEN 1
#define FENCE_TILDE 2
#define FENCE_LEN_SHIFT 2
#define FENCE_INDENT_SHIFT 10
#define FENCE_FIELD 0xFF
#define FENCE_LANG_SHIFT 18
#define FENCE_LANG_FIELD 0xF
#define FENCE_HL_SHIFT 22
#define FENCE_HL_FIELD 0x7

#define CODE_INDENT 2
#define QUOTE_MAX 4
#define NEST_MAX 32
#define ORDINAL_DIGITS 9
/* PAD must cover NEST_MAX + ORDINAL_DIGITS + 2 */
/* An open paragraph this long is laid out for good at its next line end (a hard break):
 * what is laid out again while a stream grows stays bounded. */
#define BLOCK_MAX_BYTES 4096
/* A table ends at this many rows or bytes (what follows is laid out as text), and a header
 * of more columns is not a table: a stream's table costs little to lay out again. */
#define TABLE_MAX_ROWS 200
#define TABLE_MAX_BYTES (16 * BLOCK_MAX_BYTES)
#define TABLE_MAX_COLS 64

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
	l->settled_links = 0;
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

/* A line of an open block: its content src[a..b) (a paragraph's text, a table's row). */
struct block_line {
	size_t a, b;
	size_t end;         /* b before a hard break's marks were cut */
	bool hard;          /* a hard break follows: two blanks or a backslash ended it */
	bool hidden;        /* the growing last line, which may yet start another block */
};

enum block_kind { BLOCK_NONE, BLOCK_PARA, BLOCK_TABLE };

/* The open block: a paragraph (a list item's included) or a table. */
struct block {
	enum block_kind kind;
	struct row_shape shape;
	uint16_t base;
	int depth;                  /* quote depth */
	bool item;
	bool pipe_start;            /* its first line starts with '|': maybe a table's header */
	bool table_head;            /* its first line has a '|' and it may still become a table */
	size_t bytes;
	struct block_line *lines;
	size_t nlines, cap;
	int ncols;
	char *align;
};

/* One layout_update's walk. */
struct walk {
	struct layout *l;
	const char *src;
	struct line_buf lb;
	struct buf joined;          /* a paragraph's text, soft breaks as spaces */
	struct link_list links;
	struct block b;
	int md;
	bool reflow, streaming;
	bool line_done;             /* the line being laid out has its '\n' */
};

static void settle(struct walk *w, size_t src)
{
	struct layout *l = w->l;
	l->settled_src = src;
	l->settled_text = l->text.len;
	l->settled_spans = l->nspans;
	l->settled_rows = l->nrows;
	l->settled_md_state = w->md;
	l->settled_links = w->links.next;
}

/* A line opening a code fence (``` or ~~~, any indent): its length of marks, else 0. */
static size_t fence_marks(const char *s, size_t n)
{
	size_t i = skip_blanks(s, 0, n);
	if (i == n || (s[i] != '`' && s[i] != '~'))
		return 0;
	size_t k = run_of(s, i, n, s[i]);
	return k >= 3 ? k : 0;
}

/* Whether a line inside a fence of fc opened by need marks closes it: as many marks or more,
 * then only blanks. */
static bool fence_closes(const char *s, size_t n, char fc, size_t need)
{
	size_t i = skip_blanks(s, 0, n), k = run_of(s, i, n, fc);
	return k >= need && skip_blanks(s, i + k, n) == n;
}

size_t text_fenced_lines(const char *s, size_t n)
{
	size_t lines = 0, pos = 0, need = 0;
	char open = 0;
	while (pos < n) {
		const char *nl = memchr(s + pos, '\n', n - pos);
		size_t len = (nl ? (size_t)(nl - s) : n) - pos;
		const char *line = s + pos;
		size_t k = fence_marks(line, len);
		if (!open && k) {
			open = line[skip_blanks(line, 0, len)];
			need = k;
		} else if (open && fence_closes(line, len, open, need)) {
			open = 0;
		} else {
			lines++;
		}
		pos += len + 1;
	}
	return lines;
}

/* A code fence opens: the code block's top rule, labelled with the info string's first
 * word (the language), "── python ──────". */
static bool lay_fence_open(struct walk *w, const char *s, size_t n)
{
	size_t k = fence_marks(s, n);
	if (!k)
		return false;
	size_t i = skip_blanks(s, 0, n);
	size_t a = skip_blanks(s, i + k, n), b = a;
	while (b < n && !is_blank(s[b]))
		b++;
	w->md = FENCE_OPEN | (s[i] == '~' ? FENCE_TILDE : 0) |
		(int)(k < FENCE_FIELD ? k : FENCE_FIELD) << FENCE_LEN_SHIFT |
		(int)(i < FENCE_FIELD ? i : FENCE_FIELD) << FENCE_INDENT_SHIFT |
		(int)code_lang_named(s + a, b - a) << FENCE_LANG_SHIFT;
	struct layout *l = w->l;
	struct line_buf *lb = &w->lb;
	struct row_shape sh = { 0 };
	shape_code(&sh, STYLE_DIM);
	int cols = l->width - CODE_INDENT;
	if (b > a) {
		line_buf_put(lb, RULE, sizeof(RULE) - 1, STYLE_DIM);
		line_buf_put(lb, RULE, sizeof(RULE) - 1, STYLE_DIM);
		line_buf_put(lb, " ", 1, STYLE_DIM);
		line_buf_put(lb, s + a, b - a, STYLE_DIM);
		line_buf_put(lb, " ", 1, STYLE_DIM);
		cols -= 4 + text_width(s + a, b - a);
	}
	for (int c = 0; c < cols; c++)
		line_buf_put(lb, RULE, sizeof(RULE) - 1, STYLE_DIM);
	wrap_line(l, lb, &sh);
	return true;
}

/* A line inside a fence: the closing fence (dropped), or code, highlighted in the fence's
 * language. */
static void lay_code(struct walk *w, size_t off, size_t n, bool growing)
{
	struct layout *l = w->l;
	struct line_buf *lb = &w->lb;
	const char *s = w->src + off;
	int *md = &w->md;
	char fc = (*md & FENCE_TILDE) ? '~' : '`';
	size_t need = (size_t)(*md >> FENCE_LEN_SHIFT) & FENCE_FIELD;
	size_t indent = (size_t)(*md >> FENCE_INDENT_SHIFT) & FENCE_FIELD;
	if (fence_closes(s, n, fc, need)) {
		*md = 0;
		return;
	}
	size_t i = skip_blanks(s, 0, n);
	size_t k = run_of(s, i, n, fc);
	/* what may still become the closing fence is not shown while it grows */
	if (growing && k > 0 && i + k == n)
		return;
	size_t j = 0;
	while (j < n && j < indent && s[j] == ' ')
		j++;
	struct row_shape sh = { 0 };
	shape_code(&sh, STYLE_CODEBLOCK);
	enum code_lang lang = (enum code_lang)((*md >> FENCE_LANG_SHIFT) & FENCE_LANG_FIELD);
	unsigned hl = (unsigned)(*md >> FENCE_HL_SHIFT) & FENCE_HL_FIELD;
	if (lang == LANG_DIFF)
		highlight_diff_line(lb, w->src, off + j, n - j, STYLE_CODEBLOCK);
	else
		highlight_line(lb, lang, &hl, s + j, n - j, STYLE_CODEBLOCK);
	*md = (*md & ~(FENCE_HL_FIELD << FENCE_HL_SHIFT)) | (int)(hl & FENCE_HL_FIELD) << FENCE_HL_SHIFT;
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

/* The quote bars at the start of s: their depth, the shape's bars, and where the rest
 * starts. */
static int quotes(const char *s, size_t n, struct row_shape *sh, size_t *rest)
{
	size_t i = 0;
	int depth = 0;
	for (; depth < QUOTE_MAX; depth++) {
		size_t j = i;
		while (j < n && j - i < 3 && s[j] == ' ')
			j++;
		if (j == n || s[j] != '>')
			break;
		i = j + 1 < n && s[j + 1] == ' ' ? j + 2 : j + 1;
		if (sh) {
			shape_add(sh, 0, BAR, sizeof(BAR) - 1, STYLE_QUOTE);
			shape_add(sh, 1, BAR, sizeof(BAR) - 1, STYLE_QUOTE);
		}
	}
	*rest = i;
	return depth;
}

static bool is_heading(const char *s, size_t j, size_t n, int nest, size_t *hashes)
{
	*hashes = run_of(s, j, n, '#');
	return nest <= 3 && *hashes >= 1 && *hashes <= 6 && (j + *hashes == n || is_blank(s[j + *hashes]));
}

static void block_add(struct walk *w, size_t a, size_t b, bool growing, bool hidden)
{
	struct block *bl = &w->b;
	if (bl->nlines == bl->cap) {
		bl->cap = bl->cap ? bl->cap * 2 : 8;
		bl->lines = xrealloc(bl->lines, bl->cap * sizeof(*bl->lines));
	}
	bool hard = false;
	size_t end = b;
	const char *s = w->src;
	if (!growing && !hidden && bl->kind == BLOCK_PARA) {
		size_t e = b;
		while (e > a && is_blank(s[e - 1]))
			e--;
		if (b - e >= 2 && s[e - 1] != '\\') {
			hard = true;
			b = e;
		} else if (e > a && s[e - 1] == '\\' && (e - a < 2 || s[e - 2] != '\\')) {
			hard = true;
			b = e - 1;
		}
	}
	bl->lines[bl->nlines++] = (struct block_line){ .a = a, .b = b, .end = end, .hard = hard,
							.hidden = hidden };
	bl->bytes += b - a;
}

/* Lines of the block that show (a hidden one is only ever the last). */
static size_t shown_lines(const struct block *b)
{
	return b->nlines - (b->nlines > 0 && b->lines[b->nlines - 1].hidden);
}

/* Opens a block at the line starting at off: what is before it is laid out for good, when
 * that line is complete (an unfinished one may still end the block before differently). */
static void block_open(struct walk *w, enum block_kind kind, size_t off)
{
	if (w->line_done)
		settle(w, off);
	w->b.kind = kind;
	w->b.nlines = 0;
	w->b.bytes = 0;
}

/* Footnotes of the links the block numbered: "[1] https://…", dim, under the block. Any
 * control character left in a URL shows as U+FFFD: it passed the sanitizer, but a URL is
 * the one text a terminal might act on. */
static void lay_notes(struct walk *w, const struct row_shape *cont)
{
	struct line_buf *lb = &w->lb;
	for (size_t i = 0; i < w->links.n; i++) {
		const struct md_link *k = &w->links.v[i];
		char tag[16];
		int t = snprintf(tag, sizeof tag, "[%d] ", k->num);
		line_buf_clear(lb);
		line_buf_put(lb, tag, (size_t)t, STYLE_DIM);
		size_t p = 0;
		while (p < k->len) {
			uint32_t cp;
			size_t step = utf8_decode(k->url + p, k->len - p, &cp);
			bool bad = cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0xFFFD;
			if (bad)
				line_buf_put(lb, "\xef\xbf\xbd", 3, STYLE_DIM);
			else
				line_buf_put(lb, k->url + p, step, STYLE_DIM);
			p += step;
		}
		wrap_line(w->l, lb, cont);
	}
	w->links.n = 0;
}

/* Lays a paragraph out: its lines joined with spaces, a new row after each hard break. */
static void flush_para(struct walk *w, bool growing)
{
	struct block *b = &w->b;
	size_t shown = shown_lines(b);
	/* a lone "| a | b |" line may yet get its delimiter row: not shown while it grows */
	if (growing && w->streaming && b->pipe_start && shown == 1)
		return;
	struct row_shape cont = b->shape;
	cont.indent[0] = cont.indent[1];
	cont.npieces[0] = cont.npieces[1];
	memcpy(cont.piece[0], cont.piece[1], sizeof(cont.piece[1]));
	size_t *ends = xcalloc(shown + 1, sizeof *ends);
	size_t nseg = 0;
	buf_clear(&w->joined);
	for (size_t i = 0; i < shown; i++) {
		const struct block_line *ln = &b->lines[i];
		bool last = i + 1 == shown || ln->hard;
		/* a paragraph's last line breaks nothing: its "\\" is text, unless more may come */
		size_t e = i + 1 == shown && !growing ? ln->end : ln->b;
		if (!last)
			while (e > ln->a && is_blank(w->src[e - 1]))
				e--;
		buf_append(&w->joined, w->src + ln->a, e - ln->a);
		if (last)
			ends[nseg++] = w->joined.len;
		else
			buf_putc(&w->joined, ' ');
	}
	size_t start = 0;
	for (size_t k = 0; k < nseg; k++) {
		line_buf_clear(&w->lb);
		markdown_inline(&w->lb, w->joined.data + start, ends[k] - start, b->base,
				growing && k + 1 == nseg);
		wrap_line(w->l, &w->lb, k == 0 ? &b->shape : &cont);
		start = ends[k];
	}
	free(ends);
	lay_notes(w, &cont);
}

static void flush_table(struct walk *w)
{
	struct block *b = &w->b;
	size_t shown = shown_lines(b);
	struct table_line *rows = xcalloc(shown, sizeof *rows);
	for (size_t i = 0; i < shown; i++)
		rows[i] = (struct table_line){ w->src + b->lines[i].a, b->lines[i].b - b->lines[i].a };
	table_lay(w->l, rows, shown, b->ncols, b->align, &w->links);
	free(rows);
	struct row_shape none = { 0 };
	lay_notes(w, &none);
}

/* Lays the open block out; growing: the text may still grow (the stream goes on). */
static void flush(struct walk *w, bool growing)
{
	if (w->b.kind == BLOCK_PARA)
		flush_para(w, growing);
	else if (w->b.kind == BLOCK_TABLE)
		flush_table(w);
	w->b.kind = BLOCK_NONE;
	w->b.nlines = 0;
	free(w->b.align);
	w->b.align = NULL;
}

/* Whether a complete line inside a table starts another block (or is blank). */
static bool ends_table(const char *s, size_t n)
{
	size_t j = skip_blanks(s, 0, n), hashes;
	bool only, ordered;
	return j == n || s[j] == '>' || is_heading(s, j, n, 0, &hashes) || fence_marks(s, n) ||
	       is_rule(s, j, n, &only) || list_marker(s, j, n, &ordered) > 0;
}

/* A line the size of a delimiter row in the making ("|--", "| :-"). */
static bool partial_delimiter(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("|-: \t", s[i]))
			return false;
	return n > 0;
}

/* Whether the open paragraph takes the line at off: as its table's delimiter row, as a
 * continuation (soft break), or as a growing line that may still be either. */
static bool para_takes(struct walk *w, size_t off, size_t n, bool growing)
{
	struct block *b = &w->b;
	const char *s = w->src + off;
	if (b->table_head && shown_lines(b) == 1) {
		int ncols = table_cells(w->src + b->lines[0].a, b->lines[0].b - b->lines[0].a);
		char *align = xcalloc((size_t)ncols + 1, 1);
		if (!growing && ncols <= TABLE_MAX_COLS && table_delimiter(s, n, ncols, align)) {
			b->kind = BLOCK_TABLE;
			b->nlines = 1;
			b->lines[0].hard = false; /* a header row breaks nothing: all of it is cells */
			b->lines[0].b = b->lines[0].end;
			b->ncols = ncols;
			b->align = align;
			return true;
		}
		free(align);
		if (growing && b->pipe_start && partial_delimiter(s, n)) {
			block_add(w, off, off + n, growing, true);
			return true;
		}
	}
	if (!w->reflow || b->bytes >= BLOCK_MAX_BYTES)
		return false;
	size_t i;
	int depth = quotes(s, n, NULL, &i);
	size_t j = skip_blanks(s, i, n), hashes;
	bool only, ordered;
	if (growing && (j == n || is_pending_marker(s, j, n))) {
		block_add(w, off, off + n, growing, true);
		return true;
	}
	/* a line starting with '|' is a table's row, or looks like one: never joined */
	if (j == n || (depth != b->depth && depth != 0) || fence_marks(s, n) ||
	    is_heading(s, j, n, 0, &hashes) || is_rule(s, j, n, &only) || s[j] == '|')
		return false;
	/* a list item ends the paragraph; in prose, a number and a dot only when it is 1
	 * ("since\n2024. We") */
	if (list_marker(s, j, n, &ordered) > 0 &&
	    (!ordered || b->item || (s[j] == '1' && !(s[j + 1] >= '0' && s[j + 1] <= '9'))))
		return false;
	block_add(w, off + j, off + n, growing, false);
	return true;
}

/* A list item opens a paragraph: bullet or number, continuation rows hang under its text. */
static void open_item(struct walk *w, struct row_shape *sh, size_t off, size_t n, size_t j,
		      int nest, uint16_t base, int depth, bool growing)
{
	const char *s = w->src + off;
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
	block_open(w, BLOCK_PARA, off);
	w->b.shape = *sh;
	w->b.base = base;
	w->b.depth = depth;
	w->b.item = true;
	w->b.pipe_start = w->b.table_head = false;
	size_t c = skip_blanks(s, j + mlen, n);
	block_add(w, off + c, off + n, growing, false);
}

/* A line outside code with no block open: quotes, then a heading, list item, rule, blank
 * or the start of a paragraph. */
static void lay_block(struct walk *w, size_t off, size_t n, bool growing)
{
	struct layout *l = w->l;
	struct line_buf *lb = &w->lb;
	const char *s = w->src + off;
	struct row_shape sh = { 0 };
	size_t i;
	int depth = quotes(s, n, &sh, &i);
	uint16_t base = depth ? STYLE_QUOTE : STYLE_PLAIN;
	size_t j = i;
	int nest = 0;
	for (; j < n && is_blank(s[j]); j++)
		nest += s[j] == '\t' ? LAYOUT_TAB : 1;
	nest = nest < NEST_MAX ? nest : NEST_MAX;
	bool only_marks, ordered;
	size_t hashes;
	if (growing && is_pending_marker(s, j, n)) {
		wrap_line(l, lb, &sh);
		return;
	}
	if (is_heading(s, j, n, nest, &hashes)) {
		size_t c = skip_blanks(s, j + hashes, n);
		w->lb.links = &w->links;
		markdown_inline(lb, s + c, n - c, base | STYLE_HEADING | STYLE_BOLD, growing);
		wrap_line(l, lb, &sh);
		lay_notes(w, &sh);
	} else if (j < n && is_rule(s, j, n, &only_marks)) {
		lay_rule(l, lb, &sh);
	} else if (list_marker(s, j, n, &ordered) > 0) {
		open_item(w, &sh, off, n, j, nest, base, depth, growing);
	} else if (j == n) {
		wrap_line(l, lb, &sh);
	} else {
		block_open(w, BLOCK_PARA, off);
		w->b.shape = sh;
		w->b.base = base;
		w->b.depth = depth;
		w->b.item = false;
		w->b.pipe_start = depth == 0 && s[j] == '|';
		w->b.table_head = depth == 0 && table_cells(s, n) > 0;
		block_add(w, off + i, off + n, growing, false);
	}
}

/* Whether a line continues the open table: a row (a growing one is not shown yet). */
static bool table_takes(struct walk *w, size_t off, size_t n, bool growing)
{
	if (!growing && (ends_table(w->src + off, n) || w->b.nlines >= TABLE_MAX_ROWS ||
			 w->b.bytes >= TABLE_MAX_BYTES))
		return false;
	block_add(w, off, off + n, growing, growing);
	return true;
}

/* "     7\tcode" in a file view of a known language: the number dim, the code highlighted,
 * what a line leaves open kept in the walk's state for the next. */
static bool lay_numbered_code(struct walk *w, const char *s, size_t n)
{
	enum code_lang lang = (enum code_lang)((w->l->flags >> LAYOUT_LANG_SHIFT) & FENCE_LANG_FIELD);
	if (lang == LANG_NONE)
		return false;
	size_t i = skip_blanks(s, 0, n), d = i;
	while (d < n && s[d] >= '0' && s[d] <= '9')
		d++;
	if (d == i || d == n || s[d] != '\t')
		return false;
	unsigned hl = (unsigned)(w->md >> FENCE_HL_SHIFT) & FENCE_HL_FIELD;
	struct row_shape sh = { 0 };
	line_buf_put(&w->lb, s, d + 1, STYLE_DIM);
	highlight_line(&w->lb, lang, &hl, s + d + 1, n - d - 1, STYLE_PLAIN);
	w->md = (int)(hl & FENCE_HL_FIELD) << FENCE_HL_SHIFT;
	wrap_line(w->l, &w->lb, &sh);
	return true;
}

static void lay_line(struct walk *w, size_t off, size_t n, bool growing)
{
	struct layout *l = w->l;
	const char *s = w->src + off;
	line_buf_clear(&w->lb);
	if (!(l->flags & LAYOUT_MARKDOWN)) {
		if (lay_numbered_code(w, s, n))
			return;
		if ((l->flags & LAYOUT_FENCES) && (w->md & FENCE_OPEN)) {
			lay_code(w, off, n, growing);
			return;
		}
		if ((l->flags & LAYOUT_FENCES) && lay_fence_open(w, s, n))
			return;
		struct row_shape sh = { 0 };
		line_buf_put(&w->lb, s, n, STYLE_PLAIN);
		wrap_line(l, &w->lb, &sh);
		return;
	}
	if (w->md) {
		lay_code(w, off, n, growing);
		return;
	}
	if (w->b.kind == BLOCK_TABLE) {
		if (table_takes(w, off, n, growing))
			return;
		flush(w, false);
	}
	if (w->b.kind == BLOCK_PARA) {
		if (para_takes(w, off, n, growing))
			return;
		flush(w, false);
	}
	line_buf_clear(&w->lb);
	if (!lay_fence_open(w, s, n))
		lay_block(w, off, n, growing);
}

/* Whether the open block may take more lines; else it is laid out at its line's end. */
static bool block_may_grow(const struct walk *w)
{
	const struct block *b = &w->b;
	return b->kind == BLOCK_TABLE ||
	       (b->kind == BLOCK_PARA && (w->reflow || (b->table_head && shown_lines(b) == 1)));
}

void layout_update(struct layout *l, const char *src, size_t len, int width, unsigned flags)
{
	width = width < 1 ? 1 : width > UINT16_MAX ? UINT16_MAX : width;
	/* settled lines do not depend on LAYOUT_STREAMING: only the open block and the growing
	 * last line do */
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
	struct walk w = {
		.l = l, .src = src, .md = l->settled_md_state,
		.links = { .next = l->settled_links },
		.reflow = (flags & LAYOUT_REFLOW) && (flags & LAYOUT_MARKDOWN),
		.streaming = flags & LAYOUT_STREAMING,
	};
	line_buf_init(&w.lb);
	w.lb.links = &w.links;
	buf_init(&w.joined);
	size_t pos = l->settled_src;
	while (pos < len) {
		const char *nl = memchr(src + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - src) : len;
		w.line_done = nl != NULL;
		lay_line(&w, pos, end - pos, !nl && w.streaming);
		if (!nl)
			break;
		pos = end + 1;
		if (w.b.kind != BLOCK_NONE && !block_may_grow(&w))
			flush(&w, false);
		if (w.b.kind == BLOCK_NONE)
			settle(&w, pos);
	}
	if (w.b.kind != BLOCK_NONE)
		flush(&w, w.streaming);
	free(w.b.lines);
	free(w.links.v);
	buf_fini(&w.joined);
	line_buf_fini(&w.lb);
}
