#include "controller_int.h"
#include "clean.h"
#include "exit_code.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Open streams at most: an agent streams one or two items at a time, so more is a server
 * that never ends them; beyond this the oldest is discarded (with its terminal line) and
 * memory, stall checks and stalled lines stay bounded. */
enum { STREAMS_OPEN_MAX = 64 };

void ctl_changed(struct controller *c)
{
	for (size_t i = 0; i < c->nsinks; i++)
		if (c->sinks[i].ops->changed)
			c->sinks[i].ops->changed(c->sinks[i].ctx);
}

void ctl_notice(struct controller *c, const char *line)
{
	if (c->policy.quiet)
		return;
	ctl_fatal_notice(c, line);
}

void ctl_fatal_notice(struct controller *c, const char *line)
{
	struct buf clean;
	buf_init(&clean);
	controller_clean(c, line, strlen(line), &clean);
	CTL_SINKS(c, notice, buf_cstr(&clean));
	buf_fini(&clean);
}

void controller_clean(struct controller *c, const char *text, size_t len, struct buf *out)
{
	/* Called for every string of every event: the sanitized copy reuses one buffer. */
	clean_text(c->masks, text, len, &c->clean_scratch, out);
}

char *ctl_cleaned(struct controller *c, const char *text)
{
	if (!text)
		return NULL;
	struct buf b;
	buf_init(&b);
	controller_clean(c, text, strlen(text), &b);
	return buf_steal(&b);
}

/* ------------------------------------------------------------ streams */

static void bound_open_streams(struct controller *c);

/* The stream's item_id as shown: kept cleaned once per stream (store: when it has none). */
static const char *stream_shown_id(struct controller *c, struct item *slot, struct buf *store)
{
	const struct ctl_stream *cs = transcript_slot_data(slot);
	if (cs)
		return cs->shown_id;
	controller_clean(c, transcript_slot_id(slot), strlen(transcript_slot_id(slot)), store);
	return buf_cstr(store);
}

/* A stream change with no content (started, retired, stalled, discarded). */
static void stream_told(struct controller *c, struct item *slot, enum sink_stream_state state)
{
	struct buf store;
	buf_init(&store);
	struct sink_stream s = {
		.state = state,
		.item_id = stream_shown_id(c, slot, &store),
		.attempt = transcript_slot_attempt(slot),
	};
	CTL_SINKS(c, stream, &s);
	buf_fini(&store);
}

/* The stream opened or a higher attempt superseded it: its clean starts over. */
static void stream_begin(struct controller *c, struct item *slot, enum apply_result r)
{
	struct ctl_stream *cs = transcript_slot_data(slot);
	if (!cs) {
		cs = xcalloc(1, sizeof *cs);
		struct buf shown;
		buf_init(&shown);
		stream_shown_id(c, slot, &shown);
		cs->shown_id = buf_steal(&shown);
		for (int k = 0; k < 2; k++)
			clean_stream_init(&cs->clean[k], c->masks);
		transcript_slot_set_data(slot, cs);
	} else {
		for (int k = 0; k < 2; k++)
			clean_stream_reset(&cs->clean[k]);
	}
	if (r == APPLY_OPENED)
		c->stream_count++;
	bound_open_streams(c);
	stream_told(c, slot, SINK_STREAM_STARTED);
}

/* What it held is dropped, never flushed: the durable event carries the authoritative text. */
static void stream_data_free(struct ctl_stream *cs)
{
	if (!cs)
		return;
	for (int k = 0; k < 2; k++)
		clean_stream_fini(&cs->clean[k]);
	free(cs->shown_id);
	free(cs);
}

/* The stream leaves the controller (the transcript may keep it). */
static void stream_forget(struct item *slot)
{
	stream_data_free(transcript_slot_data(slot));
	transcript_slot_set_data(slot, NULL);
}

/* Every open stream gets its discarded line, newest first. */
static void streams_told_discarded(struct controller *c)
{
	for (size_t i = transcript_open_streams(c->transcript); i-- > 0;)
		stream_told(c, transcript_stream_at(c->transcript, i), SINK_STREAM_DISCARDED);
}

/* Drops every open stream (a reconnect), each with its discarded line unless the run ended
 * (which told them already). */
static void streams_discard(struct controller *c)
{
	if (!c->finished)
		streams_told_discarded(c);
	for (size_t i = 0; i < transcript_open_streams(c->transcript); i++)
		stream_forget(transcript_stream_at(c->transcript, i));
	transcript_discard_streams(c->transcript);
}

