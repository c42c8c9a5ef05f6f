/* net: the event loop, the session WebSocket, REST calls and the frame codec.
 * lws and cJSON stay inside the .c files of net/; nothing here exposes them. */
#ifndef TETHER_NET_H
#define TETHER_NET_H

#include "base.h"

/* ------------------------------------------------------------------ codec */

/* The largest seq or cursor accepted anywhere (2^53: JSON numbers beyond it lose precision),
 * so that cursor + 1 never overflows. */
#define NET_SEQ_MAX ((int64_t)9007199254740992)

enum frame_type {
	FRAME_UNKNOWN,      /* a type this client does not know: ignore it */
	FRAME_SYNC,
	FRAME_DURABLE,
	FRAME_TRANSIENT,
	FRAME_ITEM_STARTED,
	FRAME_DELTA,
	FRAME_ITEM_ABORTED,
	FRAME_ERROR,
};

enum delta_kind { DELTA_TEXT, DELTA_REASONING };

enum event_kind {
	EVENT_UNKNOWN,              /* any kind not listed: render generically */
	EVENT_MESSAGE,
	EVENT_ACTION,
	EVENT_OBSERVATION,
	EVENT_USER_REJECT,
	EVENT_AGENT_ERROR,
	EVENT_CONVERSATION_ERROR,
	EVENT_PAUSE,
	EVENT_INTERRUPT,
	EVENT_STATE_UPDATE,
	EVENT_SYSTEM_PROMPT,
	EVENT_CONDENSATION,
	EVENT_ACP_TOOL_CALL,        /* a tool call run by an ACP agent: card and result in one */
	EVENT_HOOK,                 /* HookExecutionEvent */
	EVENT_LLM_LOG,              /* LLMCompletionLogEvent: diagnostics, not shown */
};

/* How a terminal command ended, as far as its observation says. */
enum exit_status {
	EXIT_STATUS_NONE,           /* no exit code (a tool without one, or failed with a message) */
	EXIT_STATUS_EXITED,         /* exit_code holds the command's code */
	EXIT_STATUS_RUNNING,        /* exit_code -1: no output for a while, still running (soft timeout) */
	EXIT_STATUS_TIMED_OUT,      /* the hard timeout ended it */
};

enum event_source { SOURCE_UNKNOWN, SOURCE_AGENT, SOURCE_USER, SOURCE_ENVIRONMENT, SOURCE_HOOK };

/* A conversation's execution status (upstream's ConversationExecutionStatus). */
enum run_status {
	RUN_STATUS_ABSENT,              /* no status given */
	RUN_STATUS_UNKNOWN,             /* a value this client does not know */
	RUN_STATUS_IDLE,
	RUN_STATUS_RUNNING,
	RUN_STATUS_PAUSED,
	RUN_STATUS_WAITING_FOR_CONFIRMATION,
	RUN_STATUS_FINISHED,
	RUN_STATUS_ERROR,
	RUN_STATUS_STUCK,
	RUN_STATUS_DELETING,
};

/* The tools and tool events a client treats apart, decoded from action.kind ("FinishAction",
 * "TerminalAction"), observation.kind ("FinishObservation", "TerminalObservation") and
 * tool_name ("finish", "terminal"): TOOL_KIND_NONE when the field is absent, TOOL_KIND_OTHER
 * for any other name. */
enum tool_kind { TOOL_KIND_NONE, TOOL_KIND_OTHER, TOOL_KIND_FINISH, TOOL_KIND_TERMINAL };

/* An ACP tool call's status (ACP's ToolCallStatus). */
enum acp_status {
	ACP_STATUS_ABSENT,              /* no status given */
	ACP_STATUS_UNKNOWN,             /* a value this client does not know */
	ACP_STATUS_PENDING,
	ACP_STATUS_IN_PROGRESS,
	ACP_STATUS_COMPLETED,
	ACP_STATUS_FAILED,
};

/* RISK_ABSENT when the event carries no security_risk field. */
enum security_risk { RISK_ABSENT, RISK_UNKNOWN, RISK_LOW, RISK_MEDIUM, RISK_HIGH };

/* What a usage id names (upstream's LLM usage_id values). */
enum usage_role {
	USAGE_ROLE_OTHER,               /* a condenser's, a title LLM's, any other */
	USAGE_ROLE_AGENT,               /* "agent" */
	USAGE_ROLE_DEFAULT,             /* "default": an LLM's usage id when none was given */
	USAGE_ROLE_PROFILE,             /* "profile:NAME": the LLM a profile switch installed */
	USAGE_ROLE_ASK_AGENT,           /* "ask-agent-llm": the side questions' copy */
};

/* One usage id's totals in a conversation's stats (upstream's MetricsSnapshot: sums over the
 * LLM calls made under that id). Strings as received: neither sanitized nor masked. */
