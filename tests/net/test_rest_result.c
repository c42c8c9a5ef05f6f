/* The typed answers of REST calls (net/api.c's table): what each status means for each call,
 * and each call's answer decoded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "net.h"

/* The answer decode last decoded. */
static struct rest_response raw_answer;

/* Decodes body as call's answer with status into *r (free with rest_result_fini). */
static void decode(enum rest_call call, int status, const char *body, struct rest_result *r)
{
	raw_answer = (struct rest_response){ .status = status, .body = body,
					     .body_len = body ? strlen(body) : 0 };
	rest_result_decode(call, &raw_answer, r);
}

/* The outcome of call for an answer with status and body (NULL: none). */
static enum rest_outcome outcome_of(enum rest_call call, int status, const char *body)
{
	struct rest_result r;
	decode(call, status, body, &r);
	assert_int_equal(r.call, call);
	assert_ptr_equal(r.raw, &raw_answer);
	enum rest_outcome o = r.outcome;
	rest_result_fini(&r);
	return o;
}

/* One call's answer and the outcome it should read as. */
struct outcome_case {
	enum rest_call call;
	int status;
	const char *body;
	enum rest_outcome outcome;
};

/* 404 names the conversation, but of a route that older servers lack; 409 and 422 are the
 * state and the values; 401 and 403 the key; no status is no answer. */
