/* window: a window over a long history. What is loaded, the gaps of history not loaded
 * between durables, and dropping items far from the view so memory stays bounded (pages
 * are placed in page.c). */
#include "model_int.h"

#include <stdlib.h>
#include <string.h>

bool transcript_seq_loaded(const struct transcript *t, int64_t seq)
{
	return seq >= 0 && (idmap_get(&t->by_seq, (uint64_t)seq) != NULL ||
			    idmap_get(&t->quiet_seqs, (uint64_t)seq) != NULL);
}

bool transcript_id_loaded(const struct transcript *t, const char *id, int64_t *seq)
{
	const struct item *it = strmap_get(&t->by_id, id);
	if (it) {
		*seq = it->seq;
		return true;
	}
	it = strmap_get(&t->result_ids, id);
	if (it) {
		*seq = it->card->result_seq;
		return true;
	}
	return false;
}

const char *transcript_id_at_seq(const struct transcript *t, int64_t seq)
{
	const struct item *it = idmap_get(&t->by_seq, (uint64_t)seq);
	if (!it)
		return NULL;
	return it->seq == seq ? it->id : it->card->result_id;
}

/* Gaps up to this many seqs are counted exactly, one lookup each; a wider gap has its edges
 * counted (where out-of-order items sit) and its middle taken as missing. */
#define GAP_EXACT 256
#define GAP_EDGE 128

/* Seqs in [lo, hi] not loaded. */
static int64_t count_absent(const struct transcript *t, int64_t lo, int64_t hi)
{
	if (hi < lo)
		return 0;
	int64_t n = 0;
	if (hi - lo + 1 <= GAP_EXACT) {
		for (int64_t s = lo; s <= hi; s++)
			n += !transcript_seq_loaded(t, s);
		return n;
	}
	for (int64_t s = lo; s < lo + GAP_EDGE; s++)
		n += !transcript_seq_loaded(t, s);
	for (int64_t s = hi - GAP_EDGE + 1; s <= hi; s++)
		n += !transcript_seq_loaded(t, s);
	return n + (hi - lo + 1 - 2 * GAP_EDGE);
}

/* The index of the last durable before idx, or -1. */
static long prev_durable(const struct transcript *t, size_t idx)
{
	for (size_t i = idx; i-- > 0;)
		if (t->items[i]->seq >= 0)
			return (long)i;
	return -1;
}

long transcript_first_durable(const struct transcript *t)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->items[i]->seq >= 0)
			return (long)i;
	return -1;
}

int64_t transcript_missing_before(const struct transcript *t, size_t idx)
{
	if (idx >= t->count || t->items[idx]->seq < 0)
		return 0;
	long p = prev_durable(t, idx);
	int64_t lo = p >= 0 ? t->items[p]->seq + 1 : 0;
	return count_absent(t, lo, t->items[idx]->seq - 1);
}

static void gap_fill(const struct transcript *t, size_t at, bool before, int64_t missing,
		     struct history_gap *gap)
{
	long a = before ? (long)at : prev_durable(t, at);
	if (a < 0) {
		before = true; /* nothing loaded above it: fill it from below */
		a = (long)at;
	}
	const struct item *it = t->items[a];
	/* The durables on either side of the gap: at (below) and the one above it, if any. */
	long p = prev_durable(t, at);
	int64_t lo = p >= 0 ? t->items[p]->seq : -1, hi = t->items[at]->seq;
	*gap = (struct history_gap){
		.span = hi - lo - 1,
		.before = before,
		.anchor_seq = it->seq,
		.anchor_timestamp = it->timestamp,
		.anchor_id = it->id,
		.missing = missing,
		.at_index = at,
	};
}

