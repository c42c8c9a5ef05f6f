/* transcript: the items in display order, deduplicated by event id, with tool results
 * attached to their cards. Streaming slots live in slots.c, rows in rows.c. */
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
	strmap_init(&t->ring_ids);
	return t;
}

void transcript_destroy(struct transcript *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->count; i++)
		item_destroy(t->items[i]);
	for (size_t i = 0; i < TRANSCRIPT_RETIRED_RING; i++)
		free(t->ring[i]);
	strmap_fini(&t->by_id);
	strmap_fini(&t->result_ids);
	strmap_fini(&t->cards);
	strmap_fini(&t->slots);
	strmap_fini(&t->ring_ids);
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
	return it;
}

void item_destroy(struct item *it)
{
	if (!it)
		return;
	buf_fini(&it->text);
	buf_fini(&it->reasoning);
	buf_fini(&it->result);
	free(it->id);
	free(it->title);
	free(it->summary);
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

void transcript_pending_add(struct transcript *t, struct item *it)
{
	if (it->pending_listed)
		return;
	if (t->npending == t->pending_cap) {
		t->pending_cap = t->pending_cap ? t->pending_cap * 2 : 16;
		t->pending = xrealloc(t->pending, t->pending_cap * sizeof *t->pending);
	}
	t->pending[t->npending++] = it;
	it->pending_listed = true;
}

void transcript_pending_remove(struct transcript *t, struct item *it)
{
	if (!it->pending_listed)
		return;
	for (size_t i = 0; i < t->npending; i++) {
		if (t->pending[i] == it) {
			memmove(t->pending + i, t->pending + i + 1,
				(t->npending - i - 1) * sizeof *t->pending);
			t->npending--;
			break;
		}
	}
	it->pending_listed = false;
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
	if (spec->tool_call_id && (!it->tool_call_id || !it->has_result))
		set_string(&it->tool_call_id, spec->tool_call_id);
	if (spec->kind == ITEM_TOOL_RESULT)
		it->outcome = spec->outcome;
	else if (!it->has_result && it->outcome != TOOL_NO_RESULT)
		it->outcome = TOOL_PENDING;
	it->risk = spec->risk;
	if (spec->has_exit_code || !it->has_result) {
		it->has_exit_code = spec->has_exit_code;
		it->exit_code = spec->exit_code;
	}
	it->shown_len = it->text.len;
	it->seen_len = it->text.len;
	it->text_epoch++;
	it->reasoning_epoch++;
}

/* The first card with a tool_call_id owns it in the index. */
void transcript_index_card(struct transcript *t, struct item *it)
{
	if (it->kind != ITEM_TOOL || !it->tool_call_id)
		return;
	if (!strmap_get(&t->cards, it->tool_call_id))
		strmap_put(&t->cards, it->tool_call_id, it);
	if (it->outcome == TOOL_PENDING && !it->has_result)
		transcript_pending_add(t, it);
}

static enum apply_result attach_result(struct transcript *t, struct item *card,
				       const struct item_spec *spec)
{
	set_buf(&card->result, spec->text, spec->text_len);
	card->outcome = spec->outcome;
	card->has_result = true;
	if (spec->has_exit_code) {
		card->has_exit_code = true;
		card->exit_code = spec->exit_code;
	}
	card->result_epoch++;
	if (spec->id) {
		card->result_id = xstrdup(spec->id);
		strmap_put(&t->result_ids, card->result_id, card);
	}
	transcript_pending_remove(t, card);
	t->lines_added += 1 + count_newlines(card->result.data, card->result.len);
	transcript_touch(t, card);
	return APPLY_ATTACHED;
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
			return attach_result(t, card, spec);
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

void transcript_mark_run_ended(struct transcript *t)
{
	for (size_t i = 0; i < t->npending; i++) {
		struct item *it = t->pending[i];
		it->outcome = TOOL_NO_RESULT;
		it->pending_listed = false;
		transcript_touch(t, it);
	}
	t->npending = 0;
}

void transcript_set_awaiting_confirmation(struct transcript *t, bool awaiting)
{
	if (t->awaiting == awaiting)
		return;
	t->awaiting = awaiting;
	for (size_t i = 0; i < t->npending; i++)
		transcript_touch(t, t->pending[i]);
	t->generation++;
}

size_t transcript_pending_tools(const struct transcript *t, size_t *idx, size_t max)
{
	for (size_t i = 0; i < t->npending && i < max; i++)
		idx[i] = t->pending[i]->pos;
	return t->npending;
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
		.outcome = it->outcome,
		.result_text = it->has_result ? (it->result.data ? it->result.data : "") : NULL,
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

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static bool contains(const char *hay, size_t n, const char *needle, size_t m)
{
	if (!hay || m > n)
		return false;
	unsigned char first = lower((unsigned char)needle[0]);
	for (size_t i = 0; i + m <= n; i++) {
		if (lower((unsigned char)hay[i]) != first)
			continue;
		size_t j = 1;
		while (j < m && lower((unsigned char)hay[i + j]) == lower((unsigned char)needle[j]))
			j++;
		if (j == m)
			return true;
	}
	return false;
}

static bool item_matches(const struct item *it, const char *needle, size_t m)
{
	return contains(it->text.data, it->text.len, needle, m) ||
	       contains(it->summary, it->summary ? strlen(it->summary) : 0, needle, m) ||
	       contains(it->title, it->title ? strlen(it->title) : 0, needle, m) ||
	       contains(it->result.data, it->result.len, needle, m);
}

long transcript_search(const struct transcript *t, const char *needle, size_t from,
		       bool backwards)
{
	size_t m = needle ? strlen(needle) : 0;
	if (!m || !t->count)
		return -1;
	if (backwards) {
		for (size_t i = from < t->count ? from + 1 : t->count; i-- > 0;)
			if (item_matches(t->items[i], needle, m))
				return (long)i;
		return -1;
	}
	for (size_t i = from; i < t->count; i++)
		if (item_matches(t->items[i], needle, m))
			return (long)i;
	return -1;
}
