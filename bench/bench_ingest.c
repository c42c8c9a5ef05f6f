/* bench_ingest: delta frames per second through tether's per-delta path — frame_decode →
 * transcript_stream_admit (the one stream lookup) → clean_stream_feed (sanitize, then mask
 * with 20 secrets) → transcript_slot_append, with the arrival time for the latency counter —
 * against cJSON parsing the same frames and nothing else (the floor).
 *
 * The per-delta work mirrors on_delta in face/controller.c (its sinks reduced to the TUI's
 * latency counter); the streaming benchmark in scripts/bench covers the real path.
 * The frames are cut into rounds; each round runs the floor, decode alone and the whole path
 * on the same slice, so that noise from the shared machine hits all three alike. Rates are
 * medians over the rounds, in CPU time; the ratio is the median of the per-round ratios.
 *
 *   bench_ingest [ANSWER_MD] [FRAMES] */
#include "gen.h"
#include "util.h"

#include "clean.h"
#include "keyring.h"
#include "net.h"
#include "model.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 20, NSECRETS = 20, DELTAS_PER_FRAME = 7 };

/* What the controller keeps per open stream (struct ctl_stream). */
struct filter {
	char item_id[64];
	struct clean_stream clean;
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

/* A new stream (or attempt): the previous one is retired by its durable message, as the
 * server does, and the clean starts over. */
static void switch_stream(struct transcript *t, struct filter *flt, const struct frame *f,
			  int64_t *seq)
{
	if (flt->item_id[0] && strcmp(flt->item_id, f->item_id)) {
		struct item_spec spec = { .kind = ITEM_AGENT, .seq = (*seq)++, .id = flt->item_id,
					  .text = "(retired)", .text_len = 9 };
		transcript_add_event(t, &spec);
	}
	snprintf(flt->item_id, sizeof flt->item_id, "%s", f->item_id);
	clean_stream_reset(&flt->clean);
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
	clean_stream_init(&p->flt.clean, masks);
	p->lat = xcalloc(1, sizeof *p->lat);
	buf_init(&p->san);
	buf_init(&p->out);
}

static void path_fini(struct path *p)
{
	buf_fini(&p->san);
	buf_fini(&p->out);
	clean_stream_fini(&p->flt.clean);
	free(p->lat->unpainted);
	free(p->lat);
	transcript_destroy(p->t);
}

static void path_delta(struct path *p, const struct frame *f)
{
	struct latency *lat = p->lat;
	struct item *slot;
	enum apply_result r = transcript_stream_admit(p->t, f->item_id, f->attempt, &slot);
	if (!slot)
		return;
	if (r != APPLY_APPENDED)
		switch_stream(p->t, &p->flt, f, &p->seq);
	buf_clear(&p->out);
	clean_stream_feed(&p->flt.clean, f->content, f->content_len, &p->san, &p->out);
	int64_t now = clock_now_us();
	transcript_slot_append(p->t, slot, f->order, f->delta_kind == DELTA_REASONING,
			       p->out.data, p->out.len, now);
	if (lat->n == lat->cap) {
		lat->cap = lat->cap ? 2 * lat->cap : 256;
		lat->unpainted = xrealloc(lat->unpainted, lat->cap * sizeof *lat->unpainted);
	}
	lat->unpainted[lat->n++] = now;
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
