/* board: the picker grown up — every conversation on the server, live, with what wants the
 * user first. Rows are formatted once into fitted fields (display width, never bytes), which
 * board_paint draws and board_text joins, so the tests read what the screen shows. */
#include "board.h"
#include "conv_row.h"
#include "draw.h"
#include "keymap.h"
#include "reltime.h"
#include "render.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

struct item {
	char *id, *title, *status;
	enum run_status run_status;
	int64_t activity_unix;
	int slot;
	enum conv_mark mark;
	size_t unread;
};

struct board {
	char *server;
	struct item *items;
	size_t count;
	size_t *shown;              /* indices of the items the filter lets through */
	size_t nshown, sel, top;    /* sel and top index shown */
	char *want;                 /* the id the user is on, kept while the filter hides it */
	struct buf filter;
	const char *hint;           /* a word about the last key, until the next one */
	size_t page;                /* list rows of the last paint */
	int list_y;                 /* the screen line of its first row */
	bool urgent;                /* the selection follows the first (most urgent) row */
	bool refused;               /* the last key was Ctrl-O with nothing to answer */
	bool after_refusal;         /* … the key before the one being handled */
	/* Delete asked about this conversation: the next key answers (y deletes) */
	char *deleting_id, *deleting_title;
	char question[320];
};

static const struct look plain = { 0, 0, 0 };
static const struct look bold = { A_BOLD, 0, A_BOLD };
static const struct look dim = { A_DIM, 0, A_DIM };
static const struct look reverse = { A_REVERSE, 0, A_REVERSE };

static const struct look mark_looks[] = {
	[CONV_MARK_NONE] = { 0, 0, 0 },
	[CONV_MARK_UNREAD] = { A_BOLD, PAIR_NOTICE, A_BOLD },
	[CONV_MARK_FINISHED] = { 0, PAIR_DONE, 0 },
	[CONV_MARK_ERROR] = { A_BOLD, PAIR_ERROR, A_BOLD },
	[CONV_MARK_CONFIRM] = { A_BOLD, PAIR_PENDING, A_BOLD },
};

/* ---------------------------------------------------------------- entries */

static enum conv_mark mark_of(enum conv_mark m)
{
	return m <= CONV_MARK_CONFIRM ? m : CONV_MARK_NONE;
}

const char *conv_mark_glyph(enum conv_mark m)
{
	static const char *const glyphs[] = {
		[CONV_MARK_NONE] = "", [CONV_MARK_UNREAD] = "•", [CONV_MARK_FINISHED] = "✓",
		[CONV_MARK_ERROR] = "✗", [CONV_MARK_CONFIRM] = "!",
	};
	return m <= CONV_MARK_CONFIRM ? glyphs[m] : "";
}

/* The glyph and the word of a mark: readable without colour. */
static void mark_text(const struct item *it, bool word, struct buf *out)
{
	buf_puts(out, it->mark == CONV_MARK_NONE ? " " : conv_mark_glyph(it->mark));
	if (!word || it->mark == CONV_MARK_NONE)
		return;
	switch (it->mark) {
	case CONV_MARK_UNREAD:
		if (it->unread > 999)
			buf_puts(out, " 999+ new");
		else if (it->unread)
			buf_printf(out, " %zu new", it->unread);
		else
			buf_puts(out, " unread");
		break;
	case CONV_MARK_FINISHED:
		buf_puts(out, " finished");
		break;
	case CONV_MARK_ERROR:
		buf_puts(out, it->run_status == RUN_STATUS_STUCK ? " stuck" : " error");
		break;
	default:
		buf_puts(out, " confirm");
		break;
	}
}

static int cmp_items(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	if (a->mark != b->mark)
		return a->mark > b->mark ? -1 : 1;
	if (a->activity_unix != b->activity_unix)
		return a->activity_unix > b->activity_unix ? -1 : 1;
	return strcmp(a->id, b->id);
}

static void free_items(struct board *b)
{
	for (size_t i = 0; i < b->count; i++) {
		free(b->items[i].id);
		free(b->items[i].title);
		free(b->items[i].status);
	}
	free(b->items);
	free(b->shown);
	b->items = NULL;
	b->shown = NULL;
	b->count = b->nshown = 0;
}

