/* Relative times of tether list in a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <time.h>

#include "reltime.h"

static void expect(const char *iso, time_t now, const char *want)
{
	struct buf out;
	buf_init(&out);
	assert_int_equal(reltime_format(iso, now, &out), 0);
	assert_string_equal(buf_cstr(&out), want);
	buf_fini(&out);
}

static void test_steps(void **state)
{
	(void)state;
	time_t now = 1780000000; /* 2026-05-28T20:26:40Z */
	expect("2026-05-28T20:26:40Z", now, "just now");
	expect("2026-05-28T20:27:30Z", now, "just now");          /* a server clock a bit ahead */
	expect("2026-05-28T20:25:40.123456Z", now, "1 min ago");
	expect("2026-05-28T20:23:30+00:00", now, "3 min ago");
	expect("2026-05-28T21:23:30+01:00", now, "3 min ago");    /* the offset counts */
	expect("2026-05-28T18:20:00Z", now, "2 h ago");
	expect("2026-05-27T18:20:00Z", now, "yesterday");
	expect("2026-05-24T18:20:00Z", now, "4 days ago");
	expect("2026-05-01T10:00:00Z", now, "2026-05-01");
	expect("2026-06-28T10:00:00Z", now, "2026-06-28");        /* far ahead: the date */
	/* Naive times are local (TZ is UTC here). */
	expect("2026-05-28T18:20:00.5", now, "2 h ago");
}

static void test_unreadable(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "yesterday", "2026-05-28", "2026-13-01T00:00:00", "2026-05-28T20:26:40Zjunk",
		"2026-05-28T20:26:40+1", "1969-12-31T23:59:59Z",
	};
	struct buf out;
	buf_init(&out);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(reltime_format(bad[i], 1780000000, &out), -1);
	assert_int_equal(out.len, 0);
	buf_fini(&out);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_unreadable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
