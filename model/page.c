/* page: a REST page placed by log order next to a loaded durable (the anchor). The page is
 * checked, not trusted: turned round when it came in the opposite order, the anchor and
 * what precedes it skipped, events loaded already skipped by id, and an event dated on the
 * wrong side of what it would follow refused. */
#include "model_int.h"

#include <stdlib.h>
#include <string.h>

/* The timestamp of the durable loaded at seq, when it is that event's own (a card answering
 * for its result's seq has an older one); NULL otherwise. */
static const char *ts_at_seq(const struct transcript *t, int64_t seq)
{
	const struct item *it = seq >= 0 ? idmap_get(&t->by_seq, (uint64_t)seq) : NULL;
	return it && it->seq == seq ? it->timestamp : NULL;
}

/* ISO 8601 times as the server compares them: as strings (naive, one format). */
static int ts_cmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

/* True when ts may lie on the walk's side of bound: older (before) or newer (after), or
 * equal; unknown times always may. */
static bool ts_fits(const char *ts, const char *bound, bool before)
{
	if (!ts || !bound)
		return true;
	int c = ts_cmp(ts, bound);
	return before ? c <= 0 : c >= 0;
}

/* Whether the page came in the opposite order to the one asked: most of its times lie on
 * the other side of its first (an event out of place does not turn it), or (mostly equal)
 * the events it holds that are loaded already run the other way, or the anchor ends it. */
static bool page_reversed(const struct transcript *t, int64_t anchor_seq,
			  const struct item_spec *specs, size_t n, bool before)
{
	const char *first = NULL;
	size_t newer = 0, older = 0, same = 0;
	for (size_t i = 0; i < n; i++) {
		if (!specs[i].timestamp || specs[i].quiet)
			continue; /* (one that makes no item may be dated out of order) */
		if (!first) {
			first = specs[i].timestamp;
			continue;
		}
		int c = ts_cmp(specs[i].timestamp, first);
		newer += c > 0;
		older += c < 0;
		same += c == 0;
	}
	/* Decided by times only when more differ from the first one way than are equal to it
	 * (one stray in a run of equal times decides nothing). */
	size_t most = newer > older ? newer : older;
	if (newer != older && most > same)
		return before ? newer > older : older > newer;
	int up = 0, down = 0;
	int64_t last = -1, real;
	for (size_t i = 0; i < n; i++) {
		if (!specs[i].id || !transcript_id_loaded(t, specs[i].id, &real) || real < 0)
			continue;
		if (last >= 0) {
			up += real > last;
			down += real < last;
		}
		last = real;
	}
	if (up || down)
		return before ? up > down : down > up;
	/* Times all equal, nothing to go by but the anchor, which an inclusive page starts
	 * with: ending a page that begins with events not loaded (its equal-timestamp
	 * neighbours from the other side would be), it was turned round. */
	const char *anchor_id = transcript_id_at_seq(t, anchor_seq);
	if (n < 2 || !first || !anchor_id || !specs[0].id || specs[0].quiet ||
	    transcript_id_loaded(t, specs[0].id, &real))
		return false;
	for (size_t i = 0; i < n; i++)
		if (specs[i].id && !strcmp(specs[i].id, anchor_id))
			return i == n - 1; /* where it first comes */
	return false;
}

/* Places specs[order[i]] for i = 0, 1, … (the page in the order asked). */
static void place_walk(struct transcript *t, int64_t anchor_seq, bool before,
		       const struct item_spec *specs, const size_t *order, size_t n,
		       struct page_placed *out)
{
	/* A page asked inclusively holds the anchor: what precedes it there is on its other
	 * side (equal timestamps), so the walk starts after it. */
	const char *anchor_id = transcript_id_at_seq(t, anchor_seq);
	size_t start = 0;
	for (size_t i = 0; anchor_id && i < n; i++) {
		const struct item_spec *s = &specs[order[i]];
		if (s->id && strcmp(s->id, anchor_id) == 0) {
			start = i + 1;
			break;
		}
	}
	const char *bound = ts_at_seq(t, anchor_seq);
	/* Without the anchor, its equal-timestamp neighbours that lead the page are from its
	 * other side (a server that ignored page_id and walked from the log's end): no time
	 * tells them apart, so they are passed over, and so is any event that makes no item
	 * until one that does says the page has crossed (their times prove nothing). */
	bool anchor_seen = start > 0;
	int64_t step = before ? -1 : 1, next = anchor_seq + step;
	for (size_t i = start; i < n; i++) {
		const struct item_spec *s = &specs[order[i]];
		int64_t real;
		if (!anchor_seen && (s->quiet || (s->timestamp && bound &&
						  ts_cmp(s->timestamp, bound) == 0)) &&
		    !(s->id && transcript_id_loaded(t, s->id, &real) && real >= 0 &&
		      (before ? real < anchor_seq : real > anchor_seq))) {
			out->known++;
			continue;
		}
		anchor_seen = true;
		if (s->id && transcript_id_loaded(t, s->id, &real)) {
			/* Loaded already: its real seq is where the count goes on from, when it lies
			 * this side of the count; one beyond it is an equal timestamp's neighbour. */
			if (real >= 0 && (before ? real <= next : real >= next)) {
				next = real + step;
				if (ts_at_seq(t, real))
					bound = ts_at_seq(t, real);
			}
			out->known++;
			continue;
		}
		/* A noted seq keeps no id: one that makes no item, met at a noted seq, is it. */
		if (s->quiet && next >= 0 && idmap_get(&t->quiet_seqs, (uint64_t)next)) {
			next += step;
			out->known++;
			continue;
		}
		/* Seqs taken by other events are passed; each passed event bounds the times too. */
		int64_t at = next;
		const char *b = bound;
		while (transcript_seq_loaded(t, at)) {
			if (ts_at_seq(t, at))
				b = ts_at_seq(t, at);
			at += step;
		}
		/* An event that makes no item may be dated out of log order (upstream appends an
		 * LLM completion log when the step that made it lets go of the state, after
		 * events dated later): its time neither refuses it nor bounds the next. */
		if (at < 0 || (!s->quiet && !ts_fits(s->timestamp, b, before))) {
			out->refused++; /* older than what it would follow, or newer: not this place */
			continue;
		}
		next = at;
		bound = s->timestamp && !s->quiet ? s->timestamp : b;
		struct item_spec placed = *s;
		placed.seq = next;
		if (s->quiet) {
			transcript_note_seq(t, next);
			transcript_tree_note(t, s->id, next, s->parent_id, s->state_update);
		} else if (transcript_add_event(t, &placed) != APPLY_DUPLICATE) {
			out->added++;
		}
		out->placed++;
		next += step;
	}
}

void transcript_place_page(struct transcript *t, int64_t anchor_seq, bool before,
			   const struct item_spec *specs, size_t n, struct page_placed *out)
{
	*out = (struct page_placed){ 0 };
	if (!transcript_seq_loaded(t, anchor_seq) || !n)
		return;
	size_t *order = xcalloc(n, sizeof *order);
	out->reversed = page_reversed(t, anchor_seq, specs, n, before);
	for (size_t i = 0; i < n; i++)
		order[i] = out->reversed ? n - 1 - i : i;
	t->paging = true;
	place_walk(t, anchor_seq, before, specs, order, n, out);
	t->paging = false;
	transcript_branch_settle(t);
	free(order);
}

size_t transcript_add_page(struct transcript *t, int64_t anchor_seq, bool before,
			   const struct item_spec *specs, size_t n)
{
	struct page_placed out;
	transcript_place_page(t, anchor_seq, before, specs, n, &out);
	return out.added;
}
