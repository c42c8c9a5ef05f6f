/* paint: one frame of the screen from the transcript, the viewport and the status. Lines whose
 * fingerprint did not change since the last frame are not touched; ncurses then sends only
 * the cells that differ, in one doupdate(). All text comes from the transcript, the status or
 * the editors, already sanitized and masked. */
#include "draw.h"
#include "band.h"
#include "terminal.h"
#include "conv.h"
#include "search.h"
#include "paint.h"
#include "status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct look body_look[] = {
	[ITEM_USER] = { 0, PAIR_USER, 0 },
	[ITEM_AGENT] = { 0, 0, 0 },
	/* A card's rows carry their own look: the thought italic, arguments and output dim. */
	[ITEM_TOOL] = { 0, 0, 0 },
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
	[TOOL_BLOCKED] = { A_BOLD, PAIR_ERROR, A_BOLD | A_UNDERLINE },
	[TOOL_STILL_RUNNING] = { A_BOLD, PAIR_PENDING, A_BOLD },
	[TOOL_TIMED_OUT] = { A_BOLD, PAIR_ERROR, A_BOLD | A_UNDERLINE },
};

static const struct look plain = { 0, 0, 0 };
static const struct look bold = { A_BOLD, 0, A_BOLD };
static const struct look dim = { A_DIM, 0, A_DIM };
static const struct look marker_look = { A_REVERSE | A_BOLD, PAIR_MARKER, A_REVERSE | A_BOLD };
static const struct look notice_look = { A_BOLD, PAIR_PENDING, A_BOLD };
static const struct look status_look = { A_REVERSE, 0, A_REVERSE };
static const struct look strip_look = { A_REVERSE | A_BOLD, 0, A_REVERSE | A_BOLD };
/* The focused item's header: a bar, in colour and without. */
static const struct look focus_look = { A_REVERSE, 0, A_REVERSE };

void paint_init(struct painter *p, enum theme_kind theme)
{
	memset(p, 0, sizeof *p);
	draw_init(theme);
	band_init(terminal_output_fd());
	terminal_on_repaint(band_release);
}

