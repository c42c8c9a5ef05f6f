/* Display sanitizer: a byte-at-a-time state machine (after the DEC/ECMA-48 parser model) that
 * removes terminal control sequences whole, removes characters that draw nothing (default
 * ignorables, bidi controls) and repairs UTF-8. All state lives in struct
 * sanitizer, so any split of the input into feeds gives the same output as one feed. */
#include "base.h"

#include <string.h>


enum sanitize_state {
	SAN_GROUND,     /* text */
	SAN_UTF8,       /* inside a multi-byte character: pending holds its first bytes */
	SAN_ESC,        /* after ESC */
	SAN_ESC_INTER,  /* ESC plus intermediates (0x20..0x2F), waiting for the final byte */
	SAN_CSI,        /* ESC [: parameters until a final byte 0x40..0x7E */
	SAN_OSC,        /* ESC ]: until BEL or ST */
	SAN_STRING,     /* DCS, SOS, PM, APC (ESC P X ^ _): until ST */
};

/* state packs the kind, a flag for "the previous byte of a string was 0xC2" (the first half
 * of an 8-bit ST, U+009C) and a byte count used to cap sequences. */
#define SAN_KIND_MASK 0x0F
#define SAN_AFTER_C2 0x10
#define SAN_COUNT_SHIFT 8

/* An unterminated OSC or DCS (a hostile or truncated one) would otherwise swallow the rest
 * of the transcript. After this many bytes the sequence is dropped (its bytes so far are
 * lost) and what follows is treated as text again. Real titles, hyperlinks and OSC 52
 * payloads worth showing are far shorter; longer clipboard writes are exactly what we
 * want gone, and their remainder shows as harmless base64 text. */
#define SAN_STRING_CAP 4096
/* A CSI is parameter bytes 0x20..0x3F only; real ones are a few dozen bytes. */
#define SAN_CSI_CAP 256
#define SAN_INTER_CAP 16

#define ESC 0x1B
#define BEL 0x07
#define CAN 0x18
#define SUB 0x1A

static int san_kind(const struct sanitizer *s)
{
	return s->state & SAN_KIND_MASK;
}

static void san_enter(struct sanitizer *s, int kind)
{
	s->state = kind;
}

/* Counts one more byte of the current sequence; false once it is over the cap. */
static bool san_count(struct sanitizer *s, int cap)
{
	int count = (s->state >> SAN_COUNT_SHIFT) + 1;
	if (count > cap)
		return false;
	s->state = (s->state & ((1 << SAN_COUNT_SHIFT) - 1)) | (count << SAN_COUNT_SHIFT);
	return true;
}

/* Extended_Pictographic, coarsely: the code points an emoji ZWJ sequence or a variation
 * selector follows. Skin-tone modifiers are inside 1F000..1FAFF. */
static bool cp_is_pictographic(uint32_t cp)
{
	if (cp >= 0x1F000)
		return (cp <= 0x1FAFF && !(cp >= 0x1F1E6 && cp <= 0x1F1FF)) ||
		       (cp >= 0x1FC00 && cp <= 0x1FFFD);
	return cp == 0x00A9 || cp == 0x00AE || cp == 0x203C || cp == 0x2049 || cp == 0x2122 ||
	       cp == 0x2139 || (cp >= 0x2194 && cp <= 0x21AA) || (cp >= 0x231A && cp <= 0x23FF) ||
	       (cp >= 0x25AA && cp <= 0x25FE) || (cp >= 0x2600 && cp <= 0x27BF) ||
	       (cp >= 0x2934 && cp <= 0x2935) || (cp >= 0x2B05 && cp <= 0x2B55) || cp == 0x3030 ||
	       cp == 0x303D || cp == 0x3297 || cp == 0x3299;
}

#define CP_ZWJ 0x200D
#define ZWJ_BYTES "\xE2\x80\x8D"

static bool cp_is_variation_selector(uint32_t cp)
{
	return (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF);
}

/* Tag characters only mean something in an emoji tag sequence (a subdivision flag). */
static bool cp_is_tag(uint32_t cp)
{
	return cp >= 0xE0020 && cp <= 0xE007F;
}

/* Text that is not part of an emoji sequence is about to be written: a held ZWJ had no
 * emoji after it and goes. */
static void san_plain(struct sanitizer *s)
{
	s->zwj_held = false;
	s->emoji_prev = 0;
}

