#include "reltime.h"

#include <stdio.h>
#include <string.h>

/* Reads "YYYY-MM-DDTHH:MM:SS[.frac][Z|±HH:MM]" into seconds since the epoch. */
static int parse_iso(const char *s, time_t *out)
{
	struct tm tm = {0};
	int n = 0;
	if (sscanf(s, "%4d-%2d-%2d%*1[T ]%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 || n == 0)
		return -1;
	if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60 || tm.tm_year < 1970)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	s += n;
	if (*s == '.')
		s += 1 + strspn(s + 1, "0123456789");
	if (!*s) {
		tm.tm_isdst = -1;
		*out = mktime(&tm);
		return *out == (time_t)-1 ? -1 : 0;
	}
	long offset = 0;
	if (*s == 'Z' || *s == 'z') {
		s++;
	} else if (*s == '+' || *s == '-') {
		int h, m, k = 0;
		if (sscanf(s + 1, "%2d:%2d%n", &h, &m, &k) != 2 || k != 5 || h > 23 || m > 59)
			return -1;
		offset = (*s == '-' ? -1 : 1) * (h * 3600L + m * 60L);
		s += 1 + k;
	}
	if (*s)
		return -1;
	*out = timegm(&tm) - offset;
	return 0;
}

int reltime_format(const char *iso, time_t now, struct buf *out)
{
	time_t t;
	if (!iso || parse_iso(iso, &t) != 0)
		return -1;
	reltime_format_time(t, now, out);
	return 0;
}

void reltime_format_time(time_t t, time_t now, struct buf *out)
{
	double ago = difftime(now, t);
	/* A server clock a little ahead of ours is still "just now". */
	if (ago < -60 || ago >= 7 * 86400.0) {
		struct tm tm;
		char date[16];
		localtime_r(&t, &tm);
		strftime(date, sizeof date, "%Y-%m-%d", &tm);
		buf_puts(out, date);
	} else if (ago < 60) {
		buf_puts(out, "just now");
	} else if (ago < 3600) {
		buf_printf(out, "%d min ago", (int)(ago / 60));
	} else if (ago < 86400) {
		buf_printf(out, "%d h ago", (int)(ago / 3600));
	} else if (ago < 2 * 86400) {
		buf_puts(out, "yesterday");
	} else {
		buf_printf(out, "%d days ago", (int)(ago / 86400));
	}
}

int reltime_parse(const char *iso, time_t *out)
{
	return iso ? parse_iso(iso, out) : -1;
}
