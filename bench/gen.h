/* Input for the in-process benchmarks, built deterministically in memory: the streamed
 * answer cut into delta frames, the local secrets, and realistic durable event frames. */
#ifndef TETHER_BENCH_GEN_H
#define TETHER_BENCH_GEN_H

#include "base.h"

/* Frames as the server sends them: one JSON text each. */
struct gen_frames {
	char **json;
	size_t *len;
	size_t n;
	size_t bytes;
};

/* Frees the frames. */
void gen_frames_free(struct gen_frames *f);

/* The text to stream: answer.md when path can be read (else a built-in paragraph), with a
 * paragraph of CJK, accents and emoji appended so that UTF-8 crosses delta boundaries, and
 * with secrets[i] (when nsecrets > 0) woven in every few KB. Caller frees. */
char *gen_stream_text(const char *answer_path, char **secrets, size_t nsecrets, size_t *len);
/* nsecrets distinct secrets of the shape real API keys have. Free with gen_strings_free. */
char **gen_secrets(size_t nsecrets, uint64_t seed);
/* Frees an array of strings. */
void gen_strings_free(char **s, size_t n);

/* n delta frames cutting text into pieces of 4 code points, the stream repeating as often
 * as needed; a new item_id every time the text starts over (order restarts at 0). The
 * item of frame i is item_of[i] when item_of is not NULL (caller frees *item_of). */
void gen_delta_frames(const char *text, size_t len, size_t n, struct gen_frames *out,
		      size_t **item_of);
/* The item_id gen_delta_frames uses for stream k. */
void gen_item_id(size_t k, char *out, size_t size);

/* An endless, deterministic conversation history, one durable frame at a time: a system
 * prompt, then rounds of user message, status updates, actions and observations (outputs up
 * to max_output bytes, most small), agent-error events now and then, and an agent answer in
 * markdown (some with reasoning). */
struct gen_history;

/* Starts a history. */
struct gen_history *gen_history_create(size_t max_output, uint64_t seed);
/* Frees it. */
void gen_history_destroy(struct gen_history *h);
/* Appends the next durable frame (seq counting from 0) to out. */
void gen_history_next(struct gen_history *h, struct buf *out);

/* The first n frames of a gen_history, held in memory. */
void gen_durable_frames(size_t n, size_t max_output, uint64_t seed, struct gen_frames *out);

#endif
