/* event_page_decode: REST events/search pages read as the socket's durable events do, from
 * upstream's own serialization (tests/data/upstream/events.jsonl, one event a line). */
#include "codec_test.h"

#include <stdio.h>

/* Test data: the upstream events, one JSON object a line. */
static char *read_lines(size_t *count)
{
	const char *dir = getenv("UPSTREAM_EVENTS");
	assert_non_null(dir);
	FILE *f = fopen(dir, "r");
	assert_non_null(f);
	struct buf all;
	buf_init(&all);
	char line[65536];
	*count = 0;
	while (fgets(line, sizeof line, f)) {
		size_t n = strlen(line);
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!n)
			continue;
		buf_append(&all, line, n + 1); /* NUL-separated */
		(*count)++;
	}
	fclose(f);
	return buf_steal(&all);
}

static void same_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

/* Every field a client renders is the same through the page as through a durable frame. */
static void same_event(const struct event *a, const struct event *b)
{
	assert_int_equal(a->kind, b->kind);
	same_str(a->kind_name, b->kind_name);
	same_str(a->id, b->id);
	same_str(a->timestamp, b->timestamp);
	assert_int_equal(a->source, b->source);
	same_str(a->role, b->role);
	same_str(a->text, b->text);
	same_str(a->reasoning, b->reasoning);
	same_str(a->tool_name, b->tool_name);
	same_str(a->tool_call_id, b->tool_call_id);
	same_str(a->action_kind, b->action_kind);
	same_str(a->action_summary, b->action_summary);
	same_str(a->action_detail, b->action_detail);
	assert_int_equal(a->risk, b->risk);
	assert_int_equal(a->is_error, b->is_error);
	assert_int_equal(a->exit_status, b->exit_status);
	assert_int_equal(a->exit_code, b->exit_code);
	same_str(a->execution_status, b->execution_status);
	assert_int_equal(a->run_status, b->run_status);
	same_str(a->label, b->label);
	same_str(a->arguments, b->arguments);
	same_str(a->observation_kind, b->observation_kind);
	same_str(a->tool_status, b->tool_status);
}

static void test_upstream_page(void **state)
{
	(void)state;
	size_t n;
	char *lines = read_lines(&n);
	assert_true(n >= 50);
	struct buf page;
	buf_init(&page);
	buf_puts(&page, "{\"items\":[");
	const char *l = lines;
	for (size_t i = 0; i < n; i++, l += strlen(l) + 1) {
		if (i)
			buf_putc(&page, ',');
		buf_puts(&page, l);
	}
	buf_puts(&page, "],\"next_page_id\":\"e-next\"}");

	struct event_page p;
	struct codec_error err;
	/* an exact-size heap copy, freed before the page is read: its strings are its own */
	char *copy = xmalloc(page.len);
	memcpy(copy, page.data, page.len);
	assert_int_equal(event_page_decode(copy, page.len, &p, &err), 0);
	free(copy);
	assert_int_equal(p.count, n);
	assert_int_equal(p.skipped, 0);
	assert_string_equal(p.next_page_id, "e-next");
	l = lines;
	size_t kinds_known = 0;
	for (size_t i = 0; i < n; i++, l += strlen(l) + 1) {
		struct buf json;
		buf_init(&json);
		buf_printf(&json, "{\"type\":\"durable\",\"seq\":%zu,\"event\":%s}", i, l);
		struct frame f;
		DECODE_OK(buf_cstr(&json), &f);
		buf_fini(&json);
		same_event(&p.events[i], &f.event);
		assert_non_null(p.events[i].id);
		assert_non_null(p.events[i].timestamp);
		kinds_known += p.events[i].kind != EVENT_UNKNOWN;
		frame_fini(&f);
	}
	assert_true(kinds_known > n / 2);
	event_page_fini(&p);
	event_page_fini(&p); /* zeroed: safe again */
	buf_fini(&page);
	free(lines);
}

static void test_page_shapes(void **state)
{
	(void)state;
	struct event_page p;
	struct codec_error err;
	const char *last = "{\"items\":[{\"id\":\"a\",\"kind\":\"MessageEvent\",\"source\":\"user\","
			   "\"llm_message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\","
			   "\"text\":\"hi\"}]}},7,null,{\"id\":\"b\",\"kind\":\"NewKind\"}],"
			   "\"next_page_id\":null}";
	assert_int_equal(event_page_decode(last, strlen(last), &p, &err), 0);
	assert_int_equal(p.count, 2);
	assert_int_equal(p.skipped, 2);
	assert_null(p.next_page_id);
	assert_int_equal(p.events[0].kind, EVENT_MESSAGE);
	assert_string_equal(p.events[0].text, "hi");
	assert_int_equal(p.events[1].kind, EVENT_UNKNOWN);
	assert_string_equal(p.events[1].id, "b");
	event_page_fini(&p);

	assert_int_equal(event_page_decode("{\"items\":[]}", 12, &p, &err), 0);
	assert_int_equal(p.count, 0);
	event_page_fini(&p);

	static const struct {
		const char *json;
		enum codec_status status;
	} bad[] = {
		{ "", CODEC_MALFORMED_JSON },
		{ "{\"items\":[", CODEC_MALFORMED_JSON },
		{ "[]", CODEC_NOT_OBJECT },
		{ "{}", CODEC_MISSING_FIELD },
		{ "{\"items\":{}}", CODEC_WRONG_TYPE },
		{ "{\"items\":[],\"next_page_id\":3}", CODEC_WRONG_TYPE },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(event_page_decode(bad[i].json, strlen(bad[i].json), &p, &err), -1);
		assert_int_equal(err.status, bad[i].status);
		assert_true(err.message[0] != '\0');
		assert_null(p.events);
		assert_int_equal(p.count, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_upstream_page),
		cmocka_unit_test(test_page_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
