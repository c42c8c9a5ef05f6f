/* render: the view — what the conversation model looks like on a grid of cells, independent
 * of any terminal library. Widths, markdown-lite layout and wrapping, an item's rows (cached
 * per item by width and version), the viewport, and the render clock. libc, base and model
 * only; the words that name the front-end's keys come from the caller (render_set_words). */
#ifndef TETHER_RENDER_H
#define TETHER_RENDER_H

#include "base.h"
#include "model.h"

/* ----------------------------------------------------------------- width */

/* Decodes one UTF-8 character at s[0..n); returns the bytes consumed (>= 1 when n > 0) and
 * sets *cp, U+FFFD for an invalid or truncated sequence. */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
/* Columns a code point takes, as ncurses (wcwidth) draws it: 0, 1 or 2. Controls give 0. */
int cp_width(uint32_t cp);
/* Bytes of the grapheme cluster starting at s[0..n) (base plus combining and spacing marks,
 * ZWJ sequences, flag pairs, Indic conjuncts, variation selectors) and its width in *width. */
size_t grapheme_next(const char *s, size_t n, int *width);
/* Columns of a whole UTF-8 string. */
int text_width(const char *s, size_t n);
/* Whether s[0..n) takes at most width columns (measured only when it has more bytes). */
bool text_fits(const char *s, size_t n, int width);
/* One row of s[0..n) at most width columns wide, broken after the last word that fits (a
 * word wider than the row is cut between graphemes) or at a newline: returns the row's bytes
 * and sets *next to where the next row starts. */
size_t text_wrap_row(const char *s, size_t n, int width, size_t *next);

/* ---------------------------------------------------------------- layout */

enum text_style {
	STYLE_PLAIN = 0,
	STYLE_BOLD = 1 << 0,
	STYLE_ITALIC = 1 << 1,
	STYLE_CODE = 1 << 2,        /* inline code */
	STYLE_CODEBLOCK = 1 << 3,   /* inside a fenced code block */
	STYLE_HEADING = 1 << 4,
	STYLE_QUOTE = 1 << 5,
	STYLE_DIM = 1 << 6,         /* secondary text: reasoning, tool output, markers */
	STYLE_LINK = 1 << 8,        /* a link's text: its URL is in a footnote row below */
	STYLE_STRIKE = 1 << 9,      /* ~~struck~~ text */
	/* bits 12-15: the kind of token highlighted code is (enum token), 0 for none */
};

/* What a piece of highlighted code or diff is: its colour comes from the front-end's pairs. */
enum token {
	TOKEN_NONE,
	TOKEN_KEYWORD,
	TOKEN_STRING,
	TOKEN_COMMENT,
	TOKEN_NUMBER,
	TOKEN_DIFF_FILE,            /* a diff's "---" and "+++" lines */
	TOKEN_DIFF_HUNK,            /* "@@ -3,2 +3,4 @@" */
	TOKEN_DIFF_DEL,             /* a removed line */
	TOKEN_DIFF_ADD,             /* an added line */
	TOKEN_DIFF_DEL_WORD,        /* the words that changed inside a removed line */
	TOKEN_DIFF_ADD_WORD,        /* inside an added line */
	TOKEN_COUNT,
};
#define STYLE_TOKEN_SHIFT 12
#define STYLE_TOKEN(t) ((uint16_t)((unsigned)(t) << STYLE_TOKEN_SHIFT))
#define STYLE_TOKEN_OF(style) ((enum token)((unsigned)(style) >> STYLE_TOKEN_SHIFT))

/* Languages code is highlighted in. */
enum code_lang {
	LANG_NONE,
	LANG_PYTHON,
	LANG_SHELL,
	LANG_C,
	LANG_JS,
	LANG_GO,
	LANG_RUST,
	LANG_JSON,
	LANG_YAML,
	LANG_DIFF,
	LANG_MARKDOWN,
	LANG_COUNT,
};
/* The language a fence's info word ("python", "sh", "ts") names, LANG_NONE if none known. */
enum code_lang code_lang_named(const char *s, size_t n);
/* The language of a file view's text (upstream's "Here's the result of running `cat -n` on
 * PATH:" and numbered lines) by PATH's extension; LANG_NONE for any other text. */
