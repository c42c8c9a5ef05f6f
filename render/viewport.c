/* viewport: which rows the reader sees. Following, the view is the last height rows, found by
 * walking items back from the end; scrolled up, it is anchored at (top_item, top_row) and
 * output below never moves it. Every walk stops once a screenful is covered, so a view
 * costs O(visible rows) whatever the transcript's length.
 *
 * new_below counts logical lines (transcript_lines_added: a new item's lines, each newline
 * streamed), not wrapped rows: counting rows would mean laying out output nobody looks at.
 * seen_generation holds that counter as of the last viewport_note_changes.
 *
 * The anchor is the top item's uid (top_uid; top_item is its index as last resolved): items
 * inserted or dropped above it (an older page of history, a late durable, an aborted slot,
 * items trimmed far away) never move the view. When the top item itself is dropped the view
 * stays at the same index. */
#include "render.h"

/* An item's rows: its gap row (history not loaded above it), then its own. */
static size_t rows_of(struct viewport *v, struct transcript *t, size_t i)
{
	return gap_rows(t, i) + transcript_item_rows(t, i, v->width);
}

/* The top item's index from its uid (items above may have come or gone since). */
static void anchor_load(struct viewport *v, struct transcript *t)
{
	if (v->follow || !v->top_uid)
		return;
	long i = transcript_index_of(t, v->top_uid);
	if (i < 0) {
		v->top_row = 0; /* dropped: the item now at its index */
		v->top_uid = 0;
		return;
	}
	v->top_item = (size_t)i;
	/* The same line stays on top when the gap row above the item comes or goes: a page
	 * that filled the gap ends where its row was. */
	size_t g = gap_rows(t, v->top_item);
	if (g > v->top_gap) {
		v->top_row += g - v->top_gap;
	} else if (g < v->top_gap) {
		size_t gone = v->top_gap - g;
		if (v->top_row >= gone) {
			v->top_row -= gone;
		} else if (v->top_item > 0) {
			v->top_item--;
			v->top_row = rows_of(v, t, v->top_item) - 1;
		} else {
			v->top_row = 0;
		}
	}
	v->top_gap = g;
}

static void anchor_save(struct viewport *v, struct transcript *t)
{
	bool in = !v->follow && v->top_item < transcript_count(t);
	v->top_uid = in ? transcript_uid_at(t, v->top_item) : 0;
	v->top_gap = in ? gap_rows(t, v->top_item) : 0;
}

/* The top of a view showing the last height rows; false when everything fits. */
static bool tail_top(struct viewport *v, struct transcript *t, size_t *item, size_t *row)
{
	size_t need = (size_t)v->height;
	for (size_t i = transcript_count(t); i-- > 0;) {
		size_t n = rows_of(v, t, i);
		if (n > need || (n == need && i > 0)) {
			*item = i;
			*row = need ? n - need : n - 1; /* height 0: any row will do */
			return true;
		}
		need -= n;
	}
	*item = 0;
	*row = 0;
	return false;
}

/* True when the rows from (item, row) to the end fit in the view. */
static bool reaches_end(struct viewport *v, struct transcript *t, size_t item, size_t row)
{
	size_t seen = 0, count = transcript_count(t);
	for (size_t i = item; i < count; i++) {
		seen += rows_of(v, t, i) - (i == item ? row : 0);
		if (seen > (size_t)v->height)
			return false;
	}
	return true;
}

static void clamp_top(struct viewport *v, struct transcript *t)
{
	size_t count = transcript_count(t);
	if (!count) {
		v->top_item = 0;
		v->top_row = 0;
		return;
	}
	if (v->top_item >= count) {
		v->top_item = count - 1;
		v->top_row = 0;
	}
	size_t n = rows_of(v, t, v->top_item);
	if (v->top_row >= n)
		v->top_row = n - 1;
}

static void leave_follow(struct viewport *v, struct transcript *t)
{
	v->follow = false;
	v->new_below = 0;
	v->seen_generation = transcript_lines_added(t);
}