struct usage_metrics {
	char *usage_id;                 /* "agent", "ask-agent-llm", "profile:NAME", … */
	enum usage_role role;           /* usage_id decoded */
	char *model;                    /* model_name; NULL when absent */
	double cost;                    /* accumulated_cost, in USD */
	bool has_budget;
	double max_budget;              /* max_budget_per_task */
	int64_t prompt_tokens;
	int64_t completion_tokens;
	int64_t cache_read_tokens;
	int64_t cache_write_tokens;
	int64_t reasoning_tokens;
	int64_t context_window;         /* the largest reported; 0 when the provider gave none */
	int64_t per_turn_tokens;        /* prompt + completion of the latest call: context in use */
};

/* A conversation's usage: one entry per usage id, in the server's order. */
struct usage_stats {
	struct usage_metrics *entries;
	size_t count;
};
/* parent_id of an event that starts a new root (navigated to no event, then appended). */
#define EVENT_ROOT_PARENT "__root__"

/* The confirmation policies tether sets. */
enum confirmation_policy {
	CONFIRMATION_POLICY_NEVER,      /* NeverConfirm */
	CONFIRMATION_POLICY_RISKY,      /* ConfirmRisky: HIGH and UNKNOWN risk ask */
	CONFIRMATION_POLICY_ALWAYS,     /* AlwaysConfirm */
};

/* The fields of one event (protocol.md §5) that a client renders. Every string is owned by
 * the frame it came in, NUL-terminated, and NULL when absent. Strings are as received:
 * neither sanitized nor masked. */
struct event {
	enum event_kind kind;
	const char *kind_name;          /* event.kind as on the wire */
	const char *id;
	const char *timestamp;
	/* The event before it on its branch (issue 25): NULL when absent (an event written
	 * before the tree: the log's previous event), "__root__" (EVENT_ROOT_PARENT) for a root. */
	const char *parent_id;
	enum event_source source;
	const char *role;               /* MessageEvent: llm_message.role */
	/* The main text: MessageEvent text parts (joined with nothing between, an image as a
	 * line "[image]"; so are thought and observation parts), ActionEvent thought (both
	 * without inline <think>…</think>), ObservationEvent content text (an MCP tool's blocks
	 * one a line; and the terminal's timeout note), UserRejectObservation rejection_reason,
	 * AgentErrorEvent error, ConversationErrorEvent detail, condensation summary,
	 * SystemPromptEvent prompt and tool names, ACPToolCallEvent output, HookExecutionEvent
	 * reason and output (each message once), and an unknown kind's fields as "key: value"
	 * lines. */
	const char *text;
	/* reasoning_content, thinking blocks' text, responses_reasoning_item summary and content,
	 * and inline <think>…</think> of the text, each once, joined by "\n\n". */
	const char *reasoning;
	/* Tool calls: ActionEvent, ObservationEvent, UserRejectObservation, AgentErrorEvent. */
	const char *tool_name;
	const char *tool_call_id;
	const char *action_kind;        /* action.kind, e.g. "TerminalAction" */
	enum tool_kind action_type;     /* action_kind decoded */
	enum tool_kind tool;            /* tool_name decoded */
	const char *action_summary;     /* one line: command, path or message of the action */
	const char *action_detail;      /* every argument of the action, whole ("name: value" lines) */
	enum security_risk risk;
	bool is_error;                  /* ObservationEvent observation.is_error */
	bool has_exit_code;
	int exit_code;                  /* observation.exit_code (or metadata.exit_code) */
	const char *error_code;         /* ConversationErrorEvent code */
	/* ConversationStateUpdateEvent. */
	const char *state_key;
	const char *execution_status;   /* value when key is execution_status, or value.execution_status of full_state */
	enum run_status run_status;     /* execution_status decoded */
	/* key stats (the value), or full_state (its value.stats); NULL when absent or not of
	 * upstream's shape. Owned by the frame. */
	const struct usage_stats *stats;
	/* full_state: the server's HEAD (value.leaf_event_id, NULL when absent) and whether it
	 * was moved to no event at all (value.head_is_empty). */
	const char *leaf_event_id;
	bool head_is_empty;
	/* key agent (after a profile or LLM switch: value.llm.model) or full_state
	 * (value.agent.llm.model): the agent's model; NULL when absent. */
	const char *agent_model;
	/* key confirmation_policy (value.kind) or full_state (value.confirmation_policy.kind):
	 * has_policy when the update names one; a kind tether does not know confirms some
	 * actions, as every policy but NeverConfirm does, and reads as RISKY. */
	bool has_policy;
	enum confirmation_policy policy;
	/* A readable name for the kind: an unknown kind's name in words ("FooBarEvent" → "foo
	 * bar"), or what a hook ran and how it ended. NULL for kinds shown by their own rule. */
	const char *label;
	/* ActionEvent, ACPToolCallEvent: what the tool was asked to do beyond action_summary, as
	 * readable lines (markdown-lite); FinishAction: its whole message. NULL when none. */
	const char *arguments;
	const char *observation_kind;   /* observation.kind, e.g. "TerminalObservation" */
	enum tool_kind observation_type; /* observation_kind decoded */
	enum exit_status exit_status;   /* has_exit_code is exit_status == EXIT_STATUS_EXITED */
	bool rejected_by_hook;          /* UserRejectObservation with rejection_source "hook" */
	const char *tool_status;        /* ACPToolCallEvent status ("completed", "failed", …) */
	enum acp_status acp_status;     /* tool_status decoded */
};

