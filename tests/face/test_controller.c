/* The controller through its sink interface: frames go in as the session hands them over
 * (its callbacks), and a fake sink writes down every change it is told, in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller_int.h"

static const char SECRET[] = "sk-tether-unit-secret-77";

/* The TUI's run, as tui/conv.c fills it. */
static const struct run_policy tui_policy = {
	.until = UNTIL_NEVER, .rest_fallback = true, .page_history = true,
};

/* ------------------------------------------------------------ the fake sink */

struct fake {
	struct buf log;                 /* one line per call, in order */
	size_t changed;
	size_t destroyed;
};

static void logf_(struct fake *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(struct fake *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&k->log, fmt, ap);
	va_end(ap);
	buf_putc(&k->log, '\n');
}

static const char *const states[] = {
	[SINK_STREAM_STARTED] = "started",   [SINK_STREAM_DELTA] = "delta",
	[SINK_STREAM_RETIRED] = "retired",   [SINK_STREAM_ABORTED] = "aborted",
	[SINK_STREAM_STALLED] = "stalled",   [SINK_STREAM_DISCARDED] = "discarded",
};

static void on_stream(void *ctx, const struct sink_stream *s)
{
	if (s->state == SINK_STREAM_DELTA)
		logf_(ctx, "delta %s/%d %s \"%.*s\"", s->item_id, s->attempt,
		      s->reasoning ? "reasoning" : "text", (int)s->content_len, s->content);
	else if (s->state == SINK_STREAM_ABORTED)
		logf_(ctx, "aborted %s/%d %s", s->item_id, s->attempt, s->reason);
	else
		logf_(ctx, "%s %s/%d", states[s->state], s->item_id, s->attempt);
}

static void on_event(void *ctx, const struct frame *f)
{
	logf_(ctx, "event %s", f->type == FRAME_DURABLE ? "durable" : "transient");
}

static void on_item(void *ctx, const struct sink_item *it)
{
	logf_(ctx, "item %s %s", it->event->id ? it->event->id : "-",
	      it->applied == APPLY_RETIRED ? "retired" :
	      it->applied == APPLY_ADDED ? "added" :
	      it->applied == APPLY_DUPLICATE ? "duplicate" : "other");
}

static void on_error(void *ctx, const char *code, const char *detail)
{
	logf_(ctx, "error %s: %s", code, detail);
}

static void on_result(void *ctx, const struct sink_result *r, int *exit_code)
{
	logf_(ctx, "result %d streams=%zu durable=%zu", *exit_code, r->stream_count,
	      r->durable_count);
}

static void on_finished(void *ctx, int exit_code)
{
	logf_(ctx, "finished %d", exit_code);
}

static void on_usage(void *ctx, const struct usage_stats *u)
{
	struct fake *k = ctx;
	buf_puts(&k->log, "usage");
	for (size_t i = 0; i < u->count; i++)
		buf_printf(&k->log, " %s=%s:%.4f:%lld", u->entries[i].usage_id,
			   u->entries[i].model ? u->entries[i].model : "-", u->entries[i].cost,
			   (long long)u->entries[i].per_turn_tokens);
	buf_putc(&k->log, '\n');
}

static void on_changed(void *ctx)
{
	((struct fake *)ctx)->changed++;
}

static void on_destroy(void *ctx)
{
	((struct fake *)ctx)->destroyed++;
}

static const struct sink_ops fake_ops = {
	.stream = on_stream, .event = on_event,       .item = on_item,
	.error = on_error,   .result = on_result,     .finished = on_finished,
	.changed = on_changed, .destroy = on_destroy, .usage = on_usage,
};

/* ------------------------------------------------------------ the bed */

struct bed {
	struct loop *loop;
	struct options o;
	struct mask_set *masks;
	struct controller *c;
	struct session_handlers h;
	struct fake sink;
};

