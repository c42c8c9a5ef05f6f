/* conv_row: the picker's and the board's shared pieces of a conversation row. */
#include "conv_row.h"

#include <string.h>

void conv_row_flat(const char *s, struct buf *out)
{
	buf_clear(out);
	if (!s || !*s)
		s = "-";
	sanitize_text(s, strlen(s), out);
	for (size_t i = 0; i < out->len; i++)
		if (out->data[i] == '\n' || out->data[i] == '\t')
			out->data[i] = ' ';
}

static bool has_ci(const char *hay, const char *needle, size_t m)
{
	return hay && ascii_find_ci(hay, strlen(hay), needle, m);
}

bool conv_row_matches(const char *title, const char *id, const char *filter, size_t m)
{
	return !m || has_ci(title, filter, m) || has_ci(id, filter, m);
}

bool conv_row_filter_add(struct buf *filter, const char *s, size_t n)
{
	size_t before = filter->len;
	for (size_t i = 0; i < n && s[i] != '\n' && filter->len < CONV_ROW_FILTER_MAX; i++)
		if ((unsigned char)s[i] >= 0x20 && s[i] != 0x7F)
			buf_putc(filter, s[i]);
	/* the cap can cut a character: what stays is whole characters */
	size_t whole = utf8_complete_prefix(filter->data ? filter->data : "", filter->len);
	if (whole < before)
		whole = before;
	if (filter->data) {
		filter->len = whole;
		filter->data[whole] = '\0';
	}
	return filter->len != before;
}

bool conv_row_filter_backspace(struct buf *filter)
{
	if (!filter->len)
		return false;
	size_t n = filter->len - 1;
	while (n > 0 && ((unsigned char)filter->data[n] & 0xC0) == 0x80)
		n--;
	filter->len = n;
	filter->data[n] = '\0';
	return true;
}

void conv_row_status_words(const char *status, struct buf *out)
{
	buf_clear(out);
	for (const char *s = status && *status ? status : "-"; *s; s++)
		buf_append(out, *s == '_' ? " " : s, 1);
}

struct conv_row_cols conv_row_columns(int cols)
{
	struct conv_row_cols c = { 0, 0, 0, 0 };
	c.id = cols >= 30 ? CONV_ROW_SHORT_ID : 0;
	c.updated = cols >= 40 ? 12 : 0;
	c.status = cols >= 60 ? (cols / 5 < 24 ? cols / 5 : 24) : 0;
	c.title = cols - c.id - c.status - c.updated - (c.id ? 2 : 0) - (c.status ? 1 : 0) -
		  (c.updated ? 1 : 0);
	if (c.title < 0)
		c.title = 0;
	return c;
}

void conv_row_no_match(const char *filter, struct buf *out)
{
	struct buf clean;
	buf_init(&clean);
	conv_row_flat(filter, &clean);
	buf_printf(out, "No conversation matches \"%s\" (Backspace or Ctrl-U to edit the filter)",
		   buf_cstr(&clean));
	buf_fini(&clean);
}
