/* model: the conversation as the client knows it, independent of any screen or wire format.
 * Items in display order (durables by seq, deduplicated by event id), streaming slots with
 * attempts, anchors and retire-in-place, tool cards with their results, inline thinking, the
 * pace at which streamed text is revealed, search over items, and a window over a long
 * history (pages placed by log order, gaps of history not loaded, trimming far items). Text
 * arrives sanitized and masked. libc and base only: no terminal, no JSON. */
#ifndef TETHER_MODEL_H
#define TETHER_MODEL_H

#include "base.h"

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
	const char *timestamp;      /* the event's ISO 8601 timestamp as sent, NULL when none */
	enum tool_outcome outcome;  /* ITEM_TOOL_RESULT */
	bool agent_error;           /* ITEM_TOOL_RESULT: the agent's error (AgentErrorEvent), not
				     * the tool's output */
	int risk;                   /* 0 absent, 1 unknown, 2 low, 3 medium, 4 high */
	bool has_exit_code;
	int exit_code;
	/* ITEM_TOOL: what the tool was asked to do, beyond the summary (markdown-lite). */
	const char *detail;
	size_t detail_len;
	/* ITEM_TOOL: a shell command (the terminal tool): its summary is the command line. */
	bool command;
	/* ITEM_TOOL that arrives with its result (an ACP tool call): result text and outcome. */
	bool has_result;
	/* ITEM_TOOL re-emitted as it progresses (an ACP tool call): a card with the same
	 * tool_call_id takes this content in place, the last emission being authoritative. */
	bool replaces_card;
	const char *result;
	size_t result_len;
	/* A REST page's event that makes no item (a state update, a log event): placed, its
	 * seq noted as loaded (transcript_place_page). */
	bool quiet;
	/* A durable's place in the tree (branch.c): the event before it on its branch as sent
	 * (NULL: absent, the log's previous event; "__root__": a root), and whether it is a
	 * state update (never HEAD). */
	const char *parent_id;
	bool state_update;
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
/* item_aborted after an interrupt: the slot's text stays, a finished agent item marked
 * interrupted (APPLY_ABORTED); a slot with no text yet is dropped as by
 * transcript_stream_abort. */
enum apply_result transcript_stream_interrupted(struct transcript *t, const char *item_id);
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
struct item_info;
/* The cards still awaiting a result, oldest first: what a confirmation asks about (the TUI's
 * modal, headless --on-confirm). Returns the count and fills up to max of them. */
size_t transcript_pending_infos(const struct transcript *t, struct item_info *out, size_t max);
/* The card that owns tool_call_id (its first), or -1: where a result pairs. */
long transcript_find_card(const struct transcript *t, const char *tool_call_id);
/* Reveals streamed text at a steady pace: call once per render tick. Returns true while some
 * slot still has text to reveal (keep ticking). */
bool transcript_reveal_tick(struct transcript *t);
/* A counter that changes whenever anything visible changes. */
uint64_t transcript_generation(const struct transcript *t);

/* How many durables the branch tree holds (it forgets those older than every item kept
 * when a trim drops items). */
