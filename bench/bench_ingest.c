/* bench_ingest: delta frames per second through tether's per-delta path — frame_decode →
 * sanitizer_feed → mask_stream_feed (20 secrets) → transcript_stream_delta, with the
 * controller's bookkeeping (stream filter lookup, arrival time for the latency counter) —
 * against cJSON parsing the same frames and nothing else (the floor).
 *
 * The per-delta work mirrors on_delta in tui/controller.c, which is static and only reachable
 * through a live socket; the streaming benchmark in scripts/bench covers that real path.
 * The frames are cut into rounds; each round runs the floor, decode alone and the whole path
 * on the same slice, so that noise from the shared machine hits all three alike. Rates are
 * medians over the rounds, in CPU time; the ratio is the median of the per-round ratios.
 *
 *   bench_ingest [ANSWER_MD] [FRAMES] */
#include "gen.h"
#include "util.h"

#include "keyring.h"
#include "net.h"
#include "model.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 20, NSECRETS = 20, DELTAS_PER_FRAME = 7 };

/* What the controller keeps per open stream (struct stream_filter). */
struct filter {
	char item_id[64];
	int attempt;
	struct sanitizer san;
	struct mask_stream mask;
};

/* What the controller keeps for the latency counter. */
struct latency {
	int64_t *unpainted;
	size_t n, cap;
	uint64_t hist[10001];
};

static volatile size_t sink;

static double run_parse(const struct gen_frames *fr, size_t from, size_t to)
{
	double t0 = bench_cpu_s();
	for (size_t i = from; i < to; i++) {
		cJSON *root = cJSON_ParseWithLength(fr->json[i], fr->len[i]);
		sink += root != NULL;
		cJSON_Delete(root);
	}
	return bench_cpu_s() - t0;
}

static double run_decode(const struct gen_frames *fr, size_t from, size_t to)
{
	double t0 = bench_cpu_s();
	for (size_t i = from; i < to; i++) {
		struct frame f;
		struct codec_error err;
		if (frame_decode(fr->json[i], fr->len[i], &f, &err) == 0) {
			sink += f.content_len;
			frame_fini(&f);
		}
	}
	return bench_cpu_s() - t0;
}

/* A new stream: the previous one is retired by its durable message, as the server does. */
static void switch_stream(struct transcript *t, struct filter *flt, const struct mask_set *masks,
			  const struct frame *f, int64_t *seq)
{
	if (flt->item_id[0]) {
		struct item_spec spec = { .kind = ITEM_AGENT, .seq = (*seq)++, .id = flt->item_id,
					  .text = "(retired)", .text_len = 9 };
		transcript_add_event(t, &spec);
	}
	transcript_stream_start(t, f->item_id, f->attempt, false, 0);
	snprintf(flt->item_id, sizeof flt->item_id, "%s", f->item_id);
	flt->attempt = f->attempt;
	sanitizer_init(&flt->san);
	mask_stream_fini(&flt->mask);
	mask_stream_init(&flt->mask, masks);
}

static void painted(struct latency *lat, int64_t now_us)
{
	for (size_t i = 0; i < lat->n; i++) {
		int64_t b = (now_us - lat->unpainted[i]) / 100;
		lat->hist[b < 0 ? 0 : b > 10000 ? 10000 : b]++;
	}
	lat->n = 0;
}

/* The whole path's state lives across rounds, as a client's does across a stream. */
struct path {
	const struct mask_set *masks;
	struct transcript *t;
	struct filter flt;
	struct latency *lat;
	struct buf san, out;
	int64_t seq;
	size_t text_bytes;
	size_t deltas;                 /* frames that reached the transcript */
};

static void path_init(struct path *p, const struct mask_set *masks)
{
	memset(p, 0, sizeof *p);
	p->masks = masks;
	p->t = transcript_create();
	mask_stream_init(&p->flt.mask, masks);
	p->lat = xcalloc(1, sizeof *p->lat);
	buf_init(&p->san);
	buf_init(&p->out);
}

static void path_fini(struct path *p)
{
	buf_fini(&p->san);
	buf_fini(&p->out);
	mask_stream_fini(&p->flt.mask);
	free(p->lat->unpainted);
	free(p->lat);
	transcript_destroy(p->t);
}

