/* The event payload (protocol.md §5): every kind's fields, and liberal reading inside events. */
#include "codec_test.h"

#include <stdio.h>

#include <cjson/cJSON.h>

/* Decodes the event as a durable frame with seq 9. */
static void decode_event(const char *event, struct frame *f)
{
	char json[8192];
	int n = snprintf(json, sizeof json, "{\"type\":\"durable\",\"seq\":9,\"event\":%s}", event);
	assert_true(n > 0 && (size_t)n < sizeof json);
	DECODE_OK(json, f);
	assert_int_equal(f->type, FRAME_DURABLE);
	assert_int_equal(f->seq, 9);
	/* raw holds the same event as the input (compared as parsed JSON). */
	cJSON *want = cJSON_Parse(event), *got = cJSON_Parse(raw_of(f));
	assert_non_null(got);
	assert_true(cJSON_Compare(want, got, true));
	assert_int_equal(raw_len_of(f), strlen(raw_of(f)));
	cJSON_Delete(want);
	cJSON_Delete(got);
}

/* §5.2 */
static void test_message_agent(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"3f6c2b8e-8d0a-4a51-9a3e-2d7f1c0b9e11\",\"timestamp\":\"2026-09-20T14:05:02.118004\","
		     "\"source\":\"agent\",\"llm_message\":{\"role\":\"assistant\",\"content\":[{\"cache_prompt\":false,"
		     "\"type\":\"text\",\"text\":\"All 42 tests pass.\"}],"
		     "\"reasoning_content\":\"The user asked to run tests; output shows 42 passed.\","
		     "\"thinking_blocks\":[{\"type\":\"thinking\",\"thinking\":\"Summarize results.\",\"signature\":\"EqQB…\"}]},"
		     "\"llm_response_id\":\"chatcmpl-8xYz\",\"activated_skills\":[],\"extended_content\":[],"
		     "\"kind\":\"MessageEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_MESSAGE);
	assert_string_equal(f.event.id, "3f6c2b8e-8d0a-4a51-9a3e-2d7f1c0b9e11");
	assert_string_equal(f.event.timestamp, "2026-09-20T14:05:02.118004");
	assert_int_equal(f.event.source, SOURCE_AGENT);
	assert_string_equal(f.event.role, "assistant");
	assert_string_equal(f.event.text, "All 42 tests pass.");
	assert_string_equal(f.event.reasoning,
			    "The user asked to run tests; output shows 42 passed.\n\nSummarize results.");
	assert_null(f.event.tool_name);
	assert_null(f.event.action_summary);
	assert_int_equal(f.event.risk, RISK_ABSENT);
	frame_fini(&f);
}

static void test_message_parts(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"kind\":\"MessageEvent\",\"source\":\"user\",\"llm_message\":{\"role\":\"user\",\"content\":["
		     "{\"type\":\"text\",\"text\":\"What is in this picture?\"},"
		     "{\"type\":\"image\",\"image_urls\":[\"data:image/png;base64,iVBOR\"]},"
		     "{\"type\":\"audio\",\"text\":\"not shown\"},"
		     "{\"type\":\"text\",\"text\":\"\"},"
		     "{\"type\":\"text\",\"text\":\"And this?\"}]}}", &f);
	assert_string_equal(f.event.text, "What is in this picture?\n[image]\nAnd this?");
	assert_null(f.event.reasoning);
	frame_fini(&f);

	/* Text parts join with nothing between (upstream's "".join of content_to_str): a secret
	 * split across two parts reaches the masker whole. */
	decode_event("{\"kind\":\"MessageEvent\",\"source\":\"agent\",\"llm_message\":{\"role\":"
		     "\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"abc SEC\"},"
		     "{\"type\":\"text\",\"text\":\"RET def\"}]}}", &f);
	assert_string_equal(f.event.text, "abc SECRET def");
	frame_fini(&f);
	decode_event("{\"kind\":\"ObservationEvent\",\"observation\":{\"content\":["
		     "{\"type\":\"text\",\"text\":\"out SEC\"},{\"type\":\"image\",\"image_urls\":[]},"
		     "{\"type\":\"text\",\"text\":\"tail\"},{\"type\":\"text\",\"text\":\"RET\"}]}}", &f);
	assert_string_equal(f.event.text, "out SEC\n[image]\ntailRET");
	frame_fini(&f);

	/* Message also accepts content as a bare string. */
	decode_event("{\"kind\":\"MessageEvent\",\"llm_message\":{\"role\":\"user\",\"content\":\"plain\"}}", &f);
	assert_string_equal(f.event.text, "plain");
	frame_fini(&f);

	decode_event("{\"kind\":\"MessageEvent\",\"llm_message\":{\"role\":\"assistant\",\"content\":[]}}", &f);
	assert_null(f.event.text);
	frame_fini(&f);
}

static void test_message_reasoning(void **state)
{
	(void)state;
	struct frame f;
	/* litellm copies Anthropic thinking into reasoning_content too: show it once. */
	decode_event("{\"kind\":\"MessageEvent\",\"llm_message\":{\"role\":\"assistant\",\"content\":[],"
		     "\"reasoning_content\":\"Let me think.\",\"thinking_blocks\":[{\"type\":\"thinking\","
		     "\"thinking\":\"Let me think.\",\"signature\":\"s\"}]}}", &f);
	assert_string_equal(f.event.reasoning, "Let me think.");
	frame_fini(&f);

	decode_event("{\"kind\":\"MessageEvent\",\"llm_message\":{\"role\":\"assistant\",\"content\":[],"
		     "\"thinking_blocks\":[{\"type\":\"thinking\",\"thinking\":\"one\"},"
		     "{\"type\":\"redacted_thinking\",\"data\":\"opaque\"},"
		     "{\"type\":\"thinking\",\"thinking\":\"two\"}]}}", &f);
	assert_string_equal(f.event.reasoning, "one\n\ntwo");
	frame_fini(&f);
}

