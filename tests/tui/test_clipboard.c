/* What /copy sends: never a control character (an ESC in the text would end the OSC 52
 * sequence and start one of its own), and the OSC 52 sequence, also wrapped for tmux. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "clipboard.h"

static void test_controls_are_left_out(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	const char in[] = "a\033]52;c;eA==\ab\tc\nd\r\x01\x7f\xc2\x9b" "e\xff" "é→";
	clipboard_clean(in, sizeof in - 1, &b);
	assert_string_equal(buf_cstr(&b), "a]52;c;eA==b\tc\nde" "é→");
	buf_fini(&b);
}

static void test_osc52_bytes(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	clipboard_osc52_bytes(false, "hello", 5, &b);
	assert_string_equal(buf_cstr(&b), "\033]52;c;aGVsbG8=\a");
	buf_clear(&b);
	clipboard_osc52_bytes(true, "hi", 2, &b);
	assert_string_equal(buf_cstr(&b), "\033Ptmux;\033\033]52;c;aGk=\a\033\\");
	buf_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls_are_left_out),
		cmocka_unit_test(test_osc52_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
