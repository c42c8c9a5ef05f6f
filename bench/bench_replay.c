/* bench_replay: replaying 100,000 durable events — frame_decode → the item an event becomes
 * (every text sanitized and masked, as the controller does: mirror.h) → transcript_add_event — and then
 * laying them out at 120 columns: all items (what a replay-to-screen of everything would
 * cost) and one screen at the bottom (what the TUI does). Wall and CPU seconds, and memory.
 *
 * Memory method: RSS is read from /proc/self/statm after the frames are built (they are the
 * stand-in for the socket and are not the client's) and again after applying and after
 * laying out; the growth is what the transcript and its row caches hold. It is compared with
 * the JSON bytes of the events. The peak RSS of the real binary on the same kind of replay
 * comes from scripts/bench (tether --headless over the fixture's `history 100000`).
 *
 *   bench_replay [EVENTS] [MAX_OUTPUT_BYTES] */
#include "gen.h"
#include "mirror.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 3, WIDTH = 120, HEIGHT = 38 };

static struct transcript *replay(const struct gen_frames *fr, const struct mask_set *masks)
{
	struct transcript *t = transcript_create();
	struct mirror m;
	mirror_init(&m, masks);
	for (size_t i = 0; i < fr->n; i++)
		mirror_apply(&m, t, fr->json[i], fr->len[i]);
	mirror_fini(&m);
	/* A frame that failed to decode would be skipped, and flatter the figure. */
	if (m.failed) {
		fprintf(stderr, "bench_replay: %zu of %zu frames did not decode\n", m.failed, fr->n);
		exit(1);
	}
	return t;
}

static size_t layout_all(struct transcript *t)
{
	size_t rows = 0;
	for (size_t i = 0; i < transcript_count(t); i++)
		rows += transcript_item_rows(t, i, WIDTH);
	return rows;
}

static size_t layout_screen(struct transcript *t)
{
	struct viewport v;
	struct view_row rows[HEIGHT];
	viewport_init(&v, WIDTH, HEIGHT);
	viewport_note_changes(&v, t);
	return viewport_rows(&v, t, rows);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	size_t max_output = argc > 2 ? strtoul(argv[2], NULL, 10) : 8192;
	char **secrets = gen_secrets(20, 7);
	struct mask_set *masks = mask_set_create();
	for (size_t i = 0; i < 20; i++) {
		mask_set_add(masks, secrets[i], strlen(secrets[i]), NULL);
	}
	struct gen_frames fr;
	gen_durable_frames(n, max_output, 1, &fr);
	long rss_frames = bench_rss_kb();
	bench_note("replay: %zu durable events, %.1f MB of JSON (outputs up to %zu bytes), 20 "
		   "secrets, width %d", fr.n, (double)fr.bytes / 1e6, max_output, WIDTH);

	double apply_wall[ROUNDS], apply_cpu[ROUNDS], all_wall[ROUNDS], screen_wall[ROUNDS];
	long grow_apply = 0, grow_all = 0;
	size_t items = 0, rows = 0, screen = 0;
	for (int r = 0; r < ROUNDS; r++) {
		double w0 = bench_wall_s(), c0 = bench_cpu_s();
		struct transcript *t = replay(&fr, masks);
		apply_wall[r] = bench_wall_s() - w0;
		apply_cpu[r] = bench_cpu_s() - c0;
		long rss_applied = bench_rss_kb();
		w0 = bench_wall_s();
		screen = layout_screen(t);
		screen_wall[r] = bench_wall_s() - w0;
		w0 = bench_wall_s();
		rows = layout_all(t);
		all_wall[r] = bench_wall_s() - w0;
		/* Only the first round starts from a heap that never held a transcript. */
		if (r == 0) {
			grow_apply = rss_applied - rss_frames;
			grow_all = bench_rss_kb() - rss_frames;
		}
		items = transcript_count(t);
		transcript_destroy(t);
	}
	double aw = bench_median(apply_wall, ROUNDS), ac = bench_median(apply_cpu, ROUNDS);
	double lw = bench_median(all_wall, ROUNDS), sw = bench_median(screen_wall, ROUNDS);
	double json_kb = (double)fr.bytes / 1024;
	bench_note("%zu items, %zu rows at width %d; median of %d rounds", items, rows, WIDTH, ROUNDS);
	bench_note("RSS: frames %ld KB; transcript +%ld KB; with every row laid out +%ld KB; "
		   "process peak %ld KB", rss_frames, grow_apply, grow_all, bench_peak_rss_kb());
	bench_figure("replay_apply_s", aw, "s");
	bench_figure("replay_apply_cpu_s", ac, "s");
	bench_figure("replay_screen_s", aw + sw, "s");
	bench_figure("replay_layout_all_s", aw + lw, "s");
	bench_figure("replay_json_kb", json_kb, "KB");
	bench_figure("replay_transcript_kb", (double)grow_apply, "KB");
	bench_figure("replay_transcript_ratio", (double)grow_apply / json_kb, "x");
	bench_figure("replay_layout_all_kb", (double)grow_all, "KB");
	bench_figure("replay_layout_all_ratio", (double)grow_all / json_kb, "x");
	(void)screen;

	gen_frames_free(&fr);
	mask_set_destroy(masks);
	gen_strings_free(secrets, 20);
	return 0;
}
