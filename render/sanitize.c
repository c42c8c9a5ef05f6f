/* Display sanitizer: a byte-at-a-time state machine (after the DEC/ECMA-48 parser model) that
 * removes terminal control sequences whole and repairs UTF-8. All state lives in struct
 * sanitizer, so any split of the input into feeds gives the same output as one feed. */
#include "render.h"

#include <string.h>

#include "utf8.h"

enum sanitize_state {
	SAN_GROUND,     /* text */
	SAN_UTF8,       /* inside a multi-byte character: pending holds its first bytes */
	SAN_ESC,        /* after ESC */
	SAN_ESC_INTER,  /* ESC plus intermediates (0x20..0x2F), waiting for the final byte */
	SAN_CSI,        /* ESC [ or U+009B: parameters until a final byte 0x40..0x7E */
	SAN_OSC,        /* ESC ] or U+009D: until BEL or ST */
	SAN_STRING,     /* DCS, SOS, PM, APC (ESC P X ^ _ or U+0090/98/9E/9F): until ST */
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

/* A complete code point from the UTF-8 decoder: C1 controls introduce sequences or vanish,
 * everything else is copied as the well-formed bytes that encode it. */
static void san_code_point(struct sanitizer *s, struct buf *out)
{
	uint32_t cp = utf8_value(s->pending, s->npending);
	s->npending = 0;
	san_enter(s, SAN_GROUND);
	if (cp < 0x80 || cp > 0x9F) {
		buf_append(out, s->pending, (size_t)utf8_lead_len(s->pending[0]));
		return;
	}
	switch (cp) {
	case 0x9B:
		san_enter(s, SAN_CSI);
		break;
	case 0x9D:
		san_enter(s, SAN_OSC);
		break;
	case 0x90:
	case 0x98:
	case 0x9E:
	case 0x9F:
		san_enter(s, SAN_STRING);
		break;
	default:
		break;
	}
}

/* Ground state: returns how many bytes of in[0..n) it consumed (at least 1). */
static size_t san_ground(struct sanitizer *s, const unsigned char *in, size_t n, struct buf *out)
{
	unsigned char c = in[0];
	if (c >= 0x20 && c < 0x7F) {
		size_t j = 1;
		while (j < n && in[j] >= 0x20 && in[j] < 0x7F)
			j++;
		buf_append(out, in, j);
		return j;
	}
	if (c == '\n' || c == '\t')
		buf_putc(out, (char)c);
	else if (c == ESC)
		san_enter(s, SAN_ESC);
	else if (c >= 0x80) {
		if (utf8_lead_len(c) == 0) {
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
