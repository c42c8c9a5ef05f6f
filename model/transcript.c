/* transcript: the items in display order, deduplicated by event id. Tool cards live in
 * cards.c, streaming slots in slots.c, rows in rows.c, search in search.c. */
#include "model_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct transcript *transcript_create(void)
{
	struct transcript *t = xcalloc(1, sizeof *t);
	idmap_init(&t->by_uid);
	idmap_init(&t->by_seq);
	strmap_init(&t->by_id);
	strmap_init(&t->result_ids);
	strmap_init(&t->cards);
	strmap_init(&t->orphans);
	strmap_init(&t->slots);
	recent_ids_init(&t->retired, TRANSCRIPT_RETIRED_RING);
	transcript_tree_init(&t->tree);
	t->newest_seq = -1;
	return t;
}

static void item_free(struct transcript *t, struct item *it)
{
	buf_fini(&it->text);
	buf_fini(&it->reasoning);
	free(it->id);
	free(it->title);
	free(it->timestamp);
	if (it->card) {
		buf_fini(&it->card->result);
		buf_fini(&it->card->detail);
		free(it->card->summary);
		free(it->card->full_action);
		free(it->card->tool_call_id);
		free(it->card->result_id);
		free(it->card);
	}
	free(it->stream);
	if (it->view && t->view_free)
		t->view_free(it->view);
	free(it);
}

void transcript_destroy(struct transcript *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->count; i++)
		item_free(t, t->items[i]);
	for (size_t i = 0; i < t->nhidden; i++)
		item_free(t, t->hidden[i]);
	free(t->hidden);
	transcript_tree_fini(&t->tree);
	idmap_fini(&t->by_uid);
	idmap_fini(&t->by_seq);
	idmap_fini(&t->quiet_seqs);
	strmap_fini(&t->by_id);
	strmap_fini(&t->result_ids);
	strmap_fini(&t->cards);
	strmap_fini(&t->orphans);
	strmap_fini(&t->slots);
	recent_ids_fini(&t->retired);
	free(t->items);
	free(t->open);
	free(t->pending);
	free(t);
}

struct item *item_create(struct transcript *t, enum item_kind kind)
{
	struct item *it = xcalloc(1, sizeof *it);
	it->uid = ++t->next_uid;
	it->kind = kind;
	it->seq = -1;
	buf_init(&it->text);
	buf_init(&it->reasoning);
	idmap_put(&t->by_uid, it->uid, it);
	return it;
}

void item_destroy(struct transcript *t, struct item *it)
{
	if (!it)
		return;
	idmap_del(&t->by_uid, it->uid, it);
	if (it->seq >= 0)
		idmap_del(&t->by_seq, (uint64_t)it->seq, it);
	item_free(t, it);
}

