/* render: what the transcript looks like, independent of any terminal library.
 * Sanitizing, widths, markdown-lite layout and wrapping, the transcript of items and
 * streaming slots, the viewport, and the render clock. libc only. */
#ifndef TETHER_RENDER_H
#define TETHER_RENDER_H

#include "base.h"

/* -------------------------------------------------------------- sanitize */

/* Streaming sanitizer state: carries a partial escape sequence or UTF-8 character from
 * one chunk to the next so that a split sequence is removed as a whole. */
struct sanitizer {
	int state;
	unsigned char pending[8];
	int npending;
	uint32_t emoji_prev;    /* last code point of an emoji sequence just written, else 0 */
	bool zwj_held;          /* a ZWJ after an emoji: written only if an emoji follows */
};

/* Starts a fresh stream. */
void sanitizer_init(struct sanitizer *s);
/* Appends the display-safe form of in[0..n) to out. The output is valid UTF-8 whose only
 * control characters are '\n' and '\t': ESC sequences (CSI, OSC 52, title changes, DCS,
 * screen clears) are removed whole; C1 controls (U+0080..U+009F) are removed one by one,
 * never taking what follows; other C0 controls, DEL, BEL, backspace and bare CR are removed;
 * default-ignorable code points and bidi controls (U+200B, U+00AD, U+202E, U+2066, ...)
 * are removed, except ZWJ, variation selectors and tags inside emoji sequences; invalid
 * UTF-8 becomes U+FFFD. Bytes that may start an unfinished sequence (and a ZWJ that an emoji
 * may follow) are held until the next feed. */
void sanitizer_feed(struct sanitizer *s, const char *in, size_t n, struct buf *out);
/* Ends the stream: whatever is held is resolved (an unfinished sequence is dropped, a
 * truncated character becomes U+FFFD). */
void sanitizer_flush(struct sanitizer *s, struct buf *out);
/* One-shot: sanitizes a complete text. The one function every output path uses. */
void sanitize_text(const char *in, size_t n, struct buf *out);

/* ----------------------------------------------------------------- width */

/* Decodes one UTF-8 character at s[0..n); returns the bytes consumed (>= 1 when n > 0) and
 * sets *cp, U+FFFD for an invalid or truncated sequence. */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
/* Columns a code point takes, as ncurses (wcwidth) draws it: 0, 1 or 2. Controls give 0. */
int cp_width(uint32_t cp);
/* Bytes of the grapheme cluster starting at s[0..n) (base plus combining marks, ZWJ
 * sequences, variation selectors) and its width in *width. */
size_t grapheme_next(const char *s, size_t n, int *width);
/* Columns of a whole UTF-8 string. */
int text_width(const char *s, size_t n);

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
	STYLE_MATCH = 1 << 7,       /* a search hit */
};

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
};

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
};

/* Makes an empty layout. */
void layout_init(struct layout *l);
/* Frees a layout's storage. */
void layout_fini(struct layout *l);
/* Forgets everything laid out (the source changed in a way other than growing). */
void layout_reset(struct layout *l);
/* Lays src[0..len) out at width columns (at least 1). When width and flags are those of the
 * previous call and src only grew since then, only the tail from the last settled line is
 * laid out again. Long words break at grapheme boundaries; a wide character never straddles
 * the edge; an unterminated code fence is code until it closes; markers never show raw. */
void layout_update(struct layout *l, const char *src, size_t len, int width, unsigned flags);

/* ------------------------------------------------------------ transcript */

enum item_kind {
	ITEM_USER,          /* a user message */
	ITEM_AGENT,         /* an agent message (also an open stream) */
	ITEM_TOOL,          /* a tool card: action plus its result when it came */
	ITEM_TOOL_RESULT,   /* an observation/rejection/agent error; attaches to its card */
	ITEM_ERROR,         /* conversation error, error frame, client-side error */
	ITEM_NOTICE,        /* pause, interrupt, status changes, placeholders, other kinds */
	ITEM_SYSTEM,        /* system prompt: collapsed */
};

enum tool_outcome {
	TOOL_PENDING,       /* no result yet */
	TOOL_DONE,
	TOOL_FAILED,
	TOOL_REJECTED,
	TOOL_NO_RESULT,     /* the run ended without a result */
	TOOL_BLOCKED,       /* a hook refused to run it */
	TOOL_STILL_RUNNING, /* no output for a while: still running (terminal soft timeout) */
	TOOL_TIMED_OUT,     /* ended by its timeout */
};

