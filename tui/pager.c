/* pager: one item full-screen — a card's whole command, thought and output, or a message —
 * wrapped to the width, scrolled with the usual keys, searched with / and n/N, copied with
 * c (the output) and C (the command). q or Esc goes back to exactly the view that was left:
 * the pager never touches the viewport. The item is read again whenever it changes (a result
 * that arrives while it is open shows). */
#include "draw.h"
#include "conv.h"
#include "search.h"
#include "pager.h"
#include "clipboard.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

enum { QUERY_MAX_BYTES = 256 };

struct pager {
	uint64_t uid;
	uint64_t version;
	struct buf title;           /* the item's header row as the transcript shows it */
	struct buf text;            /* what is shown */
	struct buf command, output; /* what C and c copy */
	struct layout l;
	int width;
	size_t top;
	int notice_rows;            /* rows a wrapped notice takes above the bar (last paint) */
	struct buf query;           /* the last search */
	struct buf typed;           /* the search being typed */
	bool typing;
	long match;                 /* row of the current match, -1 when none */
	size_t match_rank, matches; /* its place among the rows that hold the query, top down */
};

static const struct look plain = { 0, 0, 0 };
static const struct look bar_look = { A_REVERSE, 0, A_REVERSE };
static const struct look rule_look = { A_BOLD, 0, A_BOLD };

static const char help_text[] =
	"q back · / search, n/N · c copy output · C copy command · ↑↓ PgUp PgDn Home End";

/* "── name ──" then the section's text and a blank line. */
static void section(struct buf *b, const char *name, const char *s, size_t n)
{
	buf_printf(b, "── %s ──\n", name);
	buf_append(b, s, n);
	if (n && s[n - 1] != '\n')
		buf_putc(b, '\n');
	buf_putc(b, '\n');
}

/* Reads the item again: the header, the text shown and what c and C copy. */
static void compose(struct tui *u, struct pager *p, size_t idx)
{
	struct item_info it;
	transcript_item(u->cur->t, idx, &it);
	buf_clear(&p->title);
	struct view_row h;
	transcript_item_row(u->cur->t, idx, 0, u->cur->vp.width > 0 ? u->cur->vp.width : COLS, &h);
	for (size_t i = 0; i < h.nspans; i++)
		buf_append(&p->title, h.text + h.spans[i].off, h.spans[i].len);
	transcript_view_cache(u->cur->t, idx, &p->version);
	buf_clear(&p->text);
	buf_clear(&p->command);
	buf_clear(&p->output);
	bool card = it.kind == ITEM_TOOL;
	if (card) {
		/* Every argument, whole, once: the card's detail is the same arguments laid out for
		 * the card (a long command again, in fences), so it is shown only without them. */
		if (it.full_action && *it.full_action)
			buf_puts(&p->command, it.full_action);
		else if (it.detail_len)
			buf_append(&p->command, it.detail, it.detail_len);
		else if (it.summary)
			buf_puts(&p->command, it.summary);
		if (it.result_text)
			buf_append(&p->output, it.result_text, it.result_len);
		/* An edit shows as its diff (C still copies the arguments as they came). */
		if (it.detail_len && text_opens_diff(it.detail, it.detail_len))
			section(&p->text, "command", it.detail, it.detail_len);
		else if (p->command.len)
			section(&p->text, "command", p->command.data, p->command.len);
		if (it.text_len)
			section(&p->text, "thought", it.text, it.text_len);
	} else {
		buf_append(&p->output, it.text, it.text_len);
	}
	if (it.reasoning_len)
		section(&p->text, "reasoning", it.reasoning, it.reasoning_len);
	if (card && !it.result_text) {
		section(&p->text, "output", "(no output yet)", 15);
	} else if (card) {
		/* the lines shown: a diff's fences are its rules, not lines of output */
		long long lines = (long long)text_fenced_lines(p->output.data, p->output.len);
		buf_printf(&p->text, "── %s · %lld line%s ──\n", card_result_name(&it), lines,
			   lines == 1 ? "" : "s");
		buf_append(&p->text, p->output.data ? p->output.data : "", p->output.len);
	} else {
		buf_append(&p->text, p->output.data ? p->output.data : "", p->output.len);
	}
	p->width = 0; /* laid out again at the next paint */
}