static int bed_setup(void **state)
{
	struct bed *b = xcalloc(1, sizeof *b);
	struct buf e;
	buf_init(&e);
	b->loop = loop_create(NULL, &e);
	assert_non_null(b->loop);
	char *argv[] = {"tether", "--server", "http://127.0.0.1:9", "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91", NULL};
	assert_int_equal(options_parse(4, argv, &b->o, &e), 0);
	b->o.stream_stall_s = 1;
	b->masks = mask_set_create();
	assert_int_equal(mask_set_add(b->masks, SECRET, strlen(SECRET), &e), 0);
	buf_fini(&e);
	b->c = controller_create(b->loop, &b->o, &tui_policy, b->masks, NULL);
	buf_init(&b->sink.log);
	controller_add_sink(b->c, (struct sink){.ops = &fake_ops, .ctx = &b->sink});
	ctl_session_handlers(b->c, &b->h);
	*state = b;
	return 0;
}

/* The bed of a headless run (--until idle, nothing to send). */
static int headless_bed_setup(void **state)
{
	bed_setup(state);
	struct bed *b = *state;
	controller_destroy(b->c);
	b->sink.destroyed = 0;
	/* The headless runner's policy, as app/app.c fills it from the options. */
	const struct run_policy headless_policy = {
		.until = b->o.until, .handle_confirmations = true, .on_confirm = b->o.on_confirm,
		.default_retries = 8, .trim_written = true, .quiet = b->o.quiet, .say_unsent = true,
	};
	b->c = controller_create(b->loop, &b->o, &headless_policy, b->masks, NULL);
	controller_add_sink(b->c, (struct sink){.ops = &fake_ops, .ctx = &b->sink});
	ctl_session_handlers(b->c, &b->h);
	return 0;
}

/* A TUI's run that also trims what it wrote: the controller follows each field of the policy,
 * not which face runs it. */
static int trimming_tui_bed_setup(void **state)
{
	bed_setup(state);
	struct bed *b = *state;
	controller_destroy(b->c);
	b->sink.destroyed = 0;
	struct run_policy policy = tui_policy;
	policy.trim_written = true;
	b->c = controller_create(b->loop, &b->o, &policy, b->masks, NULL);
	controller_add_sink(b->c, (struct sink){.ops = &fake_ops, .ctx = &b->sink});
	ctl_session_handlers(b->c, &b->h);
	return 0;
}

static int bed_teardown(void **state)
{
	struct bed *b = *state;
	controller_destroy(b->c);
	assert_int_equal(b->sink.destroyed, 1);
	buf_fini(&b->sink.log);
	mask_set_destroy(b->masks);
	options_fini(&b->o);
	loop_destroy(b->loop);
	free(b);
	return 0;
}

/* Hands one frame (JSON as on the wire) to the controller the way the session does. */
static void feed(struct bed *b, const char *json)
{
	struct frame f;
	struct codec_error err;
	assert_int_equal(frame_decode(json, strlen(json), &f, &err), 0);
	b->h.on_raw(b->h.ctx, json, strlen(json), &f);
	b->h.on_frame(b->h.ctx, &f);
	frame_fini(&f);
}

static void delta(struct bed *b, const char *id, int attempt, int order, const char *text)
{
	char json[512];
	snprintf(json, sizeof json,
		 "{\"type\":\"delta\",\"item_id\":\"%s\",\"attempt\":%d,\"order\":%d,"
		 "\"kind\":\"text\",\"content\":\"%s\"}", id, attempt, order, text);
	feed(b, json);
}

static void started(struct bed *b, const char *id, int attempt)
{
	char json[256];
	snprintf(json, sizeof json, "{\"type\":\"item_started\",\"item_id\":\"%s\",\"attempt\":%d}",
		 id, attempt);
	feed(b, json);
}

static void agent_durable(struct bed *b, int seq, const char *id, const char *text)
{
	char json[1024];
	snprintf(json, sizeof json,
		 "{\"type\":\"durable\",\"seq\":%d,\"event\":{\"id\":\"%s\",\"timestamp\":"
		 "\"2026-09-20T14:03:11.512345\",\"source\":\"agent\",\"llm_message\":{\"role\":"
		 "\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]},"
		 "\"kind\":\"MessageEvent\"}}", seq, id, text);
	feed(b, json);
}

/* The log so far, then forgotten. */
static char *take_log(struct bed *b)
{
	char *s = xstrdup(buf_cstr(&b->sink.log));
	buf_clear(&b->sink.log);
	return s;
}

#define ASSERT_LOG(b, want)                                                                \
	do {                                                                               \
		char *got_ = take_log(b);                                                  \
		assert_string_equal(got_, want);                                           \
		free(got_);                                                                \
	} while (0)

