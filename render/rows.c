/* rows: an item as screen rows — header, reasoning, body, tool result, separator. Bodies are
 * laid out with struct layout and cached per item by (width, version); a streaming body
 * that only grew is laid out incrementally. */
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RESULT_MAX_ROWS 6
#define DETAIL_MAX_ROWS 16
#define TITLE_MAX_COLUMNS 40
#define DECO_MAX_SPANS 24

/* Rows composed here rather than laid out: header, reasoning marker, "more lines" of the
 * result and of the arguments. */
enum deco_kind { DECO_HEADER, DECO_REASONING, DECO_MORE, DECO_MORE_DETAIL, DECO_COUNT };

struct deco_row {
	uint32_t first, count;
};

/* A layout and what it was made from. */
struct cached_layout {
	struct layout l;
	bool valid;
	uint64_t epoch;
	size_t len;
	int width;
	unsigned flags;
};

struct item_rows {
	bool valid;
	enum item_kind kind;
	int width;
	uint64_t version;
	struct buf deco;
	struct span spans[DECO_MAX_SPANS];
	size_t nspans;
	struct deco_row drow[DECO_COUNT];
	struct cached_layout body, reasoning, result, detail;
	size_t reasoning_first, reasoning_count;        /* marker row included */
	size_t body_first, body_count;
	size_t detail_first, detail_count;
	size_t detail_more_row;                         /* 0: none */
	size_t result_first, result_count;
	size_t more_row;                                /* 0: none */
	size_t nrows;                                   /* separator included */
};

static const char *const risk_labels[] = { NULL, NULL, NULL, "[MEDIUM]", "[HIGH]" };

static struct render_words words;
static uint64_t layouts_built;

void render_set_words(const struct render_words *w)
{
	words = w ? *w : (struct render_words){ 0 };
}

uint64_t render_layouts_built(void)
{
	return layouts_built;
}

static void item_rows_free(void *p)
{
	struct item_rows *r = p;
	if (!r)
		return;
	buf_fini(&r->deco);
	layout_fini(&r->body.l);
	layout_fini(&r->reasoning.l);
	layout_fini(&r->result.l);
	layout_fini(&r->detail.l);
	free(r);
}

static struct item_rows *rows_create(void)
{
	struct item_rows *r = xcalloc(1, sizeof *r);
	buf_init(&r->deco);
	layout_init(&r->body.l);
	layout_init(&r->reasoning.l);
	layout_init(&r->result.l);
	layout_init(&r->detail.l);
	return r;
}

/* Appends s as one span; line breaks and tabs become spaces (a header is one row). */
static void deco_add(struct item_rows *r, uint16_t style, const char *s)
{
	if (!s || !*s || r->nspans == DECO_MAX_SPANS)
		return;
	size_t off = r->deco.len, n = strlen(s);
	buf_append(&r->deco, s, n);
	for (size_t i = off; i < off + n; i++)
		if (r->deco.data[i] == '\n' || r->deco.data[i] == '\t')
			r->deco.data[i] = ' ';
	r->spans[r->nspans++] = (struct span){ .off = (uint32_t)off, .len = (uint32_t)n,
					       .style = style };
}

static void deco_addf(struct item_rows *r, uint16_t style, const char *fmt, long long v)
{
	char tmp[96];
	snprintf(tmp, sizeof tmp, fmt, v);
	deco_add(r, style, tmp);
}

static void deco_begin(struct item_rows *r, enum deco_kind d)
{
	r->drow[d].first = (uint32_t)r->nspans;
	r->drow[d].count = 0;
}

/* Closes row d: cuts it at a grapheme boundary to fit width, marking the cut with "…". */
static void deco_end(struct item_rows *r, enum deco_kind d, int width)
{
	struct deco_row *row = &r->drow[d];
	row->count = (uint32_t)(r->nspans - row->first);
	if (!row->count)
		return;
	size_t start = r->spans[row->first].off, end = r->deco.len;
	if (text_width(r->deco.data + start, end - start) <= width)
		return;
	size_t cut = start;
	int used = 0;
	while (cut < end) {
		int w;
		size_t n = grapheme_next(r->deco.data + cut, end - cut, &w);
		if (used + w > width - 1)
			break;
		used += w;
		cut += n;
	}
	r->deco.len = cut;
	r->deco.data[cut] = '\0';
	size_t keep = row->first;
	for (size_t i = row->first; i < r->nspans; i++) {
		struct span *s = &r->spans[i];
		if (s->off >= cut)
			continue;
		if (s->off + s->len > cut)
			s->len = (uint32_t)(cut - s->off);
		r->spans[keep++] = *s;
	}
	r->nspans = keep;
	deco_add(r, STYLE_DIM, "…");
	row->count = (uint32_t)(r->nspans - row->first);
}