void pager_open(struct tui *u, size_t idx)
{
	if (idx >= transcript_count(u->cur->t))
		return;
	if (layers_top(&u->layers) == &search_layer)
		search_stop(u); /* the search stops where it stands */
	layers_pop(&u->layers, &pager_layer);
	pager_free(u);
	struct pager *p = xcalloc(1, sizeof *p);
	buf_init(&p->title);
	buf_init(&p->text);
	buf_init(&p->command);
	buf_init(&p->output);
	buf_init(&p->query);
	buf_init(&p->typed);
	layout_init(&p->l);
	p->uid = transcript_uid_at(u->cur->t, idx);
	p->match = -1;
	compose(u, p, idx);
	u->pager = p;
	layers_push(&u->layers, &pager_layer);
	ui_invalidate(&u->ui);
}

void pager_free(struct tui *u)
{
	struct pager *p = u->pager;
	if (!p)
		return;
	buf_fini(&p->title);
	buf_fini(&p->text);
	buf_fini(&p->command);
	buf_fini(&p->output);
	buf_fini(&p->query);
	buf_fini(&p->typed);
	layout_fini(&p->l);
	free(p);
	u->pager = NULL;
}

/* Back to the layer and view it was opened over. */
static void pager_close(struct tui *u)
{
	layers_pop(&u->layers, &pager_layer);
	pager_free(u);
	ui_invalidate(&u->ui);
}

/* ------------------------------------------------------------------ rows */

static int body_rows(const struct pager *p)
{
	int body = LINES > 2 ? LINES - 2 : LINES > 1 ? 1 : 0;
	return body - p->notice_rows >= 1 ? body - p->notice_rows : body;
}

static size_t max_top(const struct pager *p)
{
	size_t body = (size_t)body_rows(p);
	return p->l.nrows > body ? p->l.nrows - body : 0;
}

/* Lays the text out at the screen's width; a new width keeps the place in proportion. */
static void relayout(struct pager *p)
{
	int width = COLS > 0 ? COLS : 1;
	if (p->width == width)
		return;
	size_t old_rows = p->l.nrows, top = p->top;
	layout_reset(&p->l);
	layout_update(&p->l, p->text.data ? p->text.data : "", p->text.len, width, LAYOUT_FENCES);
	if (p->width && old_rows)
		p->top = (size_t)((double)top * (double)p->l.nrows / (double)old_rows);
	p->width = width;
	p->match = -1;
	if (p->top > max_top(p))
		p->top = max_top(p);
}

/* Row r's text, its spans joined. */
static void row_text(const struct pager *p, size_t r, struct buf *out)
{
	const struct row *row = &p->l.rows[r];
	buf_clear(out);
	for (uint32_t i = 0; i < row->span_count; i++) {
		const struct span *s = &p->l.spans[row->span_first + i];
		buf_append(out, p->l.text.data + s->off, s->len);
	}
}

/* How many rows hold the query; *rank gets row at's place among them, top down. */
static size_t count_rows(const struct pager *p, long at, size_t *rank)
{
	struct buf t;
	buf_init(&t);
	size_t n = 0;
	*rank = 0;
	for (size_t r = 0; r < p->l.nrows && p->query.len; r++) {
		row_text(p, r, &t);
		if (!ascii_find_ci(t.data ? t.data : "", t.len, p->query.data, p->query.len))
			continue;
		if ((long)r == at)
			*rank = n + 1;
		n++;
	}
	buf_fini(&t);
	return n;
}

/* The next row after from (before, when back) that holds the query, wrapping; -1 if none. */
static long find_row(const struct pager *p, long from, bool back)
{
	size_t n = p->l.nrows;
	if (!n || !p->query.len)
		return -1;
	struct buf t;
	buf_init(&t);
	long found = -1;
	for (size_t k = 1; k <= n && found < 0; k++) {
		size_t r = (size_t)((from + (back ? -(long)k : (long)k)) % (long)n + (long)n) % n;
		row_text(p, r, &t);
		if (ascii_find_ci(t.data ? t.data : "", t.len, p->query.data, p->query.len))
			found = (long)r;
	}
	buf_fini(&t);
	return found;
}

static void search(struct tui *u, bool back)
{
	struct pager *p = u->pager;
	if (!p->query.len) {
		ui_notice(&u->ui, "/ searches: type the text, then Enter");
		return;
	}
	long from = p->match >= 0 ? p->match : back ? (long)p->top : (long)p->top - 1;
	long r = find_row(p, from, back);
	if (r < 0) {
		ui_notice(&u->ui, "not found: %.60s", buf_cstr(&p->query));
		p->match = -1;
		return;
	}
	size_t body = (size_t)body_rows(p);
	if ((size_t)r < p->top || (size_t)r >= p->top + body)
		p->top = (size_t)r > body / 3 ? (size_t)r - body / 3 : 0;
	if (p->top > max_top(p))
		p->top = max_top(p);
	if ((back && r > from) || (!back && r < from))
		ui_notice(&u->ui, "search wrapped");
	p->match = r;
	p->matches = count_rows(p, r, &p->match_rank);
}

