/* The controller: wires the session's frames through sanitize → mask into the conversation
 * model (the transcript and its streams), hands each change to its sinks (sink.h), tracks the
 * conversation's status, and carries out the user's commands. The TUI and the headless
 * writer are sinks. */
#ifndef TETHER_CONTROLLER_H
#define TETHER_CONTROLLER_H

#include "options.h"
#include "net.h"
#include "model.h"
#include "keyring.h"
#include "sink.h"
#include "outbox.h"
#include "run_policy.h"
#include "usage.h"

#include <stdio.h>

/* Everything a status line shows. Strings stay owned by the controller. */
struct controller_status {
	const char *server;
	const char *conversation_id;
	const char *title;              /* NULL until known */
	const char *model;              /* the agent's LLM model, NULL until known */
	bool policy_known;              /* the server said its confirmation policy */
	enum confirmation_policy confirmation; /* that policy */
	enum session_state connection;
	enum net_protocol socket;       /* of the last attempt: SESSION or EVENTS (AUTO before) */
	int attempt;
	int64_t retry_at_us;            /* when reconnecting: monotonic time of the next attempt */
	int last_close_code;
	const char *last_failure;       /* why the last attempt short of sync ended (clean), or NULL */
	bool has_cursor;
	int64_t cursor;
	const char *execution_status;   /* NULL until known */
	enum run_status run_status;     /* RUN_STATUS_ABSENT until known */
	bool syncing;                   /* replaying history on this connection */
	int64_t sync_through_seq;       /* target of the replay, -1 when none */
	size_t stalled_streams;
	size_t pending_messages;        /* the user's messages not sent yet */
	struct outbox_message queued[3]; /* the oldest of them (up to pending_messages) */
	bool awaiting_confirmation;
	bool caught_up;                 /* the run status is current (not history being replayed) */
	int64_t running_since_us;       /* monotonic time the run was last seen to start, 0 if not running */
	const char *last_drop;          /* why the last connection ended (clean), or NULL */
	bool has_usage;                 /* the conversation's stats came */
	struct usage_summary usage;     /* their short form (model owned by the controller) */
};

struct controller;

/* Creates the controller for options o on loop, running by policy (copied). masks holds the
 * local secrets (the API key is added to it); api_key may be NULL. What is written where is up
 * to the sinks added. */
struct controller *controller_create(struct loop *loop, const struct options *o,
				     const struct run_policy *policy, struct mask_set *masks,
				     const char *api_key);
/* Adds a sink (before controller_start); the controller destroys it. */
void controller_add_sink(struct controller *c, struct sink sink);
/* A sink's output failed: line (clean, or NULL) is said as a notice, and the run ends with
 * exit_code. */
void controller_fail(struct controller *c, const char *line, int exit_code);
/* Connects (and keeps reconnecting). */
void controller_start(struct controller *c);
/* Frees the controller (closing the session). */
void controller_destroy(struct controller *c);
/* The transcript the UI paints. */
struct transcript *controller_transcript(struct controller *c);
/* The run status alone (RUN_STATUS_ABSENT until known): what a background conversation's
 * mark needs on every delta, without the rest of controller_status. */
enum run_status controller_run_status(const struct controller *c);
/* The conversation's latest usage (strings clean), or NULL before any stats came. */
const struct usage_stats *controller_usage(const struct controller *c);
/* Fills *st with the current status. */
void controller_status(const struct controller *c, struct controller_status *st);
/* Sends a user message: over the socket when it is live, else queued until it is (or through
 * REST when the socket stays down). Never silently dropped; blank text is no message. */
void controller_send(struct controller *c, const char *text);
/* Controls of one kind are coalesced: while one is in flight another is not sent and these
 * return false. */
/* REST pause. */
bool controller_pause(struct controller *c);
/* REST interrupt (cancels the running LLM call). */
bool controller_interrupt(struct controller *c);
/* REST run: a paused agent goes on. */
bool controller_resume(struct controller *c);
/* REST respond_to_confirmation; reason may be NULL. Allowing, rejecting and the policy
 * change below are one kind. */
bool controller_confirm(struct controller *c, bool accept, const char *reason);
/* Allows the pending actions, then (once the server took that) sends text as a message. The
 * agent-server runs pending actions when a message arrives (a message is always run=true),
 * so a message must never go out while actions wait unless the user allowed them. */
bool controller_confirm_and_send(struct controller *c, const char *text);

/* REST confirmation_policy for this conversation; then_accept allows the pending actions
 * once the server took the new policy (it does not run them by itself). */
bool controller_set_confirmation_policy(struct controller *c, enum confirmation_policy policy,
					bool then_accept);
/* What the user asks the server to do to the conversation (controller_op.c). */
enum controller_op {
	CONTROLLER_OP_POLICY,           /* the confirmation policy: policy, threshold */
	CONTROLLER_OP_RENAME,           /* the title: text */
	CONTROLLER_OP_DELETE,           /* the conversation, for good (text: its title, said) */
	CONTROLLER_OP_ASK,              /* a question aside (text), answered outside the log */
	CONTROLLER_OP_COMPACT,          /* condense the history the agent sees */
	CONTROLLER_OP_GOAL,             /* a goal loop toward the objective text */
	CONTROLLER_OP_GOAL_STOP,
	CONTROLLER_OP_GOAL_RESUME,
	CONTROLLER_OP_MODEL,            /* switch to the LLM profile named text */
	CONTROLLER_OP_MODELS,           /* list the server's LLM profiles */
	CONTROLLER_OP_ANALYZER,         /* the security analyzer that rates actions: analyzer */
	CONTROLLER_OP_COUNT,
};

