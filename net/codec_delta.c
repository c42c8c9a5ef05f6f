/* A delta frame — nearly every frame while an answer streams — decoded from spans of its
 * text, without a cJSON tree: its strings are unescaped once into the frame's one block.
 * Only a delta whose members are all as decode_delta takes them is decoded here; anything
 * else (a member missing or of another type, an escape in a key or in kind, malformed text)
 * goes to cJSON, which says what is wrong (tests/net/codec/test_fast_delta.c decodes both
 * ways). */
#include "codec_int.h"

#include <string.h>

enum { D_TYPE, D_ITEM_ID, D_ATTEMPT, D_ORDER, D_KIND, D_CONTENT, D_CHUNK_ID, D_CHOICE, D_COUNT };

/* A member as decode_delta's field() sees it: null is absent. */
static bool present(struct jspan s)
{
	return s.at && !(s.len == 4 && memcmp(s.at, "null", 4) == 0);
}

static bool is_string(struct jspan s)
{
	return s.at[0] == '"';
}

/* An integer in [min, max] as decode_delta reads one (a double that is a whole number). */
static bool take_whole(struct jspan s, double min, double max, int64_t *out)
{
	double d;
	if (!jspan_number(s, &d) || !(d >= min && d <= max) || d != (double)(int64_t)d)
		return false;
	*out = (int64_t)d;
	return true;
}

static const char *take(char **arena, struct jspan s, size_t *len)
{
	char *at = *arena;
	size_t n = jspan_string(s, at);
	*arena += n + 1;
	if (len)
		*len = n;
	return at;
}

/* The members' spans when every one is as decode_delta takes it; false otherwise. */
static bool shape_ok(const char *json, const char *end, struct jspan *m)
{
	static const char *const names[D_COUNT] = {
		[D_TYPE] = "type", [D_ITEM_ID] = "item_id", [D_ATTEMPT] = "attempt",
		[D_ORDER] = "order", [D_KIND] = "kind", [D_CONTENT] = "content",
		[D_CHUNK_ID] = "chunk_id", [D_CHOICE] = "choice_index",
	};
	if (!jspan_object_members(json, end, names, D_COUNT, m) || !jspan_is(m[D_TYPE], "delta"))
		return false;
	for (int i = 0; i < D_COUNT; i++)
		if (!present(m[i]))
			m[i].at = NULL;
	if (!m[D_ITEM_ID].at || !is_string(m[D_ITEM_ID]) || !m[D_ORDER].at || !m[D_CONTENT].at ||
	    !is_string(m[D_CONTENT]))
		return false;
	if (m[D_KIND].at && !jspan_is(m[D_KIND], "text") && !jspan_is(m[D_KIND], "reasoning"))
		return false;
	return !m[D_CHUNK_ID].at || is_string(m[D_CHUNK_ID]);
}

int codec_delta_decode(const char *json, size_t len, struct frame *f, struct frame_store **out)
{
	struct jspan m[D_COUNT];
	int64_t attempt = 1, order, choice = 0;
	if (!len || json[0] != '{' || !shape_ok(json, json + len, m) ||
	    (m[D_ATTEMPT].at && !take_whole(m[D_ATTEMPT], 1, 2147483647.0, &attempt)) ||
	    !take_whole(m[D_ORDER], 0, (double)NET_SEQ_MAX, &order) ||
	    (m[D_CHOICE].at &&
	     !take_whole(m[D_CHOICE], -(double)NET_SEQ_MAX, (double)NET_SEQ_MAX, &choice)))
		return -1;
	char *arena;
	struct frame_store *st = codec_store_for_text(json, len, 0, &arena);
	f->type = FRAME_DELTA;
	f->type_name = "delta";
	f->item_id = take(&arena, m[D_ITEM_ID], NULL);
	f->attempt = (int)attempt;
	f->order = order;
	f->delta_kind = m[D_KIND].at && jspan_is(m[D_KIND], "reasoning") ? DELTA_REASONING
									 : DELTA_TEXT;
	f->content = take(&arena, m[D_CONTENT], &f->content_len);
	f->chunk_id = m[D_CHUNK_ID].at ? take(&arena, m[D_CHUNK_ID], NULL) : NULL;
	f->has_choice_index = m[D_CHOICE].at != NULL;
	f->choice_index = choice;
	*out = st;
	return 0;
}
