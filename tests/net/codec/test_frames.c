/* frame_decode: every frame type of protocol.md §2, defaults, and hostile input. */
#include "codec_test.h"

#include <stdio.h>

static void test_sync_examples(void **state)
{
	(void)state;
	struct frame f;
	DECODE_OK("{\"type\":\"sync\",\"from_seq\":41,\"through_seq\":57}", &f);
	assert_int_equal(f.type, FRAME_SYNC);
	assert_string_equal(f.type_name, "sync");
	assert_true(f.has_from_seq);
	assert_int_equal(f.from_seq, 41);
	assert_true(f.has_through_seq);
	assert_int_equal(f.through_seq, 57);
	frame_fini(&f);

	DECODE_OK("{\"type\":\"sync\",\"through_seq\":57}", &f);
	assert_false(f.has_from_seq);
	assert_true(f.has_through_seq);
	assert_int_equal(f.through_seq, 57);
	frame_fini(&f);

	DECODE_OK("{\"type\":\"sync\",\"from_seq\":-1}", &f);
	assert_true(f.has_from_seq);
	assert_int_equal(f.from_seq, -1);
	assert_false(f.has_through_seq);
	frame_fini(&f);
}

/* §2.2 and test vector 1: the durable frame of one user message. */
static const char durable_hello[] =
	"{\"type\":\"durable\",\"seq\":0,\"event\":{\"id\":\"5d0f…\",\"timestamp\":\"2026-09-20T14:03:11.512345\","
	"\"source\":\"user\",\"llm_message\":{\"role\":\"user\",\"content\":[{\"cache_prompt\":false,"
	"\"type\":\"text\",\"text\":\"hello\"}],\"thinking_blocks\":[]},\"activated_skills\":[],"
	"\"extended_content\":[],\"kind\":\"MessageEvent\"}}";

static void test_durable_example(void **state)
{
	(void)state;
	struct frame f;
	DECODE_OK(durable_hello, &f);
	assert_int_equal(f.type, FRAME_DURABLE);
	assert_string_equal(f.type_name, "durable");
	assert_int_equal(f.seq, 0);
	assert_int_equal(f.event.kind, EVENT_MESSAGE);
	assert_string_equal(f.event.kind_name, "MessageEvent");
	assert_string_equal(f.event.id, "5d0f…");
	assert_string_equal(f.event.timestamp, "2026-09-20T14:03:11.512345");
	assert_int_equal(f.event.source, SOURCE_USER);
	assert_string_equal(f.event.role, "user");
	assert_string_equal(f.event.text, "hello");
	assert_null(f.event.reasoning);
	assert_int_equal(f.event.risk, RISK_ABSENT);
	assert_null(f.item_id);
	assert_int_equal(f.attempt, 0);

	/* The frame is compact on the wire, so raw is exactly the event's own bytes. */
	const char *ev = strstr(durable_hello, "\"event\":") + strlen("\"event\":");
	size_t ev_len = strlen(ev) - 1;
	assert_int_equal(raw_len_of(&f), ev_len);
	assert_memory_equal(raw_of(&f), ev, ev_len);
	assert_int_equal(raw_of(&f)[ev_len], '\0');
	frame_fini(&f);
}

static void test_durable_large_seq(void **state)
{
	(void)state;
	struct frame f;
	DECODE_OK("{\"type\":\"durable\",\"seq\":4294967297,\"event\":{}}", &f);
	assert_int_equal(f.seq, 4294967297LL);
	assert_int_equal(f.event.kind, EVENT_UNKNOWN);
	assert_string_equal(raw_of(&f), "{}");
	frame_fini(&f);
}