void ctl_finish(struct controller *c, int exit_code)
{
	if (c->finished)
		return;
	c->finished = true;
	/* A script must know what --send did not deliver (the TUI's input still shows it). */
	size_t unsent = outbox_unsent(c->outbox, NULL, 0);
	if (c->policy.say_unsent && unsent) {
		struct buf m;
		buf_init(&m);
		buf_printf(&m, "--send: %zu message%s not sent%s", unsent, unsent == 1 ? " was" : "s were",
			   c->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION
				   ? " (actions wait for confirmation, and a message would allow them)"
				   : "");
		ctl_fatal_notice(c, buf_cstr(&m));
		buf_fini(&m);
	}
	/* A close frame, not an abandoned socket: loop_run waits a bounded time for it. */
	session_stop(c->session);
	/* Every started stream ends in exactly one terminal line, also when the run ends first;
	 * the streams stay as they are (a sink told of them may still hold their strings). */
	streams_told_discarded(c);
	struct sink_result r = {
		.has_cursor = session_has_cursor(c->session),
		.cursor = session_cursor(c->session),
		.durable_count = c->durable_count,
		.stream_count = c->stream_count,
		.reconnects = c->reconnects,
	};
	CTL_SINKS(c, result, &r, &exit_code);
	CTL_SINKS(c, finished, exit_code);
}

/* Keeps at most STREAMS_OPEN_MAX streams open: the oldest go, each with its discarded line. */
static void bound_open_streams(struct controller *c)
{
	while (transcript_open_streams(c->transcript) > STREAMS_OPEN_MAX) {
		struct item *oldest = transcript_stream_at(c->transcript, 0);
		stream_told(c, oldest, SINK_STREAM_DISCARDED);
		stream_forget(oldest);
		transcript_stream_abort(c->transcript, transcript_slot_id(oldest), 0, NULL);
		if (!c->warned_streams) {
			c->warned_streams = true;
			struct buf line;
			buf_init(&line);
			buf_printf(&line, "the server keeps more than %d streams open: the oldest are discarded",
				   STREAMS_OPEN_MAX);
			ctl_notice(c, buf_cstr(&line));
			buf_fini(&line);
		}
	}
}

/* Checks a few times per stall limit, at most once a second. */
static int64_t stall_check_period(const struct controller *c)
{
	int64_t quarter = (int64_t)(c->o->stream_stall_s * 1e6 / 4);
	return quarter < 1000000 ? (quarter > 10000 ? quarter : 10000) : 1000000;
}

static void stream_stalled(void *ctx, struct item *slot)
{
	struct controller *c = ctx;
	stream_told(c, slot, SINK_STREAM_STALLED);
	ctl_changed(c);
}

/* Marks streams without a delta for stream_stall seconds as stalled; re-arms while any is
 * armed. While a tool runs, silence is work, not a stall. */
void ctl_check_stalls(struct controller *c, int64_t now_us)
{
	if (c->finished)
		return; /* every stream got its last line */
	bool any_armed = transcript_streams_check_stalls(
		c->transcript, now_us, (int64_t)(c->o->stream_stall_s * 1e6), c->running_tools != 0,
		stream_stalled, c);
	if (any_armed && !c->finished)
		loop_timer_schedule(c->stall_timer, stall_check_period(c));
}

static void stall_timer_fired(void *arg)
{
	ctl_check_stalls(arg, clock_now_us());
}

/* ------------------------------------------------------------ status and --until */

bool ctl_status_is(const char *s, const char *v)
{
	return s && !strcmp(s, v);
}

/* cli.md: idle, finished and paused end a run (exit 0), error and stuck end it badly (6). */
static bool status_ended_run(enum run_status s)
{
	return s == RUN_STATUS_IDLE || s == RUN_STATUS_FINISHED || s == RUN_STATUS_PAUSED ||
	       s == RUN_STATUS_ERROR || s == RUN_STATUS_STUCK;
}

/* cli.md: the current status is the last one received, else idle. */
static enum run_status current_status(const struct controller *c)
{
	return c->run_status == RUN_STATUS_ABSENT ? RUN_STATUS_IDLE : c->run_status;
}

bool ctl_run_in_progress(const struct controller *c)
{
	return !status_ended_run(current_status(c));
}

/* Whether status s ends the run under --until idle or finished. */
static bool until_reached(const struct controller *c, enum run_status s)
{
	if (s == RUN_STATUS_ERROR || s == RUN_STATUS_STUCK)
		return true;
	if (c->policy.until == UNTIL_FINISHED)
		return s == RUN_STATUS_FINISHED;
	return status_ended_run(s);
}

static bool all_sent(const struct controller *c)
{
	return outbox_unsent(c->outbox, NULL, 0) == 0 && !c->stdin_open;
}

/* Every message given to the outbox is written (stdin may still bring more). */
static bool went_out(const struct controller *c)
{
	return outbox_unsent(c->outbox, NULL, 0) == 0;
}

void ctl_until_check(struct controller *c)
{
	if (c->finished || !c->caught_up_once || c->policy.until == UNTIL_NEVER ||
	    c->policy.until == UNTIL_SYNCED)
		return;
	enum run_status s = current_status(c);
	if (c->sent_anything) {
		if (!all_sent(c))
			return;
		/* A run that came to its end ends tether only once it answered the last message
		 * (cli.md); a run stopped (paused, error, stuck) ends it when it came after the
		 * last message went out. */
		if (s == RUN_STATUS_IDLE || s == RUN_STATUS_FINISHED ? !ctl_echo_answered(c, s)
								     : !c->busy_since_send)
			return;
	} else if (c->stdin_open) {
		return; /* --send -: lines may still come */
	}
	if (until_reached(c, s))
		ctl_finish(c, s == RUN_STATUS_ERROR || s == RUN_STATUS_STUCK ? EXIT_RUN_FAILED : EXIT_OK);
}