/* Whether an ignorable joiner may follow what was written last (emoji_prev: the last code
 * point of an emoji sequence being written, 0 outside one). */
static bool san_joins(const struct sanitizer *s, uint32_t cp)
{
	uint32_t prev = s->emoji_prev;
	if (cp_is_variation_selector(cp))
		return cp_is_pictographic(prev);
	if (cp_is_tag(cp))
		return prev == 0x1F3F4 || (cp_is_tag(prev) && prev != 0xE007F);
	return false;
}

/* A decoded code point other than a C1 control. Ignorables go, except the joiners of emoji
 * sequences: a variation selector right after an emoji, tags after a black flag, and a ZWJ
 * between two emoji (held until the next code point says whether an emoji follows). */
static void san_text_point(struct sanitizer *s, uint32_t cp, struct buf *out)
{
	size_t len = (size_t)utf8_lead_len(s->pending[0]);
	bool zwj = s->zwj_held;
	s->zwj_held = false;
	if (cp == CP_ZWJ) {
		s->zwj_held = s->emoji_prev != 0;
		s->emoji_prev = 0;
		return;
	}
	/* A default ignorable draws nothing, so one inside a secret would hide the secret from
	 * the masker while the screen still reads it; a bidi override reorders what follows. */
	if (cp_is_default_ignorable(cp)) {
		if (san_joins(s, cp)) {
			buf_append(out, s->pending, len);
			s->emoji_prev = cp;
		}
		return;
	}
	if (cp_is_pictographic(cp)) {
		if (zwj)
			buf_puts(out, ZWJ_BYTES);
		s->emoji_prev = cp;
	} else {
		san_plain(s);
	}
	buf_append(out, s->pending, len);
}

/* A complete code point from the UTF-8 decoder. A C1 control goes alone: in a UTF-8 terminal
 * U+009B is a character, not CSI, so what follows it is text (a CSI "introduced" by it would
 * eat the next character of a secret and hide the rest from the masker). */
static void san_code_point(struct sanitizer *s, struct buf *out)
{
	uint32_t cp = utf8_value(s->pending, s->npending);
	san_enter(s, SAN_GROUND);
	if (cp < 0x80 || cp > 0x9F)
		san_text_point(s, cp, out);
	s->npending = 0;
}

static bool san_kept_as_is(unsigned char c)
{
	return (c >= 0x20 && c < 0x7F) || c == '\n' || c == '\t';
}

/* How many bytes of in[0..n) on are kept as they are: printable runs, LF and TAB. */
static size_t san_kept_run(const unsigned char *in, size_t n)
{
	size_t j = 0;
	for (;;) {
		j += scan_printable((const char *)in + j, n - j, "");
		if (j == n || (in[j] != '\n' && in[j] != '\t'))
			return j;
		j++;
	}
}

/* Ground state: returns how many bytes of in[0..n) it consumed (at least 1). */
static size_t san_ground(struct sanitizer *s, const unsigned char *in, size_t n, struct buf *out)
{
	unsigned char c = in[0];
	/* Printable ASCII, LF and TAB are written as they are: one run of them, one append. */
	if (san_kept_as_is(c)) {
		size_t j = san_kept_run(in, n);
		san_plain(s);
		buf_append(out, in, j);
		return j;
	}
	if (c == ESC)
		san_enter(s, SAN_ESC);
	else if (c >= 0x80) {
		if (utf8_lead_len(c) == 0) {
			san_plain(s);
			buf_puts(out, UTF8_REPLACEMENT);
		} else {
			s->pending[0] = c;
			s->npending = 1;
			san_enter(s, SAN_UTF8);
		}
	}
	/* CR (so CR LF becomes LF), BEL, BS, the other C0 controls and DEL are dropped. */
	return 1;
}

/* Inside a multi-byte character; false when c must be looked at again in ground state. */
static bool san_utf8(struct sanitizer *s, unsigned char c, struct buf *out)
{
	if (!utf8_cont_ok(s->pending[0], s->npending, c)) {
		/* the maximal well-formed prefix becomes one U+FFFD; c starts afresh */
		san_plain(s);
		buf_puts(out, UTF8_REPLACEMENT);
		s->npending = 0;
		san_enter(s, SAN_GROUND);
		return false;
	}
	s->pending[s->npending++] = c;
	if (s->npending == utf8_lead_len(s->pending[0]))
		san_code_point(s, out);
	return true;
}