enum code_lang text_view_lang(const char *s, size_t n);
/* Whether s[0..n) starts with a fenced block of a diff (an edit's arguments). */
bool text_opens_diff(const char *s, size_t n);
/* Lines of s[0..n) that a LAYOUT_FENCES layout shows as text: a code fence's own lines (its
 * rules) are not counted, and a final newline ends the last line rather than starting one. */
size_t text_fenced_lines(const char *s, size_t n);
/* The language of a file by its name's extension ("x.py", "Makefile" is none). */
enum code_lang code_lang_of_path(const char *path, size_t n);

/* A run of display text in one style. */
struct span {
	uint32_t off;               /* into layout.text */
	uint32_t len;
	uint16_t style;
};

/* One screen row of laid-out text. */
struct row {
	uint32_t span_first;
	uint32_t span_count;
	uint16_t width;             /* columns used, indent included */
	uint16_t indent;            /* leading blank columns (list continuation, code block) */
};

enum layout_flags {
	LAYOUT_MARKDOWN = 1 << 0,   /* interpret markdown-lite; else plain text */
	LAYOUT_STREAMING = 1 << 1,  /* src is still growing: markers on its unfinished last line
				     * that may yet open or close are hidden, not shown raw */
	LAYOUT_REFLOW = 1 << 2,     /* with markdown: a paragraph's soft line breaks are spaces,
				     * so prose reflows to the width */
	LAYOUT_FENCES = 1 << 3,     /* without markdown: fenced code blocks still are (text
				     * shown as it is, but for highlighted code and diffs) */
};
/* Without markdown: lines numbered as `cat -n` prints them ("     7\tcode") are code in
 * language lang (enum code_lang), their numbers dim. */
#define LAYOUT_LANG_SHIFT 8
#define LAYOUT_LANG(lang) ((unsigned)(lang) << LAYOUT_LANG_SHIFT)

/* The wrapped rows of one text at one width. Markers of markdown never reach text. */
struct layout {
	struct buf text;
	struct span *spans;
	size_t nspans, spans_cap;
	struct row *rows;
	size_t nrows, rows_cap;
	int width;
	unsigned flags;
	/* incremental state: what of the source is laid out for good */
	size_t settled_src;
	size_t settled_text;
	size_t settled_spans;
	size_t settled_rows;
	int settled_md_state;
	int settled_links;          /* links numbered before settled_src */
};

/* Makes an empty layout. */
void layout_init(struct layout *l);
/* Frees a layout's storage. */
void layout_fini(struct layout *l);
/* Forgets everything laid out (the source changed in a way other than growing). */
void layout_reset(struct layout *l);
/* Lays src[0..len) out at width columns (at least 1). When width and flags are those of the
 * previous call and src only grew since then, only the tail from the last settled line (the
 * start of a paragraph or table still open) is laid out again, with the result of a fresh
 * layout. Long words break at grapheme boundaries; a wide character never straddles the
 * edge; an unterminated code fence is code until it closes; markers never show raw. */
void layout_update(struct layout *l, const char *src, size_t len, int width, unsigned flags);

/* -------------------------------------------------------- transcript rows */

/* One row of an item at a width, ready to paint. Valid until the transcript changes. */
struct view_row {
	size_t item;
	size_t row_in_item;
	enum item_kind kind;
	const char *text;       /* base for spans' offsets */
	const struct span *spans;
	size_t nspans;
	uint16_t indent;
	bool header;            /* the item's header row (author, tool, status) */
	bool more;              /* the row after a capped section ("… 3 more lines"): the
				 * front-end adds the keys that act on it */
	bool separator;         /* the blank row between items */
	bool gap;               /* the row of history not loaded above item (render/gap.c) */
};

/* Rows item idx takes at width (header, body, reasoning when expanded, separator); lays out
 * on demand and caches per (width, version). */
size_t transcript_item_rows(struct transcript *t, size_t idx, int width);
/* Whether item idx has a section capped at width (output or arguments longer than a card
 * shows collapsed), expanded or not: what Tab changes on it. */
