/* band: the screen written by tether itself while no layer is open.
 *
 * Why not ncurses: a streamed frame changes a line or two, and every few frames scrolls the
 * transcript by one. ncurses' update then compares its three copies of the screen (28-byte
 * cells, 128 KB each at 120×38) line by line, and those are cold in the cache after 33 ms
 * asleep: the update cost more than all of the rest of a frame (issue 28, bench/causes.md
 * "stream_cpu"). Here a frame keeps one 8-byte key per cell of what the terminal shows, looks
 * only at the lines whose fingerprint changed, and sends their changed cells and a scroll of
 * the transcript's region, in one write. While an answer streams the cursor stays where a
 * frame's writing ended, so that the next frame's text follows on with no move (as ncurses'
 * parked cursor did), else it goes back to the input line. ncurses' cursor is saved
 * once when tether takes the screen and restored when ncurses gets it back, so that
 * ncurses' idea of where it is stays true, and every frame ends at normal attributes, where
 * ncurses' update leaves them. ncurses' copy of the screen goes stale meanwhile; band_release
 * blanks it and marks it unknown on the screen before anything else is drawn, so that its
 * next update draws it whole. */
#include "band.h"
#include "terminal.h"

#include <langinfo.h>
#include <term.h>
#include <stdlib.h>
#include <string.h>

/* A cell's key: 0 blank; a cell's start has the low bits 01, the columns a wide cell covers
 * after its first 11. */
enum { KEY_START = 1, KEY_CONT = 3 };

struct cell_rec {
	uint64_t key;            /* what the terminal shows there once it is sent */
	int x, w;
	size_t off, len;         /* its UTF-8 in the line's text */
	wchar_t first;           /* the character whose width the terminal moves on by */
	attr_t a;
	short pair;
};

static struct {
	bool usable;
	const char *sc, *rc, *csr, *cup, *el, *ind, *ri;
	bool short_moves;        /* CR, CR LF and ANSI's column and line moves may be used */
	int rows, cols;          /* the band tether writes; rows 0: ncurses has it */
	uint64_t *keys;          /* rows × cols: what the terminal shows */
	uint64_t **line;         /* rows: a line's keys there (a scroll moves these) */
	uint64_t **spare;        /* rows: the lines a scroll takes out */
	bool *known;             /* the lines whose keys are known */
	bool csi;                /* cup and csr are ANSI's: written here, not by tiparm */
	attr_t a;                /* the attributes sent last */
	short pair;
	bool released;
	bool writing;
	bool saved;              /* the terminal holds ncurses' cursor, saved (sc) */
	int fd;                  /* where the bytes go: the terminal ncurses writes to */
	struct buf out;
	size_t out_start;        /* out's length after the cursor was saved */
	int cy, cx;              /* the terminal's cursor; -1: not known */
	int y;                   /* the line being drawn */
	struct buf text;
	struct cell_rec *cells;
	size_t ncells, cells_cap;
	uint64_t *line_keys;     /* cols: the drawn line's keys */
	int *starts;             /* cols: the cell that starts at a column, else -1 */
} band;

void band_init(int out_fd)
{
	band.fd = out_fd;
	band.rows = band.cols = 0;
	band.saved = band.writing = false;
	band.sc = terminal_cap("sc");
	band.rc = terminal_cap("rc");
	band.csr = terminal_cap("csr");
	band.cup = terminal_cap("cup");
	band.el = terminal_cap("el");
	band.ind = terminal_cap("ind");
	band.ri = terminal_cap("ri");
	band.csi = band.cup && band.csr && strcmp(tiparm(band.cup, 4, 6), "\033[5;7H") == 0 &&
		   strcmp(tiparm(band.csr, 4, 6), "\033[5;7r") == 0;
	const char *cr = terminal_cap("cr"), *hpa = terminal_cap("hpa"), *vpa = terminal_cap("vpa");
	band.short_moves = band.csi && cr && strcmp(cr, "\r") == 0 && hpa &&
			   strcmp(tiparm(hpa, 6), "\033[7G") == 0 && vpa &&
			   strcmp(tiparm(vpa, 4), "\033[5d") == 0;
	const char *codeset = nl_langinfo(CODESET);
	band.usable = band.sc && band.rc && band.csr && band.cup && band.el && band.ind &&
		      band.ri && codeset && strcmp(codeset, "UTF-8") == 0 && out_fd >= 0;
}

bool band_possible(int rows)
{
	return band.usable && rows > 0 && !is_cleared(curscr) && !is_cleared(stdscr);
}

