/* Private to render/: the pieces of layout_update. layout.c walks the source line by line
 * and recognizes block markdown, markdown.c turns one line's inline markdown into styled
 * display text, wrap.c cuts that text into rows. */
#ifndef TETHER_RENDER_LAYOUT_INT_H
#define TETHER_RENDER_LAYOUT_INT_H

#include "render.h"

/* Columns between tab stops. */
#define LAYOUT_TAB 4
/* Most pieces a row prefix has (quote bars, list marker, padding). */
#define PREFIX_MAX 8

/* A style run of a line's display text: it ends at end, starting where the previous ended. */
struct style_run {
	uint32_t end;
	uint16_t style;
};

/* An inline marker found while parsing one line (emphasis run, code span edge, escape). */
struct inline_mark;

/* One logical line after markdown, before wrapping, plus the scratch the parser reuses.
 * Lives for one layout_update call, so no allocation happens per line or character. */
struct line_buf {
	struct buf text;
	struct style_run *runs;
	size_t nruns, runs_cap;
	struct inline_mark *marks;
	size_t nmarks, marks_cap;
};

/* A styled piece of a row prefix (a quote bar, a bullet, padding). */
struct prefix_piece {
	const char *s;
	uint16_t len;
	uint16_t style;
};

/* How the rows of one logical line begin: blank indent, then prefix pieces. The first row
 * and the continuation rows of a wrapped line differ (a bullet vs. hanging padding). */
struct row_shape {
	uint16_t indent[2];
	struct prefix_piece piece[2][PREFIX_MAX];
	int npieces[2];
	uint16_t empty_style;       /* style of a zero-length span on an otherwise empty row */
};

/* Makes an empty line buffer. */
void line_buf_init(struct line_buf *lb);
/* Frees a line buffer's storage. */
void line_buf_fini(struct line_buf *lb);
/* Empties the line, keeping its storage. */
void line_buf_clear(struct line_buf *lb);
/* Appends display text in a style. */
void line_buf_put(struct line_buf *lb, const char *s, size_t n, uint16_t style);

/* Parses one line's inline markdown (emphasis, code spans, escapes) into lb. growing: this is
 * the unfinished last line of a stream, so unmatched markers are hidden, not shown. */
void markdown_inline(struct line_buf *lb, const char *s, size_t n, uint16_t base, bool growing);

/* Appends the rows of one line to l at l->width. */
void wrap_line(struct layout *l, const struct line_buf *lb, const struct row_shape *shape);

#endif
