/* Streaming masking: every occurrence of a secret is covered, overlapping occurrences
 * form one cluster, and each cluster becomes one MASK_REPLACEMENT. Covered bytes are
 * a property of the whole text, so the output does not depend on how it was chunked.
 *
 * What a feed keeps: the bytes from "cut" on (s->held) and, in s->state, how far a
 * cluster whose marker is already out reaches into them. The next feed scans the held
 * bytes again from the root: every match that lies inside them is found again, and the
 * automaton reaches a state that behaves like the real one for all later bytes (both
 * share their longest suffix that a secret could still extend). */
#include "mask_int.h"

#include <stdlib.h>
#include <string.h>

struct span {
	size_t start;
	size_t end;
	bool marked;             /* its MASK_REPLACEMENT is already out */
};

/* The text of one scan: the held bytes a[0..na) followed by the input b[0..nb). */
struct scan {
	const struct mask_automaton *ac;
	const char *a;
	size_t na;
	const char *b;
	size_t nb;
	size_t done;             /* everything before this position is out */
	struct span *spans;      /* clusters not yet passed, ordered and disjoint */
	size_t nspans;
	size_t cap;
	struct span local[8];
	struct buf *out;
};

static void scan_init(struct scan *sc, const struct mask_set *m, const char *a, size_t na,
		      const char *b, size_t nb, struct buf *out)
{
	*sc = (struct scan){ .ac = &m->ac, .a = a, .na = na, .b = b, .nb = nb, .out = out };
	sc->spans = sc->local;
	sc->cap = sizeof sc->local / sizeof sc->local[0];
}

static void scan_fini(struct scan *sc)
{
	if (sc->spans != sc->local)
		free(sc->spans);
}

static unsigned char scan_byte(const struct scan *sc, size_t pos)
{
	return (unsigned char)(pos < sc->na ? sc->a[pos] : sc->b[pos - sc->na]);
}

static void scan_copy(struct scan *sc, size_t from, size_t to)
{
	if (from < sc->na) {
		size_t end = to < sc->na ? to : sc->na;
		buf_append(sc->out, sc->a + from, end - from);
		from = end;
	}
	if (from < to)
		buf_append(sc->out, sc->b + (from - sc->na), to - from);
}

static void scan_push(struct scan *sc, struct span sp)
{
	if (sc->nspans == sc->cap) {
		size_t cap = sc->cap * 2;
		struct span *grown = xmalloc(cap * sizeof *grown);
		memcpy(grown, sc->spans, sc->nspans * sizeof *grown);
		if (sc->spans != sc->local)
			free(sc->spans);
		sc->spans = grown;
		sc->cap = cap;
	}
	sc->spans[sc->nspans++] = sp;
}

/* Covers [start, end). Matches arrive in order of their end, so only trailing clusters
 * can overlap (the carried one may reach further than the match). */
static void scan_cover(struct scan *sc, size_t start, size_t end)
{
	struct span sp = { start, end, false };
	while (sc->nspans && sc->spans[sc->nspans - 1].end > sp.start) {
		struct span *last = &sc->spans[--sc->nspans];
		if (last->start < sp.start)
			sp.start = last->start;
		if (last->end > sp.end)
			sp.end = last->end;
		sp.marked |= last->marked;
	}
	scan_push(sc, sp);
}

/* The last position at or before lo (and not before done) that does not split a
 * character; at most 3 bytes back. */
static size_t scan_cut(const struct scan *sc, size_t lo)
{
	if (lo <= sc->done)
		return sc->done;
	size_t i = lo, cont = 0;
	while (i > sc->done && cont < 3 && (scan_byte(sc, i - 1) & 0xC0) == 0x80) {
		i--;
		cont++;
	}
	if (i > sc->done && (size_t)utf8_lead_len(scan_byte(sc, i - 1)) > cont + 1)
		return i - 1;
	return lo;
}

/* Writes out everything before cut: plain bytes as they are, one marker per cluster. */
static void scan_emit(struct scan *sc, size_t cut)
{
	size_t j = 0;
	for (; j < sc->nspans && sc->spans[j].start < cut; j++) {
		struct span *sp = &sc->spans[j];
		if (sp->start > sc->done)
			scan_copy(sc, sc->done, sp->start);
		if (!sp->marked) {
			buf_append(sc->out, MASK_REPLACEMENT, sizeof MASK_REPLACEMENT - 1);
			sp->marked = true;
		}
		if (sp->end > cut) {
			sc->done = cut;
			break;
		}
		sc->done = sp->end;
	}
	if (j) {
		memmove(sc->spans, sc->spans + j, (sc->nspans - j) * sizeof *sc->spans);
		sc->nspans -= j;
	}
	if (sc->done < cut) {
		scan_copy(sc, sc->done, cut);
		sc->done = cut;
	}
}