static const char *shown_id(const struct board *b, size_t k)
{
	return b->items[b->shown[k]].id;
}

static void set_want(struct board *b, const char *id)
{
	char *copy = id ? xstrdup(id) : NULL;
	free(b->want);
	b->want = copy;
}

static bool has_id(const struct board *b, const char *id)
{
	for (size_t i = 0; id && i < b->count; i++)
		if (!strcmp(b->items[i].id, id))
			return true;
	return false;
}

/* The rows the filter lets through; the selection goes back to the wanted conversation
 * whenever it shows, and a conversation gone from the server gives way to the one now in its
 * place. */
static void apply_filter(struct board *b)
{
	b->nshown = 0;
	size_t found = SIZE_MAX;
	for (size_t i = 0; i < b->count; i++) {
		const struct item *it = &b->items[i];
		if (!conv_row_matches(it->title, it->id, b->filter.data, b->filter.len))
			continue;
		if (b->want && !strcmp(it->id, b->want))
			found = b->nshown;
		b->shown[b->nshown++] = i;
	}
	if (b->urgent && b->nshown)
		b->sel = 0;
	else if (found != SIZE_MAX)
		b->sel = found;
	else if (b->sel >= b->nshown)
		b->sel = b->nshown ? b->nshown - 1 : 0;
	if (b->nshown && (b->urgent || !has_id(b, b->want)))
		set_want(b, shown_id(b, b->sel));
}

struct board *board_create(const char *server)
{
	struct board *b = xcalloc(1, sizeof *b);
	b->server = xstrdup(server ? server : "the server");
	buf_init(&b->filter);
	buf_puts(&b->filter, "");
	b->page = 10;
	return b;
}

void board_destroy(struct board *b)
{
	if (!b)
		return;
	free_items(b);
	free(b->deleting_id);
	free(b->deleting_title);
	free(b->want);
	free(b->server);
	buf_fini(&b->filter);
	free(b);
}

void board_set_entries(struct board *b, const struct board_entry *e, size_t n)
{
	free_items(b);
	b->items = xcalloc(n ? n : 1, sizeof *b->items);
	b->shown = xcalloc(n ? n : 1, sizeof *b->shown);
	for (size_t i = 0; i < n; i++) {
		if (!e[i].id || !*e[i].id)   /* nothing could open it */
			continue;
		struct item *it = &b->items[b->count++];
		it->id = xstrdup(e[i].id);
		it->title = e[i].title ? xstrdup(e[i].title) : NULL;
		it->status = e[i].status ? xstrdup(e[i].status) : NULL;
		it->run_status = e[i].run_status;
		it->activity_unix = e[i].activity_unix;
		it->slot = e[i].slot >= 1 && e[i].slot <= 9 ? e[i].slot : 0;
		it->mark = mark_of(e[i].mark);
		it->unread = e[i].unread;
	}
	qsort(b->items, b->count, sizeof *b->items, cmp_items);
	apply_filter(b);
}

void board_select_urgent(struct board *b)
{
	b->urgent = true;
	b->top = 0;
	apply_filter(b);
}

const char *board_selected_id(const struct board *b)
{
	return b->nshown ? shown_id(b, b->sel) : NULL;
}

const char *board_filter(const struct board *b)
{
	return b->filter.data;
}

/* ------------------------------------------------------------------- keys */

static void filter_changed(struct board *b)
{
	b->top = 0;
	apply_filter(b);
}

static void filter_type(struct board *b, const char *s, size_t n)
{
	if (conv_row_filter_add(&b->filter, s, n))
		filter_changed(b);
}

static void filter_clear(struct board *b)
{
	buf_clear(&b->filter);
	buf_puts(&b->filter, "");
	filter_changed(b);
}

static void move_to(struct board *b, size_t sel)
{
	if (!b->nshown)
		return;
	b->sel = sel < b->nshown ? sel : b->nshown - 1;
	b->urgent = false;
	set_want(b, shown_id(b, b->sel));
}

bool board_select_at(struct board *b, int y)
{
	if (y < b->list_y || (size_t)(y - b->list_y) >= b->page ||
	    b->top + (size_t)(y - b->list_y) >= b->nshown)
		return false;
	move_to(b, b->top + (size_t)(y - b->list_y));
	return true;
}

