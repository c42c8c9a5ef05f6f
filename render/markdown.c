/* Inline markdown-lite of one line: **bold**, __bold__, *italic*, _italic_, ~~strike~~,
 * `code`, [text](url) and backslash escapes, after CommonMark's flanking rules (ASCII
 * punctuation only) with openers matched to the nearest closer of the same character and
 * run length. A link shows its text (STYLE_LINK) and "[N]": its URL goes to a footnote the
 * block shows below itself, unless the text is the URL already. Autolinks and bare URLs
 * stay as they are.
 *
 * Streaming rule: a marker that could still open or close, or a run still at the end of
 * a growing line, is hidden while the line grows and shown literally only once the line is
 * complete (a '\n' came or the text is final). So a marker never shows raw and then turns
 * into style. An unmatched backtick run on a growing line hides and the rest of the line is
 * shown as it is, unparsed, because it is most likely the inside of a code span. */
#include "layout_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mark_kind {
	MARK_HIDE,          /* bytes not shown */
	MARK_CODE_OPEN,
	MARK_CODE_CLOSE,
	MARK_DELIM,         /* a run of '*' or '_' */
	MARK_PLAIN_REST,    /* from here to the end: plain, unparsed */
	MARK_LINK_OPEN,     /* the '[' of a link (hidden) */
	MARK_LINK_CLOSE,    /* its "](url)" (hidden); url_off/url_len say where the URL is */
};

enum mark_res {
	RES_UNMATCHED,
	RES_OPEN,
	RES_CLOSE,
};

struct inline_mark {
	uint32_t start, end;
	int32_t below;              /* the opener under this one on its stack, or -1 */
	uint32_t url_off, url_len;  /* MARK_LINK_CLOSE: the URL; complete when the ')' came */
	uint8_t kind;
	uint8_t res;
	bool can_open, can_close, at_end, complete;
};

/* Backtick runs longer than this are searched for a closer every time (there are few). */
#define CODE_RUN_CACHE 16
/* Emphasis runs longer than this are text. */
#define DELIM_MAX 3
/* Delimiter characters: '*', '_', '~'. */
#define DELIM_CHARS 3

void line_buf_init(struct line_buf *lb)
{
	memset(lb, 0, sizeof(*lb));
	buf_init(&lb->text);
}

void line_buf_fini(struct line_buf *lb)
{
	buf_fini(&lb->text);
	free(lb->runs);
	free(lb->marks);
	line_buf_init(lb);
}

void line_buf_clear(struct line_buf *lb)
{
	buf_clear(&lb->text);
	lb->nruns = 0;
	lb->nmarks = 0;
}

void line_buf_put(struct line_buf *lb, const char *s, size_t n, uint16_t style)
{
	if (n == 0)
		return;
	buf_append(&lb->text, s, n);
	if (lb->nruns > 0 && lb->runs[lb->nruns - 1].style == style) {
		lb->runs[lb->nruns - 1].end = (uint32_t)lb->text.len;
		return;
	}
	if (lb->nruns == lb->runs_cap) {
		lb->runs_cap = lb->runs_cap ? lb->runs_cap * 2 : 16;
		lb->runs = xrealloc(lb->runs, lb->runs_cap * sizeof(*lb->runs));
	}
	lb->runs[lb->nruns++] = (struct style_run){ .end = (uint32_t)lb->text.len, .style = style };
}

static struct inline_mark *add_mark(struct line_buf *lb, enum mark_kind kind, size_t start,
				    size_t end)
{
	if (lb->nmarks == lb->marks_cap) {
		lb->marks_cap = lb->marks_cap ? lb->marks_cap * 2 : 32;
		lb->marks = xrealloc(lb->marks, lb->marks_cap * sizeof(*lb->marks));
	}
	struct inline_mark *m = &lb->marks[lb->nmarks++];
	*m = (struct inline_mark){ .start = (uint32_t)start, .end = (uint32_t)end, .below = -1,
				   .kind = (uint8_t)kind };
	return m;
}

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t';
}

static bool is_punct(unsigned char c)
{
	return c < 0x80 && c > ' ' && c < 0x7F && !(c >= '0' && c <= '9') &&
	       !ascii_is_letter(c);
}