/* One decoded server frame. Fields not belonging to its type are zero/NULL. */
struct frame {
	enum frame_type type;
	const char *type_name;          /* type as on the wire */
	/* sync */
	bool has_from_seq, has_through_seq;
	int64_t from_seq, through_seq;
	/* durable */
	int64_t seq;
	/* durable, transient */
	struct event event;
	/* item_started, delta, item_aborted */
	const char *item_id;
	int attempt;                    /* defaults to 1 */
	bool has_anchor_seq;
	int64_t anchor_seq;
	int64_t order;                  /* delta */
	enum delta_kind delta_kind;     /* delta */
	const char *content;            /* delta */
	size_t content_len;
	const char *chunk_id;           /* delta, optional */
	bool has_choice_index;
	int64_t choice_index;
	const char *reason;             /* item_aborted */
	/* error */
	const char *code;
	const char *detail;
	/* private: the storage behind the strings above */
	void *priv_;
};

enum codec_status {
	CODEC_OK,
	CODEC_MALFORMED_JSON,   /* not JSON, truncated, or nested too deep */
	CODEC_NOT_OBJECT,       /* JSON, but not an object */
	CODEC_MISSING_FIELD,    /* a required field is absent */
	CODEC_WRONG_TYPE,       /* a field has the wrong JSON type or an out-of-range value */
	CODEC_TOO_LARGE,        /* over the decoder's size limit */
};

/* Why a decode failed, readable by a user. */
struct codec_error {
	enum codec_status status;
	char message[200];
};

/* Decodes a stats value ({"usage_to_metrics":{ID:Metrics…}}, as a `stats` state update, a
 * full_state's `stats` or ConversationInfo.stats carry it) from json[0..len). Per-call lists
 * are not read; a number of the wrong type reads as 0. Returns 0 (free with
 * usage_stats_fini), or -1 with *err and *out empty. */
int usage_stats_decode(const char *json, size_t len, struct usage_stats *out,
		       struct codec_error *err);
/* Replaces *dst with a copy of src (NULL: empty). */
void usage_stats_copy(struct usage_stats *dst, const struct usage_stats *src);
/* Frees what *s holds and empties it; safe on a zeroed one. */
void usage_stats_fini(struct usage_stats *s);

/* Transforms one string (a JSON string value or key, as decoded UTF-8) into out, appending
 * only (what out already holds stays as it is). */
typedef void (*json_string_fn)(void *ctx, const char *s, size_t len, struct buf *out);

/* Decodes one server frame from json[0..len) (need not be NUL-terminated). Returns 0 and
 * fills *out (release with frame_fini), or -1 with *err filled and *out left empty.
 * Unknown frame types decode to FRAME_UNKNOWN with status 0. Never aborts. */
int frame_decode(const char *json, size_t len, struct frame *out, struct codec_error *err);
/* Releases what frame_decode allocated; safe on a zeroed frame. */
void frame_fini(struct frame *f);
/* The first text frame of a connection: {"type":"auth","session_api_key":KEY}. Caller frees. */
char *frame_encode_auth(const char *session_api_key);
/* A user message: {"role":"user","content":[{"type":"text","text":TEXT}]}. Caller frees. */
char *frame_encode_user_message(const char *text);

/* Appends the delta frame f as a wire delta frame (protocol.md §2.5) with item_id and
 * content[0..len) in place of its own (the caller's cleaned copies); its chunk_id goes
 * through fn first (NULL fn: unchanged). For --record. */
void frame_encode_delta(const struct frame *f, const char *item_id, const char *content,
			size_t len, json_string_fn fn, void *ctx, struct buf *out);

/* One conversation of the server's list (REST search). */
struct conversation_info {
	char *id;
	char *title;
	char *execution_status;         /* as received */
	enum run_status run_status;     /* execution_status decoded */
	char *updated_at;
	bool has_stats;
	struct usage_stats stats;       /* ConversationInfo.stats, when has_stats */
	char *leaf_event_id;            /* the server's HEAD (v1.31+); NULL: none given */
	char *model;                    /* agent.llm.model; NULL: none given */
	bool has_policy;                /* confirmation_policy named (upstream: NeverConfirm when
					 * not set) */
	enum confirmation_policy policy;
};

/* Decodes a conversation search page ({"items":[ConversationInfo…],"next_page_id":…}) or a
 * single ConversationInfo (then *count is 1). Returns 0 or -1 with *err. Free with
 * conversation_infos_free. *next_page_id is NULL when there are no more pages. */
int conversation_list_decode(const char *json, size_t len, struct conversation_info **items,
			     size_t *count, char **next_page_id, struct codec_error *err);