/* §2.3, and test vector 3 (a transient frame has no seq). */
static void test_transient_examples(void **state)
{
	(void)state;
	struct frame f;
	DECODE_OK("{\"type\":\"transient\",\"event\":{\"id\":\"a1b2…\",\"timestamp\":\"2026-09-20T14:03:12.000001\","
		  "\"source\":\"environment\",\"key\":\"full_state\",\"value\":{\"id\":\"0c9e…\","
		  "\"execution_status\":\"idle\",\"max_iterations\":500,\"stuck_detection\":true,"
		  "\"confirmation_policy\":{\"kind\":\"NeverConfirm\"},\"stats\":{},\"agent\":{}},"
		  "\"kind\":\"ConversationStateUpdateEvent\"}}", &f);
	assert_int_equal(f.type, FRAME_TRANSIENT);
	assert_int_equal(f.seq, 0);
	assert_int_equal(f.event.kind, EVENT_STATE_UPDATE);
	assert_int_equal(f.event.source, SOURCE_ENVIRONMENT);
	assert_string_equal(f.event.id, "a1b2…");
	assert_string_equal(f.event.state_key, "full_state");
	assert_string_equal(f.event.execution_status, "idle");
	frame_fini(&f);

	DECODE_OK("{\"type\":\"transient\",\"event\":{\"id\":\"e1\",\"source\":\"environment\","
		  "\"key\":\"execution_status\",\"value\":\"idle\",\"kind\":\"ConversationStateUpdateEvent\"}}",
		  &f);
	assert_int_equal(f.type, FRAME_TRANSIENT);
	assert_string_equal(f.event.state_key, "execution_status");
	assert_string_equal(f.event.execution_status, "idle");
	frame_fini(&f);
}

/* Test vector 11, frame by frame, plus the second delta of §2.5. */
static void test_progress_vector(void **state)
{
	(void)state;
	struct frame f;
	DECODE_OK("{\"type\":\"item_started\",\"item_id\":\"item-1\",\"attempt\":1,\"anchor_seq\":4}", &f);
	assert_int_equal(f.type, FRAME_ITEM_STARTED);
	assert_string_equal(f.item_id, "item-1");
	assert_int_equal(f.attempt, 1);
	assert_true(f.has_anchor_seq);
	assert_int_equal(f.anchor_seq, 4);
	frame_fini(&f);

	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"item-1\",\"attempt\":1,\"order\":0,\"kind\":\"reasoning\","
		  "\"content\":\"thinking\",\"chunk_id\":\"chatcmpl-9\",\"choice_index\":0}", &f);
	assert_int_equal(f.type, FRAME_DELTA);
	assert_string_equal(f.item_id, "item-1");
	assert_int_equal(f.attempt, 1);
	assert_int_equal(f.order, 0);
	assert_int_equal(f.delta_kind, DELTA_REASONING);
	assert_string_equal(f.content, "thinking");
	assert_int_equal(f.content_len, 8);
	assert_string_equal(f.chunk_id, "chatcmpl-9");
	assert_true(f.has_choice_index);
	assert_int_equal(f.choice_index, 0);
	frame_fini(&f);

	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"item-1\",\"attempt\":2,\"order\":1,\"kind\":\"text\","
		  "\"content\":\"Hello\"}", &f);
	assert_int_equal(f.attempt, 2);
	assert_int_equal(f.order, 1);
	assert_int_equal(f.delta_kind, DELTA_TEXT);
	assert_string_equal(f.content, "Hello");
	assert_int_equal(f.content_len, 5);
	assert_null(f.chunk_id);
	assert_false(f.has_choice_index);
	frame_fini(&f);

	DECODE_OK("{\"type\":\"item_aborted\",\"item_id\":\"item-1\",\"attempt\":1,\"reason\":\"cancelled\"}",
		  &f);
	assert_int_equal(f.type, FRAME_ITEM_ABORTED);
	assert_string_equal(f.item_id, "item-1");
	assert_int_equal(f.attempt, 1);
	assert_string_equal(f.reason, "cancelled");
	frame_fini(&f);
}

/* Fields with defaults read as the default when absent (or null); optional ones as absent. */
static void test_progress_defaults(void **state)
{
	(void)state;
	struct frame f;
	DECODE_OK("{\"type\":\"item_started\",\"item_id\":\"i\"}", &f);
	assert_int_equal(f.attempt, 1);
	assert_false(f.has_anchor_seq);
	frame_fini(&f);

	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"i\",\"order\":3,\"content\":\"x\"}", &f);
	assert_int_equal(f.attempt, 1);
	assert_int_equal(f.delta_kind, DELTA_TEXT);
	assert_null(f.chunk_id);
	assert_false(f.has_choice_index);
	frame_fini(&f);

	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"i\",\"attempt\":null,\"order\":3,\"content\":\"x\","
		  "\"kind\":null,\"chunk_id\":null,\"choice_index\":null}", &f);
	assert_int_equal(f.attempt, 1);
	assert_int_equal(f.delta_kind, DELTA_TEXT);
	assert_null(f.chunk_id);
	assert_false(f.has_choice_index);
	frame_fini(&f);

	DECODE_OK("{\"type\":\"item_aborted\",\"item_id\":\"i\",\"reason\":\"no_durable_event\"}", &f);
	assert_int_equal(f.attempt, 1);
	assert_string_equal(f.reason, "no_durable_event");
	frame_fini(&f);
}

