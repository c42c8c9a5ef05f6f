/* Reveal pacing: a burst drains within two ticks, a trickle shows at the next tick, and a
 * tick never cuts a UTF-8 character. Observed through the shown length (a test hook). */
#include "helpers.h"

#include <stdlib.h>

static bool is_boundary(const struct transcript *t, size_t idx, size_t at)
{
	struct item_info info = info_of(t, idx);
	return at == info.text_len || ((unsigned char)info.text[at] & 0xC0) != 0x80;
}

static void burst_is_shown_after_exactly_two_ticks(void **state)
{
	(void)state;
	static const size_t sizes[] = { 2, 3, 17, 1000, 65537 };
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k];
		char *burst = xmalloc(n + 1);
		memset(burst, 'x', n);
		burst[n] = '\0';
		struct transcript *t = transcript_create();
		transcript_stream_start(t, "s", 1, false, 0);
		delta(t, "s", 1, 0, burst);
		assert_int_equal(transcript_shown_len(t, 0), 0); /* nothing before a tick */
		assert_true(transcript_reveal_tick(t));
		size_t after_one = transcript_shown_len(t, 0);
		assert_true(after_one > 0);
		assert_true(after_one < n);                      /* a burst does not dump */
		assert_false(transcript_reveal_tick(t));
		assert_int_equal(transcript_shown_len(t, 0), n);
		assert_false(transcript_reveal_tick(t));         /* and nothing left to do */
		transcript_destroy(t);
		free(burst);
	}
}

static void trickle_shows_every_byte_on_the_next_tick(void **state)
{
	(void)state;
	static const char *const pieces[] = { "a", "b", "é", "日", "😀", "c", "\n", "d" };
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "s", 1, false, 0);
	for (int round = 0; round < 20; round++) {
		for (size_t k = 0; k < sizeof pieces / sizeof *pieces; k++) {
			delta(t, "s", 1, (int64_t)(round * 8 + (int)k), pieces[k]);
			transcript_reveal_tick(t);
			assert_int_equal(transcript_shown_len(t, 0), info_of(t, 0).text_len);
		}
	}
	transcript_destroy(t);
}

static void tick_never_cuts_a_character(void **state)
{
	(void)state;
	static const char *const chars[] = { "a", "é", "日", "😀", "\xcc\x81" };
	uint32_t seed = 12345;
	for (int run = 0; run < 200; run++) {
		struct transcript *t = transcript_create();
		transcript_stream_start(t, "s", 1, false, 0);
		int64_t order = 0;
		size_t last_shown = 0;
		for (int step = 0; step < 40; step++) {
			seed = seed * 1103515245u + 12345u;
			int nchars = (int)(seed >> 16) % 9;
			for (int c = 0; c < nchars; c++) {
				seed = seed * 1103515245u + 12345u;
				const char *ch = chars[(seed >> 16) % 5];
				delta(t, "s", 1, order++, ch);
			}
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 3)
				transcript_reveal_tick(t);
			size_t shown = transcript_shown_len(t, 0);
			assert_true(is_boundary(t, 0, shown));
			assert_true(shown >= last_shown);
			assert_true(shown <= info_of(t, 0).text_len);
			last_shown = shown;
		}
		transcript_reveal_tick(t);
		transcript_reveal_tick(t);
		assert_int_equal(transcript_shown_len(t, 0), info_of(t, 0).text_len);
		transcript_destroy(t);
	}
}

static void single_multibyte_char_is_revealed_whole(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "s", 1, false, 0);
	delta(t, "s", 1, 0, "😀"); /* 4 bytes: a step of 2 would cut it */
	transcript_reveal_tick(t);
	assert_int_equal(transcript_shown_len(t, 0), 4);
	transcript_destroy(t);
}

static void retire_shows_everything_at_once(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "s", 1, false, 0);
	delta(t, "s", 1, 0, "a long streamed answer");
	transcript_reveal_tick(t);
	assert_true(transcript_shown_len(t, 0) < info_of(t, 0).text_len);
	add(t, ITEM_AGENT, 0, "s", "the durable answer");
	assert_int_equal(transcript_shown_len(t, 0), strlen("the durable answer"));
	assert_false(transcript_reveal_tick(t));
	transcript_destroy(t);
}

static void supersede_starts_reveal_over(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "s", 1, false, 0);
	delta(t, "s", 1, 0, "first attempt text");
	transcript_reveal_tick(t);
	transcript_reveal_tick(t);
	transcript_stream_start(t, "s", 2, false, 0);
	assert_int_equal(transcript_shown_len(t, 0), 0);
	delta(t, "s", 2, 0, "ab");
	transcript_reveal_tick(t);
	assert_int_equal(transcript_shown_len(t, 0), 1);
	transcript_reveal_tick(t);
	assert_int_equal(transcript_shown_len(t, 0), 2);
	transcript_destroy(t);
}

static void each_slot_paces_on_its_own(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	transcript_stream_start(t, "a", 1, false, 0);
	transcript_stream_start(t, "b", 1, false, 0);
	delta(t, "a", 1, 0, "0123456789");
	transcript_reveal_tick(t);
	delta(t, "b", 1, 0, "x");
	transcript_reveal_tick(t);
	assert_int_equal(transcript_shown_len(t, 0), 10);
	assert_int_equal(transcript_shown_len(t, 1), 1);
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(burst_is_shown_after_exactly_two_ticks),
		cmocka_unit_test(trickle_shows_every_byte_on_the_next_tick),
		cmocka_unit_test(tick_never_cuts_a_character),
		cmocka_unit_test(single_multibyte_char_is_revealed_whole),
		cmocka_unit_test(retire_shows_everything_at_once),
		cmocka_unit_test(supersede_starts_reveal_over),
		cmocka_unit_test(each_slot_paces_on_its_own),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
