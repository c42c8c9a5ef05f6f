/* slots: streaming items (protocol.md §7.1 rules 5–15) and the pace at which their text
 * is revealed. A slot is an ordinary item with streaming set, indexed by item_id. */
#include "model_int.h"

#include <stdlib.h>
#include <string.h>

/* Retired for good: recently retired or aborted, or already in the transcript as an event. */
static bool is_retired(const struct transcript *t, const char *id)
{
	return recent_ids_has(&t->retired, id) || strmap_get(&t->by_id, id);
}

void transcript_slot_close(struct transcript *t, struct item *it)
{
	strmap_del(&t->slots, it->id);
	for (size_t i = 0; i < t->nopen; i++) {
		if (t->open[i] == it) {
			memmove(t->open + i, t->open + i + 1, (--t->nopen - i) * sizeof *t->open);
			break;
		}
	}
	it->stream->open = false;
	it->stream->stalled = false;
	it->stream->lossy = false;
	it->stream->last_delta_us = 0;
	it->stream->stream_data = NULL; /* its owner took it before closing */
}

static struct item *slot_open(struct transcript *t, const char *item_id, int attempt,
			      bool has_anchor, int64_t anchor)
{
	struct item *it = item_create(t, ITEM_AGENT);
	it->id = xstrdup(item_id);
	it->stream = xcalloc(1, sizeof *it->stream);
	it->stream->open = true;
	it->stream->attempt = attempt;
	if (has_anchor) {
		it->key_major = anchor;
		it->key_minor = ++t->arrivals;
	} else {
		transcript_key_at_end(t, it);
	}
	transcript_insert(t, it);
	strmap_put(&t->slots, it->id, it);
	if (t->nopen == t->open_cap) {
		t->open_cap = t->open_cap ? t->open_cap * 2 : 8;
		t->open = xrealloc(t->open, t->open_cap * sizeof *t->open);
	}
	t->open[t->nopen++] = it;
	return it;
}

/* A higher attempt: everything streamed so far is void. */
static void slot_supersede(struct transcript *t, struct item *it, int attempt)
{
	it->stream->attempt = attempt;
	it->stream->stalled = false;
	it->stream->last_delta_us = 0;
	buf_clear(&it->text);
	buf_clear(&it->reasoning);
	it->reasoning_lines = 0;
	it->stream->next_order = 0;
	it->stream->lossy = false;
	it->stream->shown_len = 0;
	it->stream->seen_len = 0;
	it->stream->step = 0;
	transcript_think_reset(it);
	it->text_epoch++;
	it->reasoning_epoch++;
	transcript_touch(t, it);
}

static void slot_destroy(struct transcript *t, struct item *it)
{
	transcript_slot_close(t, it);
	recent_ids_add(&t->retired, it->id);
	transcript_unlink(t, it);
	item_destroy(t, it);
}

enum apply_result transcript_stream_start(struct transcript *t, const char *item_id, int attempt,
					  bool has_anchor_seq, int64_t anchor_seq)
{
	if (!item_id)
		return APPLY_IGNORED_UNKNOWN;
	struct item *slot = strmap_get(&t->slots, item_id);
	if (slot) {
		if (attempt < slot->stream->attempt)
			return APPLY_IGNORED_STALE;
		if (attempt == slot->stream->attempt)
			return APPLY_DUPLICATE; /* the same attempt announced twice */
		slot_supersede(t, slot, attempt);
		return APPLY_SUPERSEDED;
	}
	if (is_retired(t, item_id))
		return APPLY_IGNORED_RETIRED;
	slot_open(t, item_id, attempt, has_anchor_seq, anchor_seq);
	return APPLY_OPENED;
}

enum apply_result transcript_stream_admit(struct transcript *t, const char *item_id, int attempt,
					  struct item **slot_out)
{
	*slot_out = NULL;
	if (!item_id)
		return APPLY_IGNORED_UNKNOWN;
	enum apply_result res = APPLY_APPENDED;
	struct item *slot = strmap_get(&t->slots, item_id);
	if (!slot) {
		if (is_retired(t, item_id))
			return APPLY_IGNORED_RETIRED;
		slot = slot_open(t, item_id, attempt, false, 0);
		res = APPLY_OPENED;
	} else if (attempt < slot->stream->attempt) {
		return APPLY_IGNORED_STALE;
	} else if (attempt > slot->stream->attempt) {
		slot_supersede(t, slot, attempt);
		res = APPLY_SUPERSEDED;
	}
	*slot_out = slot;
	return res;
}

enum apply_result transcript_slot_append(struct transcript *t, struct item *slot, int64_t order,
					 bool reasoning, const char *text, size_t len,
					 int64_t now_us)
{
	enum apply_result res = APPLY_APPENDED;
	if (order != slot->stream->next_order) {
		slot->stream->lossy = true;
		res = APPLY_LOSSY;
	}
	/* Count on from what arrived: one gap marks the slot lossy once, not every later delta. */
	slot->stream->next_order = order + 1;
	if (len && text) {
		if (reasoning) {
			if (!slot->reasoning.len)
				slot->reasoning_lines = 1;
			slot->reasoning_lines += count_newlines(text, len);
			buf_append(&slot->reasoning, text, len);
		} else {
			transcript_think_feed(t, slot, text, len);
		}
	}
	slot->stream->last_delta_us = now_us;
	slot->stream->stalled = false; /* a delta ends a stall */
	transcript_touch(t, slot);
	return res;
}

enum apply_result transcript_stream_delta(struct transcript *t, const char *item_id, int attempt,
					  int64_t order, bool reasoning, const char *text,
					  size_t len)
{
	struct item *slot;
	enum apply_result res = transcript_stream_admit(t, item_id, attempt, &slot);
	if (!slot)
		return res;
	enum apply_result added = transcript_slot_append(t, slot, order, reasoning, text, len, 0);
	return res == APPLY_APPENDED ? added : res;
}

