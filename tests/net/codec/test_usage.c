/* A conversation's usage (issue 25): upstream's stats as a `stats` state update carries them
 * (MetricsSnapshot per usage id), as a full_state and ConversationInfo carry them (Metrics
 * with the per-call lists), and shapes that are not upstream's. */
#include "codec_test.h"

#include <stdio.h>

#define SNAPSHOT_AGENT                                                                      \
	"\"agent\":{\"model_name\":\"anthropic/claude-sonnet-4-5\",\"accumulated_cost\":0.4213,"   \
	"\"max_budget_per_task\":null,\"accumulated_token_usage\":{\"model\":"                    \
	"\"anthropic/claude-sonnet-4-5\",\"prompt_tokens\":182340,\"completion_tokens\":5120,"     \
	"\"cache_read_tokens\":150112,\"cache_write_tokens\":20480,\"reasoning_tokens\":7,"       \
	"\"context_window\":200000,\"per_turn_token\":48211,\"response_id\":\"\"}}"
#define SNAPSHOT_ASK                                                                        \
	"\"ask-agent-llm\":{\"model_name\":\"openai/gpt-5\",\"accumulated_cost\":0.0121,"          \
	"\"max_budget_per_task\":5.0,\"accumulated_token_usage\":{\"model\":\"openai/gpt-5\","     \
	"\"prompt_tokens\":900,\"completion_tokens\":40,\"cache_read_tokens\":0,"                 \
	"\"cache_write_tokens\":0,\"reasoning_tokens\":0,\"context_window\":0,"                   \
	"\"per_turn_token\":940,\"response_id\":\"r9\"}}"

static void decode_event(const char *event, struct frame *f)
{
	static char json[8192];
	int n = snprintf(json, sizeof json, "{\"type\":\"durable\",\"seq\":3,\"event\":%s}", event);
	assert_true(n > 0 && (size_t)n < sizeof json);
	DECODE_OK(json, f);
}

static void check_agent(const struct usage_metrics *m)
{
	assert_string_equal(m->usage_id, "agent");
	assert_int_equal(m->role, USAGE_ROLE_AGENT);
	assert_string_equal(m->model, "anthropic/claude-sonnet-4-5");
	assert_true(m->cost > 0.42129 && m->cost < 0.42131);
	assert_false(m->has_budget);
	assert_int_equal(m->prompt_tokens, 182340);
	assert_int_equal(m->completion_tokens, 5120);
	assert_int_equal(m->cache_read_tokens, 150112);
	assert_int_equal(m->cache_write_tokens, 20480);
	assert_int_equal(m->reasoning_tokens, 7);
	assert_int_equal(m->context_window, 200000);
	assert_int_equal(m->per_turn_tokens, 48211);
}

static void check_ask(const struct usage_metrics *m)
{
	assert_string_equal(m->usage_id, "ask-agent-llm");
	assert_int_equal(m->role, USAGE_ROLE_ASK_AGENT);
	assert_string_equal(m->model, "openai/gpt-5");
	assert_true(m->has_budget);
	assert_true(m->max_budget == 5.0);
	assert_int_equal(m->context_window, 0);
	assert_int_equal(m->per_turn_tokens, 940);
}

/* ES _setup_stats_streaming: a durable CSU key "stats", a snapshot per usage id. */
static void test_stats_update(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"key\":\"stats\",\"value\":{\"usage_to_metrics\":{" SNAPSHOT_AGENT ","
		     SNAPSHOT_ASK "}},\"kind\":\"ConversationStateUpdateEvent\","
		     "\"source\":\"environment\",\"id\":\"e1\",\"timestamp\":\"2026-12-04T10:00:00\"}", &f);
	assert_int_equal(f.event.kind, EVENT_STATE_UPDATE);
	assert_non_null(f.event.stats);
	assert_int_equal(f.event.stats->count, 2);
	check_agent(&f.event.stats->entries[0]);
	check_ask(&f.event.stats->entries[1]);
	assert_null(f.event.execution_status);
	frame_fini(&f);
}

