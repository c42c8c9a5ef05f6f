/* draw: cells, highlights and fingerprinted lines: into ncurses' window, or written by tether
 * itself while it holds the screen (band.h). */
#include "draw.h"
#include "band.h"
#include "terminal.h"

#include <stdlib.h>
#include <string.h>

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
	{ STYLE_LINK, { A_UNDERLINE, 0, A_UNDERLINE } },
	/* curses has no strikethrough attribute: struck text is dimmed, its ~~ hidden */
	{ STYLE_STRIKE, { A_DIM, 0, A_DIM } },
};

/* Without colour a diff keeps its -/+ marks and the changed words are underlined. */
static const struct look token_looks[TOKEN_COUNT] = {
	[TOKEN_KEYWORD] = { A_BOLD, PAIR_KEYWORD, A_BOLD },
	[TOKEN_STRING] = { 0, PAIR_STRING, 0 },
	[TOKEN_COMMENT] = { A_DIM | A_ITALIC, PAIR_COMMENT, A_DIM },
	[TOKEN_NUMBER] = { 0, PAIR_NUMERAL, 0 },
	[TOKEN_DIFF_FILE] = { A_BOLD, 0, A_BOLD },
	[TOKEN_DIFF_HUNK] = { 0, PAIR_DIFF_HUNK, A_DIM },
	[TOKEN_DIFF_DEL] = { 0, PAIR_DIFF_DEL, 0 },
	[TOKEN_DIFF_ADD] = { 0, PAIR_DIFF_ADD, 0 },
	[TOKEN_DIFF_DEL_WORD] = { A_REVERSE, PAIR_DIFF_DEL, A_UNDERLINE },
	[TOKEN_DIFF_ADD_WORD] = { A_REVERSE, PAIR_DIFF_ADD, A_UNDERLINE },
};

static const struct look reverse = { A_REVERSE, 0, A_REVERSE };
static const struct look underline = { A_UNDERLINE, 0, A_UNDERLINE };

static bool colors;
static enum theme_kind shown = THEME_DARK;

/* Tab is the key that expands a card (bindings.c). */
static const struct render_words words = { .expand_hint = "Tab to expand" };

void draw_init(enum theme_kind theme)
{
	render_set_words(&words);
	band_forget_looks();
	colors = terminal_colors();
	shown = theme;
	if (!colors)
		return;
	for (short i = 1; i < PAIR_COUNT; i++)
		init_pair(i, theme_color((enum draw_pair)i, theme, COLORS), -1);
}

bool draw_set_theme(enum theme_kind theme)
{
	if (theme == shown)
		return false;
	draw_init(theme);
	return colors;
}

struct look draw_span_look(struct look base, uint16_t style)
{
	unsigned token = STYLE_TOKEN_OF(style);
	for (size_t i = 0; i < sizeof style_looks / sizeof *style_looks; i++)
		if ((style & style_looks[i].style) && !(token && style_looks[i].style == STYLE_DIM))
			draw_combine(&base, &style_looks[i].look);
	if (token && token < TOKEN_COUNT) {
		/* without colour a diff's lines are plain (code is bold): the marks say it */
		if (token >= TOKEN_DIFF_FILE)
			base.mono &= ~(attr_t)A_BOLD;
		draw_combine(&base, &token_looks[token]);
		if (!token_looks[token].pair)
			base.pair = 0;
	}
	return base;
}

void draw_combine(struct look *acc, const struct look *l)
{
	acc->attr |= l->attr;
	acc->mono |= l->mono;
	if (l->pair)
		acc->pair = l->pair;
}

/* ----------------------------------------------------------------- hashing */

/* Eight bytes a step (every visible row is fingerprinted every frame): each word is mixed in
 * with a multiply and a rotation, the length last, so that a shorter text padded with zeros
 * does not collide with a longer one. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v * 0x9e3779b97f4a7c15ULL;
	h = (h << 27 | h >> 37) * 0x100000001b3ULL;
	return h;
}

uint64_t draw_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = mix(h, w);
	}
	if (i < n) {
		uint64_t w = 0;
		memcpy(&w, s + i, n - i);
		h = mix(h, w);
	}
	return mix(h, n);
}

uint64_t draw_hash_u64(uint64_t h, uint64_t v)
{
	return mix(h, v);
}

uint64_t draw_hash_look(uint64_t h, const struct look *l)
{
	h = draw_hash_u64(h, colors ? l->attr : l->mono);
	return draw_hash_u64(h, colors ? (uint64_t)l->pair : 0);
}

/* 0 is never a fingerprint, so an invalidated line always repaints. */
bool draw_line_unchanged(struct painter *p, int y, uint64_t h)
{
	h |= 1;
	if (y < 0 || y >= p->lines)
		return true;
	if (p->line_hash[y] == h)
		return true;
	p->line_hash[y] = h;
	return false;
}