static struct item_info only_item(struct bed *b)
{
	struct transcript *t = controller_transcript(b->c);
	assert_int_equal(transcript_count(t), 1);
	struct item_info info;
	transcript_item(t, 0, &info);
	return info;
}

/* ------------------------------------------------------------ the cases */

static void delta_opens_a_stream(void **state)
{
	struct bed *b = *state;
	size_t changed = b->sink.changed;
	delta(b, "i1", 1, 0, "hello ");
	delta(b, "i1", 1, 1, "world");
	ASSERT_LOG(b, "started i1/1\n"
		      "delta i1/1 text \"hello \"\n"
		      "delta i1/1 text \"world\"\n");
	assert_true(b->sink.changed >= changed + 2);
	struct item_info info = only_item(b);
	assert_true(info.streaming);
	assert_int_equal(info.attempt, 1);
	assert_string_equal(info.text, "hello world");
}

static void retry_supersedes_and_stale_is_ignored(void **state)
{
	struct bed *b = *state;
	started(b, "i1", 1);
	delta(b, "i1", 1, 0, "first try");
	delta(b, "i1", 2, 0, "second");
	delta(b, "i1", 1, 1, " late");          /* the old attempt: nothing */
	started(b, "i1", 2);                    /* announced twice: nothing */
	ASSERT_LOG(b, "started i1/1\n"
		      "delta i1/1 text \"first try\"\n"
		      "started i1/2\n"
		      "delta i1/2 text \"second\"\n");
	struct item_info info = only_item(b);
	assert_int_equal(info.attempt, 2);
	assert_string_equal(info.text, "second");
	assert_false(info.lossy);
}

static void durable_retires_in_place(void **state)
{
	struct bed *b = *state;
	agent_durable(b, 0, "u0", "question");
	started(b, "i1", 1);
	delta(b, "i1", 1, 0, "abc");
	agent_durable(b, 1, "i1", "answer");
	delta(b, "i1", 1, 1, "def");            /* after its durable: nothing */
	ASSERT_LOG(b, "event durable\n"
		      "item u0 added\n"
		      "started i1/1\n"
		      "delta i1/1 text \"abc\"\n"
		      "event durable\n"
		      "retired i1/1\n"
		      "item i1 retired\n");
	struct transcript *t = controller_transcript(b->c);
	assert_int_equal(transcript_count(t), 2);
	assert_int_equal(transcript_open_streams(t), 0);
	struct item_info info;
	transcript_item(t, 1, &info);
	assert_false(info.streaming);
	assert_int_equal(info.seq, 1);
	assert_string_equal(info.text, "answer");
}

static void abort_drops_the_stream(void **state)
{
	struct bed *b = *state;
	delta(b, "i1", 1, 0, "partial");
	feed(b, "{\"type\":\"item_aborted\",\"item_id\":\"i1\",\"attempt\":1,\"reason\":\"cancelled\"}");
	feed(b, "{\"type\":\"item_aborted\",\"item_id\":\"i1\",\"attempt\":1,\"reason\":\"again\"}");
	delta(b, "i1", 1, 1, "late");
	ASSERT_LOG(b, "started i1/1\n"
		      "delta i1/1 text \"partial\"\n"
		      "aborted i1/1 cancelled\n");
	assert_int_equal(transcript_count(controller_transcript(b->c)), 0);
}

static void stall_said_once_per_stall(void **state)
{
	struct bed *b = *state;
	started(b, "quiet", 1);
	delta(b, "i1", 1, 0, "x");
	buf_clear(&b->sink.log);
	struct controller_status st;
	int64_t now = clock_now_us();
	ctl_check_stalls(b->c, now + 500000);   /* within the limit */
	ASSERT_LOG(b, "");
	ctl_check_stalls(b->c, now + 1500000);
	ctl_check_stalls(b->c, now + 2500000);  /* still the same stall */
	/* A stream with no delta yet is not watched. */
	ASSERT_LOG(b, "stalled i1/1\n");
	controller_status(b->c, &st);
	assert_int_equal(st.stalled_streams, 1);
	delta(b, "i1", 1, 1, "y");              /* a delta ends the stall */
	controller_status(b->c, &st);
	assert_int_equal(st.stalled_streams, 0);
	ctl_check_stalls(b->c, clock_now_us() + 1500000);
	ASSERT_LOG(b, "delta i1/1 text \"y\"\n"
		      "stalled i1/1\n");
}

