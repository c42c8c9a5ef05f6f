/* The typed answers of REST calls (net/api.c's table): what each status means for each call,
 * and each call's answer decoded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "net.h"

/* The outcome of call for an answer with status and body (NULL: none). */
static enum rest_outcome outcome_of(enum rest_call call, int status, const char *body)
{
	struct rest_response raw = { .status = status, .body = body,
				     .body_len = body ? strlen(body) : 0 };
	struct rest_result r;
	rest_result_decode(call, &raw, &r);
	assert_int_equal(r.call, call);
	assert_ptr_equal(r.raw, &raw);
	enum rest_outcome o = r.outcome;
	rest_result_fini(&r);
	return o;
}

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
	assert_int_equal(outcome_of(REST_GET_CONVERSATION, 404, NULL), REST_NOT_FOUND);
	assert_int_equal(outcome_of(REST_PAUSE, 404, NULL), REST_NOT_FOUND);
	assert_int_equal(outcome_of(REST_RUN, 404, NULL), REST_NOT_FOUND);
	assert_int_equal(outcome_of(REST_SEARCH_EVENTS, 404, NULL), REST_NOT_FOUND);
	assert_int_equal(outcome_of(REST_SET_CONFIRMATION_POLICY, 404, NULL), REST_UNSUPPORTED);
	assert_int_equal(outcome_of(REST_COUNT_EVENTS, 404, NULL), REST_UNSUPPORTED);
	assert_int_equal(outcome_of(REST_SEARCH_CONVERSATIONS, 404, NULL), REST_NOT_FOUND);
	/* a call without an answer to decode: any 2xx body is fine */
	assert_int_equal(outcome_of(REST_PAUSE, 200, "{\"success\":true}"), REST_OK);
	assert_int_equal(outcome_of(REST_SEND_MESSAGE, 204, NULL), REST_OK);
	assert_int_equal(outcome_of(REST_RUN, 200, "not json"), REST_OK);
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
	struct rest_response raw = { .status = 200, .body = "-3", .body_len = 2 };
	struct rest_result r;
	rest_result_decode(REST_COUNT_EVENTS, &raw, &r);
	assert_int_equal(r.outcome, REST_BAD_BODY);
	assert_int_equal(r.err.status, CODEC_WRONG_TYPE);
	rest_result_fini(&r);
}

static void test_typed_answers(void **state)
{
	(void)state;
	struct rest_result r;
	struct rest_response raw = { .status = 200, .body = "42", .body_len = 2 };
	rest_result_decode(REST_COUNT_EVENTS, &raw, &r);
	assert_int_equal(r.outcome, REST_OK);
	assert_int_equal(r.count, 42);
	rest_result_fini(&r);

	raw.body = "{\"id\":\"c1\",\"title\":\"T\",\"execution_status\":\"waiting_for_confirmation\"}";
	raw.body_len = strlen(raw.body);
	rest_result_decode(REST_GET_CONVERSATION, &raw, &r);
	assert_int_equal(r.outcome, REST_OK);
	assert_int_equal(r.conversations.count, 1);
	assert_string_equal(r.conversations.items[0].id, "c1");
	assert_int_equal(r.conversations.items[0].run_status, RUN_STATUS_WAITING_FOR_CONFIRMATION);
	assert_null(r.conversations.next_page_id);
	rest_result_fini(&r);
	assert_null(r.conversations.items);

	raw.body = "{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"next_page_id\":\"p2\"}";
	raw.body_len = strlen(raw.body);
	rest_result_decode(REST_SEARCH_CONVERSATIONS_NEWEST, &raw, &r);
	assert_int_equal(r.outcome, REST_OK);
	assert_int_equal(r.conversations.count, 2);
	assert_string_equal(r.conversations.items[1].id, "b");
	assert_string_equal(r.conversations.next_page_id, "p2");
	rest_result_fini(&r);

	raw.body = "{\"items\":[{\"id\":\"e1\",\"kind\":\"PauseEvent\",\"source\":\"user\"},7],"
		   "\"next_page_id\":null}";
	raw.body_len = strlen(raw.body);
	rest_result_decode(REST_SEARCH_EVENTS, &raw, &r);
	assert_int_equal(r.outcome, REST_OK);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_typed_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