bool transcript_item_capped(struct transcript *t, size_t idx, int width);
/* What a card's result is called on its rule and in the pager: "output", "reason" for a
 * rejection, "error" for the agent's error (upstream's "Rejection Reason", "Error Details"). */
const char *card_result_name(const struct item_info *it);
/* Fills *out with row r of item idx at width. */
void transcript_item_row(struct transcript *t, size_t idx, size_t r, int width,
			 struct view_row *out);

/* Words of the front-end that rows show: the view knows no keys. NULL or "" shows none. */
struct render_words {
	const char *expand_hint;    /* after a collapsed section, e.g. "Tab to expand" */
};
/* Sets the words rows are built with from now on (copied; the strings must stay valid). */
void render_set_words(const struct render_words *w);
/* Writes the time an item's ISO 8601 timestamp shows as ("14:05") into out; false when it
 * shows none. */
typedef bool (*render_clock_fn)(const char *iso, char *out, size_t size);
/* Headers show each item's time through fn from now on; NULL shows none. */
void render_set_clock(render_clock_fn fn);
/* Whether headers show times (a clock is set). */
bool render_clock_shown(void);
/* Test hook: item row caches (re)built so far in this process. */
uint64_t render_layouts_built(void);

/* -------------------------------------------------------------- viewport */

enum { VIEWPORT_GAP_ROWS = 4 };

/* What the reader sees: a window of rows anchored at an item and a row inside it. An item
 * with history not loaded right above it (transcript_missing_before) has a gap row first. */
struct viewport {
	int width, height;
	bool follow;            /* glued to the bottom */
	size_t top_item;        /* when not following */
	size_t top_row;
	size_t new_below;       /* rows added below since the reader scrolled up */
	uint64_t seen_generation;
	uint64_t top_uid;       /* the anchor when not following: top_item's uid (0: none yet) */
	size_t top_gap;         /* gap rows the top item had when anchored */
	const char *gap_note;   /* what gap rows say after the count ("loading…"); NULL: a hint */
	/* the text of the gap rows viewport_rows made (valid until its next call) */
	char gap_text[VIEWPORT_GAP_ROWS][160];
	struct span gap_span[VIEWPORT_GAP_ROWS];
	unsigned gap_next;
	uint64_t scrolls;       /* viewport_scroll calls, moving or not (the reader's cue) */
};

/* Starts in follow mode. */
void viewport_init(struct viewport *v, int width, int height);
/* A new terminal size: keeps the reader's place (the top item stays on top). */
void viewport_resize(struct viewport *v, struct transcript *t, int width, int height);
/* Scrolls by rows (negative: up). Scrolling to the bottom resumes follow mode. */
void viewport_scroll(struct viewport *v, struct transcript *t, long rows);
/* Back to the bottom, following. */
void viewport_follow(struct viewport *v);
/* Puts item idx at the top of the view. */
void viewport_show_item(struct viewport *v, struct transcript *t, size_t idx);
/* Accounts for output added since the last call (new_below grows while scrolled up). */
void viewport_note_changes(struct viewport *v, struct transcript *t);
/* Fills up to v->height rows from the top of the view; returns how many. Costs
 * O(visible rows), not O(transcript). */
size_t viewport_rows(struct viewport *v, struct transcript *t, struct view_row *rows);

/* Gap rows above item idx: 1 when history is missing right above it, else 0. */
size_t gap_rows(struct transcript *t, size_t idx);
/* Fills *out with the gap row above item idx (its text lives in v until v's next rows). */
void gap_row_fill(struct viewport *v, struct transcript *t, size_t idx, struct view_row *out);

/* ---------------------------------------------------------- render clock */

/* Mutations mark dirty; the first mark after a frame asks for one frame at the next
 * boundary of a fixed period. */
struct render_clock {
	int64_t period_us;
	int64_t last_frame_us;
	bool armed;
};

/* Sets the clock to hz frames per second (clamped to 1..240). */
void render_clock_init(struct render_clock *c, int hz);
/* Something changed at now_us: returns the delay until the frame should be painted, or -1
 * when a frame is already armed. */
int64_t render_clock_mark(struct render_clock *c, int64_t now_us);
/* A frame was painted at now_us. */
void render_clock_painted(struct render_clock *c, int64_t now_us);

#endif
