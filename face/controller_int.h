/* The controller's private state, shared by controller*.c (and its unit test). What it
 * shows goes to its sinks (sink.h); a stream's state is the transcript's slot's, the
 * controller keeps only its clean (struct ctl_stream) on the slot. */
#ifndef TETHER_CONTROLLER_INT_H
#define TETHER_CONTROLLER_INT_H

#include "controller.h"
#include "diagnose.h"
#include "outbox.h"
#include "clean.h"
#include "sink.h"

/* What the controller keeps with each open stream (the transcript's slot owns the rest):
 * the streaming clean per delta kind, and the item_id as shown. */
struct ctl_stream {
	struct clean_stream clean[2];   /* by delta kind */
	char *shown_id;                 /* item_id sanitized and masked, for output */
};

enum { CTL_SINKS_MAX = 4, CTL_ACTIONS_MAX = 64 };

/* headless --send: the messages sent whose echo has not come yet, oldest first, and what was
 * seen of the last one (controller_echo.c). */
struct ctl_echoes {
	char **text;
	size_t head, len, cap;
	bool last_shown;                /* the last message sent was echoed */
	bool shown_in_run;              /* ... while a run was in progress */
	bool run_after;                 /* a run in progress was seen after that echo */
};

struct controller {
	struct loop *loop;
	const struct options *o;
	struct mask_set *masks;
	char *api_key;
	struct run_policy policy;       /* what the run does by itself */
	struct sink sinks[CTL_SINKS_MAX];
	size_t nsinks;
	struct session *session;
	struct outbox *outbox;
	struct ctl_call *rest_calls;    /* REST calls in flight */
	struct op_call *op_calls;       /* controller_op: the user's operations in flight */
	struct server_version server_version; /* from /server_info once a route was missing */
	char *model;                    /* the agent's LLM model as shown (clean), NULL: unknown */
	bool policy_known;              /* the server said the confirmation policy */
	enum confirmation_policy confirmation; /* what it said */
	struct ctl_branch *branch_calls; /* rewinds and forks in flight (controller_branch.c) */
	struct transcript *transcript;
	bool warned_streams;            /* told once that streams over the bound are discarded */
	struct buf delta_san, delta_out; /* scratch for the per-delta path */
	struct buf clean_scratch;       /* controller_clean's sanitized copy */
	struct loop_timer *stall_timer;
	struct loop_timer *catchup_timer;  /* ends catch-up 1 s after the last replayed durable */
	int connection_number;

	/* status */
	char *shown_server;             /* the user's strings, as the status line shows them */
	char *shown_conversation_id;
	char *title;
	char *execution_status;         /* as shown: sanitized and masked */
	enum run_status run_status;     /* as received, decoded */
	enum session_state connection;
	enum net_protocol socket;       /* the socket of the last attempt */
	int attempt;
	int64_t retry_at_us;
	int last_close_code;
	char *last_failure;             /* session_last_failure, sanitized and masked */
	int reconnects;
	size_t durable_count;
	size_t stream_count;
	size_t running_tools;           /* actions without a result: silence is a tool at work */
	int64_t running_since_us;       /* when the status last became running, 0 when not running */
	char *last_drop;                /* why the last connection ended, sanitized and masked */

	/* catch-up and --until */
	bool synced_once;
	bool unreachable_said;            /* a server not reached yet was said once */
	bool ever_open;                 /* a connection to the server was made once */
	bool caught_up;                 /* replay of this connection is over */
	bool caught_up_once;            /* the first catch-up happened (--until waits for it) */
	bool confirm_handled;           /* this waiting period was told (and answered) */
	bool has_through_seq;
	int64_t through_seq;
	bool sent_anything;
	/* --until with --send: a run in progress (or the echo of the last message) was seen
	 * since the last message went out */
	bool busy_since_send;
	struct ctl_echoes echoes;       /* --until: the messages sent, to know their echoes */
	bool stdin_open;
	bool finished;
	bool closed_reported;           /* the last connection line was "closed" */
	struct buf stdin_line;         /* --send -: a partial line */
	size_t stdin_lineno;            /* --send -: lines read so far */
	struct history_call *history_call; /* history.c: the call in flight, if any */
	bool history_refusal_said;      /* history.c: a page's refused events were told */
	int64_t history_page_us;           /* when the last page was sent (0: none yet) */
	int64_t window_from;            /* history.c: the window's oldest seq, still to be paged
					 * in after a tail-first open (-1: nothing to page) */
	int64_t window_anchor;          /* history.c: the anchor the last window page was asked at */
	bool interrupt_asked;           /* the user interrupted this run: an aborted answer stays */
	bool has_usage;                 /* a stats update or a snapshot with stats came */
	struct usage_stats usage;       /* the latest, its strings clean */
};