/* §2.7 and test vector 10. */
static void test_error_frame(void **state)
{
	(void)state;
	struct frame f;
	DECODE_OK("{\"type\":\"error\",\"code\":\"JSONDecodeError\","
		  "\"detail\":\"Expecting value: line 1 column 1 (char 0)\"}", &f);
	assert_int_equal(f.type, FRAME_ERROR);
	assert_string_equal(f.code, "JSONDecodeError");
	assert_string_equal(f.detail, "Expecting value: line 1 column 1 (char 0)");
	frame_fini(&f);
}

static void test_unknown_type_and_fields(void **state)
{
	(void)state;
	struct frame f;
	DECODE_OK("{\"type\":\"heartbeat\",\"seq\":\"not checked\",\"x\":[1,2,{}]}", &f);
	assert_int_equal(f.type, FRAME_UNKNOWN);
	assert_string_equal(f.type_name, "heartbeat");
	assert_int_equal(f.seq, 0);
	frame_fini(&f);

	DECODE_OK("{\"future\":{\"a\":[true]},\"type\":\"item_started\",\"item_id\":\"i\",\"attempt\":3,"
		  "\"extra\":null,\"budget\":1.5}", &f);
	assert_int_equal(f.type, FRAME_ITEM_STARTED);
	assert_int_equal(f.attempt, 3);
	frame_fini(&f);

	/* A later duplicate of a key does not override the first one (cJSON keeps the first). */
	DECODE_OK("{\"type\":\"sync\",\"through_seq\":5,\"through_seq\":\"x\"}", &f);
	assert_int_equal(f.through_seq, 5);
	frame_fini(&f);
}

