/* base: allocation wrappers, a growable byte buffer, a string map, a monotonic clock, the
 * display sanitizer every output path uses (screen, ndjson, text, files) and the few Unicode
 * facts that more than one module needs (UTF-8, ignorables, a wipe for secrets).
 * The bottom of the include graph: libc only, included by every module. */
#ifndef TETHER_BASE_H
#define TETHER_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* malloc that aborts with a message on exhaustion (allocation failure is not recoverable here). */
void *xmalloc(size_t n);
/* calloc that aborts on exhaustion. */
void *xcalloc(size_t count, size_t size);
/* realloc that aborts on exhaustion. */
void *xrealloc(void *p, size_t n);
/* strdup that aborts on exhaustion; NULL in gives NULL out. */
char *xstrdup(const char *s);
/* Copies n bytes of s into a new NUL-terminated string. */
char *xstrndup(const char *s, size_t n);

/* A growable byte string. data is always NUL-terminated once anything was appended. */
struct buf {
	char *data;
	size_t len;
	size_t cap;
};

/* Makes b empty without allocating. */
void buf_init(struct buf *b);
/* Frees b's storage and makes it empty. */
void buf_fini(struct buf *b);
/* Keeps the storage, forgets the contents. */
void buf_clear(struct buf *b);
/* Sets b's length to len, within what buf_reserve made room for, and NUL-terminates it: for a
 * writer that fills the reserved room itself, or takes back what it wrote. */
void buf_set_len(struct buf *b, size_t len);
/* Ensures room for extra more bytes plus a terminating NUL. */
void buf_reserve(struct buf *b, size_t extra);
/* Appends n bytes. */
void buf_append(struct buf *b, const void *p, size_t n);
/* Appends a NUL-terminated string. */
void buf_puts(struct buf *b, const char *s);
/* Appends one byte. */
void buf_putc(struct buf *b, char c);
/* The decimal digits of n, '-' first when negative, into d (room for 21) and a NUL; returns
 * how many were written before the NUL. */
int decimal_i64(char *d, int64_t n);
/* Appends printf-formatted text. */
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends vprintf-formatted text. */
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* Returns a NUL-terminated view of b (never NULL). */
const char *buf_cstr(struct buf *b);
/* Hands the storage to the caller (NUL-terminated, never NULL) and empties b. */
char *buf_steal(struct buf *b);

/* An open-addressing map from NUL-terminated strings to pointers. Keys are borrowed: each
 * must stay valid (and unchanged) while it is in the map. */
struct strmap {
	struct strmap_slot *slots;
	size_t cap, count;
};

/* Makes an empty map without allocating. */
void strmap_init(struct strmap *m);
/* Frees the table (not the keys or values). */
void strmap_fini(struct strmap *m);
/* The value for key, or NULL. */
void *strmap_get(const struct strmap *m, const char *key);
/* Sets key to val (val non-NULL), replacing an existing value. */
void strmap_put(struct strmap *m, const char *key, void *val);
/* Removes key; returns its value or NULL. */
void *strmap_del(struct strmap *m, const char *key);

/* A bounded set of recent strings (event ids): when full, the oldest is forgotten. */
struct recent_ids {
	char **ring;                    /* oldest at next once full */
	size_t cap, next, count;
	struct strmap index;            /* id → its ring cell */
};

/* Makes an empty set that remembers at most cap strings. */
void recent_ids_init(struct recent_ids *r, size_t cap);
/* Frees every string. */
void recent_ids_fini(struct recent_ids *r);
/* True when id was added and not forgotten since. */
bool recent_ids_has(const struct recent_ids *r, const char *id);
/* Adds a copy of id (a duplicate changes nothing), forgetting the oldest when full. */
void recent_ids_add(struct recent_ids *r, const char *id);

/* Counts '\n' in s[0..n). */
size_t count_newlines(const char *s, size_t n);

/* Monotonic time in microseconds. */
int64_t clock_now_us(void);

/* ------------------------------------------------------------------ UTF-8
 * The one copy of the well-formedness table (Unicode 15, table 3-7). Inline: the sanitizer
 * checks byte by byte across feeds, the layout decodes every character. */

#define UTF8_REPLACEMENT "\xEF\xBF\xBD"
/* What utf8_next sets *cp to for bytes that are not well-formed. */
#define UTF8_INVALID UINT32_MAX