static bool waits_for_confirmation(const struct item *it)
{
	return it->mark == CONV_MARK_CONFIRM ||
	       it->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION;
}

/* ------------------------------------------------------------------- keys */

static size_t page_rows(const struct board *b)
{
	return b->page ? b->page : 1;
}

static size_t last_row(const struct board *b)
{
	return b->nshown ? b->nshown - 1 : 0;
}

static bool key_up(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev, (void)out;
	move_to(b, b->sel - (b->sel > 0));
	return true;
}

static bool key_down(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev, (void)out;
	move_to(b, b->sel + (b->sel < last_row(b)));
	return true;
}

static bool key_page_up(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev, (void)out;
	size_t rows = page_rows(b);
	move_to(b, b->sel > rows ? b->sel - rows : 0);
	return true;
}

static bool key_page_down(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev, (void)out;
	size_t rows = page_rows(b), last = last_row(b);
	move_to(b, b->sel + rows < last ? b->sel + rows : last);
	return true;
}

static bool key_home(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev, (void)out;
	move_to(b, 0);
	return true;
}

static bool key_end(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev, (void)out;
	move_to(b, last_row(b));
	return true;
}

static bool key_open(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev;
	const char *id = board_selected_id(b);
	if (id)
		*out = (struct board_action){ BOARD_OPEN, id, NULL };
	return true;
}

static bool key_esc(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev;
	if (b->filter.len)
		filter_clear(b);
	else
		out->kind = BOARD_CLOSE;
	return true;
}

static bool key_type(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)out;
	if (b->after_refusal && ev->cp < 0x80 && strchr("ynsdrcoYNSDRCO", (int)ev->cp)) {
		/* an answer typed after a Ctrl-O that opened nothing: not a filter */
		b->hint = "nothing to answer: no confirmation waits here";
		return true;
	}
	struct buf u;
	buf_init(&u);
	buf_put_utf8(&u, ev->cp);
	filter_type(b, u.data, u.len);
	buf_fini(&u);
	return true;
}

static bool key_paste(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)out;
	filter_type(b, ev->text, ev->len);
	return true;
}

static bool key_backspace(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev, (void)out;
	if (conv_row_filter_backspace(&b->filter))
		filter_changed(b);
	return true;
}

static bool key_clear(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev, (void)out;
	filter_clear(b);
	return true;
}

static bool key_answer(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev;
	const char *id = board_selected_id(b);
	if (id && waits_for_confirmation(&b->items[b->shown[b->sel]]))
		*out = (struct board_action){ BOARD_ANSWER, id, NULL };
	else if (id) {
		b->hint = "nothing to answer: no confirmation waits here";
		b->refused = true;
	}
	return true;
}

/* The board's keys, in the one row type of every key table: the keys overlay lists them. Any
 * modifiers, but typing is without Alt (Alt-a and the like are the conversations'). */
static bool key_delete(struct board *b, const struct key_event *ev, struct board_action *out);

const struct binding board_bindings[] = {
	BIND_BOARD(KEYS_UP, KEYS_MOD_ANY, 0, key_up, "select the row above"),
	BIND_BOARD(KEYS_DOWN, KEYS_MOD_ANY, 0, key_down, "select the row below"),
	BIND_BOARD(KEYS_PGUP, KEYS_MOD_ANY, 0, key_page_up, "up a page of rows"),
	BIND_BOARD(KEYS_PGDN, KEYS_MOD_ANY, 0, key_page_down, "down a page of rows"),
	BIND_BOARD(KEYS_HOME, KEYS_MOD_ANY, 0, key_home, "the first row"),
	BIND_BOARD(KEYS_END, KEYS_MOD_ANY, 0, key_end, "the last row"),
	BIND_BOARD(KEYS_ENTER, KEYS_MOD_ANY, 0, key_open, "show the conversation (opening it here when it is not)"),
	BIND_BOARD(KEYS_CTRL, KEYS_MOD_ANY, 'o', key_answer,
	  "answer its waiting confirmation, without leaving the board"),
	BIND_BOARD(KEYS_DELETE, KEYS_MOD_ANY, 0, key_delete,
		   "delete the conversation from the server, once you said y to its title"),
	BIND_BOARD(KEYS_ESC, KEYS_MOD_ANY, 0, key_esc, "clear the filter; with none, back to the conversation"),
	BIND_BOARD(KEYS_CHAR, 0, KEYS_CP_TEXT, key_type, "filter the rows by title or id"),
	BIND_BOARD(KEYS_PASTE, KEYS_MOD_ANY, 0, key_paste, "filter the rows by title or id"),
	BIND_BOARD(KEYS_BACKSPACE, KEYS_MOD_ANY, 0, key_backspace, "delete the filter's last character"),
	BIND_BOARD(KEYS_CTRL, KEYS_MOD_ANY, 'u', key_clear, "clear the filter"),
};
const size_t board_bindings_count = sizeof board_bindings / sizeof *board_bindings;

