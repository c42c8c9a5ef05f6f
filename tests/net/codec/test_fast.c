/* The span scanner (net/jspan.c) on hostile text, and frames decoded without a tree
 * (net/codec_fast.c) against the same frames decoded through cJSON: the same event, the same
 * rewritten JSON. */
#include "codec_test.h"
#include "codec_int.h"

#include <stdio.h>

static const char *skip_all(const char *s)
{
	return jspan_skip(s, s + strlen(s));
}

static void test_skip_strict_json(void **state)
{
	(void)state;
	const char *ok[] = {
		"{}", "[]", " {\"a\":[1,-2.5e+3,true,false,null,\"x\"]} ", "\"\\u00e9\\n\\\"\"",
		"[[],{},[{}]]", "0", "-0.0E1",
	};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		const char *end = skip_all(ok[i]);
		assert_non_null(end);
		assert_ptr_equal(end, ok[i] + strlen(ok[i]));
	}
	/* Truncated anywhere, loose spellings, bad escapes: none is taken. */
	const char *bad[] = {
		"{\"a\":", "{\"a\":1", "[1,", "\"abc", "\"a\\", "\"\\u12\"", "\"\\x\"", "{\"a\" 1}",
		"{a:1}", "[1,]", "{\"a\":1,}", "01", "-", "1.", ".5", "+1", "tru", "nul", "[1 2]",
		"{\"a\":1]", "[1}", "",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *end = skip_all(bad[i]);
		assert_true(!end || end != bad[i] + strlen(bad[i]));
	}
	/* A raw NUL in a string: cJSON ends the string there, so the scanner gives up. */
	const char nul[] = "\"a\0b\"";
	assert_null(jspan_skip(nul, nul + sizeof nul - 1));
}

static void test_skip_depth(void **state)
{
	(void)state;
	for (int depth = JSPAN_DEPTH - 1; depth <= JSPAN_DEPTH + 1; depth++) {
		struct buf b;
		buf_init(&b);
		for (int i = 0; i < depth; i++)
			buf_puts(&b, i % 2 ? "{\"k\":" : "[");
		buf_putc(&b, '0');
		for (int i = depth - 1; i >= 0; i--)
			buf_puts(&b, i % 2 ? "}" : "]");
		const char *end = jspan_skip(b.data, b.data + b.len);
		if (depth <= JSPAN_DEPTH)
			assert_ptr_equal(end, b.data + b.len);
		else
			assert_null(end);
		buf_fini(&b);
	}
}

static void test_members(void **state)
{
	(void)state;
	static const char *const names[] = { "kind", "id" };
	struct jspan m[2];
	/* A key inside a string is no key; the first of duplicate keys wins, as in cJSON. */
	const char *s = "{\"a\":\"\\\"kind\\\":\\\"x\\\"\",\"kind\" : \"y\" ,\"kind\":\"z\","
			"\"n\":{\"id\":1}}";
	assert_non_null(jspan_members(s, s + strlen(s), names, 2, m));
	assert_true(jspan_is(m[0], "y"));
	assert_null(m[1].at);
	/* A key with an escape is left to cJSON (it would read "kind"). */
	s = "{\"k\\u0069nd\":\"y\"}";
	assert_null(jspan_members(s, s + strlen(s), names, 2, m));
	s = "[1]";
	assert_null(jspan_members(s, s + strlen(s), names, 2, m));
	s = "{\"kind\":\"y\"";
	assert_null(jspan_members(s, s + strlen(s), names, 2, m));
}

static void test_elements_and_strings(void **state)
{
	(void)state;
	const char *s = "[ \"a\\nb\" , 2 ,{\"x\":[3]}, \"\\u0000\\ud800x\\ud83d\\ude00\\/\" ]";
	struct jspan arr = { s, strlen(s) }, e;
	char out[64];
	assert_true(jspan_next_element(&arr, &e));
	assert_int_equal(jspan_string(e, out), 3);
	assert_string_equal(out, "a\nb");
	assert_true(jspan_next_element(&arr, &e));
	double d;
	assert_true(jspan_number(e, &d));
	assert_true(d == 2.0);
	assert_true(jspan_next_element(&arr, &e));
	assert_int_equal(e.len, strlen("{\"x\":[3]}"));
	assert_true(jspan_next_element(&arr, &e));
	/* An escaped NUL and a lone surrogate are U+FFFD, as codec_parse mends them. */
	jspan_string(e, out);
	assert_string_equal(out, "\xef\xbf\xbd\xef\xbf\xbdx\xf0\x9f\x98\x80/");
	assert_false(jspan_next_element(&arr, &e));
}

