/* Viewport: follow mode shows the tail, a scrolled-up view stays put while output streams in
 * below, resize keeps the reader's item on top without losing or duplicating rows, and a
 * view costs O(visible rows) (counted with the row-cache test hook). Expected rows are
 * enumerated item by item through transcript_item_rows/_row, never hard-coded. */
#include "rowcheck.h"

#include <stdlib.h>

struct rowref {
	size_t item, row;
};

/* Every row of the transcript at width, in order. */
static struct rowref *all_rows(struct transcript *t, int width, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < transcript_count(t); i++)
		total += transcript_item_rows(t, i, width);
	struct rowref *rows = xcalloc(total ? total : 1, sizeof *rows);
	size_t k = 0;
	for (size_t i = 0; i < transcript_count(t); i++)
		for (size_t r = 0; r < transcript_item_rows(t, i, width); r++)
			rows[k++] = (struct rowref){ i, r };
	*n = total;
	return rows;
}

static void fill(struct transcript *t, int n)
{
	char id[32], text[160];
	for (int i = 0; i < n; i++) {
		snprintf(id, sizeof id, "e%d", i);
		snprintf(text, sizeof text, "message %d %s", i,
			 i % 3 ? "short" : "a longer one that wraps over several rows at narrow "
					   "widths\nand has a second line");
		add(t, i % 2 ? ITEM_AGENT : ITEM_USER, i, id, text);
	}
}

static void follow_mode_shows_the_tail(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	fill(t, 60);
	struct viewport v;
	viewport_init(&v, 40, 15);
	assert_true(v.follow);
	struct view_row rows[15];
	size_t n = viewport_rows(&v, t, rows);
	size_t total;
	struct rowref *want = all_rows(t, 40, &total);
	assert_int_equal(n, 15);
	for (size_t k = 0; k < n; k++) {
		assert_int_equal(rows[k].item, want[total - n + k].item);
		assert_int_equal(rows[k].row_in_item, want[total - n + k].row);
	}
	/* new output: still the tail */
	add(t, ITEM_USER, 60, "e60", "one more");
	free(want);
	want = all_rows(t, 40, &total);
	n = viewport_rows(&v, t, rows);
	assert_int_equal(rows[n - 1].item, want[total - 1].item);
	assert_int_equal(rows[n - 1].row_in_item, want[total - 1].row);
	free(want);
	transcript_destroy(t);
}

static void short_transcript_fills_from_the_top(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	fill(t, 2);
	struct viewport v;
	viewport_init(&v, 80, 50);
	struct view_row rows[50];
	size_t total;
	free(all_rows(t, 80, &total));
	assert_int_equal(viewport_rows(&v, t, rows), total);
	assert_int_equal(rows[0].item, 0);
	assert_int_equal(rows[0].row_in_item, 0);
	viewport_scroll(&v, t, -5); /* nothing above: stays following */
	assert_true(v.follow);
	transcript_destroy(t);
}

static void scrolled_up_view_stays_while_output_streams(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	fill(t, 40);
	transcript_stream_start(t, "s", 1, true, 39);
	struct viewport v;
	viewport_init(&v, 40, 12);
	struct view_row rows[12];
	viewport_rows(&v, t, rows);
	viewport_scroll(&v, t, -30);
	assert_false(v.follow);
	assert_int_equal(v.new_below, 0);
	viewport_rows(&v, t, rows);
	struct rowref top = { rows[0].item, rows[0].row_in_item };
	struct buf before, after;
	buf_init(&before);
	buf_init(&after);
	row_string(&rows[0], &before);

	for (int i = 0; i < 500; i++) {
		char line[32];
		snprintf(line, sizeof line, "streamed line %d\n", i);
		delta(t, "s", 1, i, line);
		transcript_reveal_tick(t);
		viewport_note_changes(&v, t);
		size_t n = viewport_rows(&v, t, rows);
		assert_int_equal(n, 12);
		assert_int_equal(rows[0].item, top.item);
		assert_int_equal(rows[0].row_in_item, top.row);
	}
	assert_string_equal(row_string(&rows[0], &after), buf_cstr(&before));
	assert_int_equal(v.new_below, 500);
	assert_false(v.follow);

	/* back to the bottom: following, nothing new below */
	viewport_follow(&v);
	viewport_note_changes(&v, t);
	assert_true(v.follow);
	assert_int_equal(v.new_below, 0);
	size_t total;
	struct rowref *want = all_rows(t, 40, &total);
	size_t n = viewport_rows(&v, t, rows);
	assert_int_equal(rows[n - 1].item, want[total - 1].item);
	assert_int_equal(rows[n - 1].row_in_item, want[total - 1].row);
	free(want);
	buf_fini(&before);
	buf_fini(&after);
	transcript_destroy(t);
}