size_t transcript_tree_size(const struct transcript *t);
/* Items in display order. */
size_t transcript_count(const struct transcript *t);
/* Read-only facts about one item, for painting and tests. */
struct item_info {
	uint64_t uid;           /* the item's stable id (transcript_index_of) */
	enum item_kind kind;
	int64_t seq;            /* -1 for slots and non-durables */
	const char *id;         /* event id (an open slot: its item_id) */
	const char *text;       /* full text (for a slot: what arrived so far) */
	size_t text_len;
	size_t shown_len;       /* bytes of text revealed so far (== text_len unless streaming) */
	const char *reasoning;
	size_t reasoning_len;
	size_t reasoning_lines; /* logical lines of reasoning */
	const char *title;
	const char *timestamp;  /* ISO 8601 as the event had it, NULL when none (local items) */
	const char *summary;
	const char *full_action; /* tool card: every argument of the action, whole */
	const char *tool_call_id; /* tool card: NULL when it has none */
	enum tool_outcome outcome;
	const char *result_text; /* tool card: the result's text, NULL before it came */
	size_t result_len;
	bool agent_error;       /* tool card: the result is the agent's error, not the tool's */
	const char *detail;     /* tool card: its arguments ("" when none) */
	size_t detail_len;
	bool command;           /* tool card: a shell command (its summary is the command line) */
	int risk;
	bool has_exit_code;
	int exit_code;
	bool streaming;         /* an open slot */
	bool lossy;
	bool stalled;
	bool awaiting_confirmation;
	bool reasoning_expanded;
	bool expanded;          /* shown whole: a card's output and arguments uncapped */
	bool interrupted;       /* an answer cut short by an interrupt, kept as it was */
	int attempt;
	/* Counters that change when a text changed other than by growing: a layout of it made
	 * before is void (one that only grew may be laid out incrementally). */
	uint64_t text_epoch, reasoning_epoch, result_epoch, detail_epoch;
};
/* Fills *info for item idx (strings stay owned by the transcript). */
void transcript_item(const struct transcript *t, size_t idx, struct item_info *info);
/* Toggles whether item idx shows its reasoning (collapsed by default). */
void transcript_toggle_reasoning(struct transcript *t, size_t idx);
/* Toggles whether item idx is shown whole (a card's output uncapped; collapsed by default). */
void transcript_toggle_expanded(struct transcript *t, size_t idx);
/* Logical lines of output added so far: new items count their lines, streamed text its
 * newlines. Monotonic; a viewport diffs it to count what arrived below. */
uint64_t transcript_lines_added(const struct transcript *t);

/* ----------------------------------------------------------- addressing */

/* Every item gets a uid when it is created: 1, 2, 3… in creation order, never reused, and
 * unchanged while other items are inserted or dropped before it (indices shift; uids do not).
 * Display order is by seq, not by uid. Lookups by index are O(1), by uid and by seq a hash
 * lookup plus a binary search, and inserting or dropping an item moves the pointers after it
 * in one memmove without touching the items.
 *
 * A window over a long history (window.c): transcript_trim drops items far from the view,
 * taking them out of items[] and out of every index (uid, seq, event id, cards, results) and
 * freeing them; transcript_index_of then answers -1 for their uids, so whoever holds one (a
 * viewport anchor, a search position) re-resolves it (by seq or event id, which it keeps
 * beside the uid) or falls back to the nearest item still loaded. Fetched again (a page,
 * or the socket), an event gets a new uid and its place by seq; the uids of everything else
 * are untouched. */

/* The uid of item idx. */
uint64_t transcript_uid_at(const struct transcript *t, size_t idx);
/* The index of the item with uid, or -1 when there is none (never was, or was dropped). */
long transcript_index_of(const struct transcript *t, uint64_t uid);
/* The index of the first durable event (the oldest loaded), or -1. */
long transcript_first_durable(const struct transcript *t);
/* The index of the durable event with seq, or -1. */
long transcript_find_seq(const struct transcript *t, int64_t seq);
/* The index of the item with event id id (an open slot: its item_id), or -1. */
long transcript_find_id(const struct transcript *t, const char *id);

