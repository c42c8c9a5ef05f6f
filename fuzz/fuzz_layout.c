/* libFuzzer target: the sanitizer and markdown-lite layout. Sanitizes the input (whole and
 * split in two, which must agree), then lays it out at widths 1, 7 and 80, plain, markdown
 * and streaming, from scratch and grown in two steps (which must agree), and checks every
 * row fits its width, is measured right and points inside the text. */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                              \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "invariant failed: %s (line %d)\n", #cond, \
				__LINE__);                                       \
			abort();                                                 \
		}                                                                \
	} while (0)

static void check_rows(const struct layout *l)
{
	uint32_t next = 0;
	for (size_t r = 0; r < l->nrows; r++) {
		const struct row *row = &l->rows[r];
		CHECK(row->width <= l->width);
		CHECK(row->span_first == next);
		CHECK(row->span_first + row->span_count <= l->nspans);
		int w = row->indent;
		for (uint32_t k = 0; k < row->span_count; k++) {
			const struct span *s = &l->spans[row->span_first + k];
			CHECK((size_t)s->off + s->len <= l->text.len);
			CHECK(memchr(l->text.data + s->off, '\n', s->len) == NULL);
			w += text_width(l->text.data + s->off, s->len);
		}
		CHECK(w == row->width);
		next = row->span_first + row->span_count;
	}
}

static bool same_layout(const struct layout *a, const struct layout *b)
{
	if (a->text.len != b->text.len || a->nspans != b->nspans || a->nrows != b->nrows)
		return false;
	if (a->text.len && memcmp(a->text.data, b->text.data, a->text.len) != 0)
		return false;
	for (size_t i = 0; i < a->nspans; i++) {
		if (a->spans[i].off != b->spans[i].off || a->spans[i].len != b->spans[i].len ||
		    a->spans[i].style != b->spans[i].style)
			return false;
	}
	for (size_t i = 0; i < a->nrows; i++) {
		if (memcmp(&a->rows[i], &b->rows[i], sizeof(a->rows[i])) != 0)
			return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool locale_set;
	if (!locale_set) {
		setlocale(LC_ALL, "C.UTF-8");
		locale_set = true;
	}
	const char *in = (const char *)data;
	size_t cut = size ? data[0] * size / 256 : 0;

	struct buf clean, split;
	buf_init(&clean);
	buf_init(&split);
	sanitize_text(in, size, &clean);
	struct sanitizer s;
	sanitizer_init(&s);
	sanitizer_feed(&s, in, cut, &split);
	sanitizer_feed(&s, in + cut, size - cut, &split);
	sanitizer_flush(&s, &split);
	CHECK(clean.len == split.len &&
	      (clean.len == 0 || memcmp(clean.data, split.data, clean.len) == 0));

	static const int widths[] = { 1, 7, 80 };
	static const unsigned flags[] = { 0, LAYOUT_MARKDOWN, LAYOUT_MARKDOWN | LAYOUT_STREAMING,
					  LAYOUT_MARKDOWN | LAYOUT_REFLOW,
					  LAYOUT_MARKDOWN | LAYOUT_REFLOW | LAYOUT_STREAMING,
					  LAYOUT_FENCES, LAYOUT_LANG(LANG_PYTHON), LAYOUT_LANG(LANG_C) };
	size_t mid = clean.len ? (size > 1 ? data[1] : 0) * clean.len / 256 : 0;
	struct layout whole, grown;
	layout_init(&whole);
	layout_init(&grown);
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
			layout_reset(&whole);
			layout_update(&whole, clean.data, clean.len, widths[w], flags[f]);
			check_rows(&whole);
			layout_reset(&grown);
			layout_update(&grown, clean.data, mid, widths[w], flags[f]);
			check_rows(&grown);
			layout_update(&grown, clean.data, clean.len, widths[w], flags[f]);
			CHECK(same_layout(&whole, &grown));
		}
	}
	layout_fini(&whole);
	layout_fini(&grown);
	buf_fini(&clean);
	buf_fini(&split);
	return 0;
}
