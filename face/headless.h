/* The headless output contract of cli.md: ndjson lines or plain text on stdout. Every string
 * handed in is already sanitized and masked. */
#ifndef TETHER_HEADLESS_H
#define TETHER_HEADLESS_H

#include "options.h"
#include "controller.h"
#include <stdio.h>

struct headless {
	FILE *out;
	enum output_format format;
	bool wrote_text;        /* text mode: a blank line goes between messages */
	bool ended;             /* the result was written or a write failed: nothing more */
	int error;              /* errno of the failed write, else 0 */
	void (*on_error)(void *ctx, int err);
	void *ctx;
	char *last_usage;       /* the members of the last usage line */
	struct loop_timer *flush_timer; /* batching (headless_batch): writes what is held */
	char *batch_buf;        /* out's buffer while batching */
};

/* Starts writing format to out. on_error hears of the first failed write (errno; EPIPE when
 * the reader went away); nothing is written after it, nor after the result line. */
void headless_init(struct headless *h, FILE *out, enum output_format format,
		   void (*on_error)(void *ctx, int err), void *ctx);
/* Gathers lines instead of writing each at once: they are written when the loop is next
 * about to wait (a timer due at once, which runs before the loop polls) or when
 * HEADLESS_BATCH_BYTES are held, and the result line at once. For an out that is not a
 * terminal: a reader then never waits on what tether holds, and a dump costs a write per
 * batch instead of one per line. */
void headless_batch(struct headless *h, struct loop *loop);
/* Writes what is held now (before something is said on stderr, at the end). */
void headless_flush(struct headless *h);
/* Stops batching and frees its timer and buffer, after writing what is held. */
void headless_fini(struct headless *h);
/* {"type":"connection",...}; socket when not NULL; code/reason only when code > 0 or reason;
 * after_seq when has_after_seq. */
void headless_connection(struct headless *h, const char *state, const char *socket,
			 int attempt, int code,
			 const char *reason, bool has_after_seq, int64_t after_seq,
			 double retry_in_s);
/* {"type":"sync","from_seq":…,"through_seq":…} with the fields as received. */
void headless_sync(struct headless *h, bool has_from, int64_t from_seq, bool has_through,
		   int64_t through_seq);
/* {"type":"durable","seq":N,"event":EVENT_JSON} (event_json already masked, compact). */
void headless_durable(struct headless *h, int64_t seq, const char *event_json, size_t len);
/* {"type":"transient","event":EVENT_JSON}. */
void headless_transient(struct headless *h, const char *event_json, size_t len);
/* {"type":"stream","item_id":…,"attempt":…,"state":…} plus kind/content on delta and reason on
 * aborted. */
void headless_stream(struct headless *h, const char *item_id, int attempt, const char *state,
		     const char *kind, const char *content, size_t content_len, const char *reason);
/* {"type":"status","execution_status":…}. */
void headless_status(struct headless *h, const char *execution_status);
/* {"type":"confirmation","actions":[{"tool_call_id","tool","summary","risk"}…]}; text mode:
 * "needs confirmation: <tool> <summary> [<risk>]" per action. */
void headless_confirmation(struct headless *h, const struct sink_action *actions, size_t n);
/* {"type":"confirmation_answer","answer":"accept"|"reject","tool_call_ids":[…]}; text mode:
 * "accepted: …" or "rejected: …" with the ids answered. */
void headless_answered(struct headless *h, bool accept, const char *const *ids, size_t n);
/* {"type":"usage",…usage_put_json's members} when they differ from the last usage line (a
 * snapshot repeats the stats); nothing in text mode. */
void headless_usage(struct headless *h, const struct usage_stats *u);
/* {"type":"error","code":…,"detail":…}; text mode: a line on stderr. */
void headless_error(struct headless *h, const char *code, const char *detail);
/* {"type":"result","exit_code":…,"cursor":…,"durable":…,"reconnects":…} — always last: every
 * call after it writes nothing. */
void headless_result(struct headless *h, int exit_code, bool has_cursor, int64_t cursor,
		     size_t durable_count, size_t stream_count, int reconnects);
/* Text mode: one durable message (user messages quoted with "> "). */
void headless_text_message(struct headless *h, bool from_user, const char *text, size_t len);
/* Text mode: one line (a tool summary or a conversation error). */
void headless_text_line(struct headless *h, const char *line);

/* The headless writer as a sink of controller c: format on out, strings cleaned with masks;
 * lines batched on loop when out is not a terminal (headless_batch); a failed write ends
 * the run through controller_fail. quiet: no diagnostics on stderr but
 * fatal ones. */
struct sink headless_sink_create(FILE *out, enum output_format format, bool quiet,
				 const struct mask_set *masks, struct controller *c,
				 struct loop *loop);

#endif
