/* paint: one frame of the screen from the transcript, the viewport and the status. Lines whose
 * fingerprint did not change since the last frame are not touched; ncurses then sends only
 * the cells that differ, in one doupdate(). All text comes from the transcript, the status or
 * the editors, already sanitized and masked. */
#include "interactive.h"
#include "status.h"
#include "terminal.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

enum paint_pair {
	PAIR_USER = 1,
	PAIR_AGENT,
	PAIR_PENDING,
	PAIR_DONE,
	PAIR_ERROR,
	PAIR_CODE,
	PAIR_NOTICE,
	PAIR_MARKER,
	PAIR_COUNT,
};

/* How one kind of text looks, in colour (attr, pair) and without (mono). */
struct look {
	attr_t attr;
	short pair;
	attr_t mono;
};

static const short pair_colors[PAIR_COUNT] = {
	[PAIR_USER] = COLOR_CYAN,   [PAIR_AGENT] = COLOR_MAGENTA, [PAIR_PENDING] = COLOR_YELLOW,
	[PAIR_DONE] = COLOR_GREEN,  [PAIR_ERROR] = COLOR_RED,     [PAIR_CODE] = COLOR_GREEN,
	[PAIR_NOTICE] = COLOR_BLUE, [PAIR_MARKER] = COLOR_YELLOW,
};

static const struct look body_look[] = {
	[ITEM_USER] = { 0, PAIR_USER, 0 },
	[ITEM_AGENT] = { 0, 0, 0 },
	[ITEM_TOOL] = { A_DIM, 0, A_DIM },
	[ITEM_TOOL_RESULT] = { A_DIM, 0, A_DIM },
	[ITEM_ERROR] = { 0, PAIR_ERROR, A_BOLD },
	[ITEM_NOTICE] = { 0, PAIR_NOTICE, A_DIM },
	[ITEM_SYSTEM] = { A_DIM, 0, A_DIM },
};

static const struct look header_look[] = {
	[ITEM_USER] = { A_BOLD, PAIR_USER, A_BOLD },
	[ITEM_AGENT] = { A_BOLD, PAIR_AGENT, A_BOLD },
	[ITEM_TOOL] = { A_BOLD, PAIR_PENDING, A_BOLD },
	[ITEM_TOOL_RESULT] = { A_DIM, 0, A_DIM },
	[ITEM_ERROR] = { A_BOLD, PAIR_ERROR, A_BOLD | A_UNDERLINE },
	[ITEM_NOTICE] = { 0, PAIR_NOTICE, A_DIM },
	[ITEM_SYSTEM] = { A_DIM, 0, A_DIM },
};

/* A tool card's header says how the call went. */
static const struct look outcome_look[] = {
	[TOOL_PENDING] = { A_BOLD, PAIR_PENDING, A_BOLD },
	[TOOL_DONE] = { A_BOLD, PAIR_DONE, A_BOLD },
	[TOOL_FAILED] = { A_BOLD, PAIR_ERROR, A_BOLD | A_UNDERLINE },
	[TOOL_REJECTED] = { A_BOLD, PAIR_ERROR, A_BOLD | A_UNDERLINE },
	[TOOL_NO_RESULT] = { A_DIM, 0, A_DIM },
};

static const struct look risk_look[] = {
	{ 0, 0, 0 },
	{ A_BOLD, PAIR_PENDING, A_BOLD },
	{ A_BOLD, PAIR_DONE, A_BOLD },
	{ A_BOLD, PAIR_PENDING, A_BOLD },
	{ A_BOLD, PAIR_ERROR, A_BOLD | A_UNDERLINE },
};

static const char *const risk_names[] = { "", "[UNKNOWN] ", "[LOW] ", "[MEDIUM] ", "[HIGH] " };

static const struct {
	uint16_t style;
	struct look look;
} style_looks[] = {
	{ STYLE_BOLD, { A_BOLD, 0, A_BOLD } },
	{ STYLE_ITALIC, { A_ITALIC, 0, A_ITALIC } },
	{ STYLE_CODE, { A_BOLD, PAIR_CODE, A_BOLD } },
	{ STYLE_CODEBLOCK, { 0, PAIR_CODE, A_BOLD } },
	{ STYLE_HEADING, { A_BOLD | A_UNDERLINE, 0, A_BOLD | A_UNDERLINE } },
	{ STYLE_QUOTE, { A_ITALIC, 0, A_ITALIC } },
	{ STYLE_DIM, { A_DIM, 0, A_DIM } },
	{ STYLE_MATCH, { A_REVERSE, 0, A_REVERSE } },
};