static void scroll_moves_by_rows_and_past_the_bottom_follows(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	fill(t, 50);
	struct viewport v;
	viewport_init(&v, 30, 10);
	struct view_row rows[10];
	size_t total;
	struct rowref *all = all_rows(t, 30, &total);
	viewport_scroll(&v, t, -7);
	viewport_rows(&v, t, rows);
	assert_int_equal(rows[0].item, all[total - 10 - 7].item);
	assert_int_equal(rows[0].row_in_item, all[total - 10 - 7].row);
	viewport_scroll(&v, t, -100);
	viewport_rows(&v, t, rows);
	assert_int_equal(rows[0].item, all[total - 10 - 107].item);
	assert_int_equal(rows[0].row_in_item, all[total - 10 - 107].row);
	viewport_scroll(&v, t, 100);
	assert_false(v.follow);
	viewport_rows(&v, t, rows);
	assert_int_equal(rows[0].item, all[total - 10 - 7].item);
	add(t, ITEM_USER, 50, "new", "arrives while scrolled up");
	viewport_note_changes(&v, t);
	assert_true(v.new_below > 0);
	viewport_scroll(&v, t, 1000); /* past the bottom */
	assert_true(v.follow);
	assert_int_equal(v.new_below, 0);
	/* to the very top */
	viewport_scroll(&v, t, -100000);
	viewport_rows(&v, t, rows);
	assert_int_equal(rows[0].item, 0);
	assert_int_equal(rows[0].row_in_item, 0);
	free(all);
	transcript_destroy(t);
}

static void show_item_puts_it_on_top(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	fill(t, 50);
	struct viewport v;
	viewport_init(&v, 40, 8);
	struct view_row rows[8];
	viewport_show_item(&v, t, 20);
	assert_false(v.follow);
	viewport_rows(&v, t, rows);
	assert_int_equal(rows[0].item, 20);
	assert_int_equal(rows[0].row_in_item, 0);
	/* an item in the last screenful: the tail, following */
	viewport_show_item(&v, t, 49);
	assert_true(v.follow);
	transcript_destroy(t);
}

/* Pages through the whole transcript from the top and checks every row comes once. */
static void assert_paging_covers_all(struct transcript *t, struct viewport *v)
{
	size_t total;
	struct rowref *all = all_rows(t, v->width, &total);
	struct view_row *rows = xcalloc((size_t)v->height, sizeof *rows);
	viewport_show_item(v, t, 0);
	size_t seen = 0;
	for (;;) {
		size_t n = viewport_rows(v, t, rows);
		bool last = v->follow;
		/* following, the view is the tail: it may overlap the previous page */
		size_t start = last ? total - n : seen;
		assert_true(start <= seen);
		for (size_t k = 0; k < n; k++) {
			assert_int_equal(rows[k].item, all[start + k].item);
			assert_int_equal(rows[k].row_in_item, all[start + k].row);
		}
		seen = start + n;
		if (last)
			break;
		viewport_scroll(v, t, v->height);
	}
	assert_int_equal(seen, total);
	free(rows);
	free(all);
}

static void resize_keeps_top_item_and_rows_match_a_fresh_layout(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	fill(t, 30);
	transcript_stream_start(t, "s", 1, true, 29);
	struct viewport v;
	viewport_init(&v, 70, 10);
	struct view_row rows[10];
	/* streamed while followed: the slot is laid out incrementally at 70 */
	for (int i = 0; i < 40; i++) {
		char piece[48];
		snprintf(piece, sizeof piece, "streamed %d piece%s", i, i % 7 ? " " : "\n");
		delta(t, "s", 1, i, piece);
		transcript_reveal_tick(t);
		viewport_rows(&v, t, rows);
	}
	transcript_reveal_tick(t);
	transcript_reveal_tick(t);
	viewport_rows(&v, t, rows);
	viewport_show_item(&v, t, 12);
	viewport_rows(&v, t, rows);

	static const int widths[] = { 70, 23, 9, 101 };
	for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
		viewport_resize(&v, t, widths[w], 10);
		viewport_rows(&v, t, rows);
		assert_int_equal(v.top_item, 12);
		assert_int_equal(rows[0].item, 12);

		/* a transcript built the same way but only ever laid out at this width */
		struct transcript *fresh = transcript_create();
		fill(fresh, 30);
		transcript_stream_start(fresh, "s", 1, true, 29);
		struct item_info info = info_of(t, 30);
		transcript_stream_delta(fresh, "s", 1, 0, false, info.text, info.text_len);
		transcript_reveal_tick(fresh);
		transcript_reveal_tick(fresh);
		assert_int_equal(transcript_count(fresh), transcript_count(t));
		struct buf a, b;
		buf_init(&a);
		buf_init(&b);
		for (size_t i = 0; i < transcript_count(t); i++) {
			size_t n = transcript_item_rows(fresh, i, widths[w]);
			assert_int_equal(transcript_item_rows(t, i, widths[w]), n);
			for (size_t r = 0; r < n; r++)
				assert_string_equal(item_row_string(t, i, r, widths[w], &a),
						    item_row_string(fresh, i, r, widths[w], &b));
		}
		buf_fini(&a);
		buf_fini(&b);
		transcript_destroy(fresh);
		assert_paging_covers_all(t, &v);
		viewport_show_item(&v, t, 12);
	}
	transcript_destroy(t);
}