/* A status as it arrives. Statuses from history and the connect snapshot decide nothing
 * here: catch-up looks at the current one. */
static void check_until(struct controller *c, enum run_status status, bool live)
{
	if (!live)
		return;
	/* A run seen while the last message is still on its way may end before the server reads
	 * it: that run's end is not this message's. */
	if (c->sent_anything && !status_ended_run(status) && went_out(c))
		c->busy_since_send = true;
	if (!status_ended_run(status))
		ctl_echo_run_seen(c);
	ctl_until_check(c);
}

/* The policy's confirmations (headless --on-confirm): once per waiting period, the actions
 * that wait go to the sinks, then the run exits 7, answers through REST, or keeps waiting. */
static void check_confirmation(struct controller *c)
{
	if (!c->policy.handle_confirmations || c->finished)
		return;
	if (c->run_status != RUN_STATUS_WAITING_FOR_CONFIRMATION) {
		c->confirm_handled = false;
		return;
	}
	if (!c->caught_up_once || c->confirm_handled)
		return;
	c->confirm_handled = true;
	struct item_info infos[CTL_ACTIONS_MAX];
	struct sink_action actions[CTL_ACTIONS_MAX];
	size_t n = transcript_pending_infos(c->transcript, infos, CTL_ACTIONS_MAX);
	if (n > CTL_ACTIONS_MAX)
		n = CTL_ACTIONS_MAX;
	/* The model keeps tool_call_ids as received (they match results): cleaned for output. */
	char *ids[CTL_ACTIONS_MAX];
	for (size_t i = 0; i < n; i++)
		ids[i] = ctl_cleaned(c, infos[i].tool_call_id);
	for (size_t i = 0; i < n; i++)
		actions[i] = (struct sink_action){
			.tool_call_id = ids[i],
			.tool = infos[i].title ? infos[i].title : "tool",
			.summary = infos[i].summary ? infos[i].summary : "",
			.whole = infos[i].full_action ? infos[i].full_action : "",
			.risk = infos[i].risk >= RISK_ABSENT && infos[i].risk <= RISK_HIGH
					? (enum security_risk)infos[i].risk : RISK_UNKNOWN,
		};
	CTL_SINKS(c, confirmation, actions, n);
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	if (c->policy.until == UNTIL_SYNCED)
		return; /* a transcript dump: exits at catch-up as always */
	switch (c->policy.on_confirm) {
	case ON_CONFIRM_EXIT:
		if (c->policy.until != UNTIL_NEVER)
			ctl_finish(c, EXIT_CONFIRM);
		break;
	case ON_CONFIRM_ACCEPT:
	case ON_CONFIRM_REJECT:
		ctl_answer_confirmation(c, c->policy.on_confirm == ON_CONFIRM_ACCEPT);
		break;
	case ON_CONFIRM_WAIT:
		break;
	}
}

/* Messages are held back while actions wait for confirmation (a message would allow them:
 * see modal.c) and while a connection replays, when the status is not known yet — headless
 * --send too: it still goes out on the first connection that reaches sync (cli.md), once its
 * catch-up has shown that no action waits, or once --on-confirm answered. */
static void gate_outbox(struct controller *c)
{
	bool replaying = c->connection == SESSION_SYNCED && !c->caught_up;
	outbox_hold(c->outbox, replaying || c->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION);
}

static void set_execution_status(struct controller *c, const struct event *e, bool live)
{
	const char *status = e->execution_status;
	if (!status)
		return;
	/* The server's value is shown (status line, ndjson) only sanitized and masked; the
	 * decisions below read the value as received. */
	struct buf shown;
	buf_init(&shown);
	controller_clean(c, status, strlen(status), &shown);
	if (!ctl_status_is(c->execution_status, buf_cstr(&shown))) {
		free(c->execution_status);
		c->execution_status = buf_steal(&shown);
		if (e->run_status != RUN_STATUS_RUNNING)
			c->running_since_us = 0;
		else if (c->run_status != RUN_STATUS_RUNNING)
			c->running_since_us = clock_now_us();
		c->run_status = e->run_status;
		if (e->run_status == RUN_STATUS_RUNNING)
			c->interrupt_asked = false; /* a new run */
		transcript_set_awaiting_confirmation(c->transcript,
						     e->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION);
		gate_outbox(c);
		bool ended = status_ended_run(e->run_status);
		if (ended)
			c->running_tools = 0;
		CTL_SINKS(c, status, c->execution_status, ended);
		/* After the sinks: the cards still waiting are those the run ended without. */
		if (ended)
			transcript_mark_run_ended(c->transcript);
		ctl_changed(c);
		if (live || c->caught_up)
			check_confirmation(c);
	}
	buf_fini(&shown);
	check_until(c, e->run_status, live);
}

/* The agent's model and the confirmation policy as the server's state says them (a switch of
 * profile publishes the new agent; a snapshot holds both). */
