#include "keys.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <term.h>

#define ESC 0x1B

static const char paste_end[] = "\033[201~";
enum { MARKER_LEN = sizeof paste_end - 1 };

void keys_init(struct keys *k)
{
	memset(k, 0, sizeof *k);
	buf_init(&k->carry);
	buf_init(&k->paste);
	k->paste_end = SIZE_MAX;
}

void keys_fini(struct keys *k)
{
	buf_fini(&k->carry);
	buf_fini(&k->paste);
}

void keys_bind(struct keys *k, const char *seq, enum keys_kind kind, unsigned mods)
{
	size_t len = strlen(seq);
	/* Only escape sequences: single bytes mean what they always mean. */
	if (len < 2 || seq[0] != ESC || len > sizeof k->seqs[0].bytes || k->nseqs == KEYS_MAX_SEQS)
		return;
	struct keys_seq *s = &k->seqs[k->nseqs++];
	memcpy(s->bytes, seq, len);
	s->len = len;
	s->kind = kind;
	s->mods = mods;
}

static const struct {
	const char *name;
	enum keys_kind kind;
	unsigned mods;
} terminfo_keys[] = {
	{ "kcub1", KEYS_LEFT, 0 }, { "kcuf1", KEYS_RIGHT, 0 }, { "kcuu1", KEYS_UP, 0 },
	{ "kcud1", KEYS_DOWN, 0 }, { "khome", KEYS_HOME, 0 }, { "kend", KEYS_END, 0 },
	{ "kpp", KEYS_PGUP, 0 }, { "knp", KEYS_PGDN, 0 }, { "kdch1", KEYS_DELETE, 0 },
	{ "kent", KEYS_ENTER, 0 }, { "kcbt", KEYS_BACKTAB, 0 },
	{ "kLFT", KEYS_LEFT, KEYS_MOD_SHIFT }, { "kRIT", KEYS_RIGHT, KEYS_MOD_SHIFT },
	{ "kri", KEYS_UP, KEYS_MOD_SHIFT }, { "kind", KEYS_DOWN, KEYS_MOD_SHIFT },
	{ "kHOM", KEYS_HOME, KEYS_MOD_SHIFT }, { "kEND", KEYS_END, KEYS_MOD_SHIFT },
	{ "kPRV", KEYS_PGUP, KEYS_MOD_SHIFT }, { "kNXT", KEYS_PGDN, KEYS_MOD_SHIFT },
	{ "kDC", KEYS_DELETE, KEYS_MOD_SHIFT }, { "kf1", KEYS_F1, 0 },
	{ "kf5", KEYS_F5, 0 },
};

/* xterm's modified keys: terminfo names them kLFT3 (Alt-Left), kLFT5 (Ctrl-Left) and so on. */
static const struct {
	const char *name;
	enum keys_kind kind;
} modified[] = {
	{ "LFT", KEYS_LEFT }, { "RIT", KEYS_RIGHT }, { "UP", KEYS_UP }, { "DN", KEYS_DOWN },
	{ "HOM", KEYS_HOME }, { "END", KEYS_END }, { "PRV", KEYS_PGUP }, { "NXT", KEYS_PGDN },
	{ "DC", KEYS_DELETE },
};

static const struct {
	const char *suffix;
	unsigned mods;
} modifier_suffix[] = {
	{ "3", KEYS_MOD_ALT }, { "5", KEYS_MOD_CTRL }, { "7", KEYS_MOD_CTRL | KEYS_MOD_ALT },
};

static const char *terminfo_string(const char *name)
{
	char *s = tigetstr(name);
	return (s && s != (char *)-1 && *s) ? s : NULL;
}

void keys_learn_terminal(struct keys *k)
{
	for (size_t i = 0; i < sizeof terminfo_keys / sizeof *terminfo_keys; i++) {
		const char *seq = terminfo_string(terminfo_keys[i].name);
		if (seq)
			keys_bind(k, seq, terminfo_keys[i].kind, terminfo_keys[i].mods);
	}
	char name[16];
	for (size_t i = 0; i < sizeof modified / sizeof *modified; i++) {
		for (size_t j = 0; j < sizeof modifier_suffix / sizeof *modifier_suffix; j++) {
			snprintf(name, sizeof name, "k%s%s", modified[i].name, modifier_suffix[j].suffix);
			const char *seq = terminfo_string(name);
			if (seq)
				keys_bind(k, seq, modified[i].kind, modifier_suffix[j].mods);
		}
	}
}