/* How many of the wanted fingerprints want[0..n) are on screen k lines lower (k < 0:
 * higher). */
static int kept_under(const uint64_t *have, const uint64_t *want, int n, int k)
{
	int kept = 0;
	for (int y = k < 0 ? -k : 0; y < n && y + k < n; y++)
		kept += (want[y] | 1) == have[y + k];
	return kept;
}

/* The shift k (0 < |k| < n - 2) under which most of want[0..n) are already on screen,
 * if it keeps more lines than no shift does; 0 when none does. A first line that matches
 * (the top one for a scroll up, the bottom one for a scroll down) picks the candidates. */
static int best_shift(const struct painter *p, const uint64_t *want, int n)
{
	const uint64_t *have = p->line_hash;
	int kept_in_place = kept_under(have, want, n, 0);
	if (kept_in_place >= n - 1)
		return 0;
	int best = 0, best_kept = kept_in_place + 2;
	for (int k = -(n - 3); k < n - 2; k++) {
		if (!k || (k > 0 ? (want[0] | 1) != have[k] : (want[-k] | 1) != have[0]))
			continue;
		int kept = kept_under(have, want, n, k);
		if (kept > best_kept) {
			best = k;
			best_kept = kept;
		}
	}
	return best;
}

int draw_scroll_to(struct painter *p, const uint64_t *want, int n)
{
	if (n > p->lines)
		n = p->lines;
	int k = n > 3 ? best_shift(p, want, n) : 0;
	if (!k)
		return 0;
	int rc = OK;
	if (band_writing()) {
		if (!band_scroll(n, k))
			return 0;
	} else {
		/* ncurses scrolls its copy of lines 0..n-1; its update finds the lines moved and
		 * sends a scroll, so nothing of the kept lines is drawn again. */
		scrollok(stdscr, TRUE);
		wsetscrreg(stdscr, 0, n - 1);
		rc = wscrl(stdscr, k);
		wsetscrreg(stdscr, 0, LINES - 1);
		scrollok(stdscr, FALSE);
	}
	if (rc != OK) {
		draw_painter_forget(p);
		return 0;
	}
	int m = k > 0 ? k : -k;
	uint64_t *h = p->line_hash;
	if (k > 0) {
		memmove(h, h + m, (size_t)(n - m) * sizeof *h);
		memset(h + (n - m), 0, (size_t)m * sizeof *h);
	} else {
		memmove(h + m, h, (size_t)(n - m) * sizeof *h);
		memset(h, 0, (size_t)m * sizeof *h);
	}
	return k;
}

/* ----------------------------------------------------------------- drawing */

static bool is_drawable(uint32_t cp)
{
	return !(cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0));
}

static bool is_plain_ascii(char c)
{
	return c >= 0x20 && c < 0x7F;
}

static void put_cell(int y, int x, wchar_t *cell, int k, int w, attr_t a, short pair)
{
	if (band_writing()) {
		band_put_cell(x, w, cell, k, a, pair);
		return;
	}
	(void)w;
	cell[k] = 0;
	cchar_t cc;
	setcchar(&cc, cell, a, pair, NULL);
	mvadd_wch(y, x, &cc);
}

/* Cells are made the way ncurses and the layout count them: each character of non-zero
 * width starts a cell, zero-width ones join the cell before them. */
