/* The controller's private state, shared by controller*.c. */
#ifndef TETHER_CONTROLLER_INT_H
#define TETHER_CONTROLLER_INT_H

#include "controller.h"
#include "headless.h"
#include "outbox.h"

/* A stream delta's way to the transcript: sanitized, then masked, per (item, attempt, kind)
 * so that an escape sequence or a secret split across deltas is caught whole. */
struct stream_filter {
	char *item_id;
	char *shown_id;                 /* item_id sanitized and masked, for output */
	int attempt;
	struct sanitizer san[2];        /* by delta kind */
	struct mask_stream mask[2];
	int64_t last_delta_us;          /* 0 until the first delta: the watchdog is armed after it */
	bool stalled;
	struct stream_filter *next;
};

struct controller {
	struct loop *loop;
	const struct options *o;
	struct mask_set *masks;
	char *api_key;
	bool headless;
	struct controller_ui ui;
	struct headless out;
	struct session *session;
	struct outbox *outbox;
	struct rest_call *rest_calls;   /* REST calls in flight */
	struct transcript *transcript;
	struct stream_filter *filters;  /* open streams, newest first */
	size_t nfilters;
	bool warned_streams;            /* told once that streams over the bound are discarded */
	struct strmap filter_index;     /* item_id → its filter: one lookup per delta */
	struct buf delta_san, delta_out; /* scratch for the per-delta path */
	struct buf clean_scratch;       /* controller_clean's sanitized copy */
	struct loop_timer *stall_timer;
	struct loop_timer *catchup_timer;  /* ends catch-up 1 s after the last replayed durable */
	FILE *record;
	int64_t started_us;
	int connection_number;

	/* status */
	char *shown_server;             /* the user's strings, as the status line shows them */
	char *shown_conversation_id;
	char *title;
	char *execution_status;         /* as shown: sanitized and masked */
	enum run_status run_status;     /* as received, decoded */
	enum session_state connection;
	int attempt;
	int64_t retry_at_us;
	int last_close_code;
	char *last_failure;             /* session_last_failure, sanitized and masked */
	int reconnects;
	size_t durable_count;
	size_t stream_count;
	size_t running_tools;           /* actions without a result: silence is a tool at work */

	/* catch-up and --until */
	bool synced_once;
	bool caught_up;                 /* replay of this connection is over */
	bool has_through_seq;
	int64_t through_seq;
	bool sent_anything;
	bool busy_since_send;
	bool stdin_open;
	bool finished;
	bool closed_reported;           /* the last connection line was "closed" */
	struct buf stdin_line;         /* --send -: a partial line */
	size_t stdin_lineno;            /* --send -: lines read so far */

	/* delta arrival → painted frame latency, in 0.1 ms buckets up to 1 s */
	int64_t *unpainted;             /* arrival times of deltas not painted yet */
	size_t nunpainted, unpainted_cap;
	uint64_t latency_hist[10001];
	uint64_t frames_painted;

	/* text mode: tool summaries by tool_call_id until their result */
	struct pending_summary {
		char *tool_call_id;
		char *line;
	} *summaries;
	size_t nsummaries;
};

/* Asks the UI for a frame. */
void ctl_changed(struct controller *c);
/* A one-line diagnostic for the user, sanitized and masked. */
void ctl_notice(struct controller *c, const char *line);
/* Ends the run once: open streams get their discarded line, then the result. */
void ctl_finish(struct controller *c, int exit_code);
/* An error item (TUI) or error line (headless). */
void ctl_add_error_item(struct controller *c, const char *code, const char *detail);
/* A new string: text sanitized and masked (NULL for NULL). */
char *ctl_cleaned(struct controller *c, const char *text);
/* True when text[0..n) is only blanks (spaces, tabs, line breaks): never sent. */
bool ctl_blank(const char *text, size_t n);
/* True when status s is v. */
bool ctl_status_is(const char *s, const char *v);
/* Fills spec from an event (strings cleaned into store); false for events with no item. */
bool ctl_event_to_spec(struct controller *c, const struct event *e, int64_t seq,
		       struct item_spec *spec, struct buf *store);
/* Headless text mode: the line(s) one durable event prints. */
void ctl_text_mode_event(struct controller *c, const struct item_spec *s, const struct event *e);
/* Text mode: prints the tool summaries still waiting for a result ("  → why"), then frees
 * them: a tool whose result never comes is still on the record. */
void ctl_summaries_flush(struct controller *c, const char *why);
/* Frees the tool summaries text mode keeps until their result. */
void ctl_summaries_free(struct controller *c);
/* Fetches the conversation's title for the status line (once; failures become error items). */
void ctl_fetch_title(struct controller *c);
/* Calls still in flight when the controller goes finish into nothing. */
void ctl_rest_detach(struct controller *c);
/* --send -: watches stdin for lines. */
void ctl_stdin_start(struct controller *c);
/* Appends the instrumentation line to $TETHER_STATS. */
void ctl_write_stats(const struct controller *c);

#endif
