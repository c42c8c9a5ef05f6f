/* The session's pure policies: the recent-id set, sniffing an oversized message, and the
 * reconnect backoff. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "net_int.h"

static void test_seen_finds_added_ids(void **state)
{
	struct recent_ids *set = xmalloc(sizeof(*set));

	(void)state;
	recent_ids_init(set, SEEN_CAPACITY);
	assert_false(recent_ids_has(set, "a"));
	recent_ids_add(set, "a");
	recent_ids_add(set, "b");
	recent_ids_add(set, "a");
	assert_true(recent_ids_has(set, "a"));
	assert_true(recent_ids_has(set, "b"));
	assert_false(recent_ids_has(set, "c"));
	assert_int_equal(set->count, 2);
	recent_ids_fini(set);
	free(set);
}

/* Bounded: past SEEN_CAPACITY the oldest ids are forgotten, the newest kept. */
static void test_seen_evicts_oldest(void **state)
{
	struct recent_ids *set = xmalloc(sizeof(*set));
	char id[32];

	(void)state;
	recent_ids_init(set, SEEN_CAPACITY);
	for (int i = 0; i < SEEN_CAPACITY + 10; i++) {
		snprintf(id, sizeof(id), "event-%d", i);
		recent_ids_add(set, id);
	}
	assert_int_equal(set->count, SEEN_CAPACITY);
	for (int i = 0; i < 10; i++) {
		snprintf(id, sizeof(id), "event-%d", i);
		assert_false(recent_ids_has(set, id));
	}
	for (int i = 10; i < SEEN_CAPACITY + 10; i++) {
		snprintf(id, sizeof(id), "event-%d", i);
		assert_true(recent_ids_has(set, id));
	}
	recent_ids_fini(set);
	free(set);
}

static void sniff_str(const char *m, struct sniff *s)
{
	sniff_frame(m, strlen(m), s);
}

static void test_sniff_durable_with_seq(void **state)
{
	static const char m[] = "{\"type\":\"durable\",\"seq\":1234,\"event\":{\"id\":\"x\"";
	struct sniff s;

	(void)state;
	sniff_frame(m, strlen(m), &s);
	assert_int_equal(s.kind, SNIFF_DURABLE);
	assert_true(s.has_seq);
	assert_int_equal(s.seq, 1234);
	sniff_str(" { \"type\" : \"durable\" , \"seq\" : 7 }", &s);
	assert_int_equal(s.kind, SNIFF_DURABLE);
	assert_true(s.has_seq);
	assert_int_equal(s.seq, 7);
}

/* A number cut by the end of the prefix is not trusted: 12 may be 1234. */
static void test_sniff_truncated_seq_is_unknown(void **state)
{
	static const char m[] = "{\"type\":\"durable\",\"seq\":1234";
	struct sniff s;

	(void)state;
	sniff_frame(m, strlen(m) - 2, &s);
	assert_int_equal(s.kind, SNIFF_DURABLE);
	assert_false(s.has_seq);
	sniff_str("{\"type\":\"durable\",\"event\":{},\"seq\":3}", &s);
	assert_int_equal(s.kind, SNIFF_DURABLE);
	assert_false(s.has_seq);
}

static void test_sniff_other_types(void **state)
{
	struct sniff s;

	(void)state;
	sniff_str("{\"type\":\"delta\",\"item_id\":\"i\"", &s);
	assert_int_equal(s.kind, SNIFF_OTHER);
	assert_string_equal(s.type, "delta");
	sniff_str("{\"type\":\"transient\",", &s);
	assert_int_equal(s.kind, SNIFF_OTHER);
}

/* Anything but a plain leading "type" cannot be told apart from a durable frame. */
static void test_sniff_unknown(void **state)
{
	static const char *const cases[] = {
		"{\"seq\":1,\"type\":\"durable\"}", "[1,2]", "", "{\"type\":\"dur",
		"{\"type\":\"du\\u0072able\"}", "{\"type\":1}", "not json",
	};
	struct sniff s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sniff_frame(cases[i], strlen(cases[i]), &s);
		assert_int_equal(s.kind, SNIFF_UNKNOWN);
	}
}

/* cli.md: backoff starts at no more than 1 s; after progress there is no wait at all. */
static void test_backoff_first_delay_at_most_1s(void **state)
{
	(void)state;
	for (uint32_t rnd = 0; rnd < 5000; rnd += 7) {
		assert_int_equal(session_backoff_us(0, rnd), 0);
		assert_true(session_backoff_us(1, rnd) <= 1000000);
		assert_true(session_backoff_us(1, rnd) >= 400000);
	}
	assert_true(session_backoff_us(1, UINT32_MAX) <= 1000000);
}

/* Doubling per failure, capped at 30 s, jitter within ±20%. */
static void test_backoff_doubles_to_cap_with_jitter(void **state)
{
	int64_t base = 500000;

	(void)state;
	for (int f = 1; f < 20; f++) {
		int64_t lo = base - base / 5, hi = base + base / 5;

		for (uint32_t rnd = 0; rnd < 1000000; rnd += 99991) {
			int64_t d = session_backoff_us(f, rnd);

			assert_true(d >= lo && d <= hi);
		}
		assert_int_equal(session_backoff_us(f, 0), lo);
		assert_int_equal(session_backoff_us(f, (uint32_t)(2 * (base / 5))), hi);
		base = base * 2 > 30000000 ? 30000000 : base * 2;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seen_finds_added_ids),
		cmocka_unit_test(test_seen_evicts_oldest),
		cmocka_unit_test(test_sniff_durable_with_seq),
		cmocka_unit_test(test_sniff_truncated_seq_is_unknown),
		cmocka_unit_test(test_sniff_other_types),
		cmocka_unit_test(test_sniff_unknown),
		cmocka_unit_test(test_backoff_first_delay_at_most_1s),
		cmocka_unit_test(test_backoff_doubles_to_cap_with_jitter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
