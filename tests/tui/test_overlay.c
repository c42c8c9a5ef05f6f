/* The keys overlay is made from the tables that dispatch: every row of every context has a
 * help text and its key's name is in the overlay's text, at a wide and a narrow width; keys
 * with one help text share a line; every slash command is listed. And Tab completion of
 * slash commands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv.h"
#include "bindings.h"

static void check_width(int width)
{
	struct buf text;
	buf_init(&text);
	overlay_text(width, &text);
	const char *s = buf_cstr(&text);
	struct bindings_context c[16];
	size_t n = bindings_contexts(c, 16);
	assert_true(n >= 7);
	size_t rows = 0;
	for (size_t i = 0; i < n; i++) {
		assert_non_null(strstr(s, c[i].name));
		for (size_t t = 0; t < c[i].ntables; t++)
			for (size_t r = 0; r < c[i].count[t]; r++) {
				const struct binding *b = &c[i].rows[t][r];
				rows++;
				if (b->command) {
					char want[64];
					snprintf(want, sizeof want, "/%s", b->command);
					if (!strstr(s, want))
						fail_msg("width %d: %s is not listed", width, want);
				}
				if (!b->help || !*b->help)
					fail_msg("%s: a row has no help text", c[i].name);
				if (b->kind == KEYS_NONE)
					continue;
				struct buf name;
				buf_init(&name);
				keys_describe(b->kind, b->mods, b->cp, &name);
				if (!strcmp(buf_cstr(&name), "?") && !(b->kind == KEYS_CHAR && b->cp == '?'))
					fail_msg("%s: a key of kind %d has no name", c[i].name, (int)b->kind);
				if (!b->help || !*b->help)
					fail_msg("%s: %s has no help text", c[i].name, buf_cstr(&name));
				if (!strstr(s, buf_cstr(&name)))
					fail_msg("width %d: %s (%s) is not listed", width, buf_cstr(&name),
						 c[i].name);
				buf_fini(&name);
			}
	}
	assert_true(rows > 60);
	buf_fini(&text);
}

static void test_every_row_listed(void **state)
{
	(void)state;
	check_width(100);
	check_width(80);
	check_width(30);
}

/* Same help, one line; the keys the issue found missing are there. */
static void test_shared_lines(void **state)
{
	(void)state;
	struct buf text;
	buf_init(&text);
	overlay_text(100, &text);
	const char *s = buf_cstr(&text);
	assert_non_null(strstr(s, "PgUp, Shift-PgUp"));
	assert_non_null(strstr(s, "Ctrl-W, Alt-Backspace"));
	static const char *const want[] = { "Ctrl-U", "Ctrl-K", "Ctrl-Y", "Ctrl-Z", "Shift-Up",
					    "Ctrl-Home", "Ctrl-End", "F1", "/resume", "Ctrl-O" };
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		if (!strstr(s, want[i]))
			fail_msg("%s is not listed", want[i]);
	/* One line per help text in a context: "scroll up a page" once in "Everywhere". */
	const char *every = strstr(s, "Everywhere"), *next = strstr(s, "Typing a message");
	assert_non_null(every);
	assert_non_null(next);
	const char *first = strstr(every, "scroll up a page");
	assert_true(first && first < next);
	const char *second = strstr(first + 1, "scroll up a page");
	assert_true(!second || second > next);
	/* Every line fits the width. */
	for (const char *p = s; *p;) {
		size_t n = strcspn(p, "\n");
		assert_true(text_width(p, n) <= 100);
		p += n + (p[n] == '\n');
	}
	buf_fini(&text);
}

static struct tui *fake_tui(void)
{
	struct tui *u = calloc(1, sizeof *u);
	editor_init(&u->input);
	u->ui.quitting = true; /* no loop: notices schedule no frame */
	return u;
}

static void fake_free(struct tui *u)
{
	editor_fini(&u->input);
	ui_fini(&u->ui);
	free(u);
}

static void type(struct tui *u, const char *s)
{
	editor_set(&u->input, s, strlen(s));
	free(u->ui.notice);
	u->ui.notice = NULL;
}

static void test_completion(void **state)
{
	(void)state;
	struct tui *u = fake_tui();
	type(u, "/pa");
	assert_true(slash_complete(u));
	assert_string_equal(editor_text(&u->input), "/pause ");
	type(u, "/re");                  /* reject, resume: their common prefix, both listed */
	assert_true(slash_complete(u));
	assert_string_equal(editor_text(&u->input), "/re");
	assert_non_null(u->ui.notice);
	assert_non_null(strstr(u->ui.notice, "/reject"));
	assert_non_null(strstr(u->ui.notice, "/resume"));
	type(u, "/co");                  /* confirm, copy: "co" stays */
	assert_true(slash_complete(u));
	assert_string_equal(editor_text(&u->input), "/co");
	type(u, "/in");
	assert_true(slash_complete(u));
	assert_string_equal(editor_text(&u->input), "/interrupt ");
	type(u, "/zz");
	assert_true(slash_complete(u));
	assert_string_equal(editor_text(&u->input), "/zz");
	assert_non_null(strstr(u->ui.notice, "no command starts with /zz"));
	type(u, "/");                    /* all of them */
	assert_true(slash_complete(u));
	assert_non_null(strstr(u->ui.notice, "/quit"));
	type(u, "/pause now");           /* not a name being typed: Tab keeps its meaning */
	assert_false(slash_complete(u));
	type(u, "//x");
	assert_false(slash_complete(u));
	type(u, "hello");
	assert_false(slash_complete(u));
	fake_free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_listed),
		cmocka_unit_test(test_shared_lines),
		cmocka_unit_test(test_completion),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
