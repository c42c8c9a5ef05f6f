/* theme: the colour of each role of text (a pair) on a dark and on a light
 * background, in one table that every role has a row of; the background's lightness from
 * the terminal's answer to OSC 11 or from COLORFGBG; contrast ratios after WCAG 2. */
#ifndef TETHER_THEME_H
#define TETHER_THEME_H

#include "base.h"

#include <curses.h>

enum draw_pair {
	PAIR_USER = 1,
	PAIR_AGENT,
	PAIR_PENDING,
	PAIR_DONE,
	PAIR_ERROR,
	PAIR_CODE,
	PAIR_NOTICE,
	PAIR_MARKER,
	/* highlighted code and diffs (render's enum token) */
	PAIR_KEYWORD,
	PAIR_STRING,
	PAIR_COMMENT,
	PAIR_NUMERAL,
	PAIR_DIFF_HUNK,
	PAIR_DIFF_DEL,
	PAIR_DIFF_ADD,
	PAIR_COUNT,
};

enum theme_kind { THEME_DARK, THEME_LIGHT };

/* One role: xterm-256 colour numbers on 256-colour terminals (fixed colours, so their
 * contrast is known), and the basic eight for terminals with fewer (their palette is the
 * user's own). */
struct theme_role {
	const char *name;
	short dark, light;
	short basic_dark, basic_light;
};

/* The roles, indexed by enum draw_pair (row 0 unused). */
extern const struct theme_role theme_roles[PAIR_COUNT];
/* The xterm-256 colour number each theme assumes as the background. */
extern const short theme_background[2];

/* The colour of pair in theme, for a terminal with colors colours. */
short theme_color(enum draw_pair pair, enum theme_kind theme, int colors);
/* The RGB of an xterm-256 colour number (xterm's defaults for 0–15), as 0xRRGGBB. */
uint32_t theme_rgb(short color);
/* The contrast ratio between two RGB colours (1 to 21). */
double theme_contrast(uint32_t a, uint32_t b);
/* The theme of an OSC 11 answer ("]11;rgb:RRRR/GGGG/BBBB", 1 to 4 hex digits each);
 * -1 when s is not one. */
int theme_from_osc11(const char *s, size_t n, enum theme_kind *out);
/* The theme COLORFGBG ("fg;bg", "fg;default;bg") says; -1 when it says none. */
int theme_from_colorfgbg(const char *v, enum theme_kind *out);

#endif
