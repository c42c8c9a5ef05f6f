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

/* Spacing marks (Unicode's Grapheme_Cluster_Break=SpacingMark: the vowel signs of Indic and
 * South-East Asian scripts): a cell of their own on screen, yet part of the cluster before
 * them, so that the cursor never lands between a consonant and its vowel sign (कि). */
static const uint32_t spacing_marks[][2] = {
	{ 0x903, 0x903 }, { 0x93B, 0x93B }, { 0x93E, 0x940 }, { 0x949, 0x94C }, { 0x94E, 0x94F },
	{ 0x982, 0x983 }, { 0x9BE, 0x9C0 }, { 0x9C7, 0x9C8 }, { 0x9CB, 0x9CC }, { 0x9D7, 0x9D7 },
	{ 0xA03, 0xA03 }, { 0xA3E, 0xA40 }, { 0xA83, 0xA83 }, { 0xABE, 0xAC0 }, { 0xAC9, 0xAC9 },
	{ 0xACB, 0xACC }, { 0xB02, 0xB03 }, { 0xB3E, 0xB3E }, { 0xB40, 0xB40 }, { 0xB47, 0xB48 },
	{ 0xB4B, 0xB4C }, { 0xB57, 0xB57 }, { 0xBBE, 0xBBF }, { 0xBC1, 0xBC2 }, { 0xBC6, 0xBC8 },
	{ 0xBCA, 0xBCC }, { 0xBD7, 0xBD7 }, { 0xC01, 0xC03 }, { 0xC41, 0xC44 }, { 0xC82, 0xC83 },
	{ 0xCBE, 0xCBE }, { 0xCC0, 0xCC4 }, { 0xCC7, 0xCC8 }, { 0xCCA, 0xCCB }, { 0xCD5, 0xCD6 },
	{ 0xD02, 0xD03 }, { 0xD3E, 0xD40 }, { 0xD46, 0xD48 }, { 0xD4A, 0xD4C }, { 0xD57, 0xD57 },
	{ 0xD82, 0xD83 }, { 0xDCF, 0xDD1 }, { 0xDD8, 0xDDF }, { 0xDF2, 0xDF3 }, { 0xE33, 0xE33 },
	{ 0xEB3, 0xEB3 }, { 0xF3E, 0xF3F }, { 0xF7F, 0xF7F }, { 0x1031, 0x1031 }, { 0x103B, 0x103C },
	{ 0x1056, 0x1057 }, { 0x1084, 0x1084 }, { 0x1715, 0x1715 }, { 0x1734, 0x1734 }, { 0x17B6, 0x17B6 },
	{ 0x17BE, 0x17C5 }, { 0x17C7, 0x17C8 }, { 0x1923, 0x1926 }, { 0x1929, 0x192B }, { 0x1930, 0x1931 },
	{ 0x1933, 0x1938 }, { 0x1A19, 0x1A1A }, { 0x1A55, 0x1A55 }, { 0x1A57, 0x1A57 }, { 0x1A6D, 0x1A72 },
	{ 0x1B04, 0x1B04 }, { 0x1B35, 0x1B35 }, { 0x1B3B, 0x1B3B }, { 0x1B3D, 0x1B41 }, { 0x1B43, 0x1B44 },
	{ 0x1B82, 0x1B82 }, { 0x1BA1, 0x1BA1 }, { 0x1BA6, 0x1BA7 }, { 0x1BAA, 0x1BAA }, { 0x1BE7, 0x1BE7 },
	{ 0x1BEA, 0x1BEC }, { 0x1BEE, 0x1BEE }, { 0x1BF2, 0x1BF3 }, { 0x1C24, 0x1C2B }, { 0x1C34, 0x1C35 },
	{ 0x1CE1, 0x1CE1 }, { 0x1CF7, 0x1CF7 }, { 0x302E, 0x302F }, { 0xA823, 0xA824 }, { 0xA827, 0xA827 },
	{ 0xA880, 0xA881 }, { 0xA8B4, 0xA8C3 }, { 0xA952, 0xA953 }, { 0xA983, 0xA983 }, { 0xA9B4, 0xA9B5 },
	{ 0xA9BA, 0xA9BB }, { 0xA9BE, 0xA9C0 }, { 0xAA2F, 0xAA30 }, { 0xAA33, 0xAA34 }, { 0xAA4D, 0xAA4D },
	{ 0xAAEB, 0xAAEB }, { 0xAAEE, 0xAAEF }, { 0xAAF5, 0xAAF5 }, { 0xABE3, 0xABE4 }, { 0xABE6, 0xABE7 },
	{ 0xABE9, 0xABEA }, { 0xABEC, 0xABEC }, { 0x11000, 0x11000 }, { 0x11002, 0x11002 }, { 0x11082, 0x11082 },
	{ 0x110B0, 0x110B2 }, { 0x110B7, 0x110B8 }, { 0x1112C, 0x1112C }, { 0x11145, 0x11146 }, { 0x11182, 0x11182 },
	{ 0x111B3, 0x111B5 }, { 0x111BF, 0x111C0 }, { 0x111CE, 0x111CE }, { 0x1122C, 0x1122E }, { 0x11232, 0x11233 },
	{ 0x11235, 0x11235 }, { 0x112E0, 0x112E2 }, { 0x11302, 0x11303 }, { 0x1133E, 0x1133F }, { 0x11341, 0x11344 },
	{ 0x11347, 0x11348 }, { 0x1134B, 0x1134D }, { 0x11357, 0x11357 }, { 0x11362, 0x11363 }, { 0x11435, 0x11437 },
	{ 0x11440, 0x11441 }, { 0x11445, 0x11445 }, { 0x114B0, 0x114B2 }, { 0x114B9, 0x114B9 }, { 0x114BB, 0x114BE },
	{ 0x114C1, 0x114C1 }, { 0x115AF, 0x115B1 }, { 0x115B8, 0x115BB }, { 0x115BE, 0x115BE }, { 0x11630, 0x11632 },
	{ 0x1163B, 0x1163C }, { 0x1163E, 0x1163E }, { 0x116AC, 0x116AC }, { 0x116AE, 0x116AF }, { 0x116B6, 0x116B6 },
	{ 0x11726, 0x11726 }, { 0x1182C, 0x1182E }, { 0x11838, 0x11838 }, { 0x11930, 0x11935 }, { 0x11937, 0x11938 },
	{ 0x1193D, 0x1193D }, { 0x11940, 0x11940 }, { 0x11942, 0x11942 }, { 0x119D1, 0x119D3 }, { 0x119DC, 0x119DF },
	{ 0x119E4, 0x119E4 }, { 0x11A39, 0x11A39 }, { 0x11A57, 0x11A58 }, { 0x11A97, 0x11A97 }, { 0x11C2F, 0x11C2F },
	{ 0x11C3E, 0x11C3E }, { 0x11CA9, 0x11CA9 }, { 0x11CB1, 0x11CB1 }, { 0x11CB4, 0x11CB4 }, { 0x11D8A, 0x11D8E },
	{ 0x11D93, 0x11D94 }, { 0x11D96, 0x11D96 }, { 0x11EF5, 0x11EF6 }, { 0x16F51, 0x16F87 }, { 0x16FF0, 0x16FF1 },
	{ 0x1D165, 0x1D166 }, { 0x1D16D, 0x1D172 },
};

