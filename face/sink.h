/* Sinks: what the controller tells the faces on top of it. The controller turns frames into
 * typed changes of the conversation (already sanitized and masked) and hands each to every
 * sink in the order they were added: the TUI (dirty mark, error items, latency), the
 * headless writer (ndjson or text on stdout), the recorder (--record). A sink leaves the
 * operations it does not care about NULL. */
#ifndef TETHER_SINK_H
#define TETHER_SINK_H

#include "net.h"
#include "model.h"

enum sink_stream_state {
	SINK_STREAM_STARTED,    /* opened, or a higher attempt superseded the open one */
	SINK_STREAM_DELTA,      /* text arrived (content may be empty: all of it held back) */
	SINK_STREAM_RETIRED,    /* a durable event took over the stream in place */
	SINK_STREAM_ABORTED,
	SINK_STREAM_STALLED,    /* no delta for the stall limit: said once per stall */
	SINK_STREAM_DISCARDED,  /* dropped: a reconnect, too many open, or the run ended */
};

/* One change of one stream. */
struct sink_stream {
	enum sink_stream_state state;
	const char *item_id;            /* clean */
	int attempt;
	bool reasoning;                 /* delta: of the reasoning, not the text */
	const char *content;            /* delta: clean text */
	size_t content_len;
	const char *reason;             /* aborted: clean, "" when none */
	const struct frame *frame;      /* delta: the frame as received (order, chunk_id, ...) */
	int64_t at_us;                  /* delta: when it arrived */
};

/* A durable or transient event once the model took it. */
struct sink_item {
	const struct event *event;
	const struct item_spec *spec;   /* its item, strings clean */
	enum apply_result applied;      /* what the transcript did with it */
	int64_t seq;                    /* -1 for a transient */
};

/* The end of the run, for the result line. */
struct sink_result {
	bool has_cursor;
	int64_t cursor;
	size_t durable_count, stream_count;
	int reconnects;
};

/* One action waiting for confirmation; strings clean, tool_call_id NULL when it has none. */
struct sink_action {
	const char *tool_call_id;
	const char *tool;
	const char *summary;            /* one line, cut: the short form */
	const char *whole;              /* every argument, whole ("name: value" lines); "" when none */
	enum security_risk risk;
};

struct sink_ops {
	/* The connection's state changed (SESSION_SYNCED included); reason is clean or NULL.
	 * repeat: a fatal close already told as closed. */
	void (*connection)(void *ctx, const struct session_status *st, const char *reason,
			   bool repeat);
	/* A sync frame. */
	void (*sync)(void *ctx, const struct frame *f);
	/* A durable or transient frame as received, before the model takes it. */
	void (*event)(void *ctx, const struct frame *f);
	/* The model took an event that makes an item. */
	void (*item)(void *ctx, const struct sink_item *it);
	/* A stream changed. */
	void (*stream)(void *ctx, const struct sink_stream *s);
	/* The execution status changed (clean); run_ended: idle, finished, paused, error, stuck
	 * (the cards the transcript still lists as pending are those the run ended without). */
	void (*status)(void *ctx, const char *execution_status, bool run_ended);
	/* headless: the status became waiting_for_confirmation; these actions wait (none when
	 * they are not in the transcript). Once per waiting period. */
	void (*confirmation)(void *ctx, const struct sink_action *actions, size_t n);
	/* headless --on-confirm accept|reject: this answer goes out for the actions with these
	 * tool_call_ids (clean). */
	void (*answered)(void *ctx, bool accept, const char *const *ids, size_t n);
	/* The conversation's usage changed (a stats update, a snapshot with stats); strings
	 * clean. */
	void (*usage)(void *ctx, const struct usage_stats *u);
	/* A conversation error (an error frame, a frame that could not be read, a failed call). */
	void (*error)(void *ctx, const char *code, const char *detail);
	/* A one-line diagnostic for the user (clean). */
	void (*notice)(void *ctx, const char *line);
	/* A frame as received, with its decoded form (NULL when it did not decode); deltas
	 * excepted: they come as SINK_STREAM_DELTA. */
	void (*raw)(void *ctx, const char *json, size_t len, const struct frame *f);
	/* A message that was to go out after an answer that failed: the user's again. */
	void (*unsent)(void *ctx, const char *text);
	/* Something the status line or the transcript shows changed. */
	void (*changed)(void *ctx);
	/* The run is over: the last word of the output. A sink whose output failed sets
	 * *exit_code to say so. */
	void (*result)(void *ctx, const struct sink_result *r, int *exit_code);
	/* The run is over with this exit code (after every result). */
	void (*finished)(void *ctx, int exit_code);
	/* Frees the sink (when the controller is destroyed). */
	void (*destroy)(void *ctx);
};

struct sink {
	const struct sink_ops *ops;
	void *ctx;
};

#endif