/* Inside events an unexpected type reads as absent and the frame still decodes. */
static void test_message_wrong_types_inside(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":5,\"timestamp\":[],\"source\":7,\"kind\":\"MessageEvent\",\"llm_message\":{\"role\":1,"
		     "\"content\":[5,\"x\",{\"type\":\"text\",\"text\":3},null,{\"type\":\"text\",\"text\":\"ok\"}],"
		     "\"reasoning_content\":{},\"thinking_blocks\":\"nope\"}}", &f);
	assert_int_equal(f.event.kind, EVENT_MESSAGE);
	assert_null(f.event.id);
	assert_null(f.event.timestamp);
	assert_int_equal(f.event.source, SOURCE_UNKNOWN);
	assert_null(f.event.role);
	assert_string_equal(f.event.text, "ok");
	assert_null(f.event.reasoning);
	frame_fini(&f);

	decode_event("{\"kind\":\"MessageEvent\",\"llm_message\":\"text\"}", &f);
	assert_int_equal(f.event.kind, EVENT_MESSAGE);
	assert_null(f.event.text);
	frame_fini(&f);
}

/* §5.3 */
static void test_action_terminal(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"9b1d…\",\"timestamp\":\"2026-09-20T14:04:40.002311\",\"source\":\"agent\","
		     "\"thought\":[{\"cache_prompt\":false,\"type\":\"text\",\"text\":\"I'll run the test suite.\"}],"
		     "\"thinking_blocks\":[],"
		     "\"action\":{\"command\":\"pytest -q\",\"is_input\":false,\"reset\":false,\"kind\":\"TerminalAction\"},"
		     "\"tool_name\":\"terminal\",\"tool_call_id\":\"toolu_01AbC\","
		     "\"tool_call\":{\"id\":\"toolu_01AbC\",\"name\":\"terminal\","
		     "\"arguments\":\"{\\\"command\\\": \\\"pytest -q\\\", \\\"security_risk\\\": \\\"LOW\\\"}\",\"origin\":\"completion\"},"
		     "\"llm_response_id\":\"chatcmpl-8xYy\",\"security_risk\":\"LOW\","
		     "\"summary\":\"running the project test suite\",\"kind\":\"ActionEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_ACTION);
	assert_string_equal(f.event.id, "9b1d…");
	assert_int_equal(f.event.source, SOURCE_AGENT);
	assert_string_equal(f.event.text, "I'll run the test suite.");
	assert_null(f.event.reasoning);
	assert_string_equal(f.event.tool_name, "terminal");
	assert_string_equal(f.event.tool_call_id, "toolu_01AbC");
	assert_string_equal(f.event.action_kind, "TerminalAction");
	assert_string_equal(f.event.action_summary, "pytest -q");
	assert_int_equal(f.event.risk, RISK_LOW);
	frame_fini(&f);
}

static void expect_summary(const char *event, const char *summary)
{
	struct frame f;
	decode_event(event, &f);
	assert_int_equal(f.event.kind, EVENT_ACTION);
	if (summary)
		assert_string_equal(f.event.action_summary, summary);
	else
		assert_null(f.event.action_summary);
	frame_fini(&f);
}

static void test_action_summaries(void **state)
{
	(void)state;
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"command\":\"view\",\"path\":\"/w/a.py\","
		       "\"kind\":\"FileEditorAction\"}}", "view /w/a.py");
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"path\":\"/w/a.py\","
		       "\"kind\":\"FileEditorAction\"}}", "/w/a.py");
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"message\":\"Done.\",\"kind\":\"FinishAction\"},"
		       "\"summary\":\"finishing\"}", "Done.");
	/* A thought is the card's body (the arguments): the header takes the LLM's summary. */
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"thought\":\"Hmm.\",\"kind\":\"ThinkAction\"}}",
		       NULL);
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"thought\":\"Hmm.\",\"kind\":\"ThinkAction\"},"
		       "\"summary\":\"weigh it\"}", "weigh it");
	/* Other actions: command, then path, then message. */
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"message\":\"m\",\"path\":\"p\","
		       "\"kind\":\"BrowserAction\"}}", "p");
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"message\":\"m\",\"kind\":\"X\"}}", "m");
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"command\":\"c\",\"path\":\"p\"}}", "c");
	/* The ThinkAction rule does not apply to a terminal action's thought. */
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"thought\":\"t\",\"kind\":\"TerminalAction\"},"
		       "\"summary\":\"s\"}", "s");
	/* No usable action: the top-level summary. */
	expect_summary("{\"kind\":\"ActionEvent\",\"summary\":\"about ten words\"}", "about ten words");
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":null,\"summary\":\"s\"}", "s");
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"kind\":\"TaskTrackerAction\",\"task_list\":[]}}",
		       NULL);
	/* One line: a command's first line (the arguments hold all of it), other fields flattened. */
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"command\":\"cat <<EOF\\nx\\r\\n\\tEOF\","
		       "\"kind\":\"TerminalAction\"}}", "cat <<EOF …");
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"command\":\"a\\rb\\tc\","
		       "\"kind\":\"TerminalAction\"}}", "a b c");
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"command\":\"create\",\"path\":\"a\\nb\","
		       "\"kind\":\"FileEditorAction\"}}", "create a b");
	/* Other controls stay: the display sanitizer removes an escape sequence only whole, and
	 * one split by a space would leave "[2J" behind (or split a secret past the masker). */
	expect_summary("{\"kind\":\"ActionEvent\",\"action\":{\"command\":\"ls\\u001b[2J\\u0007\","
		       "\"kind\":\"TerminalAction\"}}", "ls\x1b[2J\a");
}

