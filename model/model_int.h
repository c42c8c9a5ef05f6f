/* Private to model/: the item and transcript structures shared by transcript.c, slots.c,
 * cards.c, think.c and search.c, and the maps they index with. Not a public contract: nothing
 * outside model/ includes it. */
#ifndef TETHER_MODEL_INT_H
#define TETHER_MODEL_INT_H

#include "model.h"

/* ------------------------------------------------------------ the items */

/* What a tool card (or a tool result shown on its own) has beyond a message. Allocated only
 * for items whose event carried any of it. */
struct item_card {
	struct buf result;              /* the attached result's text */
	struct buf detail;              /* its arguments (markdown-lite) */
	char *summary;                  /* one-line action summary */
	char *full_action;              /* every argument of the action, whole */
	char *tool_call_id;
	char *result_id;                /* event id of the attached result */
	int64_t result_seq;             /* its seq (indexed by_seq to this card), -1 when none */
	enum tool_outcome outcome;
	int risk;
	int exit_code;
	bool has_exit_code;
	bool has_result;
	bool agent_error;               /* the result is the agent's error (AgentErrorEvent) */
	bool command;                   /* a shell command (item_spec.command) */
	bool pending_listed;            /* in transcript.pending */
	uint64_t result_epoch;
	uint64_t detail_epoch;
};

/* What an item opened as a streaming slot has: its attempt and order, inline <think> state
 * (think.c) and the reveal pace. Kept after the slot retires (the item keeps its place). */
struct item_stream {
	int attempt;
	bool open;                      /* still streaming */
	bool lossy, stalled;
	bool think_inside, think_seen;
	unsigned char think_held;       /* bytes of a possibly split tag held back */
	char think_hold[8];
	int64_t next_order;
	int64_t last_delta_us;          /* 0 until the slot's first delta: no stall before it */
	void *stream_data;              /* the stream owner's per-stream state (slots.c) */
	size_t shown_len;               /* revealed bytes of text, while open */
	size_t seen_len;                /* text.len at the previous reveal tick */
	size_t step;                    /* reveal bytes per tick */
	bool interrupted;               /* aborted by an interrupt, its text kept */
};

/* One transcript entry: the message core, plus a card and a stream part when it has them.
 * Display order is by (key_major, key_minor): a durable sorts at (seq, 0); everything else gets
 * (major it is placed after, arrival counter), so a slot anchored at seq A sits between
 * durable A and durable A+1 whenever those arrive. A retired slot keeps its key while its seq
 * becomes the durable's (the in-place exception). Keys change only while an item is out of
 * display order, so items[] stays sorted and an item's index is found by binary search. */
struct item {
	uint64_t uid;                   /* stable, never reused */
	int64_t seq;
	int64_t key_major;
	uint64_t key_minor;
	char *id;                       /* event id (a slot: its item_id) */
	struct buf text;
	struct buf reasoning;
	char *title;
	char *timestamp;                /* ISO 8601 as the event had it, NULL when none */
	size_t reasoning_lines;         /* logical lines of reasoning */
	uint64_t version;               /* bumps on any change to the item's rows */
	uint64_t text_epoch;            /* bumps when text changed other than by growing */
	uint64_t reasoning_epoch;
	enum item_kind kind;
	bool reasoning_expanded;
	bool expanded;                  /* the whole item shown: a card's output uncapped */
	struct item_card *card;         /* NULL: no card facts */
	struct item_stream *stream;     /* NULL: never a slot */
	bool hidden;                    /* on a branch not shown: out of items[], in hidden[] */
	void *view;                     /* the view's cache (transcript_view_cache) */
};

/* An open-addressing map from 64-bit keys to items (uid → item, seq → item). */
struct idmap {
	struct idmap_cell *cells;
	size_t cap, count;
};

/* Makes an empty map without allocating. */
void idmap_init(struct idmap *m);
/* Frees the table. */
void idmap_fini(struct idmap *m);
/* The item for key, or NULL. */
struct item *idmap_get(const struct idmap *m, uint64_t key);
/* Sets key to it (non-NULL), replacing an existing value. */
void idmap_put(struct idmap *m, uint64_t key, struct item *it);
/* Removes key when it maps to it. */
void idmap_del(struct idmap *m, uint64_t key, const struct item *it);
/* Copies every key into out (room for m->count); returns how many. */
size_t idmap_keys(const struct idmap *m, uint64_t *out);

/* One durable of the conversation's tree (branch.c). */
struct tree_node {
	char *id;
	char *parent;                   /* parent_id as sent; NULL: the log's previous event */
	int64_t seq;
	bool state_update;              /* hangs off the branch, never HEAD */
	uint64_t path;                  /* == tree.path_gen: on the active branch */
};

/* The tree of durables and the server's HEAD (branch.c). */
struct tree {
	struct strmap by_id;            /* event id → node */
	struct tree_node **nodes;       /* by seq */
	size_t count, cap;
	int64_t max_seq;                /* the newest node's seq, -1 before any */
	struct tree_node *head;         /* NULL: none, or head_id not loaded */
	char *head_id;                  /* HEAD as named, while not loaded */
	bool head_empty;                /* navigated to no event */
	bool known;                     /* an event named its parent, or HEAD was given */
	bool pinned;                    /* HEAD from this client's navigate: only an event
					 * extending it moves it */
	bool dirty;                     /* the branch shown is to be worked out again */
	bool complete;                  /* the walk from HEAD reached a root */
	int64_t stop_seq;               /* the oldest node the walk reached */
	uint64_t path_gen;
};