static size_t run_length(const char *s, size_t i, size_t n, char c)
{
	size_t j = i;
	while (j < n && s[j] == c)
		j++;
	return j - i;
}

/* Start of the next run of exactly k backticks at or after from, or n. */
static size_t code_closer(const char *s, size_t from, size_t n, size_t k)
{
	while (from < n) {
		const char *p = memchr(s + from, '`', n - from);
		if (!p)
			return n;
		size_t at = (size_t)(p - s);
		size_t r = run_length(s, at, n, '`');
		if (r == k)
			return at;
		from = at + r;
	}
	return n;
}

/* A run of '*' or '_' at s[i..j): may it open, close? CommonMark's left/right flanking.
 * At the end of a growing line the next character is unknown: assume a letter. */
static void delim_flanking(struct inline_mark *m, const char *s, size_t n, bool growing)
{
	size_t i = m->start, j = m->end;
	unsigned char prev = i > 0 ? (unsigned char)s[i - 1] : ' ';
	unsigned char next = j < n ? (unsigned char)s[j] : growing ? 'a' : ' ';
	bool left = !is_space(next) && (!is_punct(next) || is_space(prev) || is_punct(prev));
	bool right = !is_space(prev) && (!is_punct(prev) || is_space(next) || is_punct(next));
	if (s[i] == '*' || s[i] == '~') {
		m->can_open = left;
		m->can_close = right;
	} else {
		m->can_open = left && (!right || is_punct(prev));
		m->can_close = right && (!left || is_punct(next));
	}
	m->at_end = growing && j == n;
	if (j - i > DELIM_MAX || (s[i] == '~' && j - i != 2))
		m->can_open = m->can_close = false;
}

/* End of a link's text: the first ']' after the '[' at i, or n when there is none; a '[' or
 * '`' before it means no link starts at i (*plain). */
static size_t link_text_end(const char *s, size_t i, size_t n, bool *plain)
{
	*plain = false;
	for (size_t p = i + 1; p < n; p++) {
		if (s[p] == '\\') {
			p++;
			continue;
		}
		if (s[p] == ']')
			return p;
		if (s[p] == '[' || s[p] == '`') {
			*plain = true;
			return n;
		}
	}
	return n;
}

/* The ')' closing a link destination that starts at a (parentheses may nest once), or n. */
static size_t link_dest_end(const char *s, size_t a, size_t n)
{
	int depth = 0;
	for (size_t r = a; r < n; r++) {
		if (s[r] == '\\') {
			r++;
		} else if (s[r] == '(') {
			depth++;
		} else if (s[r] == ')') {
			if (depth == 0)
				return r;
			depth--;
		}
	}
	return n;
}

/* A link closer for "](dest)" at p..q: the URL is dest's first word, without <>. */
static void add_link_close(struct line_buf *lb, const char *s, size_t p, size_t q, size_t dest,
			   size_t dest_end, bool complete)
{
	size_t a = dest;
	while (a < dest_end && (s[a] == ' ' || s[a] == '\t'))
		a++;
	size_t b = a;
	while (b < dest_end && s[b] != ' ' && s[b] != '\t')
		b++;
	if (b > a + 1 && s[a] == '<' && s[b - 1] == '>')
		a++, b--;
	struct inline_mark *m = add_mark(lb, MARK_LINK_CLOSE, p, q);
	m->url_off = (uint32_t)a;
	m->url_len = (uint32_t)(b - a);
	m->complete = complete;
}

/* What a '[' at i starts: a link (its closer is queued at *close_at), a marker hidden while
 * the text grows, or plain text. Returns the index to scan on from. */
