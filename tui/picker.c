#include "picker.h"
#include "render.h"

#include <curses.h>
#include <string.h>

/* Draws one field clipped to cols columns, sanitized (server text never reaches the terminal raw). */
static int draw_field(int row, int col, const char *s, int cols)
{
	struct buf clean;
	buf_init(&clean);
	sanitize_text(s ? s : "-", strlen(s ? s : "-"), &clean);
	int used = 0;
	size_t off = 0;
	while (off < clean.len) {
		int w;
		size_t n = grapheme_next(clean.data + off, clean.len - off, &w);
		if (clean.data[off] == '\n' || clean.data[off] == '\t')
			w = 1;
		if (used + w > cols)
			break;
		if (clean.data[off] == '\n' || clean.data[off] == '\t')
			mvaddch(row, col + used, ' ');
		else
			mvaddnstr(row, col + used, clean.data + off, (int)n);
		used += w;
		off += n;
	}
	buf_fini(&clean);
	return used;
}

static void draw(const char *server, const struct conversation_info *items, size_t count,
		 size_t sel, size_t top)
{
	erase();
	attron(A_BOLD);
	mvaddstr(0, 0, "Pick a conversation on ");
	draw_field(0, 23, server, COLS - 24);
	attroff(A_BOLD);
	int rows = LINES - 3;
	for (int r = 0; r < rows && top + (size_t)r < count; r++) {
		const struct conversation_info *c = &items[top + (size_t)r];
		if (top + (size_t)r == sel)
			attron(A_REVERSE);
		mvhline(r + 2, 0, ' ', COLS);
		/* title | status | last update; the update column goes first on narrow screens */
		int updated_w = COLS >= 70 ? 19 : 0;
		int status_w = 26 < COLS / 4 ? 26 : COLS / 4;
		int title_w = COLS - status_w - updated_w - (updated_w ? 2 : 1);
		draw_field(r + 2, 0, c->title && *c->title ? c->title : c->id, title_w);
		draw_field(r + 2, title_w + 1, c->execution_status, status_w);
		if (updated_w)
			draw_field(r + 2, title_w + status_w + 2, c->updated_at, updated_w);
		if (top + (size_t)r == sel)
			attroff(A_REVERSE);
	}
	mvaddstr(LINES - 1, 0, "↑/↓ move  Enter open  q quit");
	refresh();
}

long picker_choose(const char *server, const struct conversation_info *items, size_t count)
{
	use_tioctl(TRUE);  /* the kernel's size, as terminal_open */
	if (!initscr())
		return -1;
	raw(); /* Ctrl-C arrives as a key here: the loop's signals are not being watched yet */
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	size_t sel = 0, top = 0;
	long chosen = -1;
	for (;;) {
		size_t rows = LINES > 3 ? (size_t)(LINES - 3) : 1;
		if (sel < top)
			top = sel;
		if (sel >= top + rows)
			top = sel - rows + 1;
		draw(server, items, count, sel, top);
		int ch = getch();
		if (ch == KEY_UP || ch == 'k') {
			if (sel > 0)
				sel--;
		} else if (ch == KEY_DOWN || ch == 'j') {
			if (sel + 1 < count)
				sel++;
		} else if (ch == KEY_PPAGE) {
			sel = sel > rows ? sel - rows : 0;
		} else if (ch == KEY_NPAGE) {
			sel = sel + rows < count ? sel + rows : count - 1;
		} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			chosen = (long)sel;
			break;
		} else if (ch == 'q' || ch == 27 || ch == 4 || ch == 3 || ch == ERR) {
			break;
		}
	}
	endwin();
	return chosen;
}
