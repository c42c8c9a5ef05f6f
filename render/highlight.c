/* highlight: code lines as tokens — keywords, strings, comments, numbers — by a small lexer
 * per language, one line at a time. What a line leaves open (a block comment, a long
 * string) is a small state the caller carries to the next line, so a growing block is
 * highlighted a line at a time as it is laid out, never as a whole. */
#include "layout_int.h"

#include <string.h>

/* What a line leaves open for the next. */
enum { HL_NONE, HL_BLOCK_COMMENT, HL_TRIPLE_DQ, HL_TRIPLE_SQ, HL_TEMPLATE };

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void put(struct line_buf *lb, const char *s, size_t a, size_t b, uint16_t base,
		enum token t)
{
	line_buf_put(lb, s + a, b - a, (uint16_t)(base | STYLE_TOKEN(t)));
}

/* Where a string opened by q (one quote, or three when triple) ends in s[i..n); n when
 * it does not end on this line (*closed false). */
static size_t string_end(const char *s, size_t i, size_t n, char q, bool triple, bool *closed)
{
	*closed = true;
	while (i < n) {
		if (s[i] == '\\') {
			i += 2;
			continue;
		}
		if (s[i] == q && (!triple || (i + 2 < n && s[i + 1] == q && s[i + 2] == q)))
			return i + (triple ? 3 : 1);
		i++;
	}
	*closed = false;
	return n;
}

/* The end of what *state leaves open, from the line's start; *state becomes HL_NONE when it
 * closes on this line. */
static size_t open_end(const char *s, size_t n, unsigned *state)
{
	if (*state == HL_BLOCK_COMMENT) {
		for (size_t i = 0; i + 1 < n; i++)
			if (s[i] == '*' && s[i + 1] == '/') {
				*state = HL_NONE;
				return i + 2;
			}
		return n;
	}
	char q = *state == HL_TRIPLE_DQ ? '"' : *state == HL_TRIPLE_SQ ? '\'' : '`';
	bool closed;
	size_t end = string_end(s, 0, n, q, *state != HL_TEMPLATE, &closed);
	if (closed)
		*state = HL_NONE;
	return end;
}

/* A YAML key: "name:" at the line's start, after its indent and any "- ". */
static size_t yaml_key(const char *s, size_t i, size_t n)
{
	size_t j = i;
	while (j < n && (code_word_byte(s[j]) || s[j] == '-' || s[j] == '.' || s[j] == ' ') && s[j] != ':')
		j++;
	return j > i && j < n && s[j] == ':' && (j + 1 == n || s[j + 1] == ' ') ? j : i;
}

static void markdown_line(struct line_buf *lb, const char *s, size_t n, uint16_t base)
{
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i < n && (s[i] == '#' || s[i] == '>')) {
		put(lb, s, 0, n, base, s[i] == '#' ? TOKEN_KEYWORD : TOKEN_COMMENT);
		return;
	}
	size_t from = 0;
	while (i < n) {
		if (s[i] != '`') {
			i++;
			continue;
		}
		const char *close = memchr(s + i + 1, '`', n - i - 1);
		size_t e = close ? (size_t)(close - s) + 1 : n;
		put(lb, s, from, i, base, TOKEN_NONE);
		put(lb, s, i, e, base, TOKEN_STRING);
		from = i = e;
	}
	put(lb, s, from, n, base, TOKEN_NONE);
}