/* ------------------------------------------------------------------ one key */

/* What decoding the start of the input gave. */
struct decoded {
	size_t used;        /* bytes taken; 0: the key is not complete yet */
	bool have;          /* ev is a key (else the bytes meant nothing here) */
	bool paste;         /* the bytes were the start of a bracketed paste */
	struct key_event ev;
};

static struct decoded key(size_t used, enum keys_kind kind, unsigned mods, uint32_t cp)
{
	return (struct decoded){ .used = used, .have = true,
				 .ev = { .kind = kind, .mods = mods, .cp = cp } };
}

static struct decoded nothing(size_t used)
{
	return (struct decoded){ .used = used };
}

/* What a character means; false for the ones that mean nothing here. */
static bool char_event(uint32_t ch, struct key_event *ev)
{
	*ev = (struct key_event){ .kind = KEYS_CHAR, .cp = ch };
	switch (ch) {
	case '\r':
		ev->kind = KEYS_ENTER;
		return true;
	case '\n':
		ev->kind = KEYS_NEWLINE;
		return true;
	case '\t':
		ev->kind = KEYS_TAB;
		return true;
	case 8:
	case 127:
		ev->kind = KEYS_BACKSPACE;
		return true;
	default:
		break;
	}
	if (ch >= 1 && ch <= 26) {
		ev->kind = KEYS_CTRL;
		ev->cp = 'a' + ch - 1;
		return true;
	}
	return !(ch < 0x20 || (ch >= 0x80 && ch < 0xA0));
}

/* One character, UTF-8 encoded; bytes that are not well-formed are dropped. */
static struct decoded plain(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len = utf8_next((const char *)s, n, &cp);
	if (cp == UTF8_INVALID)
		/* Every byte there is fits: the rest of the character is still to come. */
		return nothing(len == n && (int)n < utf8_lead_len(s[0]) ? 0 : len);
	struct decoded d = nothing(len);
	d.have = char_event(cp, &d.ev);
	return d;
}

/* xterm's modifier parameter: 1 + (1 shift, 2 alt, 4 ctrl, 8 meta). */
static unsigned modifiers(unsigned long p)
{
	unsigned m = p > 1 && p < 256 ? (unsigned)(p - 1) : 0, mods = 0;
	if (m & 1)
		mods |= KEYS_MOD_SHIFT;
	if (m & (2 | 8))
		mods |= KEYS_MOD_ALT;
	if (m & 4)
		mods |= KEYS_MOD_CTRL;
	return mods;
}

static bool letter_key(unsigned char final, enum keys_kind *kind)
{
	static const char finals[] = "ABCDHF";
	static const enum keys_kind kinds[] = { KEYS_UP, KEYS_DOWN, KEYS_RIGHT, KEYS_LEFT,
						KEYS_HOME, KEYS_END };
	const char *p = final ? strchr(finals, final) : NULL;
	if (!p)
		return false;
	*kind = kinds[p - finals];
	return true;
}

static bool tilde_key(unsigned long p, enum keys_kind *kind)
{
	switch (p) {
	case 1: case 7: *kind = KEYS_HOME; return true;
	case 4: case 8: *kind = KEYS_END; return true;
	case 3: *kind = KEYS_DELETE; return true;
	case 5: *kind = KEYS_PGUP; return true;
	case 6: *kind = KEYS_PGDN; return true;
	case 15: *kind = KEYS_F5; return true;
	default: return false;
	}
}

/* A mouse report: xterm's button code (modifiers in bits 2–4), the cell from 1. */
static struct decoded mouse(size_t used, unsigned long b, unsigned long x, unsigned long y,
			    bool release)
{
	if (x < 1 || y < 1 || b > 255)
		return nothing(used);
	unsigned mods = (b & 4 ? KEYS_MOD_SHIFT : 0) | (b & 8 ? KEYS_MOD_ALT : 0) |
			(b & 16 ? KEYS_MOD_CTRL : 0);
	struct decoded d = key(used, KEYS_MOUSE, mods, (uint32_t)(b & ~28ul));
	d.ev.x = (int)x - 1;
	d.ev.y = (int)y - 1;
	d.ev.release = release;
	return d;
}

/* The answers asked for start with ESC and one of these (OSC, DCS), then a digit ("]11;",
 * "P1+r"); Alt-] or Alt-P with anything else is still a key. */