void paint_fini(struct painter *p)
{
	band_fini();
	free(p->line_hash);
	free(p->row_hash);
	free(p->rows);
	memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------ transcript rows */

static struct look row_look(struct tui *u, const struct view_row *r)
{
	if (!r->header)
		return body_look[r->kind];
	if (r->kind != ITEM_TOOL)
		return header_look[r->kind];
	struct item_info info;
	transcript_item(u->cur->t, r->item, &info);
	return outcome_look[info.outcome];
}

static const char *search_needle(struct tui *u, size_t *m)
{
	*m = 0;
	if (layers_top(&u->layers) != &search_layer)
		return NULL;
	*m = u->query.text.len;
	return editor_text(&u->query);
}

/* The items the keys act on this frame: the focused one, Tab's and Ctrl-O's; and the search's
 * text, whose matches are marked. */
struct targets {
	long focused, tab, open;
	const char *needle;
	size_t m;
};

/* After a card's "… N more lines": the keys that act on this card now, so that a card
 * never offers a key that would act on another one. */
static const char *more_hint(struct tui *u, const struct view_row *r, const struct targets *k)
{
	if (!r->more)
		return "";
	bool tab = k->tab >= 0 && r->item == (size_t)k->tab;
	bool open = k->open >= 0 && r->item == (size_t)k->open;
	struct item_info info;
	transcript_item(u->cur->t, r->item, &info);
	if (tab && open)
		return info.expanded ? " · Tab folds · Ctrl-O opens" : " · Tab expands · Ctrl-O opens";
	if (tab)
		return info.expanded ? " · Tab folds" : " · Tab expands";
	if (open)
		return " · Ctrl-O opens";
	return " · Alt-↑/↓ selects";
}

/* How a transcript row is drawn this frame, beyond its text. */
struct row_look {
	struct look base;
	bool current, bar;
	const char *needle, *hint;
	size_t m;
};

static void row_look_of(struct tui *u, const struct view_row *r, const struct targets *k,
			struct row_look *rl)
{
	rl->needle = k->needle;
	rl->m = k->m;
	/* The current match's item in reverse video, the other matches underlined. */
	rl->current = rl->needle && u->cur->search.match >= 0 &&
		      r->item == (size_t)u->cur->search.match;
	rl->base = row_look(u, r);
	rl->bar = r->header && k->focused >= 0 && r->item == (size_t)k->focused;
	rl->hint = more_hint(u, r, k);
	if (rl->bar)
		draw_combine(&rl->base, &focus_look);
}

/* The fingerprint of a transcript row as this frame draws it. */
static uint64_t row_hash(struct tui *u, const struct view_row *r, const struct targets *k)
{
	struct row_look rl;
	row_look_of(u, r, k, &rl);
	uint64_t h = 0x84222325cbf29ce4ULL;
	h = draw_hash_look(h, &rl.base);
	h = draw_hash_u64(h, (uint64_t)rl.current << 41 | (uint64_t)rl.bar << 40 |
				     (uint64_t)r->indent << 2 | (uint64_t)r->header << 1 | r->separator);
	h = draw_hash_bytes(h, rl.needle ? rl.needle : "", rl.m);
	h = draw_hash_bytes(h, rl.hint, strlen(rl.hint));
	for (size_t i = 0; i < r->nspans; i++) {
		h = draw_hash_u64(h, (uint64_t)r->spans[i].style << 32 | r->spans[i].len);
		h = draw_hash_bytes(h, r->text + r->spans[i].off, r->spans[i].len);
	}
	return h;
}

static void paint_row(struct tui *u, int y, const struct view_row *r, const struct targets *k,
		      uint64_t h)
{
	if (draw_line_unchanged(&u->paint, y, h))
		return;
	struct row_look rl;
	row_look_of(u, r, k, &rl);
	draw_clear_line(y);
	if (r->separator) {
		draw_line_done();
		return;
	}
	int x = r->indent < COLS ? r->indent : COLS;
	for (size_t i = 0; i < r->nspans && x < COLS; i++) {
		struct look l = draw_span_look(rl.base, r->spans[i].style);
		x = draw_highlighted(y, x, COLS, r->text + r->spans[i].off, r->spans[i].len, &l,
				     rl.needle, rl.m, rl.current);
	}
	if (*rl.hint && x < COLS)
		x = draw_text(y, x, COLS, rl.hint, strlen(rl.hint), &dim);
	if (rl.bar && x < COLS) {
		/* The bar runs to the edge, so that the focus shows whatever the header's length. */
		static const char blanks[] = "                                ";
		while (x < COLS)
			x = draw_text(y, x, COLS, blanks, sizeof blanks - 1, &rl.base);
	}
	draw_line_done();
}

enum { BLANK_ROW_HASH = 0x5eed };

static void paint_blank(struct painter *p, int y)
{
	if (draw_line_unchanged(p, y, BLANK_ROW_HASH))
		return;
	draw_clear_line(y);
	draw_line_done();
}

/* ------------------------------------------------------------------ layout */

/* Where each part of the screen goes this frame, top to bottom. A count of 0 hides a part. */
struct layout_plan {
	int transcript;
	int marker_y;
	int queued_y, queued;
	int prompt_y, prompt;
	int notice_y, notice;
	int status_y;
	int input_y, input;
};

/* The editor the input line shows: the prompt layer's, else the draft. */
static struct editor *active_editor(struct tui *u)
{
	const struct layer *l = layers_prompt(&u->layers);
	return l && l->editor ? l->editor(u) : &u->input;
}

/* The words before the input: the prompt layer's, else "> ". */
static const char *input_prefix(struct tui *u, char *buf, size_t size)
{
	const struct layer *l = layers_prompt(&u->layers);
	return l && l->prefix ? l->prefix(u, buf, size) : "> ";
}

/* Messages not sent yet, as the outbox lists them. */
static size_t queued_shown(const struct controller_status *st)
{
	return st->pending_messages;
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
			struct layout_plan *L)
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
	/* The modal takes what it needs, up to all but a few transcript rows: the action is what
	 * the user must read now. */
	int prompt = 0;
	const struct layer *over = layers_prompt(&u->layers);
	int want = over && over->rows ? over->rows(u, st, COLS) : 0;
	if (want) {
		int most = left > 6 ? left - 3 : left;
		prompt = take(&left, want < most ? want : most);
	}
	int notice = u->ui.notice ? take(&left, draw_notice_rows(u->ui.notice, COLS)) : 0;
	int marker = !u->cur->vp.follow ? take(&left, 1) : 0;
	size_t q = queued_shown(st);
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
	L->notice = notice;
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
	if (u->cur->vp.new_below) {
		buf_puts(&b, " ↓ ");
		status_put_new_below(&b, u->cur->vp.new_below);
		buf_puts(&b, " — End to jump ");
	} else {
		buf_puts(&b, " ↓ more below — End to jump ");
	}
	struct draw_line l = { .nseg = 0 };
	struct buf fitted;
	buf_init(&fitted);
	status_put_fitted(&fitted, buf_cstr(&b), b.len, COLS);
	draw_line_add(&l, buf_cstr(&fitted), fitted.len, marker_look);
	draw_line_paint(&u->paint, y, &l);
	buf_fini(&fitted);
	buf_fini(&b);
}