static void test_missing_fields(void **state)
{
	(void)state;
	static const struct {
		const char *json, *message;
	} cases[] = {
		{ "{}", "frame: missing \"type\"" },
		{ "{\"type\":null}", "frame: missing \"type\"" },
		{ "{\"type\":\"durable\",\"event\":{}}", "durable frame: missing \"seq\"" },
		{ "{\"type\":\"durable\",\"seq\":1}", "durable frame: missing \"event\"" },
		{ "{\"type\":\"transient\"}", "transient frame: missing \"event\"" },
		{ "{\"type\":\"item_started\",\"attempt\":1}", "item_started frame: missing \"item_id\"" },
		{ "{\"type\":\"delta\",\"order\":0,\"content\":\"x\"}", "delta frame: missing \"item_id\"" },
		{ "{\"type\":\"delta\",\"item_id\":\"i\",\"content\":\"x\"}", "delta frame: missing \"order\"" },
		{ "{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0}", "delta frame: missing \"content\"" },
		{ "{\"type\":\"item_aborted\",\"item_id\":\"i\"}", "item_aborted frame: missing \"reason\"" },
		{ "{\"type\":\"item_aborted\",\"reason\":\"x\"}", "item_aborted frame: missing \"item_id\"" },
		{ "{\"type\":\"error\",\"detail\":\"d\"}", "error frame: missing \"code\"" },
		{ "{\"type\":\"error\",\"code\":\"c\"}", "error frame: missing \"detail\"" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *msg = DECODE_FAILS(cases[i].json, CODEC_MISSING_FIELD);
		if (strcmp(msg, cases[i].message) != 0)
			fail_msg("%s: got \"%s\"", cases[i].json, msg);
	}
}

static void test_wrong_types(void **state)
{
	(void)state;
	static const struct {
		const char *json, *message;
	} cases[] = {
		{ "{\"type\":7}", "frame: \"type\" must be a string" },
		{ "{\"type\":\"durable\",\"seq\":\"3\",\"event\":{}}",
		  "durable frame: \"seq\" must be a non-negative integer" },
		{ "{\"type\":\"durable\",\"seq\":-1,\"event\":{}}",
		  "durable frame: \"seq\" must be a non-negative integer" },
		{ "{\"type\":\"durable\",\"seq\":1.5,\"event\":{}}",
		  "durable frame: \"seq\" must be a non-negative integer" },
		{ "{\"type\":\"durable\",\"seq\":1e300,\"event\":{}}",
		  "durable frame: \"seq\" must be a non-negative integer" },
		{ "{\"type\":\"durable\",\"seq\":1,\"event\":[]}", "durable frame: \"event\" must be an object" },
		{ "{\"type\":\"transient\",\"event\":\"x\"}", "transient frame: \"event\" must be an object" },
		{ "{\"type\":\"sync\",\"from_seq\":\"x\"}", "sync frame: \"from_seq\" must be an integer" },
		{ "{\"type\":\"sync\",\"through_seq\":true}", "sync frame: \"through_seq\" must be an integer" },
		{ "{\"type\":\"item_started\",\"item_id\":5}", "item_started frame: \"item_id\" must be a string" },
		{ "{\"type\":\"item_started\",\"item_id\":\"i\",\"attempt\":1.5}",
		  "item_started frame: \"attempt\" must be a positive integer" },
		{ "{\"type\":\"item_started\",\"item_id\":\"i\",\"attempt\":-1}",
		  "item_started frame: \"attempt\" must be a positive integer" },
		{ "{\"type\":\"item_started\",\"item_id\":\"i\",\"attempt\":0}",
		  "item_started frame: \"attempt\" must be a positive integer" },
		{ "{\"type\":\"item_started\",\"item_id\":\"i\",\"attempt\":4294967296}",
		  "item_started frame: \"attempt\" must be a positive integer" },
		{ "{\"type\":\"item_started\",\"item_id\":\"i\",\"attempt\":\"1\"}",
		  "item_started frame: \"attempt\" must be a positive integer" },
		{ "{\"type\":\"item_started\",\"item_id\":\"i\",\"anchor_seq\":0.5}",
		  "item_started frame: \"anchor_seq\" must be an integer" },
		{ "{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,\"content\":5}",
		  "delta frame: \"content\" must be a string" },
		{ "{\"type\":\"delta\",\"item_id\":\"i\",\"order\":-1,\"content\":\"x\"}",
		  "delta frame: \"order\" must be a non-negative integer" },
		{ "{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,\"content\":\"x\",\"kind\":\"image\"}",
		  "delta frame: \"kind\" must be \"text\" or \"reasoning\"" },
		{ "{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,\"content\":\"x\",\"kind\":1}",
		  "delta frame: \"kind\" must be a string" },
		{ "{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,\"content\":\"x\",\"chunk_id\":9}",
		  "delta frame: \"chunk_id\" must be a string" },
		{ "{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,\"content\":\"x\",\"choice_index\":\"0\"}",
		  "delta frame: \"choice_index\" must be an integer" },
		{ "{\"type\":\"delta\",\"item_id\":\"i\",\"attempt\":{},\"order\":0,\"content\":\"x\"}",
		  "delta frame: \"attempt\" must be a positive integer" },
		{ "{\"type\":\"item_aborted\",\"item_id\":\"i\",\"reason\":[]}",
		  "item_aborted frame: \"reason\" must be a string" },
		{ "{\"type\":\"error\",\"code\":1,\"detail\":\"d\"}", "error frame: \"code\" must be a string" },
		{ "{\"type\":\"error\",\"code\":\"c\",\"detail\":{}}", "error frame: \"detail\" must be a string" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *msg = DECODE_FAILS(cases[i].json, CODEC_WRONG_TYPE);
		if (strcmp(msg, cases[i].message) != 0)
			fail_msg("%s: got \"%s\"", cases[i].json, msg);
	}
}

static void test_every_prefix_is_malformed(void **state)
{
	(void)state;
	size_t n = strlen(durable_hello);
	for (size_t len = 0; len < n; len++)
		decode_fails(durable_hello, len, CODEC_MALFORMED_JSON, __FILE__, __LINE__);
}

static void test_malformed_messages(void **state)
{
	(void)state;
	const char *msg = DECODE_FAILS("{\"type\":\"sync\",}", CODEC_MALFORMED_JSON);
	assert_non_null(strstr(msg, "byte 15"));
	msg = DECODE_FAILS("{\"type\":\"sync\"} {}", CODEC_MALFORMED_JSON);
	assert_non_null(strstr(msg, "byte 16"));
	DECODE_FAILS("", CODEC_MALFORMED_JSON);
	DECODE_FAILS("   \n", CODEC_MALFORMED_JSON);
	DECODE_FAILS("nope", CODEC_MALFORMED_JSON);
	DECODE_FAILS("{\"type\":\"sync\"", CODEC_MALFORMED_JSON);

	struct codec_error err;
	struct frame f;
	assert_int_equal(frame_decode(NULL, 0, &f, &err), -1);
	assert_int_equal(err.status, CODEC_MALFORMED_JSON);
	assert_null(f.priv_);
}

static void test_surrounding_whitespace_and_unterminated_input(void **state)
{
	(void)state;
	struct frame f;
	DECODE_OK(" \r\n\t{\"type\":\"sync\"}\n", &f);
	assert_int_equal(f.type, FRAME_SYNC);
	frame_fini(&f);

	/* The length bounds the input: what follows it is not read. */
	static const char buffer[] = "{\"type\":\"error\",\"code\":\"c\",\"detail\":\"d\"}GARBAGE";
	struct codec_error err;
	assert_int_equal(frame_decode(buffer, sizeof buffer - 1 - strlen("GARBAGE"), &f, &err), 0);
	assert_int_equal(f.type, FRAME_ERROR);
	assert_string_equal(f.detail, "d");
	frame_fini(&f);
}

static void test_not_object(void **state)
{
	(void)state;
	static const char *const cases[] = { "[]", "[{\"type\":\"sync\"}]", "\"sync\"", "42", "null", "true" };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		DECODE_FAILS(cases[i], CODEC_NOT_OBJECT);
}

static void test_strange_strings_decode(void **state)
{
	(void)state;
	struct frame f;
	/* An escaped NUL would end a cJSON string and lose the rest: it reads as U+FFFD. */
	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,\"content\":\"ab\\u0000cd\"}", &f);
	assert_string_equal(f.content, "ab\xef\xbf\xbd" "cd");
	assert_int_equal(f.content_len, 7);
	frame_fini(&f);
	/* A lone surrogate escape would make cJSON refuse the whole frame: U+FFFD too; a proper
	 * pair, and an escaped backslash before "u0000", are left alone. */
	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,"
		  "\"content\":\"x\\ud800y\\uDC00z\\ud83d\\ude00\\\\u0000\"}", &f);
	assert_string_equal(f.content, "x\xef\xbf\xbdy\xef\xbf\xbdz\xf0\x9f\x98\x80\\u0000");
	frame_fini(&f);

	/* Raw bytes that are not UTF-8 pass through unchanged: sanitizing is the renderer's job. */
	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"\xff\",\"order\":0,\"content\":\"a\xc0\xafz\xed\xa0\x80\"}", &f);
	assert_string_equal(f.item_id, "\xff");
	assert_string_equal(f.content, "a\xc0\xafz\xed\xa0\x80");
	assert_int_equal(f.content_len, 7);
	frame_fini(&f);

	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,\"content\":\"\\ud83d\\ude00 \\\"q\\\" \\n\"}", &f);
	assert_string_equal(f.content, "\xf0\x9f\x98\x80 \"q\" \n");
	frame_fini(&f);
}