bool transcript_gap_near(const struct transcript *t, size_t first, size_t last,
			 size_t margin, struct history_gap *gap)
{
	if (!t->count || first >= t->count)
		return false;
	if (last >= t->count)
		last = t->count - 1;
	if (last < first)
		last = first;
	int64_t m;
	for (size_t i = first + 1; i <= last; i++) {
		if ((m = transcript_missing_before(t, i)) > 0) {
			gap_fill(t, i, true, m, gap);
			return true;
		}
	}
	/* Outward from the view: above first (the gap right above it is nearest), below last. */
	for (size_t d = 0; d <= margin; d++) {
		if (d <= first && (m = transcript_missing_before(t, first - d)) > 0) {
			gap_fill(t, first - d, true, m, gap);
			return true;
		}
		size_t below = last + 1 + d;
		if (below < t->count && (m = transcript_missing_before(t, below)) > 0) {
			gap_fill(t, below, false, m, gap);
			return true;
		}
		if (d > first && below >= t->count)
			break;
	}
	return false;
}

/* --------------------------------------------------------------- dropping */

static size_t item_bytes(const struct transcript *t, const struct item *it)
{
	size_t n = sizeof *it + it->text.cap + it->reasoning.cap;
	n += it->id ? strlen(it->id) + 1 : 0;
	n += it->title ? strlen(it->title) + 1 : 0;
	n += it->timestamp ? strlen(it->timestamp) + 1 : 0;
	if (it->card) {
		const struct item_card *c = it->card;
		n += sizeof *c + c->result.cap + c->detail.cap;
		n += c->summary ? strlen(c->summary) + 1 : 0;
		n += c->full_action ? strlen(c->full_action) + 1 : 0;
		n += c->tool_call_id ? strlen(c->tool_call_id) + 1 : 0;
		n += c->result_id ? strlen(c->result_id) + 1 : 0;
	}
	if (it->stream)
		n += sizeof *it->stream;
	if (it->view && t->view_bytes)
		n += t->view_bytes(it->view);
	/* its cells in the indices: uid, seq, id (and a result's) */
	return n + 4 * 24;
}

size_t transcript_bytes(const struct transcript *t)
{
	size_t n = sizeof *t + t->cap * sizeof *t->items;
	n += t->quiet_seqs.cap * 2 * sizeof(uint64_t);
	for (size_t i = 0; i < t->count; i++)
		n += item_bytes(t, t->items[i]);
	return n;
}

void transcript_set_view_bytes(struct transcript *t, size_t (*bytes_fn)(const void *cache))
{
	t->view_bytes = bytes_fn;
}

static bool droppable(const struct item *it)
{
	if (it->stream && it->stream->open)
		return false;
	return !(it->card && it->card->pending_listed);
}

/* Takes it out of every index and frees it (the caller takes it out of items[]). */
static void item_drop(struct transcript *t, struct item *it)
{
	if (it->id && strmap_get(&t->by_id, it->id) == it)
		strmap_del(&t->by_id, it->id);
	struct item_card *c = it->card;
	if (c) {
		if (c->result_id && strmap_get(&t->result_ids, c->result_id) == it)
			strmap_del(&t->result_ids, c->result_id);
		if (c->result_seq >= 0)
			idmap_del(&t->by_seq, (uint64_t)c->result_seq, it);
		if (c->tool_call_id && strmap_get(&t->cards, c->tool_call_id) == it)
			strmap_del(&t->cards, c->tool_call_id);
		if (c->tool_call_id && strmap_get(&t->orphans, c->tool_call_id) == it)
			strmap_del(&t->orphans, c->tool_call_id);
	}
	item_destroy(t, it);
}