/* A full_state snapshot: value.stats is the whole Metrics with its per-call lists. */
static void test_full_state(void **state)
{
	(void)state;
	struct frame f;
	static const char ev[] =
		"{\"key\":\"full_state\",\"value\":{\"execution_status\":\"idle\",\"stats\":"
		"{\"usage_to_metrics\":{\"agent\":{\"model_name\":\"anthropic/claude-sonnet-4-5\","
		"\"accumulated_cost\":0.4213,\"max_budget_per_task\":null,\"accumulated_token_usage\":"
		"{\"model\":\"anthropic/claude-sonnet-4-5\",\"prompt_tokens\":182340,"
		"\"completion_tokens\":5120,\"cache_read_tokens\":150112,\"cache_write_tokens\":20480,"
		"\"reasoning_tokens\":7,\"context_window\":200000,\"per_turn_token\":48211,"
		"\"response_id\":\"\"},\"costs\":[{\"model\":\"m\",\"cost\":0.2,\"timestamp\":1.5}],"
		"\"response_latencies\":[{\"model\":\"m\",\"latency\":1.0,\"response_id\":\"r\"}],"
		"\"token_usages\":[{\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,"
		"\"per_turn_token\":2}]}}}},\"kind\":\"ConversationStateUpdateEvent\","
		"\"source\":\"environment\",\"id\":\"e2\"}";
	decode_event(ev, &f);
	assert_string_equal(f.event.execution_status, "idle");
	assert_non_null(f.event.stats);
	assert_int_equal(f.event.stats->count, 1);
	check_agent(&f.event.stats->entries[0]);
	frame_fini(&f);
}

/* A snapshot without stats, stats of another shape, a metrics entry that is not an object,
 * token counts of the wrong type, a usage without its token usage yet. */
