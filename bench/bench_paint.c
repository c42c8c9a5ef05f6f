/* bench_paint: CPU per painted frame while an answer streams, with 100, 10,000 and 100,000
 * items already in the transcript. A frame is what the TUI's frame timer does: the deltas
 * that arrived since the last frame (7, as at 200 deltas/s and 30 Hz) are in the transcript,
 * then transcript_reveal_tick and the TUI's own paint_frame at 120x40 on an ncurses screen
 * (newterm for tmux-256color) whose output goes to a temporary file — so the bytes a frame
 * writes to the terminal are counted too. Only the reveal and the paint are timed.
 *
 * One screen per history size; rounds alternate the sizes so that noise from the shared
 * machine hits all three alike. The figure is the median round's CPU per frame.
 *
 *   bench_paint [ANSWER_MD] */
#include "gen.h"
#include "mirror.h"
#include "util.h"

#include "conv.h"
#include "paint.h"
#include "band.h"

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COLS_ = 120, LINES_ = 40, ROUNDS = 5, FRAMES = 400, DELTAS_PER_FRAME = 7, HISTORY_OUTPUT = 2048 };

static const size_t sizes[] = { 100, 10000, 100000 };
#define NSIZES (sizeof sizes / sizeof *sizes)

struct bed {
	size_t items;
	struct transcript *t;
	struct tui u;
	struct conv c;              /* the one conversation u shows */
	SCREEN *scr;
	FILE *out, *in;
	int64_t next_seq;
	/* the open stream */
	char item_id[64];
	size_t stream_no;
	size_t pos;
	double cpu[ROUNDS];
	long bytes[ROUNDS];
};

static void history(struct bed *b, const struct mask_set *masks)
{
	struct gen_history *h = gen_history_create(HISTORY_OUTPUT, 1);
	struct mirror m;
	struct buf json;
	mirror_init(&m, masks);
	buf_init(&json);
	size_t events = 0;
	while (transcript_count(b->t) < b->items) {
		buf_clear(&json);
		gen_history_next(h, &json);
		mirror_apply(&m, b->t, json.data, json.len);
		events++;
	}
	b->next_seq = (int64_t)events;
	if (m.failed) {
		fprintf(stderr, "bench_paint: %zu history frames did not decode\n", m.failed);
		exit(1);
	}
	buf_fini(&json);
	mirror_fini(&m);
	gen_history_destroy(h);
}

static void stream_open(struct bed *b)
{
	snprintf(b->item_id, sizeof b->item_id, "bench-stream-%zu", b->stream_no++);
	transcript_stream_start(b->t, b->item_id, 1, true, b->next_seq - 1);
	b->pos = 0;
}

/* The answer is over: its durable message retires the slot, and the next answer opens. */
static void stream_retire(struct bed *b, const char *text, size_t len)
{
	struct item_spec spec = { .kind = ITEM_AGENT, .seq = b->next_seq++, .id = b->item_id,
				  .text = text, .text_len = len };
	transcript_add_event(b->t, &spec);
	stream_open(b);
}

static void deltas(struct bed *b, const char *text, size_t len)
{
	for (int d = 0; d < DELTAS_PER_FRAME; d++) {
		if (b->pos >= len)
			stream_retire(b, text, len);
		size_t start = b->pos;
		for (int k = 0; k < 4 && b->pos < len; k++) {
			unsigned char c = (unsigned char)text[b->pos];
			b->pos += c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
		}
		if (b->pos > len)
			b->pos = len;
		transcript_stream_delta(b->t, b->item_id, 1, (int64_t)(b->pos / 4), false, text + start,
					b->pos - start);
	}
}

static void status_of(const struct bed *b, struct controller_status *st)
{
	memset(st, 0, sizeof *st);
	st->server = "http://127.0.0.1:8000";
	st->conversation_id = "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91";
	st->title = "bench";
	st->connection = SESSION_SYNCED;
	st->has_cursor = true;
	st->cursor = b->next_seq - 1;
	st->execution_status = "running";
	st->sync_through_seq = -1;
}

static double frame(struct bed *b)
{
	struct controller_status st;
	status_of(b, &st);
	double c0 = bench_cpu_s();
	transcript_reveal_tick(b->t);
	paint_frame(&b->u, &st, clock_now_us());
	return bench_cpu_s() - c0;
}