static void test_statuses(void **state)
{
	(void)state;
	for (int c = 0; c < REST_CALL_COUNT; c++) {
		assert_int_equal(outcome_of(c, 0, NULL), REST_NO_ANSWER);
		assert_int_equal(outcome_of(c, 401, NULL), REST_AUTH);
		assert_int_equal(outcome_of(c, 403, "{}"), REST_AUTH);
		assert_int_equal(outcome_of(c, 405, NULL), REST_UNSUPPORTED);
		assert_int_equal(outcome_of(c, 409, NULL), REST_CONFLICT);
		assert_int_equal(outcome_of(c, 422, "{\"detail\":[]}"), REST_INVALID);
		assert_int_equal(outcome_of(c, 500, NULL), REST_HTTP_ERROR);
		assert_int_equal(outcome_of(c, 302, NULL), REST_HTTP_ERROR);
	}
	static const struct outcome_case cases[] = {
		{ REST_GET_CONVERSATION, 404, NULL, REST_NOT_FOUND },
		{ REST_PAUSE, 404, NULL, REST_NOT_FOUND },
		{ REST_RUN, 404, NULL, REST_NOT_FOUND },
		{ REST_SEARCH_EVENTS, 404, NULL, REST_NOT_FOUND },
		{ REST_SET_CONFIRMATION_POLICY, 404, NULL, REST_UNSUPPORTED },
		{ REST_COUNT_EVENTS, 404, NULL, REST_UNSUPPORTED },
		{ REST_SEARCH_CONVERSATIONS, 404, NULL, REST_NOT_FOUND },
		/* a call without an answer to decode: any 2xx body is fine */
		{ REST_PAUSE, 200, "{\"success\":true}", REST_OK },
		{ REST_SEND_MESSAGE, 204, NULL, REST_OK },
		{ REST_RUN, 200, "not json", REST_OK },
		/* upstream's odd statuses (issue 25): PATCH of an unknown conversation answers 200
		 * {"success":false}, DELETE 400, ask_agent 500; 400 elsewhere is a refusal in
		 * words; a route older servers lack answers 404 */
		{ REST_RENAME, 200, "{\"success\":false}", REST_NOT_FOUND },
		{ REST_RENAME, 200, "{\"success\":true}", REST_OK },
		{ REST_RENAME, 200, "{}", REST_BAD_BODY },
		{ REST_RENAME, 200, "{\"success\":\"yes\"}", REST_BAD_BODY },
		{ REST_RENAME, 200, "<html>", REST_BAD_BODY },
		{ REST_DELETE, 400, "{\"detail\":\"Bad Request\"}", REST_NOT_FOUND },
		{ REST_DELETE, 200, "{\"success\":true}", REST_OK },
		{ REST_GOAL_RESUME, 400, "{\"detail\":\"no_resumable_goal\"}", REST_REFUSED },
		{ REST_SWITCH_PROFILE, 400, "{\"detail\":\"bad\"}", REST_REFUSED },
		{ REST_ASK_AGENT, 500, NULL, REST_HTTP_ERROR },
		{ REST_FORK, 404, NULL, REST_NOT_FOUND },
		{ REST_NAVIGATE, 404, NULL, REST_NOT_FOUND },
		{ REST_START_CONVERSATION, 404, NULL, REST_NOT_FOUND },
		{ REST_LIST_AGENT_PROFILES, 404, NULL, REST_UNSUPPORTED },
		{ REST_LIST_LLM_PROFILES, 404, NULL, REST_UNSUPPORTED },
		{ REST_SET_SECURITY_ANALYZER, 404, NULL, REST_UNSUPPORTED },
		{ REST_SERVER_INFO, 404, NULL, REST_UNSUPPORTED },
		{ REST_GOAL_STOP, 200, "{\"success\":true}", REST_OK },
		{ REST_CONDENSE, 200, "{\"success\":true}", REST_OK },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		assert_int_equal(outcome_of(cases[i].call, cases[i].status, cases[i].body),
				 cases[i].outcome);
}

static void test_bad_bodies(void **state)
{
	static const enum rest_call decoded[] = {
		REST_GET_CONVERSATION, REST_SEARCH_CONVERSATIONS, REST_SEARCH_CONVERSATIONS_NEWEST,
		REST_SEARCH_EVENTS, REST_COUNT_EVENTS,
	};
	(void)state;
	for (size_t i = 0; i < sizeof decoded / sizeof *decoded; i++) {
		assert_int_equal(outcome_of(decoded[i], 200, NULL), REST_BAD_BODY);
		assert_int_equal(outcome_of(decoded[i], 200, "<html>"), REST_BAD_BODY);
		assert_int_equal(outcome_of(decoded[i], 200, "[1]"), REST_BAD_BODY);
	}
	struct rest_result r;
	decode(REST_COUNT_EVENTS, 200, "-3", &r);
	assert_int_equal(r.outcome, REST_BAD_BODY);
	assert_int_equal(r.err.status, CODEC_WRONG_TYPE);
	rest_result_fini(&r);
}

static void test_typed_answers(void **state)
{
	(void)state;
	struct rest_result r;
	decode(REST_COUNT_EVENTS, 200, "42", &r);
	assert_int_equal(r.count, 42);
	rest_result_fini(&r);

	decode(REST_GET_CONVERSATION, 200,
	       "{\"id\":\"c1\",\"title\":\"T\",\"execution_status\":\"waiting_for_confirmation\"}",
	       &r);
	assert_int_equal(r.conversations.count, 1);
	assert_string_equal(r.conversations.items[0].id, "c1");
	assert_int_equal(r.conversations.items[0].run_status, RUN_STATUS_WAITING_FOR_CONFIRMATION);
	assert_null(r.conversations.next_page_id);
	rest_result_fini(&r);
	assert_null(r.conversations.items);

	decode(REST_SEARCH_CONVERSATIONS_NEWEST, 200,
	       "{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"next_page_id\":\"p2\"}", &r);
	assert_int_equal(r.conversations.count, 2);
	assert_string_equal(r.conversations.items[1].id, "b");
	assert_string_equal(r.conversations.next_page_id, "p2");
	rest_result_fini(&r);

	decode(REST_SEARCH_EVENTS, 200,
	       "{\"items\":[{\"id\":\"e1\",\"kind\":\"PauseEvent\",\"source\":\"user\"},7],"
	       "\"next_page_id\":null}", &r);
	assert_int_equal(r.events.count, 1);
	assert_int_equal(r.events.skipped, 1);
	assert_int_equal(r.events.events[0].kind, EVENT_PAUSE);
	assert_null(r.events.next_page_id);
	/* a caller that keeps the page moves it out */
	struct event_page kept = r.events;
	memset(&r.events, 0, sizeof r.events);
	rest_result_fini(&r);
	assert_string_equal(kept.events[0].id, "e1");
	event_page_fini(&kept);
}

/* decode, of an answer that reads as REST_OK. */
static void decode_ok(enum rest_call call, int status, const char *body, struct rest_result *r)
{
	decode(call, status, body, r);
	assert_int_equal(r->outcome, REST_OK);
}

/* The server's words from an error body: its detail, a 5xx's exception, a 422's first
 * message with its field; nothing from a body that is not one. */
static void test_error_detail(void **state)
{
	static const struct {
		int status;
		const char *body, *detail;
	} cases[] = {
		{ 404, "{\"detail\":\"Unknown from_event_id: e9\"}", "Unknown from_event_id: e9" },
		{ 500, "{\"detail\":\"Internal Server Error\",\"exception\":\"Cannot condense "
		       "conversation: No condenser configured.\",\"error_id\":\"ab\"}",
		  "Cannot condense conversation: No condenser configured." },
		{ 422, "{\"detail\":[{\"type\":\"string_too_short\",\"loc\":[\"body\",\"title\"],"
		       "\"msg\":\"String should have at least 1 character\"}]}",
		  "title: String should have at least 1 character" },
		{ 422, "{\"detail\":{\"message\":\"dangling MCP server\",\"dangling_mcp_server_refs\":[]}}",
		  "dangling MCP server" },
		{ 409, "{\"detail\":\"credential_binding_activation_required\",\"retryable\":true}",
		  "credential_binding_activation_required" },
		{ 502, "<html>bad gateway</html>", NULL },
		{ 500, NULL, NULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct rest_result r;
		decode(REST_CONDENSE, cases[i].status, cases[i].body, &r);
		if (cases[i].detail)
			assert_string_equal(r.detail, cases[i].detail);
		else
			assert_null(r.detail);
		rest_result_fini(&r);
		assert_null(r.detail);
	}
	/* a 2xx has no detail */
	struct rest_result ok;
	decode(REST_CONDENSE, 200, "{\"detail\":\"x\",\"success\":true}", &ok);
	assert_null(ok.detail);
	rest_result_fini(&ok);
}

/* /server_info's version: MAJOR.MINOR.PATCH with suffixes tolerated, "unknown" unknown, a
 * body without a string version is not the answer. */
static void test_server_info(void **state)
{
	struct rest_result r;
	(void)state;
	decode_ok(REST_SERVER_INFO, 200, "{\"uptime\":5321.0,\"title\":\"OpenHands Agent Server\","
	       "\"version\":\"1.43.1\",\"docs\":\"/docs\"}", &r);
	assert_true(r.version.known);
	assert_int_equal(r.version.major, 1);
	assert_int_equal(r.version.minor, 43);
	assert_int_equal(r.version.patch, 1);
	assert_string_equal(r.version.text, "1.43.1");
	rest_result_fini(&r);
	decode_ok(REST_SERVER_INFO, 200, "{\"version\":\"unknown\"}", &r);
	assert_false(r.version.known);
	assert_string_equal(r.version.text, "unknown");
	rest_result_fini(&r);

	struct server_version v;
	server_version_parse("1.44.0rc1", &v);
	assert_true(v.known);
	assert_int_equal(v.minor, 44);
	server_version_parse("2.0.0.dev0", &v);
	assert_true(v.known);
	assert_int_equal(v.major, 2);
	server_version_parse("1.x", &v);
	assert_false(v.known);
	server_version_parse("1.2.3\x1b[31m", &v);
	assert_null(strchr(v.text, '\x1b'));
	server_version_parse(NULL, &v);
	assert_false(v.known);
	assert_string_equal(v.text, "");
}

/* A body that is not the answer says what is wrong with it: not an object, a member missing
 * or of another type (null only where the answer allows it). */
static void test_bad_body_words(void **state)
{
	static const struct {
		enum rest_call call;
		const char *body, *words;
	} cases[] = {
		{ REST_SERVER_INFO, "[1]", "server info: not a JSON object" },
		{ REST_SERVER_INFO, "{\"title\":\"x\"}", "server info: missing \"version\"" },
		{ REST_SERVER_INFO, "{\"version\":null}", "server info: \"version\" must be a string" },
		{ REST_SERVER_INFO, "{\"version\":1.4}", "server info: \"version\" must be a string" },
		{ REST_RENAME, "{\"success\":\"yes\"}", "answer: \"success\" must be a boolean" },
		{ REST_LIST_AGENT_PROFILES, "{\"profiles\":{}}",
		  "agent profiles: \"profiles\" must be an array" },
		{ REST_LIST_LLM_PROFILES, "[]", "LLM profiles: not a JSON object" },
		{ REST_ASK_AGENT, "{\"response\":null}", "answer: \"response\" must be a string" },
		{ REST_NAVIGATE, "{\"success\":true}", "conversation: missing \"id\"" },
		{ REST_LIST_AGENT_PROFILES, "{\"profiles\":[],\"active_agent_profile_id\":3}",
		  "agent profiles: \"active_agent_profile_id\" must be a string" },
		{ REST_SEARCH_EVENTS, "{\"items\":[],\"next_page_id\":7}",
		  "event page: \"next_page_id\" must be a string" },
		{ REST_SEARCH_CONVERSATIONS, "{\"items\":null}",
		  "conversation list: \"items\" must be an array" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct rest_result r;
		decode(cases[i].call, 200, cases[i].body, &r);
		assert_int_equal(r.outcome, REST_BAD_BODY);
		assert_string_equal(r.err.message, cases[i].words);
		rest_result_fini(&r);
	}
	/* null where it is allowed: no active profile, the last page */
	struct rest_result r;
	decode_ok(REST_LIST_LLM_PROFILES, 200, "{\"profiles\":[],\"active_profile\":null}", &r);
	rest_result_fini(&r);
	decode_ok(REST_SEARCH_EVENTS, 200, "{\"items\":[],\"next_page_id\":null}", &r);
	rest_result_fini(&r);
}

/* Which calls a server of a version has (upstream's first releases), fork from an event
 * only from 1.31 (older servers ignore from_event_id and fork everything). */
static void test_available(void **state)
{
	struct server_version v;
	struct rest_args whole = { .id = "c" }, from = { .id = "c", .event_id = "e1" };
	(void)state;
	server_version_parse("1.30.0", &v);
	assert_true(rest_call_available(REST_FORK, &whole, &v));
	assert_false(rest_call_available(REST_FORK, &from, &v));
	assert_false(rest_call_available(REST_NAVIGATE, &whole, &v));
	assert_true(rest_call_available(REST_GOAL_START, &whole, &v));
	assert_true(rest_call_available(REST_RENAME, &whole, &v));
	server_version_parse("1.31.0", &v);
	assert_true(rest_call_available(REST_FORK, &from, &v));
	assert_true(rest_call_available(REST_NAVIGATE, &whole, &v));
	server_version_parse("1.17.9", &v);
	assert_false(rest_call_available(REST_FORK, &whole, &v));
	assert_false(rest_call_available(REST_LIST_LLM_PROFILES, NULL, &v));
	assert_true(rest_call_available(REST_CONDENSE, NULL, &v));
	server_version_parse("1.5.0", &v);
	assert_false(rest_call_available(REST_CONDENSE, NULL, &v));
	server_version_parse("1.5.1", &v);
	assert_true(rest_call_available(REST_CONDENSE, NULL, &v));
	/* an unknown version: try, and read the answer */
	server_version_parse("unknown", &v);
	assert_true(rest_call_available(REST_NAVIGATE, &whole, &v));
	assert_true(rest_call_available(REST_NAVIGATE, &whole, NULL));
	assert_string_equal(rest_call_name(REST_FORK), "fork");
	for (int c = 0; c < REST_CALL_COUNT; c++)
		assert_non_null(rest_call_name(c));
}

/* Agent and LLM profiles: the active one, a stale or null pointer, a legacy profile without
 * an id; ask_agent's answer; a fork's ConversationInfo with its HEAD and model. */
static void test_manage_answers(void **state)
{
	struct rest_result r;
	(void)state;
	decode_ok(REST_LIST_AGENT_PROFILES, 200, "{\"profiles\":[{\"id\":\"6f0c\",\"name\":\"default\","
	       "\"agent_kind\":\"openhands\",\"revision\":1,\"llm_profile_ref\":\"default\","
	       "\"mcp_server_refs\":[]},{\"id\":null,\"name\":\"legacy\",\"agent_kind\":\"acp\"},"
	       "{\"id\":\"x\"}],\"active_agent_profile_id\":\"6f0c\"}", &r);
	assert_int_equal(r.profiles.count, 2);
	assert_string_equal(r.profiles.agents[0].id, "6f0c");
	assert_string_equal(r.profiles.agents[0].name, "default");
	assert_string_equal(r.profiles.agents[0].llm_profile, "default");
	assert_null(r.profiles.agents[1].id);
	assert_string_equal(r.profiles.agents[1].agent_kind, "acp");
	assert_string_equal(r.profiles.active, "6f0c");
	rest_result_fini(&r);
	assert_null(r.profiles.agents);
	decode_ok(REST_LIST_AGENT_PROFILES, 200, "{\"profiles\":[],\"active_agent_profile_id\":"
	       "\"12345678-1234-1234-1234-1234567890ab\"}", &r);
	assert_int_equal(r.profiles.count, 0);
	assert_string_equal(r.profiles.active, "12345678-1234-1234-1234-1234567890ab");
	rest_result_fini(&r);

	decode_ok(REST_LIST_LLM_PROFILES, 200, "{\"profiles\":[{\"name\":\"default\",\"model\":"
	       "\"anthropic/claude-sonnet-4-5\",\"api_key_set\":true},{\"name\":\"fast\",\"model\":null,"
	       "\"api_key_set\":false}],\"active_profile\":null}", &r);
	assert_int_equal(r.profiles.count, 2);
	assert_string_equal(r.profiles.llms[0].model, "anthropic/claude-sonnet-4-5");
	assert_true(r.profiles.llms[0].api_key_set);
	assert_null(r.profiles.llms[1].model);
	assert_false(r.profiles.llms[1].api_key_set);
	assert_null(r.profiles.active);
	rest_result_fini(&r);

	decode_ok(REST_ASK_AGENT, 200, "{\"response\":\"It is fixing the parser.\"}", &r);
	assert_string_equal(r.answer, "It is fixing the parser.");
	rest_result_fini(&r);
	assert_null(r.answer);

	decode_ok(REST_FORK, 201, "{\"id\":\"f1\",\"title\":null,\"execution_status\":\"idle\","
	       "\"leaf_event_id\":\"e7\",\"forked_from_conversation_id\":\"c\","
	       "\"agent\":{\"llm\":{\"model\":\"openai/gpt-5-mini\"}}}", &r);
	assert_int_equal(r.conversations.count, 1);
	assert_string_equal(r.conversations.items[0].id, "f1");
	assert_string_equal(r.conversations.items[0].leaf_event_id, "e7");
	assert_string_equal(r.conversations.items[0].model, "openai/gpt-5-mini");
	rest_result_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_typed_answers),
		cmocka_unit_test(test_error_detail),
		cmocka_unit_test(test_server_info),
		cmocka_unit_test(test_bad_body_words),
		cmocka_unit_test(test_available),
		cmocka_unit_test(test_manage_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