/* MAX_FRAME_BYTES is 4 MiB (§1.4): a delta of that much content must decode. */
static void test_four_mib_delta(void **state)
{
	(void)state;
	const size_t content = (size_t)4 << 20;
	const char head[] = "{\"type\":\"delta\",\"item_id\":\"big\",\"order\":7,\"content\":\"";
	const char tail[] = "\"}";
	size_t len = sizeof head - 1 + content + sizeof tail - 1;
	char *json = malloc(len);
	memcpy(json, head, sizeof head - 1);
	for (size_t i = 0; i < content; i++)
		json[sizeof head - 1 + i] = (char)('a' + i % 26);
	memcpy(json + sizeof head - 1 + content, tail, sizeof tail - 1);

	struct frame f;
	struct codec_error err;
	assert_int_equal(frame_decode(json, len, &f, &err), 0);
	free(json);
	assert_int_equal(f.type, FRAME_DELTA);
	assert_int_equal(f.content_len, content);
	assert_int_equal(f.content[0], 'a');
	assert_int_equal(f.content[content - 1], 'a' + (content - 1) % 26);
	frame_fini(&f);
}

static char *nested(const char *head, size_t depth, const char *tail, size_t *len)
{
	size_t h = strlen(head), t = strlen(tail);
	*len = h + 2 * depth + t;
	char *json = malloc(*len);
	memcpy(json, head, h);
	memset(json + h, '[', depth);
	memset(json + h + depth, ']', depth);
	memcpy(json + h + 2 * depth, tail, t);
	return json;
}

