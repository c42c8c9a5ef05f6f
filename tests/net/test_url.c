/* server_url_parse: the --server forms of cli.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "net.h"

static void test_valid_urls(void **state)
{
	(void)state;
	static const struct {
		const char *url;
		bool tls;
		const char *host;
		int port;
		const char *base_path;
	} cases[] = {
		{ "http://127.0.0.1:8000", false, "127.0.0.1", 8000, "" },
		{ "http://127.0.0.1:8000/", false, "127.0.0.1", 8000, "" },
		{ "https://agents.example.com", true, "agents.example.com", 443, "" },
		{ "ws://localhost", false, "localhost", 80, "" },
		{ "wss://h.example:9443/base/", true, "h.example", 9443, "/base" },
		{ "HTTPS://Host-1.example/a/b//", true, "Host-1.example", 443, "/a/b" },
		{ "Ws://h:1", false, "h", 1, "" },
		{ "http://[::1]:3000/x", false, "::1", 3000, "/x" },
		{ "https://[2001:db8::7]", true, "2001:db8::7", 443, "" },
		{ "http://[::ffff:127.0.0.1]/", false, "::ffff:127.0.0.1", 80, "" },
		{ "http://my_host:65535", false, "my_host", 65535, "" },
		{ "https://h/runtime/abc-123/api", true, "h", 443, "/runtime/abc-123/api" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct server_url u;
		if (server_url_parse(cases[i].url, &u) != 0)
			fail_msg("refused %s", cases[i].url);
		assert_int_equal(u.tls, cases[i].tls);
		assert_string_equal(u.host, cases[i].host);
		assert_int_equal(u.port, cases[i].port);
		assert_string_equal(u.base_path, cases[i].base_path);
	}
}

static void test_invalid_urls(void **state)
{
	(void)state;
	char long_host[300] = "http://";
	memset(long_host + 7, 'a', 256);
	char long_path[300] = "http://h/";
	memset(long_path + 9, 'p', 256);
	const char *const cases[] = {
		NULL, "", "127.0.0.1:8000", "localhost", "ftp://h", "http:/h", "http//h", "http://",
		"http:///path", "http://:80", "http://h:", "http://h:0", "http://h:65536", "http://h:123456",
		"http://h:8o", "http://h:-1", "http://h:80:81", "http://user:pw@h", "http://h?x=1",
		"http://h/#frag", "http://h /", "http://h/a b", "http://h\x01", "http://[::1", "http://[]",
		"http://[::1]x", "http://[g::1]", "http://[127.0.0.1]", "http://h\xc3\xa9", "http://h/\x7f",
		long_host, long_path,
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct server_url u;
		if (server_url_parse(cases[i], &u) != -1)
			fail_msg("accepted %s", cases[i] ? cases[i] : "(null)");
	}
}

static void test_longest_host_fits(void **state)
{
	(void)state;
	char url[300] = "http://";
	memset(url + 7, 'a', 255);
	struct server_url u;
	assert_int_equal(server_url_parse(url, &u), 0);
	assert_int_equal(strlen(u.host), 255);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_urls),
		cmocka_unit_test(test_invalid_urls),
		cmocka_unit_test(test_longest_host_fits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