/* ------------------------------------------------------------------ keys */

static void pager_scroll(struct pager *p, long rows)
{
	long top = (long)p->top + rows;
	if (top < 0)
		top = 0;
	if ((size_t)top > max_top(p))
		top = (long)max_top(p);
	p->top = (size_t)top;
}

static void copy(struct tui *u, bool command)
{
	struct pager *p = u->pager;
	const struct buf *b = command ? &p->command : &p->output;
	if (!b->len) {
		ui_notice(&u->ui, command ? "this item has no command to copy" : "no output to copy yet");
		return;
	}
	clipboard_copy(&u->ui, u->o->osc52, u->probe.clipboard, b->data, b->len);
}

static void typing_key(struct tui *u, const struct key_event *ev)
{
	struct pager *p = u->pager;
	switch (ev->kind) {
	case KEYS_ENTER:
		p->typing = false;
		buf_clear(&p->query);
		buf_append(&p->query, p->typed.data ? p->typed.data : "", p->typed.len);
		p->match = -1;
		search(u, false);
		return;
	case KEYS_ESC:
		p->typing = false;
		return;
	case KEYS_BACKSPACE:
		if (!p->typed.len) {
			p->typing = false;
			return;
		}
		while (p->typed.len && ((unsigned char)p->typed.data[--p->typed.len] & 0xC0) == 0x80)
			;
		p->typed.data[p->typed.len] = '\0';
		return;
	case KEYS_CHAR:
		if (!ev->mods && p->typed.len < QUERY_MAX_BYTES)
			buf_put_utf8(&p->typed, ev->cp);
		return;
	case KEYS_PASTE: {
		struct buf clean;
		buf_init(&clean);
		sanitize_text(ev->text, ev->len, &clean);
		for (size_t i = 0; i < clean.len && p->typed.len < QUERY_MAX_BYTES; i++)
			buf_putc(&p->typed, clean.data[i] == '\n' || clean.data[i] == '\t' ? ' '
											: clean.data[i]);
		if (p->typed.data) {
			p->typed.len = utf8_complete_prefix(p->typed.data, p->typed.len);
			p->typed.data[p->typed.len] = '\0';
		}
		buf_fini(&clean);
		return;
	}
	default:
		ui_notice(&u->ui, "Enter searches · Esc cancels");
		return;
	}
}

static long pager_page(const struct pager *p)
{
	return body_rows(p) > 2 ? body_rows(p) - 1 : 1;
}

#define PAGER_ACTION(name, body)                                                       \
	static void name(struct tui *u, struct editor *e, const struct key_event *ev)  \
	{                                                                              \
		(void)e, (void)ev;                                                     \
		struct pager *p = u->pager;                                            \
		(void)p;                                                               \
		body;                                                                  \
	}

PAGER_ACTION(act_line_up, pager_scroll(p, -1))
PAGER_ACTION(act_line_down, pager_scroll(p, 1))
PAGER_ACTION(act_page_up, pager_scroll(p, -pager_page(p)))
PAGER_ACTION(act_page_down, pager_scroll(p, pager_page(p)))
PAGER_ACTION(act_top, p->top = 0)
PAGER_ACTION(act_end, p->top = max_top(p))
PAGER_ACTION(act_search, { p->typing = true; buf_clear(&p->typed); })
PAGER_ACTION(act_next, search(u, false))
PAGER_ACTION(act_prev, search(u, true))
PAGER_ACTION(act_copy_output, copy(u, false))
PAGER_ACTION(act_copy_command, copy(u, true))
PAGER_ACTION(act_close, pager_close(u))
PAGER_ACTION(act_repaint, ui_invalidate(&u->ui))
PAGER_ACTION(act_suspend, ui_suspend(&u->ui))

