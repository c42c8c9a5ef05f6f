/* Pipe tables (GFM): the header, a delimiter row saying each column's alignment, body rows.
 * Drawn as columns by display width, " │ " between them and a rule under the header. Too
 * wide for the row: columns narrower than their fair share keep their width, the others
 * share the rest and their cells wrap. Too narrow even for that: each body row becomes one
 * "header: value" line per cell. */
#include "layout_int.h"

#include <stdlib.h>
#include <string.h>

/* Columns narrower than this are not worth drawing: the records fallback reads better. */
#define MIN_COL 4

static const char SEP[] = " \xe2\x94\x82 ";                    /* " │ " */
static const char CROSS[] = "\xe2\x94\x80\xe2\x94\xbc\xe2\x94\x80"; /* "─┼─" */
static const char RULE[] = "\xe2\x94\x80";                      /* "─" */
static const char SPACES[] = "                                ";
#define GAP 3

struct cell {
	size_t a, b;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits s at unescaped '|' into at most max trimmed cells (outer pipes dropped); returns
 * how many there are, and whether s has a '|' at all in *pipe. */
static int split_cells(const char *s, size_t n, struct cell *out, int max, bool *pipe)
{
	size_t i = 0, e = n;
	while (i < e && is_blank(s[i]))
		i++;
	while (e > i && is_blank(s[e - 1]))
		e--;
	*pipe = false;
	for (size_t p = i; p < e; p++) {
		if (s[p] == '\\')
			p++;
		else if (s[p] == '|')
			*pipe = true;
	}
	if (!*pipe)
		return 0;
	if (s[i] == '|')
		i++;
	if (e > i && s[e - 1] == '|' && !(e - i >= 2 && s[e - 2] == '\\'))
		e--;
	int count = 0;
	size_t a = i;
	for (size_t p = i; p <= e; p++) {
		if (p + 1 < e && s[p] == '\\') { /* an escaped character, '|' included */
			p++;
			continue;
		}
		if (p < e && s[p] != '|')
			continue;
		size_t ca = a, cb = p < e ? p : e;
		while (ca < cb && is_blank(s[ca]))
			ca++;
		while (cb > ca && is_blank(s[cb - 1]))
			cb--;
		if (count < max && out)
			out[count] = (struct cell){ ca, cb };
		count++;
		a = p + 1;
	}
	return count;
}

int table_cells(const char *s, size_t n)
{
	bool pipe;
	return split_cells(s, n, NULL, 0, &pipe);
}

bool table_delimiter(const char *s, size_t n, int ncols, char *align)
{
	bool pipe;
	struct cell *cells = xcalloc((size_t)ncols, sizeof *cells);
	int k = split_cells(s, n, cells, ncols, &pipe);
	bool ok = pipe && k == ncols;
	for (int c = 0; ok && c < ncols; c++) {
		size_t a = cells[c].a, b = cells[c].b;
		bool left = a < b && s[a] == ':', right = b > a && s[b - 1] == ':';
		a += left;
		b -= right && b > a;
		ok = a < b;
		for (size_t p = a; ok && p < b; p++)
			ok = s[p] == '-';
		align[c] = left && right ? 'c' : right ? 'r' : 'l';
	}
	free(cells);
	return ok;
}

static void put_repeat(struct layout *l, const char *s, size_t n, int times, uint16_t style)
{
	for (int i = 0; i < times; i++)
		wrap_row_put(l, s, n, style);
}

static void put_spaces(struct layout *l, int cols)
{
	while (cols > 0) {
		int k = cols < (int)sizeof(SPACES) - 1 ? cols : (int)sizeof(SPACES) - 1;
		wrap_row_put(l, SPACES, (size_t)k, STYLE_PLAIN);
		cols -= k;
	}
}

static void copy_runs(struct line_buf *dst, const struct line_buf *src)
{
	size_t a = 0;
	for (size_t i = 0; i < src->nruns; i++) {
		line_buf_put(dst, src->text.data + a, src->runs[i].end - a, src->runs[i].style);
		a = src->runs[i].end;
	}
}

/* Columns of width avail: those narrower than their share keep their width, the rest share
 * what is left. */
static void share_columns(const int *nat, int *colw, int ncols, int avail)
{
	bool *fixed = xcalloc((size_t)ncols, sizeof *fixed);
	int left = avail, open = ncols;
	for (bool changed = true; changed && open > 0;) {
		changed = false;
		int share = left / open;
		for (int c = 0; c < ncols; c++) {
			if (!fixed[c] && nat[c] <= share) {
				fixed[c] = true;
				colw[c] = nat[c];
				left -= nat[c];
				open--;
				changed = true;
			}
		}
	}
	for (int c = 0, k = 0; c < ncols; c++) {
		if (fixed[c])
			continue;
		colw[c] = left / open + (k < left % open);
		k++;
	}
	free(fixed);
}

/* One table row: each cell wrapped to its column, side by side. */
static void lay_grid_row(struct layout *l, struct line_buf *cells, const int *colw, int ncols,
			 const char *align)
{
	struct layout *cl = xcalloc((size_t)ncols, sizeof *cl);
	struct row_shape none = { 0 };
	size_t height = 1;
	for (int c = 0; c < ncols; c++) {
		layout_init(&cl[c]);
		cl[c].width = colw[c];
		wrap_line(&cl[c], &cells[c], &none);
		if (cl[c].nrows > height)
			height = cl[c].nrows;
	}
	for (size_t k = 0; k < height; k++) {
		wrap_row_begin(l, 0);
		for (int c = 0; c < ncols; c++) {
			if (c > 0)
				wrap_row_put(l, SEP, sizeof(SEP) - 1, STYLE_DIM);
			const struct row *r = k < cl[c].nrows ? &cl[c].rows[k] : NULL;
			int pad = colw[c] - (r ? r->width : 0);
			int before = align[c] == 'r' ? pad : align[c] == 'c' ? pad / 2 : 0;
			put_spaces(l, before);
			for (uint32_t i = 0; r && i < r->span_count; i++) {
				const struct span *sp = &cl[c].spans[r->span_first + i];
				wrap_row_put(l, cl[c].text.data + sp->off, sp->len, sp->style);
			}
			if (c + 1 < ncols)
				put_spaces(l, pad - before);
		}
	}
	for (int c = 0; c < ncols; c++)
		layout_fini(&cl[c]);
	free(cl);
}

/* Too narrow for columns: "header: value", one line per cell, a blank row between rows. */
static void lay_records(struct layout *l, struct line_buf *cells, size_t nrows, int ncols)
{
	struct row_shape hang = { .indent = { 0, 2 } };
	struct line_buf rec;
	line_buf_init(&rec);
	for (size_t r = nrows > 1 ? 1 : 0; r < nrows; r++) {
		if (r > 1)
			wrap_row_begin(l, 0);
		for (int c = 0; c < ncols; c++) {
			line_buf_clear(&rec);
			copy_runs(&rec, &cells[c]);
			if (r > 0) {
				line_buf_put(&rec, ": ", 2, STYLE_PLAIN);
				copy_runs(&rec, &cells[r * (size_t)ncols + (size_t)c]);
			}
			wrap_line(l, &rec, &hang);
		}
	}
	line_buf_fini(&rec);
}

void table_lay(struct layout *l, const struct table_line *rows, size_t nrows, int ncols,
	       const char *align, struct link_list *links)
{
	size_t ncells = nrows * (size_t)ncols;
	struct line_buf *cells = xcalloc(ncells, sizeof *cells);
	struct cell *split = xcalloc((size_t)ncols, sizeof *split);
	int *nat = xcalloc((size_t)ncols, sizeof *nat);
	int *colw = xcalloc((size_t)ncols, sizeof *colw);
	for (size_t r = 0; r < nrows; r++) {
		bool pipe;
		int k = split_cells(rows[r].s, rows[r].n, split, ncols, &pipe);
		if (!pipe) { /* a row without pipes is one cell */
			split[0] = (struct cell){ 0, rows[r].n };
			k = 1;
		}
		for (int c = 0; c < ncols; c++) {
			struct line_buf *lb = &cells[r * (size_t)ncols + (size_t)c];
			line_buf_init(lb);
			lb->links = links;
			if (c < k)
				markdown_inline(lb, rows[r].s + split[c].a, split[c].b - split[c].a,
						r == 0 ? STYLE_BOLD : STYLE_PLAIN, false);
			for (size_t i = 0; i < lb->text.len; i++)
				if (lb->text.data[i] == '\t')
					lb->text.data[i] = ' ';
			int w = text_width(lb->text.data, lb->text.len);
			nat[c] = w > nat[c] ? w : nat[c];
		}
	}
	int total = GAP * (ncols - 1);
	for (int c = 0; c < ncols; c++) {
		nat[c] = nat[c] < 1 ? 1 : nat[c];
		total += nat[c];
	}
	int avail = l->width - GAP * (ncols - 1);
	if (total > l->width && avail < ncols * MIN_COL) {
		lay_records(l, cells, nrows, ncols);
	} else {
		if (total <= l->width)
			memcpy(colw, nat, (size_t)ncols * sizeof *colw);
		else
			share_columns(nat, colw, ncols, avail);
		for (size_t r = 0; r < nrows; r++) {
			lay_grid_row(l, &cells[r * (size_t)ncols], colw, ncols, align);
			if (r > 0)
				continue;
			wrap_row_begin(l, 0);
			for (int c = 0; c < ncols; c++) {
				if (c > 0)
					wrap_row_put(l, CROSS, sizeof(CROSS) - 1, STYLE_DIM);
				put_repeat(l, RULE, sizeof(RULE) - 1, colw[c], STYLE_DIM);
			}
		}
	}
	for (size_t i = 0; i < ncells; i++)
		line_buf_fini(&cells[i]);
	free(cells);
	free(split);
	free(nat);
	free(colw);
}
