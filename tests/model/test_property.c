/* Property: whatever the interleaving of two or three concurrent streams — retries (announced
 * or not), aborts (even for attempts never announced), order gaps, late zombie frames,
 * reconnect discards — with durables that retire them, unrelated user messages, duplicate
 * and transient-then-durable copies, and progress overtaking the durables (replay, rule
 * 14): once every stream's durable or abort has arrived, no slot is open and the durable
 * items are exactly the durable log (each id once, same text).
 *
 * Ordering: durables that did not retire a slot are in seq order. A retired slot is the
 * exception: it keeps the place its slot had (right after its anchor, before durables with
 * a higher seq that arrived while it streamed — #15433), so its own seq may be out of
 * order. For those the test checks the anchor rule instead. */
#include "helpers.h"

#include <stdlib.h>

#define RUNS 3000
#define MAX_STREAMS 3
#define MAX_LOG 128
#define MAX_PENDING 256

struct logged {
	char id[24];
	char text[40];
	enum item_kind kind;
};

struct stream {
	char id[24];
	int attempt;
	int64_t order;
	int stragglers;
	bool live;                      /* the server still streams it */
	bool ended;                     /* its durable or abort was sent */
	bool retiring_durable;          /* ended by a durable (else by an abort) */
	int durable_seq;
	bool opened_with_anchor;        /* the client opened it from item_started with anchor */
	int64_t anchor;
	uint64_t open_rank;
	bool retired_in_place;          /* the client saw APPLY_RETIRED */
	bool end_delivered;             /* the client has its durable or abort */
};

struct sim {
	struct rng rng;
	struct transcript *t;
	struct logged log[MAX_LOG];
	int nlog;
	int pending[MAX_PENDING];       /* seqs of durables not yet delivered, in order */
	int npending;
	struct stream streams[MAX_STREAMS];
	int nstreams;
	uint64_t ranks;
};

static struct stream *stream_by_id(struct sim *s, const char *id)
{
	for (int i = 0; i < s->nstreams; i++)
		if (strcmp(s->streams[i].id, id) == 0)
			return &s->streams[i];
	return NULL;
}

static void deliver_durable(struct sim *s, int seq)
{
	struct logged *e = &s->log[seq];
	enum apply_result r = add(s->t, e->kind, seq, e->id, e->text);
	struct stream *st = stream_by_id(s, e->id);
	if (st)
		st->end_delivered = true;
	if (r == APPLY_RETIRED) {
		assert_non_null(st);
		st->retired_in_place = true;
	}
	assert_true(r == APPLY_ADDED || r == APPLY_RETIRED || r == APPLY_DUPLICATE);
}

static void flush(struct sim *s, int n)
{
	int k = n < s->npending ? n : s->npending;
	for (int i = 0; i < k; i++)
		deliver_durable(s, s->pending[i]);
	memmove(s->pending, s->pending + k, (size_t)(s->npending - k) * sizeof *s->pending);
	s->npending -= k;
}

static void queue_durable(struct sim *s, int seq)
{
	if (s->npending == MAX_PENDING)
		flush(s, 1);
	s->pending[s->npending++] = seq;
}

static int append_log(struct sim *s, enum item_kind kind, const char *id, const char *text)
{
	struct logged *e = &s->log[s->nlog];
	e->kind = kind;
	snprintf(e->id, sizeof e->id, "%s", id);
	snprintf(e->text, sizeof e->text, "%s", text);
	return s->nlog++;
}

static void note_opened(struct sim *s, struct stream *st, bool anchored, int64_t anchor)
{
	st->opened_with_anchor = anchored;
	st->anchor = anchor;
	st->open_rank = ++s->ranks;
}

static void send_started(struct sim *s, struct stream *st)
{
	bool anchored = s->nlog > 0;
	int64_t anchor = s->nlog - 1;
	enum apply_result r = transcript_stream_start(s->t, st->id, st->attempt, anchored, anchor);
	if (r == APPLY_OPENED)
		note_opened(s, st, anchored, anchor);
}

static void send_delta(struct sim *s, struct stream *st)
{
	if (rng_below(&s->rng, 8) == 0)
		st->order++; /* a lost frame: an order gap */
	char text[48];
	snprintf(text, sizeof text, "%s.%d.%lld%s", st->id, st->attempt, (long long)st->order,
		 rng_below(&s->rng, 4) ? " " : "\n");
	bool reasoning = rng_below(&s->rng, 5) == 0;
	enum apply_result r = transcript_stream_delta(s->t, st->id, st->attempt, st->order++,
						      reasoning, text, strlen(text));
	if (r == APPLY_OPENED)
		note_opened(s, st, false, 0);
}