/* Frees an array from conversation_list_decode. */
void conversation_infos_free(struct conversation_info *items, size_t count);

/* Appends s as a JSON string literal (with quotes). Control characters U+0000–001F, U+007F and
 * U+0080–009F are written as \uXXXX; invalid UTF-8 becomes U+FFFD. */
void json_append_string(struct buf *out, const char *s, size_t len);
/* Re-serializes the JSON value in json[0..len) compactly into out, passing every string
 * (values and keys) through fn first (NULL fn: unchanged), escaped as json_append_string does;
 * numbers keep their text (0.0 stays 0.0).
 * Returns 0, or -1 with *err when json does not parse (out unchanged). */
int json_rewrite_strings(const char *json, size_t len, json_string_fn fn, void *ctx,
			 struct buf *out, struct codec_error *err);
/* The event object of a durable or transient frame as compact JSON (numbers as written),
 * made on the first call and owned by the frame; NULL (and *len 0) for other frames. */
const char *frame_event_json(const struct frame *f, size_t *len);
/* Appends the event object of f as compact JSON with every string passed through fn, as
 * json_rewrite_strings does but without printing and parsing it again. Returns 0, or -1 when
 * f carries no event. */
int frame_event_rewrite(const struct frame *f, json_string_fn fn, void *ctx, struct buf *out);
/* frame_event_rewrite for an fn that gives text of printable ASCII, LF and TAB back as it is
 * (the display sanitizer with no secrets to mask): such strings are escaped straight from
 * the frame's text, without fn; the output is the same. */
int frame_event_rewrite_kept(const struct frame *f, json_string_fn fn, void *ctx,
			     struct buf *out);

/* ------------------------------------------------------------------- loop */

struct loop;
struct loop_timer;

/* Writes one line of library or debug logging (never to the terminal). */
typedef void (*loop_log_fn)(int level, const char *line);

/* Creates the one event loop (a libwebsockets context). log may be NULL: then library
 * logging is dropped. Returns NULL with a message appended to err (may be NULL) on failure. */
struct loop *loop_create(loop_log_fn log, struct buf *err);
/* Destroys the loop and everything still attached to it. */
void loop_destroy(struct loop *loop);
/* Runs until loop_quit; returns 0, or -1 if the loop failed. An idle loop sleeps. After
 * loop_quit it goes on for at most half a second while a stopped session closes its socket. */
int loop_run(struct loop *loop);
/* Makes loop_run return after the current callback (safe from any callback). */
void loop_quit(struct loop *loop);

/* Creates a one-shot timer that calls cb(arg) on the loop. */
struct loop_timer *loop_timer_create(struct loop *loop, void (*cb)(void *arg), void *arg);
/* (Re)schedules the timer delay_us from now, replacing any earlier schedule. */
void loop_timer_schedule(struct loop_timer *t, int64_t delay_us);
/* Unschedules the timer if it is pending. */
void loop_timer_cancel(struct loop_timer *t);
/* True while the timer is scheduled. */
bool loop_timer_pending(const struct loop_timer *t);
/* Cancels and frees the timer; NULL is fine. */
void loop_timer_destroy(struct loop_timer *t);
/* Makes t a frame clock: while it is due within hold_us (0: never), the session sockets are
 * not read, and when it fires what they hold is read first, then cb runs (loop_reads.c). */
void loop_timer_hold_reads(struct loop_timer *t, int64_t hold_us);
/* When what is being read now could first have been read: the start of the hold it waited
 * out, else now_us (the delta→paint latency counts from there). */
int64_t loop_read_since(const struct loop *loop, int64_t now_us);

/* Watches fd for input: on_readable(arg) when it can be read, on_hangup(arg) once when it
 * closes (then the watch is gone). The loop watches a dup of fd; the caller keeps fd.
 * Returns 0 or -1. */
int loop_watch_fd(struct loop *loop, int fd, void (*on_readable)(void *arg),
		  void (*on_hangup)(void *arg), void *arg);
/* Stops watching fd (as passed to loop_watch_fd) without calling on_hangup; for input that
 * stays readable at its end, such as a regular file or /dev/null. Returns 0 or -1. */
int loop_unwatch_fd(struct loop *loop, int fd);
/* Blocks the given signals and delivers them through the loop (a signalfd). Returns 0 or -1. */
int loop_watch_signals(struct loop *loop, const int *signals, int count,
		       void (*on_signal)(void *arg, int signo), void *arg);

/* ---------------------------------------------------------------- session */

enum session_state {
	SESSION_CONNECTING,     /* a connection attempt started (after_seq tells the cursor) */
	SESSION_OPEN,           /* the WebSocket is up (auth sent if any) */
	SESSION_SYNCED,         /* the sync frame arrived on this connection */
	SESSION_CLOSED,         /* the connection ended (close_code/reason when known) */
	SESSION_RECONNECTING,   /* waiting retry_in_us before the next attempt */
	SESSION_GAVE_UP,        /* max_retries exhausted; no retry */
	SESSION_FAILED,         /* fatal (see end); no retry */
};