static int cmp_seq(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The first of sorted v[0..n) greater than s (n when none). */
static size_t seq_upper(const int64_t *v, size_t n, int64_t s)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The tree's nodes older than every item held (shown or off the branch) go with them:
 * a long headless run or a long session holds the tree of its window only. */
static void forget_old_nodes(struct transcript *t)
{
	int64_t oldest = INT64_MAX;
	for (size_t i = 0; i < t->count; i++)
		if (t->items[i]->seq >= 0 && t->items[i]->seq < oldest)
			oldest = t->items[i]->seq;
	for (size_t i = 0; i < t->nhidden; i++)
		if (t->hidden[i]->seq >= 0 && t->hidden[i]->seq < oldest)
			oldest = t->hidden[i]->seq;
	if (oldest != INT64_MAX)
		transcript_tree_forget_before(t, oldest);
}

/* After a trim: a noted seq stays only while nothing dropped lies between the durables kept
 * on either side of it; in a gap it is history not loaded again (and noted again when its
 * page comes), so the noted seqs stay as bounded as the items. dropped[0..nd) are the seqs
 * that went. */
static void quiet_forget(struct transcript *t, int64_t *dropped, size_t nd)
{
	if (!t->quiet_seqs.count || !nd)
		return;
	int64_t *kept = xcalloc(t->count + 1, sizeof *kept);
	size_t nk = 0;
	for (size_t i = 0; i < t->count; i++)
		if (t->items[i]->seq >= 0)
			kept[nk++] = t->items[i]->seq;
	qsort(kept, nk, sizeof *kept, cmp_seq);
	qsort(dropped, nd, sizeof *dropped, cmp_seq);
	uint64_t *q = xcalloc(t->quiet_seqs.count, sizeof *q);
	size_t nq = idmap_keys(&t->quiet_seqs, q);
	for (size_t i = 0; i < nq; i++) {
		int64_t s = (int64_t)q[i];
		size_t k = seq_upper(kept, nk, s);
		int64_t lo = k ? kept[k - 1] : -1, hi = k < nk ? kept[k] : INT64_MAX;
		size_t d = seq_upper(dropped, nd, lo);
		if (d < nd && dropped[d] < hi)
			idmap_del(&t->quiet_seqs, q[i], idmap_get(&t->quiet_seqs, q[i]));
	}
	free(q);
	free(kept);
}

size_t transcript_trim(struct transcript *t, size_t keep_first, size_t keep_last,
		       size_t max_bytes, size_t keep_tail)
{
	size_t total = transcript_bytes(t);
	if (total <= max_bytes || !t->count)
		return 0;
	size_t n = t->count, tail = n > keep_tail ? n - keep_tail : 0;
	/* Candidates above the view: [0, top_end), distance keep_first - i; below it:
	 * (keep_last, tail), distance i - keep_last. No view: everything above the tail. */
	bool view = keep_first <= keep_last && keep_first < n;
	size_t top_end = view ? (keep_first < tail ? keep_first : tail) : tail;
	size_t ref_top = view ? keep_first : tail;
	size_t bot_begin = view && keep_last + 1 < tail ? keep_last + 1 : tail;
	bool *drop = xcalloc(n, sizeof *drop);
	size_t top = 0, bot = tail, dropped = 0;
	while (total > max_bytes && (top < top_end || bot > bot_begin)) {
		size_t i;
		bool take_top = top < top_end &&
				(bot <= bot_begin || ref_top - top >= (bot - 1) - keep_last);
		i = take_top ? top++ : --bot;
		if (!droppable(t->items[i]))
			continue;
		drop[i] = true;
		size_t b = item_bytes(t, t->items[i]);
		total = total > b ? total - b : 0;
		dropped++;
	}
	if (dropped) {
		int64_t *gone = xcalloc(2 * dropped, sizeof *gone);
		size_t w = 0, ngone = 0;
		for (size_t i = 0; i < n; i++) {
			struct item *it = t->items[i];
			if (!drop[i]) {
				t->items[w++] = it;
				continue;
			}
			if (it->seq >= 0)
				gone[ngone++] = it->seq;
			if (it->card && it->card->result_seq >= 0)
				gone[ngone++] = it->card->result_seq;
			transcript_pending_remove(t, it);
			item_drop(t, it);
		}
		t->count = w;
		t->generation++;
		quiet_forget(t, gone, ngone);
		free(gone);
		forget_old_nodes(t);
	}
	free(drop);
	return dropped;
}

/* What quiet_seqs maps to: any item pointer but NULL (the map's empty cell). */
static struct item quiet_mark;

void transcript_note_seq(struct transcript *t, int64_t seq)
{
	if (seq >= 0 && !transcript_seq_loaded(t, seq))
		idmap_put(&t->quiet_seqs, (uint64_t)seq, &quiet_mark);
}