static size_t scan_link(struct line_buf *lb, const char *s, size_t i, size_t n, bool growing,
			size_t *close_at, size_t *close_end)
{
	bool plain;
	size_t p = link_text_end(s, i, n, &plain);
	if (plain)
		return i + 1;
	if (p == n || p + 1 == n) {
		/* "[text" or "[text]" may still become a link */
		if (growing) {
			add_mark(lb, MARK_HIDE, i, i + 1);
			if (p + 1 == n) {
				*close_at = p;
				*close_end = n;
			}
		}
		return i + 1;
	}
	if (s[p + 1] != '(')
		return i + 1;
	size_t r = link_dest_end(s, p + 2, n);
	/* a destination still being typed is a URL: once a blank comes without a ')', what
	 * follows is text, not hidden for the rest of the paragraph */
	if (r == n && (!growing || memchr(s + p + 2, ' ', n - p - 2) ||
		       memchr(s + p + 2, '\t', n - p - 2)))
		return i + 1;
	add_mark(lb, MARK_LINK_OPEN, i, i + 1);
	*close_at = p;
	*close_end = r < n ? r + 1 : n;
	/* the closer itself is added when the scan reaches it, to keep the marks in order */
	lb->marks[lb->nmarks - 1].url_off = (uint32_t)(p + 2);
	lb->marks[lb->nmarks - 1].url_len = (uint32_t)(r - (p + 2));
	lb->marks[lb->nmarks - 1].complete = r < n;
	return i + 1;
}

/* Finds escapes, code spans and emphasis runs, in order. */
static void scan_marks(struct line_buf *lb, const char *s, size_t n, bool growing)
{
	bool no_closer[CODE_RUN_CACHE + 1] = { false };
	size_t i = 0;
	size_t close_at = SIZE_MAX, close_end = 0, open_mark = 0;
	while (i < n) {
		char c = s[i];
		if (i == close_at) {
			const struct inline_mark *o = &lb->marks[open_mark];
			if (o->kind == MARK_LINK_OPEN)
				add_link_close(lb, s, i, close_end, o->url_off, o->url_off + o->url_len,
					       o->complete);
			else
				add_mark(lb, MARK_HIDE, i, close_end);
			close_at = SIZE_MAX;
			i = close_end;
			continue;
		}
		if (c == '[' && close_at == SIZE_MAX) {
			open_mark = lb->nmarks;
			i = scan_link(lb, s, i, n, growing, &close_at, &close_end);
			continue;
		}
		if (c == '\\') {
			if (i + 1 < n && is_punct((unsigned char)s[i + 1])) {
				add_mark(lb, MARK_HIDE, i, i + 1);
				i += 2;
				continue;
			}
			if (i + 1 == n && growing)
				add_mark(lb, MARK_HIDE, i, n);
			i++;
		} else if (c == '`') {
			size_t k = run_length(s, i, n, '`');
			size_t j = i + k;
			size_t q = k <= CODE_RUN_CACHE && no_closer[k] ? n : code_closer(s, j, n, k);
			if (q < n) {
				/* one space inside each end is padding when both ends have it */
				bool pad = q - j >= 2 && s[j] == ' ' && s[q - 1] == ' ' &&
					   run_length(s, j, q, ' ') < q - j;
				add_mark(lb, MARK_CODE_OPEN, i, j + pad);
				add_mark(lb, MARK_CODE_CLOSE, q - pad, q + k);
				i = q + k;
				continue;
			}
			if (k <= CODE_RUN_CACHE)
				no_closer[k] = true;
			if (growing) {
				add_mark(lb, MARK_HIDE, i, j);
				add_mark(lb, MARK_PLAIN_REST, j, n);
				return;
			}
			i = j;
		} else if (c == '*' || c == '_' || c == '~') {
			size_t j = i + run_length(s, i, n, c);
			delim_flanking(add_mark(lb, MARK_DELIM, i, j), s, n, growing);
			i = j;
		} else {
			i++;
		}
	}
}

static int delim_stack(const char *s, const struct inline_mark *m)
{
	int ch = s[m->start] == '_' ? 1 : s[m->start] == '~' ? 2 : 0;
	return ch * DELIM_MAX + (int)(m->end - m->start) - 1;
}

/* Matches each closer with the nearest open opener of the same character and length;
 * openers left between the two can no longer match (emphasis nests). */