/* Why a session stopped connecting. The application decides what each means to the user
 * (exit codes are tui/'s business). */
enum session_end {
	SESSION_END_NONE,       /* still going */
	SESSION_END_STOPPED,    /* its owner called session_stop */
	SESSION_END_AUTH,       /* close 4001, or HTTP 401/403 on the handshake */
	SESSION_END_NOT_FOUND,  /* close 4004, or HTTP 404 on the handshake */
	SESSION_END_BAD_URL,    /* the server URL does not parse */
	SESSION_END_GAVE_UP,    /* max_retries attempts in a row failed */
};

/* What kind of failure ended a connection before any answer (the words are in the reason
 * or error text that goes with it). */
enum net_cause {
	NET_CAUSE_NONE,
	NET_CAUSE_REFUSED,      /* nothing listens at the address and port */
	NET_CAUSE_DNS,          /* the host name does not resolve */
	NET_CAUSE_TLS,          /* the TLS handshake failed (certificate, or no TLS there) */
	NET_CAUSE_REDIRECT,     /* REST: the server answered 3xx with a Location (not followed) */
	NET_CAUSE_OTHER,        /* a timeout, a cut, anything else */
};

/* Which socket a session speaks (issue 26). */
enum net_protocol {
	NET_PROTOCOL_AUTO,           /* the session socket where the server has it, else events */
	NET_PROTOCOL_SESSION,        /* /sockets/session/{id} (agent-server 1.44+) */
	NET_PROTOCOL_EVENTS,         /* the legacy /sockets/events/{id}, seqs assigned here */
};

/* "auto", "session" or "events". */
const char *net_protocol_name(enum net_protocol p);

/* A change of the session's connection state. */
struct session_status {
	enum session_state state;
	int attempt;            /* 1-based attempts since the last connection that reached sync */
	int close_code;         /* 0 when unknown (network error) */
	const char *reason;     /* close reason or error text; may be NULL */
	bool has_after_seq;
	int64_t after_seq;      /* the cursor asked for, on CONNECTING */
	int64_t retry_in_us;    /* on RECONNECTING */
	enum session_end end;   /* on GAVE_UP, FAILED, and CLOSED after session_stop */
	int http_status;        /* the handshake's HTTP status when it was refused, else 0 */
	enum net_cause cause;   /* on CLOSED, FAILED: what kind of failure, before any answer */
	enum net_protocol protocol; /* the socket of this attempt: SESSION or EVENTS */
};

struct session_config {
	const char *server_url;      /* http(s):// or ws(s):// base */
	enum net_protocol protocol;  /* AUTO: asks /server_info and tries the session socket */
	const char *conversation_id;
	const char *api_key;         /* NULL: no auth frame */
	bool no_history;             /* connect without after_seq the first time */
	int64_t after_seq;           /* initial cursor; -1 = whole history */
	double ping_interval_s;
	double stall_timeout_s;
	int max_retries;             /* 0 = forever */
	bool insecure;               /* do not verify TLS certificates */
	size_t max_message_bytes;    /* 0: the default (4 MiB + margin) */
};

struct session_handlers {
	void *ctx;
	/* Every connection state change. */
	void (*on_status)(void *ctx, const struct session_status *st);
	/* Every decoded frame. Durable frames arrive deduplicated (by seq and event id) and in
	 * ascending seq; the cursor has already moved when this runs. */
	void (*on_frame)(void *ctx, const struct frame *f);
	/* A frame that could not be decoded, or a durable seq skipped as too large (protocol.md
	 * §7.3, code "frame_too_large", seq set). The connection carries on. */
	void (*on_bad_frame)(void *ctx, const char *code, const char *detail, int64_t seq);
	/* Every received text message as received (for --record), with its decoded frame, or
	 * NULL when it did not decode; called before on_frame or on_bad_frame. */
	void (*on_raw)(void *ctx, const char *json, size_t len, const struct frame *f);
	/* All open streams are void: called before each new connection attempt's frames. */
	void (*on_discard_streams)(void *ctx);
};

struct session;

/* Creates a session on the loop; nothing connects until session_start. */
struct session *session_create(struct loop *loop, const struct session_config *cfg,
			       const struct session_handlers *h);
/* Starts connecting (and reconnecting per the backoff policy). */
void session_start(struct session *s);
/* Sets the cursor the first connection resumes from (after_seq -1: the whole history), in
 * place of the config's; only before session_start (ignored after). */
void session_set_cursor(struct session *s, int64_t after_seq);
/* Sends a user message over the socket once it is synced; queued while it is not.
 * Each message is sent exactly once, never re-sent after a reconnect. */
void session_send_user_message(struct session *s, const char *text);
/* Messages queued and not yet written to a socket. */
size_t session_pending_messages(const struct session *s);
/* The resume cursor: seq of the last durable frame, or the initial cursor. */
int64_t session_cursor(const struct session *s);
/* True when the cursor holds a value (false only under --no-history before the first sync). */
bool session_has_cursor(const struct session *s);
/* True while a connection is synced. */
bool session_is_live(const struct session *s);
/* Why the last attempt that did not reach sync ended (as received: neither sanitized nor
 * masked), or NULL when the last attempt synced or none ended yet. */