/* Calls op on every sink that has it, with the sink's context and the arguments. */
#define CTL_SINKS(c, op, ...)                                                             \
	do {                                                                              \
		for (size_t ctl_i_ = 0; ctl_i_ < (c)->nsinks; ctl_i_++)                   \
			if ((c)->sinks[ctl_i_].ops->op)                                   \
				(c)->sinks[ctl_i_].ops->op((c)->sinks[ctl_i_].ctx, __VA_ARGS__); \
	} while (0)

/* Tells the sinks that what they show changed. */
void ctl_changed(struct controller *c);
/* A one-line diagnostic for the user, sanitized and masked (none under the policy's quiet). */
void ctl_notice(struct controller *c, const char *line);
/* A diagnostic of what ends the run: said also under -q. */
void ctl_fatal_notice(struct controller *c, const char *line);
/* Ends the run once: open streams get their discarded line, then the result. */
void ctl_finish(struct controller *c, int exit_code);
/* A conversation error: cleaned, then to the sinks (an error item, an error line). */
void ctl_add_error_item(struct controller *c, const char *code, const char *detail);
/* A new string: text sanitized and masked (NULL for NULL). */
char *ctl_cleaned(struct controller *c, const char *text);
/* Where the controller's REST calls go: its server, key and TLS choice. */
struct rest_server ctl_server(const struct controller *c);
/* True when text[0..n) is only blanks (spaces, tabs, line breaks): never sent. */
bool ctl_blank(const char *text, size_t n);
/* True when status s is v. */
bool ctl_status_is(const char *s, const char *v);
/* Fills spec from an event (strings cleaned into store); false for events with no item. */
bool ctl_event_to_spec(struct controller *c, const struct event *e, int64_t seq,
		       struct item_spec *spec, struct buf *store);
/* Asks REST for the conversation once at the start: its title for the status line, and a
 * refused key found before the socket's auth timeout (then the run ends). */
void ctl_fetch_title(struct controller *c);
/* TUI: asks events/count, then starts the session a history window before the log's end
 * (the whole history when the count fails). False when it was not asked: start it now. */
bool ctl_count_events(struct controller *c);
/* The history call in flight goes on into nothing (controller_destroy). */
void ctl_history_detach(struct controller *c);
/* Asks REST for the conversation after the socket's HTTP 404, then ends the run: a server
 * without the session socket, or the conversation not found. */
void ctl_check_socket(struct controller *c);
/* Who the controller's diagnostics are about (its clean server URL and conversation id). */
struct diag_about ctl_about(const struct controller *c);
/* Calls still in flight when the controller goes finish into nothing. */
void ctl_rest_detach(struct controller *c);
/* The same for controller_op's operations: their done never runs. */
void ctl_op_detach(struct controller *c);
/* Frees what controller_op keeps (the model). */
void ctl_op_fini(struct controller *c);
/* Forgets the rewinds and forks in flight: their answers are dropped, nobody is told. */
void ctl_branch_detach(struct controller *c);
/* Whether the current status shows a run in progress (cli.md: not idle, finished, paused,
 * error or stuck). */
bool ctl_run_in_progress(const struct controller *c);
/* headless --until: ends the run when the current state says so (after catch-up, a live
 * status, the end of stdin). */
void ctl_until_check(struct controller *c);
/* headless --on-confirm accept|reject: answers the actions waiting through REST, telling the
 * sinks; a failed answer ends the run (exit 1). */
void ctl_answer_confirmation(struct controller *c, bool accept);
/* headless --send: text was sent; its echo is awaited after those of the earlier ones. */
void ctl_echo_expect(struct controller *c, const char *text);
/* A durable event: the echo of the oldest message sent not yet echoed, or not. */
void ctl_echo_seen(struct controller *c, const struct event *e, bool live);
/* A live status showing a run in progress. */
void ctl_echo_run_seen(struct controller *c);
/* Whether a run that ended with status ended answered the last message sent. */
bool ctl_echo_answered(const struct controller *c, enum run_status ended);
/* Frees the texts still awaited. */
void ctl_echo_fini(struct controller *c);
/* --send -: watches stdin for lines. */
void ctl_stdin_start(struct controller *c);
/* The session's callbacks, as controller_create hands them to the session (tests feed
 * frames through them). */
void ctl_session_handlers(struct controller *c, struct session_handlers *h);
/* The stall watchdog's check at now_us (the timer's callback; tests call it). */
void ctl_check_stalls(struct controller *c, int64_t now_us);

#endif