/* What an operation takes; each reads only its own fields. */
struct controller_op_args {
	enum confirmation_policy policy;        /* POLICY */
	enum risk_threshold threshold;          /* POLICY with RISKY: the lowest risk that asks */
	enum security_analyzer analyzer;        /* ANALYZER */
	const char *text;                       /* a title, a question, an objective, a profile */
};

/* What the server did, or why it did not, in words (clean; valid during the call): for ASK
 * with ok, the answer itself. */
struct controller_op_result {
	enum controller_op op;
	bool ok;
	const char *words;
	const char *text;       /* the operation's text (the question…) as shown (clean), or "" */
	const struct profile_list *profiles; /* MODELS that worked: the list as the server gave
					      * it (not clean), during the callback; else NULL */
};

typedef void (*controller_op_fn)(void *ctx, const struct controller_op_result *r);

/* Sends op about this conversation; done hears what the server did (never after
 * controller_destroy). False, nothing sent, while the same operation is in flight. */
bool controller_op(struct controller *c, enum controller_op op, const struct controller_op_args *a,
		   controller_op_fn done, void *ctx);
/* What a rewind or a fork did, for the face that asked: ok, and what the server did or why
 * not, in words (clean); fork_id is the new conversation (a fork that worked), else NULL. */
typedef void (*controller_told_fn)(void *ctx, bool ok, const char *words, const char *fork_id);
/* Rewinds: the server's HEAD moves to event_id (navigate; nothing is deleted), the
 * transcript shows that branch, then told (never after controller_destroy). The server's
 * version is asked first: a server without the route is said so. False while one is in
 * flight or event_id is NULL. */
bool controller_navigate(struct controller *c, const char *event_id, controller_told_fn told,
			 void *ctx);
/* Forks the conversation into a new one (from_event_id: its branch up to that event; NULL:
 * the whole of it), then told with the new id. Refused by version on a server before 1.31,
 * which would fork everything. False while one is in flight. */
bool controller_fork(struct controller *c, const char *from_event_id, controller_told_fn told,
		     void *ctx);
/* Reconnects now instead of waiting out the backoff; false when no reconnect is waiting. */
bool controller_reconnect_now(struct controller *c);
/* The user asked to quit (SIGINT in headless gives 130). Ends the run with exit_code. */
void controller_quit(struct controller *c, int exit_code);
/* The history not loaded, asked of REST (face/history.c: history_*). What a call brought: */
struct history_page_result {
	size_t events;          /* events the server answered */
	size_t added;           /* items added to the transcript */
	size_t placed;          /* events placed (items and those that make none) */
	size_t refused;         /* events left out: their time did not fit their place */
	uint64_t lines;         /* the lines they added (transcript_lines_added): not news */
	bool found;             /* search: the match is loaded, found_uid is its item */
	uint64_t found_uid;
	const char *error;      /* why it failed, in words (clean); NULL when it did not */
};
typedef void (*history_page_fn)(void *ctx, const struct history_page_result *r);
/* Fetches history not loaded at gap through REST (at most 100 events next to its anchor)
 * without blocking; the events go into the transcript cleaned and masked, placed by log
 * order; then done (never after controller_destroy). False when it did not start: another
 * history call is in flight, or the gap has no anchor time. */
bool history_fetch_gap(struct controller *c, const struct history_gap *gap,
		       history_page_fn done, void *ctx);
/* Asks the server for the newest event whose message contains needle before ts (NULL:
 * anywhere) — or, with skip_id (the current match's event id), the oldest from ts on but that
 * one — and loads it where it belongs in the log (an island); done tells its item (found
 * false: no match). False when another history call is in flight. */
bool history_search(struct controller *c, const char *needle, const char *ts,
		    const char *skip_id, history_page_fn done, void *ctx);
/* After a tail-first open (run_policy.open_tail), fetches the next page of the window above
 * the oldest loaded event (at most 100, none older than the window). False when the window is
 * loaded or cannot be (no time to page by, the last page brought it no nearer: failed, empty
 * or trimmed again) — scrolling up pages the rest — or another history call is in flight. */
bool history_fetch_window(struct controller *c, history_page_fn done, void *ctx);
/* Fetches the oldest page of the log (at most 100 events, oldest first, no anchor needed) and
 * places it at the top, before what is loaded, with a gap between; then done. False when
 * another history call is in flight. */
bool history_fetch_first(struct controller *c, history_page_fn done, void *ctx);
/* Forgets the history call in flight: its answer is dropped and its done never runs. */
void history_cancel(struct controller *c);
/* True while a history call is in flight. */
bool history_busy(const struct controller *c);
/* Sanitizes then masks text for display or output (the one boundary). Appends to out. */
void controller_clean(struct controller *c, const char *text, size_t len, struct buf *out);

#endif
