/* Text primitives more than one module needs: UTF-8, ASCII case folding, wiping secrets, the
 * fraction of an ISO 8601 time. */
#include "base.h"

#include <stdlib.h>
#include <string.h>

void buf_put_utf8(struct buf *b, uint32_t cp)
{
	char u[4];
	size_t n;
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		u[0] = (char)(0xF0 | cp >> 18);
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	buf_append(b, u, n);
}

size_t utf8_complete_prefix(const char *s, size_t n)
{
	/* Walk back over at most 3 continuation bytes to the last lead byte. */
	size_t i = n, back = 0;
	while (i > 0 && back < 4 && ((unsigned char)s[i - 1] & 0xC0) == 0x80) {
		i--;
		back++;
	}
	if (i == 0)
		return back ? 0 : n;
	size_t need = (size_t)utf8_lead_len((unsigned char)s[i - 1]);
	return (back + 1 >= need) ? n : i - 1;
}

void cstr_append_fitted(char *out, size_t size, size_t *at, const char *s, size_t n)
{
	if (*at + n >= size)
		n = utf8_complete_prefix(s, size - 1 - *at);
	memcpy(out + *at, s, n);
	*at += n;
	out[*at] = '\0';
}

unsigned char ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c;
}

bool ascii_is_letter(unsigned char c)
{
	return ascii_lower(c) >= 'a' && ascii_lower(c) <= 'z';
}

const char *ascii_find_ci(const char *s, size_t n, const char *needle, size_t m)
{
	if (!s || !needle || !m || m > n)
		return NULL;
	unsigned char first = ascii_lower((unsigned char)needle[0]);
	for (size_t i = 0; i + m <= n; i++) {
		if (ascii_lower((unsigned char)s[i]) != first)
			continue;
		size_t j = 1;
		while (j < m && ascii_lower((unsigned char)s[i + j]) == ascii_lower((unsigned char)needle[j]))
			j++;
		if (j == m)
			return s + i;
	}
	return NULL;
}

void mem_wipe(void *p, size_t n)
{
	if (p && n)
		explicit_bzero(p, n);
}

void str_wipe_free(char *s)
{
	if (s)
		mem_wipe(s, strlen(s));
	free(s);
}

const char *iso_fraction_us(const char *p, long *us)
{
	*us = 0;
	if (*p != '.')
		return p;
	int digits = 0;
	for (p++; *p >= '0' && *p <= '9'; p++, digits++)
		if (digits < 6)
			*us = *us * 10 + (*p - '0');
	if (!digits)
		return NULL;
	for (; digits < 6; digits++)
		*us *= 10;
	return p;
}