static void match_delims(struct line_buf *lb, const char *s)
{
	int32_t top[DELIM_CHARS * DELIM_MAX];
	for (int k = 0; k < DELIM_CHARS * DELIM_MAX; k++)
		top[k] = -1;
	for (size_t i = 0; i < lb->nmarks; i++) {
		struct inline_mark *m = &lb->marks[i];
		if (m->kind != MARK_DELIM || (!m->can_open && !m->can_close))
			continue;
		int k = delim_stack(s, m);
		int32_t o = top[k];
		if (m->can_close && o >= 0) {
			lb->marks[o].res = RES_OPEN;
			m->res = RES_CLOSE;
			for (int t = 0; t < DELIM_CHARS * DELIM_MAX; t++) {
				while (top[t] >= o)
					top[t] = lb->marks[top[t]].below;
			}
			continue;
		}
		if (m->can_open) {
			m->below = top[k];
			top[k] = (int32_t)i;
		}
	}
}

static uint16_t delim_style(const char *s, const struct inline_mark *m)
{
	static const uint16_t by_len[DELIM_MAX + 1] = { 0, STYLE_ITALIC, STYLE_BOLD,
							STYLE_BOLD | STYLE_ITALIC };
	return s[m->start] == '~' ? STYLE_STRIKE : by_len[m->end - m->start];
}

/* A complete link whose text is not its URL gets "[N]" and a footnote. */
static void link_note(struct line_buf *lb, const char *s, const struct inline_mark *m,
		      size_t text_start, uint16_t style)
{
	struct link_list *ll = lb->links;
	if (!ll || !m->complete || m->url_len == 0)
		return;
	if (m->start - text_start == m->url_len &&
	    !memcmp(s + text_start, s + m->url_off, m->url_len))
		return;
	if (ll->n == ll->cap) {
		ll->cap = ll->cap ? ll->cap * 2 : 8;
		ll->v = xrealloc(ll->v, ll->cap * sizeof(*ll->v));
	}
	int num = ++ll->next;
	ll->v[ll->n++] = (struct md_link){ .url = s + m->url_off, .len = m->url_len, .num = num };
	char tag[16];
	int k = snprintf(tag, sizeof tag, "[%d]", num);
	line_buf_put(lb, tag, (size_t)k, style | STYLE_DIM);
}

/* Whether an unmatched run is hidden rather than shown as text. */
static bool delim_hidden(const struct inline_mark *m, bool growing)
{
	return growing && (m->can_open || m->at_end);
}

void markdown_inline(struct line_buf *lb, const char *s, size_t n, uint16_t base, bool growing)
{
	lb->nmarks = 0;
	scan_marks(lb, s, n, growing);
	match_delims(lb, s);
	int bold = 0, italic = 0, strike = 0;
	bool code = false, link = false;
	size_t pos = 0, link_text = 0;
	for (size_t i = 0; i < lb->nmarks; i++) {
		const struct inline_mark *m = &lb->marks[i];
		uint16_t style = base | (bold ? STYLE_BOLD : 0) | (italic ? STYLE_ITALIC : 0) |
				 (strike ? STYLE_STRIKE : 0) | (code ? STYLE_CODE : 0) |
				 (link ? STYLE_LINK : 0);
		line_buf_put(lb, s + pos, m->start - pos, style);
		pos = m->end;
		switch (m->kind) {
		case MARK_LINK_OPEN:
			link = true;
			link_text = m->end;
			break;
		case MARK_LINK_CLOSE:
			link = false;
			link_note(lb, s, m, link_text, base);
			break;
		case MARK_CODE_OPEN:
			code = true;
			break;
		case MARK_CODE_CLOSE:
			code = false;
			break;
		case MARK_PLAIN_REST:
			line_buf_put(lb, s + m->start, n - m->start, base);
			pos = n;
			break;
		case MARK_DELIM: {
			if (m->res == RES_UNMATCHED) {
				if (!delim_hidden(m, growing))
					pos = m->start;
				break;
			}
			int sign = m->res == RES_OPEN ? 1 : -1;
			uint16_t ds = delim_style(s, m);
			bold += (ds & STYLE_BOLD) ? sign : 0;
			italic += (ds & STYLE_ITALIC) ? sign : 0;
			strike += (ds & STYLE_STRIKE) ? sign : 0;
			break;
		}
		default:
			break;
		}
	}
	uint16_t style = base | (bold ? STYLE_BOLD : 0) | (italic ? STYLE_ITALIC : 0) |
			 (strike ? STYLE_STRIKE : 0) | (link ? STYLE_LINK : 0);
	line_buf_put(lb, s + pos, n - pos, style);
}
