/* One action table: a key and the slash command that does the same are one row with one help
 * text. Every command name is unique across the contexts; the pairs the code has (F1 /help,
 * F5 /reconnect, Ctrl-G /board, Esc /interrupt, Ctrl-O /confirm, Ctrl-X /edit) are one row
 * each, listed once in the overlay with both; slash_run finds every command's own row and runs
 * it. */
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

/* Calls each(row, ctx) for every row of every context. */
static void each_row(void (*each)(const struct binding *b, void *ctx), void *ctx)
{
	struct bindings_context c[BINDINGS_CONTEXTS_MAX];
	size_t n = bindings_contexts(c, BINDINGS_CONTEXTS_MAX);
	for (size_t i = 0; i < n; i++)
		for (size_t t = 0; t < c[i].ntables; t++)
			for (size_t r = 0; r < c[i].count[t]; r++)
				each(&c[i].rows[t][r], ctx);
}

struct seen {
	const char *names[64];
	size_t n;
};

static void collect(const struct binding *b, void *ctx)
{
	struct seen *s = ctx;
	if (!b->command)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], b->command))
			fail_msg("/%s is the command of two rows", b->command);
	assert_true(s->n < sizeof s->names / sizeof *s->names);
	s->names[s->n++] = b->command;
	assert_non_null(b->run);
	assert_true(b->help && *b->help);
	/* the help text is one, for the key and the command: no hand-written "(also …)" */
	assert_null(strstr(b->help, "(also "));
}

static void test_commands_unique(void **state)
{
	(void)state;
	struct seen s = { .n = 0 };
	each_row(collect, &s);
	assert_true(s.n >= 15);
}

/* The key of the row whose command is name ("" for none); fails when no row has it. */
static void key_of(const char *name, struct buf *out)
{
	const struct binding *b = bindings_command(name, strlen(name));
	if (!b)
		fail_msg("no row has the command /%s", name);
	if (b->kind != KEYS_NONE)
		keys_describe(b->kind, b->mods, b->cp, out);
}

static void test_pairs_are_one_row(void **state)
{
	(void)state;
	static const char *const pairs[][2] = {
		{ "help", "F1" },     { "reconnect", "F5" }, { "board", "Ctrl-G" },
		{ "interrupt", "Esc" }, { "confirm", "Ctrl-O" }, { "edit", "Ctrl-X" },
	};
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		struct buf key;
		buf_init(&key);
		key_of(pairs[i][0], &key);
		if (strcmp(buf_cstr(&key), pairs[i][1]))
			fail_msg("/%s is not on the row of %s (its key: \"%s\")", pairs[i][0],
				 pairs[i][1], buf_cstr(&key));
		buf_fini(&key);
	}
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
		n++;
	return n;
}

struct listing {
	const char *text;
};

/* A row with a key and a command: "  KEY  /command" once, and no line of the command alone;
 * a command alone: one line that starts with it. */
static void listed_once(const struct binding *b, void *ctx)
{
	const char *text = ((struct listing *)ctx)->text;
	if (!b->command)
		return;
	char alone[64], both[96];
	snprintf(alone, sizeof alone, "\n  /%s", b->command);
	if (b->kind == KEYS_NONE) {
		if (count(text, alone) != 1)
			fail_msg("/%s is listed %zu times", b->command, count(text, alone));
		return;
	}
	struct buf key;
	buf_init(&key);
	keys_describe(b->kind, b->mods, b->cp, &key);
	snprintf(both, sizeof both, "\n  %s  /%s", buf_cstr(&key), b->command);
	if (count(text, both) != 1 || count(text, alone) != 0)
		fail_msg("%s and /%s are not one line of the overlay", buf_cstr(&key), b->command);
	buf_fini(&key);
}

static void test_overlay_lists_a_pair_once(void **state)
{
	(void)state;
	struct buf text;
	buf_init(&text);
	overlay_text(100, &text);
	struct listing l = { buf_cstr(&text) };
	each_row(listed_once, &l);
	buf_fini(&text);
}

/* Every command's line finds its own row, whatever follows the name. */
static void found_by_name(const struct binding *b, void *ctx)
{
	(void)ctx;
	if (!b->command)
		return;
	char line[80];
	snprintf(line, sizeof line, "%s some words", b->command);
	assert_ptr_equal(bindings_command(line, strlen(b->command)), b);
	assert_null(bindings_command(b->command, strlen(b->command) - 1));
}

static void test_slash_run_reaches_the_row(void **state)
{
	(void)state;
	each_row(found_by_name, NULL);
	struct tui *u = calloc(1, sizeof *u);
	editor_init(&u->input);
	u->ui.quitting = true; /* no loop: notices schedule no frame */
	/* two commands run through slash_run: /clear empties the input, /time turns times on */
	editor_set(&u->input, "draft", 5);
	assert_true(slash_run(u, "/clear"));
	assert_string_equal(editor_text(&u->input), "");
	assert_true(slash_run(u, "/time on"));
	assert_true(render_clock_shown());
	assert_true(slash_run(u, "/time off"));
	assert_false(render_clock_shown());
	assert_true(slash_run(u, "/nosuch"));
	assert_non_null(strstr(u->ui.notice, "unknown command /nosuch"));
	assert_false(slash_run(u, "//x"));
	editor_fini(&u->input);
	ui_fini(&u->ui);
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commands_unique),
		cmocka_unit_test(test_pairs_are_one_row),
		cmocka_unit_test(test_overlay_lists_a_pair_once),
		cmocka_unit_test(test_slash_run_reaches_the_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