/* A state where a secret ends or that has no dense row: pos bytes are consumed. */
static void scan_special(struct scan *sc, uint32_t code, size_t pos)
{
	uint32_t st = mask_code_state(sc->ac, code);
	uint32_t len = sc->ac->match[st];
	if (len) {
		scan_cover(sc, pos - len, pos);
		scan_emit(sc, scan_cut(sc, pos - sc->ac->hold[st]));
	}
}

static uint32_t scan_segment(struct scan *sc, uint32_t code, const char *text, size_t n, size_t base)
{
	const struct mask_automaton *ac = sc->ac;
	const uint32_t *next = ac->next;
	const uint8_t *cls = ac->cls;
	const uint32_t plain = ac->plain_limit;
	const unsigned char *p = (const unsigned char *)text;
	size_t i = 0;
	while (i < n) {
		if (code >= plain) {
			code = mask_automaton_step(ac, code, p[i++]);
		} else {
			do
				code = next[code + cls[p[i++]]];
			while (code < plain && i < n);
		}
		if (code >= plain)
			scan_special(sc, code, base + i);
	}
	return code;
}

/* Scans all of the text; returns where the held part begins (the end when final). */
static size_t scan_run(struct scan *sc, uint32_t carried, bool final)
{
	if (carried)
		scan_push(sc, (struct span){ 0, carried, true });
	uint32_t code = scan_segment(sc, 0, sc->a, sc->na, 0);
	code = scan_segment(sc, code, sc->b, sc->nb, sc->na);
	size_t total = sc->na + sc->nb;
	size_t cut = final ? total : scan_cut(sc, total - sc->ac->hold[mask_code_state(sc->ac, code)]);
	scan_emit(sc, cut);
	return cut;
}

void mask_stream_init(struct mask_stream *s, const struct mask_set *set)
{
	s->set = set;
	s->state = 0;
	buf_init(&s->held);
	mask_set_prepare(set);
}

void mask_stream_fini(struct mask_stream *s)
{
	if (s->held.data)
		mem_wipe(s->held.data, s->held.cap);
	buf_fini(&s->held);
	s->state = 0;
}

/* Keeps text [cut, end) of the scan as the new held bytes (wiping what is dropped). */
static void stream_keep(struct mask_stream *s, const struct scan *sc, size_t cut)
{
	size_t old = s->held.len;
	if (cut < sc->na) {
		memmove(s->held.data, s->held.data + cut, sc->na - cut);
		s->held.len = sc->na - cut;
		cut = sc->na;
	} else {
		s->held.len = 0;
	}
	if (old > s->held.len)
		mem_wipe(s->held.data + s->held.len, old - s->held.len);
	size_t more = sc->na + sc->nb - cut;
	if (more && s->held.len + more + 1 > s->held.cap) {
		/* Grow by hand so that the old copy is wiped, not just freed. */
		size_t cap = (s->held.len + more + 1) * 2;
		char *grown = xmalloc(cap);
		if (s->held.len)
			memcpy(grown, s->held.data, s->held.len);
		if (s->held.data)
			mem_wipe(s->held.data, s->held.cap);
		free(s->held.data);
		s->held.data = grown;
		s->held.cap = cap;
	}
	if (more)
		buf_append(&s->held, sc->b + (cut - sc->na), more);
	/* A cluster still reaching past cut: how far, for the next scan. */
	s->state = 0;
	if (sc->nspans && sc->spans[0].marked && sc->spans[0].end > sc->done)
		s->state = (uint32_t)(sc->spans[0].end - sc->done);
}

/* With an empty set this is a plain copy: nothing is held, not even a partial character
 * (the sanitizer upstream already ends every piece on a character boundary). */
void mask_stream_feed(struct mask_stream *s, const char *in, size_t n, struct buf *out)
{
	const struct mask_set *m = s->set;
	if (!m || !m->count) {
		if (s->held.len)
			mask_stream_flush(s, out);
		if (n)
			buf_append(out, in, n);
		return;
	}
	mask_set_prepare(m);
	struct scan sc;
	scan_init(&sc, m, s->held.data, s->held.len, in, n, out);
	size_t cut = scan_run(&sc, s->state, false);
	stream_keep(s, &sc, cut);
	scan_fini(&sc);
}

void mask_stream_flush(struct mask_stream *s, struct buf *out)
{
	const struct mask_set *m = s->set;
	if (s->held.len) {
		if (m && m->count) {
			mask_set_prepare(m);
			struct scan sc;
			scan_init(&sc, m, s->held.data, s->held.len, NULL, 0, out);
			scan_run(&sc, s->state, true);
			scan_fini(&sc);
		} else {
			buf_append(out, s->held.data, s->held.len);
		}
		mem_wipe(s->held.data, s->held.len);
		s->held.len = 0;
	}
	s->state = 0;
}

void mask_text(const struct mask_set *set, const char *in, size_t n, struct buf *out)
{
	if (!set || !set->count) {
		if (n)
			buf_append(out, in, n);
		return;
	}
	mask_set_prepare(set);
	struct scan sc;
	scan_init(&sc, set, NULL, 0, in, n, out);
	scan_run(&sc, 0, true);
	scan_fini(&sc);
}
