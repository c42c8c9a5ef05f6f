/* The controller: wires the session's frames through sanitize → mask into the transcript,
 * tracks the conversation's status, and carries out the user's commands. Both the TUI and
 * the headless mode sit on top of it. */
#ifndef TETHER_CONTROLLER_H
#define TETHER_CONTROLLER_H

#include "options.h"
#include "net.h"
#include "model.h"
#include "keyring.h"

#include <stdio.h>

/* What the interface on top hears from the controller. */
struct controller_ui {
	void *ctx;
	/* The transcript or the status changed: schedule a frame. */
	void (*changed)(void *ctx);
	/* The run is over with this exit code (fatal close, gave up, --until reached). */
	void (*finished)(void *ctx, int exit_code);
	/* A one-line diagnostic for the user (already sanitized and masked). */
	void (*notice)(void *ctx, const char *line);
	/* A message that was to go out after an answer that failed: the user's again. */
	void (*unsent)(void *ctx, const char *text);
};

/* Everything a status line shows. Strings stay owned by the controller. */
struct controller_status {
	const char *server;
	const char *conversation_id;
	const char *title;              /* NULL until known */
	enum session_state connection;
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
	size_t pending_messages;        /* typed while the socket was down, not yet sent */
	bool awaiting_confirmation;
};

struct controller;

/* Creates the controller for options o on loop. masks holds the local secrets (the API key is
 * added to it); api_key may be NULL; record is the open --record file or NULL (the controller
 * closes it). headless selects the headless writer on stdout. */
struct controller *controller_create(struct loop *loop, const struct options *o,
				     struct mask_set *masks, const char *api_key, FILE *record,
				     bool headless, const struct controller_ui *ui);
/* Connects (and keeps reconnecting). */
void controller_start(struct controller *c);
/* Frees the controller (closing the session). */
void controller_destroy(struct controller *c);
/* The transcript the UI paints. */
struct transcript *controller_transcript(struct controller *c);
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
/* The user asked to quit (SIGINT in headless gives 130). Ends the run with exit_code. */
void controller_quit(struct controller *c, int exit_code);
/* Sanitizes then masks text for display or output (the one boundary). Appends to out. */
void controller_clean(struct controller *c, const char *text, size_t len, struct buf *out);

/* The UI painted a frame at now_us: every delta that arrived before it is now on screen
 * (latency instrumentation, written to $TETHER_STATS at exit when set). */
void controller_frame_painted(struct controller *c, int64_t now_us);

#endif