static void test_deep_nesting(void **state)
{
	(void)state;
	size_t len;
	char *json = nested("", 10000, "", &len);
	decode_fails(json, len, CODEC_MALFORMED_JSON, __FILE__, __LINE__);
	free(json);

	json = nested("{\"type\":\"durable\",\"seq\":1,\"event\":{\"kind\":\"MessageEvent\",\"x\":", 10000,
		      "}}", &len);
	decode_fails(json, len, CODEC_MALFORMED_JSON, __FILE__, __LINE__);
	free(json);

	/* Within the limit, depth is fine. */
	json = nested("{\"type\":\"durable\",\"seq\":1,\"event\":{\"kind\":\"MessageEvent\",\"x\":", 900,
		      "}}", &len);
	struct frame f;
	struct codec_error err;
	assert_int_equal(frame_decode(json, len, &f, &err), 0);
	free(json);
	assert_int_equal(raw_len_of(&f), len - strlen("{\"type\":\"durable\",\"seq\":1,\"event\":") - 1);
	frame_fini(&f);
}

static void test_too_large(void **state)
{
	(void)state;
	/* Never touched: the size is refused before reading. */
	size_t len = ((size_t)64 << 20) + 1;
	char *json = calloc(1, len);
	struct frame f;
	struct codec_error err;
	assert_int_equal(frame_decode(json, len, &f, &err), -1);
	assert_int_equal(err.status, CODEC_TOO_LARGE);
	assert_null(f.priv_);
	free(json);
}

static void test_fini(void **state)
{
	(void)state;
	struct frame f;
	memset(&f, 0, sizeof f);
	frame_fini(&f);
	DECODE_OK(durable_hello, &f);
	frame_fini(&f);
	assert_null(f.priv_);
	assert_null(f.event.text);
	frame_fini(&f);
}

static void upper(void *ctx, const char *s, size_t len, struct buf *out)
{
	(void)ctx;
	for (size_t i = 0; i < len; i++)
		buf_putc(out, (s[i] >= 'a' && s[i] <= 'z') ? (char)(s[i] - 32) : s[i]);
}

/* The event JSON is made on demand, and rewriting the decoded tree gives exactly what
 * rewriting that JSON text gives. */
static void test_event_json_and_rewrite(void **state)
{
	(void)state;
	static const char frame[] =
		"{\"type\":\"durable\",\"seq\":3,\"event\":{\"id\":\"e1\",\"source\":\"agent\","
		"\"n\":[1,2.5,-3e2,true,null],\"nested\":{\"key\":\"v\\u0007al\"},\"kind\":\"X\"}}";
	struct frame f;
	struct codec_error err;
	assert_int_equal(frame_decode(frame, sizeof frame - 1, &f, &err), 0);
	size_t len;
	const char *json = frame_event_json(&f, &len);
	assert_non_null(json);
	assert_ptr_equal(frame_event_json(&f, &len), json); /* made once */
	struct buf a, b;
	buf_init(&a);
	buf_init(&b);
	assert_int_equal(frame_event_rewrite(&f, upper, NULL, &a), 0);
	assert_int_equal(json_rewrite_strings(json, len, upper, NULL, &b, &err), 0);
	assert_string_equal(buf_cstr(&a), buf_cstr(&b));
	assert_non_null(strstr(buf_cstr(&a), "\"NESTED\":{\"KEY\":\"V\\u0007AL\"}"));
	buf_fini(&a);
	buf_fini(&b);
	frame_fini(&f);
	static const char delta[] = "{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,\"content\":\"x\"}";
	assert_int_equal(frame_decode(delta, sizeof delta - 1, &f, &err), 0);
	assert_null(frame_event_json(&f, &len));
	assert_int_equal(len, 0);
	buf_init(&a);
	assert_int_equal(frame_event_rewrite(&f, NULL, NULL, &a), -1);
	buf_fini(&a);
	frame_fini(&f);
}

