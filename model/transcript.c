/* transcript: the items in display order, deduplicated by event id. Tool cards live in
 * cards.c, streaming slots in slots.c, rows in rows.c, search in search.c. */
#include "transcript_int.h"

#include <stdlib.h>
#include <string.h>

struct transcript *transcript_create(void)
{
	struct transcript *t = xcalloc(1, sizeof *t);
	strmap_init(&t->by_id);
	strmap_init(&t->result_ids);
	strmap_init(&t->cards);
	strmap_init(&t->slots);
	recent_ids_init(&t->retired, TRANSCRIPT_RETIRED_RING);
	return t;
}

void transcript_destroy(struct transcript *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->count; i++)
		item_destroy(t->items[i]);
	strmap_fini(&t->by_id);
	strmap_fini(&t->result_ids);
	strmap_fini(&t->cards);
	strmap_fini(&t->slots);
	recent_ids_fini(&t->retired);
	free(t->items);
	free(t->open);
	free(t->pending);
	free(t);
}

struct item *item_create(enum item_kind kind)
{
	struct item *it = xcalloc(1, sizeof *it);
	it->kind = kind;
	it->seq = -1;
	buf_init(&it->text);
	buf_init(&it->reasoning);
	buf_init(&it->result);
	buf_init(&it->detail);
	return it;
}

void item_destroy(struct item *it)
{
	if (!it)
		return;
	buf_fini(&it->text);
	buf_fini(&it->reasoning);
	buf_fini(&it->result);
	buf_fini(&it->detail);
	free(it->id);
	free(it->title);
	free(it->summary);
	free(it->full_action);
	free(it->tool_call_id);
	free(it->result_id);
	item_rows_free(it->rows);
	free(it);
}

size_t count_newlines(const char *s, size_t n)
{
	size_t c = 0;
	const char *end = s + n;
	while (s < end && (s = memchr(s, '\n', (size_t)(end - s)))) {
		c++;
		s++;
	}
	return c;
}

void transcript_touch(struct transcript *t, struct item *it)
{
	if (it)
		it->version++;
	t->generation++;
}

static int key_cmp(const struct item *a, int64_t major, uint64_t minor)
{
	if (a->key_major != major)
		return a->key_major < major ? -1 : 1;
	if (a->key_minor != minor)
		return a->key_minor < minor ? -1 : 1;
	return 0;
}

static void renumber(struct transcript *t, size_t from)
{
	for (size_t i = from; i < t->count; i++)
		t->items[i]->pos = i;
}

void transcript_insert(struct transcript *t, struct item *it)
{
	if (t->count == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->items = xrealloc(t->items, t->cap * sizeof *t->items);
	}
	/* Upper bound: after every item whose key is <= it's. Usually that is the end. */
	size_t lo = 0, hi = t->count;
	if (hi && key_cmp(t->items[hi - 1], it->key_major, it->key_minor) <= 0)
		lo = hi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_cmp(t->items[mid], it->key_major, it->key_minor) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(t->items + lo + 1, t->items + lo, (t->count - lo) * sizeof *t->items);
	t->items[lo] = it;
	t->count++;
	renumber(t, lo);
	t->lines_added += 1 + count_newlines(it->text.data ? it->text.data : "", it->text.len);
	t->generation++;
}

void transcript_unlink(struct transcript *t, struct item *it)
{
	size_t i = it->pos;
	memmove(t->items + i, t->items + i + 1, (t->count - i - 1) * sizeof *t->items);
	t->count--;
	renumber(t, i);
	t->generation++;
}

void transcript_key_at_end(struct transcript *t, struct item *it)
{
	it->key_major = t->count ? t->items[t->count - 1]->key_major : -1;
	it->key_minor = ++t->arrivals;
}

static void set_string(char **dst, const char *src)
{
	free(*dst);
	*dst = xstrdup(src);
}

static void set_buf(struct buf *b, const char *s, size_t n)
{
	buf_clear(b);
	if (s)
		buf_append(b, s, n);
}