static void reconnect_discards_every_stream(void **state)
{
	struct bed *b = *state;
	delta(b, "i1", 1, 0, "one");
	started(b, "i2", 3);
	buf_clear(&b->sink.log);
	b->h.on_discard_streams(b->h.ctx);
	ASSERT_LOG(b, "discarded i2/3\n"
		      "discarded i1/1\n");
	assert_int_equal(transcript_open_streams(controller_transcript(b->c)), 0);
	delta(b, "i1", 1, 1, "late");            /* discarded is retired: nothing opens it */
	ASSERT_LOG(b, "");
}

static void status_durable(struct bed *b, int seq, const char *status)
{
	char json[512];
	snprintf(json, sizeof json,
		 "{\"type\":\"durable\",\"seq\":%d,\"event\":{\"id\":\"s%d\",\"source\":"
		 "\"environment\",\"key\":\"execution_status\",\"value\":\"%s\","
		 "\"kind\":\"ConversationStateUpdateEvent\"}}", seq, seq, status);
	feed(b, json);
}

static void connection(struct bed *b, enum session_state state)
{
	struct session_status st = {.state = state, .attempt = 1};
	b->h.on_status(b->h.ctx, &st);
}

/* cli.md --until idle, nothing sent: a running conversation is followed past catch-up; what a
 * reconnect replays happened meanwhile, so its idle ends the run (no snapshot needed). */
static void until_idle_follows_across_a_reconnect(void **state)
{
	struct bed *b = *state;
	connection(b, SESSION_CONNECTING);
	feed(b, "{\"type\":\"sync\",\"from_seq\":-1,\"through_seq\":1}");
	agent_durable(b, 0, "e0", "hi");
	status_durable(b, 1, "running");
	feed(b, "{\"type\":\"transient\",\"event\":{\"id\":\"t1\",\"source\":\"environment\","
		"\"key\":\"execution_status\",\"value\":\"running\","
		"\"kind\":\"ConversationStateUpdateEvent\"}}");
	assert_null(strstr(buf_cstr(&b->sink.log), "finished"));
	connection(b, SESSION_RECONNECTING);
	connection(b, SESSION_CONNECTING);
	feed(b, "{\"type\":\"sync\",\"from_seq\":1,\"through_seq\":3}");
	agent_durable(b, 2, "e2", "done");
	assert_null(strstr(buf_cstr(&b->sink.log), "finished"));
	status_durable(b, 3, "idle");
	assert_non_null(strstr(buf_cstr(&b->sink.log), "result 0 streams=0 durable=4\nfinished 0\n"));
}

static void result_last(void **state)
{
	struct bed *b = *state;
	started(b, "i1", 1);
	delta(b, "i2", 1, 0, "two");
	agent_durable(b, 0, "e0", "hi");
	buf_clear(&b->sink.log);
	controller_quit(b->c, 7);
	controller_quit(b->c, 8);               /* once */
	delta(b, "i2", 1, 1, "after");          /* nothing after the result */
	feed(b, "{\"type\":\"error\",\"code\":\"late\",\"detail\":\"x\"}");
	b->h.on_discard_streams(b->h.ctx);     /* the socket closes: told once already */
	ctl_check_stalls(b->c, clock_now_us() + 60000000);
	ASSERT_LOG(b, "discarded i2/1\n"
		      "discarded i1/1\n"
		      "result 7 streams=2 durable=1\n"
		      "finished 7\n");
}

static void split_secret_never_reaches_a_sink(void **state)
{
	struct bed *b = *state;
	/* The secret in three deltas: each clean holds back what may be a secret's start. */
	delta(b, "i1", 1, 0, "key: sk-tether-");
	delta(b, "i1", 1, 1, "unit-secre");
	delta(b, "i1", 1, 2, "t-77 ok");
	char *log = take_log(b);
	assert_null(strstr(log, "unit-secre"));
	assert_non_null(strstr(log, "ok"));
	free(log);
	struct item_info info = only_item(b);
	assert_null(strstr(info.text, "sk-tether"));
	assert_non_null(strstr(info.text, "key: "));
}