static void resize_keeps_the_place_inside_the_top_item(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	struct buf text;
	buf_init(&text);
	for (int i = 0; i < 60; i++)
		buf_printf(&text, "paragraph %d\n\n", i); /* a paragraph each: a row each */
	add(t, ITEM_USER, 0, "u", "question");
	add(t, ITEM_AGENT, 1, "a", text.data);
	add(t, ITEM_USER, 2, "u2", "next");
	struct viewport v;
	viewport_init(&v, 80, 10);
	viewport_show_item(&v, t, 1);
	viewport_scroll(&v, t, 30);
	assert_int_equal(v.top_item, 1);
	size_t before = v.top_row;
	viewport_resize(&v, t, 10, 10);
	assert_int_equal(v.top_item, 1);
	assert_true(v.top_row > before / 2); /* not thrown back to the item's header */
	assert_true(v.top_row < transcript_item_rows(t, 1, 10));
	buf_fini(&text);
	transcript_destroy(t);
}

static void view_lays_out_only_visible_items(void **state)
{
	(void)state;
	enum { ITEMS = 100000, H = 24 };
	struct transcript *t = transcript_create();
	char id[32];
	for (int i = 0; i < ITEMS; i++) {
		snprintf(id, sizeof id, "e%d", i);
		add(t, i % 2 ? ITEM_AGENT : ITEM_USER, i, id, "a message of a few words");
	}
	struct viewport v;
	viewport_init(&v, 80, H);
	struct view_row rows[H];
	/* every item has at least a header and a separator: H rows touch at most H/2 + 1 */
	const uint64_t bound = H / 2 + 2;

	uint64_t b = render_layouts_built();
	assert_int_equal(viewport_rows(&v, t, rows), H);
	assert_true(render_layouts_built() - b <= bound);

	b = render_layouts_built();
	viewport_scroll(&v, t, -3 * H);
	viewport_rows(&v, t, rows);
	assert_true(render_layouts_built() - b <= 3 * bound + bound);

	b = render_layouts_built();
	viewport_show_item(&v, t, ITEMS / 2);
	viewport_rows(&v, t, rows);
	viewport_scroll(&v, t, H);
	viewport_rows(&v, t, rows);
	assert_true(render_layouts_built() - b <= 3 * bound);

	b = render_layouts_built();
	viewport_resize(&v, t, 50, H);
	viewport_rows(&v, t, rows);
	assert_true(render_layouts_built() - b <= bound + 1);

	/* streaming at the end while following: only the tail is laid out again */
	viewport_follow(&v);
	transcript_stream_start(t, "s", 1, true, ITEMS - 1);
	viewport_rows(&v, t, rows);
	b = render_layouts_built();
	for (int i = 0; i < 100; i++) {
		delta(t, "s", 1, i, "tok ");
		transcript_reveal_tick(t);
		viewport_note_changes(&v, t);
		viewport_rows(&v, t, rows);
	}
	assert_true(render_layouts_built() - b <= 100 + bound);
	transcript_destroy(t);
}

/* The uids and rows a view shows. */
static size_t shown(struct viewport *v, struct transcript *t, uint64_t *uids, size_t *rws)
{
	struct view_row rows[64];
	size_t n = viewport_rows(v, t, rows);
	for (size_t k = 0; k < n; k++) {
		uids[k] = transcript_uid_at(t, rows[k].item);
		rws[k] = rows[k].row_in_item;
	}
	return n;
}

/* The anchor is the top item's uid: older items inserted above the view (a page of history,
 * a late durable) shift every index but move nothing on screen. */