bool band_holds(int rows, int cols)
{
	return band.rows == rows && band.cols == cols;
}

/* ------------------------------------------------------------------ output */

static int out_byte(int c)
{
	buf_putc(&band.out, (char)c);
	return c;
}

static void out_cap(const char *s)
{
	tputs(s, 1, out_byte);
}

static void out_number(int v)
{
	char d[12];
	int n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0 && n < (int)sizeof d);
	while (n)
		buf_putc(&band.out, d[--n]);
}

/* cup's or csr's sequence for two 0-based numbers: terminfo's interpreter costs more than
 * the rest of a cell, so ANSI's form (nearly every terminal's) is written here. */
static void out_two(const char *cap, char final, int p1, int p2)
{
	if (!band.csi) {
		out_cap(tiparm(cap, p1, p2));
		return;
	}
	buf_append(&band.out, "\033[", 2);
	out_number(p1 + 1);
	buf_putc(&band.out, ';');
	out_number(p2 + 1);
	buf_putc(&band.out, final);
}

static void out_one(int p, char final)
{
	buf_append(&band.out, "\033[", 2);
	out_number(p + 1);
	buf_putc(&band.out, final);
}

/* The shortest move from where the cursor is, as ncurses' own chooses: on the same line a
 * carriage return or a column, to the next line's start CR LF (LF never scrolls here: the
 * region is the whole screen between frames' scrolls, and the line below exists), in the
 * same column a line; else both. A move written absolutely took a fifth more bytes. */
static void move_to(int y, int x)
{
	if (band.cy == y && band.cx == x)
		return;
	bool known = band.cy >= 0 && band.cx >= 0 && band.short_moves;
	if (known && y == band.cy && x == 0)
		buf_putc(&band.out, '\r');
	else if (known && y == band.cy)
		out_one(x, 'G');
	else if (known && y == band.cy + 1 && x == 0 && y < LINES)
		buf_append(&band.out, "\r\n", 2);
	else if (known && x == band.cx)
		out_one(y, 'd');
	else
		out_two(band.cup, 'H', y, x);
	band.cy = y;
	band.cx = x;
}

/* The sequences from one look to another, as vid_puts made them: it runs terminfo's
 * interpreter for each, which cost more than the rest of a cell. */
struct hop {
	attr_t from_a, to_a;
	short from_pair, to_pair;
	bool set;
	unsigned char n;
	char seq[46];
};
static struct hop hops[128];

static int discard(int c)
{
	return c;
}

void band_forget_looks(void)
{
	memset(hops, 0, sizeof hops);
}

/* vid_puts sends what changes from ncurses' idea of the attributes and keeps that idea; a
 * hop it made before is sent again as it was. Either way the frame ends back at normal, as
 * ncurses' own update ends, and so does ncurses' idea (band_end). */
static void set_look(attr_t a, short pair)
{
	if (a == band.a && pair == band.pair)
		return;
	uint64_t k = ((uint64_t)band.a * 31 + (uint64_t)a) * 131 + (uint64_t)(unsigned short)band.pair * 7 +
		     (uint64_t)(unsigned short)pair;
	struct hop *h = &hops[(k ^ k >> 17) % (sizeof hops / sizeof *hops)];
	if (h->set && h->from_a == band.a && h->to_a == a && h->from_pair == band.pair &&
	    h->to_pair == pair) {
		buf_append(&band.out, h->seq, h->n);
	} else {
		vid_puts(band.a, band.pair, NULL, discard); /* ncurses' idea: where the terminal is */
		size_t at = band.out.len;
		vid_puts(a, pair, NULL, out_byte);
		size_t n = band.out.len - at;
		if (n <= sizeof h->seq) {
			*h = (struct hop){ band.a, a, band.pair, pair, true, (unsigned char)n, { 0 } };
			memcpy(h->seq, band.out.data + at, n);
		}
	}
	band.a = a;
	band.pair = pair;
}

/* ------------------------------------------------------------------- frame */