static void test_action_summary_cap(void **state)
{
	(void)state;
	/* "x" and 150 two-byte characters (301 bytes): byte 200 is inside a character, so the cut
	 * falls at 199. */
	char event[1024] = "{\"kind\":\"ActionEvent\",\"action\":{\"kind\":\"TerminalAction\",\"command\":\"x";
	for (int i = 0; i < 150; i++)
		strcat(event, "é");
	strcat(event, "\"}}");
	struct frame f;
	decode_event(event, &f);
	const char *s = f.event.action_summary;
	size_t len = strlen(s), ell = strlen("…");
	assert_true(len > ell);
	assert_string_equal(s + len - ell, "…");
	assert_int_equal(len - ell, 199);
	assert_int_equal(s[0], 'x');
	for (size_t i = 1; i < len - ell; i += 2)
		assert_memory_equal(s + i, "é", 2);
	frame_fini(&f);

	/* 201 ASCII bytes: 200 kept. */
	char cmd[202];
	memset(cmd, 'x', 201);
	cmd[201] = '\0';
	snprintf(event, sizeof event, "{\"kind\":\"ActionEvent\",\"action\":{\"command\":\"%s\"}}", cmd);
	decode_event(event, &f);
	assert_int_equal(strlen(f.event.action_summary), 200 + ell);
	frame_fini(&f);

	/* Exactly 200 bytes: untouched. */
	cmd[200] = '\0';
	snprintf(event, sizeof event, "{\"kind\":\"ActionEvent\",\"action\":{\"command\":\"%s\"}}", cmd);
	decode_event(event, &f);
	assert_string_equal(f.event.action_summary, cmd);
	frame_fini(&f);
}

/* The confirmation shows action_detail: every argument whole, never cut like the summary. */
static void test_action_detail_whole(void **state)
{
	(void)state;
	char cmd[321], event[1024];
	for (int i = 0; i < 300; i++)
		cmd[i] = (char)('a' + i % 26);
	strcpy(cmd + 300, " && rm -rf ~");
	snprintf(event, sizeof event,
		 "{\"kind\":\"ActionEvent\",\"action\":{\"command\":\"%s\\nsecond line\","
		 "\"is_input\":false,\"reset\":null,\"timeout\":30,\"env\":{\"A\":\"1\"},"
		 "\"path\":\"\",\"kind\":\"TerminalAction\"}}", cmd);
	struct frame f;
	decode_event(event, &f);
	struct buf want;
	buf_init(&want);
	buf_printf(&want, "command: %s\nsecond line\ntimeout: 30\nenv: {\"A\":\"1\"}", cmd);
	assert_string_equal(f.event.action_detail, buf_cstr(&want));
	assert_true(strlen(f.event.action_summary) < 210);
	buf_fini(&want);
	frame_fini(&f);
	/* Numbers beyond long long (and the edge of it) print as numbers; casting them first was
	 * undefined behaviour that UBSan stops on (fuzz_codec found it). */
	decode_event("{\"kind\":\"ActionEvent\",\"action\":{\"kind\":\"X\",\"big\":1e300,"
		     "\"low\":-1e20,\"edge\":9.3e18,\"n\":42}}", &f);
	assert_string_equal(f.event.action_detail, "big: 1e+300\nlow: -1e+20\nedge: 9.3e+18\nn: 42");
	frame_fini(&f);
	/* Nothing to say: absent. */
	decode_event("{\"kind\":\"ActionEvent\",\"action\":{\"kind\":\"X\",\"flag\":false}}", &f);
	assert_null(f.event.action_detail);
	frame_fini(&f);
}

static void test_action_risk_and_reasoning(void **state)
{
	(void)state;
	static const struct {
		const char *value;
		enum security_risk risk;
	} cases[] = {
		{ "\"UNKNOWN\"", RISK_UNKNOWN }, { "\"LOW\"", RISK_LOW },     { "\"MEDIUM\"", RISK_MEDIUM },
		{ "\"HIGH\"", RISK_HIGH },       { "\"SEVERE\"", RISK_UNKNOWN }, { "3", RISK_ABSENT },
		{ "null", RISK_ABSENT },
	};
	char event[256];
	struct frame f;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(event, sizeof event, "{\"kind\":\"ActionEvent\",\"security_risk\":%s}", cases[i].value);
		decode_event(event, &f);
		assert_int_equal(f.event.risk, cases[i].risk);
		frame_fini(&f);
	}
	decode_event("{\"kind\":\"ActionEvent\"}", &f);
	assert_int_equal(f.event.risk, RISK_ABSENT);
	frame_fini(&f);

	/* The first action of a batch carries the reasoning at the top level (§2.8). */
	decode_event("{\"kind\":\"ActionEvent\",\"thought\":[{\"type\":\"text\",\"text\":\"a\"},"
		     "{\"type\":\"text\",\"text\":\"b\"}],\"reasoning_content\":\"why\","
		     "\"thinking_blocks\":[{\"type\":\"thinking\",\"thinking\":\"deeper\"}]}", &f);
	assert_string_equal(f.event.text, "ab");    /* parts joined as a message's are */
	assert_string_equal(f.event.reasoning, "why\n\ndeeper");
	frame_fini(&f);

	decode_event("{\"kind\":\"ActionEvent\",\"thought\":5,\"action\":\"x\",\"tool_name\":7,"
		     "\"tool_call_id\":[],\"reasoning_content\":false}", &f);
	assert_int_equal(f.event.kind, EVENT_ACTION);
	assert_null(f.event.text);
	assert_null(f.event.action_kind);
	assert_null(f.event.action_summary);
	assert_null(f.event.tool_name);
	assert_null(f.event.tool_call_id);
	assert_null(f.event.reasoning);
	frame_fini(&f);
}