static bool string_introducer(unsigned char c)
{
	return c == ']' || c == 'P';
}

/* ESC introducer … BEL or ESC \: the terminal's answer to a query, handed over whole
 * without its terminator; too long a one is skipped to its end. */
static struct decoded string(struct keys *k, const unsigned char *s, size_t n)
{
	/* Only the first KEYS_STRING_MAX bytes decide, however the bytes came in reads. */
	size_t lim = n < KEYS_STRING_MAX ? n : KEYS_STRING_MAX;
	for (size_t i = 2; i < lim; i++) {
		if (s[i] != 0x07 && s[i] != ESC)
			continue;
		if (s[i] == ESC && i + 1 == n)
			return nothing(0);
		if (s[i] == ESC && s[i + 1] != '\\')
			return nothing(i);      /* broken off: the ESC starts something new */
		struct decoded d = key(i + (s[i] == ESC ? 2 : 1), KEYS_REPLY, 0, 0);
		d.ev.text = (const char *)s + 1;
		d.ev.len = i - 1;
		return d;
	}
	if (n < KEYS_STRING_MAX)
		return nothing(0);
	k->skipping_string = true;
	return nothing(KEYS_STRING_MAX);
}

/* ESC [ parameters intermediates final. p points after the bracket; the result counts the
 * two bytes before it. */
static struct decoded csi(struct keys *k, const unsigned char *p, size_t n)
{
	size_t i = 0;
	unsigned long param[3] = { 0, 0, 0 };
	size_t np = 0;
	if (n >= 1 && p[0] == 'M')      /* X10 mouse: CSI M and three bytes */
		return n < 4 ? nothing(0) : mouse(6, (unsigned long)p[1] - 32, (unsigned long)p[2] - 32,
						   (unsigned long)p[3] - 32, false);
	while (i < n && p[i] >= 0x20 && p[i] <= 0x3F) {
		if (p[i] >= '0' && p[i] <= '9' && np < 3 && param[np] < 100000)
			param[np] = param[np] * 10 + (unsigned long)(p[i] - '0');
		else if (p[i] == ';')
			np++;
		i++;
	}
	if (i == n) {
		if (i + 2 < KEYS_SEQ_MAX)
			return nothing(0);
		k->skipping = true;
		return nothing(n + 2);
	}
	unsigned char final = p[i];
	/* A byte that cannot be part of a sequence (a control character, say) breaks it off
	 * and keeps its meaning. */
	if (final < 0x40 || final > 0x7E)
		return nothing(i + 2);
	size_t used = i + 3;
	if (i + 2 >= KEYS_SEQ_MAX)      /* as long as one skipped unfinished: skipped too */
		return nothing(used);
	if (p[0] == '<' && (final == 'M' || final == 'm') && np == 2)
		return mouse(used, param[0], param[1], param[2], final == 'm');
	if (p[0] == '?' && final == 'c') {      /* DA1: the terminal's attributes */
		struct decoded d = key(used, KEYS_REPLY, 0, 0);
		d.ev.text = (const char *)p - 1;
		d.ev.len = i + 2;
		return d;
	}
	enum keys_kind kind;
	unsigned mods = modifiers(param[1]);
	if (final == '[' && i == 0) {   /* the Linux console's F1–F5: ESC [ [ A */
		if (n > 1 && p[1] == 'A')
			return key(4, KEYS_F1, 0, 0);
		return nothing(n > 1 ? 4 : 0);
	}
	if (final == '~' && param[0] == 200) {
		struct decoded d = nothing(used);
		d.paste = true;
		return d;
	}
	if (final == '~' && tilde_key(param[0], &kind))
		return key(used, kind, mods, 0);
	if (final == 'Z')
		return key(used, KEYS_BACKTAB, 0, 0);
	/* F1: CSI 11 ~ (rxvt, old xterm) and CSI 1 ; mods P (xterm with a modifier). */
	if ((final == '~' && param[0] == 11) || (final == 'P' && param[0] == 1))
		return key(used, KEYS_F1, mods, 0);
	if (letter_key(final, &kind))
		return key(used, kind, mods, 0);
	return nothing(used);
}