static void set_agent(struct controller *c, const struct event *e)
{
	if (e->agent_model) {
		free(c->model);
		c->model = ctl_cleaned(c, e->agent_model);
		ctl_changed(c);
	}
	if (e->has_policy) {
		c->policy_known = true;
		c->confirmation = e->policy;
	}
}

/* Stats are snapshots (per usage id, the totals so far): the latest replaces what was. Stats
 * without a usage id (a snapshot before any LLM call) are no usage. */
static void set_usage(struct controller *c, const struct event *e)
{
	if (!e->stats || (!e->stats->count && !c->has_usage))
		return;
	usage_stats_copy(&c->usage, e->stats);
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < c->usage.count; i++) {
		char **s[] = { &c->usage.entries[i].usage_id, &c->usage.entries[i].model };
		for (size_t k = 0; k < 2; k++) {
			if (!*s[k])
				continue;
			buf_clear(&b);
			controller_clean(c, *s[k], strlen(*s[k]), &b);
			free(*s[k]);
			*s[k] = xstrdup(buf_cstr(&b));
		}
	}
	buf_fini(&b);
	c->has_usage = c->usage.count > 0;
	CTL_SINKS(c, usage, &c->usage);
	ctl_changed(c);
}

static void caught_up(struct controller *c)
{
	if (c->caught_up)
		return;
	c->caught_up = true;
	loop_timer_cancel(c->catchup_timer);
	gate_outbox(c);
	ctl_changed(c);
	if (c->finished)
		return;
	c->caught_up_once = true;
	check_confirmation(c);
	if (c->policy.until == UNTIL_SYNCED)
		ctl_finish(c, EXIT_OK);
	else
		ctl_until_check(c);
}

/* cli.md: without a snapshot, catch-up ends 1 s after the last replayed durable (the server
 * may send none, and its last event may be unreadable, so no seq reaches through_seq). */
static void catchup_timer_fired(void *arg)
{
	struct controller *c = arg;

	if (!c->finished && c->connection == SESSION_SYNCED)
		caught_up(c);
}

static void catchup_rearm(struct controller *c)
{
	if (!c->caught_up)
		loop_timer_schedule(c->catchup_timer, 1000000);
}

/* ------------------------------------------------------------ frames */

/* A run that writes the whole history through (headless, cli.md) does not hold what was
 * written and settled. A short tail stays, and every card still awaiting its result (never trimmed), so
 * a result still pairs with its card and a confirmation still finds its actions. */
enum { CTL_HEADLESS_TAIL = 32 };

static void forget_written(struct controller *c)
{
	/* Once what could go has doubled: however many cards wait, each event costs O(1). */
	size_t waiting = transcript_pending_tools(c->transcript, NULL, 0);
	if (c->policy.trim_written &&
	    transcript_count(c->transcript) > 2 * (CTL_HEADLESS_TAIL + waiting))
		transcript_trim(c->transcript, 1, 0, 0, CTL_HEADLESS_TAIL);
}

/* The event into the model; an open stream it retires is told retired first. */
static void apply_event(struct controller *c, const struct event *e, int64_t seq)
{
	forget_written(c); /* what came before was written */
	struct item_spec spec;
	struct buf store;
	buf_init(&store);
	if (ctl_event_to_spec(c, e, seq, &spec, &store)) {
		/* Taken before the model takes the slot over: the retired line names its attempt. */
		struct item *slot = transcript_stream_find(c->transcript, e->id);
		int attempt = slot ? transcript_slot_attempt(slot) : 1;
		struct ctl_stream *cs = slot ? transcript_slot_data(slot) : NULL;
		enum apply_result r = transcript_add_event(c->transcript, &spec);
		if (r == APPLY_RETIRED && e->id) {
			struct buf shown;
			buf_init(&shown);
			if (!cs)
				controller_clean(c, e->id, strlen(e->id), &shown);
			struct sink_stream st = {
				.state = SINK_STREAM_RETIRED,
				.item_id = cs ? cs->shown_id : buf_cstr(&shown),
				.attempt = attempt,
			};
			CTL_SINKS(c, stream, &st);
			buf_fini(&shown);
		}
		if (slot && transcript_stream_find(c->transcript, e->id) != slot)
			stream_data_free(cs); /* the slot is an event now */
		if (r != APPLY_DUPLICATE) {
			/* A card that came with its result (ACP) never ran here; one that a later
			 * emission ended stops running. */
			bool ends = spec.kind == ITEM_TOOL_RESULT ||
				    (spec.kind == ITEM_TOOL && r == APPLY_ATTACHED && spec.has_result);
			if (spec.kind == ITEM_TOOL && r == APPLY_ADDED && !spec.has_result)
				c->running_tools++;
			else if (ends && c->running_tools)
				c->running_tools--;
		}
		struct sink_item it = {.event = e, .spec = &spec, .applied = r, .seq = seq};
		CTL_SINKS(c, item, &it);
		ctl_changed(c);
	} else {
		/* Shown as nothing, but loaded: not a gap of history to fetch. */
		if (c->policy.page_history)
			transcript_note_seq(c->transcript, seq);
		/* and a place in the tree: an LLM log can be HEAD, the parent of what follows */
		transcript_tree_note(c->transcript, spec.id, seq, spec.parent_id,
				     spec.state_update);
	}
	buf_fini(&store);
}