static void add_tool_status(struct item_rows *r, const struct item_info *it)
{
	switch (it->outcome) {
	case TOOL_PENDING:
		deco_add(r, STYLE_DIM, it->awaiting_confirmation
				       ? "  ? awaiting confirmation" : "  … running");
		break;
	case TOOL_DONE:
		if (it->has_exit_code)
			deco_addf(r, STYLE_PLAIN, "  ✓ exit %lld", it->exit_code);
		else
			deco_add(r, STYLE_PLAIN, "  ✓ done");
		break;
	case TOOL_FAILED:
		if (it->has_exit_code)
			deco_addf(r, STYLE_BOLD, "  ✗ failed (exit %lld)", it->exit_code);
		else
			deco_add(r, STYLE_BOLD, "  ✗ failed");
		break;
	case TOOL_REJECTED:
		deco_add(r, STYLE_BOLD, "  ⊘ rejected");
		break;
	case TOOL_BLOCKED:
		deco_add(r, STYLE_BOLD, "  ⊘ blocked by hook");
		break;
	case TOOL_STILL_RUNNING:
		deco_add(r, STYLE_PLAIN, "  ⧗ still running");
		break;
	case TOOL_TIMED_OUT:
		deco_add(r, STYLE_BOLD, "  ⧗ timed out");
		break;
	case TOOL_NO_RESULT:
		deco_add(r, STYLE_DIM, "  — no result (run ended)");
		break;
	}
}

/* A tool's title cut to a third of the width (at most TITLE_MAX_COLUMNS), so the status and
 * risk after it stay on the row. */
static void add_title(struct item_rows *r, const char *title, int width)
{
	int max = width / 3 < TITLE_MAX_COLUMNS ? width / 3 : TITLE_MAX_COLUMNS;
	size_t n = strlen(title), cut = 0;
	int used = 0;
	if (max < 8)
		max = 8;
	while (cut < n) {
		int w;
		size_t step = grapheme_next(title + cut, n - cut, &w);
		if (used + w > max - 1 && cut + step < n)
			break;
		used += w;
		cut += step;
	}
	if (cut == n) {
		deco_add(r, STYLE_BOLD, title);
		return;
	}
	char *s = xstrndup(title, cut);
	deco_add(r, STYLE_BOLD, s);
	deco_add(r, STYLE_BOLD, "…");
	free(s);
}

static void compose_header(struct item_rows *r, const struct item_info *it, int width)
{
	switch (it->kind) {
	case ITEM_USER:
		deco_add(r, STYLE_BOLD, "you");
		break;
	case ITEM_AGENT:
		deco_add(r, STYLE_BOLD, "agent");
		if (it->interrupted)
			deco_add(r, STYLE_DIM, " (interrupted)");
		if (!it->streaming)
			break;
		deco_add(r, STYLE_PLAIN, " ▍");
		if (it->attempt > 1)
			deco_addf(r, STYLE_DIM, " (retry %lld)", it->attempt);
		if (it->stalled)
			deco_add(r, STYLE_DIM, " (stalled)");
		if (it->lossy)
			deco_add(r, STYLE_DIM, " (incomplete)");
		break;
	case ITEM_TOOL:
	case ITEM_TOOL_RESULT:
		/* What a reader needs first (title, status, risk) comes before the summary, which
		 * is what the cut at the edge takes. */
		deco_add(r, STYLE_BOLD, "⚙ ");
		add_title(r, it->title ? it->title : "tool", width);
		add_tool_status(r, it);
		/* As the web client: UNKNOWN (no analyzer) and LOW are not worth a label. */
		if (it->risk >= 3 && it->risk < (int)(sizeof risk_labels / sizeof *risk_labels)) {
			deco_add(r, STYLE_PLAIN, "  ");
			deco_add(r, STYLE_PLAIN, risk_labels[it->risk]);
		}
		if (it->kind == ITEM_TOOL && it->summary) {
			deco_add(r, STYLE_PLAIN, "  ");
			deco_add(r, STYLE_PLAIN, it->summary);
		}
		break;
	case ITEM_ERROR:
		deco_add(r, STYLE_BOLD, "✗ ");
		deco_add(r, STYLE_BOLD, it->title ? it->title : "error");
		break;
	case ITEM_NOTICE:
		deco_add(r, STYLE_DIM, "· ");
		deco_add(r, STYLE_DIM, it->title ? it->title : "notice");
		break;
	case ITEM_SYSTEM:
		if (it->reasoning_expanded) {
			deco_add(r, STYLE_DIM, "▾ system prompt");
		} else {
			deco_addf(r, STYLE_DIM, "▸ system prompt (%lld lines)",
				  (long long)(it->text_len ? 1 + count_newlines(it->text, it->text_len)
							   : 0));
		}
		break;
	}
}