static const struct look plain = { 0, 0, 0 };
static const struct look bold = { A_BOLD, 0, A_BOLD };
static const struct look dim = { A_DIM, 0, A_DIM };
static const struct look reverse = { A_REVERSE, 0, A_REVERSE };
static const struct look marker_look = { A_REVERSE | A_BOLD, PAIR_MARKER, A_REVERSE | A_BOLD };
static const struct look notice_look = { A_BOLD, PAIR_PENDING, A_BOLD };

static bool colors;

void paint_init(struct painter *p)
{
	memset(p, 0, sizeof *p);
	colors = terminal_colors();
	if (!colors)
		return;
	for (short i = 1; i < PAIR_COUNT; i++)
		init_pair(i, pair_colors[i], -1);
}

void paint_fini(struct painter *p)
{
	free(p->line_hash);
	free(p->rows);
	memset(p, 0, sizeof *p);
}

void paint_invalidate(struct painter *p)
{
	if (p->line_hash)
		memset(p->line_hash, 0, (size_t)p->lines * sizeof *p->line_hash);
}

static void combine(struct look *acc, const struct look *l)
{
	acc->attr |= l->attr;
	acc->mono |= l->mono;
	if (l->pair)
		acc->pair = l->pair;
}

/* ----------------------------------------------------------------- hashing */

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t hash_u64(uint64_t h, uint64_t v)
{
	return hash_bytes(h, &v, sizeof v);
}

static uint64_t hash_look(uint64_t h, const struct look *l)
{
	h = hash_u64(h, colors ? l->attr : l->mono);
	return hash_u64(h, colors ? (uint64_t)l->pair : 0);
}

/* True when line y already shows what hash h stands for; records h otherwise. 0 is never a
 * fingerprint, so an invalidated line always repaints. */
static bool line_unchanged(struct painter *p, int y, uint64_t h)
{
	h |= 1;
	if (y < 0 || y >= p->lines)
		return true;
	if (p->line_hash[y] == h)
		return true;
	p->line_hash[y] = h;
	return false;
}

/* ----------------------------------------------------------------- drawing */

static bool is_drawable(uint32_t cp)
{
	return !(cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0));
}

static void put_cell(int y, int x, wchar_t *cell, int k, attr_t a, short pair)
{
	cell[k] = 0;
	cchar_t cc;
	setcchar(&cc, cell, a, pair, NULL);
	mvadd_wch(y, x, &cc);
}

/* Draws s[0..n) from column x of line y, not past column maxx; returns the next column.
 * Cells are made the way ncurses and the layout count them: each character of non-zero
 * width starts a cell, zero-width ones join the cell before them. */
static int put_text(int y, int x, int maxx, const char *s, size_t n, const struct look *l)
{
	attr_t a = colors ? l->attr : l->mono;
	short pair = colors ? l->pair : 0;
	size_t at = 0;
	while (at < n && x < maxx) {
		wchar_t cell[CCHARW_MAX + 1];
		if (s[at] == '\t') { /* only the input has tabs; it counts them as one column */
			cell[0] = L' ';
			put_cell(y, x++, cell, 1, a, pair);
			at++;
			continue;
		}
		int w;
		size_t g = grapheme_next(s + at, n - at, &w);
		if (!g || x + w > maxx)
			break;
		int k = 0, cell_x = x, next_x = x;
		for (size_t i = 0; i < g;) {
			uint32_t cp;
			i += utf8_decode(s + at + i, g - i, &cp);
			if (!is_drawable(cp))
				continue;
			int cw = cp_width(cp);
			if (cw > 0) {
				if (k)
					put_cell(y, cell_x, cell, k, a, pair);
				cell[0] = (wchar_t)cp;
				k = 1;
				cell_x = next_x;
				next_x += cw;
			} else if (k && k < CCHARW_MAX - 1) {
				cell[k++] = (wchar_t)cp;
			}
		}
		if (k && cell_x < maxx)
			put_cell(y, cell_x, cell, k, a, pair);
		x += w;
		at += g;
	}
	return x;
}