/* The same frame through cJSON: a root key with an escape is one the scanner never takes. */
static char *tree_twin(const char *json)
{
	const char *at = strstr(json, "\"type\"");
	assert_non_null(at);
	struct buf b;
	buf_init(&b);
	buf_append(&b, json, (size_t)(at - json));
	buf_puts(&b, "\"\\u0074ype\"");
	buf_puts(&b, at + strlen("\"type\""));
	return buf_steal(&b);
}

static void same_string(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void upper(void *ctx, const char *s, size_t len, struct buf *out)
{
	(void)ctx;
	for (size_t i = 0; i < len; i++)
		buf_putc(out, s[i] >= 'a' && s[i] <= 'z' ? (char)(s[i] - 32) : s[i]);
}

/* json is taken without a tree (fast says whether it must be) and means what cJSON says. */
static void check_twin(const char *json, bool fast)
{
	struct frame a, b, probe;
	struct frame_store *st = NULL;
	memset(&probe, 0, sizeof probe);
	int took = codec_fast_decode(json, strlen(json), &probe, &st);
	assert_int_equal(took, fast ? 0 : -1);
	if (took == 0) {
		probe.priv_ = st;
		frame_fini(&probe);
	}
	char *twin = tree_twin(json);
	DECODE_OK(json, &a);
	assert_int_equal(codec_frame_decode_tree(twin, strlen(twin), &b, NULL), 0);
	assert_int_equal(a.type, b.type);
	assert_string_equal(a.type_name, b.type_name);
	assert_int_equal(a.seq, b.seq);
	const struct event *x = &a.event, *y = &b.event;
	assert_int_equal(x->kind, y->kind);
	same_string(x->kind_name, y->kind_name);
	same_string(x->id, y->id);
	same_string(x->timestamp, y->timestamp);
	same_string(x->parent_id, y->parent_id);
	assert_int_equal(x->source, y->source);
	same_string(x->text, y->text);
	same_string(x->tool_name, y->tool_name);
	same_string(x->tool_call_id, y->tool_call_id);
	assert_int_equal(x->tool, y->tool);
	same_string(x->observation_kind, y->observation_kind);
	assert_int_equal(x->observation_type, y->observation_type);
	assert_int_equal(x->is_error, y->is_error);
	assert_int_equal(x->has_exit_code, y->has_exit_code);
	assert_int_equal(x->exit_code, y->exit_code);
	assert_int_equal(x->exit_status, y->exit_status);
	same_string(x->role, y->role);
	same_string(x->reasoning, y->reasoning);
	same_string(x->state_key, y->state_key);
	same_string(x->execution_status, y->execution_status);
	assert_int_equal(x->run_status, y->run_status);
	same_string(x->action_kind, y->action_kind);
	assert_int_equal(x->action_type, y->action_type);
	same_string(x->action_summary, y->action_summary);
	same_string(x->action_detail, y->action_detail);
	same_string(x->arguments, y->arguments);
	assert_int_equal(x->risk, y->risk);
	struct buf ra, rb;
	buf_init(&ra);
	buf_init(&rb);
	assert_int_equal(frame_event_rewrite(&a, upper, NULL, &ra), 0);
	assert_int_equal(frame_event_rewrite(&b, upper, NULL, &rb), 0);
	assert_string_equal(buf_cstr(&ra), buf_cstr(&rb));
	buf_fini(&ra);
	buf_fini(&rb);
	frame_fini(&a);
	frame_fini(&b);
	free(twin);
}

/* The span decoder leaves json to cJSON: -1, no store, the frame untouched. */
static void assert_not_taken(const char *json)
{
	struct frame f;
	struct frame_store *st = NULL;
	memset(&f, 0, sizeof f);
	assert_int_equal(codec_fast_decode(json, strlen(json), &f, &st), -1);
	assert_null(st);
	assert_int_equal(f.type, FRAME_UNKNOWN);
}

#define OBS(ev_extra, obs) \
	"{\"type\":\"durable\",\"seq\":7,\"event\":{\"id\":\"e1\",\"timestamp\":\"2026-12-03T03:06:12\"," \
	"\"source\":\"environment\",\"tool_name\":\"terminal\",\"tool_call_id\":\"toolu_1\"," ev_extra \
	"\"observation\":" obs ",\"kind\":\"ObservationEvent\"}}"

static void test_observations_as_cjson_reads_them(void **state)
{
	(void)state;
	/* What a history is made of: taken without a tree. */
	check_twin(OBS("", "{\"content\":[{\"cache_prompt\":false,\"type\":\"text\",\"text\":"
			   "\"a\\nb\\t\\\"c\\\"\\\\ d\\u00e9\\ud83d\\ude00\"}],\"command\":\"ls\","
			   "\"exit_code\":0,\"timeout\":false,\"metadata\":{\"exit_code\":0,"
			   "\"suffix\":\"\\n\"},\"kind\":\"TerminalObservation\"}"), true);
	check_twin(OBS("", "{\"content\":[{\"text\":\"one \"},7,{\"type\":\"text\",\"text\":\"\"},"
			   "{\"type\":\"other\",\"text\":\"no\"},{\"type\":3,\"text\":\"two\"}],"
			   "\"is_error\":true,\"exit_code\":-1,\"kind\":\"TerminalObservation\"}"), true);
	check_twin(OBS("", "{\"content\":\"bare\",\"exit_code\":-1,\"kind\":\"X\"}"), true);
	check_twin(OBS("", "{\"content\":[],\"exit_code\":-1,\"metadata\":{\"exit_code\":3},"
			   "\"kind\":\"TerminalObservation\"}"), true);
	check_twin(OBS("", "{\"content\":[],\"exit_code\":1.5,\"timeout\":true,"
			   "\"kind\":\"TerminalObservation\"}"), true);
	/* Hostile strings: escaped NULs and lone surrogates, keys inside strings, duplicates. */
	check_twin(OBS("\"id\":\"second\",\"parent_id\":\"\\u0000\",",
		       "{\"content\":[{\"text\":\"\\u0000x\\udc00\\ud800\\u0041 \\\"kind\\\":1\"}],"
		       "\"kind\":\"TerminalObservation\",\"kind\":\"Other\"}"), true);
	check_twin("{\"type\":\"transient\",\"event\":{\"kind\":\"ObservationEvent\","
		   "\"observation\":{\"content\":[]}}}", true);
	/* What decode_observation does more for: left to cJSON. */
	const char *tree[] = {
		OBS("", "{\"content\":[{\"type\":\"image\",\"image_urls\":[]}],\"kind\":\"X\"}"),
		OBS("", "{\"content\":[],\"kind\":\"MCPToolObservation\"}"),
		OBS("", "{\"content\":[],\"new_content\":\"b\",\"old_content\":\"a\",\"path\":\"/p\","
			"\"command\":\"str_replace\",\"kind\":\"FileEditorObservation\"}"),
		OBS("", "{\"content\":[],\"metadata\":{\"suffix\":\"[timed out]\"},\"kind\":\"T\"}"),
		OBS("", "{\"content\":[],\"kind\":\"SomeToolObservation\",\"extra\":1}"),
		OBS("", "{\"content\":[{\"typ\\u0065\":\"image\"}],\"kind\":\"X\"}"),
		OBS("", "{\"content\":[{\"type\":\"t\\u0065xt\",\"text\":\"a\"}],\"kind\":\"X\"}"),
		OBS("", "\"not an object\""),
		"{\"type\":\"durable\",\"seq\":1.5,\"event\":{\"kind\":\"ObservationEvent\"}}",
		"{\"type\":\"durable\",\"seq\":-1,\"event\":{\"kind\":\"ObservationEvent\"}}",
		"{\"type\":\"durable\",\"seq\":1,\"event\":{\"kind\":\"MessageEvent\"}}",
	};
	for (size_t i = 0; i < sizeof tree / sizeof *tree; i++)
		assert_not_taken(tree[i]);
}

static void sanitized(void *ctx, const char *s, size_t len, struct buf *out)
{
	(void)ctx;
	sanitize_text(s, len, out);
}

/* Strings of printable ASCII, LF and TAB escaped straight from the text read the same as
 * through the sanitizer; any other string still goes through it. */
static void test_rewrite_kept_plain(void **state)
{
	(void)state;
	const char *frames[] = {
		OBS("", "{\"content\":[{\"type\":\"text\",\"text\":\"a\\nb\\t\\\"q\\\" \\\\ \\/ "
			"\\u0041\\u0022\\u005c\\u002F\\u000a\\u0009\"},{\"text\":\"\\r\\b\\f\\u001b[31mred"
			"\\u007f\\u0000 é \\u00e9 \\ud83d\\ude00\\ud800 \\u200b\"}],"
			"\"k\\u0069nd\":\"\\u0054\",\"kind\":\"TerminalObservation\"}"),
		"{\"type\":\"durable\",\"seq\":1,\"event\":{\"kind\":\"MessageEvent\",\"source\":\"agent\","
		"\"llm_message\":{\"content\":[{\"type\":\"text\",\"text\":\"x\\u001b\"},{\"type\":\"text\","
		"\"text\":\"[2Jy\\n\"}]},\"n\":[1.0,-0,2e3]}}",
	};
	for (size_t i = 0; i < sizeof frames / sizeof *frames; i++) {
		struct frame f;
		DECODE_OK(frames[i], &f);
		struct buf a, b;
		buf_init(&a);
		buf_init(&b);
		assert_int_equal(frame_event_rewrite(&f, sanitized, NULL, &a), 0);
		assert_int_equal(frame_event_rewrite_kept(&f, sanitized, NULL, &b), 0);
		assert_string_equal(buf_cstr(&a), buf_cstr(&b));
		buf_fini(&a);
		buf_fini(&b);
		frame_fini(&f);
	}
}

/* What the rewrite gives for json through the sanitizer itself (no kept shortcut). */
static char *rewritten(const char *json)
{
	struct buf b;
	buf_init(&b);
	codec_rewrite_text(json, strlen(json), sanitized, NULL, false, &b);
	return buf_steal(&b);
}

/* An event of printable ASCII and the escapes the sanitizer keeps is written in one pass,
 * exactly as the sanitizer and the escaper write it; text after the value is left alone. */
static void test_rewrite_kept_flat(void **state)
{
	(void)state;
	const char *plain[] = {
		"{\"a\":\"x\\ny\\tz\",\"b\":[1,-0.5e3,true,false,null],\"c\":{}}",
		" { \"k\" : [ \"\\\"q\\\" \\\\ \\/ \\u0041\\u000A\\u0009\\u0022\\u005C\" , {\"d\":[[]]} ] }\n",
		"[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}],\"seq\":3}",
		"{\"id\":\"\",\"x\":\"}]{[,:\"}",
	};
	for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
		struct buf b;
		buf_init(&b);
		buf_puts(&b, "before|");
		assert_true(codec_rewrite_kept_flat(plain[i], strlen(plain[i]), &b));
		char *want = rewritten(plain[i]);
		assert_string_equal(buf_cstr(&b) + 7, want);
		assert_memory_equal(b.data, "before|", 7);
		free(want);
		buf_fini(&b);
	}
	/* Anything the sanitizer would change, or not a container: the walk's, out untouched. */
	const char *other[] = {
		"{\"a\":\"x\\ry\"}", "{\"a\":\"caf\xc3\xa9\"}", "{\"a\":\"\\u00e9\"}",
		"{\"a\":\"\\u0000\"}", "{\"a\":\"\\b\\f\"}", "{\"a\":\"tab\there\"}",
		"{\"a\":\"\\u001b[31m\"}", "{\"a\":\"\\u007f\"}", "\"a string\"", "12", "",
		"{\"a\":\"unterminated", "{\"a\":[1,2",
	};
	for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
		struct buf b;
		buf_init(&b);
		buf_puts(&b, "kept");
		assert_false(codec_rewrite_kept_flat(other[i], strlen(other[i]), &b));
		assert_int_equal(b.len, 4);
		assert_memory_equal(b.data, "kept", 4);
		buf_fini(&b);
	}
}