static void errors_go_to_the_sinks_cleaned(void **state)
{
	struct bed *b = *state;
	feed(b, "{\"type\":\"error\",\"code\":\"Bad\\u001b[31m\",\"detail\":\"has sk-tether-unit-secret-77\"}");
	char *log = take_log(b);
	assert_null(strstr(log, SECRET));
	assert_null(strchr(log, 0x1b));
	assert_non_null(strstr(log, "error Bad"));
	free(log);
}

static void stats_frame(struct bed *b, const char *frame, const char *key, const char *value)
{
	char json[2048];
	if (!strcmp(frame, "durable"))
		snprintf(json, sizeof json, "{\"type\":\"durable\",\"seq\":0,\"event\":{\"id\":\"u0\","
			 "\"source\":\"environment\",\"key\":\"%s\",\"value\":%s,"
			 "\"kind\":\"ConversationStateUpdateEvent\"}}", key, value);
	else
		snprintf(json, sizeof json, "{\"type\":\"transient\",\"event\":{\"id\":\"t0\","
			 "\"source\":\"environment\",\"key\":\"%s\",\"value\":%s,"
			 "\"kind\":\"ConversationStateUpdateEvent\"}}", key, value);
	feed(b, json);
}

#define METRICS(model, cost, prompt, per_turn, window)                                      \
	"{\"model_name\":\"" model "\",\"accumulated_cost\":" #cost ",\"accumulated_token_usage\":" \
	"{\"prompt_tokens\":" #prompt ",\"completion_tokens\":100,\"per_turn_token\":" #per_turn  \
	",\"context_window\":" #window "}}"

/* Issue 25: the usage is the latest stats snapshot — a stats update, then a full_state's stats
 * (an LLM added later reports only there) — kept and told to the sinks cleaned; a snapshot
 * without stats leaves it as it was. */
static void usage_follows_stats_and_snapshots(void **state)
{
	struct bed *b = *state;
	assert_null(controller_usage(b->c));
	struct controller_status st;
	controller_status(b->c, &st);
	assert_false(st.has_usage);
	feed(b, "{\"type\":\"sync\",\"from_seq\":-1,\"through_seq\":0}");
	/* A snapshot before any LLM call: stats without a usage id are no usage. */
	stats_frame(b, "transient", "full_state", "{\"execution_status\":\"idle\",\"stats\":"
		    "{\"usage_to_metrics\":{}}}");
	assert_null(controller_usage(b->c));
	assert_null(strstr(buf_cstr(&b->sink.log), "usage"));
	stats_frame(b, "durable", "stats", "{\"usage_to_metrics\":{\"agent\":"
		    METRICS("claude\\u001b[31m-sk-tether-unit-secret-77", 0.25, 5000, 5100, 200000) "}}");
	char *log = take_log(b);
	assert_non_null(strstr(log, "usage agent=claude-<secret-hidden>:0.2500:5100\n"));
	free(log);
	controller_status(b->c, &st);
	assert_true(st.has_usage);
	assert_int_equal(st.usage.tokens, 5100);
	assert_int_equal(st.usage.context_used, 5100);
	assert_int_equal(st.usage.context_window, 200000);
	assert_string_equal(st.usage.model, "claude-<secret-hidden>");

	/* The snapshot at pause: the ask-agent copy and a switched profile appear there only. */
	stats_frame(b, "transient", "full_state", "{\"execution_status\":\"idle\",\"stats\":"
		    "{\"usage_to_metrics\":{\"agent\":" METRICS("claude", 0.5, 9000, 9100, 200000)
		    ",\"ask-agent-llm\":" METRICS("claude", 0.25, 800, 900, 200000)
		    ",\"profile:fast\":" METRICS("gpt-5-mini", 0.125, 1000, 1100, 100000) "}}}");
	log = take_log(b);
	assert_non_null(strstr(log, "usage agent=claude:0.5000:9100 ask-agent-llm=claude:0.2500:900 "
				 "profile:fast=gpt-5-mini:0.1250:1100\n"));
	free(log);
	controller_status(b->c, &st);
	assert_true(st.usage.cost == 0.875);
	assert_int_equal(st.usage.tokens, 9100 + 900 + 1100);
	assert_string_equal(st.usage.model, "gpt-5-mini");   /* the switched profile is the agent's */
	assert_int_equal(st.usage.context_window, 100000);

	size_t changed = b->sink.changed;
	stats_frame(b, "transient", "full_state", "{\"execution_status\":\"running\"}");
	stats_frame(b, "transient", "stats", "\"not the shape\"");
	log = take_log(b);
	assert_null(strstr(log, "usage"));
	free(log);
	assert_true(b->sink.changed > changed);
	assert_int_equal(controller_usage(b->c)->count, 3);

	struct buf r;
	buf_init(&r);
	usage_put_report(&r, controller_usage(b->c));
	assert_string_equal(buf_cstr(&r),
		"claude (agent, ask-agent-llm): $0.75\n"
		"  9,800 in · 200 out\n"
		"gpt-5-mini (profile:fast): $0.12\n"
		"  1,000 in · 100 out\n"
		"context: 1,100 of 100,000 tokens (1%)\n"
		"total: $0.88 · 11,100 tokens\n");
	buf_fini(&r);
}

