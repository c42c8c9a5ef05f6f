/* code_lang: the languages code is highlighted in — their names, file extensions, keywords
 * and what their lexer looks for — and how a text says which one it is in. */
#include "layout_int.h"

#include <string.h>

const struct code_lang_def code_langs[LANG_COUNT] = {
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
bool code_word_in_list(const char *list, const char *w, size_t n)
{
	if (!list || !n)
		return false;
	for (const char *p = list; *p;) {
		const char *e = p;
		while (*e && *e != ' ')
			e++;
		if ((size_t)(e - p) == n && *p == *w && memcmp(p, w, n) == 0)
			return true;
		p = *e ? e + 1 : e;
	}
	return false;
}

/* A language's keywords hashed, built at its first lookup: highlighting looks up every word
 * of every code line, and a list is tens of words. Open addressing; a slot holds a word's
 * offset in the list plus one (0: empty) and its length. */
enum { KEYWORD_SLOTS = 256 };
static struct keyword_set {
	bool built;
	uint16_t at[KEYWORD_SLOTS];
	uint8_t len[KEYWORD_SLOTS];
} keyword_sets[LANG_COUNT];

static unsigned word_hash(const char *w, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)w[i]) * 16777619u;
	return h;
}

static void keyword_set_build(struct keyword_set *k, const char *list)
{
	k->built = true;
	size_t words = 0;
	for (const char *p = list; *p && words < KEYWORD_SLOTS / 2; words++) {
		const char *e = p;
		while (*e && *e != ' ')
			e++;
		size_t n = (size_t)(e - p);
		if (n && n <= UINT8_MAX && (size_t)(p - list) < UINT16_MAX) {
			unsigned h = word_hash(p, n) % KEYWORD_SLOTS;
			while (k->at[h])
				h = (h + 1) % KEYWORD_SLOTS;
			k->at[h] = (uint16_t)(p - list + 1);
			k->len[h] = (uint8_t)n;
		}
		p = *e ? e + 1 : e;
	}
}

bool code_keyword(enum code_lang lang, const char *w, size_t n)
{
	if (lang <= LANG_NONE || lang >= LANG_COUNT || !code_langs[lang].keywords || !n)
		return false;
	const char *list = code_langs[lang].keywords;
	struct keyword_set *k = &keyword_sets[lang];
	if (!k->built)
		keyword_set_build(k, list);
	for (unsigned h = word_hash(w, n) % KEYWORD_SLOTS; k->at[h]; h = (h + 1) % KEYWORD_SLOTS)
		if (k->len[h] == n && memcmp(list + k->at[h] - 1, w, n) == 0)
			return true;
	return false;
}

bool code_word_byte(char c)
{
	unsigned char u = (unsigned char)c;
	return u == '_' || u >= 0x80 || (u >= '0' && u <= '9') || ascii_is_letter(u);
}

/* The language whose fence names (or, with ext, file extensions) hold s[0..n), any case. */
static enum code_lang lang_by_word(const char *s, size_t n, bool ext)
{
	char w[24];
	if (!n || n >= sizeof w)
		return LANG_NONE;
	for (size_t i = 0; i < n; i++)
		w[i] = (char)ascii_lower((unsigned char)s[i]);
	for (int l = 1; l < LANG_COUNT; l++)
		if (code_word_in_list(ext ? code_langs[l].exts : code_langs[l].names, w, n))
			return (enum code_lang)l;
	return LANG_NONE;
}

enum code_lang code_lang_named(const char *s, size_t n)
{
	return lang_by_word(s, n, false);
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
	if (dot == 0 || path[dot - 1] != '.')
		return LANG_NONE;
	return lang_by_word(path + dot, n - dot, true);
}

