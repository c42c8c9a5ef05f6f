#include "editor.h"
#include "render.h"

#include <stdlib.h>
#include <string.h>

enum { EDITOR_HISTORY_MAX = 1000 };

void editor_init(struct editor *e)
{
	memset(e, 0, sizeof *e);
	buf_init(&e->text);
	buf_init(&e->killed);
	e->goal_col = -1;
	e->rows_width = -1;
	e->line_kill_version = UINT64_MAX;
}

void editor_fini(struct editor *e)
{
	buf_fini(&e->text);
	buf_fini(&e->killed);
	for (size_t i = 0; i < e->nhistory; i++)
		free(e->history[i]);
	free(e->history);
	free(e->draft);
	free(e->rows);
	memset(e, 0, sizeof *e);
}

bool editor_empty(const struct editor *e)
{
	return e->text.len == 0;
}

const char *editor_text(const struct editor *e)
{
	return e->text.data ? e->text.data : "";
}

static void moved(struct editor *e)
{
	e->version++;
	e->goal_col = -1;
}

static void edited(struct editor *e)
{
	e->text_version++;
	moved(e);
}

size_t editor_grapheme(const char *s, size_t n, int *width)
{
	if (n == 0) {
		*width = 0;
		return 0;
	}
	if (s[0] == '\t') {
		*width = 1;
		return 1;
	}
	size_t g = grapheme_next(s, n, width);
	if (g == 0)
		g = 1;
	if (*width < 0)
		*width = 0;
	return g;
}

static size_t line_start(const struct editor *e, size_t pos)
{
	while (pos > 0 && e->text.data[pos - 1] != '\n')
		pos--;
	return pos;
}

static size_t line_end(const struct editor *e, size_t pos)
{
	if (pos >= e->text.len)
		return e->text.len;
	const char *nl = memchr(e->text.data + pos, '\n', e->text.len - pos);
	return nl ? (size_t)(nl - e->text.data) : e->text.len;
}

/* The grapheme boundary at or before pos. Clusters never cross a line break, so the scan
 * starts at the line start. */
static size_t boundary_before(const struct editor *e, size_t pos)
{
	size_t at = line_start(e, pos), end = line_end(e, at);
	while (at < pos) {
		int w;
		size_t g = editor_grapheme(e->text.data + at, end - at, &w);
		if (at + g > pos)
			break;
		at += g;
	}
	return at;
}

static size_t prev_boundary(const struct editor *e, size_t pos)
{
	if (pos == 0)
		return 0;
	if (e->text.data[pos - 1] == '\n')
		return pos - 1;
	return boundary_before(e, pos - 1);
}

static size_t next_boundary(const struct editor *e, size_t pos)
{
	if (pos >= e->text.len)
		return e->text.len;
	if (e->text.data[pos] == '\n')
		return pos + 1;
	int w;
	return pos + editor_grapheme(e->text.data + pos, line_end(e, pos) - pos, &w);
}

/* Replaces text[from..to) by s[0..n) and leaves the cursor after the insertion. */
static void splice(struct editor *e, size_t from, size_t to, const char *s, size_t n)
{
	size_t tail = e->text.len - to;
	if (n > to - from)
		buf_reserve(&e->text, n - (to - from));
	if (!e->text.data)
		buf_reserve(&e->text, 0);
	memmove(e->text.data + from + n, e->text.data + to, tail);
	if (n)
		memcpy(e->text.data + from, s, n);
	e->text.len = from + n + tail;
	e->text.data[e->text.len] = '\0';
	e->cursor = from + n;
	edited(e);
}

static void kill_range(struct editor *e, size_t from, size_t to)
{
	if (from >= to)
		return;
	buf_clear(&e->killed);
	buf_append(&e->killed, e->text.data + from, to - from);
	splice(e, from, to, NULL, 0);
}

void editor_set(struct editor *e, const char *s, size_t n)
{
	buf_clear(&e->text);
	buf_append(&e->text, s, n);
	e->cursor = e->text.len;
	edited(e);
}

void editor_insert(struct editor *e, const char *s, size_t n)
{
	struct buf lf, clean;
	buf_init(&lf);
	buf_init(&clean);
	buf_reserve(&lf, n);
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\r')
			lf.data[lf.len++] = s[i];
		else if (i + 1 >= n || s[i + 1] != '\n')
			lf.data[lf.len++] = '\n';
	}
	sanitize_text(lf.data, lf.len, &clean);
	if (clean.len)
		splice(e, e->cursor, e->cursor, clean.data, clean.len);
	buf_fini(&lf);
	buf_fini(&clean);
}

