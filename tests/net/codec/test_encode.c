/* Client messages (protocol.md §1.2, §3, §4) and the conversation list decoder. */
#include "codec_test.h"
#include "codec_int.h"

#include <cjson/cJSON.h>

static void test_auth_frame(void **state)
{
	(void)state;
	char *s = frame_encode_auth("sk-abc\"1\\");
	assert_string_equal(s, "{\"type\":\"auth\",\"session_api_key\":\"sk-abc\\\"1\\\\\"}");
	free(s);
}

static void test_user_message_exact(void **state)
{
	(void)state;
	char *s = frame_encode_user_message("Please run the tests");
	assert_string_equal(s, "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Please run the tests\"}]}");
	free(s);
	s = rest_encode_user_message("Flip a coin!");
	assert_string_equal(s, "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Flip a coin!\"}],\"run\":true}");
	free(s);
	s = frame_encode_user_message("");
	assert_string_equal(s, "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"\"}]}");
	free(s);
}

/* The text round-trips through a JSON parser, whatever it holds. */
static void expect_text_round_trip(const char *text, const char *expected)
{
	char *encoded[2] = { frame_encode_user_message(text), rest_encode_user_message(text) };
	for (int i = 0; i < 2; i++) {
		cJSON *msg = cJSON_Parse(encoded[i]);
		assert_non_null(msg);
		assert_string_equal(cJSON_GetObjectItemCaseSensitive(msg, "role")->valuestring, "user");
		const cJSON *part = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(msg, "content"), 0);
		assert_string_equal(cJSON_GetObjectItemCaseSensitive(part, "type")->valuestring, "text");
		assert_string_equal(cJSON_GetObjectItemCaseSensitive(part, "text")->valuestring, expected);
		assert_int_equal(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "run")), i == 1);
		cJSON_Delete(msg);
		free(encoded[i]);
	}
}

static void test_user_message_escaping(void **state)
{
	(void)state;
	expect_text_round_trip("line 1\nline \"2\"\t\\ é 你好 😀", "line 1\nline \"2\"\t\\ é 你好 😀");
	/* A text frame must be valid UTF-8 (RFC 6455): bad bytes become U+FFFD. */
	expect_text_round_trip("bad \xff byte", "bad \xef\xbf\xbd byte");
	expect_text_round_trip("\x1b[31mred", "\x1b[31mred");

	char *s = frame_encode_user_message("a\nb");
	assert_string_equal(s, "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\\u000ab\"}]}");
	free(s);
}

static void test_conversation_page(void **state)
{
	(void)state;
	const char json[] =
		"{\"items\":[{\"id\":\"c1\",\"title\":\"Fix tests\",\"execution_status\":\"idle\","
		"\"created_at\":\"2026-09-20T10:00:00\",\"updated_at\":\"2026-09-20T11:00:00\",\"stats\":{},"
		"\"confirmation_policy\":{\"kind\":\"NeverConfirm\"}},"
		"{\"id\":\"c2\",\"title\":null,\"execution_status\":\"running\",\"created_at\":\"2026-09-19T09:00:00\","
		"\"confirmation_policy\":{\"kind\":\"ConfirmRisky\",\"threshold\":\"HIGH\",\"confirm_unknown\":true}},"
		"{\"title\":\"no id: skipped\"},"
		"{\"id\":\"c3\",\"confirmation_policy\":{\"kind\":\"AlwaysConfirm\"}}],\"next_page_id\":\"p2\"}";
	struct conversation_info *items;
	size_t count;
	char *next;
	struct codec_error err;
	assert_int_equal(conversation_list_decode(json, strlen(json), &items, &count, &next, &err), 0);
	assert_int_equal(count, 3);
	assert_string_equal(items[0].id, "c1");
	assert_string_equal(items[0].title, "Fix tests");
	assert_string_equal(items[0].execution_status, "idle");
	assert_int_equal(items[0].run_status, RUN_STATUS_IDLE);
	assert_string_equal(items[0].updated_at, "2026-09-20T11:00:00");
	assert_string_equal(items[1].id, "c2");
	assert_null(items[1].title);
	assert_string_equal(items[1].execution_status, "running");
	assert_int_equal(items[1].run_status, RUN_STATUS_RUNNING);
	assert_string_equal(items[1].updated_at, "2026-09-19T09:00:00");
	assert_string_equal(items[2].id, "c3");
	assert_null(items[2].title);
	assert_null(items[2].execution_status);
	assert_int_equal(items[2].run_status, RUN_STATUS_ABSENT);
	assert_null(items[2].updated_at);
	/* the policy: tether goal asks under one that confirms */
	assert_true(items[0].has_policy && items[0].policy == CONFIRMATION_POLICY_NEVER);
	assert_true(items[1].has_policy && items[1].policy == CONFIRMATION_POLICY_RISKY);
	assert_true(items[2].has_policy && items[2].policy == CONFIRMATION_POLICY_ALWAYS);
	assert_string_equal(next, "p2");
	conversation_infos_free(items, count);
	free(next);
}