static void on_durable(struct controller *c, const struct frame *f)
{
	/* Past through_seq the replay is over (no snapshot came): this one is live. */
	if (!c->caught_up && (!c->has_through_seq || f->seq > c->through_seq))
		caught_up(c);
	if (c->finished)
		return; /* the run ended at catch-up: this one is after it */
	c->durable_count++;
	CTL_SINKS(c, event, f);
	/* What a reconnect replays happened since the last connection: news, not history. */
	bool live = c->caught_up || c->caught_up_once;
	apply_event(c, &f->event, f->seq);
	if (f->event.kind == EVENT_STATE_UPDATE) {
		set_execution_status(c, &f->event, live);
		set_usage(c, &f->event);
		set_agent(c, &f->event);
	}
	ctl_echo_seen(c, &f->event, live);
	catchup_rearm(c);
}

static void on_transient(struct controller *c, const struct frame *f)
{
	CTL_SINKS(c, event, f);
	/* The first transient after sync is the snapshot that ends replay; it never ends a run. */
	bool live = c->caught_up;
	/* The snapshot's status is the current one when catch-up looks at it. */
	if (f->event.kind == EVENT_STATE_UPDATE) {
		set_execution_status(c, &f->event, live);
		set_usage(c, &f->event);
		set_agent(c, &f->event);
		/* The snapshot says where the server's HEAD is (a navigate sends nothing). */
		transcript_set_head(c->transcript, f->event.leaf_event_id, f->event.head_is_empty,
				    live ? HEAD_SNAPSHOT : HEAD_CONNECTED);
	}
	caught_up(c);
	if (f->event.kind != EVENT_STATE_UPDATE)
		apply_event(c, &f->event, -1);
}

static void on_started(struct controller *c, const struct frame *f)
{
	enum apply_result r = transcript_stream_start(c->transcript, f->item_id, f->attempt,
						      f->has_anchor_seq, f->anchor_seq);
	if (r != APPLY_OPENED && r != APPLY_SUPERSEDED)
		return;
	stream_begin(c, transcript_stream_find(c->transcript, f->item_id), r);
	ctl_changed(c);
}

/* The delta's text through its stream's clean, into the controller's scratch (the hot path
 * allocates nothing). */
static const struct buf *delta_cleaned(struct controller *c, struct item *slot,
				       const struct frame *f)
{
	struct ctl_stream *cs = transcript_slot_data(slot);
	buf_clear(&c->delta_out);
	clean_stream_feed(&cs->clean[f->delta_kind == DELTA_REASONING], f->content, f->content_len,
			  &c->delta_san, &c->delta_out);
	return &c->delta_out;
}

static void delta_told(struct controller *c, struct item *slot, const struct frame *f,
		       const struct buf *text, int64_t now_us)
{
	const struct ctl_stream *cs = transcript_slot_data(slot);
	struct sink_stream s = {
		.state = SINK_STREAM_DELTA, .item_id = cs->shown_id, .attempt = f->attempt,
		.reasoning = f->delta_kind == DELTA_REASONING,
		.content = text->data ? text->data : "", .content_len = text->len,
		.frame = f, .at_us = now_us,
	};
	CTL_SINKS(c, stream, &s);
}

/* The watchdog runs while streams may stall. */
static void stall_watch(struct controller *c)
{
	if (!loop_timer_pending(c->stall_timer))
		loop_timer_schedule(c->stall_timer, stall_check_period(c));
}

static void on_delta(struct controller *c, const struct frame *f)
{
	struct item *slot;
	enum apply_result r = transcript_stream_admit(c->transcript, f->item_id, f->attempt, &slot);
	if (!slot)
		return; /* a stale attempt, or retired */
	if (r != APPLY_APPENDED)
		stream_begin(c, slot, r);
	const struct buf *text = delta_cleaned(c, slot, f);
	int64_t now = clock_now_us();
	transcript_slot_append(c->transcript, slot, f->order, f->delta_kind == DELTA_REASONING,
			       text->data, text->len, now);
	delta_told(c, slot, f, text, loop_read_since(c->loop, now));
	stall_watch(c);
	ctl_changed(c);
}