/* ESC O final (xterm's application mode). */
static struct decoded ss3(const unsigned char *p, size_t n)
{
	enum keys_kind kind;
	if (n == 0)
		return nothing(0);
	if (p[0] == 'M')
		return key(3, KEYS_ENTER, 0, 0);
	if (p[0] == 'P')
		return key(3, KEYS_F1, 0, 0);
	if (letter_key(p[0], &kind))
		return key(3, kind, 0, 0);
	return nothing(p[0] < 0x20 ? 2 : 3);
}

/* A sequence terminfo gave the terminal; used 0 with *partial when s is the start of one. */
static struct decoded learned(const struct keys *k, const unsigned char *s, size_t n,
			      bool *partial)
{
	struct decoded best = nothing(0);
	*partial = false;
	for (size_t i = 0; i < k->nseqs; i++) {
		const struct keys_seq *q = &k->seqs[i];
		if (q->len <= n && memcmp(s, q->bytes, q->len) == 0) {
			if (q->len > best.used)
				best = key(q->len, q->kind, q->mods, 0);
		} else if (n < q->len && memcmp(s, q->bytes, n) == 0) {
			*partial = true;
		}
	}
	return best;
}

static struct decoded escape(struct keys *k, const unsigned char *s, size_t n)
{
	if (n == 1)
		return nothing(0);
	bool partial;
	struct decoded d = learned(k, s, n, &partial);
	if (d.used)
		return d;
	if (partial)
		return nothing(0);
	if (s[1] == '[')
		return csi(k, s + 2, n - 2);
	if (s[1] == 'O')
		return ss3(s + 2, n - 2);
	if (string_introducer(s[1]) && n == 2)
		return nothing(0);
	if (string_introducer(s[1]) && s[2] >= '0' && s[2] <= '9')
		return string(k, s, n);
	if (s[1] == ESC) {
		if (n == 2)
			return nothing(0);
		if (s[2] == '[' || s[2] == 'O') {   /* Alt with a function key, the old way */
			d = escape(k, s + 1, n - 1);
			if (d.used) {
				d.used++;
				d.ev.mods |= KEYS_MOD_ALT;
			}
			return d;
		}
		return key(1, KEYS_ESC, 0, 0);
	}
	/* Esc then a control character is Esc, and the control keeps its meaning (Ctrl-C after
	 * Esc is Ctrl-C); Alt-Enter is the one exception. */
	if (s[1] < 0x20 && s[1] != '\r')
		return key(1, KEYS_ESC, 0, 0);
	d = plain(s + 1, n - 1);
	if (!d.used)
		return d;
	d.used++;
	if (!d.have)
		return key(d.used, KEYS_ESC, 0, 0);
	if (d.ev.kind == KEYS_ENTER)
		d.ev.kind = KEYS_NEWLINE;
	else
		d.ev.mods |= KEYS_MOD_ALT;
	return d;
}

/* ------------------------------------------------------------------ paste */

static void paste_start(struct keys *k)
{
	k->pasting = true;
	k->paste_end = SIZE_MAX;
	buf_clear(&k->paste);
}

/* Collects paste bytes; every end marker seen may be the last one. */
static void paste_take(struct keys *k, const char *s, size_t n)
{
	size_t from = k->paste.len >= MARKER_LEN ? k->paste.len - (MARKER_LEN - 1) : 0;
	buf_append(&k->paste, s, n);
	const char *d = k->paste.data;
	for (size_t at = from; at + MARKER_LEN <= k->paste.len; at++) {
		const char *e = memchr(d + at, ESC, k->paste.len - at);
		if (!e)
			break;
		at = (size_t)(e - d);
		if (at + MARKER_LEN <= k->paste.len && memcmp(e, paste_end, MARKER_LEN) == 0)
			k->paste_end = at;
	}
}

size_t keys_line_feeds(char *s, size_t n)
{
	size_t w = 0;
	for (size_t r = 0; r < n; r++) {
		if (s[r] == '\r' && r + 1 < n && s[r + 1] == '\n')
			continue;
		s[w++] = s[r] == '\r' ? '\n' : s[r];
	}
	return w;
}

static void decode(struct keys *k, const char *s, size_t n, keys_fn on, void *ctx);

/* Hands over the paste up to its last end marker; what followed that marker was typed after
 * the paste and is decoded as keys. Without a marker, all of it is the paste. */
