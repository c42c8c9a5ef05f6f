/* Render clock: one frame per period however many changes, the first change after an idle
 * period painted at once. Times are passed in, so nothing here depends on the machine. */
#include "helpers.h"
#include "render.h"

static void hz_is_clamped(void **state)
{
	(void)state;
	struct render_clock lo, hi, mid;
	render_clock_init(&lo, 0);
	render_clock_init(&hi, 100000);
	render_clock_init(&mid, 50);
	struct render_clock one, max;
	render_clock_init(&one, 1);
	render_clock_init(&max, 240);
	assert_int_equal(lo.period_us, one.period_us);
	assert_int_equal(hi.period_us, max.period_us);
	assert_int_equal(mid.period_us, 1000000 / 50);
	assert_false(mid.armed);
}

static void first_change_is_painted_at_once(void **state)
{
	(void)state;
	struct render_clock c;
	render_clock_init(&c, 30);
	assert_int_equal(render_clock_mark(&c, 5), 0);
	assert_true(c.armed);
}

static void marks_while_armed_ask_nothing(void **state)
{
	(void)state;
	struct render_clock c;
	render_clock_init(&c, 30);
	int64_t t0 = 1000000;
	render_clock_mark(&c, t0);
	render_clock_painted(&c, t0);
	int64_t d = render_clock_mark(&c, t0 + 1000);
	assert_int_equal(d, c.period_us - 1000);
	for (int i = 2; i < 500; i++)
		assert_int_equal(render_clock_mark(&c, t0 + i), -1); /* 500 deltas, one frame */
	render_clock_painted(&c, t0 + c.period_us);
	assert_false(c.armed);
	assert_int_equal(c.last_frame_us, t0 + c.period_us);
}

static void delay_is_to_the_next_boundary(void **state)
{
	(void)state;
	struct render_clock c;
	render_clock_init(&c, 60);
	int64_t t0 = 42;
	render_clock_mark(&c, t0);
	render_clock_painted(&c, t0);
	/* just after a frame: wait nearly a period */
	assert_int_equal(render_clock_mark(&c, t0 + 1), c.period_us - 1);
	render_clock_painted(&c, t0 + c.period_us);
	/* long after the last frame: at once, never negative */
	assert_int_equal(render_clock_mark(&c, t0 + 100 * c.period_us), 0);
	render_clock_painted(&c, t0 + 100 * c.period_us);
	/* exactly one period later: at once */
	assert_int_equal(render_clock_mark(&c, t0 + 101 * c.period_us), 0);
}

static void clock_going_backwards_waits_at_most_a_period(void **state)
{
	(void)state;
	struct render_clock c;
	render_clock_init(&c, 30);
	render_clock_painted(&c, 1000000);
	int64_t d = render_clock_mark(&c, 500000);
	assert_true(d >= 0 && d <= c.period_us);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hz_is_clamped),
		cmocka_unit_test(first_change_is_painted_at_once),
		cmocka_unit_test(marks_while_armed_ask_nothing),
		cmocka_unit_test(delay_is_to_the_next_boundary),
		cmocka_unit_test(clock_going_backwards_waits_at_most_a_period),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
