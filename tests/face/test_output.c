/* The headless writer: nothing after the result line, and a failed write is heard once and
 * ends the output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "headless.h"

struct heard {
	int calls;
	int err;
};

static void on_error(void *ctx, int err)
{
	struct heard *h = ctx;
	h->calls++;
	h->err = err;
}

static char *contents(FILE *f)
{
	static char text[4096];
	fflush(f);
	rewind(f);
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	return text;
}

static void test_nothing_after_result(void **state)
{
	(void)state;
	for (int fmt = 0; fmt < 2; fmt++) {
		FILE *f = tmpfile();
		assert_non_null(f);
		struct headless h;
		struct heard heard = { 0 };
		headless_init(&h, f, fmt ? FORMAT_NDJSON : FORMAT_TEXT, on_error, &heard);
		headless_status(&h, "idle");
		headless_text_line(&h, "before");
		headless_result(&h, 0, true, 4, 5, 0, 0);
		headless_error(&h, "late", "a malformed frame read in the same batch");
		headless_connection(&h, "closed", "session", 1, 1000, "bye", false, 0, 0);
		headless_text_line(&h, "after");
		headless_text_message(&h, false, "after", 5);
		headless_result(&h, 1, false, 0, 0, 0, 0);
		const char *out = contents(f);
		if (fmt)
			assert_string_equal(out, "{\"type\":\"status\",\"execution_status\":\"idle\"}\n"
						 "{\"type\":\"result\",\"exit_code\":0,\"cursor\":4,"
						 "\"durable\":5,\"streams\":0,\"reconnects\":0}\n");
		else
			assert_string_equal(out, "before\n");
		assert_int_equal(heard.calls, 0);
		fclose(f);
	}
}

static void test_failed_write_heard_once(void **state)
{
	(void)state;
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		skip();
	struct headless h;
	struct heard heard = { 0 };
	headless_init(&h, f, FORMAT_NDJSON, on_error, &heard);
	headless_status(&h, "running");
	headless_status(&h, "idle");
	headless_result(&h, 0, false, 0, 0, 0, 0);
	assert_int_equal(heard.calls, 1);
	assert_int_equal(heard.err, ENOSPC);
	assert_true(h.ended);
	fclose(f);
}

/* The confirmation and answer lines, exactly: ids null when absent, risk null when absent,
 * strings JSON-escaped, every argument whole; text mode a line per action, then its arguments
 * on lines indented by two spaces. */
static void test_confirmation_lines(void **state)
{
	(void)state;
	const struct sink_action actions[] = {
		{ "call_1", "terminal", "cd x …", "command: cd x\nrm -rf \"b\"", RISK_HIGH },
		{ NULL, "file_editor", "view a.c", "", RISK_ABSENT },
	};
	const char *const ids[] = { "call_1" };
	for (int fmt = 0; fmt < 2; fmt++) {
		FILE *f = tmpfile();
		assert_non_null(f);
		struct headless h;
		headless_init(&h, f, fmt ? FORMAT_NDJSON : FORMAT_TEXT, on_error, NULL);
		headless_confirmation(&h, actions, 2);
		headless_answered(&h, false, ids, 1);
		const char *out = contents(f);
		if (fmt)
			assert_string_equal(out,
				"{\"type\":\"confirmation\",\"actions\":["
				"{\"tool_call_id\":\"call_1\",\"tool\":\"terminal\",\"summary\":\"cd x …\","
				"\"arguments\":\"command: cd x\\u000arm -rf \\\"b\\\"\",\"risk\":\"HIGH\"},"
				"{\"tool_call_id\":null,\"tool\":\"file_editor\",\"summary\":\"view a.c\","
				"\"arguments\":\"\",\"risk\":null}]}\n"
				"{\"type\":\"confirmation_answer\",\"answer\":\"reject\",\"tool_call_ids\":[\"call_1\"]}\n");
		else
			assert_string_equal(out, "needs confirmation: terminal cd x … [HIGH]\n"
						 "  command: cd x\n  rm -rf \"b\"\n\n"
						 "needs confirmation: file_editor view a.c\n\n"
						 "rejected: call_1\n");
		fclose(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_after_result),
		cmocka_unit_test(test_failed_write_heard_once),
		cmocka_unit_test(test_confirmation_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