static bool key_delete(struct board *b, const struct key_event *ev, struct board_action *out)
{
	(void)ev, (void)out;
	const char *id = board_selected_id(b);
	if (!id)
		return true;
	const struct item *it = &b->items[b->shown[b->sel]];
	free(b->deleting_id);
	free(b->deleting_title);
	b->deleting_id = xstrdup(id);
	b->deleting_title = xstrdup(it->title && *it->title ? it->title : id);
	snprintf(b->question, sizeof b->question,
		 "delete “%s” from the server for good? y deletes, any other key keeps it",
		 b->deleting_title);
	b->hint = b->question;
	return true;
}

/* The answer to Delete's question: y deletes, any other key keeps the conversation. */
static bool delete_answer(struct board *b, const struct key_event *ev, struct board_action *out)
{
	if (ev->kind == KEYS_CHAR && !ev->mods && (ev->cp == 'y' || ev->cp == 'Y'))
		*out = (struct board_action){ BOARD_DELETE, b->deleting_id, b->deleting_title };
	else
		b->hint = "kept: nothing was deleted";
	return true;
}

bool board_key(struct board *b, const struct key_event *ev, struct board_action *out)
{
	*out = (struct board_action){ BOARD_NONE, NULL, NULL };
	if (b->hint == b->question && b->deleting_id) {
		b->hint = NULL;
		return delete_answer(b, ev, out);
	}
	const char *hint = b->hint;
	b->hint = NULL;
	b->after_refusal = b->refused;
	b->refused = false;
	for (size_t i = 0; i < board_bindings_count; i++)
		if (keymap_matches(&board_bindings[i], ev))
			return board_bindings[i].board(b, ev, out);
	b->hint = hint;
	return false;
}

/* ------------------------------------------------------------------- rows */

enum field_kind { F_MARK, F_SLOT, F_ID, F_TITLE, F_STATUS, F_WHEN, F_COUNT };

/* One row: each field at its column, fitted to its width and padded. */
struct board_row {
	int x[F_COUNT], w[F_COUNT];
	struct buf text[F_COUNT];
};

/* Appends s[0..n) cut to w columns at a grapheme boundary ("…" marks a cut when ellipsis),
 * then spaces to w. */
static void fit(const char *s, size_t n, int w, bool ellipsis, struct buf *out)
{
	int used = 0;
	size_t at = 0, cut_at = 0;
	int cut_used = 0;
	while (at < n) {
		int gw;
		size_t g = grapheme_next(s + at, n - at, &gw);
		if (!g || used + gw > w)
			break;
		if (used + gw <= w - 1) {
			cut_at = at + g;
			cut_used = used + gw;
		}
		used += gw;
		at += g;
	}
	if (at < n && ellipsis && w >= 2) {
		buf_append(out, s, cut_at);
		buf_puts(out, "…");
		used = cut_used + 1;
	} else {
		buf_append(out, s, at);
	}
	for (; used < w; used++)
		buf_putc(out, ' ');
}

/* The columns of a row: the mark (its word where there is room) and the slot first, then the
 * picker's id, title, status and time. */