/* An event as the transcript takes it. Text is already sanitized and masked; all strings
 * are copied. NULL strings mean absent. */
struct item_spec {
	enum item_kind kind;
	int64_t seq;                /* -1 when not durable */
	const char *id;             /* event id, NULL for local notices */
	const char *text;
	size_t text_len;
	const char *reasoning;
	size_t reasoning_len;
	const char *title;          /* tool name, error code, notice label */
	const char *summary;        /* one-line action summary */
	const char *full_action;    /* every argument of the action, whole (the confirmation) */
	const char *tool_call_id;
	enum tool_outcome outcome;  /* ITEM_TOOL_RESULT */
	int risk;                   /* 0 absent, 1 unknown, 2 low, 3 medium, 4 high */
	bool has_exit_code;
	int exit_code;
	/* ITEM_TOOL: what the tool was asked to do, beyond the summary (markdown-lite). */
	const char *detail;
	size_t detail_len;
	/* ITEM_TOOL that arrives with its result (an ACP tool call): result text and outcome. */
	bool has_result;
	/* ITEM_TOOL re-emitted as it progresses (an ACP tool call): a card with the same
	 * tool_call_id takes this content in place, the last emission being authoritative. */
	bool replaces_card;
	const char *result;
	size_t result_len;
};

/* What applying an event or progress frame did. */
enum apply_result {
	APPLY_ADDED,            /* a new item */
	APPLY_RETIRED,          /* a durable event took over the open stream with its id */
	APPLY_ATTACHED,         /* a tool result joined its card */
	APPLY_DUPLICATE,        /* an event id already in the transcript: nothing changed */
	APPLY_OPENED,           /* a stream slot opened */
	APPLY_SUPERSEDED,       /* a higher attempt reset the slot */
	APPLY_APPENDED,         /* delta text added */
	APPLY_LOSSY,            /* delta added after an order gap: the slot is lossy */
	APPLY_ABORTED,          /* the slot was dropped */
	APPLY_IGNORED_STALE,    /* a frame for a lower attempt than the slot's */
	APPLY_IGNORED_RETIRED,  /* a late frame for a recently retired or aborted item */
	APPLY_IGNORED_UNKNOWN,  /* an abort for an item never opened */
};

struct transcript;

/* Creates an empty transcript. */
struct transcript *transcript_create(void);
/* Frees a transcript and all its items. */
void transcript_destroy(struct transcript *t);
/* Adds a durable or transient event, or a local notice. Durables are deduplicated by id and
 * kept in seq order; one whose id is an open stream's item_id retires it in place. */
enum apply_result transcript_add_event(struct transcript *t, const struct item_spec *spec);
/* item_started: opens the slot, or supersedes a lower attempt. */
enum apply_result transcript_stream_start(struct transcript *t, const char *item_id, int attempt,
					  bool has_anchor_seq, int64_t anchor_seq);
/* A delta (text already sanitized and masked). Opens the slot if no item_started came. */
enum apply_result transcript_stream_delta(struct transcript *t, const char *item_id, int attempt,
					  int64_t order, bool reasoning, const char *text,
					  size_t len);

/* An open stream: the one owner of its attempt, order, lossy and stall state. Valid until
 * the stream is retired, aborted or discarded. */
struct item;
/* What a delta for (item_id, attempt) does to its stream, in one lookup: APPLY_OPENED (no
 * item_started came), APPLY_SUPERSEDED (a higher attempt: its text starts over),
 * APPLY_APPENDED (the open attempt), or APPLY_IGNORED_STALE / _RETIRED / _UNKNOWN. *slot is
 * the stream to append to, NULL when the delta is ignored. */
enum apply_result transcript_stream_admit(struct transcript *t, const char *item_id, int attempt,
					  struct item **slot);
/* Appends a delta's text (sanitized and masked) to a stream admit gave, at now_us (the stall
 * clock; a delta ends a stall): APPLY_APPENDED, or APPLY_LOSSY after an order gap. */
enum apply_result transcript_slot_append(struct transcript *t, struct item *slot, int64_t order,
					 bool reasoning, const char *text, size_t len,
					 int64_t now_us);