static void usage_short_forms(void **state)
{
	(void)state;
	static const struct { int64_t n; const char *want; } tokens[] = {
		{ 0, "0" }, { 950, "950" }, { 1000, "1.0k" }, { 18249, "18.2k" }, { 99999, "99.9k" },
		{ 182340, "182k" }, { 1349999, "1.34M" },
	};
	for (size_t i = 0; i < sizeof tokens / sizeof *tokens; i++) {
		struct buf b;
		buf_init(&b);
		usage_put_tokens(&b, tokens[i].n);
		assert_string_equal(buf_cstr(&b), tokens[i].want);
		buf_fini(&b);
	}
	struct buf b;
	buf_init(&b);
	usage_put_cost(&b, 0.0042);
	buf_puts(&b, " ");
	usage_put_cost(&b, 0);
	buf_puts(&b, " ");
	usage_put_cost(&b, 12.3);
	struct usage_summary u = { .context_used = 48211, .context_window = 200000 };
	buf_puts(&b, " ");
	usage_put_context(&b, &u);
	u.context_window = 0;
	buf_puts(&b, " ");
	usage_put_context(&b, &u);
	assert_string_equal(buf_cstr(&b), "$0.0042 $0.00 $12.30 24% 48.2k");
	buf_fini(&b);
	buf_init(&b);
	usage_put_report(&b, NULL);
	assert_string_equal(buf_cstr(&b), "no usage yet: no LLM call was reported\n");
	buf_fini(&b);
}

/* The outbox's one list: each message not sent yet, in order, with where it is. */
static void unsent_messages_listed_with_their_state(void **state)
{
	struct bed *b = *state;
	struct controller_status st;
	controller_status(b->c, &st);
	assert_int_equal(st.pending_messages, 0);
	controller_send(b->c, "first");
	controller_send(b->c, "   ");                  /* blank: no message */
	controller_send(b->c, "second");
	controller_send(b->c, "third");
	controller_send(b->c, "fourth");
	controller_status(b->c, &st);
	assert_int_equal(st.pending_messages, 4);
	assert_string_equal(st.queued[0].text, "first");
	assert_string_equal(st.queued[2].text, "third"); /* the oldest three */
	assert_int_equal(st.queued[0].state, OUTBOX_QUEUED); /* the socket is down */
	/* Actions wait for confirmation: a message would allow them, so all are held. */
	feed(b, "{\"type\":\"transient\",\"event\":{\"id\":\"s1\",\"source\":\"environment\","
		"\"key\":\"execution_status\",\"value\":\"waiting_for_confirmation\","
		"\"kind\":\"ConversationStateUpdateEvent\"}}");
	controller_status(b->c, &st);
	assert_int_equal(st.pending_messages, 4);
	assert_string_equal(st.queued[0].text, "first");
	assert_int_equal(st.queued[0].state, OUTBOX_HELD);
}

/* Issue 16: headless holds a short tail, not the history it wrote; a card still waiting for
 * its result is held however far back it is, and its result joins it. */
