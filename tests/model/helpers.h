/* Shared helpers of the model tests (and the view tests built on them): building events and
 * finding items. */
#ifndef TETHER_TESTS_TRANSCRIPT_HELPERS_H
#define TETHER_TESTS_TRANSCRIPT_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"

/* The property tests' random numbers: xorshift64 from a seed that is not 0. */
struct rng {
	uint64_t s;
};

/* The next number below n. */
static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (uint32_t)(r->s % n);
}

/* An event of kind with seq (-1: transient), id and text. */
static inline struct item_spec spec_of(enum item_kind kind, int64_t seq, const char *id,
				       const char *text)
{
	return (struct item_spec){ .kind = kind, .seq = seq, .id = id, .text = text,
				   .text_len = text ? strlen(text) : 0 };
}

static inline enum apply_result add(struct transcript *t, enum item_kind kind, int64_t seq,
				    const char *id, const char *text)
{
	struct item_spec s = spec_of(kind, seq, id, text);
	return transcript_add_event(t, &s);
}

/* A tool card (action) for tool_call_id. */
static inline enum apply_result add_card(struct transcript *t, int64_t seq, const char *id,
					 const char *call)
{
	struct item_spec s = spec_of(ITEM_TOOL, seq, id, "thought");
	s.title = "terminal";
	s.summary = "$ pytest -q";
	s.tool_call_id = call;
	s.risk = 2;
	return transcript_add_event(t, &s);
}

/* A tool result (observation, rejection, agent error) for tool_call_id. */
static inline enum apply_result add_result(struct transcript *t, int64_t seq, const char *id,
					   const char *call, enum tool_outcome outcome,
					   const char *text)
{
	struct item_spec s = spec_of(ITEM_TOOL_RESULT, seq, id, text);
	s.title = "terminal";
	s.tool_call_id = call;
	s.outcome = outcome;
	return transcript_add_event(t, &s);
}

static inline enum apply_result delta(struct transcript *t, const char *item_id, int attempt,
				      int64_t order, const char *text)
{
	return transcript_stream_delta(t, item_id, attempt, order, false, text, strlen(text));
}

/* Index of the item with id, or -1. */
static inline long find_id(const struct transcript *t, const char *id)
{
	struct item_info info;
	for (size_t i = 0; i < transcript_count(t); i++) {
		transcript_item(t, i, &info);
		if (info.id && strcmp(info.id, id) == 0)
			return (long)i;
	}
	return -1;
}

/* How many items carry id. */
static inline size_t count_id(const struct transcript *t, const char *id)
{
	struct item_info info;
	size_t n = 0;
	for (size_t i = 0; i < transcript_count(t); i++) {
		transcript_item(t, i, &info);
		if (info.id && strcmp(info.id, id) == 0)
			n++;
	}
	return n;
}

static inline struct item_info info_of(const struct transcript *t, size_t idx)
{
	struct item_info info;
	transcript_item(t, idx, &info);
	return info;
}

/* Bytes of item idx's text revealed so far. */
static inline size_t transcript_shown_len(const struct transcript *t, size_t idx)
{
	return info_of(t, idx).shown_len;
}

/* The full text of item idx as a NUL-terminated string (static storage per call site). */
#define assert_item_text(t, idx, want)                                                  \
	do {                                                                            \
		struct item_info info_ = info_of((t), (idx));                           \
		assert_int_equal(info_.text_len, strlen(want));                         \
		assert_memory_equal(info_.text, (want), strlen(want));                  \
	} while (0)

#endif
