/* The scan under scan_printable and scan_until, for hot loops that inline it: runs of bytes
 * that need no look, 16 at a time with SSE2, else a word (8 bytes) at a time. */
#ifndef TETHER_BASE_SCAN_INLINE_H
#define TETHER_BASE_SCAN_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define SCAN_BYTES_OF(b) (0x0101010101010101ull * (b))
#define SCAN_HIGH SCAN_BYTES_OF(0x80)

/* Nonzero when a byte of w is zero. */
static inline uint64_t scan_word_zero(uint64_t w)
{
	return (w - SCAN_BYTES_OF(0x01)) & ~w & SCAN_HIGH;
}

/* Nonzero when a byte of w is below 0x20, or 0x7F and up (0xFF carries, but is high already). */
static inline uint64_t scan_word_unprintable(uint64_t w)
{
	return (((w - SCAN_BYTES_OF(0x20)) & ~w) | (w + SCAN_BYTES_OF(0x01)) | w) & SCAN_HIGH;
}

/* The length of the run at p[0..n) without NUL, s0 and s1 (and, printable, without bytes
 * outside 0x20..0x7E). With dst, what is scanned is copied there too: up to 16 bytes from the
 * run's end on, never past n. Inline so that a hot loop with constant stops sets its
 * vectors up once, not once a run. */
static inline size_t scan_run(const char *p, size_t n, unsigned char s0, unsigned char s1,
			      bool printable, char *dst)
{
	const uint64_t m0 = SCAN_BYTES_OF(s0), m1 = SCAN_BYTES_OF(s1);
	size_t i = 0;
#ifdef __SSE2__
	/* 16 bytes a step where every x86-64 has it: a tool's output runs ~50 bytes a line. */
	const __m128i v0 = _mm_set1_epi8((char)s0), v1 = _mm_set1_epi8((char)s1);
	const __m128i below = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		if (dst)
			_mm_storeu_si128((__m128i *)(void *)(dst + i), v);
		__m128i bad = _mm_or_si128(_mm_cmpeq_epi8(v, v0), _mm_cmpeq_epi8(v, v1));
		/* signed: below 0x20 is also 0x80 and up */
		bad = _mm_or_si128(bad, printable ? _mm_or_si128(_mm_cmplt_epi8(v, below),
								 _mm_cmpeq_epi8(v, del))
						  : _mm_cmpeq_epi8(v, _mm_setzero_si128()));
		int m = _mm_movemask_epi8(bad);
		if (m)
			return i + (size_t)__builtin_ctz((unsigned)m);
	}
#endif
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, sizeof w);
		if (dst)
			memcpy(dst + i, &w, sizeof w);
		uint64_t bad = scan_word_zero(w ^ m0) | scan_word_zero(w ^ m1);
		bad |= printable ? scan_word_unprintable(w) : scan_word_zero(w);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* A borrow or carry can mark bytes after the first that stops, never before it:
		 * the lowest mark is that byte (a stop every line or so makes this the common end). */
		if (bad)
			return i + (size_t)__builtin_ctzll(bad) / 8;
#else
		if (bad)
			break;
#endif
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (!c || c == s0 || c == s1 || (printable && (c < 0x20 || c >= 0x7F)))
			break;
		if (dst)
			dst[i] = (char)c;
	}
	return i;
}

#endif
