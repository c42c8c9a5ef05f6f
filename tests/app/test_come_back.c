/* The line tether prints on leaving the TUI: the command that opens the conversation again,
 * quoted for a shell, the server only when it is not the default. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "app.h"

static void check(const char *server, const char *id, const char *want)
{
	struct options o;
	memset(&o, 0, sizeof o);
	o.server = server;
	o.conversation_id = id;
	struct buf b;
	buf_init(&b);
	app_come_back(&o, &b);
	assert_string_equal(buf_cstr(&b), want);
	buf_fini(&b);
}

static void test_come_back(void **state)
{
	(void)state;
	check(OPTIONS_DEFAULT_SERVER, "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91",
	      "tether 5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91");
	check("http://127.0.0.1:9123", "abc", "tether -s http://127.0.0.1:9123 abc");
	check("http://h:1/a b", "x'y", "tether -s 'http://h:1/a b' 'x'\\''y'");
	check("https://h/?q=1&r=$HOME", "../../x?y#z",
	      "tether -s 'https://h/?q=1&r=$HOME' '../../x?y#z'");
	check(OPTIONS_DEFAULT_SERVER, "a\033]0;x\007b", "tether 'a'$'\\x1b'']0;x'$'\\x07''b'");
	check(OPTIONS_DEFAULT_SERVER, "", "tether ''");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_come_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