const char *session_last_failure(const struct session *s);
/* While waiting to reconnect (after a drop), starts the next attempt now instead of when the
 * backoff ends; it asks for after_seq from the cursor like every reconnect. False (nothing
 * done) while connected or connecting, and once stopped or failed. */
bool session_reconnect_now(struct session *s);
/* Closes the connection with a close frame (1000) and stops reconnecting; on_status hears
 * CLOSED with end SESSION_END_STOPPED once it is closed. lws 4.1.6 ends the TCP connection
 * right after the frame, without waiting for the server's close. */
void session_stop(struct session *s);
/* Stops and frees. */
void session_destroy(struct session *s);

/* ------------------------------------------------------------------- REST */

/* The outcome of one REST call. status is the HTTP status, or 0 with error set when no
 * response came (network, TLS, timeout). */
struct rest_response {
	int status;
	const char *body;
	size_t body_len;
	const char *error;
	enum net_cause cause;   /* with error: what kind of failure */
	/* with NET_CAUSE_REDIRECT: the 3xx status, the Location as sent (show it through
	 * url_describe) and, when Location is the same route under another base, that base
	 * (the --server to use), else NULL */
	int redirect_status;
	const char *location;
	const char *moved_to;
};

typedef void (*rest_done_fn)(void *ctx, const struct rest_response *r);

/* Where REST calls go: the loop they run on, the server's base URL, its session API key
 * (NULL: none) and whether TLS certificates go unchecked. Each call copies what it needs. */
struct rest_server {
	struct loop *loop;
	const char *url;
	const char *api_key;
	bool insecure;
};

/* The risk at or above which ConfirmRisky asks (upstream's SecurityRisk, without UNKNOWN). */
enum risk_threshold {
	RISK_THRESHOLD_HIGH,            /* the default */
	RISK_THRESHOLD_MEDIUM,
	RISK_THRESHOLD_LOW,
};

/* The security analyzers tether sets. */
enum security_analyzer {
	SECURITY_ANALYZER_NONE,         /* null: removes it */
	SECURITY_ANALYZER_LLM,          /* LLMSecurityAnalyzer: the LLM rates each action */
	SECURITY_ANALYZER_PATTERN,      /* PatternSecurityAnalyzer */
};

/* The order of an event search. */
enum event_order {
	EVENT_ORDER_OLDEST_FIRST,       /* the server's default (TIMESTAMP) */
	EVENT_ORDER_NEWEST_FIRST,       /* TIMESTAMP_DESC */
};

/* What an event search or count asks for; a zero field asks for nothing (protocol.md §4.1). */
struct event_query {
	const char *page_id;            /* search: the previous page's next_page_id (an event id) */
	int limit;                      /* search: 1..100; 0: the server's default (100) */
	enum event_order order;         /* search */
	const char *kind;               /* the event class as upstream names it (a module path) */
	const char *source;             /* "agent", "user", "environment", "hook" */
	const char *body;               /* text a MessageEvent contains (case-insensitive) */
	const char *timestamp_gte;      /* ISO 8601: at or after (naive = the server's time) */
	const char *timestamp_lt;       /* ISO 8601: before */
	/* ISO 8601: at or before (upstream has no __lte: sent as __lt one microsecond later;
	 * one that does not parse is not sent) */
	const char *timestamp_lte;
};

/* The REST calls (protocol.md §4), one row each in net/api.c's table: route, method, query,
 * body, the decoder of the answer and what 404/405/409/422 mean for it. */
