/* Delta frames decoded without a tree (net/codec_delta.c) against the same frames decoded
 * through cJSON: every field the same, and whatever the span decoder does not take still
 * decodes (or fails with cJSON's words) through frame_decode. */
#include "codec_test.h"
#include "codec_int.h"

/* json decoded both ways, from exact-size heap copies (ASan sees a read past the end). */
static void check_twin(const char *json, bool fast)
{
	size_t len = strlen(json);
	char *copy = malloc(len ? len : 1);
	memcpy(copy, json, len);
	struct frame a, b;
	struct frame_store *st = NULL;
	memset(&a, 0, sizeof a);
	int rc_fast = codec_delta_decode(copy, len, &a, &st);
	if (rc_fast == 0)
		a.priv_ = st;
	if (!fast) {
		assert_int_equal(rc_fast, -1);
		/* frame_decode still takes it (or fails) as cJSON does */
		struct codec_error e1, e2;
		int r1 = frame_decode(copy, len, &a, &e1);
		int r2 = codec_frame_decode_tree(copy, len, &b, &e2);
		assert_int_equal(r1, r2);
		if (r1 < 0)
			assert_string_equal(e1.message, e2.message);
		else
			assert_string_equal(a.content ? a.content : "", b.content ? b.content : "");
		frame_fini(&a);
		frame_fini(&b);
		free(copy);
		return;
	}
	assert_int_equal(rc_fast, 0);
	assert_int_equal(codec_frame_decode_tree(copy, len, &b, NULL), 0);
	free(copy);
	assert_int_equal(a.type, FRAME_DELTA);
	assert_int_equal(b.type, FRAME_DELTA);
	assert_string_equal(a.type_name, b.type_name);
	assert_string_equal(a.item_id, b.item_id);
	assert_int_equal(a.attempt, b.attempt);
	assert_int_equal(a.order, b.order);
	assert_int_equal(a.delta_kind, b.delta_kind);
	assert_int_equal(a.content_len, b.content_len);
	assert_memory_equal(a.content, b.content, a.content_len + 1);
	if (b.chunk_id)
		assert_string_equal(a.chunk_id, b.chunk_id);
	else
		assert_null(a.chunk_id);
	assert_int_equal(a.has_choice_index, b.has_choice_index);
	assert_int_equal(a.choice_index, b.choice_index);
	frame_fini(&a);
	frame_fini(&b);
}

#define D(rest) "{\"type\":\"delta\",\"item_id\":\"item-1\"," rest "}"

static void test_deltas_as_cjson_reads_them(void **state)
{
	(void)state;
	/* the protocol's own examples */
	check_twin("{\"type\":\"delta\",\"item_id\":\"item-1\",\"attempt\":1,\"order\":0,"
		   "\"kind\":\"reasoning\",\"content\":\"thinking\",\"chunk_id\":\"chatcmpl-9\","
		   "\"choice_index\":0}", true);
	check_twin(D("\"attempt\":1,\"order\":1,\"kind\":\"text\",\"content\":\"Hello\""), true);
	/* defaults, nulls as absent, escapes in the strings, members in any order */
	check_twin(D("\"order\":3,\"content\":\"a\\nb \\u00e9 \\ud83d\\ude00 \\\"q\\\"\""), true);
	check_twin(D("\"attempt\":null,\"order\":0,\"kind\":null,\"content\":\"x\","
		     "\"chunk_id\":null,\"choice_index\":null"), true);
	check_twin("{\"content\":\"late\",\"order\":2,\"type\":\"delta\",\"item_id\":\"i\","
		   "\"attempt\":7}", true);
	/* an escaped NUL and a lone surrogate read as cJSON reads them after mending */
	check_twin(D("\"order\":0,\"content\":\"a\\u0000b\\ud800c\""), true);
	check_twin(D("\"order\":4.0,\"content\":\"\",\"choice_index\":-3"), true);
	/* duplicate members: the first wins, as in cJSON */
	check_twin(D("\"order\":1,\"content\":\"first\",\"content\":\"second\""), true);
	check_twin(D("\"order\":1,\"content\":\"x\",\"extra\":{\"deep\":[1,2,{\"k\":null}]}"),
		   true);
}

static void test_other_deltas_go_to_cjson(void **state)
{
	(void)state;
	/* missing or mistyped members: cJSON's decoder says which */
	check_twin(D("\"content\":\"no order\""), false);
	check_twin(D("\"order\":0"), false);
	check_twin(D("\"order\":-1,\"content\":\"x\""), false);
	check_twin(D("\"order\":1.5,\"content\":\"x\""), false);
	check_twin(D("\"order\":\"1\",\"content\":\"x\""), false);
	check_twin(D("\"order\":0,\"content\":7"), false);
	check_twin(D("\"order\":0,\"content\":\"x\",\"attempt\":0"), false);
	check_twin(D("\"order\":0,\"content\":\"x\",\"kind\":\"image\""), false);
	check_twin(D("\"order\":0,\"content\":\"x\",\"kind\":3"), false);
	check_twin(D("\"order\":0,\"content\":\"x\",\"chunk_id\":5"), false);
	check_twin(D("\"order\":0,\"content\":\"x\",\"choice_index\":\"0\""), false);
	check_twin("{\"type\":\"delta\",\"item_id\":7,\"order\":0,\"content\":\"x\"}", false);
	/* escapes where the span decoder compares words: cJSON unescapes them */
	check_twin(D("\"order\":0,\"content\":\"x\",\"kind\":\"te\\u0078t\""), false);
	check_twin("{\"type\":\"delta\",\"item_\\u0069d\":\"i\",\"order\":0,\"content\":\"x\"}", false);
	/* not strict JSON, or not a delta */
	check_twin(D("\"order\":0,\"content\":\"x\","), false);
	check_twin("{\"type\":\"delta\",\"item_id\":\"i\",\"order\":0,\"content\":\"x\"", false);
	check_twin("{\"type\":\"item_started\",\"item_id\":\"i\"}", false);
	check_twin("[\"delta\"]", false);
	check_twin("", false);
}

/* Every prefix of a delta: the span decoder takes none of them, and reads nothing past
 * its end (ASan). */
static void test_truncated_deltas(void **state)
{
	(void)state;
	const char *full = D("\"attempt\":2,\"order\":9,\"kind\":\"text\",\"content\":\"a\\u00e9\","
			     "\"chunk_id\":\"c\",\"choice_index\":1");
	size_t n = strlen(full);
	for (size_t len = 0; len < n; len++) {
		char *copy = malloc(len ? len : 1);
		memcpy(copy, full, len);
		struct frame f;
		struct frame_store *st = NULL;
		memset(&f, 0, sizeof f);
		assert_int_equal(codec_delta_decode(copy, len, &f, &st), -1);
		assert_null(st);
		free(copy);
	}
	check_twin(full, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deltas_as_cjson_reads_them),
		cmocka_unit_test(test_other_deltas_go_to_cjson),
		cmocka_unit_test(test_truncated_deltas),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