static bool cp_is_spacing_mark(uint32_t cp)
{
	size_t lo = 0, hi = sizeof spacing_marks / sizeof *spacing_marks;
	if (cp < spacing_marks[0][0])
		return false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cp < spacing_marks[mid][0])
			hi = mid;
		else if (cp > spacing_marks[mid][1])
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/* The viramas that join two consonants into one conjunct cluster (क्ष), by Unicode's
 * Indic_Conjunct_Break=Linker; the consonant after one must be a letter of its script. */
static bool cp_is_linker(uint32_t cp)
{
	return cp == 0x94D || cp == 0x9CD || cp == 0xACD || cp == 0xB4D || cp == 0xC4D || cp == 0xD4D;
}

static bool cp_is_letter_of(uint32_t cp, uint32_t linker)
{
	uint32_t block = linker & ~(uint32_t)0x7F;
	return cp >= block + 0x15 && cp <= block + 0x39;
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
	uint32_t linker = 0;            /* the virama just seen, while only marks follow it */
	while (i < n) {
		uint32_t next;
		size_t len = utf8_decode(s + i, n - i, &next);
		if (cp_is_control(next))
			break;
		bool mark = cp_is_extender(next) || cp_width(next) == 0 || cp_is_spacing_mark(next);
		bool join = after_zwj || mark || (open_pair && cp_is_regional(next)) ||
			    (linker && cp_is_letter_of(next, linker));
		if (!join)
			break;
		open_pair = false;
		after_zwj = next == CP_ZWJ;
		if (cp_is_linker(next))
			linker = next;
		else if (!mark)
			linker = 0;
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

/* No UTF-8 text is wider than its bytes (a wide character takes three or four), so a short
 * text fits without being measured. */
bool text_fits(const char *s, size_t n, int width)
{
	return width >= 0 && (n <= (size_t)width || text_width(s, n) <= width);
}

size_t text_wrap_row(const char *s, size_t n, int width, size_t *next)
{
	size_t i = 0, space = 0;
	bool have_space = false;
	int w = 0;
	while (i < n) {
		if (s[i] == '\n') {
			*next = i + 1;
			return i;
		}
		int gw;
		size_t g = grapheme_next(s + i, n - i, &gw);
		if (w + gw > width && (s[i] == ' ' || have_space || i)) {
			size_t end = s[i] == ' ' ? i : have_space ? space : i;
			size_t j = end;
			while (j < n && s[j] == ' ')
				j++;
			*next = j;
			while (end > 0 && s[end - 1] == ' ')
				end--;
			return end;
		}
		if (s[i] == ' ' && i)
			space = i, have_space = true;
		w += gw;
		i += g;
	}
	*next = n;
	return n;
}