enum rest_call {
	REST_GET_CONVERSATION,          /* GET {id}: its ConversationInfo (conversations, 1) */
	REST_SEND_MESSAGE,              /* POST {id}/events: text with run true; starts a run and
					 * runs actions that wait for confirmation */
	REST_PAUSE,                     /* POST {id}/pause: the run stops after the current step */
	REST_INTERRUPT,                 /* POST {id}/interrupt: the run stops now */
	REST_RUN,                       /* POST {id}/run: starts a run (CONFLICT: one is under way) */
	REST_RESPOND_TO_CONFIRMATION,   /* accept, or reject with reason (NULL or "": none) */
	REST_SET_CONFIRMATION_POLICY,   /* policy (UNSUPPORTED: a server without the route) */
	REST_SEARCH_CONVERSATIONS,      /* page_id, limit 1..100: a page of conversations */
	REST_SEARCH_CONVERSATIONS_NEWEST, /* the same, most recently updated first */
	REST_SEARCH_EVENTS,             /* {id}/events/search with query: an event page */
	REST_COUNT_EVENTS,              /* {id}/events/count with query's filters: a count
					 * (UNSUPPORTED: a server without the route) */
	REST_SERVER_INFO,               /* GET /server_info: the version (no key needed) */
	REST_LIST_AGENT_PROFILES,       /* GET /api/agent-profiles: profiles and the active one
					 * (the server's first answer may create "default") */
	REST_LIST_LLM_PROFILES,         /* GET /api/profiles: LLM profiles, the server's default */
	REST_START_CONVERSATION,        /* POST /api/conversations: profile_id, working_dir, text
					 * (NULL: none), autotitle; its ConversationInfo
					 * (NOT_FOUND: no such profile) */
	REST_FORK,                      /* POST {id}/fork: title, from_event_id (NULL: whole);
					 * the fork's ConversationInfo (NOT_FOUND: the source or
					 * the event; CONFLICT) */
	REST_NAVIGATE,                  /* POST {id}/navigate: event_id (never NULL: the empty
					 * tree has no system prompt); ConversationInfo with the
					 * new leaf_event_id (NOT_FOUND: conversation or event) */
	REST_RENAME,                    /* PATCH {id}: title (NOT_FOUND: upstream's
					 * {"success":false}; INVALID: empty or over 200) */
	REST_DELETE,                    /* DELETE {id} (NOT_FOUND: upstream's 400) */
	REST_ASK_AGENT,                 /* POST {id}/ask_agent: text; the answer (no event is
					 * written; upstream answers an unknown id with 500) */
	REST_CONDENSE,                  /* POST {id}/condense (HTTP_ERROR with detail: no
					 * condenser) */
	REST_SWITCH_PROFILE,            /* POST {id}/switch_profile: profile (NOT_FOUND: the
					 * conversation or the profile, detail says; REFUSED) */
	REST_GOAL_START,                /* POST {id}/goal: text, max_iterations (0: the
					 * server's 10) (CONFLICT: busy; REFUSED: empty) */
	REST_GOAL_STOP,                 /* POST {id}/goal/stop (OK also with no loop) */
	REST_GOAL_RESUME,               /* POST {id}/goal/resume (REFUSED: nothing to resume) */
	REST_SET_SECURITY_ANALYZER,     /* POST {id}/security_analyzer: analyzer */
	REST_CALL_COUNT,
};

/* What a call needs; each call reads only its own fields. */
struct rest_args {
	const char *id;                 /* the conversation, escaped as one path segment */
	const char *text;               /* SEND_MESSAGE */
	bool accept;                    /* RESPOND_TO_CONFIRMATION */
	const char *reason;             /* RESPOND_TO_CONFIRMATION: sent only with a rejection */
	enum confirmation_policy policy; /* SET_CONFIRMATION_POLICY */
	const char *page_id;            /* SEARCH_CONVERSATIONS*: the previous page's next_page_id */
	int limit;                      /* SEARCH_CONVERSATIONS*: clamped to 1..100 */
	const struct event_query *query; /* SEARCH_EVENTS, COUNT_EVENTS; NULL: none */
	enum risk_threshold threshold;  /* SET_CONFIRMATION_POLICY with RISKY */
	const char *title;              /* FORK, RENAME (NULL for FORK: none) */
	const char *event_id;           /* FORK: from_event_id (NULL: whole); NAVIGATE */
	const char *profile;            /* START_CONVERSATION: agent profile id;
					 * SWITCH_PROFILE: LLM profile name */
	const char *working_dir;        /* START_CONVERSATION: a path on the server's machine */
	bool autotitle;                 /* START_CONVERSATION */
	int max_iterations;             /* GOAL_START; 0: the server's default */
	enum security_analyzer analyzer; /* SET_SECURITY_ANALYZER */
};

/* What an answer means for its call (its table row reads the HTTP status). */
enum rest_outcome {
	REST_OK,                /* 2xx, and the answer decoded when the call has one */
	REST_NO_ANSWER,         /* no HTTP answer: raw->error, raw->cause say why */
	REST_AUTH,              /* 401, 403: the key was refused */
	REST_NOT_FOUND,         /* 404: no such conversation (a list: no such route) */
	REST_UNSUPPORTED,       /* the server does not have the route or method */
	REST_CONFLICT,          /* 409: the state does not allow it (a run under way) */
	REST_INVALID,           /* 422: the server refused the request's values */
	REST_REFUSED,           /* 400: the server refused it (detail says why) */
	REST_BAD_BODY,          /* 2xx, but not the answer the call expects (err says why) */
	REST_HTTP_ERROR,        /* any other status */
};

/* A page of conversations (REST_GET_CONVERSATION: the one). */
struct conversation_page {
	struct conversation_info *items;
	size_t count;
	char *next_page_id;             /* NULL on the last page */
};

/* A page of a conversation's events (the answer of REST_SEARCH_EVENTS), in the page's order.
 * The strings of events (as struct event documents them) and next_page_id are owned by the
 * page. */
struct event_page {
	struct event *events;
	size_t count;
	size_t skipped;                 /* items that were not event objects */
	const char *next_page_id;       /* NULL on the last page */
	void *priv_;
};

