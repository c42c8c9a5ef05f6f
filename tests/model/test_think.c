/* Streamed text with the model's thinking inline (<think>…</think>): the thinking goes to the
 * slot's reasoning, the tags never show, also when a tag is split across deltas, and a new
 * attempt starts over. */
#include "helpers.h"

static void check(struct transcript *t, const char *text, const char *reasoning)
{
	struct item_info info = info_of(t, 0);
	assert_int_equal(info.text_len, strlen(text));
	assert_memory_equal(info.text, text, info.text_len);
	assert_int_equal(info.reasoning_len, strlen(reasoning));
	assert_memory_equal(info.reasoning, reasoning, info.reasoning_len);
}

static void thinking_goes_to_reasoning(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	delta(t, "s", 1, 0, "<think>Plan the fix.\n</think>\n\n\nHere is the fix.");
	check(t, "Here is the fix.", "Plan the fix.\n");
	assert_int_equal(info_of(t, 0).streaming, true);
	transcript_destroy(t);
}

static void every_split_of_the_tags(void **state)
{
	(void)state;
	static const char whole[] = "<think>a<b</think>\nanswer <i>x</i> done";
	for (size_t cut1 = 0; cut1 <= sizeof whole - 1; cut1++) {
		for (size_t cut2 = cut1; cut2 <= sizeof whole - 1; cut2++) {
			struct transcript *t = transcript_create();
			char part[64];
			int64_t order = 0;
			size_t cuts[] = { 0, cut1, cut2, sizeof whole - 1 };
			for (int k = 0; k < 3; k++) {
				size_t n = cuts[k + 1] - cuts[k];
				memcpy(part, whole + cuts[k], n);
				part[n] = '\0';
				delta(t, "s", 1, order++, part);
			}
			check(t, "answer <i>x</i> done", "a<b");
			transcript_destroy(t);
		}
	}
}

static void a_held_back_prefix_that_is_no_tag_shows(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	delta(t, "s", 1, 0, "x <thi");
	check(t, "x ", "");
	delta(t, "s", 1, 1, "s is not a tag");
	check(t, "x <this is not a tag", "");
	transcript_destroy(t);
}

static void a_new_attempt_starts_over(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	delta(t, "s", 1, 0, "<think>first try");
	check(t, "", "first try");
	delta(t, "s", 2, 0, "plain answer");
	check(t, "plain answer", "");
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(thinking_goes_to_reasoning),
		cmocka_unit_test(every_split_of_the_tags),
		cmocka_unit_test(a_held_back_prefix_that_is_no_tag_shows),
		cmocka_unit_test(a_new_attempt_starts_over),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