/* Makes an empty tree. */
void transcript_tree_init(struct tree *tr);
/* Frees the tree's nodes. */
void transcript_tree_fini(struct tree *tr);
/* Places a durable in the tree; the branch shown is settled by the caller. */
void transcript_tree_add(struct transcript *t, const char *id, int64_t seq,
			 const char *parent_id, bool state_update);
/* Forgets the tree's nodes older than seq but HEAD (their items were trimmed): the walk
 * stops there as at history not loaded, and a page placed later brings them back. */
void transcript_tree_forget_before(struct transcript *t, int64_t seq);
/* Works out the branch shown again when something changed it: items off it leave display
 * order for hidden[], items on it come back (branch.c). Not while a page is placed. */
void transcript_branch_settle(struct transcript *t);

#define TRANSCRIPT_RETIRED_RING 256

struct transcript {
	struct item **items;            /* display order */
	size_t count, cap;
	uint64_t arrivals;              /* key_minor counter */
	int64_t newest_seq;             /* the highest seq ever taken, -1 before any */
	uint64_t next_uid;
	uint64_t generation;
	uint64_t lines_added;           /* logical lines of output ever added (viewport new_below) */
	struct idmap by_uid;
	struct idmap by_seq;            /* durables */
	struct strmap by_id;            /* event id → item */
	struct strmap result_ids;       /* id of an attached tool result → its card */
	struct strmap cards;            /* tool_call_id → card */
	struct strmap orphans;          /* tool_call_id → a result shown without its card */
	struct strmap slots;            /* item_id → open slot */
	struct item **open;             /* open slots, oldest first */
	size_t nopen, open_cap;
	struct item **pending;          /* cards without a result, in arrival order */
	size_t npending, pending_cap;
	bool awaiting;
	struct recent_ids retired;      /* recently retired, aborted or discarded item_ids */
	void (*view_free)(void *);      /* frees an item's view cache */
	size_t (*view_bytes)(const void *); /* bytes of an item's view cache */
	bool paging;                    /* adding a REST page: its cards are history, not pending */
	struct idmap quiet_seqs;        /* seqs of durables shown as no item (transcript_note_seq) */
	struct tree tree;               /* branches (branch.c) */
	struct item **hidden;           /* items on branches not shown, indexed as the rest */
	size_t nhidden, hidden_cap;
};

/* Marks item changed: its rows and the transcript's generation. */
void transcript_touch(struct transcript *t, struct item *it);
/* Puts a new item in display order by its key (normally at the end). */
void transcript_insert(struct transcript *t, struct item *it);
/* Takes an item out of display order (the caller frees or re-inserts it). */
void transcript_unlink(struct transcript *t, struct item *it);
/* Index of it in display order (binary search by its key). */
size_t transcript_index(const struct transcript *t, const struct item *it);
/* Allocates a blank item with the next uid and indexes it by uid. */
struct item *item_create(struct transcript *t, enum item_kind kind);
/* Unindexes and frees an item, its parts and its view cache. */
void item_destroy(struct transcript *t, struct item *it);
/* The item's card part, created on first use. */
struct item_card *item_card(struct item *it);
/* Takes a slot out of the open set (not out of display order). */
void transcript_slot_close(struct transcript *t, struct item *it);
/* Lists a card as waiting for its result. */
void transcript_pending_add(struct transcript *t, struct item *it);
/* Takes a card off the waiting list. */
void transcript_pending_remove(struct transcript *t, struct item *it);
/* Gives it the key of something placed at the end as it arrives. */
void transcript_key_at_end(struct transcript *t, struct item *it);
/* Copies an event's content into an item (a new one or one taking over as durable) and
 * indexes its seq. */
void item_fill(struct transcript *t, struct item *it, const struct item_spec *spec);
/* A tool result joins its card (cards.c). */
enum apply_result transcript_attach_result(struct transcript *t, struct item *card,
					   const struct item_spec *spec);
/* A later emission of the same tool call replaces card's content in place (cards.c). */
enum apply_result transcript_update_card(struct transcript *t, struct item *card,
					 const struct item_spec *spec);
/* Indexes a tool card by tool_call_id and lists it as pending when it has no result. */
void transcript_index_card(struct transcript *t, struct item *it);
/* A card takes the result shown on its own for its tool_call_id, if one is (cards.c). */
void transcript_adopt_orphan(struct transcript *t, struct item *card);
/* Gives a durable that took its seq in place (a retired slot) the plain key (seq, 0) when its
 * neighbours allow, so display order and seq order agree for it. */
void transcript_settle_key(struct transcript *t, struct item *it);
/* A durable event with an open slot's id: the slot's item becomes the event in place. */
enum apply_result transcript_retire_slot(struct transcript *t, struct item *slot,
					 const struct item_spec *spec);

/* Appends a streamed text delta to slot it, its inline <think>…</think> to the reasoning. */
void transcript_think_feed(struct transcript *t, struct item *it, const char *text, size_t len);
/* Forgets the think state (a new attempt starts the text again). */
void transcript_think_reset(struct item *it);

/* window.c: seq is loaded (an item, an attached result, or noted as making no item). */
bool transcript_seq_loaded(const struct transcript *t, int64_t seq);
/* window.c: event id is loaded (an item or an attached result); *seq is its seq (-1: none). */
bool transcript_id_loaded(const struct transcript *t, const char *id, int64_t *seq);
/* window.c: the event id loaded at seq (the card's result id when the card answers for it). */
const char *transcript_id_at_seq(const struct transcript *t, int64_t seq);

#endif
