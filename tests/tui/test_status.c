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
	st->server = "http://127.0.0.1:8000/base/path";
	st->conversation_id = "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91";
	st->title = "Fix the flaky test";
	st->connection = SESSION_SYNCED;
	st->caught_up = true;
	st->attempt = 1;
	st->has_cursor = true;
	st->cursor = 41;
	st->execution_status = "running";
	st->run_status = RUN_STATUS_RUNNING;
	st->running_since_us = NOW - 42000000;
	st->sync_through_seq = -1;
}

static char *format_at(const struct controller_status *st, int64_t now, int width, unsigned flags)
{
	struct buf b;
	buf_init(&b);
	status_format(st, now, width, flags, &b);
	return buf_steal(&b);
}

static char *format(const struct controller_status *st, int width)
{
	return format_at(st, NOW, width, STATUS_KEY_HINT);
}

static void assert_contains(const char *s, const char *part)
{
	const char *hit = strstr(s, part);
	if (!hit)
		print_error("\"%s\" does not contain \"%s\"\n", s ? s : "", part ? part : "");
	assert_non_null(hit);
}

static void assert_lacks(const char *s, const char *part)
{
	const char *hit = strstr(s, part);
	if (hit)
		print_error("\"%s\" contains \"%s\"\n", s, part);
	assert_null(hit);
}

static void test_connected_line(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	char *s = format(&st, 200);
	assert_contains(s, "Fix the flaky test");
	assert_contains(s, "live");
	assert_contains(s, "running 0:42");
	assert_contains(s, "Esc interrupts");
	assert_contains(s, "seq 41");
	/* the host is enough: no scheme, no path */
	assert_contains(s, "127.0.0.1:8000");
	assert_lacks(s, "http://");
	assert_lacks(s, "/base/path");
	free(s);
}

/* The legacy events socket is named beside the host (issue 26); the session socket is not. */
static void test_events_socket_named(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.socket = NET_PROTOCOL_SESSION;
	char *s = format(&st, 200);
	assert_lacks(s, "events");
	free(s);
	st.socket = NET_PROTOCOL_EVENTS;
	s = format(&st, 200);
	assert_contains(s, "127.0.0.1:8000 events");
	free(s);
}

static void test_reconnect_countdown(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.connection = SESSION_RECONNECTING;
	st.caught_up = false;
	st.attempt = 1;
	st.retry_at_us = NOW + 2300000;
	st.last_drop = "close 1011: server restarting";
	char *s = format(&st, 200);
	assert_contains(s, "reconnecting in 3s (close 1011: server restarting)");
	assert_contains(s, "F5 reconnects");
	/* not current while down: what it was, without a running timer or Esc */
	assert_contains(s, "last: running");
	assert_lacks(s, "running 0:");
	assert_lacks(s, "Esc interrupts");
	free(s);
	/* The line changes when the countdown shows 2 s: 0.3 s from now, then each second. */
	assert_int_equal(status_next_change(&st, NOW), 300000);
	assert_int_equal(status_next_change(&st, NOW + 300000), 1000000);
	st.retry_at_us = NOW - 1;
	assert_int_equal(status_next_change(&st, NOW), -1);
	st.connection = SESSION_SYNCED;
	st.caught_up = true;
	st.run_status = RUN_STATUS_IDLE;
	st.execution_status = "idle";
	assert_int_equal(status_next_change(&st, NOW), -1);
}

static void test_offline_is_not_idle(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.run_status = RUN_STATUS_IDLE;
	st.execution_status = "idle";
	st.connection = SESSION_CLOSED;
	st.caught_up = false;
	st.last_close_code = 1011;
	st.last_drop = "close 1011: bye";
	char *s = format(&st, 200);
	assert_contains(s, "offline (close 1011: bye)");
	assert_contains(s, "last: idle");
	assert_lacks(s, "live");
	free(s);
}

static void test_sync_progress(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.syncing = true;
	st.caught_up = false;
	st.cursor = 1200;
	st.sync_through_seq = 5000;
	char *s = format(&st, 200);
	assert_contains(s, "syncing 1,200/5,000");
	assert_contains(s, "last: running");
	free(s);
}