enum apply_result transcript_stream_abort(struct transcript *t, const char *item_id, int attempt,
					  const char *reason)
{
	(void)attempt; /* rule 9: whatever the attempt, even one never announced */
	(void)reason;
	if (!item_id)
		return APPLY_IGNORED_UNKNOWN;
	struct item *slot = strmap_get(&t->slots, item_id);
	if (slot) {
		slot_destroy(t, slot);
		return APPLY_ABORTED;
	}
	if (is_retired(t, item_id))
		return APPLY_IGNORED_RETIRED;
	/* Every item_started is retired exactly once, so nothing may open this id later. */
	recent_ids_add(&t->retired, item_id);
	return APPLY_IGNORED_UNKNOWN;
}

enum apply_result transcript_stream_interrupted(struct transcript *t, const char *item_id)
{
	struct item *slot = item_id ? strmap_get(&t->slots, item_id) : NULL;
	if (!slot || (!slot->text.len && !slot->reasoning.len))
		return transcript_stream_abort(t, item_id, 0, "cancelled");
	transcript_slot_close(t, slot);
	recent_ids_add(&t->retired, slot->id);
	slot->stream->interrupted = true;
	transcript_touch(t, slot);
	return APPLY_ABORTED;
}

size_t transcript_discard_streams(struct transcript *t)
{
	size_t n = t->nopen;
	while (t->nopen)
		slot_destroy(t, t->open[t->nopen - 1]);
	return n;
}

enum apply_result transcript_retire_slot(struct transcript *t, struct item *slot,
					 const struct item_spec *spec)
{
	size_t old_lines = count_newlines(slot->text.data ? slot->text.data : "", slot->text.len);
	transcript_slot_close(t, slot);
	recent_ids_add(&t->retired, slot->id);
	item_fill(t, slot, spec);
	size_t new_lines = count_newlines(slot->text.data ? slot->text.data : "", slot->text.len);
	if (new_lines > old_lines)
		t->lines_added += new_lines - old_lines;
	strmap_put(&t->by_id, slot->id, slot);
	transcript_settle_key(t, slot);
	transcript_index_card(t, slot);
	transcript_touch(t, slot);
	return APPLY_RETIRED;
}

size_t transcript_open_streams(const struct transcript *t)
{
	return t->nopen;
}

struct item *transcript_stream_find(const struct transcript *t, const char *item_id)
{
	return item_id ? strmap_get(&t->slots, item_id) : NULL;
}

struct item *transcript_stream_at(const struct transcript *t, size_t i)
{
	return i < t->nopen ? t->open[i] : NULL;
}

int transcript_stream_attempt(const struct transcript *t, const char *item_id)
{
	const struct item *slot = transcript_stream_find(t, item_id);
	return slot ? slot->stream->attempt : 0;
}

void transcript_stream_set_stalled(struct transcript *t, const char *item_id, bool stalled)
{
	struct item *slot = transcript_stream_find(t, item_id);
	if (!slot || slot->stream->stalled == stalled)
		return;
	slot->stream->stalled = stalled;
	transcript_touch(t, slot);
}

const char *transcript_slot_id(const struct item *slot)
{
	return slot->id;
}

int transcript_slot_attempt(const struct item *slot)
{
	return slot->stream->attempt;
}

void *transcript_slot_data(const struct item *slot)
{
	return slot->stream->stream_data;
}

void transcript_slot_set_data(struct item *slot, void *data)
{
	slot->stream->stream_data = data;
}

size_t transcript_stalled_streams(const struct transcript *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nopen; i++)
		n += t->open[i]->stream->stalled;
	return n;
}

bool transcript_streams_check_stalls(struct transcript *t, int64_t now_us, int64_t limit_us,
				     bool quiet_is_work,
				     void (*on_stalled)(void *ctx, struct item *slot), void *ctx)
{
	bool any_armed = false;
	/* Newest first; on_stalled may not open or close slots. */
	for (size_t i = t->nopen; i-- > 0;) {
		struct item *slot = t->open[i];
		if (!slot->stream->last_delta_us)
			continue;
		any_armed = true;
		if (quiet_is_work || slot->stream->stalled ||
		    now_us - slot->stream->last_delta_us < limit_us)
			continue;
		slot->stream->stalled = true;
		transcript_touch(t, slot);
		if (on_stalled)
			on_stalled(ctx, slot);
	}
	return any_armed;
}

/* Reveals up to step bytes of one slot; true while it has more to show. */
static bool slot_reveal(struct transcript *t, struct item *it)
{
	struct item_stream *st = it->stream;
	size_t avail = utf8_complete_prefix(it->text.data ? it->text.data : "", it->text.len);
	if (it->text.len != st->seen_len) {
		/* New bytes since the last tick: drain the backlog within two ticks. */
		size_t backlog = avail > st->shown_len ? avail - st->shown_len : 0;
		st->step = (backlog + 1) / 2;
		st->seen_len = it->text.len;
	}
	if (st->shown_len >= avail)
		return false;
	size_t step = st->step ? st->step : 1;
	size_t end = avail - st->shown_len > step ? st->shown_len + step : avail;
	while (end < avail && ((unsigned char)it->text.data[end] & 0xC0) == 0x80)
		end++;
	st->shown_len = end;
	transcript_touch(t, it);
	return end < avail;
}

bool transcript_reveal_tick(struct transcript *t)
{
	bool more = false;
	for (size_t i = 0; i < t->nopen; i++)
		more |= slot_reveal(t, t->open[i]);
	return more;
}