/* The open stream for item_id, or NULL. */
struct item *transcript_stream_find(const struct transcript *t, const char *item_id);
/* Open stream i, oldest first (i < transcript_open_streams), else NULL. */
struct item *transcript_stream_at(const struct transcript *t, size_t i);
/* The stream's item_id as received. */
const char *transcript_slot_id(const struct item *slot);
/* The stream's open attempt. */
int transcript_slot_attempt(const struct item *slot);
/* What the stream's owner keeps with it (NULL until set); the transcript never frees it. */
void *transcript_slot_data(const struct item *slot);
/* Sets what the stream's owner keeps with it. */
void transcript_slot_set_data(struct item *slot, void *data);
/* Open streams marked stalled. */
size_t transcript_stalled_streams(const struct transcript *t);
/* Marks each stream without a delta since limit_us before now_us stalled, once per stall,
 * calling on_stalled for it (newest first; it may not open or close streams); none while
 * quiet_is_work (a tool runs). True while any stream has had a delta: keep checking. */
bool transcript_streams_check_stalls(struct transcript *t, int64_t now_us, int64_t limit_us,
				     bool quiet_is_work,
				     void (*on_stalled)(void *ctx, struct item *slot), void *ctx);
/* item_aborted: drops the slot whatever its attempt. */
enum apply_result transcript_stream_abort(struct transcript *t, const char *item_id, int attempt,
					  const char *reason);
/* Drops every open slot (a reconnect); returns how many. */
size_t transcript_discard_streams(struct transcript *t);
/* Open streaming slots. */
size_t transcript_open_streams(const struct transcript *t);
/* The attempt of an open slot, or 0 when item_id is not open. */
int transcript_stream_attempt(const struct transcript *t, const char *item_id);
/* Marks an open slot stalled (no delta for too long) or not. */
void transcript_stream_set_stalled(struct transcript *t, const char *item_id, bool stalled);
/* The run ended (idle, finished, paused, error, stuck): cards without a result say so. */
void transcript_mark_run_ended(struct transcript *t);
/* Sets whether confirmation is pending: cards without a result show "awaiting confirmation". */
void transcript_set_awaiting_confirmation(struct transcript *t, bool awaiting);
/* Cards still awaiting a result (for the confirmation prompt); returns the count and fills up
 * to max item indices. */
size_t transcript_pending_tools(const struct transcript *t, size_t *idx, size_t max);
/* Reveals streamed text at a steady pace: call once per render tick. Returns true while some
 * slot still has text to reveal (keep ticking). */
bool transcript_reveal_tick(struct transcript *t);
/* A counter that changes whenever anything visible changes. */
uint64_t transcript_generation(const struct transcript *t);

/* Items in display order. */
size_t transcript_count(const struct transcript *t);
/* Read-only facts about one item, for painting and tests. */
struct item_info {
	enum item_kind kind;
	int64_t seq;            /* -1 for slots and non-durables */
	const char *id;
	const char *text;       /* full text (for a slot: what arrived so far) */
	size_t text_len;
	const char *reasoning;
	size_t reasoning_len;
	const char *title;
	const char *summary;
	const char *full_action; /* tool card: every argument of the action, whole */
	enum tool_outcome outcome;
	const char *result_text; /* tool card: the result's text */
	const char *detail;     /* tool card: its arguments ("" when none) */
	size_t detail_len;
	int risk;
	bool streaming;         /* an open slot */
	bool lossy;
	bool stalled;
	bool awaiting_confirmation;
	bool reasoning_expanded;
	int attempt;
};
/* Fills *info for item idx (strings stay owned by the transcript). */
void transcript_item(const struct transcript *t, size_t idx, struct item_info *info);
/* Toggles whether item idx shows its reasoning (collapsed by default). */
void transcript_toggle_reasoning(struct transcript *t, size_t idx);

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
	bool separator;         /* the blank row between items */
};

/* Rows item idx takes at width (header, body, reasoning when expanded, separator); lays out
 * on demand and caches per (width, version). */
size_t transcript_item_rows(struct transcript *t, size_t idx, int width);
/* Fills *out with row r of item idx at width. */
void transcript_item_row(struct transcript *t, size_t idx, size_t r, int width,
			 struct view_row *out);
/* Finds the next item at or after from (before, when backwards) whose text contains needle
 * (case-insensitive for ASCII). Returns its index or -1. */
long transcript_search(const struct transcript *t, const char *needle, size_t from,
		       bool backwards);

/* -------------------------------------------------------------- viewport */

/* What the reader sees: a window of rows anchored at an item and a row inside it. */
struct viewport {
	int width, height;
	bool follow;            /* glued to the bottom */
	size_t top_item;        /* when not following */
	size_t top_row;
	size_t new_below;       /* rows added below since the reader scrolled up */
	uint64_t seen_generation;
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