static void test_stalls_queue_and_confirmation(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.stalled_streams = 1;
	st.pending_messages = 2;
	st.run_status = RUN_STATUS_WAITING_FOR_CONFIRMATION;
	st.execution_status = "waiting_for_confirmation";
	st.awaiting_confirmation = true;
	char *s = format(&st, 200);
	assert_contains(s, "⚠ 1 stream stalled");
	assert_contains(s, "2 queued");
	assert_contains(s, "needs confirmation");
	assert_contains(s, "Ctrl-O to answer");
	free(s);
	/* the modal or another prompt has the keyboard: it shows its own keys */
	s = format_at(&st, NOW, 200, 0);
	assert_lacks(s, "Ctrl-O");
	free(s);
	st.stalled_streams = 2;
	s = format(&st, 200);
	assert_contains(s, "⚠ 2 streams stalled");
	free(s);
}

/* One vocabulary: at every width the line is made of parts of the widest line (dropped, never
 * reworded), and the state words stay. */
static void test_same_words_at_every_width(void **state)
{
	(void)state;
	static const int widths[] = { 120, 80, 50, 30 };
	struct controller_status st;
	for (int scene = 0; scene < 5; scene++) {
		base_status(&st);
		const char *words[2] = { "live", "running 0:42" };
		st.pending_messages = 3;
		st.stalled_streams = 2;
		st.has_usage = true;    /* issue 25: the usage's parts drop like the others */
		st.usage = (struct usage_summary){ .tokens = 18249, .cost = 0.0042,
						   .context_used = 1500, .context_window = 0 };
		if (scene == 1) {
			st.run_status = RUN_STATUS_WAITING_FOR_CONFIRMATION;
			st.awaiting_confirmation = true;
			words[1] = "needs confirmation";
		} else if (scene == 2) {
			st.connection = SESSION_RECONNECTING;
			st.caught_up = false;
			st.retry_at_us = NOW + 8000000;
			st.last_drop = "close 1011: server restarting";
			words[0] = "reconnecting in 8s";
			words[1] = NULL;
		} else if (scene == 3) {
			st.connection = SESSION_CONNECTING;
			st.caught_up = false;
			st.attempt = 3;
			st.last_failure = "connection refused";
			words[0] = "connecting";
			words[1] = NULL;
		} else if (scene == 4) {
			st.run_status = RUN_STATUS_IDLE;
			st.execution_status = "idle";
			words[1] = "idle";
		}
		char *wide = format(&st, 400);
		for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
			char *s = format(&st, widths[w]);
			assert_true(text_width(s, strlen(s)) <= widths[w]);
			assert_contains(s, words[0]);
			if (words[1] && widths[w] >= 30)
				assert_contains(s, words[1]);
			/* every whole part is a part of the wide line */
			char *save = NULL;
			for (char *part = strtok_r(s, "·", &save); part; part = strtok_r(NULL, "·", &save)) {
				size_t n = strlen(part);
				while (n && part[n - 1] == ' ')
					part[--n] = '\0';
				while (*part == ' ')
					part++;
				if (n >= 3 && !strcmp(part + strlen(part) - 3, "…"))
					continue; /* the last part, cut to fit */
				/* a spinner turns between frames, not between widths */
				assert_contains(wide, part);
			}
			free(s);
		}
		for (const char *old = "conn…\0down\0confirm?\0retry\0open\0disconnected\0"; *old;
		     old += strlen(old) + 1)
			assert_lacks(wide, old);
		free(wide);
	}
}

/* Issue 25: the usage's short form sits after the key hint; narrowing drops the seq, the host,
 * the title, then the tokens and the cost, and the context in use last of the three. */
static void test_usage_short_form(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.has_usage = true;
	st.usage = (struct usage_summary){ .tokens = 187460, .cost = 0.4334,
					   .context_used = 48211, .context_window = 200000 };
	char *s = format(&st, 400);
	assert_string_equal(s, "live · ⠋ running 0:42 · Esc interrupts · ctx 24% · 187k tok · $0.43 · "
			    "Fix the flaky test · 127.0.0.1:8000 · seq 41");
	free(s);
	s = format(&st, 70);
	assert_string_equal(s, "live · ⠋ running 0:42 · Esc interrupts · ctx 24% · 187k tok · $0.43");
	free(s);
	s = format(&st, 50);
	assert_string_equal(s, "live · ⠋ running 0:42 · Esc interrupts · ctx 24%");
	free(s);
	st.usage.context_window = 0;    /* not reported: the tokens in use */
	s = format(&st, 50);
	assert_string_equal(s, "live · ⠋ running 0:42 · Esc interrupts · ctx 48.2k");
	free(s);
	st.has_usage = false;
	s = format(&st, 400);
	assert_lacks(s, "ctx");
	assert_lacks(s, "$");
	free(s);
}

