/* The status line: what it says about the connection and the run, and that it fits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "render.h"

static const int64_t NOW = 1000000000;

static void base_status(struct controller_status *st)
{
	memset(st, 0, sizeof *st);
	st->server = "http://127.0.0.1:8000";
	st->conversation_id = "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91";
	st->title = "Fix the flaky test";
	st->connection = SESSION_SYNCED;
	st->attempt = 1;
	st->has_cursor = true;
	st->cursor = 41;
	st->execution_status = "running";
	st->sync_through_seq = -1;
}

static char *format(const struct controller_status *st, int width)
{
	struct buf b;
	buf_init(&b);
	status_format(st, NOW, width, &b);
	return buf_steal(&b);
}

static void assert_contains(const char *s, const char *part)
{
	const char *hit = strstr(s, part);
	if (!hit)
		print_error("\"%s\" does not contain \"%s\"\n", s ? s : "", part ? part : "");
	assert_non_null(hit);
}

static void test_connected_line(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	char *s = format(&st, 200);
	assert_contains(s, "Fix the flaky test");
	assert_contains(s, "connected");
	assert_contains(s, "running");
	assert_contains(s, "seq 41");
	assert_contains(s, "http://127.0.0.1:8000");
	free(s);
}

static void test_reconnect_countdown(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.connection = SESSION_RECONNECTING;
	st.attempt = 1;
	st.retry_at_us = NOW + 2300000;
	char *s = format(&st, 200);
	assert_contains(s, "reconnecting in 3s (attempt 2)");
	free(s);
	/* The line changes when the countdown shows 2 s: 0.3 s from now, then each second. */
	assert_int_equal(status_next_change(&st, NOW), 300000);
	assert_int_equal(status_next_change(&st, NOW + 300000), 1000000);
	st.retry_at_us = NOW - 1;
	assert_int_equal(status_next_change(&st, NOW), -1);
	st.connection = SESSION_SYNCED;
	assert_int_equal(status_next_change(&st, NOW), -1);
}

static void test_sync_progress(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.syncing = true;
	st.cursor = 1200;
	st.sync_through_seq = 5000;
	char *s = format(&st, 200);
	assert_contains(s, "syncing 1,200/5,000");
	free(s);
}

static void test_stalls_queue_and_confirmation(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.stalled_streams = 1;
	st.pending_messages = 2;
	st.awaiting_confirmation = true;
	char *s = format(&st, 200);
	assert_contains(s, "⚠ stalled");
	assert_contains(s, "2 queued");
	assert_contains(s, "awaiting confirmation");
	free(s);
	st.connection = SESSION_CLOSED;
	st.last_close_code = 1011;
	s = format(&st, 200);
	assert_contains(s, "disconnected (1011)");
	free(s);
}

/* Narrow lines drop the title, seq and server before the connection state. */
static void test_narrow_keeps_state(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.connection = SESSION_RECONNECTING;
	st.retry_at_us = NOW + 3000000;
	st.stalled_streams = 1;
	char *s = format(&st, 50);
	assert_contains(s, "reconnecting in 3s");
	assert_contains(s, "⚠ stalled");
	assert_null(strstr(s, "http://"));
	free(s);
	s = format(&st, 20);
	assert_contains(s, "retry 3s");
	free(s);
}

static void test_always_fits(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.title = "一个很长的对话标题，用来测试宽字符的截断";
	st.stalled_streams = 3;
	st.pending_messages = 12;
	for (int c = SESSION_CONNECTING; c <= SESSION_FAILED; c++) {
		st.connection = (enum session_state)c;
		st.retry_at_us = NOW + 5000000;
		for (int w = 1; w <= 120; w++) {
			char *s = format(&st, w);
			assert_true(text_width(s, strlen(s)) <= w);
			free(s);
		}
	}
}

static void test_counts_and_fitting(void **state)
{
	(void)state;
	const struct {
		int64_t n;
		const char *text;
	} cases[] = { { 0, "0" }, { 999, "999" }, { 1000, "1,000" }, { 1234567, "1,234,567" },
		      { -4200, "-4,200" } };
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct buf b;
		buf_init(&b);
		status_put_count(&b, cases[i].n);
		assert_string_equal(buf_cstr(&b), cases[i].text);
		buf_fini(&b);
	}
	struct buf b;
	buf_init(&b);
	status_put_fitted(&b, "你好世界", strlen("你好世界"), 5);
	assert_string_equal(buf_cstr(&b), "你好…");
	buf_clear(&b);
	status_put_fitted(&b, "abc", 3, 3);
	assert_string_equal(buf_cstr(&b), "abc");
	buf_fini(&b);
}

int main(void)
{
	/* widths are wcwidth()'s, which needs a UTF-8 locale */
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connected_line),
		cmocka_unit_test(test_reconnect_countdown),
		cmocka_unit_test(test_sync_progress),
		cmocka_unit_test(test_stalls_queue_and_confirmation),
		cmocka_unit_test(test_narrow_keeps_state),
		cmocka_unit_test(test_always_fits),
		cmocka_unit_test(test_counts_and_fitting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