/* §5.4 */
static void test_observation(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"e77a…\",\"timestamp\":\"2026-09-20T14:04:47.930120\",\"source\":\"environment\","
		     "\"tool_name\":\"terminal\",\"tool_call_id\":\"toolu_01AbC\","
		     "\"observation\":{\"content\":[{\"cache_prompt\":false,\"type\":\"text\",\"text\":\"42 passed in 3.21s\"}],"
		     "\"is_error\":false,\"command\":\"pytest -q\",\"exit_code\":0,\"timeout\":false,"
		     "\"metadata\":{\"exit_code\":0,\"pid\":4121,\"username\":\"openhands\",\"hostname\":\"sandbox\","
		     "\"working_dir\":\"/workspace/project\",\"prefix\":\"\",\"suffix\":\"\"},"
		     "\"kind\":\"TerminalObservation\"},"
		     "\"action_id\":\"9b1d…\",\"extended_content\":[],\"kind\":\"ObservationEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_OBSERVATION);
	assert_int_equal(f.event.source, SOURCE_ENVIRONMENT);
	assert_string_equal(f.event.tool_name, "terminal");
	assert_string_equal(f.event.tool_call_id, "toolu_01AbC");
	assert_string_equal(f.event.text, "42 passed in 3.21s");
	assert_false(f.event.is_error);
	assert_true(f.event.has_exit_code);
	assert_int_equal(f.event.exit_code, 0);
	assert_null(f.event.action_kind);
	frame_fini(&f);
}

static void test_observation_exit_codes(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"kind\":\"ObservationEvent\",\"observation\":{\"content\":[],\"is_error\":true,"
		     "\"metadata\":{\"exit_code\":-1}}}", &f);
	/* metadata.exit_code is -1 by default upstream: failed with a message, not "exit -1". */
	assert_true(f.event.is_error);
	assert_false(f.event.has_exit_code);
	assert_int_equal(f.event.exit_status, EXIT_STATUS_NONE);
	assert_null(f.event.text);
	frame_fini(&f);

	decode_event("{\"kind\":\"ObservationEvent\",\"observation\":{\"exit_code\":2,\"metadata\":{\"exit_code\":0}}}",
		     &f);
	assert_int_equal(f.event.exit_code, 2);
	frame_fini(&f);

	decode_event("{\"kind\":\"ObservationEvent\",\"observation\":{\"exit_code\":\"2\",\"metadata\":{\"exit_code\":127}}}",
		     &f);
	assert_true(f.event.has_exit_code);
	assert_int_equal(f.event.exit_code, 127);
	frame_fini(&f);

	decode_event("{\"kind\":\"ObservationEvent\",\"observation\":{\"content\":\"x\",\"is_error\":1,"
		     "\"exit_code\":1.5}}", &f);
	assert_false(f.event.has_exit_code);
	assert_false(f.event.is_error);
	assert_string_equal(f.event.text, "x");
	frame_fini(&f);

	decode_event("{\"kind\":\"ObservationEvent\",\"observation\":{\"exit_code\":1e12}}", &f);
	assert_false(f.event.has_exit_code);
	frame_fini(&f);

	decode_event("{\"kind\":\"ObservationEvent\",\"observation\":{\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
		     "{\"type\":\"image\",\"image_urls\":[]},{\"type\":\"text\",\"text\":\"b\"}]}}", &f);
	assert_string_equal(f.event.text, "a\n[image]\nb");
	frame_fini(&f);
}

/* §5.5 */
static void test_user_reject(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"c0de…\",\"timestamp\":\"2026-09-20T14:06:10.100000\",\"source\":\"environment\","
		     "\"tool_name\":\"terminal\",\"tool_call_id\":\"toolu_01XyZ\",\"rejection_reason\":\"Too risky\","
		     "\"rejection_source\":\"user\",\"action_id\":\"7aa1…\",\"kind\":\"UserRejectObservation\"}", &f);
	assert_int_equal(f.event.kind, EVENT_USER_REJECT);
	assert_string_equal(f.event.text, "Too risky");
	assert_string_equal(f.event.tool_name, "terminal");
	assert_string_equal(f.event.tool_call_id, "toolu_01XyZ");
	frame_fini(&f);
}

