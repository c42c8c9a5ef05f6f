/* Paging against servers that bend the truth (issue 23): a log whose timestamps come in runs
 * of equal ones, a tail loaded from the socket (real seqs), and the rest fetched page by page
 * next to a loaded durable from a simulated server that answers as upstream does (page_id
 * starts the walk at the anchor; an older page is bounded by its time, inclusively), or with the page turned
 * round, or with events from the anchor's other side and repeats mixed in, or (without
 * page_id) walking from the log's end; sometimes the tail is only the live events after a
 * count that lied. Seeded and repeated: at the end every event of the log is loaded once,
 * at its log position, in log order, nothing missing; and nothing an honest page holds is
 * refused. A page with foreign events of the wrong time mixed in has
 * them refused, never placed. */
#include <stdlib.h>

#include "helpers.h"

#define LOG_MAX 700
#define RUNS 1000

enum server_mode { HONEST, REVERSED, OVERLAP, NO_PAGE_ID, FOREIGN, MODES };
static const char *const mode_names[] = { "honest", "reversed", "overlapping", "no-page_id",
					  "foreign" };

struct ev {
	char id[16];
	char ts[32];
	bool quiet;             /* makes no item (a state update, a log event) */
};

struct sim {
	uint64_t rng;
	int n;
	struct ev log[LOG_MAX];
	struct transcript *t;
	size_t refused, foreign;
	unsigned run;
};

static uint32_t rnd(struct sim *s, uint32_t n)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return (uint32_t)(s->rng % n);
}

/* Timestamps in runs of equal ones (1 to 40 long), each run a second after the last. */
static void make_log(struct sim *s)
{
	s->n = 200 + (int)rnd(s, LOG_MAX - 200);
	int sec = 0, left = 0;
	for (int i = 0; i < s->n; i++) {
		if (!left--) {
			left = (int)rnd(s, rnd(s, 4) ? 40 : 2);
			sec += 1 + (int)rnd(s, 3);
		}
		struct ev *e = &s->log[i];
		snprintf(e->id, sizeof e->id, "e%d", i);
		e->quiet = i > 0 && rnd(s, 5) == 0;
		/* Some that make no item are dated earlier than events before them (upstream's
		 * LLM completion log, appended once the step lets go of the state). */
		int at = e->quiet && rnd(s, 2) ? sec - 1 - (int)rnd(s, 4) : sec;
		if (at < 0)
			at = 0;
		snprintf(e->ts, sizeof e->ts, "2026-06-16T%02d:%02d:%02d.004545", at / 3600 % 24,
			 at / 60 % 60, at % 60);
	}
}

static struct item_spec spec_at(const struct sim *s, int i, int64_t seq)
{
	const struct ev *e = &s->log[i];
	struct item_spec sp = spec_of(i % 3 ? ITEM_AGENT : ITEM_USER, seq, e->id, e->id);
	sp.timestamp = e->ts;
	sp.quiet = e->quiet;
	return sp;
}

static void socket_event(struct sim *s, int i)
{
	if (s->log[i].quiet) {
		transcript_note_seq(s->t, i);
		return;
	}
	struct item_spec sp = spec_at(s, i, i);
	transcript_add_event(s->t, &sp);
}

/* The log index of the event with id, or -1. */
static int index_of(const char *id)
{
	return id && id[0] == 'e' ? atoi(id + 1) : -1;
}

/* What the server answers: indices into the log, in the page's order. */
static size_t serve(struct sim *s, enum server_mode mode, int anchor, bool before, int limit,
		    int *out)
{
	size_t n = 0;
	/* The client bounds an older page by the anchor's time (inclusively), a newer one not
	 * (page_id alone: an event dated out of order must not be left out). A server without
	 * page_id cannot serve a newer page at all: honest there. */
	const char *bound = before ? s->log[anchor].ts : NULL;
	bool no_page_id = mode == NO_PAGE_ID && before;
	int from = no_page_id ? (before ? s->n - 1 : 0) : anchor;
	for (int i = from; i >= 0 && i < s->n && (int)n < limit; i += before ? -1 : 1) {
		if (bound && strcmp(s->log[i].ts, bound) > 0)
			continue;
		out[n++] = i;
	}
	if (mode == OVERLAP) {
		/* From the anchor's other side first (equal times or not), and repeats. */
		int k = 1 + (int)rnd(s, 4);
		memmove(out + k, out, n * sizeof *out);
		for (int j = 0; j < k; j++) {
			int i = anchor + (before ? k - j : j - k);
			out[j] = i < 0 ? 0 : i >= s->n ? s->n - 1 : i;
		}
		n += (size_t)k;
		/* (A repeated event that makes no item is not told from a new one: it keeps no
		 * id in the transcript, and its time refuses it; items are repeated here.) */
		for (int j = 0; j < 3 && n > 1; j++) {
			int again = out[rnd(s, (uint32_t)n)];
			if (!s->log[again].quiet)
				out[n++] = again;
		}
	} else if (mode == REVERSED) {
		for (size_t j = 0; j < n / 2; j++) {
			int x = out[j];
			out[j] = out[n - 1 - j];
			out[n - 1 - j] = x;
		}
	}
	return n;
}

/* A page next to the durable item idx: older ones when before, else newer. True when it
 * placed anything. */