/* ------------------------------------------------ the window (window.c, page.c)
 *
 * seq is the event's 0-based index in the server's log. The socket gives real seqs; a REST
 * page (events/search) gives none, so a page fetched next to a loaded durable (the anchor)
 * is placed by log order: fetched before it, newest first (TIMESTAMP_DESC, page_id = the
 * anchor, at or before its timestamp), its events get anchor-1, anchor-2, …; fetched after
 * it, oldest first (TIMESTAMP, page_id = the anchor, no time bound), they get anchor+1,
 * anchor+2, …. The inference is exact when every event on disk is readable. Where it is not:
 * - equal timestamps at the boundary are handled by id: the page, asked inclusively, holds
 *   the anchor itself; what comes before it in the page is skipped, and an event already
 *   loaded resets the count to its real seq;
 * - a page is checked, not trusted: one in the opposite order is turned round, and an event
 *   dated after (before) the event it would follow is refused (transcript_place_page); one
 *   that makes no item is not judged by its time (upstream dates an LLM completion log
 *   before events it follows);
 * - an unreadable event (a seq gap on disk; the server leaves it out of search) shifts the
 *   inferred seqs of what lies beyond it by one, within that page only: the page's events
 *   keep their order and their ids, and the socket's real seqs win for anything it sends
 *   again (a seq already taken by another id is skipped, not doubled).
 * Seqs missing between two loaded durables (or before the first) are history not loaded:
 * a gap, which the view shows as a row and fills with a page. A tool result attached to its
 * card counts as loaded (the card answers for its seq too), and so does a seq noted as an
 * event that makes no item (transcript_note_seq); a trim forgets the noted seqs in the gaps
 * it makes, so they stay as bounded as the items. */

/* A gap of history not loaded next to the view: fetch a page next to anchor. */
struct history_gap {
	bool before;                  /* the gap is above the anchor: fetch older, newest first */
	int64_t anchor_seq;           /* the loaded durable next to the gap */
	const char *anchor_timestamp; /* its timestamp (NULL when it has none); owned by t */
	const char *anchor_id;        /* its event id; owned by t */
	int64_t missing;              /* seqs missing in the gap */
	int64_t span;                 /* seqs from the anchor to the gap's far edge, loaded
				       * ones among them too: what a page must hold to cross it */
	size_t at_index;              /* the gap sits right above item at_index */
};

/* What placing a REST page did. */
struct page_placed {
	size_t placed;      /* events given a seq (items and quiet ones) */
	size_t added;       /* items added */
	size_t known;       /* events loaded already (by id): skipped */
	size_t refused;     /* events whose time does not fit where they would go: left out */
	bool reversed;      /* the page came in the opposite order to the one asked */
};
/* Places a page of events fetched by REST next to the loaded durable anchor_seq, asked
 * inclusively (the anchor may come back, with equal-timestamp neighbours from its other
 * side before it): older ones (before=true, asked newest first) get anchor_seq-1, -2…;
 * newer ones +1, +2…. A page in the opposite order is turned round; events loaded already
 * (by id) are skipped; an event whose timestamp is newer (before) or older (after) than the
 * loaded event or placed event it would follow is refused; seqs taken are passed; quiet
 * specs take a seq and are noted. A spec's own seq is ignored. Nothing happens when
 * anchor_seq is not loaded. */
void transcript_place_page(struct transcript *t, int64_t anchor_seq, bool before,
			   const struct item_spec *specs, size_t n, struct page_placed *out);
/* transcript_place_page, returning how many items were added. */
size_t transcript_add_page(struct transcript *t, int64_t anchor_seq, bool before,
			   const struct item_spec *specs, size_t n);
/* The history not loaded around items [first, last] (display indices): a gap inside them
 * first, else the nearest above first (or below last) within margin items; ties go above.
 * A gap above the view is filled older-first from the durable below it (before); one below
 * the view from the durable above it (after). False when nothing is missing there. */
bool transcript_gap_near(const struct transcript *t, size_t first, size_t last,
			 size_t margin, struct history_gap *gap);
/* Seqs missing right above item idx (0 for none and for items without a seq; the first
 * durable: its seq). Exact for gaps up to 256 seqs; beyond, loaded events placed out of
 * seq order (a stream retired late, a result far from its card) near the middle of the gap
 * are not subtracted. */
int64_t transcript_missing_before(const struct transcript *t, size_t idx);
/* Drops items outside [keep_first, keep_last] (an empty range when keep_first > keep_last)
 * until the transcript holds at most max_bytes (transcript_bytes), farthest first, never the
 * newest keep_tail items, an open stream, or a card awaiting its result/confirmation; a card
 * goes with its attached result. Returns how many items were dropped; the uids of the rest
 * are unchanged, their indices shift. */