/* ASCII case-insensitive search, as transcript_search matches. */
static const char *find_ci(const char *s, size_t n, const char *needle, size_t m)
{
	if (!m || m > n)
		return NULL;
	for (size_t i = 0; i + m <= n; i++) {
		size_t j = 0;
		while (j < m) {
			unsigned char a = (unsigned char)s[i + j], b = (unsigned char)needle[j];
			if (a >= 'A' && a <= 'Z')
				a |= 0x20;
			if (b >= 'A' && b <= 'Z')
				b |= 0x20;
			if (a != b)
				break;
			j++;
		}
		if (j == m)
			return s + i;
	}
	return NULL;
}

static int put_highlighted(int y, int x, int maxx, const char *s, size_t n, const struct look *l,
			   const char *needle, size_t m)
{
	const char *hit;
	while (m && (hit = find_ci(s, n, needle, m))) {
		x = put_text(y, x, maxx, s, (size_t)(hit - s), l);
		struct look hl = *l;
		combine(&hl, &reverse);
		x = put_text(y, x, maxx, hit, m, &hl);
		n -= (size_t)(hit - s) + m;
		s = hit + m;
	}
	return put_text(y, x, maxx, s, n, l);
}

/* ------------------------------------------------------------ composed lines */

enum { LINE_MAX_SEGMENTS = 12 };

/* A screen line that is not a transcript row: a few runs of text, optionally filled to the
 * edge with one look (the status line's bar). */
struct line_segment {
	const char *s;
	size_t n;
	struct look look;
};

struct line {
	struct line_segment seg[LINE_MAX_SEGMENTS];
	int nseg;
	bool fill;
	struct look fill_look;
};

static void line_add(struct line *l, const char *s, size_t n, struct look look)
{
	if (l->nseg < LINE_MAX_SEGMENTS && n)
		l->seg[l->nseg++] = (struct line_segment){ s, n, look };
}

static void line_puts(struct line *l, const char *s, struct look look)
{
	line_add(l, s, strlen(s), look);
}

static void line_paint(struct painter *p, int y, const struct line *l)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	h = hash_u64(h, l->fill);
	h = hash_look(h, &l->fill_look);
	for (int i = 0; i < l->nseg; i++) {
		h = hash_bytes(h, l->seg[i].s, l->seg[i].n);
		h = hash_u64(h, l->seg[i].n);
		h = hash_look(h, &l->seg[i].look);
	}
	if (line_unchanged(p, y, h))
		return;
	move(y, 0);
	clrtoeol();
	int x = 0;
	for (int i = 0; i < l->nseg; i++)
		x = put_text(y, x, COLS, l->seg[i].s, l->seg[i].n, &l->seg[i].look);
	if (l->fill) {
		static const char spaces[] = "                                ";
		while (x < COLS) {
			int before = x;
			x = put_text(y, x, COLS, spaces, sizeof spaces - 1, &l->fill_look);
			if (x == before)
				break;
		}
	}
}

/* ------------------------------------------------------------ transcript rows */

static struct look row_look(struct tui *u, const struct view_row *r)
{
	if (!r->header)
		return body_look[r->kind];
	if (r->kind != ITEM_TOOL)
		return header_look[r->kind];
	struct item_info info;
	transcript_item(u->t, r->item, &info);
	return outcome_look[info.outcome];
}

static struct look span_look(struct look base, uint16_t style)
{
	for (size_t i = 0; i < sizeof style_looks / sizeof *style_looks; i++)
		if (style & style_looks[i].style)
			combine(&base, &style_looks[i].look);
	return base;
}

static const char *search_needle(struct tui *u, size_t *m)
{
	*m = 0;
	if (u->mode != TUI_MODE_SEARCH_EDIT && u->mode != TUI_MODE_SEARCH_BROWSE)
		return NULL;
	*m = u->query.text.len;
	return editor_text(&u->query);
}

