/* Helpers of the row and viewport tests: rows as strings, and rows compared with an
 * independent layout of the same text. */
#ifndef TETHER_TESTS_TRANSCRIPT_ROWCHECK_H
#define TETHER_TESTS_TRANSCRIPT_ROWCHECK_H

#include "helpers.h"
#include "render.h"

/* The display text of a row (its spans joined) into out. */
static inline const char *row_string(const struct view_row *r, struct buf *out)
{
	buf_clear(out);
	buf_append(out, "", 0);
	for (size_t i = 0; i < r->nspans; i++)
		buf_append(out, r->text + r->spans[i].off, r->spans[i].len);
	return buf_cstr(out);
}

/* Row r of item idx as a string (valid until the next call with the same out). */
static inline const char *item_row_string(struct transcript *t, size_t idx, size_t r, int width,
					  struct buf *out)
{
	struct view_row vr;
	transcript_item_row(t, idx, r, width, &vr);
	return row_string(&vr, out);
}

/* Rows first.. of item idx are exactly layout l's rows, spans and styles (plus extra_style). */
static inline void assert_rows_are_layout(struct transcript *t, size_t idx, size_t first,
					  const struct layout *l, int width, uint16_t extra_style)
{
	for (size_t k = 0; k < l->nrows; k++) {
		struct view_row vr;
		transcript_item_row(t, idx, first + k, width, &vr);
		const struct row *lr = &l->rows[k];
		assert_false(vr.header);
		assert_false(vr.separator);
		assert_int_equal(vr.indent, lr->indent);
		assert_int_equal(vr.nspans, lr->span_count);
		for (size_t s = 0; s < vr.nspans; s++) {
			const struct span *a = &vr.spans[s], *b = &l->spans[lr->span_first + s];
			assert_int_equal(a->len, b->len);
			assert_memory_equal(vr.text + a->off, l->text.data + b->off, a->len);
			assert_int_equal(a->style, b->style | extra_style);
		}
	}
}

/* Lays src out on its own, as the transcript should. */
static inline void layout_alone(struct layout *l, const char *src, size_t len, int width,
				unsigned flags)
{
	layout_init(l);
	layout_update(l, src, len, width, flags);
}

#endif
