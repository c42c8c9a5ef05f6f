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
#define DECO_MAX_SPANS 32

/* Rows composed here rather than laid out: header, reasoning marker, "more lines" of the
 * result and of the arguments, the rule that sets a card's output apart from its thought. */
enum deco_kind { DECO_HEADER, DECO_REASONING, DECO_MORE, DECO_MORE_DETAIL, DECO_OUTPUT,
		 DECO_COUNT };

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
	uint64_t look_epoch;                            /* words and clock they were built with */
	struct buf deco;
	struct span spans[DECO_MAX_SPANS];
	size_t nspans;
	struct deco_row drow[DECO_COUNT];
	struct cached_layout body, reasoning, result, detail;
	size_t reasoning_first, reasoning_count;        /* marker row included */
	size_t body_first, body_count;
	size_t detail_first, detail_count;
	size_t detail_more_row;                         /* 0: none */
	size_t output_row;                              /* the output's rule; 0: none */
	size_t result_first, result_count;
	size_t more_row;                                /* 0: none */
	size_t nrows;                                   /* separator included */
};

static const char *const risk_labels[] = { NULL, NULL, NULL, "[MEDIUM]", "[HIGH]" };

static struct render_words words;
static render_clock_fn clock_fn;
static uint64_t look_epoch = 1;
static uint64_t layouts_built;

void render_set_words(const struct render_words *w)
{
	words = w ? *w : (struct render_words){ 0 };
	look_epoch++;
}

void render_set_clock(render_clock_fn fn)
{
	clock_fn = fn;
	look_epoch++;
}

bool render_clock_shown(void)
{
	return clock_fn != NULL;
}