/* The pager's keys, as the keys overlay lists them (typing a search query is handled above). */
const struct binding pager_bindings[] = {
	BIND(KEYS_UP, 0, 0, act_line_up, "scroll up a line"),
	BIND(KEYS_CHAR, 0, 'k', act_line_up, "scroll up a line"),
	BIND(KEYS_DOWN, 0, 0, act_line_down, "scroll down a line"),
	BIND(KEYS_CHAR, 0, 'j', act_line_down, "scroll down a line"),
	BIND(KEYS_ENTER, 0, 0, act_line_down, "scroll down a line"),
	BIND(KEYS_PGUP, 0, 0, act_page_up, "scroll up a page"),
	BIND(KEYS_CHAR, 0, 'b', act_page_up, "scroll up a page"),
	BIND(KEYS_PGDN, 0, 0, act_page_down, "scroll down a page"),
	BIND(KEYS_CHAR, 0, ' ', act_page_down, "scroll down a page"),
	BIND(KEYS_HOME, 0, 0, act_top, "the top"),
	BIND(KEYS_CHAR, 0, 'g', act_top, "the top"),
	BIND(KEYS_END, 0, 0, act_end, "the end"),
	BIND(KEYS_CHAR, 0, 'G', act_end, "the end"),
	BIND(KEYS_CHAR, 0, '/', act_search, "search in it (Enter searches, Esc cancels)"),
	BIND(KEYS_CHAR, 0, 'n', act_next, "the next match"),
	BIND(KEYS_CHAR, 0, 'N', act_prev, "the previous match"),
	BIND(KEYS_CHAR, 0, 'c', act_copy_output, "copy the whole output"),
	BIND(KEYS_CHAR, 0, 'C', act_copy_command, "copy the command (the whole action)"),
	BIND(KEYS_CHAR, 0, 'q', act_close, "back to the view you left"),
	BIND(KEYS_ESC, 0, 0, act_close, "back to the view you left"),
	BIND(KEYS_CTRL, 0, 'o', act_close, "back to the view you left"),
	BIND(KEYS_CTRL, 0, 'l', act_repaint, "redraw the screen"),
	BIND(KEYS_CTRL, 0, 'z', act_suspend, "suspend tether (fg to come back)"),
};
const size_t pager_bindings_count = sizeof pager_bindings / sizeof *pager_bindings;

/* A key while the pager is open: all are its. */
static enum layer_key pager_key(struct tui *u, const struct key_event *ev)
{
	struct pager *p = u->pager;
	if (p->typing && !(ev->kind == KEYS_CTRL && (ev->cp == 'l' || ev->cp == 'z') && !ev->mods)) {
		typing_key(u, ev);
		return LAYER_KEY_TAKEN;
	}
	if (!keymap_dispatch(pager_bindings, pager_bindings_count, u, NULL, ev))
		ui_notice(&u->ui, "q back · / search · c copy output · C copy command");
	return LAYER_KEY_TAKEN;
}

/* ------------------------------------------------------------------ painting */

static void paint_bar(struct tui *u, int y, const char *s, size_t n)
{
	struct buf fitted;
	buf_init(&fitted);
	status_put_fitted(&fitted, s, n, COLS);
	struct draw_line l = { .nseg = 0, .fill = true, .fill_look = bar_look };
	draw_line_add(&l, buf_cstr(&fitted), fitted.len, bar_look);
	draw_line_paint(&u->paint, y, &l);
	buf_fini(&fitted);
}

static void paint_body_row(struct tui *u, int y, size_t r)
{
	struct pager *p = u->pager;
	const struct row *row = r < p->l.nrows ? &p->l.rows[r] : NULL;
	const char *needle = p->query.len ? p->query.data : NULL;
	uint64_t h = draw_hash_u64(0x7a93c1d5ULL, r < p->l.nrows ? r : ~(uint64_t)0);
	h = draw_hash_u64(h, (uint64_t)(row ? row->indent : 0));
	h = draw_hash_bytes(h, needle ? needle : "", p->query.len);
	bool current = p->match >= 0 && r == (size_t)p->match;
	h = draw_hash_u64(h, current);
	struct buf t;
	buf_init(&t);
	if (row)
		row_text(p, r, &t);
	h = draw_hash_bytes(h, t.data ? t.data : "", t.len);
	for (uint32_t i = 0; row && i < row->span_count; i++)
		h = draw_hash_u64(h, p->l.spans[row->span_first + i].style);
	if (!draw_line_unchanged(&u->paint, y, h)) {
		move(y, 0);
		clrtoeol();
		if (row) {
			/* The section rules the pager adds stand out from the item's text; code and
			 * diffs keep the colours of their spans. */
			bool rule = !row->indent && t.len > 6 && memcmp(t.data, "── ", 6) == 0;
			int x = row->indent < COLS ? row->indent : COLS;
			for (uint32_t i = 0; i < row->span_count; i++) {
				const struct span *sp = &p->l.spans[row->span_first + i];
				struct look look = draw_span_look(rule ? rule_look : plain, sp->style);
				x = draw_highlighted(y, x, COLS, p->l.text.data + sp->off, sp->len, &look,
						     needle, p->query.len, current);
			}
		}
	}
	buf_fini(&t);
}