static void end_stream(struct sim *s, struct stream *st)
{
	st->live = false;
	st->ended = true;
	if (rng_below(&s->rng, 3)) {
		char text[40];
		snprintf(text, sizeof text, "final %s", st->id);
		st->retiring_durable = true;
		enum item_kind kind = rng_below(&s->rng, 4) ? ITEM_AGENT : ITEM_TOOL;
		st->durable_seq = append_log(s, kind, st->id, text);
		queue_durable(s, st->durable_seq);
	} else {
		/* the abort may name an attempt never announced */
		transcript_stream_abort(s->t, st->id, st->attempt + (int)rng_below(&s->rng, 2),
					"cancelled");
		st->end_delivered = true;
	}
}

static void step(struct sim *s)
{
	struct stream *st = &s->streams[rng_below(&s->rng, (uint32_t)s->nstreams)];
	switch (rng_below(&s->rng, 13)) {
	case 0: /* start a stream (item_started may be missing) */
		if (st->live || st->ended)
			break;
		st->live = true;
		st->attempt = 1;
		st->order = 0;
		if (rng_below(&s->rng, 5))
			send_started(s, st);
		break;
	case 1: case 2: case 3:
		if (st->live)
			send_delta(s, st);
		else if (st->ended && rng_below(&s->rng, 3) == 0)
			send_delta(s, st); /* a zombie */
		break;
	case 4: /* a retry: announced, or only visible in the deltas' attempt */
		if (!st->live)
			break;
		st->attempt++;
		st->order = 0;
		if (rng_below(&s->rng, 2))
			send_started(s, st);
		break;
	case 5:
		if (st->live && s->nlog < MAX_LOG - 8)
			end_stream(s, st);
		break;
	case 6: { /* the user says something mid-stream */
		if (s->nlog >= MAX_LOG - 8)
			break;
		char id[24];
		snprintf(id, sizeof id, "u%d", s->nlog);
		int seq = append_log(s, ITEM_USER, id, "user words");
		if (rng_below(&s->rng, 4) == 0)
			add(s->t, ITEM_USER, -1, id, "user words"); /* transient first */
		queue_durable(s, seq);
		break;
	}
	case 7: /* a duplicate of something already sent (REST history, replay) */
		if (s->nlog)
			queue_durable(s, (int)rng_below(&s->rng, (uint32_t)s->nlog));
		break;
	case 8:
		if (rng_below(&s->rng, 4) == 0)
			transcript_discard_streams(s->t);
		break;
	case 9:
		transcript_reveal_tick(s->t);
		break;
	case 10: /* a straggler from an earlier attempt */
		if (st->live && st->attempt > 1) {
			/* when the retry was not announced yet, the client still takes it */
			int64_t order = 1000 + st->stragglers++;
			char text[48];
			snprintf(text, sizeof text, "%s.%d.%lld ", st->id, st->attempt - 1,
				 (long long)order);
			transcript_stream_delta(s->t, st->id, st->attempt - 1, order, false, text,
						strlen(text));
		}
		break;
	default: /* durables catch up */
		flush(s, (int)rng_below(&s->rng, 4));
		break;
	}
}

/* No zombie: an id whose end was delivered never has an open slot. */
static void check_no_zombie(struct sim *s)
{
	for (int i = 0; i < s->nstreams; i++)
		if (s->streams[i].end_delivered)
			assert_int_equal(transcript_stream_attempt(s->t, s->streams[i].id), 0);
}

/* A slot holds pieces of its own id and current attempt only, in increasing order: streams
 * never interleave and a superseded attempt leaves nothing behind. */
static void check_pieces(const char *id, int attempt, const char *text, size_t len)
{
	char piece[64];
	long long last = -1;
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && text[j] != ' ' && text[j] != '\n')
			j++;
		assert_true(j - i < sizeof piece);
		memcpy(piece, text + i, j - i);
		piece[j - i] = '\0';
		char *dot = strchr(piece, '.');
		assert_non_null(dot);
		*dot = '\0';
		assert_string_equal(piece, id);
		int a;
		long long o;
		assert_int_equal(sscanf(dot + 1, "%d.%lld", &a, &o), 2);
		assert_int_equal(a, attempt);
		assert_true(o > last);
		last = o;
		i = j + 1;
	}
}

