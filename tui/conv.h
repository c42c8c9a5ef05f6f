/* conv: the open conversations and the screen's state (struct tui) that every interactive
 * part reads; opening, finding, naming, switching (conv.c); the TUI as each one's sink
 * (tui_sink.c). */
#ifndef TETHER_CONV_H
#define TETHER_CONV_H

#include "attention.h"
#include "board.h"
#include "controller.h"
#include "editor.h"
#include "keys.h"
#include "render.h"
#include "draw.h"
#include "ui.h"
#include "keymap.h"
#include "layer.h"
#include "probe.h"

/* Pages timed for $TETHER_STATS. */
enum { HISTORY_TIMES = 4096 };
/* The newest items are never trimmed: the live tail the reader comes back to. */
enum { HISTORY_KEEP_TAIL = 64 };

/* What tether shows at most open at once, and the slots Alt-1…9 reach. */
enum { CONV_OPEN_MAX = 64 };

/* A search in one conversation (search.c). */
struct conv_search {
	long match;                 /* item of the current match, -1 when none */
	bool search_failed;
	bool saved_follow;          /* the view before the search, for Esc */
	size_t saved_top_item, saved_top_row;
	uint64_t saved_top_uid;     /* the view's anchor before the search */
	uint64_t match_uid;         /* the current match's item (indices move; uids do not) */
	bool server_searching;      /* a search of the server's history is in flight */
	char server_needle[512];    /* what it asked for */
	bool server_search_wanted;  /* asked while a page was loading: goes once it came */
	bool server_search_newer;   /* … and which way */
	/* the search line's "n/m", counted again when the query, the match or the transcript
	 * changed */
	bool count_valid;
	uint64_t count_generation, count_uid;
	size_t match_rank, match_total;
	bool browsing;              /* Enter was pressed: n/N browse the matches */
};

/* One conversation's confirmation (modal.c). */
struct conv_confirm {
	bool hidden;                /* set aside (or answered) until the next request */
	bool focused;               /* single keys answer only after Tab or an arrow */
	int choice;                 /* the highlighted choice, -1 when none */
	size_t scroll;              /* first row of the actions shown */
	struct layout layout;
	bool was_awaiting;
	size_t signature;           /* which actions wait: a change opens the modal again */
};

/* One conversation's history not loaded (history_view.c). */
struct conv_history {
	char note[160];             /* what gap rows say after the count */
	uint64_t failed_at;         /* scrolls + 1 when a page failed (0: none failed) */
	int64_t asked_seq;          /* the anchor of the page asked last */
	bool asked_before;
	int64_t dead_seq;           /* an anchor whose page brought nothing: not asked again */
	bool dead_before;
	uint64_t trimmed_at;        /* where the view was at the last trim */
	uint64_t shown_frame;       /* u->frames when the conversation was first painted */
	bool want_first;            /* Ctrl-Home: the oldest page is asked once nothing is in flight */
	uint64_t first_at;          /* where the view was when it was asked (0: not asked) */
	int64_t asked_us;           /* when the page in flight was asked */
	int64_t landed_us;          /* the page that landed was asked then (0: none waits) */
	size_t npages;              /* pages timed from asked to painted ($TETHER_STATS) */
	int64_t *page_us;           /* HISTORY_TIMES of them, allocated with the first */
};

/* What happened in one conversation while it was not on screen (conv.c, tui_sink.c). */
struct conv_marks {
	size_t unread;              /* agent messages that came since the user last looked */
	bool finished_unseen;       /* a run ended while not on screen */
	int mark_shown;             /* the mark the strip shows (enum conv_mark) */
	int64_t activity_unix;      /* the last live event or status change (0: none seen) */
	uint64_t status_frame;      /* u->frames when its status last changed */
};

/* One open conversation: its controller and everything the user left in it — where the view
 * was, the draft, its search, its confirmation, the history paging, its attention marks.
 * Only one is on screen (struct tui's cur); the others keep receiving. */
struct conv {
	struct tui *u;
	struct options o;           /* the user's options, with this conversation's id */
	char *id;
	struct controller *ctl;
	struct transcript *t;
	struct viewport vp;
	char *draft;                /* the input's text while another conversation is shown */
	size_t draft_cursor;
	int ended;                  /* the controller ended (exit code + 1; 0: running) */
	struct conv_marks marks;     /* conv.c, tui_sink.c */
	unsigned items_since_trim;  /* background: items since its memory was last looked at */
	struct conv_search search;   /* search.c */
	struct conv_confirm confirm; /* modal.c */
	struct latency *latency;    /* delta arrival → painted frame (the TUI sink's) */
	struct attention attention; /* title, bell and notifications */
	/* cards: the item the user focused (its uid; 0: none, the newest card in view acts) */
	uint64_t focus_uid;
	struct conv_history history; /* history_view.c */
	bool reached;               /* the conversation synced once: worth coming back to */
	/* a rewind or fork in flight: the message that goes into the draft once it is done
	 * (slash_branch.c); NULL: none */
	char *rewind_text, *fork_text;
};