void item_fill(struct item *it, const struct item_spec *spec)
{
	it->kind = spec->kind;
	if (spec->seq >= 0)
		it->seq = spec->seq;
	set_buf(&it->text, spec->text, spec->text_len);
	set_buf(&it->reasoning, spec->reasoning, spec->reasoning_len);
	it->reasoning_lines = it->reasoning.len
		? 1 + count_newlines(it->reasoning.data, it->reasoning.len) : 0;
	set_string(&it->title, spec->title);
	set_string(&it->summary, spec->summary);
	set_string(&it->full_action, spec->full_action);
	/* set once: it is the key of the card index */
	if (spec->tool_call_id && !it->tool_call_id)
		it->tool_call_id = xstrdup(spec->tool_call_id);
	if (spec->kind == ITEM_TOOL_RESULT)
		it->outcome = spec->outcome;
	else if (!it->has_result && it->outcome != TOOL_NO_RESULT)
		it->outcome = TOOL_PENDING;
	it->risk = spec->risk;
	if (spec->has_exit_code || !it->has_result) {
		it->has_exit_code = spec->has_exit_code;
		it->exit_code = spec->exit_code;
	}
	if (spec->kind == ITEM_TOOL) {
		set_buf(&it->detail, spec->detail, spec->detail_len);
		it->detail_epoch++;
	}
	if (spec->kind == ITEM_TOOL && spec->has_result) {
		set_buf(&it->result, spec->result, spec->result_len);
		it->has_result = true;
		it->outcome = spec->outcome;
		it->result_epoch++;
	}
	it->shown_len = it->text.len;
	it->seen_len = it->text.len;
	it->text_epoch++;
	it->reasoning_epoch++;
}

/* A known id again. A transient copy taking its durable seq moves to its seq's place. */
static enum apply_result known_again(struct transcript *t, struct item *it,
				     const struct item_spec *spec)
{
	if (spec->seq < 0 || it->seq >= 0)
		return APPLY_DUPLICATE;
	item_fill(it, spec);
	if (!it->was_slot) {
		transcript_unlink(t, it);
		it->key_major = spec->seq;
		it->key_minor = 0;
		uint64_t lines = t->lines_added;
		transcript_insert(t, it);
		t->lines_added = lines;
	}
	transcript_index_card(t, it);
	transcript_touch(t, it);
	return APPLY_ADDED;
}

enum apply_result transcript_add_event(struct transcript *t, const struct item_spec *spec)
{
	if (spec->id) {
		struct item *known = strmap_get(&t->by_id, spec->id);
		if (known)
			return known_again(t, known, spec);
		if (strmap_get(&t->result_ids, spec->id))
			return APPLY_DUPLICATE;
		struct item *slot = strmap_get(&t->slots, spec->id);
		if (slot)
			return transcript_retire_slot(t, slot, spec);
	}
	if (spec->kind == ITEM_TOOL_RESULT && spec->tool_call_id) {
		struct item *card = strmap_get(&t->cards, spec->tool_call_id);
		if (card && !card->has_result)
			return transcript_attach_result(t, card, spec);
	}
	if (spec->kind == ITEM_TOOL && spec->replaces_card && spec->tool_call_id) {
		struct item *card = strmap_get(&t->cards, spec->tool_call_id);
		if (card)
			return transcript_update_card(t, card, spec);
	}
	struct item *it = item_create(spec->kind);
	it->id = xstrdup(spec->id);
	item_fill(it, spec);
	if (spec->seq >= 0) {
		it->key_major = spec->seq;
		it->key_minor = 0;
	} else {
		transcript_key_at_end(t, it);
	}
	transcript_insert(t, it);
	if (it->id)
		strmap_put(&t->by_id, it->id, it);
	transcript_index_card(t, it);
	return APPLY_ADDED;
}

uint64_t transcript_generation(const struct transcript *t)
{
	return t->generation;
}

uint64_t transcript_lines_added(const struct transcript *t)
{
	return t->lines_added;
}

size_t transcript_count(const struct transcript *t)
{
	return t->count;
}

void transcript_item(const struct transcript *t, size_t idx, struct item_info *info)
{
	const struct item *it = t->items[idx];
	*info = (struct item_info){
		.kind = it->kind,
		.seq = it->seq,
		.id = it->id,
		.text = it->text.data ? it->text.data : "",
		.text_len = it->text.len,
		.reasoning = it->reasoning.data ? it->reasoning.data : "",
		.reasoning_len = it->reasoning.len,
		.title = it->title,
		.summary = it->summary,
		.full_action = it->full_action,
		.outcome = it->outcome,
		.result_text = it->has_result ? (it->result.data ? it->result.data : "") : NULL,
		.detail = it->detail.data ? it->detail.data : "",
		.detail_len = it->detail.len,
		.risk = it->risk,
		.streaming = it->streaming,
		.lossy = it->lossy,
		.stalled = it->stalled,
		.awaiting_confirmation = t->awaiting && it->pending_listed,
		.reasoning_expanded = it->reasoning_expanded,
		.attempt = it->attempt,
	};
}

void transcript_toggle_reasoning(struct transcript *t, size_t idx)
{
	struct item *it = t->items[idx];
	it->reasoning_expanded = !it->reasoning_expanded;
	transcript_touch(t, it);
}

size_t transcript_shown_len(const struct transcript *t, size_t idx)
{
	return t->items[idx]->shown_len;
}

uint64_t transcript_layouts_built(const struct transcript *t)
{
	return t->layouts;
}