int draw_text(int y, int x, int maxx, const char *s, size_t n, const struct look *l)
{
	attr_t a = colors ? l->attr : l->mono;
	short pair = colors ? l->pair : 0;
	size_t at = 0;
	bool band_on = band_writing();
	while (at < n && x < maxx) {
		/* Printable ASCII followed by ASCII is a cell of its own: nothing to decode. */
		if (band_on) {
			size_t r = at;
			while (r < n && x + (int)(r - at) < maxx && is_plain_ascii(s[r]) &&
			       (r + 1 == n || (unsigned char)s[r + 1] < 0x80))
				r++;
			if (r > at) {
				band_put_ascii(x, s + at, r - at, a, pair);
				x += (int)(r - at);
				at = r;
				continue;
			}
		}
		wchar_t cell[CCHARW_MAX + 1];
		if (s[at] == '\t') { /* only the input has tabs; it counts them as one column */
			cell[0] = L' ';
			put_cell(y, x++, cell, 1, 1, a, pair);
			at++;
			continue;
		}
		int w;
		size_t g = grapheme_next(s + at, n - at, &w);
		if (!g || x + w > maxx)
			break;
		int k = 0, cell_x = x, next_x = x, cell_w = 0;
		for (size_t i = 0; i < g;) {
			uint32_t cp;
			i += utf8_decode(s + at + i, g - i, &cp);
			if (!is_drawable(cp))
				continue;
			int cw = cp_width(cp);
			if (cw > 0) {
				if (k)
					put_cell(y, cell_x, cell, k, cell_w, a, pair);
				cell[0] = (wchar_t)cp;
				k = 1;
				cell_x = next_x;
				cell_w = cw;
				next_x += cw;
			} else if (k && k < CCHARW_MAX - 1) {
				cell[k++] = (wchar_t)cp;
			}
		}
		if (k && cell_x < maxx)
			put_cell(y, cell_x, cell, k, cell_w, a, pair);
		x += w;
		at += g;
	}
	return x;
}

int draw_highlighted(int y, int x, int maxx, const char *s, size_t n, const struct look *l,
		     const char *needle, size_t m, bool current)
{
	const char *hit;
	while (m && (hit = ascii_find_ci(s, n, needle, m))) {
		x = draw_text(y, x, maxx, s, (size_t)(hit - s), l);
		struct look hl = *l;
		draw_combine(&hl, current ? &reverse : &underline);
		x = draw_text(y, x, maxx, hit, m, &hl);
		n -= (size_t)(hit - s) + m;
		s = hit + m;
	}
	return draw_text(y, x, maxx, s, n, l);
}

void draw_line_add(struct draw_line *l, const char *s, size_t n, struct look look)
{
	if (l->nseg < DRAW_LINE_SEGMENTS && n)
		l->seg[l->nseg++] = (struct draw_segment){ s, n, look };
}

void draw_line_puts(struct draw_line *l, const char *s, struct look look)
{
	draw_line_add(l, s, strlen(s), look);
}

void draw_line_paint(struct painter *p, int y, const struct draw_line *l)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	h = draw_hash_u64(h, l->fill);
	h = draw_hash_look(h, &l->fill_look);
	for (int i = 0; i < l->nseg; i++) {
		h = draw_hash_bytes(h, l->seg[i].s, l->seg[i].n);
		h = draw_hash_u64(h, l->seg[i].n);
		h = draw_hash_look(h, &l->seg[i].look);
	}
	if (draw_line_unchanged(p, y, h))
		return;
	draw_clear_line(y);
	int x = 0;
	for (int i = 0; i < l->nseg; i++)
		x = draw_text(y, x, COLS, l->seg[i].s, l->seg[i].n, &l->seg[i].look);
	if (l->fill) {
		static const char spaces[] = "                                ";
		while (x < COLS) {
			int before = x;
			x = draw_text(y, x, COLS, spaces, sizeof spaces - 1, &l->fill_look);
			if (x == before)
				break;
		}
	}
	draw_line_done();
}

void draw_clear_line(int y)
{
	if (band_writing()) {
		band_line_begin(y);
		return;
	}
	move(y, 0);
	clrtoeol();
}

void draw_line_done(void)
{
	if (band_writing())
		band_line_end();
}

int draw_notice_rows(const char *notice, int width)
{
	int rows = 0;
	size_t n = strlen(notice), at = 0, next;
	do {
		text_wrap_row(notice + at, n - at, width > 0 ? width : 1, &next);
		at += next;
		rows++;
	} while (at < n);
	return rows;
}

void draw_painter_fit(struct painter *p, int transcript_rows)
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
		p->row_hash = xrealloc(p->row_hash, p->rows_cap * sizeof *p->row_hash);
	}
}

void draw_painter_forget(struct painter *p)
{
	if (p->line_hash)
		memset(p->line_hash, 0, (size_t)p->lines * sizeof *p->line_hash);
}

void draw_cursor(struct painter *p, bool park, int y, int x)
{
	if (park != p->cursor_parked) {
		curs_set(park ? 0 : 1);
		leaveok(stdscr, park);
		p->cursor_parked = park;
	}
	if (!park)
		move(y, x);
}
