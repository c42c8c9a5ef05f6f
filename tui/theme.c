/* theme: the colour roles on dark and light backgrounds, and how the background is known. */
#include "theme.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each 256-colour value is at least 4.5:1 against its theme's background (test_theme). */
const struct theme_role theme_roles[PAIR_COUNT] = {
	[PAIR_USER] = { "user", 44, 24, COLOR_CYAN, COLOR_BLUE },
	[PAIR_AGENT] = { "agent", 170, 127, COLOR_MAGENTA, COLOR_MAGENTA },
	[PAIR_PENDING] = { "pending", 184, 94, COLOR_YELLOW, COLOR_RED },
	[PAIR_DONE] = { "done", 40, 28, COLOR_GREEN, COLOR_GREEN },
	[PAIR_ERROR] = { "error", 167, 124, COLOR_RED, COLOR_RED },
	[PAIR_CODE] = { "code", 40, 22, COLOR_GREEN, COLOR_GREEN },
	[PAIR_NOTICE] = { "notice", 69, 25, COLOR_BLUE, COLOR_BLUE },
	[PAIR_MARKER] = { "marker", 184, 94, COLOR_YELLOW, COLOR_MAGENTA },
	[PAIR_KEYWORD] = { "keyword", 170, 127, COLOR_MAGENTA, COLOR_MAGENTA },
	[PAIR_STRING] = { "string", 184, 94, COLOR_YELLOW, COLOR_RED },
	[PAIR_COMMENT] = { "comment", 245, 241, COLOR_WHITE, COLOR_BLACK },
	[PAIR_NUMERAL] = { "numeral", 44, 24, COLOR_CYAN, COLOR_BLUE },
	[PAIR_DIFF_HUNK] = { "diff hunk", 44, 24, COLOR_CYAN, COLOR_BLUE },
	[PAIR_DIFF_DEL] = { "diff removed", 167, 124, COLOR_RED, COLOR_RED },
	[PAIR_DIFF_ADD] = { "diff added", 40, 28, COLOR_GREEN, COLOR_GREEN },
};

const short theme_background[2] = { [THEME_DARK] = 16, [THEME_LIGHT] = 231 };

short theme_color(enum draw_pair pair, enum theme_kind theme, int colors)
{
	const struct theme_role *r = &theme_roles[pair];
	if (colors >= 256)
		return theme == THEME_LIGHT ? r->light : r->dark;
	return theme == THEME_LIGHT ? r->basic_light : r->basic_dark;
}

uint32_t theme_rgb(short c)
{
	static const uint32_t system[16] = {
		0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
		0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
	};
	static const uint32_t level[6] = { 0, 95, 135, 175, 215, 255 };
	if (c < 0 || c > 255)
		return 0;
	if (c < 16)
		return system[c];
	if (c < 232) {
		c -= 16;
		return level[c / 36] << 16 | level[c / 6 % 6] << 8 | level[c % 6];
	}
	uint32_t g = 8 + 10 * (uint32_t)(c - 232);
	return g << 16 | g << 8 | g;
}

static double channel(uint32_t v)
{
	double x = (double)v / 255.0;
	return x <= 0.03928 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
}

static double luminance(uint32_t rgb)
{
	return 0.2126 * channel(rgb >> 16 & 255) + 0.7152 * channel(rgb >> 8 & 255) +
	       0.0722 * channel(rgb & 255);
}

double theme_contrast(uint32_t a, uint32_t b)
{
	double la = luminance(a), lb = luminance(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* One channel of an X11 colour: 1 to 4 hex digits, scaled to 0–255; -1 when not. */
static int hex_channel(const char *s, size_t n)
{
	if (n < 1 || n > 4)
		return -1;
	unsigned long v = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + (unsigned long)d;
	}
	unsigned long max = (1ul << (4 * n)) - 1;
	return (int)((v * 255 + max / 2) / max);
}

int theme_from_osc11(const char *s, size_t n, enum theme_kind *out)
{
	static const char head[] = "]11;rgb:";
	size_t h = sizeof head - 1;
	if (n <= h || memcmp(s, head, h) != 0)
		return -1;
	int ch[3];
	size_t at = h;
	for (int i = 0; i < 3; i++) {
		size_t end = at;
		while (end < n && s[end] != '/')
			end++;
		if ((i < 2) != (end < n) || (ch[i] = hex_channel(s + at, end - at)) < 0)
			return -1;
		at = end + 1;
	}
	uint32_t rgb = (uint32_t)ch[0] << 16 | (uint32_t)ch[1] << 8 | (uint32_t)ch[2];
	/* Light when black text reads better on it than white text does. */
	*out = theme_contrast(rgb, 0x000000) > theme_contrast(rgb, 0xffffff) ? THEME_LIGHT : THEME_DARK;
	return 0;
}

int theme_from_colorfgbg(const char *v, enum theme_kind *out)
{
	const char *last = v ? strrchr(v, ';') : NULL;
	if (!last || !last[1])
		return -1;
	char *end;
	long bg = strtol(last + 1, &end, 10);
	if (*end || bg < 0 || bg > 15)
		return -1;
	/* rxvt's convention: 0–6 and 8 are dark backgrounds, 7 and 9–15 light. */
	*out = bg <= 6 || bg == 8 ? THEME_DARK : THEME_LIGHT;
	return 0;
}