static void row_columns(int cols, struct board_row *r)
{
	memset(r->x, 0, sizeof r->x);
	memset(r->w, 0, sizeof r->w);
	r->w[F_MARK] = cols >= 60 ? 10 : cols >= 4 ? 1 : 0;
	r->w[F_SLOT] = cols >= 8 ? 1 : 0;
	int x = 0;
	for (int f = F_MARK; f <= F_SLOT; f++) {
		r->x[f] = x;
		x += r->w[f] ? r->w[f] + 1 : 0;
	}
	struct conv_row_cols c = conv_row_columns(cols - x);
	r->w[F_ID] = c.id;
	r->w[F_TITLE] = c.title;
	r->w[F_STATUS] = c.status;
	r->w[F_WHEN] = c.updated;
	r->x[F_ID] = x;
	r->x[F_TITLE] = x + (c.id ? c.id + 2 : 0);
	r->x[F_STATUS] = r->x[F_TITLE] + c.title + 1;
	r->x[F_WHEN] = r->x[F_STATUS] + (c.status ? c.status + 1 : 0);
}

static void row_format(const struct item *it, int cols, time_t now, struct board_row *r)
{
	row_columns(cols, r);
	struct buf raw, clean;
	buf_init(&raw);
	buf_init(&clean);
	for (int f = 0; f < F_COUNT; f++) {
		buf_init(&r->text[f]);
		if (r->w[f] <= 0)
			continue;
		buf_clear(&raw);
		bool ellipsis = false;
		switch (f) {
		case F_MARK:
			mark_text(it, r->w[f] > 1, &raw);
			break;
		case F_SLOT:
			buf_putc(&raw, it->slot ? (char)('0' + it->slot) : ' ');
			break;
		case F_ID:
			buf_puts(&raw, it->id);   /* its start: fit cuts it to the column */
			break;
		case F_TITLE:
			buf_puts(&raw, it->title && *it->title ? it->title : "(untitled)");
			ellipsis = true;
			break;
		case F_STATUS:
			conv_row_status_words(it->status, &raw);
			ellipsis = true;
			break;
		default:
			if (it->activity_unix > 0)
				reltime_format_time((time_t)it->activity_unix, now, &raw);
			else
				buf_putc(&raw, '-');
			break;
		}
		if (f == F_MARK || f == F_SLOT) {
			fit(raw.data, raw.len, r->w[f], false, &r->text[f]);
		} else {    /* server text: the columns must not depend on the caller's cleaning */
			conv_row_flat(buf_cstr(&raw), &clean);
			fit(clean.data, clean.len, r->w[f], ellipsis, &r->text[f]);
		}
	}
	buf_fini(&raw);
	buf_fini(&clean);
}

static void row_fini(struct board_row *r)
{
	for (int f = 0; f < F_COUNT; f++)
		buf_fini(&r->text[f]);
}

/* The row as one line of text, trailing blanks dropped. */
static void row_join(const struct board_row *r, struct buf *out)
{
	size_t start = out->len;
	int x = 0;
	for (int f = 0; f < F_COUNT; f++) {
		if (r->w[f] <= 0)
			continue;
		for (; x < r->x[f]; x++)
			buf_putc(out, ' ');
		buf_append(out, r->text[f].data, r->text[f].len);
		x += r->w[f];
	}
	while (out->len > start && out->data[out->len - 1] == ' ')
		out->len--;
	buf_putc(out, '\n');
}

void board_text(struct board *b, int cols, time_t now, struct buf *out)
{
	for (size_t k = 0; k < b->nshown; k++) {
		struct board_row r;
		row_format(&b->items[b->shown[k]], cols, now, &r);
		row_join(&r, out);
		row_fini(&r);
	}
}

/* ------------------------------------------------------------------ paint */

/* Where things go: a full screen has the title, the filter, the list, the detail and the
 * help; a short one the filter, the list and the help; a tiny one only the list. -1: not
 * shown. */
struct geometry {
	int title_y, filter_y, list_y, list_rows, detail_y, help_y;
};

static struct geometry geometry(int lines)
{
	if (lines >= 7)
		return (struct geometry){ 0, 1, 2, lines - 4, lines - 2, lines - 1 };
	if (lines >= 3)
		return (struct geometry){ -1, 0, 1, lines - 2, -1, lines - 1 };
	return (struct geometry){ -1, -1, 0, lines, -1, -1 };
}

static size_t need_you(const struct board *b)
{
	size_t n = 0;
	for (size_t i = 0; i < b->count; i++)
		n += b->items[i].mark != CONV_MARK_NONE;
	return n;
}

static int put(int y, int x, int cols, const char *s, const struct look *l)
{
	return draw_text(y, x, cols, s, strlen(s), l);
}