/* A server's version as /server_info gives it (upstream's package version). */
struct server_version {
	char text[32];                  /* as sent (cleaned to printable ASCII); "" unknown */
	bool known;                     /* MAJOR.MINOR.PATCH was read from it */
	int major, minor, patch;
};

/* An agent profile (GET /api/agent-profiles): what launches a conversation's agent. */
struct agent_profile {
	char *id;                       /* NULL: a legacy profile, not launchable by id */
	char *name;
	char *agent_kind;               /* "openhands", "acp" */
	char *llm_profile;              /* its LLM profile's name; NULL: none */
};

/* An LLM profile (GET /api/profiles). */
struct llm_profile {
	char *name;
	char *model;                    /* NULL: none given */
	bool api_key_set;
};

/* The answer of REST_LIST_AGENT_PROFILES or REST_LIST_LLM_PROFILES. */
struct profile_list {
	struct agent_profile *agents;   /* LIST_AGENT_PROFILES */
	struct llm_profile *llms;       /* LIST_LLM_PROFILES */
	size_t count;
	char *active;                   /* the active agent profile's id (may name none: a
					 * stale pointer) or the server's default LLM profile's
					 * name; NULL: none */
};

/* The typed answer of one call. What the call decoded is freed after the callback returns;
 * a callback that keeps a page moves it out (copies it and zeroes the field). */
struct rest_result {
	enum rest_call call;
	enum rest_outcome outcome;
	const struct rest_response *raw;        /* the HTTP answer (status, body, error) */
	struct codec_error err;                 /* REST_BAD_BODY */
	struct conversation_page conversations; /* GET_CONVERSATION, SEARCH_CONVERSATIONS* */
	struct event_page events;               /* SEARCH_EVENTS */
	int64_t count;                          /* COUNT_EVENTS */
	struct server_version version;          /* SERVER_INFO */
	struct profile_list profiles;           /* LIST_*_PROFILES */
	char *answer;                           /* ASK_AGENT */
	/* any status but 2xx: the server's own words ({"detail": …}, or for a 5xx its
	 * "exception"), as received (neither sanitized nor masked); NULL: none */
	char *detail;
};

typedef void (*rest_result_fn)(void *ctx, struct rest_result *r);

/* Sends one call and calls done exactly once with its typed answer (with REST_NO_ANSWER when
 * the loop is destroyed first). Returns 0, or -1 without calling done (bad URL, bad
 * arguments, loop closing). */
int rest_call(const struct rest_server *srv, enum rest_call call, const struct rest_args *a,
	      rest_result_fn done, void *ctx);
/* The typed answer of call from its HTTP answer raw, as rest_call gives it (also for an
 * answer that never came: status 0 and an error). Free with rest_result_fini. */
void rest_result_decode(enum rest_call call, const struct rest_response *raw,
			struct rest_result *out);
/* Frees what rest_result_decode decoded and is still in r. */
void rest_result_fini(struct rest_result *r);
/* The call's name in words for a message ("fork", "rename" …). */
const char *rest_call_name(enum rest_call call);
/* False when a server of version v certainly lacks call with args a (the first release of
 * its route, of fork's from_event_id, which older servers ignore and fork everything);
 * true for an unknown version. */
bool rest_call_available(enum rest_call call, const struct rest_args *a,
			 const struct server_version *v);
/* Re-reads r's 404 with the server's version v: the route is one v has, so the conversation
 * (or what the detail names) is missing; or v is older than the route, so the route is.
 * Returns whether v decided (false: an unknown version or not a 404; r unchanged). */
bool rest_result_by_version(struct rest_result *r, const struct rest_args *a,
			    const struct server_version *v);
/* Reads a version string ("1.43.1", "1.44.0rc1", "unknown") into *out. */
void server_version_parse(const char *text, struct server_version *out);

/* Decodes an events/search answer ({"items":[Event…],"next_page_id":…}); each item reads as a
 * durable frame's event does. Returns 0 (free with event_page_fini), or -1 with *err and *out
 * empty. */
int event_page_decode(const char *json, size_t len, struct event_page *out,
		      struct codec_error *err);
/* Frees what event_page_decode allocated; safe on a zeroed page. */
void event_page_fini(struct event_page *p);
/* Reads the answer of REST_COUNT_EVENTS (a JSON integer). Returns 0, or -1 with *err. */
int event_count_decode(const char *json, size_t len, int64_t *count, struct codec_error *err);

/* ------------------------------------------------------------------- URLs */

/* The parts of a server URL. */
struct server_url {
	bool tls;
	char host[256];
	int port;
	char base_path[256];    /* without a trailing slash; "" for the root */
};

/* Parses http://, https://, ws:// or wss:// URLs (http→ws, https→wss). Returns 0 or -1. */
int server_url_parse(const char *url, struct server_url *out);
/* Why server_url_parse refuses url, in words for the user; NULL when it accepts it. */
const char *server_url_problem(const char *url);
/* Appends a URL as safe to show: no user info, query or fragment (they may hold
 * credentials), only printable ASCII, at most 160 characters. */
void url_describe(const char *url, struct buf *out);

#endif