static void bed_open(struct bed *b, size_t items, const struct mask_set *masks)
{
	memset(b, 0, sizeof *b);
	b->items = items;
	b->t = transcript_create();
	history(b, masks);
	b->out = tmpfile();
	b->in = fopen("/dev/null", "r");
	if (!b->out || !b->in) {
		perror("bench_paint");
		exit(1);
	}
	b->scr = newterm("tmux-256color", b->out, b->in);
	if (!b->scr) {
		fprintf(stderr, "bench_paint: no terminfo for tmux-256color\n");
		exit(1);
	}
	set_term(b->scr);
	b->u.cur = b->u.modal = &b->c;
	b->c.u = &b->u;
	b->c.t = b->t;
	b->c.search.match = -1;
	editor_init(&b->u.input);
	editor_init(&b->u.query);
	editor_init(&b->u.reason);
	paint_init(&b->u.paint, THEME_DARK);
	viewport_init(&b->c.vp, COLS, LINES - 2);
	stream_open(b);
}

static void bed_close(struct bed *b)
{
	set_term(b->scr);
	endwin();
	delscreen(b->scr);
	paint_fini(&b->u.paint);
	editor_fini(&b->u.input);
	editor_fini(&b->u.query);
	editor_fini(&b->u.reason);
	transcript_destroy(b->t);
	fclose(b->out);
	fclose(b->in);
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "C.UTF-8");
	setenv("LINES", "40", 1);
	setenv("COLUMNS", "120", 1);
	char **secrets = gen_secrets(20, 7);
	struct mask_set *masks = mask_set_create();
	for (size_t i = 0; i < 20; i++) {
		mask_set_add(masks, secrets[i], strlen(secrets[i]), NULL);
	}
	size_t len;
	char *text = gen_stream_text(argc > 1 ? argv[1] : NULL, NULL, 0, &len);

	static struct bed beds[NSIZES];
	for (size_t s = 0; s < NSIZES; s++) {
		double w0 = bench_wall_s();
		bed_open(&beds[s], sizes[s], masks);
		bench_note("history of %zu items (%lld events) built in %.1f s", sizes[s],
			   (long long)beds[s].next_seq, bench_wall_s() - w0);
	}
	/* The first frame of a screen draws everything; it is not a streaming frame. */
	for (size_t s = 0; s < NSIZES; s++) {
		set_term(beds[s].scr);
		/* a streamed frame is tether's own writing (band.h), as on a terminal */
		band_init(fileno(beds[s].out));
		deltas(&beds[s], text, len);
		frame(&beds[s]);
	}
	for (int r = 0; r < ROUNDS; r++) {
		for (size_t s = 0; s < NSIZES; s++) {
			struct bed *b = &beds[s];
			set_term(b->scr);
			band_init(fileno(b->out)); /* its first frame rewrites the lines it changes */
			fflush(b->out);
			long before = ftell(b->out);
			double cpu = 0;
			for (int f = 0; f < FRAMES; f++) {
				deltas(b, text, len);
				cpu += frame(b);
			}
			fflush(b->out);
			b->cpu[r] = cpu / FRAMES;
			b->bytes[r] = ftell(b->out) - before;
		}
	}
	bench_note("%d rounds of %d frames at %dx%d, %d deltas of 4 code points per frame", ROUNDS,
		   FRAMES, COLS_, LINES_, DELTAS_PER_FRAME);
	double per[NSIZES];
	for (size_t s = 0; s < NSIZES; s++) {
		double bytes[ROUNDS];
		for (int r = 0; r < ROUNDS; r++)
			bytes[r] = (double)beds[s].bytes[r] / FRAMES;
		per[s] = bench_median(beds[s].cpu, ROUNDS);
		double bpf = bench_median(bytes, ROUNDS);
		char name[64];
		snprintf(name, sizeof name, "paint_cpu_us_%zu", sizes[s]);
		bench_figure(name, per[s] * 1e6, "us/frame");
		snprintf(name, sizeof name, "paint_bytes_per_1k_deltas_%zu", sizes[s]);
		bench_figure(name, bpf * 1000 / DELTAS_PER_FRAME, "bytes");
	}
	bench_figure("paint_ratio", per[NSIZES - 1] / per[0], "x");

	for (size_t s = 0; s < NSIZES; s++)
		bed_close(&beds[s]);
	free(text);
	mask_set_destroy(masks);
	gen_strings_free(secrets, 20);
	return 0;
}