/* The pager's frame: the item whole, the bar, the notice or the search being typed. */
static void pager_paint(struct tui *u, const struct controller_status *st, int64_t now_us)
{
	(void)now_us;
	draw_painter_fit(&u->paint, 0);
	struct pager *p = u->pager;
	long idx = transcript_index_of(u->cur->t, p->uid);
	if (idx >= 0) {
		uint64_t version;
		transcript_view_cache(u->cur->t, (size_t)idx, &version);
		if (version != p->version) {
			size_t top = p->top;
			compose(u, p, (size_t)idx);
			relayout(p);
			p->top = top > max_top(p) ? max_top(p) : top;
		}
	}
	relayout(p);
	/* a notice wider than the bar takes rows above it: the body gives them up */
	int extra = u->ui.notice && !p->typing && LINES > 1 ? draw_notice_rows(u->ui.notice, COLS - 2) - 1 : 0;
	p->notice_rows = extra < LINES - 2 ? extra : LINES > 2 ? LINES - 3 : 0;
	int body = body_rows(p);
	/* The title gives way to where the view is (and to a waiting confirmation). */
	struct buf b, where;
	buf_init(&b);
	buf_init(&where);
	size_t last = p->top + (size_t)body < p->l.nrows ? p->top + (size_t)body : p->l.nrows;
	buf_printf(&where, "  · rows %zu-%zu of %zu", p->l.nrows ? p->top + 1 : 0, last, p->l.nrows);
	if (p->match >= 0)
		buf_printf(&where, " · match %zu/%zu", p->match_rank, p->matches);
	if (st->awaiting_confirmation)
		buf_puts(&where, " · a confirmation waits: q to answer");
	buf_putc(&where, ' ');
	int room = COLS - 1 - text_width(where.data, where.len);
	buf_putc(&b, ' ');
	if (room >= 8)
		status_put_fitted(&b, p->title.data ? p->title.data : "", p->title.len, room);
	buf_append(&b, where.data, where.len);
	buf_fini(&where);
	if (LINES > 1)
		paint_bar(u, 0, b.data, b.len);
	int y0 = LINES > 1 ? 1 : 0;
	for (int i = 0; i < body; i++)
		paint_body_row(u, y0 + i, p->top + (size_t)i);
	int cy = LINES - 1, cx = 0;
	buf_clear(&b);
	if (p->typing) {
		struct draw_line l = { .nseg = 0 };
		draw_line_puts(&l, "/", rule_look);
		draw_line_add(&l, p->typed.data ? p->typed.data : "", p->typed.len, plain);
		draw_line_puts(&l, "   Enter search · Esc cancel", bar_look);
		draw_line_paint(&u->paint, cy, &l);
		int w = 1 + text_width(p->typed.data ? p->typed.data : "", p->typed.len);
		cx = w < COLS ? w : COLS - 1;
	} else if (u->ui.notice && LINES > 1) {
		/* wrapped, never cut: its first rows over the body's last (for its few seconds) */
		int rows = draw_notice_rows(u->ui.notice, COLS - 2);
		if (rows > LINES - 1)
			rows = LINES - 1;
		size_t n = strlen(u->ui.notice), at = 0;
		for (int i = 0; i < rows; i++) {
			size_t next = 0;
			size_t len = at < n ? text_wrap_row(u->ui.notice + at, n - at,
							   COLS > 2 ? COLS - 2 : 1, &next) : 0;
			buf_clear(&b);
			buf_putc(&b, ' ');
			buf_append(&b, u->ui.notice + at, len);
			buf_putc(&b, ' ');
			paint_bar(u, LINES - rows + i, b.data, b.len);
			at += next;
		}
	} else if (body > 0 || LINES == 1) {
		buf_putc(&b, ' ');
		buf_puts(&b, u->ui.notice ? u->ui.notice : help_text);
		buf_putc(&b, ' ');
		paint_bar(u, cy, b.data, b.len);
	}
	buf_fini(&b);
	move(cy, cx);
	wnoutrefresh(stdscr);
	doupdate();
}

const struct layer pager_layer = {
	.name = "pager",
	.screen = true,
	.key = pager_key,
	.paint = pager_paint,
	.close = pager_close,
};