static void paint_queued(struct tui *u, const struct controller_status *st, int y, int rows)
{
	size_t n = st->pending_messages;
	const struct outbox_message *shown = st->queued;
	for (int i = 0; i < rows; i++) {
		struct draw_line l = { .nseg = 0 };
		struct buf b, clean;
		buf_init(&b);
		buf_init(&clean);
		if (i == rows - 1 && n > (size_t)rows) {
			buf_printf(&b, "⧗ %zu more queued", n - (size_t)rows + 1);
		} else if ((size_t)i < n && (size_t)i < sizeof st->queued / sizeof *st->queued) {
			/* As it will show once sent: sanitized and masked (a secret the user pasted
			 * is hidden like the server's copy of it will be). */
			controller_clean(u->cur->ctl, shown[i].text, strlen(shown[i].text), &clean);
			const char *s = buf_cstr(&clean);
			const char *nl = strchr(s, '\n');
			buf_puts(&b, "⧗ queued: ");
			buf_append(&b, s, nl ? (size_t)(nl - s) : strlen(s));
			if (nl)
				buf_puts(&b, " …");
		}
		struct buf fitted;
		buf_init(&fitted);
		status_put_fitted(&fitted, buf_cstr(&b), b.len, COLS);
		draw_line_add(&l, buf_cstr(&fitted), fitted.len, dim);
		draw_line_paint(&u->paint, y + i, &l);
		buf_fini(&fitted);
		buf_fini(&clean);
		buf_fini(&b);
	}
}

static void paint_status(struct tui *u, const struct controller_status *st, int64_t now, int y)
{
	struct buf b, strip, fitted;
	buf_init(&b);
	buf_init(&strip);
	buf_init(&fitted);
	buf_putc(&strip, ' ');
	conv_strip(u, false, &strip);
	/* The strip comes first: with many open, where the others need you beats the host. */
	int strip_width = text_width(strip.data, strip.len);
	if (strip_width > COLS / 2) {
		buf_clear(&strip);
		buf_putc(&strip, ' ');
		conv_strip(u, true, &strip);
		strip_width = text_width(strip.data, strip.len);
	}
	if (strip_width > COLS / 2) {
		status_put_fitted(&fitted, strip.data, strip.len, COLS / 2);
		buf_clear(&strip);
		buf_append(&strip, fitted.data, fitted.len);
		strip_width = text_width(strip.data, strip.len);
	}
	/* Other modes show their own keys where the user types. */
	status_format(st, now, COLS - strip_width, !u->layers.n ? STATUS_KEY_HINT : 0,
		      &b);
	struct draw_line l = { .nseg = 0, .fill = true, .fill_look = status_look };
	draw_line_add(&l, strip.data, strip.len, strip_look);
	draw_line_add(&l, buf_cstr(&b), b.len, status_look);
	draw_line_paint(&u->paint, y, &l);
	buf_fini(&fitted);
	buf_fini(&strip);
	buf_fini(&b);
}