static void paint_row(struct tui *u, int y, const struct view_row *r)
{
	size_t m;
	const char *needle = search_needle(u, &m);
	struct look base = row_look(u, r);
	uint64_t h = 0x84222325cbf29ce4ULL;
	h = hash_look(h, &base);
	h = hash_u64(h, (uint64_t)r->indent << 2 | (uint64_t)r->header << 1 | r->separator);
	h = hash_bytes(h, needle ? needle : "", m);
	for (size_t i = 0; i < r->nspans; i++) {
		h = hash_u64(h, (uint64_t)r->spans[i].style << 32 | r->spans[i].len);
		h = hash_bytes(h, r->text + r->spans[i].off, r->spans[i].len);
	}
	if (line_unchanged(&u->paint, y, h))
		return;
	move(y, 0);
	clrtoeol();
	if (r->separator)
		return;
	int x = r->indent < COLS ? r->indent : COLS;
	for (size_t i = 0; i < r->nspans && x < COLS; i++) {
		struct look l = span_look(base, r->spans[i].style);
		x = put_highlighted(y, x, COLS, r->text + r->spans[i].off, r->spans[i].len, &l, needle,
				    m);
	}
}

static void paint_blank(struct painter *p, int y)
{
	if (line_unchanged(p, y, 0x5eed))
		return;
	move(y, 0);
	clrtoeol();
}

/* ------------------------------------------------------------------ layout */

/* Where each part of the screen goes this frame, top to bottom. A count of 0 hides a part. */
struct layout_plan {
	int transcript;
	int marker_y;
	int queued_y, queued;
	int prompt_y, prompt;
	int notice_y;
	int status_y;
	int input_y, input;
};

static struct editor *active_editor(struct tui *u)
{
	switch (u->mode) {
	case TUI_MODE_SEARCH_EDIT:
	case TUI_MODE_SEARCH_BROWSE:
		return &u->query;
	case TUI_MODE_REASON:
		return &u->reason;
	case TUI_MODE_INPUT:
	default:
		return &u->input;
	}
}

static const char *input_prefix(struct tui *u)
{
	switch (u->mode) {
	case TUI_MODE_SEARCH_EDIT:
	case TUI_MODE_SEARCH_BROWSE:
		return u->search_failed ? "search (no match): " : "search: ";
	case TUI_MODE_REASON:
		return "reason: ";
	case TUI_MODE_INPUT:
	default:
		return "> ";
	}
}

static bool prompt_visible(struct tui *u, const struct controller_status *st)
{
	return st->awaiting_confirmation && !u->confirm_hidden;
}

static size_t queued_shown(struct tui *u, const struct controller_status *st)
{
	return st->pending_messages < u->nsent ? st->pending_messages : u->nsent;
}

/* Takes up to want rows for an extra part, always leaving one transcript row. */
static int take(int *left, int want)
{
	int n = want < *left - 1 ? want : *left - 1;
	if (n < 0)
		n = 0;
	*left -= n;
	return n;
}

static void plan_layout(struct tui *u, const struct controller_status *st, int in_rows,
			size_t npending_tools, struct layout_plan *L)
{
	int h = LINES;
	memset(L, 0, sizeof *L);
	int max_input = h / 3 > 1 ? h / 3 : 1;
	L->input = in_rows < 1 ? 1 : in_rows > max_input ? max_input : in_rows;
	if (L->input > h)
		L->input = h;
	int left = h - L->input;
	int status = left >= 2 ? 1 : 0;
	left -= status;
	int prompt_want = (int)npending_tools + 1; /* a title line, then one per action */
	if (prompt_want > left / 2)
		prompt_want = left / 2;
	int prompt = prompt_visible(u, st) ? take(&left, prompt_want) : 0;
	int notice = u->notice ? take(&left, 1) : 0;
	int marker = !u->vp.follow ? take(&left, 1) : 0;
	size_t q = queued_shown(u, st);
	int queued = q ? take(&left, q > 3 ? 3 : (int)q) : 0;
	L->transcript = left;
	int y = left;
	L->marker_y = marker ? y : -1;
	y += marker;
	L->queued_y = y;
	L->queued = queued;
	y += queued;
	L->prompt_y = y;
	L->prompt = prompt;
	y += prompt;
	L->notice_y = notice ? y : -1;
	y += notice;
	L->status_y = status ? y : -1;
	y += status;
	L->input_y = y;
}

/* ------------------------------------------------------------- the parts */

