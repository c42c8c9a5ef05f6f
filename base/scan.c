/* Runs of bytes that need no look: what the sanitizer and the JSON writer copy as they are. */
#include "base.h"
#include "scan_inline.h"

/* NUL stops always, so a stop shorter than two bytes stops at NUL twice. */
static size_t scan_stops(const char *p, size_t n, const char *stop, bool printable)
{
	unsigned char s0 = (unsigned char)stop[0], s1 = s0 ? (unsigned char)stop[1] : 0;
	return scan_run(p, n, s0, s1, printable, NULL);
}

size_t scan_printable(const char *p, size_t n, const char *stop)
{
	return scan_stops(p, n, stop, true);
}

size_t scan_until(const char *p, size_t n, const char *stop)
{
	return scan_stops(p, n, stop, false);
}