/* Length of the sequence a lead byte starts, or 0 when it cannot start one (continuation
 * bytes, C0/C1 overlong leads, F5..FF). */
static inline int utf8_lead_len(unsigned char c)
{
	return c < 0x80 ? 1 : c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
}

/* Whether c may be byte pos (1..3) of the sequence lead starts. The second byte's range
 * excludes overlongs (E0, F0), surrogates (ED) and code points above U+10FFFF (F4). */
static inline bool utf8_cont_ok(unsigned char lead, int pos, unsigned char c)
{
	unsigned char lo = 0x80, hi = 0xBF;
	if (pos == 1) {
		if (lead == 0xE0)
			lo = 0xA0;
		else if (lead == 0xED)
			hi = 0x9F;
		else if (lead == 0xF0)
			lo = 0x90;
		else if (lead == 0xF4)
			hi = 0x8F;
	}
	return c >= lo && c <= hi;
}

/* Code point of a well-formed sequence of len bytes. */
static inline uint32_t utf8_value(const unsigned char *s, int len)
{
	static const unsigned char lead_mask[5] = { 0, 0x7F, 0x1F, 0x0F, 0x07 };
	uint32_t cp = s[0] & lead_mask[len];
	for (int i = 1; i < len; i++)
		cp = (cp << 6) | (s[i] & 0x3F);
	return cp;
}

/* The character at s[0..n), n > 0: returns the bytes it spans and sets *cp. Bytes that are
 * not well-formed span their maximal well-formed prefix, or one byte (the "maximal subpart"
 * practice of Python and browsers: one U+FFFD each), and set *cp to UTF8_INVALID; so does a
 * character cut short by n. */
static inline size_t utf8_next(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	int len = utf8_lead_len(p[0]);
	*cp = UTF8_INVALID;
	if (len == 0)
		return 1;
	for (int i = 1; i < len; i++)
		if ((size_t)i >= n || !utf8_cont_ok(p[0], i, p[i]))
			return (size_t)i;
	*cp = utf8_value(p, len);
	return (size_t)len;
}

/* Appends the UTF-8 form of cp; a surrogate or a value above U+10FFFF becomes U+FFFD. */
void buf_put_utf8(struct buf *b, uint32_t cp);

/* Streaming sanitizer state: carries a partial escape sequence or UTF-8 character from
 * one chunk to the next so that a split sequence is removed as a whole. */
struct sanitizer {
	int state;
	unsigned char pending[8];
	int npending;
	uint32_t emoji_prev;    /* last code point of an emoji sequence just written, else 0 */
	bool zwj_held;          /* a ZWJ after an emoji: written only if an emoji follows */
};

/* Starts a fresh stream. */
void sanitizer_init(struct sanitizer *s);
/* Appends the display-safe form of in[0..n) to out. The output is valid UTF-8 whose only
 * control characters are '\n' and '\t': ESC sequences (CSI, OSC 52, title changes, DCS,
 * screen clears) are removed whole; C1 controls (U+0080..U+009F) are removed one by one,
 * never taking what follows; other C0 controls, DEL, BEL, backspace and bare CR are removed;
 * default-ignorable code points and bidi controls (U+200B, U+00AD, U+202E, U+2066, ...)
 * are removed, except ZWJ, variation selectors and tags inside emoji sequences; invalid
 * UTF-8 becomes U+FFFD. Bytes that may start an unfinished sequence (and a ZWJ that an emoji
 * may follow) are held until the next feed. */
void sanitizer_feed(struct sanitizer *s, const char *in, size_t n, struct buf *out);
/* Ends the stream: whatever is held is resolved (an unfinished sequence is dropped, a
 * truncated character becomes U+FFFD). */
void sanitizer_flush(struct sanitizer *s, struct buf *out);
/* One-shot: sanitizes a complete text. The one function every output path uses. */
void sanitize_text(const char *in, size_t n, struct buf *out);

/* Length of the longest prefix of s[0..n) that ends on a UTF-8 character boundary,
 * assuming s is well-formed apart from a possibly truncated last character. */
size_t utf8_complete_prefix(const char *s, size_t n);
/* Appends s[0..n) to the string out[0..size) holds up to *at, as much as fits with its NUL,
 * cut at a character's start; *at moves on. For short fixed lines built every frame. */
void cstr_append_fitted(char *out, size_t size, size_t *at, const char *s, size_t n);

/* The first match of needle[0..m) in s[0..n), ASCII letters compared without case; NULL
 * when there is none or m is 0. */