size_t transcript_trim(struct transcript *t, size_t keep_first, size_t keep_last,
		       size_t max_bytes, size_t keep_tail);
/* A durable at seq that makes no item (a state update, a log event): its seq is loaded
 * history, not a gap, for transcript_missing_before, transcript_gap_near and pages. */
void transcript_note_seq(struct transcript *t, int64_t seq);
/* Approximate bytes the transcript holds: items with their text, reasoning and card parts,
 * the indices, and the view caches as the view reports them (transcript_set_view_bytes). */
size_t transcript_bytes(const struct transcript *t);
/* How the transcript learns the bytes of a view cache (the view sets it; NULL: none). */
void transcript_set_view_bytes(struct transcript *t, size_t (*bytes_fn)(const void *cache));

/* ------------------------------------------------------ branches (branch.c)
 *
 * The server keeps every branch of a conversation in one log (issue 25): each durable names
 * the event before it on its branch (parent_id), HEAD is the parent of the next event, and a
 * navigate moves HEAD without a frame on the socket; a replay sends every branch. The
 * transcript shows the branch from HEAD to its root: HEAD is the last durable appended that
 * is not a state update, or where a snapshot or this client's navigate put it. Items off the
 * branch leave display order (transcript_count, transcript_item, search, trim never see
 * them; transcript_index_of, find_seq and find_id answer -1) but stay loaded: their ids
 * deduplicate, their seqs are no gap, and they come back when HEAD moves to their branch.
 * A walk that stops at history not loaded leaves what is older than where it stopped shown.
 * Until an event names its parent or HEAD is given, the conversation is one line. */

/* A durable that makes no item still has its place in the tree (transcript_add_event and
 * pages note the others). */
void transcript_tree_note(struct transcript *t, const char *id, int64_t seq,
			  const char *parent_id, bool state_update);
/* Where a HEAD comes from. */
enum head_source {
	HEAD_SNAPSHOT,          /* a snapshot, in the socket's order */
	HEAD_CONNECTED,         /* the first snapshot of a new connection: newer than anything */
	HEAD_NAVIGATED,         /* this client's navigate: not ordered with the socket */
};
/* HEAD as the server says it: leaf_id, or no event at all (head_empty); nothing when neither
 * is given. After this client's navigate, an event that does not extend its HEAD was
 * appended before the navigate and stays off the branch, and snapshots are ignored (one
 * made before it may arrive after it), until an event extends HEAD or a new connection's
 * snapshot comes. */
void transcript_set_head(struct transcript *t, const char *leaf_id, bool head_empty,
			 enum head_source from);
/* The event id before id on its branch, NULL when id is a root (*root set) or when it is
 * not loaded (*root false). */
const char *transcript_parent_id(const struct transcript *t, const char *id, bool *root);
/* The server's HEAD as the transcript knows it, NULL when none is known or HEAD is empty. */
const char *transcript_head_id(const struct transcript *t);
/* Items on branches not shown. */
size_t transcript_hidden_count(const struct transcript *t);

/* ---------------------------------------------------- for the view above */

/* The view's cache slot of item idx (NULL until the view puts something there) and the
 * item's version, which changes whenever anything its rows show changes. */
void **transcript_view_cache(struct transcript *t, size_t idx, uint64_t *version);
/* How the transcript frees a view cache when it drops an item (the view sets it). */
void transcript_set_view_free(struct transcript *t, void (*free_fn)(void *));

/* Finds the next item at or after from (before, when backwards) whose text contains needle
 * (case-insensitive for ASCII). Returns its index or -1. */
long transcript_search(const struct transcript *t, const char *needle, size_t from,
		       bool backwards);
/* How many items hold needle; *rank gets the place of item at among them counted from the
 * newest (1 for the newest), 0 when at is not one of them. */
size_t transcript_search_count(const struct transcript *t, const char *needle, long at,
			       size_t *rank);

#endif