/* §5.6 */
static void test_agent_error(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"ab12…\",\"timestamp\":\"2026-09-20T14:04:41.000200\",\"source\":\"agent\","
		     "\"tool_name\":\"file_editor\",\"tool_call_id\":\"toolu_01Q\","
		     "\"error\":\"Missing required argument \\\"path\\\"\",\"classification\":{\"kind\":\"agent_action\","
		     "\"retryable\":false,\"user_action\":\"none\"},\"kind\":\"AgentErrorEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_AGENT_ERROR);
	assert_int_equal(f.event.source, SOURCE_AGENT);
	assert_string_equal(f.event.text, "Missing required argument \"path\"");
	assert_string_equal(f.event.tool_name, "file_editor");
	assert_string_equal(f.event.tool_call_id, "toolu_01Q");
	assert_null(f.event.error_code);
	frame_fini(&f);
}

/* §5.7 */
static void test_conversation_error(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"f00d…\",\"timestamp\":\"2026-09-20T14:07:00.500000\",\"source\":\"environment\","
		     "\"code\":\"AuthenticationError\",\"detail\":\"litellm.AuthenticationError: invalid x-api-key\","
		     "\"classification\":{\"kind\":\"auth\",\"retryable\":false,\"user_action\":\"settings\"},"
		     "\"kind\":\"ConversationErrorEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_CONVERSATION_ERROR);
	assert_string_equal(f.event.error_code, "AuthenticationError");
	assert_string_equal(f.event.text, "litellm.AuthenticationError: invalid x-api-key");
	assert_null(f.event.tool_name);
	frame_fini(&f);
}