void band_begin(int rows, int cols)
{
	if (rows != band.rows || cols != band.cols) {
		size_t cells = (size_t)rows * (size_t)cols;
		band.keys = xrealloc(band.keys, (cells ? cells : 1) * sizeof *band.keys);
		band.line = xrealloc(band.line, (size_t)rows * sizeof *band.line);
		band.spare = xrealloc(band.spare, (size_t)rows * sizeof *band.spare);
		for (int y = 0; y < rows; y++)
			band.line[y] = band.keys + (size_t)y * (size_t)cols;
		band.known = xrealloc(band.known, (size_t)rows * sizeof *band.known);
		memset(band.known, 0, (size_t)rows * sizeof *band.known);
		band.line_keys = xrealloc(band.line_keys, (size_t)cols * sizeof *band.line_keys);
		band.starts = xrealloc(band.starts, (size_t)cols * sizeof *band.starts);
		band.rows = rows;
		band.cols = cols;
	}
	buf_clear(&band.out);
	if (!band.saved) {
		out_cap(band.sc);
		band.cy = band.cx = -1;
	}
	band.out_start = band.out.len;
	band.a = A_NORMAL; /* as ncurses' update and the last frame leave it */
	band.pair = 0;
	band.writing = true;
}

bool band_writing(void)
{
	return band.writing;
}

bool band_scroll(int n, int k)
{
	if (!band.writing || n > band.rows || k == 0 || (k > 0 ? k : -k) >= n)
		return false;
	set_look(A_NORMAL, 0);
	out_two(band.csr, 'r', 0, n - 1);
	band.cy = band.cx = -1; /* setting the region homes the cursor on some terminals */
	move_to(k > 0 ? n - 1 : 0, 0);
	int m = k > 0 ? k : -k;
	for (int i = 0; i < m; i++)
		out_cap(k > 0 ? band.ind : band.ri);
	out_two(band.csr, 'r', 0, LINES - 1);
	band.cy = band.cx = -1;
	/* The lines' keys move with them (a turn of the pointers, the keys stay in place); the
	 * lines the scroll brought in are blank. */
	uint64_t **gone = band.spare;
	size_t kept = (size_t)(n - m);
	int first = k > 0 ? n - m : 0;
	if (k > 0) {
		memcpy(gone, band.line, (size_t)m * sizeof *gone);
		memmove(band.line, band.line + m, kept * sizeof *band.line);
		memmove(band.known, band.known + m, kept * sizeof *band.known);
	} else {
		memcpy(gone, band.line + kept, (size_t)m * sizeof *gone);
		memmove(band.line + m, band.line, kept * sizeof *band.line);
		memmove(band.known + m, band.known, kept * sizeof *band.known);
	}
	for (int i = 0; i < m; i++) {
		band.line[first + i] = gone[i];
		memset(gone[i], 0, (size_t)band.cols * sizeof *gone[i]);
		band.known[first + i] = true;
	}
	return true;
}

void band_line_begin(int y)
{
	band.y = y;
	band.ncells = 0;
	buf_clear(&band.text);
}

/* A cell's key: its look and its bytes, hashed (FNV-1a), marked as a cell's start. */
static uint64_t look_seed(attr_t a, short pair)
{
	return 0xcbf29ce484222325ULL ^ ((uint64_t)a << 8) ^ (uint64_t)(unsigned short)pair;
}

static uint64_t key_of(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return (h & ~(uint64_t)3) | KEY_START;
}

/* Room for n more cells in the line being drawn. */
static void cells_room(size_t n)
{
	if (band.ncells + n <= band.cells_cap)
		return;
	while (band.ncells + n > band.cells_cap)
		band.cells_cap = band.cells_cap ? 2 * band.cells_cap : 256;
	band.cells = xrealloc(band.cells, band.cells_cap * sizeof *band.cells);
}

void band_put_cell(int x, int w, const wchar_t *cell, int k, attr_t a, short pair)
{
	if (x < 0 || w < 1 || x + w > band.cols)
		return;
	cells_room(1);
	size_t off = band.text.len;
	for (int i = 0; i < k; i++)
		buf_put_utf8(&band.text, (uint32_t)cell[i]);
	size_t len = band.text.len - off;
	band.cells[band.ncells++] = (struct cell_rec){
		key_of(look_seed(a, pair), band.text.data + off, len), x, w, off, len, cell[0], a, pair
	};
}

void band_put_ascii(int x, const char *s, size_t n, attr_t a, short pair)
{
	if (x < 0 || x >= band.cols)
		return;
	if (n > (size_t)(band.cols - x))
		n = (size_t)(band.cols - x);
	cells_room(n);
	size_t off = band.text.len;
	buf_append(&band.text, s, n);
	struct cell_rec *c = band.cells + band.ncells;
	uint64_t seed = look_seed(a, pair);
	for (size_t i = 0; i < n; i++)
		c[i] = (struct cell_rec){ key_of(seed, s + i, 1), x + (int)i, 1, off + i, 1,
					  (wchar_t)s[i], a, pair };
	band.ncells += n;
}

