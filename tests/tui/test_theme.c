/* The colour roles against both themes' backgrounds (WCAG 2 contrast ≥ 4.5:1 for text, the
 * xterm-256 palette), the background read from OSC 11 and COLORFGBG, and the terminal's
 * other answers (XTGETTCAP Ms, DA1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "probe.h"
#include "theme.h"

static void test_palette_and_ratio(void **state)
{
	(void)state;
	assert_int_equal(theme_rgb(16), 0x000000);
	assert_int_equal(theme_rgb(231), 0xffffff);
	assert_int_equal(theme_rgb(69), 0x5f87ff);
	assert_int_equal(theme_rgb(244), 0x808080);
	assert_int_equal(theme_rgb(4), 0x0000ee);
	assert_true(theme_contrast(0x000000, 0xffffff) > 20.99);
	assert_true(theme_contrast(0x777777, 0xffffff) > 4.47 && theme_contrast(0x777777, 0xffffff) < 4.49);
	assert_true(theme_contrast(0x123456, 0x123456) == 1.0);
}

/* Every role of the table, in both themes, on 256-colour terminals: readable text. A role
 * added to enum draw_pair without a row fails here too. */
static void test_every_role_is_readable(void **state)
{
	(void)state;
	int bad = 0;
	for (int pair = 1; pair < PAIR_COUNT; pair++) {
		const struct theme_role *r = &theme_roles[pair];
		if (!r->name) {
			fprintf(stderr, "pair %d has no row in theme_roles\n", pair);
			bad++;
			continue;
		}
		for (int t = THEME_DARK; t <= THEME_LIGHT; t++) {
			short fg = theme_color((enum draw_pair)pair, (enum theme_kind)t, 256);
			double ratio = theme_contrast(theme_rgb(fg), theme_rgb(theme_background[t]));
			if (ratio < 4.5) {
				fprintf(stderr, "%s on the %s theme: colour %d is %.2f:1 (at least 4.5:1)\n",
					r->name, t == THEME_DARK ? "dark" : "light", fg, ratio);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
}

static void test_background_from_osc11(void **state)
{
	(void)state;
	enum theme_kind t;
	static const struct {
		const char *s;
		int rc, want;
	} cases[] = {
		{ "]11;rgb:ffff/ffff/ffff", 0, THEME_LIGHT },
		{ "]11;rgb:0000/0000/0000", 0, THEME_DARK },
		{ "]11;rgb:fd/f6/e3", 0, THEME_LIGHT },          /* Solarized light */
		{ "]11;rgb:2828/2c2c/3434", 0, THEME_DARK },
		{ "]11;rgb:f/f/f", 0, THEME_LIGHT },
		{ "]11;rgb:ffff/ffff", -1, 0 },
		{ "]11;rgb:ffff/ffff/ffff/ffff", -1, 0 },
		{ "]11;rgb:gggg/0000/0000", -1, 0 },
		{ "]11;rgb:12345/0/0", -1, 0 },
		{ "]11;?", -1, 0 },
		{ "]10;rgb:ffff/ffff/ffff", -1, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		t = (enum theme_kind)-1;
		int rc = theme_from_osc11(cases[i].s, strlen(cases[i].s), &t);
		assert_int_equal(rc, cases[i].rc);
		if (rc == 0)
			assert_int_equal(t, cases[i].want);
	}
}

static void test_background_from_colorfgbg(void **state)
{
	(void)state;
	enum theme_kind t;
	assert_int_equal(theme_from_colorfgbg("15;0", &t), 0);
	assert_int_equal(t, THEME_DARK);
	assert_int_equal(theme_from_colorfgbg("0;15", &t), 0);
	assert_int_equal(t, THEME_LIGHT);
	assert_int_equal(theme_from_colorfgbg("0;default;7", &t), 0);
	assert_int_equal(t, THEME_LIGHT);
	assert_int_equal(theme_from_colorfgbg("7;8", &t), 0);
	assert_int_equal(t, THEME_DARK);
	assert_int_equal(theme_from_colorfgbg(NULL, &t), -1);
	assert_int_equal(theme_from_colorfgbg("", &t), -1);
	assert_int_equal(theme_from_colorfgbg("15;default", &t), -1);
	assert_int_equal(theme_from_colorfgbg("15;99", &t), -1);
}

/* The queries, and what each answer tells: OSC 11 the background, XTGETTCAP Ms the clipboard,
 * DA1 without an Ms answer before it: no clipboard said. */
static void test_probe_answers(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	probe_query_bytes(true, true, &b);
	assert_string_equal(buf_cstr(&b), "\033]11;?\033\\\033P+q4d73\033\\\033[c");
	buf_clear(&b);
	probe_query_bytes(false, false, &b);
	assert_string_equal(buf_cstr(&b), "\033[c");
	buf_fini(&b);

	struct probe p;
	probe_init(&p);
	p.asked_clipboard = true;
	const char light[] = "]11;rgb:ffff/ffff/ffff";
	assert_true(probe_reply(&p, light, strlen(light)));
	assert_int_equal(p.background, THEME_LIGHT);
	assert_false(probe_reply(&p, light, strlen(light)));   /* nothing new */
	assert_false(probe_reply(&p, "]11;junk", 8));
	assert_int_equal(p.background, THEME_LIGHT);
	assert_int_equal(p.clipboard, -1);
	assert_false(probe_reply(&p, "[?62;22c", 8));
	assert_true(p.answered);
	assert_int_equal(p.clipboard, 0);

	probe_init(&p);
	p.asked_clipboard = true;
	const char ms[] = "P1+r4d73=5c455d35323b25703125733b25703225735c303037";
	probe_reply(&p, ms, strlen(ms));
	probe_reply(&p, "[?1;2c", 6);
	assert_int_equal(p.clipboard, 1);
	assert_int_equal(p.background, -1);

	probe_init(&p);
	p.asked_clipboard = true;
	probe_reply(&p, "P0+r4d73", 8);
	assert_int_equal(p.clipboard, 0);

	/* DA1's 52: clipboard access (xterm, foot, contour); 520 is not 52. */
	probe_init(&p);
	p.asked_clipboard = true;
	probe_reply(&p, "[?62;22;52c", 11);
	assert_int_equal(p.clipboard, 1);
	probe_init(&p);
	p.asked_clipboard = true;
	probe_reply(&p, "[?62;520;4c", 11);
	assert_int_equal(p.clipboard, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_palette_and_ratio),
		cmocka_unit_test(test_every_role_is_readable),
		cmocka_unit_test(test_background_from_osc11),
		cmocka_unit_test(test_background_from_colorfgbg),
		cmocka_unit_test(test_probe_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