/* What the selected conversation waits for, in words its status does not already say; brief
 * when the line is short, the next step kept. */
static void waits_for(const struct item *it, bool brief, struct buf *out)
{
	if (waits_for_confirmation(it))
		buf_puts(out, brief ? "Ctrl-O to answer" : "waits for your confirmation (Ctrl-O to answer)");
	else if (it->mark == CONV_MARK_FINISHED)
		buf_puts(out, brief ? "ended" : "ended since you last looked");
	else if (it->run_status == RUN_STATUS_IDLE || it->run_status == RUN_STATUS_FINISHED)
		buf_puts(out, brief ? "waits for you" : "waits for your message");
	if (it->mark == CONV_MARK_UNREAD || it->unread) {
		if (out->len)
			buf_puts(out, " · ");
		if (it->unread)
			buf_printf(out, brief ? "%zu unread" : "%zu unread agent message%s", it->unread,
				   it->unread == 1 ? "" : "s");
		else
			buf_puts(out, brief ? "unread" : "unread agent messages");
	}
}

/* Under the list: the hint of the last key, else the selection's full id, status and what
 * it waits for. Too long for the line, the id gives way first, then the words get brief: what
 * to do next is never cut. */
static void paint_detail(struct board *b, int y, int cols)
{
	if (b->hint) {
		put(y, 0, cols, b->hint, &bold);
		return;
	}
	if (!b->nshown)
		return;
	const struct item *it = &b->items[b->shown[b->sel]];
	struct buf id, slot, status, words;
	buf_init(&id);
	buf_init(&slot);
	buf_init(&status);
	buf_init(&words);
	conv_row_flat(it->id, &id);
	if (it->slot)
		buf_printf(&slot, " · open as %d", it->slot);
	/* the status in words, unless what it waits for says it better */
	if (!waits_for_confirmation(it)) {
		struct buf raw;
		buf_init(&raw);
		conv_row_status_words(it->status, &raw);
		struct buf flat;   /* conv_row_flat replaces what its buffer held */
		buf_init(&flat);
		conv_row_flat(buf_cstr(&raw), &flat);
		buf_printf(&status, " · %s", buf_cstr(&flat));
		buf_fini(&flat);
		buf_fini(&raw);
	}
	waits_for(it, false, &words);
	int id_w = text_width(id.data, id.len), min_id = id_w < 8 ? id_w : 8;
	int rest = text_width(slot.data, slot.len) + text_width(status.data, status.len) +
		   (words.len ? 3 + text_width(words.data, words.len) : 0);
	if (min_id + rest > cols && words.len) {
		buf_clear(&words);
		waits_for(it, true, &words);
		rest = text_width(slot.data, slot.len) + text_width(status.data, status.len) +
		       (words.len ? 3 + text_width(words.data, words.len) : 0);
	}
	if (id_w + rest > cols) {
		struct buf fitted;
		buf_init(&fitted);
		status_put_fitted(&fitted, id.data, id.len, cols - rest > min_id ? cols - rest : min_id);
		buf_clear(&id);
		buf_append(&id, fitted.data, fitted.len);
		buf_fini(&fitted);
	}
	int x = draw_text(y, 0, cols, id.data, id.len, &plain);
	if (slot.len)
		x = draw_text(y, x, cols, slot.data, slot.len, &bold);
	if (status.len)
		x = draw_text(y, x, cols, status.data, status.len, &plain);
	if (words.len) {
		x = put(y, x, cols, " · ", &dim);
		draw_text(y, x, cols, words.data, words.len,
			  it->mark ? &mark_looks[it->mark] : &plain);
	}
	buf_fini(&words);
	buf_fini(&status);
	buf_fini(&slot);
	buf_fini(&id);
}

