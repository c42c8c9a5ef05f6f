/* clock: coalesces changes into frames at a fixed period (protocol.md §7.2 rule 17). */
#include "render.h"

/* last_frame_us before any frame: the first change is painted at once. */
#define NEVER_PAINTED INT64_MIN

void render_clock_init(struct render_clock *c, int hz)
{
	if (hz < 1)
		hz = 1;
	if (hz > 240)
		hz = 240;
	c->period_us = 1000000 / hz;
	c->last_frame_us = NEVER_PAINTED;
	c->armed = false;
}

int64_t render_clock_mark(struct render_clock *c, int64_t now_us)
{
	if (c->armed)
		return -1;
	c->armed = true;
	if (c->last_frame_us == NEVER_PAINTED)
		return 0;
	int64_t elapsed = now_us - c->last_frame_us;
	if (elapsed < 0)
		return c->period_us; /* the clock went backwards: wait one period at most */
	return elapsed >= c->period_us ? 0 : c->period_us - elapsed;
}

void render_clock_painted(struct render_clock *c, int64_t now_us)
{
	c->armed = false;
	c->last_frame_us = now_us;
}