struct item_card *item_card(struct item *it)
{
	if (!it->card) {
		it->card = xcalloc(1, sizeof *it->card);
		it->card->result_seq = -1;
		buf_init(&it->card->result);
		buf_init(&it->card->detail);
	}
	return it->card;
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

/* Upper bound: after every item whose key is <= (major, minor). Usually that is the end. */
static size_t upper_bound(const struct transcript *t, int64_t major, uint64_t minor)
{
	size_t lo = 0, hi = t->count;
	if (hi && key_cmp(t->items[hi - 1], major, minor) <= 0)
		return hi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_cmp(t->items[mid], major, minor) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t transcript_index(const struct transcript *t, const struct item *it)
{
	/* Lower bound of its key; only durables of one seq share a key, and they are few. */
	size_t lo = 0, hi = t->count;
	if (hi && t->items[hi - 1] == it)
		return hi - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_cmp(t->items[mid], it->key_major, it->key_minor) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo < t->count && t->items[lo] != it)
		lo++;
	assert(lo < t->count && "an item in display order is found by its key");
	return lo;
}

void transcript_insert(struct transcript *t, struct item *it)
{
	if (t->count == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->items = xrealloc(t->items, t->cap * sizeof *t->items);
	}
	size_t at = upper_bound(t, it->key_major, it->key_minor);
	memmove(t->items + at + 1, t->items + at, (t->count - at) * sizeof *t->items);
	t->items[at] = it;
	t->count++;
	t->lines_added += 1 + count_newlines(it->text.data ? it->text.data : "", it->text.len);
	t->generation++;
}

void transcript_unlink(struct transcript *t, struct item *it)
{
	size_t i = transcript_index(t, it);
	memmove(t->items + i, t->items + i + 1, (t->count - i - 1) * sizeof *t->items);
	t->count--;
	t->generation++;
}

void transcript_settle_key(struct transcript *t, struct item *it)
{
	if (it->seq < 0 || (it->key_major == it->seq && it->key_minor == 0))
		return;
	size_t i = transcript_index(t, it);
	if (i > 0 && key_cmp(t->items[i - 1], it->seq, 0) >= 0)
		return;
	if (i + 1 < t->count && key_cmp(t->items[i + 1], it->seq, 0) <= 0)
		return;
	it->key_major = it->seq;
	it->key_minor = 0;
}

void transcript_key_at_end(struct transcript *t, struct item *it)
{
	/* After the newest seq even when the items at the end were trimmed: durables fetched
	 * again into that gap go above what arrives now. */
	int64_t last = t->count ? t->items[t->count - 1]->key_major : -1;
	it->key_major = last > t->newest_seq ? last : t->newest_seq;
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

static bool spec_has_card(const struct item_spec *spec)
{
	return spec->kind == ITEM_TOOL || spec->kind == ITEM_TOOL_RESULT || spec->summary ||
	       spec->full_action || spec->tool_call_id || spec->risk || spec->has_exit_code;
}

static void card_fill(struct item_card *c, const struct item_spec *spec)
{
	set_string(&c->summary, spec->summary);
	set_string(&c->full_action, spec->full_action);
	/* set once: it is the key of the card index */
	if (spec->tool_call_id && !c->tool_call_id)
		c->tool_call_id = xstrdup(spec->tool_call_id);
	if (spec->kind == ITEM_TOOL_RESULT) {
		c->outcome = spec->outcome;
		c->agent_error = spec->agent_error;
	} else if (!c->has_result && c->outcome != TOOL_NO_RESULT)
		c->outcome = TOOL_PENDING;
	c->risk = spec->risk;
	if (spec->has_exit_code || !c->has_result) {
		c->has_exit_code = spec->has_exit_code;
		c->exit_code = spec->exit_code;
	}
	if (spec->kind == ITEM_TOOL) {
		c->command = spec->command;
		set_buf(&c->detail, spec->detail, spec->detail_len);
		c->detail_epoch++;
	}
	if (spec->kind == ITEM_TOOL && spec->has_result) {
		set_buf(&c->result, spec->result, spec->result_len);
		c->has_result = true;
		c->outcome = spec->outcome;
		c->result_epoch++;
	}
}

void item_fill(struct transcript *t, struct item *it, const struct item_spec *spec)
{
	it->kind = spec->kind;
	if (spec->seq >= 0 && spec->seq != it->seq) {
		if (it->seq >= 0)
			idmap_del(&t->by_seq, (uint64_t)it->seq, it);
		it->seq = spec->seq;
		idmap_put(&t->by_seq, (uint64_t)it->seq, it);
		if (it->seq > t->newest_seq)
			t->newest_seq = it->seq;
	}
	set_buf(&it->text, spec->text, spec->text_len);
	set_buf(&it->reasoning, spec->reasoning, spec->reasoning_len);
	it->reasoning_lines = it->reasoning.len
		? 1 + count_newlines(it->reasoning.data, it->reasoning.len) : 0;
	set_string(&it->title, spec->title);
	if (spec->timestamp)
		set_string(&it->timestamp, spec->timestamp);
	if (it->card || spec_has_card(spec))
		card_fill(item_card(it), spec);
	if (it->stream) {
		it->stream->shown_len = it->text.len;
		it->stream->seen_len = it->text.len;
	}
	it->text_epoch++;
	it->reasoning_epoch++;
}

/* A known id again. A transient copy taking its durable seq moves to its seq's place. */
static enum apply_result known_again(struct transcript *t, struct item *it,
				     const struct item_spec *spec)
{
	if (spec->seq < 0 || it->seq >= 0)
		return APPLY_DUPLICATE;
	item_fill(t, it, spec);
	if (!it->stream) {
		transcript_unlink(t, it);
		it->key_major = spec->seq;
		it->key_minor = 0;
		uint64_t lines = t->lines_added;
		transcript_insert(t, it);
		t->lines_added = lines;
	} else {
		transcript_settle_key(t, it);
	}
	transcript_index_card(t, it);
	transcript_touch(t, it);
	return APPLY_ADDED;
}

static enum apply_result add_event(struct transcript *t, const struct item_spec *spec)
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
		if (card && !card->card->has_result)
			return transcript_attach_result(t, card, spec);
	}
	if (spec->kind == ITEM_TOOL && spec->replaces_card && spec->tool_call_id) {
		struct item *card = strmap_get(&t->cards, spec->tool_call_id);
		if (card)
			return transcript_update_card(t, card, spec);
	}
	struct item *it = item_create(t, spec->kind);
	it->id = xstrdup(spec->id);
	item_fill(t, it, spec);
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
	/* A result without its card (not loaded, or gone): shown on its own until it comes. */
	if (spec->kind == ITEM_TOOL_RESULT && it->card->tool_call_id &&
	    !strmap_get(&t->cards, it->card->tool_call_id) &&
	    !strmap_get(&t->orphans, it->card->tool_call_id))
		strmap_put(&t->orphans, it->card->tool_call_id, it);
	return APPLY_ADDED;
}

