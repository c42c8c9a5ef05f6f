/* Display widths, measured the way ncurses advances the cursor: every code point adds its
 * wcwidth(), a zero-width one joining the cell before it. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* wcwidth() */
#endif

#include "render.h"

#include <wchar.h>


#define CP_ZWJ 0x200D

size_t utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	*cp = 0xFFFD;
	if (n == 0)
		return 0;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	size_t len = utf8_next(s, n, cp);
	if (*cp == UTF8_INVALID)
		*cp = 0xFFFD;
	return len;
}

static bool cp_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

int cp_width(uint32_t cp)
{
	if (cp >= 0x20 && cp < 0x7F)
		return 1;
	if (cp_is_control(cp))
		return 0;
	/* -1 is a non-printable code point, or any non-ASCII one under a non-UTF-8 locale;
	 * ncurses still gives those a cell. */
	int w = wcwidth((wchar_t)cp);
	return w < 0 ? 1 : w > 2 ? 2 : w;
}

static bool cp_is_regional(uint32_t cp)
{
	return cp >= 0x1F1E6 && cp <= 0x1F1FF;
}

/* Code points that stay with the cluster before them whatever their own width. */
static bool cp_is_extender(uint32_t cp)
{
	return cp == CP_ZWJ || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF) ||
	       (cp >= 0x1F3FB && cp <= 0x1F3FF);
}

/* The cluster's width is the sum of its code points' widths, not the 2 columns a terminal
 * with grapheme support would give an emoji ZWJ sequence: the painter hands the bytes to
 * ncurses, which advances by wcwidth() per code point (👨‍👩‍👧 takes 2+0+2+0+2 = 6), and
 * rows must be measured the way they are drawn or every later column is off. */
size_t grapheme_next(const char *s, size_t n, int *width)
{
	const unsigned char *p = (const unsigned char *)s;
	*width = 0;
	if (n == 0)
		return 0;
	if (p[0] < 0x80 && (n == 1 || p[1] < 0x80)) {
		*width = cp_width(p[0]);
		return 1;
	}
	uint32_t cp;
	size_t i = utf8_decode(s, n, &cp);
	int w = cp_width(cp);
	if (cp_is_control(cp)) {
		*width = w;
		return i;
	}
	bool after_zwj = false;
	bool open_pair = cp_is_regional(cp);
	while (i < n) {
		uint32_t next;
		size_t len = utf8_decode(s + i, n - i, &next);
		if (cp_is_control(next))
			break;
		bool join = after_zwj || cp_is_extender(next) || cp_width(next) == 0 ||
			    (open_pair && cp_is_regional(next));
		if (!join)
			break;
		open_pair = false;
		after_zwj = next == CP_ZWJ;
		w += cp_width(next);
		i += len;
	}
	*width = w;
	return i;
}

int text_width(const char *s, size_t n)
{
	int w = 0;
	size_t i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80) {
			w += cp_width(c);
			i++;
			continue;
		}
		uint32_t cp;
		i += utf8_decode(s + i, n - i, &cp);
		w += cp_width(cp);
	}
	return w;
}