static void paste_finish(struct keys *k, keys_fn on, void *ctx)
{
	size_t end = k->paste_end != SIZE_MAX ? k->paste_end : k->paste.len;
	size_t after = end < k->paste.len ? end + MARKER_LEN : end;
	struct buf rest;
	buf_init(&rest);
	if (after < k->paste.len)
		buf_append(&rest, k->paste.data + after, k->paste.len - after);
	k->paste.len = keys_line_feeds(k->paste.data, end);
	k->pasting = false;
	k->paste_end = SIZE_MAX;
	struct key_event ev = { .kind = KEYS_PASTE, .text = buf_cstr(&k->paste), .len = k->paste.len };
	on(ctx, &ev);
	buf_clear(&k->paste);
	if (rest.len)
		decode(k, rest.data, rest.len, on, ctx);
	buf_fini(&rest);
}

/* ------------------------------------------------------------------ the stream */

static void decode(struct keys *k, const char *s, size_t n, keys_fn on, void *ctx)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		if (k->pasting) {
			paste_take(k, s + i, n - i);
			return;
		}
		if (k->skipping_string) {
			/* Up to BEL or ESC \; an ESC before anything else ends it and is read again. */
			if (u[i] != ESC) {
				k->skipping_string = u[i] != 0x07;
				i++;
				continue;
			}
			if (i + 1 == n) {
				buf_append(&k->carry, s + i, 1);
				return;
			}
			k->skipping_string = false;
			if (u[i + 1] == '\\')
				i += 2;
			continue;
		}
		if (k->skipping) {
			/* Up to the final byte; any other byte ends it unread, as in csi(). */
			if (u[i] >= 0x20 && u[i] <= 0x3F) {
				i++;
				continue;
			}
			k->skipping = false;
			if (u[i] >= 0x40 && u[i] <= 0x7E)
				i++;
			continue;
		}
		struct decoded d = u[i] == ESC ? escape(k, u + i, n - i) : plain(u + i, n - i);
		if (!d.used) {
			buf_append(&k->carry, s + i, n - i);
			return;
		}
		i += d.used;
		if (d.paste)
			paste_start(k);
		else if (d.have)
			on(ctx, &d.ev);
	}
}

void keys_feed(struct keys *k, const char *s, size_t n, keys_fn on, void *ctx)
{
	if (!k->carry.len) {
		decode(k, s, n, on, ctx);
		return;
	}
	struct buf in = k->carry;
	buf_init(&k->carry);
	buf_append(&in, s, n);
	decode(k, in.data, in.len, on, ctx);
	buf_fini(&in);
}

int64_t keys_wait_us(const struct keys *k)
{
	if (k->pasting)
		return k->paste_end != SIZE_MAX ? KEYS_PASTE_SETTLE_US : KEYS_PASTE_ABANDON_US;
	const unsigned char *c = (const unsigned char *)k->carry.data;
	/* A string being skipped ends at the wait too: one that never ends keeps no key. */
	if (k->skipping_string || (k->carry.len > 2 && c[0] == ESC && string_introducer(c[1])))
		return KEYS_STRING_WAIT_US;
	return k->carry.len ? KEYS_ESC_DELAY_US : -1;
}

void keys_expire(struct keys *k, keys_fn on, void *ctx)
{
	if (k->pasting) {
		paste_finish(k, on, ctx);
		return;
	}
	if (k->skipping_string) {   /* a long string that never ended: dropped, ESC and all */
		k->skipping_string = false;
		buf_clear(&k->carry);
		return;
	}
	const unsigned char *c = (const unsigned char *)k->carry.data;
	size_t n = k->carry.len, at = 0;
	struct key_event ev = { .kind = KEYS_ESC };
	/* Esc Esc is two; Esc [ and Esc O alone are Alt-[ and Alt-O; any other unfinished
	 * sequence or character is dropped. */
	while (at < n && c[at] == ESC) {
		if (at + 2 == n && (c[at + 1] == '[' || c[at + 1] == 'O' || string_introducer(c[at + 1]))) {
			struct key_event alt = { .kind = KEYS_CHAR, .mods = KEYS_MOD_ALT, .cp = c[at + 1] };
			on(ctx, &alt);
			break;
		}
		if (at + 1 < n && c[at + 1] != ESC) {
			if (c[at + 1] != '[' && c[at + 1] != 'O' && !string_introducer(c[at + 1]))
				on(ctx, &ev);
			break;
		}
		on(ctx, &ev);
		at++;
	}
	buf_clear(&k->carry);
}
