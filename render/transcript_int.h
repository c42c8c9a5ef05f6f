/* Private to render/: the item and transcript structures shared by transcript.c, slots.c,
 * rows.c and viewport.c, the string map they index with, and test hooks. Not a public
 * contract: nothing outside render/ and tests/transcript/ includes it. */
#ifndef TETHER_TRANSCRIPT_INT_H
#define TETHER_TRANSCRIPT_INT_H

#include "render.h"

/* ------------------------------------------------------------ the items */

struct item_rows;

/* One transcript entry. Display order is by (key_major, key_minor): a durable sorts at
 * (seq, 0); everything else gets (major it is placed after, arrival counter), so a slot
 * anchored at seq A sits between durable A and durable A+1 whenever those arrive. A retired
 * slot keeps its key while its seq becomes the durable's (the in-place exception). */
struct item {
	enum item_kind kind;
	int64_t seq;
	int64_t key_major;
	uint64_t key_minor;
	size_t pos;                     /* index in transcript.items */
	char *id;
	struct buf text;
	struct buf reasoning;
	struct buf result;              /* tool card: the attached result's text */
	struct buf detail;              /* tool card: its arguments */
	char *title, *summary, *tool_call_id;
	char *full_action;              /* tool card: every argument of the action, whole */
	char *result_id;                /* event id of the attached result */
	enum tool_outcome outcome;
	int risk;
	bool has_exit_code;
	int exit_code;
	bool has_result;
	bool streaming;
	bool was_slot;                  /* opened as a slot: keeps its place when retired */
	bool lossy, stalled;
	bool reasoning_expanded;
	bool pending_listed;            /* in transcript.pending */
	/* streamed text with inline <think>…</think> (think.c) */
	bool think_inside, think_seen;
	unsigned char think_held;       /* bytes of a possibly split tag held back */
	char think_hold[8];
	int attempt;
	int64_t next_order;
	int64_t last_delta_us;          /* 0 until the slot's first delta: no stall before it */
	void *stream_data;              /* the stream owner's per-stream state (slots.c) */
	size_t shown_len;               /* revealed bytes of text (== text.len unless streaming) */
	size_t seen_len;                /* text.len at the previous reveal tick */
	size_t step;                    /* reveal bytes per tick */
	size_t reasoning_lines;         /* logical lines of reasoning */
	uint64_t version;               /* bumps on any change to the item's rows */
	uint64_t text_epoch;            /* bumps when text changed other than by growing */
	uint64_t reasoning_epoch;
	uint64_t result_epoch;
	uint64_t detail_epoch;
	struct item_rows *rows;         /* row cache, built on demand */
};

#define TRANSCRIPT_RETIRED_RING 256

struct transcript {
	struct item **items;
	size_t count, cap;
	uint64_t arrivals;              /* key_minor counter */
	uint64_t generation;
	uint64_t lines_added;           /* logical lines of output ever added (viewport new_below) */
	struct strmap by_id;            /* event id → item */
	struct strmap result_ids;       /* id of an attached tool result → its card */
	struct strmap cards;            /* tool_call_id → card */
	struct strmap slots;            /* item_id → open slot */
	struct item **open;             /* open slots, oldest first */
	size_t nopen, open_cap;
	struct item **pending;          /* cards without a result, in arrival order */
	size_t npending, pending_cap;
	bool awaiting;
	struct recent_ids retired;      /* recently retired, aborted or discarded item_ids */
	uint64_t layouts;               /* row caches (re)built: a test hook */
};

/* Marks item changed: its rows and the transcript's generation. */
void transcript_touch(struct transcript *t, struct item *it);
/* Puts a new item in display order by its key (normally at the end). */
void transcript_insert(struct transcript *t, struct item *it);
/* Takes an item out of display order (the caller frees or re-inserts it). */
void transcript_unlink(struct transcript *t, struct item *it);
/* Allocates a blank item. */
struct item *item_create(enum item_kind kind);
/* Frees an item and its row cache. */
void item_destroy(struct item *it);
/* Frees an item's row cache (rows.c). */
void item_rows_free(struct item_rows *r);
/* Counts '\n' in s[0..n). */
size_t count_newlines(const char *s, size_t n);
/* Takes a slot out of the open set (not out of display order). */
void transcript_slot_close(struct transcript *t, struct item *it);
/* Lists a card as waiting for its result. */
void transcript_pending_add(struct transcript *t, struct item *it);
/* Takes a card off the waiting list. */
void transcript_pending_remove(struct transcript *t, struct item *it);
/* Gives it the key of something placed at the end as it arrives. */
void transcript_key_at_end(struct transcript *t, struct item *it);
/* Copies an event's content into an item (a new one or one taking over as durable). */
void item_fill(struct item *it, const struct item_spec *spec);
/* A tool result joins its card (cards.c). */
enum apply_result transcript_attach_result(struct transcript *t, struct item *card,
					   const struct item_spec *spec);
/* A later emission of the same tool call replaces card's content in place (cards.c). */
enum apply_result transcript_update_card(struct transcript *t, struct item *card,
					 const struct item_spec *spec);
/* Indexes a tool card by tool_call_id and lists it as pending when it has no result. */
void transcript_index_card(struct transcript *t, struct item *it);
/* A durable event with an open slot's id: the slot's item becomes the event in place. */
enum apply_result transcript_retire_slot(struct transcript *t, struct item *slot,
					 const struct item_spec *spec);

/* Appends a streamed text delta to slot it, its inline <think>…</think> to the reasoning. */
void transcript_think_feed(struct transcript *t, struct item *it, const char *text, size_t len);
/* Forgets the think state (a new attempt starts the text again). */
void transcript_think_reset(struct item *it);

/* Logical lines of output added so far: new items count their lines, streamed text its
 * newlines. Monotonic; the viewport diffs it for new_below. */
uint64_t transcript_lines_added(const struct transcript *t);
/* Test hook: bytes of item idx's text revealed so far. */
size_t transcript_shown_len(const struct transcript *t, size_t idx);
/* Test hook: how many times an item's rows were (re)built since creation. */
uint64_t transcript_layouts_built(const struct transcript *t);

#endif