static void path_delta(struct path *p, const struct frame *f)
{
	struct latency *lat = p->lat;
	int open = transcript_stream_attempt(p->t, f->item_id);
	if (!open || strcmp(p->flt.item_id, f->item_id) || p->flt.attempt != f->attempt)
		switch_stream(p->t, &p->flt, p->masks, f, &p->seq);
	buf_clear(&p->san);
	buf_clear(&p->out);
	sanitizer_feed(&p->flt.san, f->content, f->content_len, &p->san);
	mask_stream_feed(&p->flt.mask, p->san.data ? p->san.data : "", p->san.len, &p->out);
	transcript_stream_delta(p->t, f->item_id, f->attempt, f->order,
				f->delta_kind == DELTA_REASONING, p->out.data ? p->out.data : "",
				p->out.len);
	if (lat->n == lat->cap) {
		lat->cap = lat->cap ? 2 * lat->cap : 256;
		lat->unpainted = xrealloc(lat->unpainted, lat->cap * sizeof *lat->unpainted);
	}
	lat->unpainted[lat->n++] = clock_now_us();
	p->text_bytes += p->out.len;
	p->deltas++;
	/* At 200 deltas/s and 30 Hz, a frame is painted every ~7 deltas. */
	if (lat->n == DELTAS_PER_FRAME)
		painted(lat, clock_now_us());
}

static double run_path(struct path *p, const struct gen_frames *fr, size_t from, size_t to)
{
	double t0 = bench_cpu_s();
	for (size_t i = from; i < to; i++) {
		struct frame f;
		struct codec_error err;
		if (frame_decode(fr->json[i], fr->len[i], &f, &err) != 0)
			continue;
		if (f.type == FRAME_DELTA)
			path_delta(p, &f);
		frame_fini(&f);
	}
	return bench_cpu_s() - t0;
}

int main(int argc, char **argv)
{
	const char *answer = argc > 1 ? argv[1] : NULL;
	size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 200000;
	char **secrets = gen_secrets(NSECRETS, 42);
	struct mask_set *masks = mask_set_create();
	for (size_t i = 0; i < NSECRETS; i++) {
		struct buf why;
		buf_init(&why);
		if (mask_set_add(masks, secrets[i], strlen(secrets[i]), &why) != 0)
			fprintf(stderr, "bench_ingest: secret refused: %s\n", buf_cstr(&why));
		buf_fini(&why);
	}
	size_t len;
	char *text = gen_stream_text(answer, secrets, NSECRETS, &len);
	struct gen_frames fr;
	gen_delta_frames(text, len, n, &fr, NULL);
	bench_note("ingest: %zu delta frames (%.1f MB of JSON, 4 code points each), %zu secrets, "
		   "text %s", fr.n, (double)fr.bytes / 1e6, mask_set_count(masks),
		   answer ? answer : "(built in)");

	double parse[ROUNDS], decode[ROUNDS], full[ROUNDS], ratio[ROUNDS];
	struct path path;
	path_init(&path, masks);
	size_t slice = fr.n / ROUNDS;
	for (int r = 0; r < ROUNDS; r++) {
		size_t from = (size_t)r * slice, to = from + slice;
		double cp = run_parse(&fr, from, to);
		double cd = run_decode(&fr, from, to);
		double cf = run_path(&path, &fr, from, to);
		parse[r] = (double)slice / cp;
		decode[r] = (double)slice / cd;
		full[r] = (double)slice / cf;
		ratio[r] = cp / cf;
	}
	size_t text_bytes = path.text_bytes, deltas = path.deltas;
	path_fini(&path);
	/* A frame that failed to decode would be skipped, and flatter the figure. */
	if (deltas != slice * ROUNDS) {
		fprintf(stderr, "bench_ingest: only %zu of %zu frames reached the transcript\n", deltas,
			slice * ROUNDS);
		return 1;
	}
	double p = bench_median(parse, ROUNDS);
	double d = bench_median(decode, ROUNDS);
	double f = bench_median(full, ROUNDS);
	bench_note("%d rounds of %zu frames, CPU time; %zu bytes of masked text reached the "
		   "transcript", ROUNDS, slice, text_bytes);
	bench_note("per frame: parse %.0f ns, decode %.0f ns, whole path %.0f ns (medians)", 1e9 / p,
		   1e9 / d, 1e9 / f);
	bench_figure("ingest_parse_fps", p, "frames/s");
	bench_figure("ingest_decode_fps", d, "frames/s");
	bench_figure("ingest_path_fps", f, "frames/s");
	bench_figure("ingest_ratio", bench_median(ratio, ROUNDS), "x");

	gen_frames_free(&fr);
	free(text);
	mask_set_destroy(masks);
	gen_strings_free(secrets, NSECRETS);
	return 0;
}