/* Brings c up to src[0..len): incremental when only the source grew, else from scratch. */
static void layout_refresh(struct cached_layout *c, const char *src, size_t len, uint64_t epoch,
			   int width, unsigned flags, uint16_t style)
{
	bool fresh = !c->valid || c->epoch != epoch || c->width != width || c->flags != flags ||
		     len < c->len;
	if (!fresh && len == c->len)
		return;
	if (fresh)
		layout_reset(&c->l);
	layout_update(&c->l, src ? src : "", len, width, flags);
	if (style)
		for (size_t i = 0; i < c->l.nspans; i++)
			c->l.spans[i].style |= style;
	c->valid = true;
	c->epoch = epoch;
	c->len = len;
	c->width = width;
	c->flags = flags;
}

static unsigned body_flags(enum item_kind kind)
{
	return kind == ITEM_USER || kind == ITEM_AGENT || kind == ITEM_TOOL ? LAYOUT_MARKDOWN : 0;
}

static void build_reasoning(struct item_rows *r, const struct item_info *it, int width)
{
	r->reasoning_first = r->nrows;
	r->reasoning_count = 0;
	if (!it->reasoning_len || it->kind == ITEM_SYSTEM)
		return;
	deco_begin(r, DECO_REASONING);
	if (it->reasoning_expanded) {
		deco_add(r, STYLE_DIM, "▾ reasoning");
		layout_refresh(&r->reasoning, it->reasoning, it->reasoning_len,
			       it->reasoning_epoch, width, it->streaming ? LAYOUT_STREAMING : 0,
			       STYLE_DIM | STYLE_ITALIC);
		r->reasoning_count = 1 + r->reasoning.l.nrows;
	} else {
		deco_addf(r, STYLE_DIM, "▸ reasoning (%lld lines)", (long long)it->reasoning_lines);
		if (words.expand_hint && *words.expand_hint) {
			deco_add(r, STYLE_DIM, " — ");
			deco_add(r, STYLE_DIM, words.expand_hint);
		}
		r->reasoning_count = 1;
	}
	deco_end(r, DECO_REASONING, width);
	r->nrows += r->reasoning_count;
}

static void build_body(struct item_rows *r, const struct item_info *it, int width)
{
	r->body_first = r->nrows;
	r->body_count = 0;
	bool hidden = it->kind == ITEM_TOOL_RESULT ||
		      (it->kind == ITEM_SYSTEM && !it->reasoning_expanded);
	size_t len = it->streaming ? it->shown_len : it->text_len;
	if (hidden || !len)
		return;
	unsigned flags = body_flags(it->kind) | (it->streaming ? LAYOUT_STREAMING : 0);
	layout_refresh(&r->body, it->text, len, it->text_epoch, width, flags, 0);
	r->body_count = r->body.l.nrows;
	r->nrows += r->body_count;
}

/* A card's arguments, capped like its output. */
static void build_detail(struct item_rows *r, const struct item_info *it, int width)
{
	r->detail_first = r->nrows;
	r->detail_count = 0;
	r->detail_more_row = 0;
	if (it->kind != ITEM_TOOL || !it->detail_len)
		return;
	layout_refresh(&r->detail, it->detail, it->detail_len, it->detail_epoch, width,
		       LAYOUT_MARKDOWN, 0);
	size_t total = r->detail.l.nrows;
	r->detail_count = total < DETAIL_MAX_ROWS ? total : DETAIL_MAX_ROWS;
	r->nrows += r->detail_count;
	if (total > r->detail_count) {
		deco_begin(r, DECO_MORE_DETAIL);
		deco_addf(r, STYLE_DIM, "… %lld more lines", (long long)(total - r->detail_count));
		deco_end(r, DECO_MORE_DETAIL, width);
		r->detail_more_row = r->nrows++;
	}
}

