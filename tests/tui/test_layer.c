/* The stack of layers: the top, the topmost that covers the screen (the overlay above all),
 * the prompt area's layer only when on top, each layer open once, and switching closes every
 * layer from the top down, the overlay left open. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "layer.h"

#include <string.h>

static char closed[16];
static size_t nclosed;
static struct layers *stack;

static void close_a(struct tui *u);
static void close_b(struct tui *u);
static void close_c(struct tui *u);

static const struct layer a = { .name = "a", .close = close_a };
static const struct layer b = { .name = "b", .screen = true, .close = close_b };
static const struct layer c = { .name = "c", .close = close_c };
static const struct layer overlay = { .name = "overlay", .screen = true, .close = close_a };

static void closing(struct tui *u, const struct layer *l, char name)
{
	(void)u;
	closed[nclosed++] = name;
	layers_pop(stack, l);
}

static void close_a(struct tui *u)
{
	closing(u, &a, 'a');
}

static void close_b(struct tui *u)
{
	closing(u, &b, 'b');
}

/* A close that forgets to take its layer off: the stack goes on all the same. */
static void close_c(struct tui *u)
{
	(void)u;
	closed[nclosed++] = 'c';
}

static void test_top_and_screen(void **state)
{
	(void)state;
	struct layers s = { .n = 0 };
	assert_null(layers_top(&s));
	assert_null(layers_screen(&s));
	assert_null(layers_prompt(&s));
	layers_push(&s, &a);
	assert_ptr_equal(layers_top(&s), &a);
	assert_ptr_equal(layers_prompt(&s), &a);
	assert_null(layers_screen(&s));
	layers_push(&s, &b);
	layers_push(&s, &b); /* open already: not twice */
	assert_int_equal(s.n, 2);
	assert_ptr_equal(layers_screen(&s), &b);
	assert_null(layers_prompt(&s)); /* a screen layer on top: no prompt area */
	layers_push(&s, &c);
	assert_ptr_equal(layers_screen(&s), &b); /* the prompt layer over the board */
	assert_ptr_equal(layers_prompt(&s), &c);
	s.overlay = &overlay;
	assert_ptr_equal(layers_screen(&s), &overlay);
	assert_ptr_equal(layers_top(&s), &c); /* the overlay is not in the stack */
	assert_false(layers_pop(&s, &b));     /* only the top comes off */
	assert_true(layers_pop(&s, &c));
	assert_true(layers_has(&s, &a));
	assert_false(layers_has(&s, &c));
}

static void test_close_all_from_the_top(void **state)
{
	(void)state;
	struct layers s = { .n = 0 };
	stack = &s;
	nclosed = 0;
	layers_push(&s, &a);
	layers_push(&s, &b);
	layers_push(&s, &c);
	s.overlay = &overlay;
	layers_close_all(&s, NULL);
	assert_int_equal(s.n, 0);
	assert_int_equal(nclosed, 3);
	assert_memory_equal(closed, "cba", 3);
	assert_ptr_equal(s.overlay, &overlay);
	layers_push(&s, &a);
	layers_drop_all(&s);
	assert_int_equal(s.n, 0);
	assert_int_equal(nclosed, 3); /* dropped, not closed */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_and_screen),
		cmocka_unit_test(test_close_all_from_the_top),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