void editor_backspace(struct editor *e)
{
	if (e->cursor > 0)
		splice(e, prev_boundary(e, e->cursor), e->cursor, NULL, 0);
}

void editor_delete(struct editor *e)
{
	if (e->cursor < e->text.len)
		splice(e, e->cursor, next_boundary(e, e->cursor), NULL, 0);
}

void editor_left(struct editor *e)
{
	e->cursor = prev_boundary(e, e->cursor);
	moved(e);
}

void editor_right(struct editor *e)
{
	e->cursor = next_boundary(e, e->cursor);
	moved(e);
}

void editor_line_start(struct editor *e)
{
	e->cursor = line_start(e, e->cursor);
	moved(e);
}

void editor_line_end(struct editor *e)
{
	e->cursor = line_end(e, e->cursor);
	moved(e);
}

/* Bytes of non-ASCII characters count as word characters, so a scan never stops inside one. */
static bool is_word(char c)
{
	unsigned char u = (unsigned char)c;
	return u >= 0x80 || u == '_' || (u >= '0' && u <= '9') || ascii_is_letter(u);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

void editor_word_left(struct editor *e)
{
	size_t p = e->cursor;
	while (p > 0 && !is_word(e->text.data[p - 1]))
		p--;
	while (p > 0 && is_word(e->text.data[p - 1]))
		p--;
	e->cursor = p ? boundary_before(e, p) : 0;
	moved(e);
}

void editor_word_right(struct editor *e)
{
	size_t p = e->cursor, n = e->text.len;
	while (p < n && !is_word(e->text.data[p]))
		p++;
	while (p < n && is_word(e->text.data[p]))
		p++;
	size_t b = boundary_before(e, p);
	e->cursor = b < p ? next_boundary(e, b) : p;
	moved(e);
}

void editor_kill_word_back(struct editor *e)
{
	size_t p = e->cursor;
	while (p > 0 && is_space(e->text.data[p - 1]))
		p--;
	while (p > 0 && !is_space(e->text.data[p - 1]))
		p--;
	kill_range(e, boundary_before(e, p), e->cursor);
}

/* At a line's start the whole draft goes: a second Ctrl-U empties a pasted page. Right after
 * a Ctrl-U that took the line's text, what is killed is the draft as it was before both, so
 * one Ctrl-Y brings all of it back. */
void editor_kill_line_start(struct editor *e)
{
	size_t start = line_start(e, e->cursor);
	if (start < e->cursor) {
		kill_range(e, start, e->cursor);
		e->line_kill_version = e->version;
		return;
	}
	if (e->text.len == 0)
		return;
	struct buf all;
	buf_init(&all);
	buf_append(&all, e->text.data, e->cursor);
	if (e->line_kill_version == e->version)
		buf_append(&all, e->killed.data, e->killed.len);
	buf_append(&all, e->text.data + e->cursor, e->text.len - e->cursor);
	splice(e, 0, e->text.len, NULL, 0);
	buf_fini(&e->killed);
	e->killed = all;
}

void editor_kill_line_end(struct editor *e)
{
	size_t end = line_end(e, e->cursor);
	if (end == e->cursor && end < e->text.len)
		end++;
	kill_range(e, e->cursor, end);
}

void editor_yank(struct editor *e)
{
	if (e->killed.len)
		splice(e, e->cursor, e->cursor, e->killed.data, e->killed.len);
}

static void push_row(struct editor *e, size_t start, size_t end, int width)
{
	if (e->nrows == e->rows_cap) {
		e->rows_cap = e->rows_cap ? e->rows_cap * 2 : 16;
		e->rows = xrealloc(e->rows, e->rows_cap * sizeof *e->rows);
	}
	e->rows[e->nrows++] = (struct editor_row){ start, end, width };
}

static void wrap_line(struct editor *e, size_t at, size_t end, int width)
{
	size_t start = at;
	int col = 0;
	while (at < end) {
		int w;
		size_t g = editor_grapheme(e->text.data + at, end - at, &w);
		if (col > 0 && col + w > width) {
			push_row(e, start, at, col);
			start = at;
			col = 0;
		}
		col += w;
		at += g;
	}
	push_row(e, start, end, col);
	if (col >= width && end > start)
		push_row(e, end, end, 0);
}

const struct editor_row *editor_rows(struct editor *e, int width, size_t *count)
{
	if (width < 1)
		width = 1;
	if (e->rows_width != width || e->rows_version != e->text_version || !e->nrows) {
		e->nrows = 0;
		size_t at = 0;
		for (;;) {
			size_t end = line_end(e, at);
			wrap_line(e, at, end, width);
			if (end >= e->text.len)
				break;
			at = end + 1;
		}
		e->rows_width = width;
		e->rows_version = e->text_version;
	}
	*count = e->nrows;
	return e->rows;
}

static int columns(const struct editor *e, size_t from, size_t to)
{
	int col = 0;
	while (from < to) {
		int w;
		from += editor_grapheme(e->text.data + from, to - from, &w);
		col += w;
	}
	return col;
}

/* The last row starting at or before the cursor holds it: a wrapped row's end is the next
 * row's start. */
static size_t cursor_row(const struct editor_row *rows, size_t count, size_t cursor)
{
	size_t lo = 0, hi = count;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (rows[mid].start <= cursor)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void editor_cursor_pos(struct editor *e, int width, size_t *row, int *col)
{
	size_t n;
	const struct editor_row *rows = editor_rows(e, width, &n);
	size_t r = cursor_row(rows, n, e->cursor);
	*row = r;
	*col = columns(e, rows[r].start, e->cursor);
}

/* The offset in row r closest to goal columns without passing it. In a wrapped row the end
 * belongs to the next row, so the cursor stops before the last grapheme. */
static size_t offset_at(struct editor *e, const struct editor_row *rows, size_t n, size_t r,
			int goal)
{
	bool wrapped = r + 1 < n && rows[r + 1].start == rows[r].end;
	size_t at = rows[r].start, end = rows[r].end;
	int col = 0;
	while (at < end) {
		int w;
		size_t g = editor_grapheme(e->text.data + at, end - at, &w);
		if (col + w > goal || (wrapped && at + g >= end))
			break;
		col += w;
		at += g;
	}
	return at;
}

static bool move_rows(struct editor *e, int width, bool up)
{
	size_t n, r;
	int col;
	editor_cursor_pos(e, width, &r, &col);
	const struct editor_row *rows = editor_rows(e, width, &n);
	if (up ? r == 0 : r + 1 >= n)
		return false;
	int goal = e->goal_col >= 0 ? e->goal_col : col;
	e->cursor = offset_at(e, rows, n, up ? r - 1 : r + 1, goal);
	e->version++;
	e->goal_col = goal;
	return true;
}

bool editor_move_up(struct editor *e, int width)
{
	return move_rows(e, width, true);
}

bool editor_move_down(struct editor *e, int width)
{
	return move_rows(e, width, false);
}

static void show(struct editor *e, const char *s)
{
	editor_set(e, s, strlen(s));
}

bool editor_history_prev(struct editor *e)
{
	if (e->history_pos == 0)
		return false;
	if (e->history_pos == e->nhistory) {
		free(e->draft);
		e->draft = xstrdup(editor_text(e));
	}
	show(e, e->history[--e->history_pos]);
	return true;
}

bool editor_history_next(struct editor *e)
{
	if (e->history_pos >= e->nhistory)
		return false;
	if (++e->history_pos < e->nhistory) {
		show(e, e->history[e->history_pos]);
	} else {
		show(e, e->draft ? e->draft : "");
		free(e->draft);
		e->draft = NULL;
	}
	return true;
}

void editor_history_add(struct editor *e, const char *s)
{
	if (!*s || (e->nhistory && strcmp(e->history[e->nhistory - 1], s) == 0)) {
		e->history_pos = e->nhistory;
		return;
	}
	if (e->nhistory == EDITOR_HISTORY_MAX) {
		free(e->history[0]);
		memmove(e->history, e->history + 1, (e->nhistory - 1) * sizeof *e->history);
		e->nhistory--;
	}
	if (e->nhistory == e->history_cap) {
		e->history_cap = e->history_cap ? e->history_cap * 2 : 16;
		e->history = xrealloc(e->history, e->history_cap * sizeof *e->history);
	}
	e->history[e->nhistory++] = xstrdup(s);
	e->history_pos = e->nhistory;
}

char *editor_take(struct editor *e)
{
	char *s = buf_steal(&e->text);
	editor_history_add(e, s);
	free(e->draft);
	e->draft = NULL;
	e->cursor = 0;
	edited(e);
	return s;
}

void editor_clear(struct editor *e)
{
	buf_clear(&e->text);
	e->cursor = 0;
	e->history_pos = e->nhistory;
	free(e->draft);
	e->draft = NULL;
	edited(e);
}