const char *ascii_find_ci(const char *s, size_t n, const char *needle, size_t m);
/* Length of the longest prefix of p[0..n) in printable ASCII (0x20..0x7E) without the bytes
 * of stop (at most 2): the run a writer copies as it is, scanned 8 bytes at a time. */
size_t scan_printable(const char *p, size_t n, const char *stop);
/* Length of the longest prefix of p[0..n) without NUL and the bytes of stop (at most 2),
 * scanned 8 bytes at a time. */
size_t scan_until(const char *p, size_t n, const char *stop);
/* Reads the regular file at path (not through a symbolic link) onto the end of out, at most
 * max bytes. More than max: with cut, the first max bytes and *cut set; without, an error.
 * Returns 0, or -1 with errno set and "PATH: why" in err. */
int file_read_all(const char *path, size_t max, struct buf *out, bool *cut, struct buf *err);
/* c with A-Z folded to a-z (never by locale); any other byte as it is. */
unsigned char ascii_lower(unsigned char c);
/* Whether c is an ASCII letter, A-Z or a-z (never by locale). */
bool ascii_is_letter(unsigned char c);
/* Reads the fraction of a second of an ISO 8601 time at p ("." and digits; anything else is
 * none, 0) into microseconds, digits past six dropped: the end, or NULL for "." alone. */
const char *iso_fraction_us(const char *p, long *us);

/* Overwrites n bytes at p with zeros in a way the compiler may not drop as a dead store
 * (a plain memset before free may be): every copy of a secret is wiped with this. */
void mem_wipe(void *p, size_t n);
/* Writes all n bytes to fd, again after EINTR and short writes. Returns 0, or -1 with errno. */
int fd_write_all(int fd, const void *p, size_t n);
/* Wipes a NUL-terminated secret and frees it; NULL is fine. */
void str_wipe_free(char *s);

/* True for a Default_Ignorable_Code_Point (bidi controls included): it draws nothing. */
bool cp_is_default_ignorable(uint32_t cp);
/* True for the ignorables that emoji sequences are built with: ZWJ, variation selectors and
 * tag characters. */
bool cp_is_emoji_joiner(uint32_t cp);

/* ------------------------------------------------------------------ diff */

enum diff_op { DIFF_SAME, DIFF_DEL, DIFF_ADD };

/* One step of an edit script: a[a] kept as b[b], a[a] deleted (before b[b]), or b[b] added
 * (before a[a]). */
struct diff_edit {
	enum diff_op op;
	size_t a, b;
};

struct diff_script {
	struct diff_edit *ops;
	size_t n, cap;
};

/* Whether element i of the first sequence equals element j of the second. */
typedef bool (*diff_eq_fn)(void *ctx, size_t i, size_t j);
/* Appends to s the edit script from a sequence of na elements to one of nb: the shortest
 * (true) while it has at most max_cost deletions and additions, else a correct longer one
 * (false) made in bounded time. */
bool diff_run(struct diff_script *s, size_t na, size_t nb, diff_eq_fn eq, void *ctx,
	      size_t max_cost);
/* Frees an edit script's storage. */
void diff_script_fini(struct diff_script *s);

/* Beyond these, texts are not compared line by line (diff_unified says so instead). */
enum { DIFF_MAX_BYTES = 1 << 20, DIFF_MAX_LINES = 20000, DIFF_MAX_COST = 1000 };

/* What a unified diff is headed with and how much context it keeps. */
struct diff_unified_opts {
	const char *old_path, *new_path; /* the "---" and "+++" lines; NULL: none */
	size_t context;                  /* unchanged lines kept around a change */
	size_t old_first, new_first;     /* line number of a's and b's first line; 0: unknown */
};
/* Appends the unified diff from a[0..an) to b[0..bn) to out ("@@ -3,2 +3,4 @@" hunks, "-",
 * "+" and " " lines, "?" for a line number not known). Returns false, appending nothing,
 * when either text is beyond DIFF_MAX_BYTES or DIFF_MAX_LINES. */
bool diff_unified(struct buf *out, const char *a, size_t an, const char *b, size_t bn,
		  const struct diff_unified_opts *o);
/* Whether s[0..n) opens a code block of language "diff" (three or more ` or ~, then "diff"):
 * how an edit's arguments and its result are written. */
bool diff_block_opens(const char *s, size_t n);

#endif