static void on_aborted(struct controller *c, const struct frame *f)
{
	struct item *slot = transcript_stream_find(c->transcript, f->item_id);
	struct ctl_stream *cs = slot ? transcript_slot_data(slot) : NULL;
	struct buf shown;
	buf_init(&shown);
	if (slot && !cs)
		controller_clean(c, f->item_id, strlen(f->item_id), &shown);
	/* An answer the user cut short stays, marked (issue 15): upstream's interrupt cancels
	 * the run's task, whose stream then ends in item_aborted "cancelled". An abort nobody
	 * here asked for (a failure, another client) still drops the provisional text. */
	enum apply_result r =
		c->interrupt_asked
			? transcript_stream_interrupted(c->transcript, f->item_id)
			: transcript_stream_abort(c->transcript, f->item_id, f->attempt, f->reason);
	if (r == APPLY_ABORTED) {
		struct buf reason;
		buf_init(&reason);
		if (f->reason)
			controller_clean(c, f->reason, strlen(f->reason), &reason);
		struct sink_stream s = {
			.state = SINK_STREAM_ABORTED, .item_id = cs ? cs->shown_id : buf_cstr(&shown),
			.attempt = f->attempt, .reason = buf_cstr(&reason),
		};
		CTL_SINKS(c, stream, &s);
		buf_fini(&reason);
		ctl_changed(c);
	}
	stream_data_free(cs);
	buf_fini(&shown);
}

void ctl_add_error_item(struct controller *c, const char *code, const char *detail)
{
	struct item_spec spec = {.kind = ITEM_ERROR, .seq = -1};
	struct buf a, b;
	buf_init(&a);
	buf_init(&b);
	controller_clean(c, code, strlen(code), &a);
	if (detail)
		controller_clean(c, detail, strlen(detail), &b);
	spec.title = buf_cstr(&a);
	spec.text = buf_cstr(&b);
	spec.text_len = b.len;
	CTL_SINKS(c, error, spec.title, spec.text);
	buf_fini(&a);
	buf_fini(&b);
	ctl_changed(c);
}

static void session_frame(void *ctx, const struct frame *f)
{
	struct controller *c = ctx;
	if (c->finished)
		return;
	switch (f->type) {
	case FRAME_SYNC:
		c->has_through_seq = f->has_through_seq;
		c->through_seq = f->through_seq;
		c->caught_up = false;
		gate_outbox(c);
		CTL_SINKS(c, sync, f);
		/* cli.md: catch-up ends with the connect snapshot, else 1 s after the last replayed
		 * durable (or after sync when nothing is replayed). */
		catchup_rearm(c);
		ctl_changed(c);
		break;
	case FRAME_DURABLE:
		on_durable(c, f);
		break;
	case FRAME_TRANSIENT:
		on_transient(c, f);
		break;
	case FRAME_ITEM_STARTED:
		on_started(c, f);
		break;
	case FRAME_DELTA:
		on_delta(c, f);
		break;
	case FRAME_ITEM_ABORTED:
		on_aborted(c, f);
		break;
	case FRAME_ERROR:
		ctl_add_error_item(c, f->code ? f->code : "error", f->detail);
		break;
	case FRAME_UNKNOWN:
		break;
	}
}

static void session_bad_frame(void *ctx, const char *code, const char *detail, int64_t seq)
{
	struct controller *c = ctx;
	struct buf d;
	buf_init(&d);
	if (seq >= 0)
		buf_printf(&d, "event seq %lld could not be received and was skipped (%s)",
			   (long long)seq, detail ? detail : code);
	else
		buf_puts(&d, detail ? detail : "");
	ctl_add_error_item(c, code, buf_cstr(&d));
	buf_fini(&d);
}

/* A frame as received, for the recorder; deltas come to it as stream changes instead. */
static void session_raw(void *ctx, const char *json, size_t len, const struct frame *f)
{
	struct controller *c = ctx;
	if (c->finished || (f && f->type == FRAME_DELTA))
		return;
	CTL_SINKS(c, raw, json, len, f);
}

static void session_discard(void *ctx)
{
	struct controller *c = ctx;
	streams_discard(c);
	ctl_changed(c);
}

struct diag_about ctl_about(const struct controller *c)
{
	return (struct diag_about){
		.server = c->shown_server ? c->shown_server : "",
		.conversation_id = c->shown_conversation_id,
		.has_key = c->api_key != NULL,
	};
}

/* The session will not connect again: say why once, in words, and end the run. */
static void session_ended(struct controller *c, const struct session_status *st)
{
	struct diag_about about = ctl_about(c);
	struct buf line, why;
	/* A 404 on the socket: REST tells a server without the socket from a wrong id. */
	if (st->end == SESSION_END_NOT_FOUND && st->http_status == 404 && c->o->conversation_id) {
		ctl_check_socket(c);
		return;
	}
	buf_init(&line);
	buf_init(&why);
	if (st->reason)
		controller_clean(c, st->reason, strlen(st->reason), &why);
	switch (st->end) {
	case SESSION_END_AUTH:
		diag_auth(&line, &about);
		break;
	case SESSION_END_NOT_FOUND:
		diag_not_found(&line, &about);
		break;
	case SESSION_END_GAVE_UP:
		if (c->ever_open)
			diag_gave_up(&line, &about, st->attempt, c->last_failure);
		else
			diag_gave_up_connecting(&line, &about, st->attempt, c->last_failure);
		break;
	default:
		buf_printf(&line, "the connection to %s ended: %s", about.server,
			   why.len ? buf_cstr(&why) : "no reason given");
		break;
	}
	controller_fail(c, buf_cstr(&line), exit_code_for_end(st->end));
	buf_fini(&line);
	buf_fini(&why);
}

