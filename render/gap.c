/* The row of history not loaded: "↑ 1,234 earlier events · loading…" above the item where
 * the gap ends. The viewport shows it as the first row of that item. */
#include "render.h"

#include <stdio.h>
#include <string.h>

size_t gap_rows(struct transcript *t, size_t idx)
{
	return transcript_missing_before(t, idx) > 0;
}

/* n with thousands separators ("1,234"). */
static void group_digits(int64_t n, char *out, size_t cap)
{
	char digits[24];
	int len = snprintf(digits, sizeof digits, "%lld", (long long)(n < 0 ? 0 : n));
	size_t o = 0;
	for (int i = 0; i < len && o + 2 < cap; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
}

void gap_row_fill(struct viewport *v, struct transcript *t, size_t idx, struct view_row *out)
{
	int64_t missing = transcript_missing_before(t, idx);
	size_t slot = v->gap_next++ % VIEWPORT_GAP_ROWS;
	char *text = v->gap_text[slot], n[32];
	group_digits(missing, n, sizeof n);
	const char *note = v->gap_note && *v->gap_note ? v->gap_note : "loads as you scroll here";
	int len = snprintf(text, sizeof v->gap_text[slot], "↑ %s earlier event%s · %s", n,
			   missing == 1 ? "" : "s", note);
	if (len < 0)
		len = 0;
	if ((size_t)len >= sizeof v->gap_text[slot])
		len = (int)sizeof v->gap_text[slot] - 1;
	v->gap_span[slot] = (struct span){ .off = 0, .len = (uint32_t)len, .style = STYLE_DIM };
	*out = (struct view_row){
		.item = idx,
		.row_in_item = 0,
		.kind = ITEM_NOTICE,
		.text = text,
		.spans = &v->gap_span[slot],
		.nspans = 1,
		.indent = 0,
		.gap = true,
	};
}