static void test_conversation_last_page_and_single(void **state)
{
	(void)state;
	struct conversation_info *items;
	size_t count;
	char *next;
	struct codec_error err;
	const char *json = "{\"items\":[],\"next_page_id\":null}";
	assert_int_equal(conversation_list_decode(json, strlen(json), &items, &count, &next, &err), 0);
	assert_int_equal(count, 0);
	assert_null(next);
	conversation_infos_free(items, count);

	json = "{\"id\":\"0c9e\",\"title\":\"One\",\"execution_status\":\"paused\",\"updated_at\":\"u\"}";
	assert_int_equal(conversation_list_decode(json, strlen(json), &items, &count, &next, &err), 0);
	assert_int_equal(count, 1);
	assert_string_equal(items[0].id, "0c9e");
	assert_string_equal(items[0].title, "One");
	assert_string_equal(items[0].execution_status, "paused");
	assert_int_equal(items[0].run_status, RUN_STATUS_PAUSED);
	assert_string_equal(items[0].updated_at, "u");
	assert_false(items[0].has_policy); /* none named: upstream's default, NeverConfirm */
	assert_null(next);
	conversation_infos_free(items, count);

	assert_int_equal(conversation_list_decode(json, strlen(json), &items, &count, NULL, &err), 0);
	conversation_infos_free(items, count);
}

static void test_conversation_errors(void **state)
{
	(void)state;
	static const struct {
		const char *json;
		enum codec_status status;
	} cases[] = {
		{ "", CODEC_MALFORMED_JSON },
		{ "{\"items\":[", CODEC_MALFORMED_JSON },
		{ "[]", CODEC_NOT_OBJECT },
		{ "{\"items\":{}}", CODEC_WRONG_TYPE },
		{ "{\"detail\":\"Not Found\"}", CODEC_MISSING_FIELD },
		{ "{\"id\":5}", CODEC_MISSING_FIELD },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct conversation_info *items = (void *)1;
		size_t count = 99;
		char *next = (void *)1;
		struct codec_error err;
		assert_int_equal(conversation_list_decode(cases[i].json, strlen(cases[i].json), &items, &count,
							  &next, &err), -1);
		assert_int_equal(err.status, cases[i].status);
		assert_true(err.message[0] != '\0');
		assert_null(items);
		assert_int_equal(count, 0);
		assert_null(next);
	}
}

static void shout(void *ctx, const char *s, size_t len, struct buf *out)
{
	(void)ctx;
	for (size_t i = 0; i < len; i++)
		buf_putc(out, s[i] >= 'a' && s[i] <= 'z' ? (char)(s[i] - 32) : s[i]);
}

/* --record's delta line: the wire frame with the caller's item id and content, the chunk id
 * through fn, and what it encodes decodes back to the same frame. */
static void test_delta_encode(void **state)
{
	(void)state;
	struct frame f, back;
	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"it-1\",\"attempt\":2,\"order\":7,"
		  "\"kind\":\"reasoning\",\"content\":\"raw\",\"chunk_id\":\"chatcmpl-9\","
		  "\"choice_index\":0}", &f);
	struct buf b;
	buf_init(&b);
	frame_encode_delta(&f, "it \"1\"", "a\nb\x1b", 4, shout, NULL, &b);
	assert_string_equal(buf_cstr(&b),
			    "{\"type\":\"delta\",\"item_id\":\"it \\\"1\\\"\",\"attempt\":2,\"order\":7,"
			    "\"kind\":\"reasoning\",\"content\":\"a\\u000ab\\u001b\","
			    "\"chunk_id\":\"CHATCMPL-9\",\"choice_index\":0}");
	DECODE_OK(buf_cstr(&b), &back);
	assert_int_equal(back.type, FRAME_DELTA);
	assert_string_equal(back.item_id, "it \"1\"");
	assert_int_equal(back.attempt, 2);
	assert_int_equal(back.order, 7);
	assert_int_equal(back.delta_kind, DELTA_REASONING);
	assert_int_equal(back.content_len, 4);
	assert_memory_equal(back.content, "a\nb\x1b", 4);
	assert_string_equal(back.chunk_id, "CHATCMPL-9");
	assert_true(back.has_choice_index);
	frame_fini(&back);
	frame_fini(&f);

	/* Without chunk_id and choice_index, and without fn. */
	DECODE_OK("{\"type\":\"delta\",\"item_id\":\"x\",\"order\":0,\"kind\":\"text\","
		  "\"content\":\"hi\"}", &f);
	buf_clear(&b);
	frame_encode_delta(&f, "x", "hi", 2, NULL, NULL, &b);
	assert_string_equal(buf_cstr(&b), "{\"type\":\"delta\",\"item_id\":\"x\",\"attempt\":1,"
					  "\"order\":0,\"kind\":\"text\",\"content\":\"hi\"}");
	frame_fini(&f);
	buf_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auth_frame),
		cmocka_unit_test(test_user_message_exact),
		cmocka_unit_test(test_user_message_escaping),
		cmocka_unit_test(test_conversation_page),
		cmocka_unit_test(test_conversation_last_page_and_single),
		cmocka_unit_test(test_conversation_errors),
		cmocka_unit_test(test_delta_encode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
