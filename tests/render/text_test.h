/* Helpers shared by the text tests: a readable dump of a layout, its invariants, and a
 * seeded random generator for the property tests. */
#ifndef TETHER_TESTS_TEXT_TEST_H
#define TETHER_TESTS_TEXT_TEST_H

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render.h"

/* Widths come from wcwidth(), so the tests run under the UTF-8 locale the client uses. */
static inline int text_test_setup(void **state)
{
	(void)state;
	return setlocale(LC_ALL, "C.UTF-8") ? 0 : -1;
}

/* Style letters of a dump: B bold, I italic, C code, K code block, H heading, Q quote,
 * D dim, M match, L link, S strike. */
static inline void style_letters(uint16_t style, struct buf *out)
{
	static const char letters[] = "BICKHQDMLS";
	for (int i = 0; letters[i]; i++) {
		if (style & (1u << i))
			buf_putc(out, letters[i]);
	}
	/* a token of highlighted code after '=': keyword, string, comment, number, file header,
	 * hunk, removed, added, removed word, added word */
	static const char tokens[] = ".wscnfh-+_^";
	unsigned t = STYLE_TOKEN_OF(style);
	if (t && t < sizeof tokens - 1) {
		buf_putc(out, '=');
		buf_putc(out, tokens[t]);
	}
}

/* One line per row: the indent as spaces, then each span, a styled one as {STYLE:text}. */
static inline void layout_dump(const struct layout *l, struct buf *out)
{
	buf_clear(out);
	buf_puts(out, "");
	for (size_t r = 0; r < l->nrows; r++) {
		const struct row *row = &l->rows[r];
		if (r > 0)
			buf_putc(out, '\n');
		for (int i = 0; i < row->indent; i++)
			buf_putc(out, ' ');
		for (uint32_t k = 0; k < row->span_count; k++) {
			const struct span *s = &l->spans[row->span_first + k];
			if (s->style) {
				buf_putc(out, '{');
				style_letters(s->style, out);
				buf_putc(out, ':');
			}
			buf_append(out, l->text.data + s->off, s->len);
			if (s->style)
				buf_putc(out, '}');
		}
	}
}

/* The displayed text of row r, spans concatenated (no indent, no style). */
static inline void row_text(const struct layout *l, size_t r, struct buf *out)
{
	buf_clear(out);
	buf_puts(out, "");
	const struct row *row = &l->rows[r];
	for (uint32_t k = 0; k < row->span_count; k++) {
		const struct span *s = &l->spans[row->span_first + k];
		buf_append(out, l->text.data + s->off, s->len);
	}
}

/* Rows within the width and measured right, spans inside the text and in row order. */
static inline void check_layout(const struct layout *l, const char *file, int line)
{
	struct buf t;
	buf_init(&t);
	uint32_t next_span = 0;
	for (size_t r = 0; r < l->nrows; r++) {
		const struct row *row = &l->rows[r];
		row_text(l, r, &t);
		int w = row->indent + text_width(t.data, t.len);
		bool ok = row->width <= l->width && row->width == w && row->indent <= row->width &&
			  row->span_first == next_span &&
			  row->span_first + row->span_count <= l->nspans &&
			  memchr(t.data, '\n', t.len) == NULL;
		for (uint32_t k = 0; ok && k < row->span_count; k++) {
			const struct span *s = &l->spans[row->span_first + k];
			ok = (size_t)s->off + s->len <= l->text.len;
		}
		if (!ok) {
			print_error("row %zu breaks an invariant: width %u (measured %d, layout %d), "
				    "indent %u, text \"%s\"\n",
				    r, row->width, w, l->width, row->indent, t.data);
			buf_fini(&t);
			_fail(file, line);
		}
		next_span = row->span_first + row->span_count;
	}
	buf_fini(&t);
}

#define CHECK_LAYOUT(l) check_layout((l), __FILE__, __LINE__)

/* Lays src out from scratch and compares the dump with expected. */
static inline void expect_layout(const char *src, int width, unsigned flags, const char *expected,
				 const char *file, int line)
{
	struct layout l;
	struct buf dump;
	layout_init(&l);
	buf_init(&dump);
	layout_update(&l, src, strlen(src), width, flags);
	check_layout(&l, file, line);
	layout_dump(&l, &dump);
	if (strcmp(dump.data, expected) != 0) {
		print_error("layout of \"%s\" at %d:\n--- expected\n%s\n--- got\n%s\n---\n", src,
			    width, expected, dump.data);
		buf_fini(&dump);
		layout_fini(&l);
		_fail(file, line);
	}
	buf_fini(&dump);
	layout_fini(&l);
}

#define EXPECT_LAYOUT(src, width, flags, expected) \
	expect_layout((src), (width), (flags), (expected), __FILE__, __LINE__)

/* Equality of two layouts' text bytes, spans and rows (field by field: spans have padding). */
static inline bool layouts_equal(const struct layout *a, const struct layout *b)
{
	if (a->text.len != b->text.len || a->nspans != b->nspans || a->nrows != b->nrows)
		return false;
	if (a->text.len && memcmp(a->text.data, b->text.data, a->text.len) != 0)
		return false;
	for (size_t i = 0; i < a->nspans; i++) {
		const struct span *x = &a->spans[i], *y = &b->spans[i];
		if (x->off != y->off || x->len != y->len || x->style != y->style)
			return false;
	}
	for (size_t i = 0; i < a->nrows; i++) {
		const struct row *x = &a->rows[i], *y = &b->rows[i];
		if (x->span_first != y->span_first || x->span_count != y->span_count ||
		    x->width != y->width || x->indent != y->indent)
			return false;
	}
	return true;
}

/* xorshift64*: deterministic pseudo-random numbers for the property tests. */
struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

/* A number in [0, n). */
static inline size_t rng_below(struct rng *r, size_t n)
{
	return n ? (size_t)(rng_next(r) % n) : 0;
}

#endif