enum apply_result transcript_add_event(struct transcript *t, const struct item_spec *spec)
{
	if (spec->seq >= 0)
		transcript_tree_add(t, spec->id, spec->seq, spec->parent_id, spec->state_update);
	enum apply_result r = add_event(t, spec);
	transcript_branch_settle(t);
	/* A durable that took no seq of its own (a card's re-emission, a result attached far
	 * from its card, a copy of a loaded event) is still that seq of the log: not a gap. */
	if (spec->seq >= 0)
		transcript_note_seq(t, spec->seq);
	return r;
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
	const struct item_card *c = it->card;
	const struct item_stream *st = it->stream;
	bool streaming = st && st->open;
	*info = (struct item_info){
		.uid = it->uid,
		.kind = it->kind,
		.seq = it->seq,
		.id = it->id,
		.text = it->text.data ? it->text.data : "",
		.text_len = it->text.len,
		.shown_len = streaming ? st->shown_len : it->text.len,
		.reasoning = it->reasoning.data ? it->reasoning.data : "",
		.reasoning_len = it->reasoning.len,
		.reasoning_lines = it->reasoning_lines,
		.title = it->title,
		.timestamp = it->timestamp,
		.detail = "",
		.streaming = streaming,
		.reasoning_expanded = it->reasoning_expanded,
		.expanded = it->expanded,
		.text_epoch = it->text_epoch,
		.reasoning_epoch = it->reasoning_epoch,
	};
	if (c) {
		info->summary = c->summary;
		info->full_action = c->full_action;
		info->tool_call_id = c->tool_call_id;
		info->outcome = c->outcome;
		info->result_text = c->has_result ? (c->result.data ? c->result.data : "") : NULL;
		info->result_len = c->has_result ? c->result.len : 0;
		info->agent_error = c->agent_error;
		info->detail = c->detail.data ? c->detail.data : "";
		info->detail_len = c->detail.len;
		info->command = c->command;
		info->risk = c->risk;
		info->has_exit_code = c->has_exit_code;
		info->exit_code = c->exit_code;
		info->awaiting_confirmation = t->awaiting && c->pending_listed;
		info->result_epoch = c->result_epoch;
		info->detail_epoch = c->detail_epoch;
	}
	if (st) {
		info->lossy = st->lossy;
		info->stalled = st->stalled;
		info->attempt = st->attempt;
		info->interrupted = st->interrupted;
	}
}

void transcript_toggle_reasoning(struct transcript *t, size_t idx)
{
	struct item *it = t->items[idx];
	it->reasoning_expanded = !it->reasoning_expanded;
	transcript_touch(t, it);
}

void transcript_toggle_expanded(struct transcript *t, size_t idx)
{
	struct item *it = t->items[idx];
	it->expanded = !it->expanded;
	transcript_touch(t, it);
}

uint64_t transcript_uid_at(const struct transcript *t, size_t idx)
{
	return t->items[idx]->uid;
}

long transcript_index_of(const struct transcript *t, uint64_t uid)
{
	const struct item *it = idmap_get(&t->by_uid, uid);
	return it && !it->hidden ? (long)transcript_index(t, it) : -1;
}

long transcript_find_seq(const struct transcript *t, int64_t seq)
{
	const struct item *it = seq >= 0 ? idmap_get(&t->by_seq, (uint64_t)seq) : NULL;
	return it && !it->hidden ? (long)transcript_index(t, it) : -1;
}

long transcript_find_id(const struct transcript *t, const char *id)
{
	if (!id)
		return -1;
	const struct item *it = strmap_get(&t->by_id, id);
	if (!it)
		it = strmap_get(&t->slots, id);
	return it && !it->hidden ? (long)transcript_index(t, it) : -1;
}

void **transcript_view_cache(struct transcript *t, size_t idx, uint64_t *version)
{
	struct item *it = t->items[idx];
	*version = it->version;
	return &it->view;
}

void transcript_set_view_free(struct transcript *t, void (*free_fn)(void *))
{
	t->view_free = free_fn;
}
