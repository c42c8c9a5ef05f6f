/* highlight: code lines as tokens — keywords, strings, comments, numbers — by a small lexer
 * per language, one line at a time. What a line leaves open (a block comment, a long
 * string) is a small state the caller carries to the next line, so a growing block is
 * highlighted a line at a time as it is laid out, never as a whole. */
#include "layout_int.h"

#include <string.h>

/* What a line leaves open for the next. */
enum { HL_NONE, HL_BLOCK_COMMENT, HL_TRIPLE_DQ, HL_TRIPLE_SQ, HL_TEMPLATE };

struct lang {
	const char *names;          /* fence info words, space-separated */
	const char *exts;           /* file extensions */
	const char *keywords;
	const char *line_comment;   /* "#", "//"; NULL: none */
	const char *quotes;         /* characters that open a string */
	bool block_comment;         /* slash-star comments */
	bool triple;                /* Python's triple quotes */
	bool template;              /* JS's backquoted strings span lines */
	bool dollar;                /* shell's $VAR and ${…} */
};

static const struct lang langs[LANG_COUNT] = {
	[LANG_PYTHON] = { "python py python3 py3", "py pyi", "False None True and as assert async "
		"await break class continue def del elif else except finally for from global if "
		"import in is lambda nonlocal not or pass raise return try while with yield match case "
		"self", "#", "\"'", .triple = true },
	[LANG_SHELL] = { "sh bash shell zsh console shellsession", "sh bash zsh", "if then else elif "
		"fi for while until do done case esac function in return export local readonly set "
		"unset source exit break continue echo cd", "#", "\"'", .dollar = true },
	[LANG_C] = { "c h cpp c++ cc cxx hpp", "c h cc cpp cxx hh hpp", "auto break case char const "
		"continue default do double else enum extern float for goto if inline int long "
		"register restrict return short signed sizeof static struct switch typedef union "
		"unsigned void volatile while bool true false NULL nullptr class namespace template "
		"typename public private protected virtual new delete this using size_t uint8_t "
		"uint16_t uint32_t uint64_t int64_t int32_t #include #define #if #ifdef #ifndef #endif "
		"#else #elif #pragma", "//", "\"'", .block_comment = true },
	[LANG_JS] = { "js javascript jsx ts typescript tsx mjs cjs", "js jsx ts tsx mjs cjs", "break "
		"case catch class const continue debugger default delete do else export extends "
		"false finally for function if import in instanceof let new null return super switch "
		"this throw true try typeof undefined var void while with yield async await of "
		"interface type enum implements private public readonly from as", "//", "\"'",
		.block_comment = true, .template = true },
	[LANG_GO] = { "go golang", "go", "break case chan const continue default defer else "
		"fallthrough for func go goto if import interface map package range return select "
		"struct switch type var nil true false iota error string int bool byte", "//", "\"'",
		.block_comment = true, .template = true },
	[LANG_RUST] = { "rust rs", "rs", "as async await break const continue crate dyn else enum "
		"extern false fn for if impl in let loop match mod move mut pub ref return self Self "
		"static struct super trait true type unsafe use where while Some None Ok Err", "//",
		"\"", .block_comment = true },
	[LANG_JSON] = { "json jsonc json5 ndjson", "json", "true false null", NULL, "\"" },
	[LANG_YAML] = { "yaml yml", "yaml yml", "true false null yes no on off", "#", "\"'" },
	[LANG_DIFF] = { "diff patch udiff", "diff patch", "", NULL, "" },
	[LANG_MARKDOWN] = { "markdown md", "md markdown", "", NULL, "" },
};

/* Whether word w[0..n) is one of the space-separated words of list. */
static bool in_list(const char *list, const char *w, size_t n)
{
	if (!list || !n)
		return false;
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && memcmp(p, w, n) == 0)
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

enum code_lang code_lang_named(const char *s, size_t n)
{
	char w[24];
	if (!n || n >= sizeof w)
		return LANG_NONE;
	for (size_t i = 0; i < n; i++)
		w[i] = lower(s[i]);
	for (int l = 1; l < LANG_COUNT; l++)
		if (in_list(langs[l].names, w, n))
			return (enum code_lang)l;
	return LANG_NONE;
}

enum code_lang text_view_lang(const char *s, size_t n)
{
	static const char head[] = "Here's the result of running `cat -n` on ";
	size_t h = sizeof head - 1;
	if (n <= h || memcmp(s, head, h) != 0)
		return LANG_NONE;
	const char *nl = memchr(s + h, '\n', n - h);
	size_t end = nl ? (size_t)(nl - s) : n;
	if (end <= h || s[end - 1] != ':')
		return LANG_NONE;
	end--;
	size_t start = end; /* "a snippet of PATH": the last word */
	while (start > h && s[start - 1] != ' ')
		start--;
	return code_lang_of_path(s + start, end - start);
}

bool text_opens_diff(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == '`' || s[i] == '~'))
		i++;
	const char *nl = memchr(s, '\n', n);
	size_t end = nl ? (size_t)(nl - s) : n;
	return i >= 3 && i <= end && code_lang_named(s + i, end - i) == LANG_DIFF;
}

enum code_lang code_lang_of_path(const char *path, size_t n)
{
	size_t dot = n;
	while (dot > 0 && path[dot - 1] != '.' && path[dot - 1] != '/')
		dot--;
	if (dot == 0 || path[dot - 1] != '.' || dot == n || n - dot >= 12)
		return LANG_NONE;
	char w[12];
	for (size_t i = dot; i < n; i++)
		w[i - dot] = lower(path[i]);
	for (int l = 1; l < LANG_COUNT; l++)
		if (in_list(langs[l].exts, w, n - dot))
			return (enum code_lang)l;
	return LANG_NONE;
}

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || (unsigned char)c >= 0x80;
}

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
	while (j < n && (is_word(s[j]) || s[j] == '-' || s[j] == '.' || s[j] == ' ') && s[j] != ':')
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
	const struct lang *L = &langs[lang];
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
				while (e < n && is_word(s[e]))
					e++;
			}
			t = e > i + 1 ? TOKEN_NUMBER : TOKEN_NONE;
		} else if (is_digit(c) && (i == 0 || !is_word(s[i - 1]))) {
			while (e < n && (is_word(s[e]) || s[e] == '.'))
				e++;
			t = TOKEN_NUMBER;
		} else if (is_word(c) || (c == '#' && lang == LANG_C)) {
			e = i + 1;
			while (e < n && is_word(s[e]))
				e++;
			bool key = lang != LANG_SHELL || i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t' ||
				   s[i - 1] == ';';
			if (key && in_list(L->keywords, s + i, e - i))
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