/* A server not reached yet (refused, no such host, TLS) is said at once, in words, with the
 * next step — once: cli.md counts the first connect as an attempt, so tether keeps trying
 * (a server still starting is met when it listens) and gives up with exit 5. */
static void unreachable_said(struct controller *c, const struct session_status *st)
{
	if (c->unreachable_said || (st->cause != NET_CAUSE_REFUSED && st->cause != NET_CAUSE_DNS &&
				    st->cause != NET_CAUSE_TLS))
		return;
	c->unreachable_said = true;
	struct diag_about about = ctl_about(c);
	struct buf line, why;
	buf_init(&line);
	buf_init(&why);
	if (st->reason)
		controller_clean(c, st->reason, strlen(st->reason), &why);
	diag_unreachable(&line, &about, st->cause, buf_cstr(&why));
	ctl_notice(c, buf_cstr(&line));
	buf_fini(&why);
	buf_fini(&line);
}

static void session_status_changed(void *ctx, const struct session_status *st)
{
	struct controller *c = ctx;
	enum session_state before = c->connection;
	c->connection = st->state;
	c->socket = st->protocol;
	c->attempt = st->attempt;
	if (st->state == SESSION_OPEN)
		c->ever_open = true;
	/* The same attempt moving to the events socket (a refused session upgrade) is none. */
	if (st->state == SESSION_CONNECTING && c->connection_number++ > 0 &&
	    before != SESSION_CONNECTING)
		c->reconnects++;
	if (st->state == SESSION_CLOSED || st->state == SESSION_FAILED)
		c->last_close_code = st->close_code;
	if (st->state == SESSION_CLOSED && st->end != SESSION_END_STOPPED) {
		/* the status line says why it is reconnecting */
		struct buf drop;
		buf_init(&drop);
		if (st->close_code)
			buf_printf(&drop, "close %d%s", st->close_code, st->reason ? ": " : "");
		if (st->reason)
			controller_clean(c, st->reason, strlen(st->reason), &drop);
		free(c->last_drop);
		c->last_drop = drop.len ? buf_steal(&drop) : NULL;
		buf_fini(&drop);
	}
	if (st->state == SESSION_RECONNECTING)
		c->retry_at_us = clock_now_us() + st->retry_in_us;
	if (st->state == SESSION_CLOSED || st->state == SESSION_SYNCED) {
		/* the TUI says why it keeps reconnecting */
		const char *why = session_last_failure(c->session);
		free(c->last_failure);
		c->last_failure = NULL;
		if (why) {
			struct buf clean;
			buf_init(&clean);
			controller_clean(c, why, strlen(why), &clean);
			c->last_failure = buf_steal(&clean);
		}
	}
	if (st->state == SESSION_CONNECTING)
		c->caught_up = false; /* until this connection's sync and replay */
	gate_outbox(c);
	if (st->state == SESSION_SYNCED) {
		c->synced_once = true;
		outbox_synced(c->outbox);
	}
	/* A fatal close is one state change: its closed line was written at SESSION_CLOSED. */
	bool repeat = st->state == SESSION_FAILED && c->closed_reported;
	c->closed_reported = st->state == SESSION_CLOSED;
	if (!c->finished) {
		struct buf reason;
		buf_init(&reason);
		if (st->reason)
			controller_clean(c, st->reason, strlen(st->reason), &reason);
		CTL_SINKS(c, connection, st, st->reason ? buf_cstr(&reason) : NULL, repeat);
		buf_fini(&reason);
	}
	if (st->state == SESSION_GAVE_UP || st->state == SESSION_FAILED) {
		session_ended(c, st);
		return;
	}
	if (st->state == SESSION_CLOSED && !c->synced_once)
		unreachable_said(c, st);
	ctl_changed(c);
}

/* ------------------------------------------------------------ lifecycle */

static void outbox_error(void *ctx, const char *line)
{
	ctl_notice(ctx, line);
}

void controller_fail(struct controller *c, const char *line, int exit_code)
{
	if (line)
		ctl_fatal_notice(c, line);
	ctl_finish(c, exit_code);
}

struct controller *controller_create(struct loop *loop, const struct options *o,
				     const struct run_policy *policy, struct mask_set *masks,
				     const char *api_key)
{
	struct controller *c = xcalloc(1, sizeof *c);
	c->loop = loop;
	c->o = o;
	c->masks = masks;
	c->api_key = xstrdup(api_key);
	c->policy = *policy;
	c->window_from = -1;
	c->shown_server = ctl_cleaned(c, o->server);
	c->shown_conversation_id = ctl_cleaned(c, o->conversation_id);
	c->transcript = transcript_create();
	c->stall_timer = loop_timer_create(loop, stall_timer_fired, c);
	c->catchup_timer = loop_timer_create(loop, catchup_timer_fired, c);
	c->connection = SESSION_CONNECTING;
	struct session_config cfg = {
		.server_url = o->server,
		.protocol = (enum net_protocol)o->protocol,
		.conversation_id = o->conversation_id,
		.api_key = api_key,
		.no_history = o->no_history,
		.after_seq = o->after_seq,
		.ping_interval_s = o->ping_interval_s,
		.stall_timeout_s = o->stall_timeout_s,
		.max_retries = o->max_retries >= 0 ? o->max_retries : policy->default_retries,
		.insecure = o->insecure,
	};
	struct session_handlers h;
	ctl_session_handlers(c, &h);
	c->session = session_create(loop, &cfg, &h);
	/* Headless --send goes over the first synced socket only (cli.md); the TUI falls back to
	 * REST so that a message typed while the socket is down still goes out. */
	c->outbox = outbox_create(loop, c->session, policy->rest_fallback, o->server, o->conversation_id, c->api_key,
				  o->insecure, outbox_error, c);
	return c;
}