/* After ESC, or ESC and intermediates. */
static bool san_escape(struct sanitizer *s, unsigned char c)
{
	bool inter = san_kind(s) == SAN_ESC_INTER;
	if (c >= 0x20 && c <= 0x2F) {
		if (!inter)
			san_enter(s, SAN_ESC_INTER);
		if (!san_count(s, SAN_INTER_CAP))
			san_enter(s, SAN_GROUND);
		return true;
	}
	if (!inter) {
		switch (c) {
		case '[':
			san_enter(s, SAN_CSI);
			return true;
		case ']':
			san_enter(s, SAN_OSC);
			return true;
		case 'P':
		case 'X':
		case '^':
		case '_':
			san_enter(s, SAN_STRING);
			return true;
		default:
			break;
		}
	}
	if (c >= 0x30 && c <= 0x7E) {
		/* final byte: ESC c, ESC 7, ESC ( B, and ESC \ ending a string */
		san_enter(s, SAN_GROUND);
		return true;
	}
	if (c == ESC) {
		san_enter(s, SAN_ESC);
		return true;
	}
	san_enter(s, SAN_GROUND);
	/* CAN and SUB cancel; anything else aborts the sequence and is text again */
	return c == CAN || c == SUB;
}

static bool san_csi(struct sanitizer *s, unsigned char c)
{
	if (c >= 0x20 && c <= 0x3F) {
		if (!san_count(s, SAN_CSI_CAP))
			san_enter(s, SAN_GROUND);
		return true;
	}
	if (c >= 0x40 && c <= 0x7E) {
		san_enter(s, SAN_GROUND);
		return true;
	}
	san_enter(s, c == ESC ? SAN_ESC : SAN_GROUND);
	return c == ESC || c == CAN || c == SUB;
}

/* OSC and DCS/SOS/PM/APC payloads. ESC inside one starts a new escape (ESC \ is ST and
 * ends up as a two-byte escape); BEL ends an OSC only, as in xterm. */
static bool san_string(struct sanitizer *s, unsigned char c)
{
	if (s->state & SAN_AFTER_C2) {
		s->state &= ~SAN_AFTER_C2;
		if (c == 0x9C) {
			san_enter(s, SAN_GROUND);
			return true;
		}
	}
	if (c == ESC) {
		san_enter(s, SAN_ESC);
		return true;
	}
	if (c == CAN || c == SUB || (c == BEL && san_kind(s) == SAN_OSC)) {
		san_enter(s, SAN_GROUND);
		return true;
	}
	if (!san_count(s, SAN_STRING_CAP)) {
		san_enter(s, SAN_GROUND);
		return false;
	}
	if (c == 0xC2)
		s->state |= SAN_AFTER_C2;
	return true;
}

void sanitizer_init(struct sanitizer *s)
{
	memset(s, 0, sizeof(*s));
	s->state = SAN_GROUND;
}

void sanitizer_feed(struct sanitizer *s, const char *in, size_t n, struct buf *out)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t i = 0;
	buf_reserve(out, n);
	/* Kept a C string even when everything is dropped (buf_reserve alone leaves it open). */
	out->data[out->len] = '\0';
	while (i < n) {
		bool consumed = true;
		switch (san_kind(s)) {
		case SAN_GROUND:
			i += san_ground(s, p + i, n - i, out);
			continue;
		case SAN_UTF8:
			consumed = san_utf8(s, p[i], out);
			break;
		case SAN_ESC:
		case SAN_ESC_INTER:
			consumed = san_escape(s, p[i]);
			break;
		case SAN_CSI:
			consumed = san_csi(s, p[i]);
			break;
		default:
			consumed = san_string(s, p[i]);
			break;
		}
		if (consumed)
			i++;
	}
}

void sanitizer_flush(struct sanitizer *s, struct buf *out)
{
	/* a held ZWJ ends the text: no emoji follows it */
	if (san_kind(s) == SAN_UTF8)
		buf_puts(out, UTF8_REPLACEMENT);
	sanitizer_init(s);
}

void sanitize_text(const char *in, size_t n, struct buf *out)
{
	struct sanitizer s;
	sanitizer_init(&s);
	sanitizer_feed(&s, in, n, out);
	sanitizer_flush(&s, out);
}