static void older_items_above_do_not_move_the_view(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	char id[32], text[64];
	for (int i = 0; i < 40; i++) {
		snprintf(id, sizeof id, "n%d", i);
		snprintf(text, sizeof text, "newer %d", i);
		add(t, i % 2 ? ITEM_AGENT : ITEM_USER, 1000 + i, id, text);
	}
	struct viewport v;
	viewport_init(&v, 30, 12);
	viewport_scroll(&v, t, -40);
	assert_false(v.follow);
	uint64_t before_uid[64], after_uid[64];
	size_t before_row[64], after_row[64];
	size_t n = shown(&v, t, before_uid, before_row);
	assert_int_equal(n, 12);
	size_t top_index = v.top_item;
	/* a page of 25 older events lands above */
	for (int i = 0; i < 25; i++) {
		snprintf(id, sizeof id, "o%d", i);
		snprintf(text, sizeof text, "older %d\nwith a second line", i);
		add(t, ITEM_AGENT, 500 + i, id, text);
	}
	assert_int_equal(transcript_count(t), 65);
	assert_int_equal(shown(&v, t, after_uid, after_row), n);
	for (size_t k = 0; k < n; k++) {
		assert_int_equal(after_uid[k], before_uid[k]);
		assert_int_equal(after_row[k], before_row[k]);
	}
	assert_int_equal(v.top_item, top_index + 25);
	/* scrolling still moves from there: one row up, then back */
	viewport_scroll(&v, t, -1);
	viewport_scroll(&v, t, 1);
	assert_int_equal(shown(&v, t, after_uid, after_row), n);
	assert_int_equal(after_uid[0], before_uid[0]);
	assert_int_equal(after_row[0], before_row[0]);
	/* a resize keeps the same item on top too */
	for (int i = 0; i < 5; i++) {
		snprintf(id, sizeof id, "p%d", i);
		add(t, ITEM_USER, 100 + i, id, "oldest");
	}
	viewport_resize(&v, t, 30, 10);
	assert_int_equal(shown(&v, t, after_uid, after_row), 10);
	assert_int_equal(after_uid[0], before_uid[0]);
	transcript_destroy(t);
}

/* History not loaded shows as one row above the item where it ends; a page that fills it
 * while that row is on top ends where the row was: every line below stays on its row. */
static void gap_row_and_a_page_landing_under_it(void **state)
{
	(void)state;
	struct transcript *t = transcript_create();
	char id[32], text[64];
	for (int i = 0; i < 30; i++) {
		snprintf(id, sizeof id, "n%d", i);
		snprintf(text, sizeof text, "newer %d", i);
		add(t, i % 2 ? ITEM_AGENT : ITEM_USER, 1000 + i, id, text);
	}
	struct viewport v;
	viewport_init(&v, 30, 12);
	viewport_scroll(&v, t, -1000); /* to the very top */
	struct view_row rows[12];
	size_t n = viewport_rows(&v, t, rows);
	assert_int_equal(n, 12);
	assert_true(rows[0].gap);
	assert_int_equal(rows[0].item, 0);
	assert_non_null(strstr(rows[0].text, "1,000 earlier events"));
	assert_false(rows[1].gap);
	uint64_t before_uid[64], after_uid[64];
	size_t before_row[64], after_row[64];
	shown(&v, t, before_uid, before_row);
	v.gap_note = "loading…";
	viewport_rows(&v, t, rows);
	assert_non_null(strstr(rows[0].text, "1,000 earlier events · loading…"));
	/* a page of 20 older events, newest first */
	struct item_spec specs[20];
	char ids[20][16];
	for (int i = 0; i < 20; i++) {
		snprintf(ids[i], sizeof ids[i], "o%d", i);
		specs[i] = (struct item_spec){ .kind = ITEM_AGENT, .seq = -1, .id = ids[i],
					       .text = "older", .text_len = 5 };
	}
	assert_int_equal(transcript_add_page(t, 1000, true, specs, 20), 20);
	assert_int_equal(shown(&v, t, after_uid, after_row), n);
	for (size_t k = 1; k < n; k++) {
		assert_int_equal(after_uid[k], before_uid[k]);
		assert_int_equal(after_row[k], before_row[k]);
	}
	/* the top row is the page's newest item's last row now; the gap is above the page */
	viewport_rows(&v, t, rows);
	assert_false(rows[0].gap);
	assert_int_equal(rows[0].item, 19);
	assert_int_equal(transcript_missing_before(t, 0), 980);
	viewport_scroll(&v, t, -1000);
	viewport_rows(&v, t, rows);
	assert_true(rows[0].gap);
	assert_non_null(strstr(rows[0].text, "980 earlier events"));
	transcript_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(follow_mode_shows_the_tail),
		cmocka_unit_test(short_transcript_fills_from_the_top),
		cmocka_unit_test(scrolled_up_view_stays_while_output_streams),
		cmocka_unit_test(scroll_moves_by_rows_and_past_the_bottom_follows),
		cmocka_unit_test(show_item_puts_it_on_top),
		cmocka_unit_test(resize_keeps_top_item_and_rows_match_a_fresh_layout),
		cmocka_unit_test(resize_keeps_the_place_inside_the_top_item),
		cmocka_unit_test(view_lays_out_only_visible_items),
		cmocka_unit_test(older_items_above_do_not_move_the_view),
		cmocka_unit_test(gap_row_and_a_page_landing_under_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