/* "1 line", "2 lines" */
static const char *lines_word(long long n)
{
	return n == 1 ? "line" : "lines";
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

/* A count of lines with its noun: "(1 line)", "… 3 more lines". */
static void deco_add_lines(struct item_rows *r, uint16_t style, const char *fmt, long long v)
{
	char tmp[96];
	snprintf(tmp, sizeof tmp, fmt, v, lines_word(v));
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
	if (text_fits(r->deco.data + start, end - start, width))
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
	char when[32];
	if (clock_fn && it->timestamp && clock_fn(it->timestamp, when, sizeof when) && *when) {
		deco_add(r, STYLE_DIM, when);
		deco_add(r, STYLE_DIM, " ");
	}
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
			deco_add_lines(r, STYLE_DIM, "▸ system prompt (%lld %s)",
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

/* The agent's prose reflows; what the user typed keeps its line breaks. */
static unsigned body_flags(enum item_kind kind)
{
	unsigned md = kind == ITEM_USER || kind == ITEM_AGENT || kind == ITEM_TOOL ? LAYOUT_MARKDOWN : 0;
	return md | (kind == ITEM_AGENT || kind == ITEM_TOOL ? LAYOUT_REFLOW : 0);
}

static void build_reasoning(struct item_rows *r, const struct item_info *it, int width)
{
	r->reasoning_first = r->nrows;
	r->reasoning_count = 0;
	if (!it->reasoning_len || it->kind == ITEM_SYSTEM)
		return;
	deco_begin(r, DECO_REASONING);
	if (it->reasoning_expanded || it->expanded) {
		deco_add(r, STYLE_DIM, "▾ reasoning");
		layout_refresh(&r->reasoning, it->reasoning, it->reasoning_len,
			       it->reasoning_epoch, width, it->streaming ? LAYOUT_STREAMING : 0,
			       STYLE_DIM | STYLE_ITALIC);
		r->reasoning_count = 1 + r->reasoning.l.nrows;
	} else {
		deco_add_lines(r, STYLE_DIM, "▸ reasoning (%lld %s)", (long long)it->reasoning_lines);
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
	/* A card's text is the agent's thought: set apart from the output by its look. */
	layout_refresh(&r->body, it->text, len, it->text_epoch, width, flags,
		       it->kind == ITEM_TOOL ? STYLE_ITALIC : 0);
	r->body_count = r->body.l.nrows;
	r->nrows += r->body_count;
}

/* Rows shown of total: all when the item is expanded, else at most max. */
static size_t capped(const struct item_info *it, size_t total, size_t max)
{
	return it->expanded || total <= max ? total : max;
}

/* Lines of src[0..len), a final newline ending the last one rather than starting another. */
static size_t count_lines(const char *src, size_t len)
{
	if (!len)
		return 0;
	size_t n = count_newlines(src, len);
	return src[len - 1] == '\n' ? n : n + 1;
}

/* Whole lines of src that its first rows rows show at width (wrapped lines take more than
 * one): a prefix laid out a line at a time, which only the first few lines cost. */
static size_t lines_within(const char *src, size_t len, int width, unsigned flags, size_t rows)
{
	struct layout tmp;
	layout_init(&tmp);
	size_t lines = 0, pos = 0;
	while (pos < len) {
		const char *nl = memchr(src + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - src) + 1 : len;
		layout_update(&tmp, src, end, width, flags);
		if (tmp.nrows > rows)
			break;
		lines++;
		pos = end;
	}
	layout_fini(&tmp);
	return lines;
}

/* The row after a capped section, in lines (not rows: a wrapped line is one line): how many
 * are hidden and how to see them; on an expanded item, how many there are and how to fold. */
static void add_more(struct item_rows *r, const char *src, size_t len, int width,
		     unsigned flags, bool expanded, size_t shown_rows)
{
	size_t total = count_lines(src, len);
	/* a closing fence shows no row: it is not a line of the text's */
	size_t end = len;
	while (end && src[end - 1] == '\n')
		end--;
	size_t start = end;
	while (start && src[start - 1] != '\n')
		start--;
	bool fence = end - start >= 3 && (src[start] == '`' || src[start] == '~');
	for (size_t i = start; fence && i < end; i++)
		fence = src[i] == src[start];
	if (fence && (flags & (LAYOUT_MARKDOWN | LAYOUT_FENCES)) && total)
		total--;
	if (!expanded) {
		size_t hidden = total - lines_within(src, len, width, flags, shown_rows);
		deco_add_lines(r, STYLE_DIM, "… %lld more %s", (long long)hidden);
	} else {
		deco_add_lines(r, STYLE_DIM, "▴ %lld %s", (long long)total);
	}
}

/* A card's arguments, capped like its output. */
static void build_detail(struct item_rows *r, const struct item_info *it, int width)
{
	r->detail_first = r->nrows;
	r->detail_count = 0;
	r->detail_more_row = 0;
	if (it->kind != ITEM_TOOL || !it->detail_len)
		return;
	/* An edit's result is its diff again, with line numbers: it takes the arguments' place. */
	if (it->result_len && text_opens_diff(it->result_text, it->result_len) &&
	    text_opens_diff(it->detail, it->detail_len))
		return;
	layout_refresh(&r->detail, it->detail, it->detail_len, it->detail_epoch, width,
		       LAYOUT_MARKDOWN, STYLE_DIM);
	size_t total = r->detail.l.nrows;
	r->detail_count = capped(it, total, DETAIL_MAX_ROWS);
	r->nrows += r->detail_count;
	if (total > DETAIL_MAX_ROWS) {
		deco_begin(r, DECO_MORE_DETAIL);
		add_more(r, it->detail, it->detail_len, width, LAYOUT_MARKDOWN, it->expanded,
			 r->detail_count);
		deco_end(r, DECO_MORE_DETAIL, width);
		r->detail_more_row = r->nrows++;
	}
}

/* What a card's result text is: a rejection's text is why, an agent error's what went wrong;
 * neither is the tool's output. */
const char *card_result_name(const struct item_info *it)
{
	if (it->outcome == TOOL_REJECTED || it->outcome == TOOL_BLOCKED)
		return "reason";
	return it->agent_error ? "error" : "output";
}

/* The rule above a card's output (or a rejection's reason), so that it never reads as the
 * agent's words. */
static void add_output_rule(struct item_rows *r, const struct item_info *it, int width)
{
	char head[32];
	snprintf(head, sizeof head, "── %s ", card_result_name(it));
	deco_begin(r, DECO_OUTPUT);
	deco_add(r, STYLE_DIM, head);
	struct buf rule;
	buf_init(&rule);
	for (int i = text_width(head, strlen(head)); i < width; i++)
		buf_puts(&rule, "─");
	deco_add(r, STYLE_DIM, buf_cstr(&rule));
	buf_fini(&rule);
	deco_end(r, DECO_OUTPUT, width);
	r->output_row = r->nrows++;
}

/* Tool output, dim and capped unless the item is expanded: the rest is summed up in one
 * row. */
static void build_result(struct item_rows *r, const struct item_info *it, int width)
{
	r->output_row = 0;
	r->result_count = 0;
	r->more_row = 0;
	bool own = it->kind == ITEM_TOOL_RESULT;
	const char *src = own ? it->text : it->result_text;
	size_t len = own ? it->text_len : it->result_len;
	uint64_t epoch = own ? it->text_epoch : it->result_epoch;
	if (!src || !len) {
		r->result_first = r->nrows;
		return;
	}
	if (!own)
		add_output_rule(r, it, width);
	r->result_first = r->nrows;
	/* an edit's diff shows as a diff; any other output as it came */
	unsigned flags = text_opens_diff(src, len) ? LAYOUT_FENCES
						   : LAYOUT_LANG(text_view_lang(src, len));
	layout_refresh(&r->result, src, len, epoch, width, flags, STYLE_DIM);
	size_t total = r->result.l.nrows;
	size_t max = flags & LAYOUT_FENCES ? DETAIL_MAX_ROWS : RESULT_MAX_ROWS;
	r->result_count = capped(it, total, max);
	r->nrows += r->result_count;
	if (total > max) {
		deco_begin(r, DECO_MORE);
		add_more(r, src, len, width, flags, it->expanded, r->result_count);
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
	if (r && r->valid && r->width == width && r->version == version &&
	    r->look_epoch == look_epoch)
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
	r->look_epoch = look_epoch;
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

bool transcript_item_capped(struct transcript *t, size_t idx, int width)
{
	const struct item_rows *c = rows_get(t, idx, width);
	return c->more_row || c->detail_more_row;
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
		out->more = true;
	} else if (c->output_row && r == c->output_row) {
		from_deco(c, DECO_OUTPUT, out);
	} else if (r >= c->result_first && r < c->result_first + c->result_count) {
		from_layout(&c->result.l, r - c->result_first, out);
	} else if (c->more_row && r == c->more_row) {
		from_deco(c, DECO_MORE, out);
		out->more = true;
	} else {
		out->separator = true;
	}
}
