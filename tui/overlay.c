/* overlay: the keys overlay (?, F1, /help), over everything. It covers the whole screen and
 * scrolls; its text comes from whoever opened it (keys_help.c makes it from the tables). */
#include "draw.h"
#include "conv.h"
#include "overlay.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const struct look title_look = { A_BOLD | A_REVERSE, 0, A_BOLD | A_REVERSE };
static const struct look heading_look = { A_BOLD | A_UNDERLINE, 0, A_BOLD | A_UNDERLINE };
static const struct look key_look = { A_BOLD, 0, A_BOLD };
static const struct look plain = { 0, 0, 0 };

void overlay_open(struct tui *u, void (*text)(int width, struct buf *out))
{
	u->overlay_text = text;
	u->layers.overlay = &overlay_layer;
	u->overlay_scroll = 0;
	ui_invalidate(&u->ui);
}

void overlay_close(struct tui *u)
{
	u->layers.overlay = NULL;
	ui_invalidate(&u->ui);
}

void overlay_scroll(struct tui *u, long rows)
{
	if (rows == LONG_MIN)
		u->overlay_scroll = 0;
	else if (rows == LONG_MAX)
		u->overlay_scroll = SIZE_MAX / 2; /* clamped when painted */
	else if (rows < 0)
		u->overlay_scroll = u->overlay_scroll > (size_t)-rows ? u->overlay_scroll - (size_t)-rows : 0;
	else
		u->overlay_scroll += (size_t)rows;
	ui_schedule_frame(&u->ui);
}

/* Paints directly, every line every time (a frame only when a key came): the painter's
 * fingerprints are forgotten when the overlay closes. */
static void paint_line(int y, const char *s, size_t n, const struct look *look, bool fill)
{
	move(y, 0);
	clrtoeol();
	int x = draw_text(y, 0, COLS, s, n, look);
	while (fill && x < COLS) {
		int before = x;
		x = draw_text(y, x, COLS, " ", 1, look);
		if (x == before)
			break;
	}
}

/* The list over the whole screen. */
static void overlay_paint(struct tui *u, const struct controller_status *cur, int64_t now_us)
{
	(void)cur, (void)now_us;
	struct buf text;
	buf_init(&text);
	u->overlay_text(COLS, &text);
	size_t nlines = 0;
	for (size_t i = 0; i < text.len; i++)
		nlines += text.data[i] == '\n';
	int body = LINES > 1 ? LINES - 1 : 1;
	size_t max_scroll = nlines > (size_t)body ? nlines - (size_t)body : 0;
	if (u->overlay_scroll > max_scroll)
		u->overlay_scroll = max_scroll;
	struct buf title;
	buf_init(&title);
	buf_puts(&title, " Keys and commands · Esc closes");
	struct controller_status st;
	controller_status(u->cur->ctl, &st);
	if (st.awaiting_confirmation)
		buf_puts(&title, " · a confirmation waits"); /* the modal is under the list */
	if (max_scroll)
		buf_printf(&title, " · lines %zu-%zu of %zu · ↑↓ PgUp PgDn", u->overlay_scroll + 1,
			   u->overlay_scroll + (size_t)body, nlines);
	buf_putc(&title, ' ');
	paint_line(0, title.data, title.len, &title_look, true);
	buf_fini(&title);
	const char *s = buf_cstr(&text);
	for (size_t skip = u->overlay_scroll; skip && *s; skip--) {
		const char *nl = strchr(s, '\n');
		s = nl ? nl + 1 : s + strlen(s);
	}
	for (int y = 1; y < LINES; y++) {
		size_t n = *s ? strcspn(s, "\n") : 0;
		if (n > 2 && s[0] == ' ' && s[1] == ' ' && s[2] != ' ') {
			/* "  KEYS  help": the keys in bold */
			size_t k = 2;
			while (k < n && !(s[k] == ' ' && k + 1 < n && s[k + 1] == ' '))
				k++;
			paint_line(y, s, k, &key_look, false);
			draw_text(y, text_width(s, k), COLS, s + k, n - k, &plain);
		} else {
			paint_line(y, s, n, n && s[0] != ' ' ? &heading_look : &plain, false);
		}
		s += n;
		if (*s == '\n')
			s++;
	}
	move(LINES - 1, 0);
	wnoutrefresh(stdscr);
	doupdate();
	buf_fini(&text);
}

/* ------------------------------------------------------------------ keys */

/* A page: the rows the transcript had in the last frame, less two. */
static long page(struct tui *u)
{
	int rows = u->paint.transcript_rows;
	return rows > 3 ? rows - 2 : 1;
}

static void act_repaint(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	ui_invalidate(&u->ui);
}

static void act_suspend(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	ui_suspend(&u->ui);
}


static void act_overlay_close(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e;
	overlay_close(u);
	ui_esc_closed(&u->ui, ev);
}

#define OVERLAY_SCROLL(name, rows)                                                     \
	static void name(struct tui *u, struct editor *e, const struct key_event *ev)  \
	{                                                                              \
		(void)e, (void)ev;                                                     \
		overlay_scroll(u, rows);                                               \
	}

OVERLAY_SCROLL(act_overlay_up, -1)
OVERLAY_SCROLL(act_overlay_down, 1)
OVERLAY_SCROLL(act_overlay_page_up, -page(u))
OVERLAY_SCROLL(act_overlay_page_down, page(u))
OVERLAY_SCROLL(act_overlay_top, LONG_MIN)
OVERLAY_SCROLL(act_overlay_bottom, LONG_MAX)

const struct binding overlay_bindings[] = {
	BIND(KEYS_ESC, 0, 0, act_overlay_close, "close this list"),
	BIND(KEYS_CHAR, 0, 'q', act_overlay_close, "close this list"),
	BIND(KEYS_CHAR, 0, '?', act_overlay_close, "close this list"),
	BIND(KEYS_UP, 0, 0, act_overlay_up, "scroll up a line"),
	BIND(KEYS_DOWN, 0, 0, act_overlay_down, "scroll down a line"),
	BIND(KEYS_CHAR, 0, 'k', act_overlay_up, "scroll up a line"),
	BIND(KEYS_CHAR, 0, 'j', act_overlay_down, "scroll down a line"),
	BIND(KEYS_PGUP, 0, 0, act_overlay_page_up, "scroll up a page"),
	BIND(KEYS_PGDN, 0, 0, act_overlay_page_down, "scroll down a page"),
	BIND(KEYS_CHAR, 0, ' ', act_overlay_page_down, "scroll down a page"),
	BIND(KEYS_HOME, 0, 0, act_overlay_top, "the top"),
	BIND(KEYS_END, 0, 0, act_overlay_bottom, "the end"),
	BIND(KEYS_CTRL, 0, 'l', act_repaint, "redraw the screen"),
	BIND(KEYS_CTRL, 0, 'z', act_suspend, "suspend tether (fg to come back)"),
};
const size_t overlay_bindings_count = sizeof overlay_bindings / sizeof *overlay_bindings;

/* Keys scroll and close it; a paste is never lost: it closes the list and goes where it would
 * have gone. */
static enum layer_key overlay_key(struct tui *u, const struct key_event *ev)
{
	if (ev->kind == KEYS_PASTE) {
		overlay_close(u);
		return LAYER_KEY_DOWN;
	}
	keymap_dispatch(overlay_bindings, overlay_bindings_count, u, &u->input, ev);
	return LAYER_KEY_TAKEN; /* other keys do nothing */
}

const struct layer overlay_layer = {
	.name = "keys overlay",
	.screen = true,
	.key = overlay_key,
	.paint = overlay_paint,
	.close = overlay_close,
};