/* The ndjson durable line is built from frame_event_rewrite: a stats update keeps 0.0 and 8.0
 * as sent (issue 13 point 7), also when escapes had to be mended. */
static void test_event_numbers_keep_their_text(void **state)
{
	(void)state;
	static const char *const frames[] = {
		"{\"type\":\"durable\",\"seq\":3,\"event\":{\"id\":\"e1\",\"key\":\"stats\",\"value\":{"
		"\"accumulated_cost\":0.0,\"retry_multiplier\":8.0,\"tokens\":1371,\"t\":1.50},"
		"\"kind\":\"ConversationStateUpdateEvent\"}}",
		"{\"type\":\"transient\",\"event\":{\"id\":\"e2\",\"x\":\"a\\u0000b\",\"value\":{"
		"\"accumulated_cost\":0.0,\"retry_multiplier\":8.0,\"tokens\":1371,\"t\":1.50},"
		"\"kind\":\"ConversationStateUpdateEvent\"}}",
	};
	for (size_t i = 0; i < 2; i++) {
		struct frame f;
		DECODE_OK(frames[i], &f);
		size_t len;
		const char *json = frame_event_json(&f, &len);
		assert_non_null(strstr(json, "{\"accumulated_cost\":0.0,\"retry_multiplier\":8.0,"
					     "\"tokens\":1371,\"t\":1.50}"));
		struct buf b;
		buf_init(&b);
		assert_int_equal(frame_event_rewrite(&f, NULL, NULL, &b), 0);
		assert_string_equal(buf_cstr(&b), json);
		buf_fini(&b);
		frame_fini(&f);
	}
}

/* Keys are matched as cJSON matches them (C strings, up to a raw NUL): the event found by the
 * decoder is the one re-serialized (found by fuzzing). */
static void test_event_key_with_raw_nul(void **state)
{
	(void)state;
	static const char frame[] = "{\"type\":\"durable\",\"seq\":4,\"event\0junk\":{\"id\":\"e\0x\",\"n\":1.0,"
				    "\"kind\":\"PauseEvent\"}}";
	struct frame f;
	struct codec_error err;
	assert_int_equal(decode_copy(frame, sizeof frame - 1, &f, &err), 0);
	assert_int_equal(f.event.kind, EVENT_PAUSE);
	size_t len;
	const char *json = frame_event_json(&f, &len);
	assert_non_null(json);
	assert_string_equal(json, "{\"id\":\"e\xef\xbf\xbdx\",\"n\":1.0,\"kind\":\"PauseEvent\"}");
	frame_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_examples),
		cmocka_unit_test(test_durable_example),
		cmocka_unit_test(test_durable_large_seq),
		cmocka_unit_test(test_transient_examples),
		cmocka_unit_test(test_progress_vector),
		cmocka_unit_test(test_progress_defaults),
		cmocka_unit_test(test_error_frame),
		cmocka_unit_test(test_unknown_type_and_fields),
		cmocka_unit_test(test_missing_fields),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_every_prefix_is_malformed),
		cmocka_unit_test(test_malformed_messages),
		cmocka_unit_test(test_surrounding_whitespace_and_unterminated_input),
		cmocka_unit_test(test_not_object),
		cmocka_unit_test(test_strange_strings_decode),
		cmocka_unit_test(test_four_mib_delta),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_fini),
		cmocka_unit_test(test_event_json_and_rewrite),
		cmocka_unit_test(test_event_numbers_keep_their_text),
		cmocka_unit_test(test_event_key_with_raw_nul),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