static void check_slots(struct sim *s)
{
	for (size_t i = 0; i < transcript_count(s->t); i++) {
		struct item_info info = info_of(s->t, i);
		if (!info.streaming)
			continue;
		check_pieces(info.id, info.attempt, info.text, info.text_len);
		check_pieces(info.id, info.attempt, info.reasoning, info.reasoning_len);
	}
}

static void check_final(struct sim *s)
{
	struct transcript *t = s->t;
	assert_int_equal(transcript_open_streams(t), 0);
	/* every item is durable now: slots retired or dropped, transients became durable */
	assert_int_equal(transcript_count(t), (size_t)s->nlog);
	int64_t last_plain = -1;
	for (size_t i = 0; i < transcript_count(t); i++) {
		struct item_info info = info_of(t, i);
		assert_true(info.seq >= 0 && info.seq < s->nlog);
		struct logged *e = &s->log[info.seq];
		assert_string_equal(info.id, e->id);
		assert_int_equal(info.text_len, strlen(e->text));
		assert_memory_equal(info.text, e->text, info.text_len);
		assert_false(info.streaming);
		struct stream *st = stream_by_id(s, info.id);
		if (st && st->retired_in_place)
			continue;
		assert_true(info.seq > last_plain);
		last_plain = info.seq;
	}
	for (int k = 0; k < s->nlog; k++)
		assert_int_equal(count_id(t, s->log[k].id), 1);
	/* a retired slot keeps its anchored place */
	for (int i = 0; i < s->nstreams; i++) {
		struct stream *st = &s->streams[i];
		if (!st->retired_in_place || !st->opened_with_anchor)
			continue;
		long at = find_id(t, st->id);
		for (size_t j = 0; j < transcript_count(t); j++) {
			struct item_info info = info_of(t, j);
			struct stream *other = stream_by_id(s, info.id);
			if (other && other->retired_in_place) {
				if (other->opened_with_anchor && other != st &&
				    (other->anchor < st->anchor ||
				     (other->anchor == st->anchor && other->open_rank < st->open_rank)))
					assert_true((long)j < at);
				continue;
			}
			if (info.seq <= st->anchor)
				assert_true((long)j < at);
			else
				assert_true((long)j > at);
		}
	}
	/* late frames for every stream are ignored now */
	for (int i = 0; i < s->nstreams; i++) {
		struct stream *st = &s->streams[i];
		assert_int_equal(delta(t, st->id, st->attempt, st->order, "late"),
				 APPLY_IGNORED_RETIRED);
		assert_int_equal(transcript_stream_start(t, st->id, st->attempt + 1, false, 0),
				 APPLY_IGNORED_RETIRED);
	}
	assert_int_equal(transcript_open_streams(t), 0);
}

static void run_one(uint64_t seed)
{
	struct sim *s = xcalloc(1, sizeof *s);
	s->rng.s = seed * 0x9E3779B97F4A7C15ull + 1;
	s->t = transcript_create();
	s->nstreams = 2 + (int)rng_below(&s->rng, 2);
	for (int i = 0; i < s->nstreams; i++)
		snprintf(s->streams[i].id, sizeof s->streams[i].id, "item-%d", i);
	if (rng_below(&s->rng, 2))
		queue_durable(s, append_log(s, ITEM_USER, "u-first", "hello"));
	int steps = 20 + (int)rng_below(&s->rng, 80);
	for (int i = 0; i < steps; i++) {
		step(s);
		check_no_zombie(s);
		check_slots(s);
	}
	/* the rest of each stream: started if never, then its durable or abort */
	for (int i = 0; i < s->nstreams; i++) {
		struct stream *st = &s->streams[i];
		if (!st->ended && !st->live) {
			st->live = true;
			st->attempt = 1;
			send_started(s, st);
			send_delta(s, st);
		}
		if (st->live)
			end_stream(s, st);
		if (rng_below(&s->rng, 2))
			send_delta(s, st); /* trailing zombie before the durable lands */
	}
	flush(s, MAX_PENDING);
	check_final(s);
	transcript_destroy(s->t);
	free(s);
}

static void interleavings_converge_to_the_durable_log(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= RUNS; seed++)
		run_one(seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interleavings_converge_to_the_durable_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