/* Escapes and quotes at every offset around the 16-byte steps of the copy, strings up to
 * 70 bytes: the one pass and the sanitizer's rewrite agree byte for byte (ASan sees any
 * store past the room reserved). */
static void test_rewrite_kept_flat_every_offset(void **state)
{
	(void)state;
	static const char *escapes[] = { "\\n", "\\t", "\\\"", "\\\\", "\\/", "\\u0041" };
	static const char lower[] = "0123456789abcdefghijklmnopqrstuvwxyz"
				    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	static const char upper[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "abcdefghijklmnopqrstuvwxyz0123456789";
	for (size_t len = 0; len < 70; len++) {
		for (size_t at = 0; at <= len; at++) {
			for (size_t e = 0; e < sizeof escapes / sizeof *escapes; e++) {
				char json[128];
				int n = snprintf(json, sizeof json, "{\"k\":\"%.*s%s%.*s\"}", (int)at,
						 lower, escapes[e], (int)(len - at), upper);
				char *exact = malloc((size_t)n);
				memcpy(exact, json, (size_t)n);
				struct buf b;
				buf_init(&b);
				assert_true(codec_rewrite_kept_flat(exact, (size_t)n, &b));
				char *want = rewritten(json);
				assert_string_equal(buf_cstr(&b), want);
				free(want);
				buf_fini(&b);
				free(exact);
			}
		}
	}
}

#define MSG(msg) \
	"{\"type\":\"durable\",\"seq\":9,\"event\":{\"id\":\"m1\",\"source\":\"agent\"," \
	"\"llm_message\":" msg ",\"kind\":\"MessageEvent\"}}"

static void test_messages_and_status_as_cjson_reads_them(void **state)
{
	(void)state;
	check_twin(MSG("{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"I \\u00e9\\n\"},"
		       "{\"type\":\"text\",\"text\":\"done\"}],\"thinking_blocks\":[],"
		       "\"reasoning_content\":\"why\",\"responses_reasoning_item\":null}"), true);
	check_twin(MSG("{\"role\":\"user\",\"content\":\"hi\",\"reasoning_content\":\"\"}"), true);
	check_twin(MSG("{\"role\":\"user\",\"content\":[]}"), true);
	check_twin("{\"type\":\"durable\",\"seq\":2,\"event\":{\"id\":\"s\",\"source\":\"environment\","
		   "\"key\":\"execution_status\",\"value\":\"running\","
		   "\"kind\":\"ConversationStateUpdateEvent\"}}", true);
	check_twin("{\"type\":\"durable\",\"seq\":2,\"event\":{\"key\":\"execution_status\","
		   "\"value\":3,\"kind\":\"ConversationStateUpdateEvent\"}}", true);
	check_twin("{\"type\":\"durable\",\"seq\":2,\"event\":{\"key\":\"execution_status\","
		   "\"value\":\"sleepy\",\"kind\":\"ConversationStateUpdateEvent\"}}", true);
	/* Thinking, inline or in blocks, a reasoning item, other keys: cJSON's. */
	check_twin(MSG("{\"content\":\"a <think>b</think> c\"}"), false);
	check_twin(MSG("{\"content\":\"a\",\"thinking_blocks\":[{\"thinking\":\"t\"}]}"), false);
	check_twin(MSG("{\"content\":\"a\",\"responses_reasoning_item\":{\"summary\":[\"s\"]}}"),
		   false);
	check_twin(MSG("{\"content\":[{\"type\":\"image\",\"image_urls\":[\"u\"]}]}"), false);
	/* a part with an escaped key: cJSON reads it (an untyped part's text counts) */
	check_twin(MSG("{\"content\":[{\"ty\\npe\":\"x\",\"text\":\"hello\"}]}"), false);
	check_twin(MSG("\"not an object\""), false);
	check_twin("{\"type\":\"durable\",\"seq\":2,\"event\":{\"key\":\"stats\",\"value\":{},"
		   "\"kind\":\"ConversationStateUpdateEvent\"}}", false);
}

#define ACTION(ev_extra, action) \
	"{\"type\":\"durable\",\"seq\":4,\"event\":{\"id\":\"a1\",\"timestamp\":\"2026-12-03T03:06:11\"," \
	"\"source\":\"agent\"," ev_extra "\"action\":" action ",\"tool_name\":\"terminal\"," \
	"\"tool_call_id\":\"toolu_1\",\"tool_call\":{\"id\":\"toolu_1\",\"name\":\"terminal\"," \
	"\"arguments\":\"{\\\"command\\\": \\\"ls\\\"}\",\"origin\":\"completion\"}," \
	"\"llm_response_id\":\"r1\",\"kind\":\"ActionEvent\"}}"

static void test_actions_as_cjson_reads_them(void **state)
{
	(void)state;
	/* The tool calls of a history: every field but the action object from spans. */
	check_twin(ACTION("\"thought\":[],\"thinking_blocks\":[],\"security_risk\":\"UNKNOWN\","
			  "\"summary\":\"inspect the project\",",
			  "{\"command\":\"ls -la src/\",\"is_input\":false,\"timeout\":null,"
			  "\"reset\":false,\"kind\":\"TerminalAction\"}"), true);
	check_twin(ACTION("\"thought\":[{\"type\":\"text\",\"text\":\"Let me \\u00e9\"},"
			  "{\"text\":\"look.\"}],\"reasoning_content\":\"why\",\"security_risk\":\"LOW\",",
			  "{\"command\":\"view\",\"path\":\"/w/src/a.py\",\"view_range\":[1,20],"
			  "\"kind\":\"FileEditorAction\"}"), true);
	check_twin(ACTION("\"thought\":\"bare\",\"reasoning_content\":\"\",\"security_risk\":\"ODD\",",
			  "{\"command\":\"cd /w\\n\\u0000make\\ud800 -j2\",\"is_input\":true,"
			  "\"timeout\":30.0,\"kind\":\"TerminalAction\",\"kind\":\"X\"}"), true);
	check_twin(ACTION("\"summary\":\"think\",", "{\"thought\":\"a plan\",\"kind\":\"ThinkAction\"}"),
		   true);
	check_twin(ACTION("", "{\"command\":\"plan\",\"task_list\":[{\"title\":\"t\","
			  "\"status\":\"in_progress\"}],\"kind\":\"TaskTrackerAction\"}"), true);
	check_twin(ACTION("", "{\"x\":1e3,\"y\":[true,null],\"z\":{\"a\":-0.5},\"kind\":\"SomeAction\"}"),
		   true);
	check_twin(ACTION("", "{}"), true);
	/* No action object (the call's raw arguments), thinking, an image: cJSON's. */
	check_twin(ACTION("", "null"), false);
	check_twin(ACTION("", "\"ls\""), false);
	check_twin(ACTION("\"thinking_blocks\":[{\"thinking\":\"t\"}],", "{\"kind\":\"ThinkAction\"}"),
		   false);
	check_twin(ACTION("\"responses_reasoning_item\":{\"summary\":[\"s\"]},", "{}"), false);
	check_twin(ACTION("\"thought\":[{\"type\":\"text\",\"text\":\"<think>x</think>y\"}],", "{}"),
		   false);
	check_twin(ACTION("\"thought\":[{\"type\":\"image\",\"image_urls\":[]}],", "{}"), false);
}

/* A frame of a type or kind the span decoder never takes is handed on before its text is
 * checked: malformed past its type or kind, it still reaches cJSON, which says so. */
static void test_other_kinds_unchecked(void **state)
{
	(void)state;
	/* (A delta is taken, by codec_delta_decode: test_fast_delta.c; a broken one is not.) */
	const char *other[] = {
		"{\"type\":\"delta\" , broken",
		"{\"type\":\"durable\",\"seq\":1,\"event\":{\"kind\":\"PauseEvent\"}}",
		"{\"type\":\"durable\",\"seq\":1,\"event\":{\"key\":\"stats\","
		"\"kind\":\"ConversationStateUpdateEvent\"}}",
		"{\"seq\":1,\"event\":{\"kind\":\"MessageEvent\"},\"type\":\"sync\"}",
	};
	for (size_t i = 0; i < sizeof other / sizeof *other; i++)
		assert_not_taken(other[i]);
	DECODE_FAILS("{\"type\":\"delta\" , broken", CODEC_MALFORMED_JSON);
	/* Taken by its kind, refused by the check that follows. */
	DECODE_FAILS("{\"type\":\"durable\",\"seq\":1,\"event\":{\"kind\":\"ActionEvent\","
		     "\"action\":{}},\"x\":[1,]}", CODEC_MALFORMED_JSON);
}

/* A frame the scanner refuses still fails with cJSON's words, as it always did. */
static void test_malformed_still_cjsons(void **state)
{
	(void)state;
	const char *msg = DECODE_FAILS(
		"{\"type\":\"durable\",\"seq\":1,\"event\":{\"kind\":\"ObservationEvent\"", CODEC_MALFORMED_JSON);
	assert_non_null(strstr(msg, "malformed JSON at byte"));
	DECODE_FAILS("{\"type\":\"durable\",\"event\":{\"kind\":\"ObservationEvent\"}}",
		     CODEC_MISSING_FIELD);
	DECODE_FAILS("{\"type\":\"durable\",\"seq\":1,\"event\":{\"kind\":\"ObservationEvent\"}} x",
		     CODEC_MALFORMED_JSON);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skip_strict_json),
		cmocka_unit_test(test_skip_depth),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_elements_and_strings),
		cmocka_unit_test(test_observations_as_cjson_reads_them),
		cmocka_unit_test(test_malformed_still_cjsons),
		cmocka_unit_test(test_rewrite_kept_plain),
		cmocka_unit_test(test_rewrite_kept_flat),
		cmocka_unit_test(test_rewrite_kept_flat_every_offset),
		cmocka_unit_test(test_messages_and_status_as_cjson_reads_them),
		cmocka_unit_test(test_actions_as_cjson_reads_them),
		cmocka_unit_test(test_other_kinds_unchecked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
