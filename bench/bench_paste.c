/* bench_paste: a bracketed paste of 1 MB and 5 MB through the TUI's own path, in process: the
 * bytes as the terminal sends them, read in the 64 KiB blocks tether reads, through the key
 * decoder (keys_feed, then keys_expire once the terminal is quiet), the binding's
 * editor_insert, and the input area's wrap and cursor position at 118 columns (what a frame
 * computes before drawing the input). Lines of prose with some UTF-8, LF turned into CR as a
 * terminal sends them. The best of 3 runs counts (the machine is shared).
 *
 * Prints paste_1MB_ms, paste_5MB_ms (wall ms from the first byte to the input laid out) and
 * paste_5MB_MBps. */
#include "util.h"

#include "editor.h"
#include "keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 64 * 1024, WIDTH = 118, RUNS = 3 };

static void make_paste(struct buf *b, size_t size)
{
	static const char *const words[] = {
		"the", "agent", "ran", "tests", "and", "found", "that", "a", "function", "in",
		"file", "returns", "None", "when", "called", "with", "an", "empty", "list", "café",
		"日本語", "→", "def", "return", "self", "import", "os", "path", "error", "value",
	};
	uint64_t seed = 7;
	buf_puts(b, "\033[200~");
	size_t start = b->len, col = 0;
	while (b->len - start < size) {
		const char *w = words[bench_rand(&seed) % (sizeof words / sizeof *words)];
		buf_puts(b, w);
		col += strlen(w) + 1;
		if (col > 70) {
			buf_putc(b, '\r');
			col = 0;
		} else {
			buf_putc(b, ' ');
		}
	}
	buf_puts(b, "\033[201~");
}

struct sink {
	struct editor *e;
	size_t pasted;
};

static void on_key(void *ctx, const struct key_event *ev)
{
	struct sink *s = ctx;
	if (ev->kind == KEYS_PASTE) {
		editor_insert(s->e, ev->text, ev->len);
		s->pasted += ev->len;
	}
}

/* Wall seconds of one paste, from the first block to the input laid out. */
static double run(const struct buf *in, size_t *text_len)
{
	struct keys k;
	struct editor e;
	keys_init(&k);
	editor_init(&e);
	struct sink s = { .e = &e };
	double t0 = bench_wall_s();
	for (size_t at = 0; at < in->len; at += BLOCK)
		keys_feed(&k, in->data + at, in->len - at < BLOCK ? in->len - at : BLOCK, on_key, &s);
	keys_expire(&k, on_key, &s);
	size_t nrows, row;
	int col;
	editor_rows(&e, WIDTH, &nrows);
	editor_cursor_pos(&e, WIDTH, &row, &col);
	double t = bench_wall_s() - t0;
	*text_len = e.text.len;
	if (!s.pasted || row + 1 != nrows)
		bench_note("the paste did not arrive whole (%zu bytes, cursor row %zu of %zu)",
			   s.pasted, row, nrows);
	editor_fini(&e);
	keys_fini(&k);
	return t;
}

int main(void)
{
	static const struct {
		size_t bytes;
		const char *name;
	} sizes[] = { { 1u << 20, "paste_1MB_ms" }, { 5u << 20, "paste_5MB_ms" } };
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		struct buf in;
		buf_init(&in);
		make_paste(&in, sizes[i].bytes);
		double best = 1e9;
		size_t len = 0;
		for (int r = 0; r < RUNS; r++) {
			double t = run(&in, &len);
			if (t < best)
				best = t;
		}
		bench_note("%s: %zu bytes pasted, %zu in the input", sizes[i].name, in.len, len);
		bench_figure(sizes[i].name, best * 1e3, "ms");
		if (sizes[i].bytes == 5u << 20)
			bench_figure("paste_5MB_MBps", (double)in.len / 1e6 / best, "MB/s");
		buf_fini(&in);
	}
	return 0;
}