void viewport_init(struct viewport *v, int width, int height)
{
	*v = (struct viewport){ .width = width < 1 ? 1 : width, .height = height < 0 ? 0 : height,
				.follow = true };
}

void viewport_follow(struct viewport *v)
{
	v->follow = true;
	v->new_below = 0;
}

void viewport_note_changes(struct viewport *v, struct transcript *t)
{
	uint64_t lines = transcript_lines_added(t);
	if (!v->follow && lines > v->seen_generation)
		v->new_below += (size_t)(lines - v->seen_generation);
	else if (v->follow)
		v->new_below = 0;
	v->seen_generation = lines;
}

void viewport_resize(struct viewport *v, struct transcript *t, int width, int height)
{
	if (width < 1)
		width = 1;
	if (!v->follow && transcript_count(t)) {
		/* The reader's place: the same item on top, at the same fraction of it. */
		anchor_load(v, t);
		clamp_top(v, t);
		size_t before = rows_of(v, t, v->top_item);
		v->width = width;
		size_t after = rows_of(v, t, v->top_item);
		v->top_row = v->top_row * after / before;
		if (v->top_row >= after)
			v->top_row = after - 1;
		anchor_save(v, t);
	}
	v->width = width;
	v->height = height < 0 ? 0 : height;
}

static void scroll_up(struct viewport *v, struct transcript *t, size_t up)
{
	while (up) {
		if (v->top_row >= up) {
			v->top_row -= up;
			return;
		}
		up -= v->top_row + 1;
		if (v->top_item == 0) {
			v->top_row = 0;
			return;
		}
		v->top_item--;
		v->top_row = rows_of(v, t, v->top_item) - 1;
	}
}

static void scroll_down(struct viewport *v, struct transcript *t, size_t down)
{
	size_t count = transcript_count(t);
	while (down) {
		size_t n = rows_of(v, t, v->top_item);
		if (v->top_row + down < n) {
			v->top_row += down;
			return;
		}
		down -= n - v->top_row;
		if (v->top_item + 1 >= count) {
			v->top_row = n - 1;
			return;
		}
		v->top_item++;
		v->top_row = 0;
	}
}

void viewport_scroll(struct viewport *v, struct transcript *t, long rows)
{
	v->scrolls++;
	if (rows == 0 || !transcript_count(t))
		return;
	if (v->follow) {
		if (rows > 0 || !tail_top(v, t, &v->top_item, &v->top_row))
			return; /* already at the bottom, or nothing above */
		leave_follow(v, t);
	}
	anchor_load(v, t);
	clamp_top(v, t);
	if (rows < 0)
		scroll_up(v, t, (size_t)(-(rows + 1)) + 1);
	else
		scroll_down(v, t, (size_t)rows);
	if (reaches_end(v, t, v->top_item, v->top_row))
		viewport_follow(v);
	anchor_save(v, t);
}

void viewport_show_item(struct viewport *v, struct transcript *t, size_t idx)
{
	if (idx >= transcript_count(t))
		return;
	if (reaches_end(v, t, idx, 0)) {
		viewport_follow(v); /* the item is in the last screenful: show the tail */
		return;
	}
	if (v->follow)
		leave_follow(v, t);
	v->top_item = idx;
	v->top_row = 0;
	anchor_save(v, t);
}

size_t viewport_rows(struct viewport *v, struct transcript *t, struct view_row *rows)
{
	size_t count = transcript_count(t), k = 0, height = (size_t)v->height;
	if (v->follow) {
		tail_top(v, t, &v->top_item, &v->top_row);
	} else {
		anchor_load(v, t);
		clamp_top(v, t);
		anchor_save(v, t);
	}
	size_t r = v->top_row;
	for (size_t i = v->top_item; i < count && k < height; i++, r = 0) {
		size_t g = gap_rows(t, i), n = g + transcript_item_rows(t, i, v->width);
		for (; r < n && k < height; r++) {
			if (r < g)
				gap_row_fill(v, t, i, &rows[k++]);
			else
				transcript_item_row(t, i, r - g, v->width, &rows[k++]);
		}
	}
	return k;
}
