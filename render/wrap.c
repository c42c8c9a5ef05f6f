/* Wrapping one logical line into rows: greedy, breaking at blanks (the blanks at a break are
 * dropped) or between wide characters, and inside a word only when it does not fit on a row
 * of its own. Widths are grapheme widths; a cluster is never split unless it is wider than
 * the whole row. */
#include "layout_int.h"

#include <string.h>

struct wrapper {
	struct layout *l;
	const struct line_buf *lb;
	const struct row_shape *shape;
	uint16_t indent[2];         /* the shape's indents, clamped to the width */
	int npieces[2];             /* its prefix pieces, or none when they do not fit */
	size_t run;                 /* cursor into lb->runs */
	size_t row;                 /* index of the current row */
	int width;
	int col;                    /* columns used in the current row, indent included */
	int origin;                 /* column where content starts: tab stops count from here */
	bool has_word;              /* the current row holds content past its prefix */
	size_t pend_a, pend_b;      /* lb->text[pend_a..pend_b): placed, not yet appended */
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static void push_span(struct layout *l, struct row *row, size_t off, size_t len, uint16_t style)
{
	if (row->span_count > 0) {
		struct span *last = &l->spans[l->nspans - 1];
		if (last->style == style && last->off + last->len == off && len > 0) {
			last->len += (uint32_t)len;
			return;
		}
	}
	if (l->nspans == l->spans_cap) {
		l->spans_cap = l->spans_cap ? l->spans_cap * 2 : 64;
		l->spans = xrealloc(l->spans, l->spans_cap * sizeof(*l->spans));
	}
	l->spans[l->nspans++] = (struct span){ .off = (uint32_t)off, .len = (uint32_t)len,
					       .style = style };
	row->span_count++;
}

/* Appends lb->text[a..b) to the current row, split along the line's style runs. */
static void emit_text(struct wrapper *w, size_t a, size_t b)
{
	const struct line_buf *lb = w->lb;
	struct layout *l = w->l;
	while (a < b) {
		while (lb->runs[w->run].end <= a)
			w->run++;
		size_t end = lb->runs[w->run].end < b ? lb->runs[w->run].end : b;
		size_t off = l->text.len;
		buf_append(&l->text, lb->text.data + a, end - a);
		push_span(l, &l->rows[w->row], off, end - a, lb->runs[w->run].style);
		a = end;
	}
}

/* Appends what was placed and not appended yet: words and the blanks between them go in as
 * one run per row, not one per word. */
static void flush_pending(struct wrapper *w)
{
	if (w->pend_b > w->pend_a)
		emit_text(w, w->pend_a, w->pend_b);
	w->pend_a = w->pend_b = 0;
}

/* Appends display bytes to the current row in one style. */
static void put_bytes(struct wrapper *w, const char *s, size_t n, uint16_t style)
{
	if (n == 0)
		return;
	flush_pending(w);
	struct layout *l = w->l;
	size_t off = l->text.len;
	buf_append(&l->text, s, n);
	push_span(l, &l->rows[w->row], off, n, style);
}

/* Places lb->text[a..b) taking cols columns: it joins the pending run when it follows on. */
static void put_text(struct wrapper *w, size_t a, size_t b, int cols)
{
	w->col += cols;
	if (a == b)
		return;
	if (w->pend_b > w->pend_a && w->pend_b == a) {
		w->pend_b = b;
		return;
	}
	flush_pending(w);
	w->pend_a = a;
	w->pend_b = b;
}

static uint16_t style_at(struct wrapper *w, size_t pos)
{
	flush_pending(w);
	while (w->lb->runs[w->run].end <= pos)
		w->run++;
	return w->lb->runs[w->run].style;
}

static void finish_row(struct wrapper *w)
{
	flush_pending(w);
	struct layout *l = w->l;
	struct row *row = &l->rows[w->row];
	if (row->span_count == 0 && w->shape->empty_style)
		push_span(l, row, l->text.len, 0, w->shape->empty_style);
	row->width = (uint16_t)w->col;
}

static int pieces_width(const struct prefix_piece *p, int n)
{
	int cols = 0;
	for (int i = 0; i < n; i++)
		cols += text_width(p[i].s, p[i].len);
	return cols;
}

/* Starts a row: kind 0 is the line's first row, 1 a continuation. */
static void start_row(struct wrapper *w, int kind)
{
	struct layout *l = w->l;
	if (l->nrows == l->rows_cap) {
		l->rows_cap = l->rows_cap ? l->rows_cap * 2 : 32;
		l->rows = xrealloc(l->rows, l->rows_cap * sizeof(*l->rows));
	}
	w->row = l->nrows++;
	l->rows[w->row] = (struct row){ .span_first = (uint32_t)l->nspans,
					.indent = w->indent[kind] };
	w->col = w->indent[kind];
	for (int i = 0; i < w->npieces[kind]; i++) {
		const struct prefix_piece *p = &w->shape->piece[kind][i];
		put_bytes(w, p->s, p->len, p->style);
		w->col += text_width(p->s, p->len);
	}
	w->origin = w->col;
	w->has_word = false;
}

static void break_row(struct wrapper *w)
{
	finish_row(w);
	start_row(w, 1);
}

/* At narrow widths the indent goes first, then the prefix: a row always keeps at least
 * one column for content. */
static void clamp_shape(struct wrapper *w)
{
	for (int k = 0; k < 2; k++) {
		int pw = pieces_width(w->shape->piece[k], w->shape->npieces[k]);
		w->indent[k] = w->shape->indent[k];
		w->npieces[k] = w->shape->npieces[k];
		if (w->indent[k] + pw >= w->width)
			w->indent[k] = 0;
		if (pw >= w->width)
			w->npieces[k] = 0;
	}
}

static int blank_width(const struct wrapper *w, char c, int col)
{
	return c == '\t' ? LAYOUT_TAB - (col - w->origin) % LAYOUT_TAB : 1;
}

static int blanks_width(const struct wrapper *w, size_t a, size_t b)
{
	int col = w->col;
	for (size_t i = a; i < b; i++)
		col += blank_width(w, w->lb->text.data[i], col);
	return col - w->col;
}

/* Puts blanks a..b, tabs expanded; with fit, the ones past the edge are dropped. */
static void put_blanks(struct wrapper *w, size_t a, size_t b, bool fit)
{
	static const char spaces[LAYOUT_TAB] = { ' ', ' ', ' ', ' ' };
	const char *t = w->lb->text.data;
	while (a < b) {
		if (t[a] == ' ') {
			size_t e = a;
			while (e < b && t[e] == ' ' && (!fit || w->col + (int)(e - a) < w->width))
				e++;
			if (e == a)
				return;
			put_text(w, a, e, (int)(e - a));
			a = e;
			continue;
		}
		int cols = blank_width(w, '\t', w->col);
		if (fit && w->col + cols > w->width)
			return;
		put_bytes(w, spaces, (size_t)cols, style_at(w, a));
		w->col += cols;
		a++;
	}
}

/* End of the word starting at a, and its width. A wide character is a word of its own, so
 * CJK text breaks between characters. */
static size_t word_end(const char *t, size_t a, size_t n, int *width)
{
	int gw;
	size_t p = a + grapheme_next(t + a, n - a, &gw);
	*width = gw;
	if (gw >= 2)
		return p;
	while (p < n) {
		unsigned char c = (unsigned char)t[p];
		if (c > ' ' && c < 0x7F && (p + 1 == n || (unsigned char)t[p + 1] < 0x80)) {
			p++;
			(*width)++;
			continue;
		}
		if (is_blank(t[p]))
			break;
		size_t g = grapheme_next(t + p, n - p, &gw);
		if (gw >= 2)
			break;
		p += g;
		*width += gw;
	}
	return p;
}

/* A cluster wider than a whole row (a long ZWJ chain, or any wide character at width 1)
 * goes code point by code point; a wide one that still does not fit becomes '?'. */
static void put_oversized(struct wrapper *w, size_t a, size_t b)
{
	const char *t = w->lb->text.data;
	while (a < b) {
		uint32_t cp;
		size_t e = a + utf8_decode(t + a, b - a, &cp);
		int cols = cp_width(cp);
		while (e < b) {
			uint32_t next;
			size_t len = utf8_decode(t + e, b - e, &next);
			if (cp_width(next) != 0)
				break;
			e += len;
		}
		if (w->col + cols > w->width && w->col > w->origin)
			break_row(w);
		if (w->col + cols > w->width) {
			put_bytes(w, "?", 1, style_at(w, a));
			w->col++;
		} else {
			put_text(w, a, e, cols);
		}
		a = e;
	}
}

/* Places a word that starts the row or did not fit after the previous one. */
static void put_word(struct wrapper *w, size_t a, size_t b, int width)
{
	w->has_word = true;
	if (w->col + width <= w->width) {
		put_text(w, a, b, width);
		return;
	}
	const char *t = w->lb->text.data;
	size_t start = a;
	int cols = 0;
	while (a < b) {
		int gw;
		size_t g = grapheme_next(t + a, b - a, &gw);
		if (w->col + cols + gw > w->width) {
			put_text(w, start, a, cols);
			start = a;
			cols = 0;
			if (w->col > w->origin)
				break_row(w);
			if (w->col + gw > w->width) {
				put_oversized(w, a, a + g);
				a += g;
				start = a;
				continue;
			}
		}
		cols += gw;
		a += g;
	}
	put_text(w, start, b, cols);
	w->has_word = true;
}

void wrap_line(struct layout *l, const struct line_buf *lb, const struct row_shape *shape)
{
	struct wrapper w = { .l = l, .lb = lb, .shape = shape, .width = l->width };
	clamp_shape(&w);
	start_row(&w, 0);
	const char *t = lb->text.data;
	size_t n = lb->text.len;
	size_t pos = 0, blank_a = 0, blank_b = 0;
	size_t first_row = w.row;
	while (pos < n) {
		if (is_blank(t[pos])) {
			size_t q = pos;
			while (q < n && is_blank(t[q]))
				q++;
			if (w.row == first_row && !w.has_word)
				put_blanks(&w, pos, q, true); /* the line's own indentation */
			else
				blank_a = pos, blank_b = q;
			pos = q;
			continue;
		}
		int width;
		size_t q = word_end(t, pos, n, &width);
		if (w.has_word) {
			int bw = blanks_width(&w, blank_a, blank_b);
			if (w.col + bw + width <= w.width) {
				put_blanks(&w, blank_a, blank_b, false);
				put_text(&w, pos, q, width);
			} else {
				break_row(&w);
				put_word(&w, pos, q, width);
			}
		} else {
			put_word(&w, pos, q, width);
		}
		blank_a = blank_b = 0;
		pos = q;
	}
	finish_row(&w);
}

void wrap_row_begin(struct layout *l, uint16_t indent)
{
	if (l->nrows == l->rows_cap) {
		l->rows_cap = l->rows_cap ? l->rows_cap * 2 : 32;
		l->rows = xrealloc(l->rows, l->rows_cap * sizeof(*l->rows));
	}
	l->rows[l->nrows++] = (struct row){ .span_first = (uint32_t)l->nspans, .indent = indent,
					    .width = indent };
}

void wrap_row_put(struct layout *l, const char *s, size_t n, uint16_t style)
{
	if (n == 0)
		return;
	struct row *row = &l->rows[l->nrows - 1];
	size_t off = l->text.len;
	buf_append(&l->text, s, n);
	push_span(l, row, off, n, style);
	row->width = (uint16_t)(row->width + text_width(s, n));
}