static void paint_row(struct board *b, int y, int cols, time_t now, size_t k)
{
	const struct item *it = &b->items[b->shown[k]];
	bool selected = k == b->sel;
	if (selected) {
		attron(A_REVERSE);
		mvhline(y, 0, ' ', cols);
		attroff(A_REVERSE);
	}
	struct board_row r;
	row_format(it, cols, now, &r);
	for (int f = 0; f < F_COUNT; f++) {
		if (r.w[f] <= 0)
			continue;
		struct look l = f == F_MARK ? mark_looks[it->mark] :
				f == F_ID ? dim : f == F_SLOT ? bold : plain;
		if (selected)
			l = (struct look){ l.attr | A_REVERSE, l.pair, l.mono | A_REVERSE };
		int end = r.x[f] + r.w[f];
		if (f == F_ID || f == F_TITLE)
			draw_highlighted(y, r.x[f], end, r.text[f].data, r.text[f].len, &l,
					 b->filter.data, b->filter.len, true);
		else
			draw_text(y, r.x[f], end, r.text[f].data, r.text[f].len, &l);
	}
	row_fini(&r);
}

void board_paint(struct board *b, int lines, int cols, time_t now, const char *status_note)
{
	erase();
	if (lines <= 0 || cols <= 0)
		return;
	struct geometry g = geometry(lines);
	b->page = (size_t)(g.list_rows > 0 ? g.list_rows : 1);
	b->list_y = g.list_y;
	if (b->sel < b->top)
		b->top = b->sel;
	if (b->sel >= b->top + b->page)
		b->top = b->sel - b->page + 1;
	/* a screen grown taller shows the rows above rather than blank lines */
	if (b->top + b->page > b->nshown)
		b->top = b->nshown > b->page ? b->nshown - b->page : 0;
	struct buf s;
	buf_init(&s);
	if (g.title_y >= 0) {
		int x = put(g.title_y, 0, cols, "Conversations on ", &bold);
		conv_row_flat(b->server, &s);
		x = draw_text(g.title_y, x, cols, s.data, s.len, &bold);
		size_t n = need_you(b);
		buf_clear(&s);
		if (n)
			buf_printf(&s, " · %zu need%s you", n, n == 1 ? "s" : "");
		else
			buf_puts(&s, " · none needs you");
		draw_text(g.title_y, x, cols, s.data, s.len, n ? &bold : &dim);
	}
	if (g.filter_y >= 0) {
		int x = put(g.filter_y, 0, cols, "Filter: ", &dim);
		if (b->filter.len) {
			conv_row_flat(b->filter.data, &s);
			x = draw_text(g.filter_y, x, cols, s.data, s.len, &plain);
			draw_text(g.filter_y, x, cols, " ", 1, &reverse);
		} else {
			put(g.filter_y, x, cols, "type to filter by title or id", &dim);
		}
	}
	if (!b->nshown && b->count) {
		struct buf line;
		buf_init(&line);
		conv_row_no_match(b->filter.data, &line);
		draw_text(g.list_y, 0, cols, line.data, line.len, &plain);
		buf_fini(&line);
	} else if (!b->count) {
		put(g.list_y, 0, cols, "No conversations on the server yet", &dim);
	}
	for (int r = 0; r < g.list_rows && b->top + (size_t)r < b->nshown; r++)
		paint_row(b, g.list_y + r, cols, now, b->top + (size_t)r);
	if (g.detail_y >= 0)
		paint_detail(b, g.detail_y, cols);
	if (g.help_y >= 0) {
		int x = 0;
		if (g.detail_y < 0 && b->hint) {
			x = put(g.help_y, x, cols, b->hint, &bold);
		}
		/* the keys are the next step: the note gives way first, then they get brief */
		const char *keys = "Enter open · Ctrl-O answer · Esc back · type to filter";
		int keys_w = text_width(keys, strlen(keys));
		if (!(g.detail_y < 0 && b->hint) && status_note && *status_note) {
			conv_row_flat(status_note, &s);
			int note_w = text_width(s.data, s.len);
			if (note_w + 2 + keys_w > cols) {
				keys = "Enter · Ctrl-O · Esc";
				keys_w = text_width(keys, strlen(keys));
			}
			if (note_w + 2 + keys_w > cols && cols - 2 - keys_w >= 8) {
				struct buf fitted;
				buf_init(&fitted);
				status_put_fitted(&fitted, s.data, s.len, cols - 2 - keys_w);
				buf_clear(&s);
				buf_append(&s, fitted.data, fitted.len);
				buf_fini(&fitted);
			}
			x = draw_text(g.help_y, x, cols, s.data, s.len, &bold);
			x = put(g.help_y, x, cols, "  ", &plain);
		}
		put(g.help_y, x, cols, keys, &dim);
	}
	buf_fini(&s);
}