static void paint_marker(struct tui *u, int y)
{
	struct buf b;
	buf_init(&b);
	if (u->vp.new_below) {
		buf_puts(&b, " ↓ ");
		status_put_count(&b, (int64_t)u->vp.new_below);
		buf_puts(&b, " new below — End to jump ");
	} else {
		buf_puts(&b, " ↓ more below — End to jump ");
	}
	struct line l = { .nseg = 0 };
	struct buf fitted;
	buf_init(&fitted);
	status_put_fitted(&fitted, buf_cstr(&b), b.len, COLS);
	line_add(&l, buf_cstr(&fitted), fitted.len, marker_look);
	line_paint(&u->paint, y, &l);
	buf_fini(&fitted);
	buf_fini(&b);
}

static void paint_queued(struct tui *u, const struct controller_status *st, int y, int rows)
{
	size_t shown = queued_shown(u, st);
	size_t first = u->nsent - shown;
	for (int i = 0; i < rows; i++) {
		struct line l = { .nseg = 0 };
		struct buf b;
		buf_init(&b);
		size_t idx = first + (size_t)i;
		if (i == rows - 1 && st->pending_messages > (size_t)rows) {
			buf_printf(&b, "⧗ %zu more queued", st->pending_messages - (size_t)rows + 1);
		} else if (idx < u->nsent) {
			const char *s = u->sent[idx];
			const char *nl = strchr(s, '\n');
			buf_puts(&b, "⧗ queued: ");
			buf_append(&b, s, nl ? (size_t)(nl - s) : strlen(s));
			if (nl)
				buf_puts(&b, " …");
		}
		struct buf fitted;
		buf_init(&fitted);
		status_put_fitted(&fitted, buf_cstr(&b), b.len, COLS);
		line_add(&l, buf_cstr(&fitted), fitted.len, dim);
		line_paint(&u->paint, y + i, &l);
		buf_fini(&fitted);
		buf_fini(&b);
	}
}

static void paint_prompt(struct tui *u, int y, int rows, const size_t *idx, size_t n)
{
	struct line l = { .nseg = 0 };
	if (!editor_empty(&u->input) && u->mode == TUI_MODE_INPUT)
		line_puts(&l, "Confirm? /confirm or /reject [reason] (the input is not empty)",
			  notice_look);
	else if (u->mode == TUI_MODE_REASON)
		line_puts(&l, "Reject: type a reason (optional), Enter sends, Esc goes back",
			  notice_look);
	else
		line_puts(&l, "Confirm? y allow · n reject · Esc later", notice_look);
	line_paint(&u->paint, y, &l);
	for (int i = 1; i < rows; i++) {
		struct line a = { .nseg = 0 };
		struct item_info info;
		if ((size_t)i - 1 < n) {
			transcript_item(u->t, idx[i - 1], &info);
			int risk = info.risk >= 0 && info.risk <= 4 ? info.risk : 0;
			line_puts(&a, "  ", plain);
			line_puts(&a, risk_names[risk], risk_look[risk]);
			if (info.title)
				line_puts(&a, info.title, bold);
			if (info.title && info.summary)
				line_puts(&a, ": ", bold);
			if (info.summary)
				line_puts(&a, info.summary, plain);
		}
		line_paint(&u->paint, y + i, &a);
	}
}

static void paint_status(struct tui *u, const struct controller_status *st, int64_t now, int y)
{
	struct buf b;
	buf_init(&b);
	buf_putc(&b, ' ');
	status_format(st, now, COLS - 1, &b);
	struct line l = { .nseg = 0, .fill = true, .fill_look = reverse };
	line_add(&l, buf_cstr(&b), b.len, reverse);
	line_paint(&u->paint, y, &l);
	buf_fini(&b);
}

static void paint_notice(struct tui *u, int y)
{
	struct line l = { .nseg = 0 };
	line_puts(&l, u->notice, notice_look);
	line_paint(&u->paint, y, &l);
}