/* §5.8 */
static void test_pause_interrupt(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"11aa…\",\"timestamp\":\"2026-09-20T14:08:00.000100\",\"source\":\"user\","
		     "\"kind\":\"PauseEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_PAUSE);
	assert_int_equal(f.event.source, SOURCE_USER);
	assert_string_equal(f.event.id, "11aa…");
	assert_null(f.event.text);
	frame_fini(&f);

	decode_event("{\"id\":\"22bb…\",\"timestamp\":\"2026-09-20T14:08:05.000100\",\"source\":\"user\","
		     "\"kind\":\"InterruptEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_INTERRUPT);
	assert_string_equal(f.event.timestamp, "2026-09-20T14:08:05.000100");
	frame_fini(&f);
}

/* §5.9 */
static void test_state_update(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"d4c3…\",\"timestamp\":\"2026-09-20T14:04:39.700000\",\"source\":\"environment\","
		     "\"key\":\"execution_status\",\"value\":\"running\",\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_STATE_UPDATE);
	assert_string_equal(f.event.state_key, "execution_status");
	assert_string_equal(f.event.execution_status, "running");
	frame_fini(&f);

	/* Only execution_status and full_state carry a status. */
	decode_event("{\"key\":\"stats\",\"value\":{\"execution_status\":\"running\"},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_string_equal(f.event.state_key, "stats");
	assert_null(f.event.execution_status);
	frame_fini(&f);

	decode_event("{\"key\":\"confirmation_policy\",\"value\":\"running\",\"kind\":\"ConversationStateUpdateEvent\"}",
		     &f);
	assert_null(f.event.execution_status);
	frame_fini(&f);

	decode_event("{\"key\":\"execution_status\",\"value\":{\"execution_status\":\"idle\"},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.execution_status);
	frame_fini(&f);

	decode_event("{\"key\":\"full_state\",\"value\":\"idle\",\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.execution_status);
	frame_fini(&f);

	decode_event("{\"key\":7,\"value\":\"idle\",\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.state_key);
	assert_null(f.event.execution_status);
	frame_fini(&f);
}

/* Issue 25: an event names the event before it on its branch; a full_state snapshot names
 * the server's HEAD (upstream state.py leaf_event_id, head_is_empty). */
static void test_tree_fields(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"e2\",\"parent_id\":\"e1\",\"source\":\"user\",\"llm_message\":"
		     "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]},"
		     "\"kind\":\"MessageEvent\"}", &f);
	assert_string_equal(f.event.parent_id, "e1");
	assert_null(f.event.leaf_event_id);
	frame_fini(&f);

	decode_event("{\"id\":\"e3\",\"parent_id\":\"__root__\",\"kind\":\"PauseEvent\"}", &f);
	assert_string_equal(f.event.parent_id, EVENT_ROOT_PARENT);
	frame_fini(&f);

	/* Written before the tree (or null on a server before 1.31.2): absent. */
	decode_event("{\"id\":\"e4\",\"parent_id\":null,\"kind\":\"PauseEvent\"}", &f);
	assert_null(f.event.parent_id);
	frame_fini(&f);

	decode_event("{\"key\":\"full_state\",\"value\":{\"execution_status\":\"idle\","
		     "\"leaf_event_id\":\"e2\",\"head_is_empty\":false},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_string_equal(f.event.leaf_event_id, "e2");
	assert_false(f.event.head_is_empty);
	frame_fini(&f);

	decode_event("{\"key\":\"full_state\",\"value\":{\"execution_status\":\"idle\","
		     "\"head_is_empty\":true},\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.leaf_event_id);
	assert_true(f.event.head_is_empty);
	frame_fini(&f);

	/* Only a snapshot says where HEAD is. */
	decode_event("{\"key\":\"stats\",\"value\":{\"leaf_event_id\":\"e2\"},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.leaf_event_id);
	frame_fini(&f);
}

/* Issue 25: after switch_profile upstream's state publishes the new agent (local_conversation.py
 * switch_llm assigns state.agent: a durable update of key "agent", the agent as
 * model_dump(mode="json")); a snapshot holds the agent and the confirmation policy too. */
static void test_agent_and_policy_updates(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"5a1e…\",\"timestamp\":\"2026-09-20T14:09:00.000100\","
		     "\"source\":\"environment\",\"key\":\"agent\",\"value\":{\"kind\":\"Agent\","
		     "\"llm\":{\"model\":\"openai/gpt-5-mini\",\"api_key\":\"**********\","
		     "\"usage_id\":\"profile:fast\",\"stream\":false},\"tools\":[{\"name\":"
		     "\"terminal\"}],\"condenser\":null},\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_string_equal(f.event.state_key, "agent");
	assert_string_equal(f.event.agent_model, "openai/gpt-5-mini");
	assert_false(f.event.has_policy);
	assert_null(f.event.execution_status);
	frame_fini(&f);

	/* An agent without an LLM model, or not an object: no model. */
	decode_event("{\"key\":\"agent\",\"value\":{\"llm\":{\"model\":7}},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.agent_model);
	frame_fini(&f);
	decode_event("{\"key\":\"agent\",\"value\":\"openai/gpt-5-mini\","
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.agent_model);
	frame_fini(&f);

	/* Only the agent's own key or a snapshot names the model. */
	decode_event("{\"key\":\"stats\",\"value\":{\"llm\":{\"model\":\"x\"}},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_null(f.event.agent_model);
	frame_fini(&f);

	decode_event("{\"key\":\"full_state\",\"value\":{\"execution_status\":\"idle\","
		     "\"agent\":{\"kind\":\"Agent\",\"llm\":{\"model\":\"anthropic/claude-sonnet-4-5\"}},"
		     "\"confirmation_policy\":{\"kind\":\"ConfirmRisky\",\"threshold\":\"HIGH\","
		     "\"confirm_unknown\":true}},\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_string_equal(f.event.agent_model, "anthropic/claude-sonnet-4-5");
	assert_true(f.event.has_policy);
	assert_int_equal(f.event.policy, CONFIRMATION_POLICY_RISKY);
	frame_fini(&f);

	static const struct {
		const char *kind;
		enum confirmation_policy policy;
	} kinds[] = {
		{ "NeverConfirm", CONFIRMATION_POLICY_NEVER },
		{ "AlwaysConfirm", CONFIRMATION_POLICY_ALWAYS },
		{ "ConfirmRisky", CONFIRMATION_POLICY_RISKY },
		{ "SomeFuturePolicy", CONFIRMATION_POLICY_RISKY },
	};
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		char ev[200];
		snprintf(ev, sizeof ev, "{\"key\":\"confirmation_policy\",\"value\":{\"kind\":"
			 "\"%s\"},\"kind\":\"ConversationStateUpdateEvent\"}", kinds[i].kind);
		decode_event(ev, &f);
		assert_true(f.event.has_policy);
		assert_int_equal(f.event.policy, kinds[i].policy);
		frame_fini(&f);
	}
	decode_event("{\"key\":\"confirmation_policy\",\"value\":{\"kind\":null},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_false(f.event.has_policy);
	frame_fini(&f);
}

/* §5.9: the status decoded to a run_status, also from a full_state snapshot; the string stays
 * as received (headless prints it as sent). */
static void test_run_status_typed(void **state)
{
	static const struct {
		const char *wire;
		enum run_status want;
	} cases[] = {
		{ "idle", RUN_STATUS_IDLE },
		{ "running", RUN_STATUS_RUNNING },
		{ "paused", RUN_STATUS_PAUSED },
		{ "waiting_for_confirmation", RUN_STATUS_WAITING_FOR_CONFIRMATION },
		{ "finished", RUN_STATUS_FINISHED },
		{ "error", RUN_STATUS_ERROR },
		{ "stuck", RUN_STATUS_STUCK },
		{ "deleting", RUN_STATUS_DELETING },
		{ "sleeping", RUN_STATUS_UNKNOWN },
		{ "Running", RUN_STATUS_UNKNOWN },
		{ "running ", RUN_STATUS_UNKNOWN },
		{ "", RUN_STATUS_UNKNOWN },
	};
	(void)state;
	struct frame f;
	char ev[512];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		snprintf(ev, sizeof ev, "{\"key\":\"execution_status\",\"value\":\"%s\","
			 "\"kind\":\"ConversationStateUpdateEvent\"}", cases[i].wire);
		decode_event(ev, &f);
		assert_string_equal(f.event.execution_status, cases[i].wire);
		assert_int_equal(f.event.run_status, cases[i].want);
		frame_fini(&f);
		snprintf(ev, sizeof ev, "{\"key\":\"full_state\",\"value\":{\"execution_status\":\"%s\","
			 "\"max_iterations\":500},\"kind\":\"ConversationStateUpdateEvent\"}",
			 cases[i].wire);
		decode_event(ev, &f);
		assert_int_equal(f.event.run_status, cases[i].want);
		frame_fini(&f);
	}
	/* No status, a status of another type, another key: absent. */
	decode_event("{\"key\":\"execution_status\",\"value\":3,\"kind\":\"ConversationStateUpdateEvent\"}",
		     &f);
	assert_int_equal(f.event.run_status, RUN_STATUS_ABSENT);
	frame_fini(&f);
	decode_event("{\"key\":\"stats\",\"value\":{\"execution_status\":\"running\"},"
		     "\"kind\":\"ConversationStateUpdateEvent\"}", &f);
	assert_int_equal(f.event.run_status, RUN_STATUS_ABSENT);
	frame_fini(&f);
	decode_event("{\"kind\":\"MessageEvent\",\"source\":\"agent\"}", &f);
	assert_int_equal(f.event.run_status, RUN_STATUS_ABSENT);
	frame_fini(&f);
}

/* Finish and terminal kinds and ACP statuses decoded to enums: nothing above net/ compares
 * their names. Absent is NONE/ABSENT, a name not known OTHER/UNKNOWN, names are exact. */
static void test_tool_names_typed(void **state)
{
	static const struct {
		const char *event;
		enum tool_kind action, observation, tool;
		enum acp_status acp;
	} cases[] = {
		{ "{\"kind\":\"ActionEvent\",\"tool_name\":\"finish\",\"action\":{\"kind\":\"FinishAction\"}}",
		  TOOL_KIND_FINISH, TOOL_KIND_NONE, TOOL_KIND_FINISH, ACP_STATUS_ABSENT },
		{ "{\"kind\":\"ActionEvent\",\"tool_name\":\"terminal\",\"action\":{\"kind\":\"TerminalAction\"}}",
		  TOOL_KIND_TERMINAL, TOOL_KIND_NONE, TOOL_KIND_TERMINAL, ACP_STATUS_ABSENT },
		{ "{\"kind\":\"ActionEvent\",\"tool_name\":\"Terminal\",\"action\":{\"kind\":\"finishAction\"}}",
		  TOOL_KIND_OTHER, TOOL_KIND_NONE, TOOL_KIND_OTHER, ACP_STATUS_ABSENT },
		{ "{\"kind\":\"ActionEvent\"}",
		  TOOL_KIND_NONE, TOOL_KIND_NONE, TOOL_KIND_NONE, ACP_STATUS_ABSENT },
		{ "{\"kind\":\"ObservationEvent\",\"tool_name\":\"finish\",\"observation\":{\"kind\":\"FinishObservation\"}}",
		  TOOL_KIND_NONE, TOOL_KIND_FINISH, TOOL_KIND_FINISH, ACP_STATUS_ABSENT },
		{ "{\"kind\":\"ObservationEvent\",\"observation\":{\"kind\":\"TerminalObservation\"}}",
		  TOOL_KIND_NONE, TOOL_KIND_TERMINAL, TOOL_KIND_NONE, ACP_STATUS_ABSENT },
		{ "{\"kind\":\"ObservationEvent\",\"observation\":{\"kind\":\"FileEditorObservation\"}}",
		  TOOL_KIND_NONE, TOOL_KIND_OTHER, TOOL_KIND_NONE, ACP_STATUS_ABSENT },
		{ "{\"kind\":\"ACPToolCallEvent\",\"title\":\"terminal\",\"status\":\"completed\"}",
		  TOOL_KIND_NONE, TOOL_KIND_NONE, TOOL_KIND_TERMINAL, ACP_STATUS_COMPLETED },
		{ "{\"kind\":\"ACPToolCallEvent\",\"status\":\"failed\"}",
		  TOOL_KIND_NONE, TOOL_KIND_NONE, TOOL_KIND_NONE, ACP_STATUS_FAILED },
		{ "{\"kind\":\"ACPToolCallEvent\",\"status\":\"pending\"}",
		  TOOL_KIND_NONE, TOOL_KIND_NONE, TOOL_KIND_NONE, ACP_STATUS_PENDING },
		{ "{\"kind\":\"ACPToolCallEvent\",\"status\":\"in_progress\"}",
		  TOOL_KIND_NONE, TOOL_KIND_NONE, TOOL_KIND_NONE, ACP_STATUS_IN_PROGRESS },
		{ "{\"kind\":\"ACPToolCallEvent\",\"status\":\"Completed\"}",
		  TOOL_KIND_NONE, TOOL_KIND_NONE, TOOL_KIND_NONE, ACP_STATUS_UNKNOWN },
		{ "{\"kind\":\"ACPToolCallEvent\"}",
		  TOOL_KIND_NONE, TOOL_KIND_NONE, TOOL_KIND_NONE, ACP_STATUS_ABSENT },
	};
	(void)state;
	struct frame f;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		decode_event(cases[i].event, &f);
		assert_int_equal(f.event.action_type, cases[i].action);
		assert_int_equal(f.event.observation_type, cases[i].observation);
		assert_int_equal(f.event.tool, cases[i].tool);
		assert_int_equal(f.event.acp_status, cases[i].acp);
		frame_fini(&f);
	}
}

/* §5.3: security_risk as an enum. */
static void test_risk_typed(void **state)
{
	static const struct {
		const char *field;
		enum security_risk want;
	} cases[] = {
		{ ",\"security_risk\":\"LOW\"", RISK_LOW },
		{ ",\"security_risk\":\"MEDIUM\"", RISK_MEDIUM },
		{ ",\"security_risk\":\"HIGH\"", RISK_HIGH },
		{ ",\"security_risk\":\"UNKNOWN\"", RISK_UNKNOWN },
		{ ",\"security_risk\":\"high\"", RISK_UNKNOWN },
		{ "", RISK_ABSENT },
	};
	(void)state;
	struct frame f;
	char ev[512];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		snprintf(ev, sizeof ev, "{\"source\":\"agent\",\"tool_name\":\"terminal\"%s,"
			 "\"kind\":\"ActionEvent\"}", cases[i].field);
		decode_event(ev, &f);
		assert_int_equal(f.event.risk, cases[i].want);
		frame_fini(&f);
	}
}

/* §5.10 */
static void test_condensation(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"77cc…\",\"timestamp\":\"2026-09-20T15:00:00.000000\",\"source\":\"environment\","
		     "\"forgotten_event_ids\":[\"5d0f…\",\"9b1d…\"],"
		     "\"summary\":\"User asked to fix tests; agent ran pytest and patched utils.py.\","
		     "\"summary_offset\":1,\"llm_response_id\":\"chatcmpl-9aa\",\"kind\":\"Condensation\"}", &f);
	assert_int_equal(f.event.kind, EVENT_CONDENSATION);
	assert_string_equal(f.event.kind_name, "Condensation");
	assert_string_equal(f.event.text, "User asked to fix tests; agent ran pytest and patched utils.py.");
	frame_fini(&f);

	decode_event("{\"id\":\"88dd…\",\"timestamp\":\"2026-09-20T14:59:59.000000\",\"source\":\"environment\","
		     "\"kind\":\"CondensationRequest\"}", &f);
	assert_int_equal(f.event.kind, EVENT_CONDENSATION);
	assert_string_equal(f.event.kind_name, "CondensationRequest");
	assert_null(f.event.text);
	frame_fini(&f);

	decode_event("{\"source\":\"environment\",\"summary\":\"short\",\"kind\":\"CondensationSummaryEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_CONDENSATION);
	assert_string_equal(f.event.text, "short");
	frame_fini(&f);
}

/* §5.11: nested kinds (tools[].kind) never decide the event kind. */
static void test_system_prompt(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"0001…\",\"timestamp\":\"2026-09-20T14:03:10.000000\",\"source\":\"agent\","
		     "\"system_prompt\":{\"cache_prompt\":false,\"type\":\"text\",\"text\":\"You are OpenHands agent…\"},"
		     "\"tools\":[{\"description\":\"Execute a bash command in the terminal…\","
		     "\"action_type\":\"TerminalAction\",\"observation_type\":\"TerminalObservation\","
		     "\"kind\":\"TerminalTool\"}],\"kind\":\"SystemPromptEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_SYSTEM_PROMPT);
	assert_int_equal(f.event.source, SOURCE_AGENT);
	assert_string_equal(f.event.id, "0001…");
	frame_fini(&f);
}

/* §5.12 */
static void test_unknown_kinds(void **state)
{
	(void)state;
	struct frame f;
	decode_event("{\"id\":\"t1\",\"source\":\"hook\",\"prompt_token_ids\":[1,2],\"kind\":\"TokenEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_UNKNOWN);
	assert_string_equal(f.event.kind_name, "TokenEvent");
	assert_string_equal(f.event.id, "t1");
	assert_int_equal(f.event.source, SOURCE_HOOK);
	frame_fini(&f);

	decode_event("{\"id\":\"x\",\"source\":\"robot\",\"action\":{\"kind\":\"TerminalAction\",\"command\":\"ls\"},"
		     "\"llm_message\":{\"role\":\"user\",\"content\":\"hi\"}}", &f);
	assert_int_equal(f.event.kind, EVENT_UNKNOWN);
	assert_null(f.event.kind_name);
	assert_int_equal(f.event.source, SOURCE_UNKNOWN);
	assert_null(f.event.action_summary);
	/* Not decoded as a message or an action, but its fields are there in words. */
	assert_string_equal(f.event.label, "event");
	assert_string_equal(f.event.text, "action.kind: TerminalAction\naction.command: ls\n"
			    "llm_message.role: user\nllm_message.content: hi");
	frame_fini(&f);

	decode_event("{\"kind\":\"messageevent\",\"llm_message\":{\"role\":\"user\",\"content\":\"hi\"}}", &f);
	assert_int_equal(f.event.kind, EVENT_UNKNOWN);
	frame_fini(&f);

	decode_event("{\"kind\":[\"MessageEvent\"]}", &f);
	assert_int_equal(f.event.kind, EVENT_UNKNOWN);
	assert_null(f.event.kind_name);
	frame_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_message_agent),
		cmocka_unit_test(test_message_parts),
		cmocka_unit_test(test_message_reasoning),
		cmocka_unit_test(test_message_wrong_types_inside),
		cmocka_unit_test(test_action_terminal),
		cmocka_unit_test(test_action_summaries),
		cmocka_unit_test(test_action_summary_cap),
		cmocka_unit_test(test_action_detail_whole),
		cmocka_unit_test(test_action_risk_and_reasoning),
		cmocka_unit_test(test_observation),
		cmocka_unit_test(test_observation_exit_codes),
		cmocka_unit_test(test_run_status_typed),
		cmocka_unit_test(test_risk_typed),
		cmocka_unit_test(test_tool_names_typed),
		cmocka_unit_test(test_user_reject),
		cmocka_unit_test(test_agent_error),
		cmocka_unit_test(test_conversation_error),
		cmocka_unit_test(test_pause_interrupt),
		cmocka_unit_test(test_state_update),
		cmocka_unit_test(test_condensation),
		cmocka_unit_test(test_system_prompt),
		cmocka_unit_test(test_unknown_kinds),
		cmocka_unit_test(test_tree_fields),
		cmocka_unit_test(test_agent_and_policy_updates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