static void card_durable(struct bed *b, int seq, const char *id, const char *call)
{
	char json[1024];
	snprintf(json, sizeof json,
		 "{\"type\":\"durable\",\"seq\":%d,\"event\":{\"id\":\"%s\",\"source\":\"agent\","
		 "\"action\":{\"command\":\"make\",\"kind\":\"TerminalAction\"},\"tool_name\":"
		 "\"terminal\",\"tool_call_id\":\"%s\",\"kind\":\"ActionEvent\"}}", seq, id, call);
	feed(b, json);
}

static void result_durable(struct bed *b, int seq, const char *id, const char *call)
{
	char json[1024];
	snprintf(json, sizeof json,
		 "{\"type\":\"durable\",\"seq\":%d,\"event\":{\"id\":\"%s\",\"source\":"
		 "\"environment\",\"tool_name\":\"terminal\",\"tool_call_id\":\"%s\",\"observation\":"
		 "{\"content\":[{\"type\":\"text\",\"text\":\"built\"}],\"exit_code\":0,\"kind\":"
		 "\"TerminalObservation\"},\"kind\":\"ObservationEvent\"}}", seq, id, call);
	feed(b, json);
}

static void headless_holds_a_tail_and_waiting_cards(void **state)
{
	struct bed *b = *state;
	struct transcript *t = controller_transcript(b->c);
	connection(b, SESSION_CONNECTING);
	feed(b, "{\"type\":\"sync\",\"from_seq\":-1,\"through_seq\":700}");
	card_durable(b, 0, "a0", "call0");
	char id[32];
	for (int i = 1; i <= 500; i++) {
		snprintf(id, sizeof id, "m%d", i);
		agent_durable(b, i, id, "written");
		assert_true(transcript_count(t) <= 100);
	}
	assert_int_equal(transcript_find_id(t, "a0"), 0);
	assert_int_equal(transcript_find_id(t, "m1"), -1);
	assert_true(transcript_find_id(t, "m500") >= 0);
	free(take_log(b));
	result_durable(b, 501, "o501", "call0");
	ASSERT_LOG(b, "event durable\nitem o501 other\n");
	struct item_info card;
	transcript_item(t, 0, &card);
	assert_non_null(card.result_text);
	/* Once it has its result it goes like the rest. */
	for (int i = 502; i <= 600; i++) {
		snprintf(id, sizeof id, "m%d", i);
		agent_durable(b, i, id, "written");
	}
	assert_int_equal(transcript_find_id(t, "a0"), -1);
	assert_true(transcript_count(t) <= 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(delta_opens_a_stream, bed_setup, bed_teardown),
		cmocka_unit_test_setup_teardown(retry_supersedes_and_stale_is_ignored, bed_setup,
						bed_teardown),
		cmocka_unit_test_setup_teardown(durable_retires_in_place, bed_setup, bed_teardown),
		cmocka_unit_test_setup_teardown(abort_drops_the_stream, bed_setup, bed_teardown),
		cmocka_unit_test_setup_teardown(stall_said_once_per_stall, bed_setup, bed_teardown),
		cmocka_unit_test_setup_teardown(reconnect_discards_every_stream, bed_setup,
						bed_teardown),
		cmocka_unit_test_setup_teardown(result_last, bed_setup, bed_teardown),
		cmocka_unit_test_setup_teardown(usage_follows_stats_and_snapshots, bed_setup,
						bed_teardown),
		cmocka_unit_test(usage_short_forms),
		cmocka_unit_test_setup_teardown(until_idle_follows_across_a_reconnect,
						headless_bed_setup, bed_teardown),
		cmocka_unit_test_setup_teardown(split_secret_never_reaches_a_sink, bed_setup,
						bed_teardown),
		cmocka_unit_test_setup_teardown(errors_go_to_the_sinks_cleaned, bed_setup,
						bed_teardown),
		cmocka_unit_test_setup_teardown(unsent_messages_listed_with_their_state, bed_setup,
						bed_teardown),
		cmocka_unit_test_setup_teardown(headless_holds_a_tail_and_waiting_cards,
						headless_bed_setup, bed_teardown),
		cmocka_unit_test_setup_teardown(headless_holds_a_tail_and_waiting_cards,
						trimming_tui_bed_setup, bed_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