/* The input area shows the window of the editor's rows that holds the cursor. */
static void paint_input(struct tui *u, const struct layout_plan *L, int *cy, int *cx)
{
	struct editor *e = active_editor(u);
	const char *prefix = input_prefix(u);
	int pw = text_width(prefix, strlen(prefix));
	if (COLS - pw < 1) {
		prefix = "";
		pw = 0;
	}
	int width = COLS - pw;
	u->paint.input_width = width;
	size_t nrows, crow;
	int ccol;
	const struct editor_row *rows = editor_rows(e, width, &nrows);
	editor_cursor_pos(e, width, &crow, &ccol);
	size_t top = crow >= (size_t)L->input ? crow - (size_t)L->input + 1 : 0;
	const char *hint = u->mode == TUI_MODE_SEARCH_BROWSE ? "   n older · N newer · Esc done" : "";
	for (int i = 0; i < L->input; i++) {
		struct line l = { .nseg = 0 };
		size_t r = top + (size_t)i;
		static const char blanks[] = "                                ";
		size_t bw = (size_t)pw < sizeof blanks - 1 ? (size_t)pw : sizeof blanks - 1;
		line_add(&l, r == 0 ? prefix : blanks, r == 0 ? strlen(prefix) : bw, bold);
		if (r < nrows)
			line_add(&l, editor_text(e) + rows[r].start, rows[r].end - rows[r].start, plain);
		if (r == 0 && *hint)
			line_puts(&l, hint, dim);
		line_paint(&u->paint, L->input_y + i, &l);
	}
	*cy = L->input_y + (int)(crow - top);
	*cx = pw + ccol < COLS ? pw + ccol : COLS - 1;
}

static void ensure_size(struct painter *p, int transcript_rows)
{
	if (p->lines != LINES || p->cols != COLS) {
		free(p->line_hash);
		p->lines = LINES;
		p->cols = COLS;
		p->line_hash = xcalloc((size_t)(LINES > 0 ? LINES : 1), sizeof *p->line_hash);
	}
	if ((size_t)transcript_rows > p->rows_cap) {
		p->rows_cap = (size_t)transcript_rows;
		p->rows = xrealloc(p->rows, p->rows_cap * sizeof *p->rows);
	}
}

void paint_frame(struct tui *u, const struct controller_status *st, int64_t now_us)
{
	enum { PROMPT_TOOLS = 8 };
	size_t idx[PROMPT_TOOLS];
	size_t npending = st->awaiting_confirmation ? transcript_pending_tools(u->t, idx, PROMPT_TOOLS) : 0;
	if (npending > PROMPT_TOOLS)
		npending = PROMPT_TOOLS;
	struct editor *e = active_editor(u);
	const char *prefix = input_prefix(u);
	int pw = text_width(prefix, strlen(prefix));
	size_t in_rows;
	editor_rows(e, COLS - pw >= 1 ? COLS - pw : COLS, &in_rows);
	struct layout_plan L;
	plan_layout(u, st, (int)in_rows, npending, &L);
	ensure_size(&u->paint, L.transcript);
	if (u->vp.width != COLS || u->vp.height != L.transcript)
		viewport_resize(&u->vp, u->t, COLS, L.transcript);
	viewport_note_changes(&u->vp, u->t);
	u->paint.nrows = viewport_rows(&u->vp, u->t, u->paint.rows);
	u->paint.transcript_rows = L.transcript;
	for (int y = 0; y < L.transcript; y++) {
		if ((size_t)y < u->paint.nrows)
			paint_row(u, y, &u->paint.rows[y]);
		else
			paint_blank(&u->paint, y);
	}
	if (L.marker_y >= 0)
		paint_marker(u, L.marker_y);
	if (L.queued)
		paint_queued(u, st, L.queued_y, L.queued);
	if (L.prompt)
		paint_prompt(u, L.prompt_y, L.prompt, idx, npending);
	if (L.notice_y >= 0)
		paint_notice(u, L.notice_y);
	if (L.status_y >= 0)
		paint_status(u, st, now_us, L.status_y);
	int cy, cx;
	paint_input(u, &L, &cy, &cx);
	move(cy, cx);
	wnoutrefresh(stdscr);
	doupdate();
}

long paint_focused_reasoning(struct tui *u)
{
	for (size_t i = u->paint.nrows; i-- > 0;) {
		struct item_info info;
		if (u->paint.rows[i].item >= transcript_count(u->t))
			continue;
		transcript_item(u->t, u->paint.rows[i].item, &info);
		if (info.reasoning_len)
			return (long)u->paint.rows[i].item;
	}
	return -1;
}
