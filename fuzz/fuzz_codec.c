/* libFuzzer target: the frame codec, the conversation list decoder and the JSON helpers.
 * Beyond "no crash", it checks that what the JSON helpers write parses back, that
 * re-serializing is idempotent, and that a frame decoded without a tree means what cJSON
 * makes of it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "codec_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include <stdio.h>

/* An invariant that failed says which before the abort the fuzzer reports. */
#define check(ok) check_at((ok), __LINE__)

static void check_at(bool ok, int line)
{
	if (!ok) {
		fprintf(stderr, "fuzz_codec: the check at line %d failed\n", line);
		abort();
	}
}

/* Doubles every string, so the callback path and its scratch buffer are exercised. */
static void twice(void *ctx, const char *s, size_t len, struct buf *out)
{
	(void)ctx;
	buf_append(out, s, len);
	buf_append(out, s, len);
}

static void fuzz_rewrite(const char *json, size_t len)
{
	struct buf once, again, doubled;
	struct codec_error err;
	buf_init(&once);
	buf_init(&again);
	buf_init(&doubled);
	if (json_rewrite_strings(json, len, NULL, NULL, &once, &err) == 0) {
		check(json_rewrite_strings(once.data, once.len, NULL, NULL, &again, &err) == 0);
		check(once.len == again.len && memcmp(once.data, again.data, once.len) == 0);
		check(json_rewrite_strings(json, len, twice, NULL, &doubled, &err) == 0);
	}
	buf_fini(&once);
	buf_fini(&again);
	buf_fini(&doubled);
}

static void fuzz_frame(const char *json, size_t len)
{
	struct frame f;
	struct codec_error err;
	if (frame_decode(json, len, &f, &err) != 0) {
		check(f.priv_ == NULL && err.status != CODEC_OK && err.message[0]);
		return;
	}
	check(f.type_name != NULL);
	if (f.type == FRAME_DELTA)
		check(f.content && strlen(f.content) == f.content_len);
	if (f.type == FRAME_DURABLE || f.type == FRAME_TRANSIENT) {
		size_t raw_len;
		const char *raw = frame_event_json(&f, &raw_len);
		check(raw && strlen(raw) == raw_len);
		struct buf b;
		buf_init(&b);
		check(json_rewrite_strings(raw, raw_len, NULL, NULL, &b, &err) == 0);
		buf_fini(&b);
		if (f.event.action_summary)
			check(strlen(f.event.action_summary) <= 200 + strlen("…"));
	}
	frame_fini(&f);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void sanitized(void *ctx, const char *s, size_t len, struct buf *out)
{
	(void)ctx;
	sanitize_text(s, len, out);
}

/* A delta decoded from spans (a) reads as through cJSON (b). */
static void same_delta(const struct frame *a, const struct frame *b)
{
	check(a->type == b->type && same_str(a->item_id, b->item_id) && a->attempt == b->attempt &&
	      a->order == b->order && a->delta_kind == b->delta_kind &&
	      a->content_len == b->content_len && !memcmp(a->content, b->content, a->content_len) &&
	      same_str(a->chunk_id, b->chunk_id) && a->has_choice_index == b->has_choice_index &&
	      a->choice_index == b->choice_index);
}

/* An event decoded from spans (a) reads as through cJSON (b), and rewrites the same. */
static void same_event(const struct frame *a, const struct frame *b)
{
	const struct event *x = &a->event, *y = &b->event;
	check(a->type == b->type && a->seq == b->seq && x->kind == y->kind && x->source == y->source);
	check(same_str(x->id, y->id) && same_str(x->parent_id, y->parent_id) &&
	      same_str(x->timestamp, y->timestamp) && same_str(x->text, y->text) &&
	      same_str(x->reasoning, y->reasoning) && same_str(x->role, y->role) &&
	      same_str(x->tool_call_id, y->tool_call_id) && same_str(x->tool_name, y->tool_name) &&
	      same_str(x->observation_kind, y->observation_kind) &&
	      same_str(x->execution_status, y->execution_status));
	check(x->is_error == y->is_error && x->exit_status == y->exit_status &&
	      x->exit_code == y->exit_code && x->run_status == y->run_status);
	check(same_str(x->action_kind, y->action_kind) &&
	      same_str(x->action_summary, y->action_summary) &&
	      same_str(x->action_detail, y->action_detail) && same_str(x->arguments, y->arguments) &&
	      x->action_type == y->action_type && x->risk == y->risk);
	struct buf ra, rb;
	buf_init(&ra);
	buf_init(&rb);
	check(frame_event_rewrite_kept(a, sanitized, NULL, &ra) == 0);
	check(frame_event_rewrite(b, sanitized, NULL, &rb) == 0);
	check(ra.len == rb.len && !memcmp(ra.data, rb.data, ra.len));
	buf_fini(&ra);
	buf_fini(&rb);
}

/* A frame the span scanner takes decodes as through cJSON. */
static void fuzz_fast(const char *json, size_t len)
{
	struct frame a, b;
	struct frame_store *st;
	memset(&a, 0, sizeof a);
	if (codec_fast_decode(json, len, &a, &st) != 0)
		return;
	a.priv_ = st;
	check(codec_frame_decode_tree(json, len, &b, NULL) == 0);
	if (a.type == FRAME_DELTA)
		same_delta(&a, &b);
	else
		same_event(&a, &b);
	frame_fini(&a);
	frame_fini(&b);
}

static void fuzz_list(const char *json, size_t len)
{
	struct conversation_info *items;
	size_t count;
	char *next;
	struct codec_error err;
	if (conversation_list_decode(json, len, &items, &count, &next, &err) != 0)
		return;
	for (size_t i = 0; i < count; i++)
		check(items[i].id != NULL);
	conversation_infos_free(items, count);
	free(next);
}

static void fuzz_string(const char *s, size_t len)
{
	struct buf b, out;
	struct codec_error err;
	buf_init(&b);
	buf_init(&out);
	json_append_string(&b, s, len);
	check(json_rewrite_strings(b.data, b.len, NULL, NULL, &out, &err) == 0);
	/* An escaped NUL reads back as U+FFFD; otherwise the literal must come back unchanged. */
	if (!memchr(s, 0, len))
		check(out.len == b.len && memcmp(out.data, b.data, b.len) == 0);
	buf_fini(&b);
	buf_fini(&out);

	char *url = xstrndup(s, len);
	struct server_url u;
	if (server_url_parse(url, &u) == 0)
		check(u.host[0] && u.port > 0 && u.port < 65536);
	free(url);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *json = (const char *)data;
	fuzz_frame(json, size);
	fuzz_fast(json, size);
	fuzz_list(json, size);
	fuzz_rewrite(json, size);
	fuzz_string(json, size);
	return 0;
}
