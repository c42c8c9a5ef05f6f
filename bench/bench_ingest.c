/* bench_ingest: delta frames per second through tether's per-delta path — frame_decode →
 * sanitizer_feed → mask_stream_feed (20 secrets) → transcript_stream_delta, with the
 * controller's bookkeeping (stream filter lookup, arrival time for the latency counter) —
 * against cJSON parsing the same frames and nothing else (the floor).
 *
 * The per-delta work mirrors on_delta in tui/controller.c, which is static and only reachable
 * through a live socket; the streaming benchmark in scripts/bench covers that real path.
 * Rounds alternate floor and path so that noise from the shared machine hits both alike;
 * the figure is the median of the rounds, in CPU time.
 *
 *   bench_ingest [ANSWER_MD] [FRAMES] */
#include "gen.h"
#include "util.h"

#include "keyring.h"
#include "net.h"
#include "render.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 5, NSECRETS = 20, DELTAS_PER_FRAME = 7 };

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

static double run_parse(const struct gen_frames *fr)
{
	double t0 = bench_cpu_s();
	for (size_t i = 0; i < fr->n; i++) {
		cJSON *root = cJSON_ParseWithLength(fr->json[i], fr->len[i]);
		sink += root != NULL;
		cJSON_Delete(root);
	}
	return bench_cpu_s() - t0;
}

static double run_decode(const struct gen_frames *fr)
{
	double t0 = bench_cpu_s();
	for (size_t i = 0; i < fr->n; i++) {
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

static double run_full(const struct gen_frames *fr, const struct mask_set *masks,
		       size_t *text_bytes)
{
	struct transcript *t = transcript_create();
	struct filter flt = { .attempt = 0 };
	mask_stream_init(&flt.mask, masks);
	struct latency *lat = xcalloc(1, sizeof *lat);
	struct buf san, out;
	buf_init(&san);
	buf_init(&out);
	int64_t seq = 0;
	double t0 = bench_cpu_s();
	for (size_t i = 0; i < fr->n; i++) {
		struct frame f;
		struct codec_error err;
		if (frame_decode(fr->json[i], fr->len[i], &f, &err) != 0)
			continue;
		if (f.type == FRAME_DELTA) {
			int open = transcript_stream_attempt(t, f.item_id);
			if (!open || strcmp(flt.item_id, f.item_id) || flt.attempt != f.attempt)
				switch_stream(t, &flt, masks, &f, &seq);
			buf_clear(&san);
			buf_clear(&out);
			sanitizer_feed(&flt.san, f.content, f.content_len, &san);
			mask_stream_feed(&flt.mask, san.data ? san.data : "", san.len, &out);
			transcript_stream_delta(t, f.item_id, f.attempt, f.order,
						f.delta_kind == DELTA_REASONING, out.data ? out.data : "",
						out.len);
			if (lat->n == lat->cap) {
				lat->cap = lat->cap ? 2 * lat->cap : 256;
				lat->unpainted = xrealloc(lat->unpainted, lat->cap * sizeof *lat->unpainted);
			}
			lat->unpainted[lat->n++] = clock_now_us();
			*text_bytes += out.len;
			/* At 200 deltas/s and 30 Hz, a frame is painted every ~7 deltas. */
			if (lat->n == DELTAS_PER_FRAME)
				painted(lat, clock_now_us());
		}
		frame_fini(&f);
	}
	double cpu = bench_cpu_s() - t0;
	buf_fini(&san);
	buf_fini(&out);
	mask_stream_fini(&flt.mask);
	free(lat->unpainted);
	free(lat);
	transcript_destroy(t);
	return cpu;
}

int main(int argc, char **argv)
{
	const char *answer = argc > 1 ? argv[1] : NULL;
	size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 200000;
	char **secrets = gen_secrets(NSECRETS, 42);
	struct mask_set *masks = mask_set_create();
	for (size_t i = 0; i < NSECRETS; i++) {
		const char *why;
		if (mask_set_add(masks, secrets[i], strlen(secrets[i]), &why) != 0)
			fprintf(stderr, "bench_ingest: secret refused: %s\n", why);
	}
	size_t len;
	char *text = gen_stream_text(answer, secrets, NSECRETS, &len);
	struct gen_frames fr;
	gen_delta_frames(text, len, n, &fr, NULL);
	bench_note("ingest: %zu delta frames (%.1f MB of JSON, 4 code points each), %zu secrets, "
		   "text %s", fr.n, (double)fr.bytes / 1e6, mask_set_count(masks),
		   answer ? answer : "(built in)");

	double parse[ROUNDS], decode[ROUNDS], full[ROUNDS];
	size_t text_bytes = 0;
	for (int r = 0; r < ROUNDS; r++) {
		parse[r] = run_parse(&fr);
		decode[r] = run_decode(&fr);
		text_bytes = 0;
		full[r] = run_full(&fr, masks, &text_bytes);
	}
	double p = (double)fr.n / bench_median(parse, ROUNDS);
	double d = (double)fr.n / bench_median(decode, ROUNDS);
	double f = (double)fr.n / bench_median(full, ROUNDS);
	bench_note("median of %d rounds, CPU time; %zu bytes of masked text reached the transcript",
		   ROUNDS, text_bytes);
	bench_note("per frame: parse %.0f ns, decode %.0f ns, whole path %.0f ns", 1e9 / p, 1e9 / d,
		   1e9 / f);
	bench_figure("ingest_parse_fps", p, "frames/s");
	bench_figure("ingest_decode_fps", d, "frames/s");
	bench_figure("ingest_path_fps", f, "frames/s");
	bench_figure("ingest_ratio", f / p, "x");

	gen_frames_free(&fr);
	free(text);
	mask_set_destroy(masks);
	gen_strings_free(secrets, NSECRETS);
	return 0;
}
