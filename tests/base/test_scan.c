/* The word-at-a-time scans against a byte-by-byte reading of the same rule. */
#include "base.h"
#include "scan_inline.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

static size_t slow(const unsigned char *p, size_t n, const char *stop, bool printable)
{
	size_t i = 0;
	while (i < n && p[i] && !(printable && (p[i] < 0x20 || p[i] >= 0x7F)) &&
	       !strchr(stop, p[i]))
		i++;
	return i;
}

/* Every byte value at every place of texts 0..40 long, at every alignment: each scan stops
 * exactly where the byte-wise rule does, never a word late or early. */
static void test_scan_every_byte_everywhere(void **state)
{
	(void)state;
	unsigned char text[48];
	for (size_t off = 0; off < 8; off++) {
		for (size_t n = 0; n + off <= 40; n++) {
			for (size_t at = 0; at <= n; at++) {
				for (int b = 0; b < 256; b++) {
					memset(text, 'a', sizeof text);
					if (at < n)
						text[off + at] = (unsigned char)b;
					const char *p = (const char *)text + off;
					assert_int_equal(scan_printable(p, n, "\"\\"),
							 slow(text + off, n, "\"\\", true));
					assert_int_equal(scan_printable(p, n, ""), slow(text + off, n, "", true));
					assert_int_equal(scan_until(p, n, "\"\\"),
							 slow(text + off, n, "\"\\", false));
				}
			}
		}
	}
}

/* The copying scan: the same stop as scan_printable, the run copied, and nothing stored past
 * the n bytes read nor 16 or more past the run's end. */
static void test_scan_copy(void **state)
{
	(void)state;
	unsigned char text[48];
	char dst[48 + 16 + 8];
	for (size_t n = 0; n <= 40; n++) {
		for (size_t at = 0; at <= n; at++) {
			for (int b = 0; b < 256; b += 7) {
				for (size_t i = 0; i < sizeof text; i++)
					text[i] = (unsigned char)('A' + i % 26);
				if (at < n)
					text[at] = (unsigned char)b;
				memset(dst, '#', sizeof dst);
				size_t run = scan_run((const char *)text, n, '"', '\\', true, dst);
				assert_int_equal(run, slow(text, n, "\"\\", true));
				assert_memory_equal(dst, text, run);
				for (size_t i = n < run + 16 ? n : run + 16; i < sizeof dst; i++)
					assert_int_equal(dst[i], '#');
			}
		}
	}
}

static void test_scan_examples(void **state)
{
	(void)state;
	const char *s = "printable ascii, then a \"quote\"";
	assert_int_equal(scan_printable(s, strlen(s), "\"\\"), strlen("printable ascii, then a "));
	assert_int_equal(scan_printable(s, strlen(s), ""), strlen(s));
	assert_int_equal(scan_printable("tab\there", 8, ""), 3);
	assert_int_equal(scan_printable("del\x7fhere", 8, ""), 3);
	assert_int_equal(scan_printable("caf\xc3\xa9 au lait", 13, ""), 3);
	/* scan_until takes controls and UTF-8 as they are; NUL stops it. */
	assert_int_equal(scan_until("caf\xc3\xa9\t\x01 au lait\\n", 17, "\"\\"), 15);
	assert_int_equal(scan_until("0123456789\0abcdef", 17, ""), 10);
	/* Only n bytes are read. */
	assert_int_equal(scan_until("01234567\"", 8, "\""), 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_every_byte_everywhere),
		cmocka_unit_test(test_scan_examples),
		cmocka_unit_test(test_scan_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
