/* Private to render/: the pieces of layout_update. layout.c walks the source line by line
 * and recognizes block markdown (gathering a paragraph's lines, a table's rows), markdown.c
 * turns inline markdown into styled display text, table.c lays a pipe table out, wrap.c
 * cuts display text into rows. */
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

/* A link with a footnote: its URL (in the source being parsed) and its number. */
struct md_link {
	const char *url;
	uint32_t len;
	int num;
};

/* The links of a block, numbered from next on; their footnotes follow the block. */
struct link_list {
	struct md_link *v;
	size_t n, cap;
	int next;
};

/* One logical line after markdown, before wrapping, plus the scratch the parser reuses.
 * Lives for one layout_update call, so no allocation happens per line or character. */
struct line_buf {
	struct buf text;
	struct style_run *runs;
	size_t nruns, runs_cap;
	struct inline_mark *marks;
	size_t nmarks, marks_cap;
	struct link_list *links;    /* where links found are numbered and kept */
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

/* Parses inline markdown (emphasis, ~~strike~~, code spans, [links](url), escapes) into lb;
 * a link shows its text and, when it has a footnote, "[N]" (numbered into lb->links).
 * growing: the text may still grow, so unmatched markers are hidden, not shown. */
void markdown_inline(struct line_buf *lb, const char *s, size_t n, uint16_t base, bool growing);

/* What the lexer of one language looks for (code_lang.c). */
struct code_lang_def {
	const char *names;          /* fence info words, space-separated */
	const char *exts;           /* file extensions */
	const char *keywords;
	const char *line_comment;   /* "#", "//"; NULL: none */
	const char *quotes;         /* characters that open a string */
	bool block_comment;         /* slash-star comments */
	bool triple;                /* Python's triple quotes */
	bool template;              /* JS's backquoted strings span lines */
	bool dollar;                /* shell's $VAR and ${…} */
};
extern const struct code_lang_def code_langs[LANG_COUNT];
/* Whether w[0..n) is one of the space-separated words of list. */
bool code_word_in_list(const char *list, const char *w, size_t n);
/* Whether w[0..n) is one of lang's keywords (code_word_in_list of its list, hashed). */
bool code_keyword(enum code_lang lang, const char *w, size_t n);
/* Whether c belongs in a word of code: a letter, a digit, '_' or a byte of a multi-byte
 * character. */
bool code_word_byte(char c);

/* Appends code line s[0..n) to lb in style base with its tokens (enum token in the style's
 * token bits); *state carries what the line leaves open (a block comment, a long string) to
 * the next line of the block, 0 at its start. */
void highlight_line(struct line_buf *lb, enum code_lang lang, unsigned *state, const char *s,
		    size_t n, uint16_t base);
/* Appends the diff line src[off..off+n) to lb: file header, hunk, removed or added; in an
 * added line, the words changed from its removed pair (found in src before it) set apart. */
void highlight_diff_line(struct line_buf *lb, const char *src, size_t off, size_t n, uint16_t base);

/* Appends the rows of one line to l at l->width. */
void wrap_line(struct layout *l, const struct line_buf *lb, const struct row_shape *shape);
/* Starts a row composed piece by piece (a table row), indent columns blank. */
void wrap_row_begin(struct layout *l, uint16_t indent);
/* Appends display text to the row begun last; the caller keeps it within l->width. */
void wrap_row_put(struct layout *l, const char *s, size_t n, uint16_t style);

/* One source line of a table: s[0..n). */
struct table_line {
	const char *s;
	size_t n;
};

/* Cells of a table row (header or body) with '|' unescaped: 0 when s has no '|'. */
int table_cells(const char *s, size_t n);
/* Whether s[0..n) is a delimiter row of ncols cells ("|---|:-:|"); align gets each
 * column's alignment ('l', 'c', 'r'). */
bool table_delimiter(const char *s, size_t n, int ncols, char *align);
/* Lays out a table: rows[0] the header, then the body rows; aligned columns with a header
 * rule, cells wrapped when too wide, or one "header: value" line per cell when even that
 * does not fit. Links are numbered into links. */
void table_lay(struct layout *l, const struct table_line *rows, size_t nrows, int ncols,
	       const char *align, struct link_list *links);

#endif