struct tui {
	const struct options *o;
	struct loop *loop;
	struct mask_set *masks;
	const char *api_key;
	FILE *record;               /* --record: the first conversation's */
	struct conv *convs[CONV_OPEN_MAX];  /* in the order of their slots (Alt-1…9) */
	size_t nconvs;
	struct conv *cur;           /* the one on screen */
	struct ui ui;               /* notices, frames, quitting (ui.c) */
	struct conv *modal;         /* the one the confirmation modal answers */
	struct loop_timer *key_timer;   /* the wait for the rest of a key, or a paste's end */
	struct loop_timer *search_timer; /* the pause in typing a query before the server is asked */
	char *input_block;              /* one read() of the terminal */
	struct keys keys;
	struct probe probe;         /* what the terminal answered (probe.c) */
	struct editor input, query, reason;
	struct editor answer;       /* a yes-or-no question's (server_cmds.c: /delete, /goal) */
	/* the operation a y starts on the conversation asked about (server_cmds.c's question):
	 * /delete, or a goal under a policy that confirms; its text (owned) */
	struct conv *asking;
	enum controller_op asked_op;
	char *asked_text;
	struct new_conv *new_conv;  /* /new under way (server_cmds.c), NULL when none */
	struct model_choice *model_choice; /* /model's list while one is picked, else NULL */
	struct painter paint;
	struct layers layers;       /* what is open over the conversation (layer.c) */
	char *last_error;           /* the last notice, printed on stderr when the run ends */
	int64_t ctrl_c_at;          /* the last Ctrl-C, for "twice within 2 s" */
	bool started;               /* the loop runs: a conversation opened connects at once */
	/* the editor (issue 15 point 7) */
	char *history_path;         /* the input history's file; NULL when not kept */
	struct external_editor *ext_editor; /* the $EDITOR child while it runs */
	bool ctrl_x;                /* Ctrl-X was pressed: Ctrl-E opens $EDITOR */
	struct pager *pager;        /* the pager open on one item of cur (NULL when closed) */
	size_t overlay_scroll;      /* the keys overlay's first row shown (overlay.c) */
	void (*overlay_text)(int width, struct buf *out); /* … and what it shows */
	struct board_view *board;   /* the board (board_view.c); NULL until first opened */
	struct elsewhere *elsewhere; /* the slow poll of the server's list (elsewhere.c) */
	char **far;                 /* ids the last complete list says wait for confirmation */
	size_t nfar;
	uint64_t frames;            /* frames begun so far */
	int64_t esc_idle_at;        /* an Esc on an empty prompt with no run: a second rewinds */
	/* background calls back ($TETHER_STATS): how many, and the most frames between a status
	 * change and its bell (1: the first frame after it) */
	uint64_t background_rings;
	uint64_t ring_frames_max;
};

/* The TUI as a sink of one conversation's controller: dirty marks, background marks, error
 * items, notices, latency. */
struct sink tui_sink(struct conv *v);

/* Opens conversation id (or finds it open): its controller connects at once when the loop
 * runs. first: the one tether was started with (--after-seq, --record are its). NULL with
 * a notice when max_open are open. */
struct conv *conv_open(struct tui *u, const char *id, bool first);
/* The open conversation with this id, or NULL. */
struct conv *conv_find(struct tui *u, const char *id);
/* Closes the controller and frees v (not the one on screen: tui_close_current). */
void conv_destroy(struct conv *v);
/* Its title, else its id (clean). */
const char *conv_name(const struct conv *v);
/* What it has for the user now. */
enum conv_mark conv_mark(const struct conv *v);
/* A conversation in the background changed: true when its mark did (a frame is due). */
bool conv_background_news(struct conv *v);
/* Its slot, 1 … nconvs (Alt-1…9 reach the first nine). */
size_t conv_slot(const struct conv *v);
/* Shows v: the draft, view and modes of the one left are kept with it. */
void tui_switch(struct tui *u, struct conv *v);
/* The next (dir > 0) or previous open conversation (Ctrl-N, Ctrl-P). */
void tui_switch_step(struct tui *u, int dir);
/* The conversation in slot (Alt-1…9). */
void tui_switch_slot(struct tui *u, size_t slot);
/* The most urgent other conversation that needs the user (Alt-A). */
void tui_switch_attention(struct tui *u);
/* The strip at the status line's start when several are open, or one elsewhere waits:
 * "2/5 · 1! 4• · 1! elsewhere (Ctrl-G) │ "; brief, the last part is "+1!". */
void conv_strip(struct tui *u, bool brief, struct buf *out);
/* A complete list of the server's conversations (the slow poll's, the board's): which wait
 * for confirmation (kept only while the slow poll runs; NULL, 0: forgets them). */
void conv_note_far(struct tui *u, const struct conversation_info *items, size_t n);
/* Conversations not open here that the last list says wait for confirmation. */
size_t conv_far_waiting(struct tui *u);
/* Where the TUI's REST calls go: its server, key and TLS choice. */
struct rest_server tui_rest_server(const struct tui *u);
/* Closes v (its view and its socket; another shown if v was); false when v is the only one
 * open, which stays. */
bool tui_close(struct tui *u, struct conv *v);
/* Closes the conversation on screen and shows another (/close). */
void tui_close_current(struct tui *u);

#endif