/* The timer counts, the spinner turns at the render clock, and an idle line never asks to be
 * painted again. */
static void test_running_timer_advances(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.running_since_us = NOW;
	char *a = format_at(&st, NOW, 200, STATUS_KEY_HINT);
	char *b = format_at(&st, NOW + 100000, 200, STATUS_KEY_HINT);
	char *c = format_at(&st, NOW + 65000000, 200, STATUS_KEY_HINT);
	char *d = format_at(&st, NOW + 3725000000LL, 200, STATUS_KEY_HINT);
	assert_contains(a, "running 0:00");
	assert_true(strcmp(a, b) != 0); /* the spinner moved */
	assert_contains(c, "running 1:05");
	assert_contains(d, "running 1:02:05");
	free(a);
	free(b);
	free(c);
	free(d);
	int64_t next = status_next_change(&st, NOW + 30000);
	assert_true(next > 0 && next <= 100000);
	st.run_status = RUN_STATUS_PAUSED;
	st.execution_status = "paused";
	assert_int_equal(status_next_change(&st, NOW), -1);
}

static void test_always_fits(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.title = "一个很长的对话标题，用来测试宽字符的截断";
	st.stalled_streams = 3;
	st.pending_messages = 12;
	st.last_drop = "close 1011: 一个很长的对话标题，用来测试宽字符的截断";
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

static bool cut(const char *s)
{
	size_t n = strlen(s);
	return n >= 3 && strcmp(s + n - 3, "…") == 0;
}

/* Parts are dropped by their exact width, separators and parentheses counted: from the first
 * width where the line needs no cut, no wider one cuts it, and at the width of the whole line
 * nothing is dropped (no model here: its name is shortened to a fifth of the width). */
static void test_drops_to_the_exact_width(void **state)
{
	(void)state;
	struct controller_status st;
	base_status(&st);
	st.pending_messages = 2;
	for (int c = SESSION_CONNECTING; c <= SESSION_SYNCED; c++) {
		st.connection = (enum session_state)c;
		st.attempt = c == SESSION_CONNECTING ? 3 : 1;          /* an attached part */
		st.last_failure = c == SESSION_CONNECTING ? "refused" : NULL;
		char *whole = format(&st, 1000);
		int whole_width = text_width(whole, strlen(whole));
		bool fitted = false;
		for (int w = 1; w <= whole_width + 5; w++) {
			char *s = format(&st, w);
			int sw = text_width(s, strlen(s));
			assert_true(sw <= w);
			if (fitted && cut(s))
				print_error("width %d cuts \"%s\", a narrower one did not\n", w, s);
			assert_false(fitted && cut(s));
			fitted = fitted || !cut(s);
			if (w >= whole_width)
				assert_string_equal(s, whole);
			free(s);
		}
		free(whole);
	}
}

static void test_new_below_words(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	status_put_new_below(&b, 1);
	assert_string_equal(buf_cstr(&b), "1 new line below");
	buf_clear(&b);
	status_put_new_below(&b, 23);
	assert_string_equal(buf_cstr(&b), "23 new lines below");
	buf_clear(&b);
	status_put_new_below(&b, 1234);
	assert_string_equal(buf_cstr(&b), "1,234 new lines below");
	buf_fini(&b);
}

static void test_counts_and_fitting(void **state)
{
	(void)state;
	const struct {
		int64_t n;
		const char *text;
	} cases[] = { { 0, "0" }, { 999, "999" }, { 1000, "1,000" }, { 1234567, "1,234,567" },
		      { -4200, "-4,200" }, { -420, "-420" },
		      { INT64_MIN, "-9,223,372,036,854,775,808" } };
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
		cmocka_unit_test(test_offline_is_not_idle),
		cmocka_unit_test(test_same_words_at_every_width),
		cmocka_unit_test(test_running_timer_advances),
		cmocka_unit_test(test_new_below_words),
		cmocka_unit_test(test_always_fits),
		cmocka_unit_test(test_drops_to_the_exact_width),
		cmocka_unit_test(test_events_socket_named),
		cmocka_unit_test(test_counts_and_fitting),
		cmocka_unit_test(test_usage_short_form),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