static bool fetch(struct sim *s, size_t idx, bool before, int64_t missing)
{
	struct item_info a;
	transcript_item(s->t, idx, &a);
	int anchor = index_of(a.id), pageix[3 * LOG_MAX];
	if (anchor != a.seq)
		fail_msg("run %u: the anchor %s sits at seq %lld", s->run, a.id, (long long)a.seq);
	enum server_mode mode = (enum server_mode)rnd(s, MODES);
	int limit = (int)(missing + 1 < 100 ? missing + 1 : 100);
	size_t n = serve(s, mode, anchor, before, limit, pageix);
	struct item_spec specs[3 * LOG_MAX + 8];
	char foreign_ids[8][16];
	size_t foreign = 0;
	if (mode == FOREIGN && n > 2) {
		/* Events the log does not hold, dated on the wrong side of the anchor, mixed in:
		 * refused, never placed. */
		size_t at = 1 + rnd(s, (uint32_t)n - 1);
		memmove(pageix + at + 1, pageix + at, (n - at) * sizeof *pageix);
		pageix[at] = -1;
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		if (pageix[i] >= 0) {
			specs[i] = spec_at(s, pageix[i], -1);
			continue;
		}
		snprintf(foreign_ids[foreign], sizeof foreign_ids[foreign], "x%zu", s->foreign);
		specs[i] = spec_of(ITEM_AGENT, -1, foreign_ids[foreign++], "foreign");
		specs[i].timestamp = before ? "2099-01-01T00:00:00" : "2000-01-01T00:00:00";
		s->foreign++;
	}
	struct page_placed out;
	transcript_place_page(s->t, anchor, before, specs, n, &out);
	if (out.refused != foreign || (out.reversed && mode != REVERSED))
		fail_msg("run %u: a %s page of %zu next to %d (%s): %zu refused, %zu foreign%s",
			 s->run, mode_names[mode], n, anchor, before ? "older" : "newer",
			 out.refused, foreign, out.reversed ? ", taken as turned round" : "");
	s->refused += out.refused;
	return out.placed > 0;
}

/* Fetches around every gap until none is left (or a whole sweep places nothing). */
static void fill(struct sim *s)
{
	for (int sweep = 0; sweep < 4 * LOG_MAX; sweep++) {
		bool any = false, progress = false;
		for (size_t i = 0; i < transcript_count(s->t); i++) {
			int64_t m = transcript_missing_before(s->t, i);
			if (m <= 0)
				continue;
			any = true;
			/* Older from the item below the gap, or newer from the durable above it. */
			long above = -1;
			for (size_t k = i; k-- > 0;) {
				struct item_info in;
				transcript_item(s->t, k, &in);
				if (in.seq >= 0) {
					above = (long)k;
					break;
				}
			}
			struct history_gap g;
			if (!transcript_gap_near(s->t, i, i, 0, &g) || g.at_index != i)
				fail_msg("run %u: no gap found above item %zu", s->run, i);
			int64_t span = g.span;
			if (above >= 0 && rnd(s, 2))
				progress |= fetch(s, (size_t)above, false, span);
			else
				progress |= fetch(s, i, true, span);
			break;
		}
		if (!any)
			return;
		(void)progress;
	}
	fail_msg("run %u: gaps left after every sweep", s->run);
}

/* Fails with the run's seed in the message. */
#define CHECK(cond) do { if (!(cond)) fail_msg("run %u: %s", s->run, #cond); } while (0)

static void check_whole_log(const struct sim *s)
{
	size_t items = 0;
	int64_t last = -1;
	for (size_t i = 0; i < transcript_count(s->t); i++) {
		struct item_info in;
		transcript_item(s->t, i, &in);
		CHECK(transcript_missing_before(s->t, i) == 0);
		CHECK(in.seq > last);                   /* log order, none doubled */
		last = in.seq;
		CHECK(index_of(in.id) == in.seq);    /* at its log position */
		CHECK(!s->log[in.seq].quiet);
		items++;
	}
	size_t want = 0;
	for (int i = 0; i < s->n; i++)
		want += !s->log[i].quiet;
	CHECK(items == want);                           /* none lost */
}

static void paging_property(void **state)
{
	(void)state;
	size_t refused = 0, foreign = 0;
	for (unsigned run = 0; run < RUNS; run++) {
		struct sim *s = calloc(1, sizeof *s);
		s->run = run;
		s->rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)run * 0x100000001b3ull);
		make_log(s);
		s->t = transcript_create();
		/* The socket: a tail window (all of it sometimes), real seqs. A count that lied
		 * (larger than the log) resumed past the end, and the session moved the cursor back
		 * to the real end: only the live events after it come, 1 to 5, and every bit of
		 * history is paged in from them. */
		int window = (int)rnd(s, 200), start;
		switch (rnd(s, 5)) {
		case 0:
			start = 0;
			break;
		case 1:
			start = s->n - 1 - (int)rnd(s, 5);
			break;
		default:
			start = s->n - 1 - window;
		}
		if (start < 0)
			start = 0;
		/* (Paging needs an item to anchor to: until one comes, nothing is paged.) */
		while (start > 0 && s->log[start].quiet)
			start--;
		for (int i = start; i < s->n; i++)
			socket_event(s, i);
		fill(s);
		check_whole_log(s);
		refused += s->refused;
		foreign += s->foreign;
		transcript_destroy(s->t);
		free(s);
	}
	/* Foreign events came and were refused, each of them. */
	assert_true(foreign > 0);
	assert_int_equal(refused, foreign);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(paging_property),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
