/* The one output boundary: sanitize first, then mask. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <string.h>

#include "clean.h"

static void test_escape_inside_a_secret_is_caught(void **state)
{
	(void)state;
	struct mask_set *m = mask_set_create();
	const char *why;
	assert_int_equal(mask_set_add(m, "hunter2", 7, &why), 0);
	struct buf scratch, out;
	buf_init(&scratch);
	buf_init(&out);
	static const char text[] = "key hun\x1b[0mter2 \x1b]0;title\x07" "end\r\n";
	clean_text(m, text, sizeof text - 1, &scratch, &out);
	assert_string_equal(buf_cstr(&out), "key <secret-hidden> end\n");
	buf_clear(&out);
	clean_text(NULL, text, sizeof text - 1, &scratch, &out);
	assert_string_equal(buf_cstr(&out), "key hunter2 end\n");
	buf_fini(&scratch);
	buf_fini(&out);
	mask_set_destroy(m);
}

int main(void)
{
	setlocale(LC_CTYPE, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_inside_a_secret_is_caught),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
