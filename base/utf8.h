/* base's UTF-8 well-formedness table (Unicode 15, table 3-7), inline because it runs per byte:
 * the sanitizer checks byte by byte across feeds, render's utf8_decode reads it too. It lives
 * in base so that every module that checks UTF-8 can share this one copy. */
#ifndef TETHER_BASE_UTF8_H
#define TETHER_BASE_UTF8_H

#include <stdbool.h>
#include <stdint.h>

/* Length of the sequence a lead byte starts, or 0 when it cannot start one (continuation
 * bytes, C0/C1 overlong leads, F5..FF). */
static inline int utf8_lead_len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c < 0xC2)
		return 0;
	if (c < 0xE0)
		return 2;
	if (c < 0xF0)
		return 3;
	if (c < 0xF5)
		return 4;
	return 0;
}

/* Whether c may be byte pos (1..3) of the sequence lead starts. The second byte's range
 * excludes overlongs (E0, F0), surrogates (ED) and code points above U+10FFFF (F4). */
static inline bool utf8_cont_ok(unsigned char lead, int pos, unsigned char c)
{
	unsigned char lo = 0x80, hi = 0xBF;
	if (pos == 1) {
		if (lead == 0xE0)
			lo = 0xA0;
		else if (lead == 0xED)
			hi = 0x9F;
		else if (lead == 0xF0)
			lo = 0x90;
		else if (lead == 0xF4)
			hi = 0x8F;
	}
	return c >= lo && c <= hi;
}

/* Code point of a well-formed sequence of len bytes. */
static inline uint32_t utf8_value(const unsigned char *s, int len)
{
	static const unsigned char lead_mask[5] = { 0, 0x7F, 0x1F, 0x0F, 0x07 };
	uint32_t cp = s[0] & lead_mask[len];
	for (int i = 1; i < len; i++)
		cp = (cp << 6) | (s[i] & 0x3F);
	return cp;
}

#define UTF8_REPLACEMENT "\xEF\xBF\xBD"

#endif