/* Tool output, dim and capped: the rest is summed up in one row. */
static void build_result(struct item_rows *r, const struct item_info *it, int width)
{
	r->result_first = r->nrows;
	r->result_count = 0;
	r->more_row = 0;
	bool own = it->kind == ITEM_TOOL_RESULT;
	const char *src = own ? it->text : it->result_text;
	size_t len = own ? it->text_len : it->result_len;
	uint64_t epoch = own ? it->text_epoch : it->result_epoch;
	if (!src || !len)
		return;
	layout_refresh(&r->result, src, len, epoch, width, 0, STYLE_DIM);
	size_t total = r->result.l.nrows;
	r->result_count = total < RESULT_MAX_ROWS ? total : RESULT_MAX_ROWS;
	r->nrows += r->result_count;
	if (total > r->result_count) {
		deco_begin(r, DECO_MORE);
		deco_addf(r, STYLE_DIM, "… %lld more lines", (long long)(total - r->result_count));
		deco_end(r, DECO_MORE, width);
		r->more_row = r->nrows++;
	}
}

static struct item_rows *rows_get(struct transcript *t, size_t idx, int width)
{
	if (width < 1)
		width = 1;
	uint64_t version;
	void **cache = transcript_view_cache(t, idx, &version);
	struct item_rows *r = *cache;
	if (r && r->valid && r->width == width && r->version == version)
		return r;
	if (!r) {
		*cache = r = rows_create();
		transcript_set_view_free(t, item_rows_free);
	}
	struct item_info it;
	transcript_item(t, idx, &it);
	layouts_built++;
	r->valid = true;
	r->kind = it.kind;
	r->width = width;
	r->version = version;
	buf_clear(&r->deco);
	r->nspans = 0;
	deco_begin(r, DECO_HEADER);
	compose_header(r, &it, width);
	deco_end(r, DECO_HEADER, width);
	r->nrows = 1;
	build_reasoning(r, &it, width);
	build_body(r, &it, width);
	build_detail(r, &it, width);
	build_result(r, &it, width);
	r->nrows++; /* separator */
	return r;
}

size_t transcript_item_rows(struct transcript *t, size_t idx, int width)
{
	return rows_get(t, idx, width)->nrows;
}

static void from_deco(const struct item_rows *r, enum deco_kind d, struct view_row *out)
{
	out->text = r->deco.data ? r->deco.data : "";
	out->spans = r->spans + r->drow[d].first;
	out->nspans = r->drow[d].count;
}

static void from_layout(const struct layout *l, size_t row, struct view_row *out)
{
	const struct row *lr = &l->rows[row];
	out->text = l->text.data ? l->text.data : "";
	out->spans = l->spans + lr->span_first;
	out->nspans = lr->span_count;
	out->indent = lr->indent;
}

void transcript_item_row(struct transcript *t, size_t idx, size_t r, int width,
			 struct view_row *out)
{
	const struct item_rows *c = rows_get(t, idx, width);
	*out = (struct view_row){ .item = idx, .row_in_item = r, .kind = c->kind,
				  .text = "" };
	if (r == 0) {
		out->header = true;
		from_deco(c, DECO_HEADER, out);
	} else if (r == c->reasoning_first && c->reasoning_count) {
		from_deco(c, DECO_REASONING, out);
	} else if (r > c->reasoning_first && r < c->reasoning_first + c->reasoning_count) {
		from_layout(&c->reasoning.l, r - c->reasoning_first - 1, out);
	} else if (r >= c->body_first && r < c->body_first + c->body_count) {
		from_layout(&c->body.l, r - c->body_first, out);
	} else if (r >= c->detail_first && r < c->detail_first + c->detail_count) {
		from_layout(&c->detail.l, r - c->detail_first, out);
	} else if (c->detail_more_row && r == c->detail_more_row) {
		from_deco(c, DECO_MORE_DETAIL, out);
	} else if (r >= c->result_first && r < c->result_first + c->result_count) {
		from_layout(&c->result.l, r - c->result_first, out);
	} else if (c->more_row && r == c->more_row) {
		from_deco(c, DECO_MORE, out);
	} else {
		out->separator = true;
	}
}