void ctl_session_handlers(struct controller *c, struct session_handlers *h)
{
	*h = (struct session_handlers){
		.ctx = c,
		.on_status = session_status_changed,
		.on_frame = session_frame,
		.on_bad_frame = session_bad_frame,
		.on_raw = session_raw,
		.on_discard_streams = session_discard,
	};
}

void controller_add_sink(struct controller *c, struct sink sink)
{
	assert(c->nsinks < CTL_SINKS_MAX && "a controller has a few sinks");
	c->sinks[c->nsinks++] = sink;
}

void controller_start(struct controller *c)
{
	for (size_t i = 0; i < c->o->nsends; i++)
		controller_send(c, c->o->sends[i]);
	if (c->o->send_stdin)
		ctl_stdin_start(c);
	if (c->o->conversation_id)
		ctl_fetch_title(c);
	/* Paged history opens on the tail; otherwise, and from an explicit cursor, the replay
	 * starts where asked. */
	if (c->policy.page_history && c->o->conversation_id && !c->o->after_seq_given &&
	    !c->o->no_history &&
	    c->o->history_window > 0 && ctl_count_events(c))
		return;
	session_start(c->session);
}

void controller_quit(struct controller *c, int exit_code)
{
	ctl_finish(c, exit_code);
}

void controller_destroy(struct controller *c)
{
	if (!c)
		return;
	outbox_destroy(c->outbox);
	ctl_rest_detach(c);
	ctl_op_detach(c);
	ctl_branch_detach(c);
	ctl_history_detach(c);
	session_destroy(c->session);
	for (size_t i = 0; i < c->nsinks; i++)
		if (c->sinks[i].ops->destroy)
			c->sinks[i].ops->destroy(c->sinks[i].ctx);
	for (size_t i = 0; i < transcript_open_streams(c->transcript); i++)
		stream_forget(transcript_stream_at(c->transcript, i));
	buf_fini(&c->delta_san);
	buf_fini(&c->clean_scratch);
	buf_fini(&c->delta_out);
	loop_timer_destroy(c->stall_timer);
	loop_timer_destroy(c->catchup_timer);
	free(c->last_failure);
	free(c->last_drop);
	transcript_destroy(c->transcript);
	free(c->title);
	ctl_op_fini(c);
	ctl_echo_fini(c);
	free(c->shown_server);
	free(c->shown_conversation_id);
	free(c->execution_status);
	usage_stats_fini(&c->usage);
	if (c->api_key) {
		volatile char *p = c->api_key;
		while (*p)
			*p++ = 0;
		free(c->api_key);
	}
	free(c);
}

struct transcript *controller_transcript(struct controller *c)
{
	return c->transcript;
}

void controller_status(const struct controller *c, struct controller_status *st)
{
	memset(st, 0, sizeof *st);
	st->server = c->shown_server;
	st->conversation_id = c->shown_conversation_id;
	st->title = c->title;
	st->model = c->model;
	st->policy_known = c->policy_known;
	st->confirmation = c->confirmation;
	st->connection = c->connection;
	st->socket = c->socket;
	st->attempt = c->attempt;
	st->retry_at_us = c->retry_at_us;
	st->last_close_code = c->last_close_code;
	st->last_failure = c->last_failure;
	st->has_cursor = session_has_cursor(c->session);
	st->cursor = session_cursor(c->session);
	st->execution_status = c->execution_status;
	st->run_status = c->run_status;
	st->syncing = !c->caught_up && c->connection == SESSION_SYNCED;
	st->sync_through_seq = c->has_through_seq ? c->through_seq : -1;
	st->stalled_streams = transcript_stalled_streams(c->transcript);
	st->pending_messages = outbox_unsent(c->outbox, st->queued,
					     sizeof st->queued / sizeof *st->queued);
	st->awaiting_confirmation = c->run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION;
	st->caught_up = c->caught_up;
	st->running_since_us = c->running_since_us;
	st->last_drop = c->last_drop;
	st->has_usage = c->has_usage;
	if (c->has_usage)
		usage_summarize(&c->usage, &st->usage);
}

const struct usage_stats *controller_usage(const struct controller *c)
{
	return c->has_usage ? &c->usage : NULL;
}

enum run_status controller_run_status(const struct controller *c)
{
	return c->run_status;
}

bool controller_reconnect_now(struct controller *c)
{
	return session_reconnect_now(c->session);
}