/* A notice often ends with the next step: wrapped at words, never cut at the width. */
static void paint_notice(struct tui *u, int y, int rows)
{
	size_t n = strlen(u->ui.notice), at = 0;
	for (int i = 0; i < rows; i++) {
		struct draw_line l = { .nseg = 0 };
		size_t next = 0;
		size_t len = at < n ? text_wrap_row(u->ui.notice + at, n - at, COLS > 0 ? COLS : 1, &next) : 0;
		draw_line_add(&l, u->ui.notice + at, len, notice_look);
		draw_line_paint(&u->paint, y + i, &l);
		at += next;
	}
}

/* The input area shows the window of the editor's rows that holds the cursor. */
static void paint_input(struct tui *u, const struct layout_plan *L, int *cy, int *cx)
{
	struct editor *e = active_editor(u);
	char prefix_buf[256];
	const char *prefix = input_prefix(u, prefix_buf, sizeof prefix_buf);
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
	const struct layer *over = layers_prompt(&u->layers);
	const char *hint = over && over->hint ? over->hint(u) : "";
	for (int i = 0; i < L->input; i++) {
		struct draw_line l = { .nseg = 0 };
		size_t r = top + (size_t)i;
		static const char blanks[] = "                                ";
		size_t bw = (size_t)pw < sizeof blanks - 1 ? (size_t)pw : sizeof blanks - 1;
		draw_line_add(&l, r == 0 ? prefix : blanks, r == 0 ? strlen(prefix) : bw, bold);
		if (r < nrows)
			draw_line_add(&l, editor_text(e) + rows[r].start, rows[r].end - rows[r].start, plain);
		if (r == 0 && *hint)
			draw_line_puts(&l, hint, dim);
		/* An empty prompt says what it is for and where the keys are. */
		if (r == 0 && !u->layers.n && editor_empty(e))
			draw_line_puts(&l, "message the agent · ? for keys · /help", dim);
		draw_line_paint(&u->paint, L->input_y + i, &l);
	}
	*cy = L->input_y + (int)(crow - top);
	*cx = pw + ccol < COLS ? pw + ccol : COLS - 1;
}

static long focus_in_view(struct tui *u);