void highlight_line(struct line_buf *lb, enum code_lang lang, unsigned *state, const char *s,
		    size_t n, uint16_t base)
{
	if (lang <= LANG_NONE || lang >= LANG_COUNT || lang == LANG_DIFF) {
		put(lb, s, 0, n, base, TOKEN_NONE);
		return;
	}
	if (lang == LANG_MARKDOWN) {
		markdown_line(lb, s, n, base);
		return;
	}
	const struct code_lang_def *L = &code_langs[lang];
	size_t i = 0, plain = 0;
	if (*state != HL_NONE) {
		enum token t = *state == HL_BLOCK_COMMENT ? TOKEN_COMMENT : TOKEN_STRING;
		i = plain = open_end(s, n, state);
		put(lb, s, 0, i, base, t);
	}
	if (lang == LANG_YAML) {
		size_t k = i;
		while (k < n && (s[k] == ' ' || s[k] == '-'))
			k++;
		size_t e = yaml_key(s, k, n);
		if (e > k) {
			put(lb, s, plain, k, base, TOKEN_NONE);
			put(lb, s, k, e, base, TOKEN_KEYWORD);
			i = plain = e;
		}
	}
	size_t lc = L->line_comment ? strlen(L->line_comment) : 0;
	while (i < n) {
		char c = s[i];
		size_t e = i;
		enum token t = TOKEN_NONE;
		if (lc && n - i >= lc && memcmp(s + i, L->line_comment, lc) == 0 &&
		    (lang != LANG_SHELL && lang != LANG_YAML ? true : i == 0 || s[i - 1] == ' ' ||
		     s[i - 1] == '\t')) {
			e = n, t = TOKEN_COMMENT;
		} else if (L->block_comment && c == '/' && i + 1 < n && s[i + 1] == '*') {
			*state = HL_BLOCK_COMMENT;
			size_t rest = open_end(s + i + 2, n - i - 2, state);
			e = i + 2 + rest, t = TOKEN_COMMENT;
		} else if (L->triple && (c == '"' || c == '\'') && i + 2 < n && s[i + 1] == c &&
			   s[i + 2] == c) {
			bool closed;
			e = string_end(s, i + 3, n, c, true, &closed), t = TOKEN_STRING;
			if (!closed)
				*state = c == '"' ? HL_TRIPLE_DQ : HL_TRIPLE_SQ;
		} else if (L->template && c == '`') {
			bool closed;
			e = string_end(s, i + 1, n, '`', false, &closed), t = TOKEN_STRING;
			if (!closed && lang == LANG_JS)
				*state = HL_TEMPLATE;
		} else if (L->quotes && c && strchr(L->quotes, c) &&
			   !(c == '\'' && lang == LANG_RUST)) {
			bool closed;
			e = string_end(s, i + 1, n, c, false, &closed), t = TOKEN_STRING;
			if (lang == LANG_JSON) {
				size_t k = e;
				while (k < n && s[k] == ' ')
					k++;
				if (k < n && s[k] == ':')
					t = TOKEN_KEYWORD;
			}
		} else if (L->dollar && c == '$' && i + 1 < n) {
			e = i + 1;
			if (s[e] == '{') {
				const char *close = memchr(s + e, '}', n - e);
				e = close ? (size_t)(close - s) + 1 : n;
			} else {
				while (e < n && code_word_byte(s[e]))
					e++;
			}
			t = e > i + 1 ? TOKEN_NUMBER : TOKEN_NONE;
		} else if (is_digit(c) && (i == 0 || !code_word_byte(s[i - 1]))) {
			while (e < n && (code_word_byte(s[e]) || s[e] == '.'))
				e++;
			t = TOKEN_NUMBER;
		} else if (code_word_byte(c) || (c == '#' && lang == LANG_C)) {
			e = i + 1;
			while (e < n && code_word_byte(s[e]))
				e++;
			bool key = lang != LANG_SHELL || i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t' ||
				   s[i - 1] == ';';
			if (key && code_keyword(lang, s + i, e - i))
				t = TOKEN_KEYWORD;
		} else {
			i++;
			continue;
		}
		if (t != TOKEN_NONE) {
			put(lb, s, plain, i, base, TOKEN_NONE);
			put(lb, s, i, e, base, t);
			plain = e;
		}
		i = e;
	}
	put(lb, s, plain, n, base, TOKEN_NONE);
}