static bool is_cont(uint64_t k)
{
	return (k & 3) == KEY_CONT;
}

static void send_cell(const struct cell_rec *c)
{
	move_to(band.y, c->x);
	set_look(c->a, c->pair);
	buf_append(&band.out, band.text.data + c->off, c->len);
	/* The terminal moves on by its own count of the first character's width; where that is
	 * not the layout's, the next cell is placed with a move. */
	int tw = c->first >= 0x20 && c->first < 0x7F ? 1 : wcwidth(c->first);
	band.cx = tw == c->w && c->x + c->w < band.cols ? c->x + c->w : -1;
}

void band_line_end(void)
{
	int cols = band.cols, y = band.y;
	if (!band.writing || y < 0 || y >= band.rows)
		return;
	uint64_t *now = band.line_keys, *was = band.line[y];
	memset(now, 0, (size_t)cols * sizeof *now);
	for (int x = 0; x < cols; x++)
		band.starts[x] = -1;
	int end = 0;
	for (size_t i = 0; i < band.ncells; i++) {
		const struct cell_rec *c = &band.cells[i];
		uint64_t key = c->key;
		now[c->x] = key;
		band.starts[c->x] = (int)i;
		for (int j = 1; j < c->w; j++)
			now[c->x + j] = ((key & ~(uint64_t)3) ^ ((uint64_t)j << 2)) | KEY_CONT;
		if (c->x + c->w > end)
			end = c->x + c->w;
	}
	int fx = 0, lx = cols - 1;
	bool known = band.known[y];
	if (known) {
		while (fx < cols && now[fx] == was[fx])
			fx++;
		if (fx == cols)
			return;
		while (lx > fx && now[lx] == was[lx])
			lx--;
		/* a wide cell is sent whole, and one half overwritten takes the other with it */
		while (fx > 0 && (is_cont(now[fx]) || is_cont(was[fx])))
			fx--;
		while (lx + 1 < cols && (is_cont(now[lx + 1]) || is_cont(was[lx + 1])))
			lx++;
	} else {
		move_to(y, 0);
		set_look(A_NORMAL, 0);
		out_cap(band.el);
	}
	for (int x = fx; x <= lx && x < end;) {
		int i = band.starts[x];
		if (i >= 0) {
			send_cell(&band.cells[i]);
			x += band.cells[i].w;
			continue;
		}
		if (known && was[x] != now[x] && !is_cont(now[x])) {
			move_to(y, x);
			set_look(A_NORMAL, 0);
			buf_putc(&band.out, ' ');
			band.cx = x + 1 < cols ? x + 1 : -1;
		}
		x++;
	}
	if (known && lx >= (fx > end ? fx : end)) {
		move_to(y, fx > end ? fx : end);
		set_look(A_NORMAL, 0);
		out_cap(band.el);
	}
	memcpy(was, now, (size_t)cols * sizeof *was);
	band.known[y] = true;
}

void band_end(int cursor_y, int cursor_x)
{
	if (!band.writing)
		return;
	if (cursor_y >= 0)
		move_to(cursor_y, cursor_x);
	band.writing = false;
	if (band.out.len == band.out_start) /* nothing changed: not even the cursor saved */
		return;
	set_look(A_NORMAL, 0);
	vid_puts(A_NORMAL, 0, NULL, discard);
	band.saved = true;
	if (fd_write_all(band.fd, band.out.data, band.out.len) != 0)
		band_release();
}

void band_release(void)
{
	if (!band.rows)
		return;
	if (band.saved) {
		band.saved = false;
		(void)fd_write_all(band.fd, band.rc, strlen(band.rc));
	}
	int rows = band.rows < LINES ? band.rows : LINES;
	for (int y = 0; y < rows; y++) {
		wmove(stdscr, y, 0);
		wclrtoeol(stdscr);
	}
	wredrawln(stdscr, 0, rows);
	band.rows = band.cols = 0;
	band.writing = false;
	band.released = true;
}

void band_fini(void)
{
	free(band.keys);
	free(band.line);
	free(band.spare);
	free(band.known);
	free(band.line_keys);
	free(band.starts);
	free(band.cells);
	buf_fini(&band.out);
	buf_fini(&band.text);
	memset(&band, 0, sizeof band);
}

bool band_take_released(void)
{
	bool r = band.released;
	band.released = false;
	return r;
}