void paint_frame(struct tui *u, const struct controller_status *st, int64_t now_us)
{
	struct editor *e = active_editor(u);
	char prefix_buf[256];
	const char *prefix = input_prefix(u, prefix_buf, sizeof prefix_buf);
	int pw = text_width(prefix, strlen(prefix));
	size_t in_rows;
	editor_rows(e, COLS - pw >= 1 ? COLS - pw : COLS, &in_rows);
	struct layout_plan L;
	plan_layout(u, st, (int)in_rows, &L);
	draw_painter_fit(&u->paint, L.transcript);
	/* While an answer streams and nothing is typed the cursor is hidden and left where the
	 * frame's writing ends. While no layer is open tether writes the screen itself (band.h):
	 * a streamed frame is a line or two of it, and ncurses' update cost more than all the
	 * rest of the frame. Any other frame is ncurses' again, whole. */
	bool park = transcript_open_streams(u->cur->t) && editor_empty(e) && !u->layers.n &&
		    L.prompt == 0;
	bool own_band = !u->layers.n && L.prompt == 0 && band_possible(LINES);
	if (!own_band || !band_holds(LINES, COLS))
		band_release();
	/* The frame that takes the band back is ncurses': its update draws the lines whole. */
	if (band_take_released()) {
		draw_painter_forget(&u->paint);
		own_band = false;
	}
	if (u->cur->vp.width != COLS || u->cur->vp.height != L.transcript)
		viewport_resize(&u->cur->vp, u->cur->t, COLS, L.transcript);
	viewport_note_changes(&u->cur->vp, u->cur->t);
	u->paint.nrows = viewport_rows(&u->cur->vp, u->cur->t, u->paint.rows);
	u->paint.transcript_rows = L.transcript;
	struct targets k = { .focused = focus_in_view(u), .tab = -1, .open = -1 };
	k.needle = search_needle(u, &k.m);
	/* Only a capped card's count row names them: most frames need not look for them. */
	for (size_t i = 0; i < u->paint.nrows; i++)
		if (u->paint.rows[i].more) {
			k.tab = paint_tab_target(u);
			k.open = paint_open_target(u);
			break;
		}
	/* The rows' fingerprints first: when the transcript grew at the bottom the screen is
	 * scrolled, and only the rows that differ are drawn. */
	uint64_t *want = u->paint.row_hash;
	for (int y = 0; y < L.transcript; y++)
		want[y] = (size_t)y < u->paint.nrows ? row_hash(u, &u->paint.rows[y], &k)
						     : BLANK_ROW_HASH;
	if (own_band)
		band_begin(LINES, COLS);
	draw_scroll_to(&u->paint, want, L.transcript);
	for (int y = 0; y < L.transcript; y++) {
		if ((size_t)y < u->paint.nrows)
			paint_row(u, y, &u->paint.rows[y], &k, want[y]);
		else
			paint_blank(&u->paint, y);
	}
	if (L.marker_y >= 0)
		paint_marker(u, L.marker_y);
	if (L.queued)
		paint_queued(u, st, L.queued_y, L.queued);
	if (L.prompt)
		layers_prompt(&u->layers)->paint_rows(u, L.prompt_y, L.prompt);
	if (L.notice_y >= 0)
		paint_notice(u, L.notice_y, L.notice);
	if (L.status_y >= 0)
		paint_status(u, st, now_us, L.status_y);
	int cy, cx;
	paint_input(u, &L, &cy, &cx);
	draw_cursor(&u->paint, park, cy, cx);
	/* A frame tether wrote itself left ncurses' window as it was: nothing to update. */
	if (band_writing()) {
		band_end(park ? -1 : cy, cx);
		return;
	}
	wnoutrefresh(stdscr);
	doupdate();
}

/* Whether row i of the last frame shows item idx. */
static bool in_view(struct tui *u, size_t idx)
{
	for (size_t i = 0; i < u->paint.nrows; i++)
		if (u->paint.rows[i].item == idx)
			return true;
	return false;
}

long paint_focused(struct tui *u)
{
	return u->cur->focus_uid ? transcript_index_of(u->cur->t, u->cur->focus_uid) : -1;
}

/* Scrolled out of view (or gone), the focus goes back to the newest card in view. */
static long focus_in_view(struct tui *u)
{
	long idx = paint_focused(u);
	if (idx < 0 || !in_view(u, (size_t)idx)) {
		u->cur->focus_uid = 0;
		return -1;
	}
	return idx;
}

static bool is_card(enum item_kind k)
{
	return k == ITEM_TOOL || k == ITEM_TOOL_RESULT;
}

long paint_open_target(struct tui *u)
{
	long f = paint_focused(u);
	if (f >= 0)
		return f;
	for (size_t i = u->paint.nrows; i-- > 0;) {
		size_t idx = u->paint.rows[i].item;
		if (idx < transcript_count(u->cur->t)) {
			struct item_info info;
			transcript_item(u->cur->t, idx, &info);
			if (is_card(info.kind))
				return (long)idx;
		}
	}
	return -1;
}

long paint_tab_target(struct tui *u)
{
	long f = paint_focused(u);
	if (f >= 0)
		return f;
	for (size_t i = u->paint.nrows; i-- > 0;) {
		size_t idx = u->paint.rows[i].item;
		if (idx >= transcript_count(u->cur->t))
			continue;
		struct item_info info;
		transcript_item(u->cur->t, idx, &info);
		/* Tab also opens the system prompt, whose text is collapsed like reasoning. */
		if (info.reasoning_len || (info.kind == ITEM_SYSTEM && info.text_len) ||
		    transcript_item_capped(u->cur->t, idx, u->cur->vp.width))
			return (long)idx;
	}
	return -1;
}
