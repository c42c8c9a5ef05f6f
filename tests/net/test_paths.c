/* REST paths: every conversation id is one escaped path segment, whatever it holds and
 * however long it is (issue 11 #8). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "net_int.h"

static void expect_path(const char *id, const char *tail, const char *want)
{
	struct buf b;

	buf_init(&b);
	rest_path_conversation(&b, id, tail);
	assert_string_equal(buf_cstr(&b), want);
	buf_fini(&b);
}

static void test_hostile_ids(void **state)
{
	(void)state;
	expect_path("5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91", "/events",
		    "/api/conversations/5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91/events");
	expect_path("a\r\nHost: evil", "", "/api/conversations/a%0D%0AHost%3A%20evil");
	expect_path("../../x?y#z", "/pause", "/api/conversations/..%2F..%2Fx%3Fy%23z/pause");
	expect_path("..", "/run", "/api/conversations/%2E%2E/run");
	expect_path(".", "", "/api/conversations/%2E");
	expect_path("", "", "/api/conversations/");
	expect_path("é%", "", "/api/conversations/%C3%A9%25");
}

static void test_long_id_whole(void **state)
{
	char id[3001];
	struct buf b;

	(void)state;
	memset(id, 'a', 3000);
	id[3000] = '\0';
	id[2999] = '/';
	buf_init(&b);
	rest_path_conversation(&b, id, "/events");
	assert_int_equal(b.len, strlen("/api/conversations/") + 2999 + 3 + strlen("/events"));
	assert_string_equal(buf_cstr(&b) + b.len - 10, "%2F/events");
	buf_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile_ids),
		cmocka_unit_test(test_long_id_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