static void test_other_shapes(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"key\":\"full_state\",\"value\":{\"execution_status\":\"running\"},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.stats);
	frame_fini(&f);
	decode_event("{\"key\":\"stats\",\"value\":\"lots\",\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.stats);
	frame_fini(&f);
	decode_event("{\"key\":\"stats\",\"value\":{\"usage_to_metrics\":[]},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.stats);
	frame_fini(&f);
	decode_event("{\"key\":\"stats\",\"value\":{\"usage_to_metrics\":{\"a\":7,\"b\":{"
		     "\"accumulated_cost\":\"1\",\"accumulated_token_usage\":{\"prompt_tokens\":-5,"
		     "\"completion_tokens\":\"9\",\"per_turn_token\":1e300}},\"c\":{\"model_name\":"
		     "\"x\",\"accumulated_cost\":0.5,\"accumulated_token_usage\":null}}},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_non_null(f.event.stats);
	assert_int_equal(f.event.stats->count, 2);
	const struct usage_metrics *b = &f.event.stats->entries[0];
	assert_string_equal(b->usage_id, "b");
	assert_null(b->model);
	assert_true(b->cost == 0);
	assert_int_equal(b->prompt_tokens, 0);
	assert_int_equal(b->completion_tokens, 0);
	assert_int_equal(b->per_turn_tokens, 0);
	const struct usage_metrics *c = &f.event.stats->entries[1];
	assert_string_equal(c->model, "x");
	assert_true(c->cost == 0.5);
	assert_int_equal(c->prompt_tokens, 0);
	frame_fini(&f);
	/* Another state key never carries usage. */
	decode_event("{\"key\":\"agent\",\"value\":{\"usage_to_metrics\":{" SNAPSHOT_AGENT "}},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.stats);
	frame_fini(&f);
}

/* GET /api/conversations/{id}: ConversationInfo.stats (metrics is always null). */
static void test_conversation_info(void **state)
{
	(void)state;
	static const char info[] =
		"{\"id\":\"c1\",\"title\":\"t\",\"execution_status\":\"idle\",\"metrics\":null,"
		"\"stats\":{\"usage_to_metrics\":{" SNAPSHOT_AGENT "," SNAPSHOT_ASK "}}}";
	struct conversation_info *items;
	size_t n;
	struct codec_error err;
	assert_int_equal(conversation_list_decode(info, strlen(info), &items, &n, NULL, &err), 0);
	assert_int_equal(n, 1);
	assert_true(items[0].has_stats);
	assert_int_equal(items[0].stats.count, 2);
	check_agent(&items[0].stats.entries[0]);
	struct usage_stats copy = { 0 };
	usage_stats_copy(&copy, &items[0].stats);
	conversation_infos_free(items, n);
	check_ask(&copy.entries[1]);
	usage_stats_fini(&copy);

	static const char bare[] = "{\"id\":\"c1\",\"stats\":null}";
	assert_int_equal(conversation_list_decode(bare, strlen(bare), &items, &n, NULL, &err), 0);
	assert_false(items[0].has_stats);
	conversation_infos_free(items, n);
}

static void test_stats_decode_text(void **state)
{
	(void)state;
	struct usage_stats s;
	struct codec_error err;
	static const char ok[] = "{\"usage_to_metrics\":{" SNAPSHOT_ASK "}}";
	assert_int_equal(usage_stats_decode(ok, strlen(ok), &s, &err), 0);
	assert_int_equal(s.count, 1);
	check_ask(&s.entries[0]);
	usage_stats_fini(&s);
	assert_int_equal(usage_stats_decode("[1]", 3, &s, &err), -1);
	assert_int_equal(err.status, CODEC_NOT_OBJECT);
	assert_int_equal(usage_stats_decode("{}", 2, &s, &err), -1);
	assert_int_equal(err.status, CODEC_MISSING_FIELD);
	assert_int_equal(usage_stats_decode("{", 1, &s, &err), -1);
	assert_int_equal(s.count, 0);
}

/* The stats updates of a conversation recorded from an upstream server (tests/data/upstream):
 * usage ids "default" and "condenser", no context window reported, every number as upstream
 * writes it (0.0). */
static void test_recorded_upstream(void **state)
{
	(void)state;
	const char *path = getenv("UPSTREAM_EVENTS");
	assert_non_null(path);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *line = NULL;
	size_t cap = 0, seen = 0;
	ssize_t n;
	struct frame last = { 0 };
	while ((n = getline(&line, &cap, f)) > 0) {
		if (!strstr(line, "\"key\":\"stats\""))
			continue;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		frame_fini(&last);
		decode_event(line, &last);
		assert_non_null(last.event.stats);
		seen++;
	}
	free(line);
	fclose(f);
	assert_int_equal(seen, 2);
	const struct usage_stats *u = last.event.stats;
	assert_int_equal(u->count, 2);
	assert_string_equal(u->entries[0].usage_id, "default");
	assert_int_equal(u->entries[0].role, USAGE_ROLE_DEFAULT);
	assert_string_equal(u->entries[0].model, "litellm_proxy/minimax-m2.7");
	assert_true(u->entries[0].cost == 0);
	assert_int_equal(u->entries[0].prompt_tokens, 71474);
	assert_int_equal(u->entries[0].completion_tokens, 1155);
	assert_int_equal(u->entries[0].context_window, 0);
	assert_int_equal(u->entries[0].per_turn_tokens, 72629);
	assert_string_equal(u->entries[1].usage_id, "condenser");
	assert_int_equal(u->entries[1].role, USAGE_ROLE_OTHER);
	assert_int_equal(u->entries[1].prompt_tokens, 0);
	frame_fini(&last);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_update),
		cmocka_unit_test(test_full_state),
		cmocka_unit_test(test_other_shapes),
		cmocka_unit_test(test_conversation_info),
		cmocka_unit_test(test_stats_decode_text),
		cmocka_unit_test(test_recorded_upstream),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
