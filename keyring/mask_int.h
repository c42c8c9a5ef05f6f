/* keyring-private: the compiled matcher behind struct mask_set (mask.c keeps the secrets,
 * mask_build.c compiles them, mask_stream.c runs text through the result). */
#ifndef TETHER_MASK_INT_H
#define TETHER_MASK_INT_H

#include "keyring.h"

/*
 * An Aho–Corasick automaton over bytes. States are numbered so that the hot loop needs
 * one compare per byte: [0, nplain) are "plain" dense states (a full row, no match ends
 * there), [nplain, ndense) are dense states where a secret ends, [ndense, nstates) are
 * sparse states (edge list + failure link) used when a full table would be too big.
 *
 * A transition target is stored as a "code": the row offset (state * nclasses) for a
 * dense state, dense_limit + (state - ndense) for a sparse one. So a plain dense state is
 * exactly a code below plain_limit, and the next code is next[code + cls[byte]].
 */
struct mask_automaton {
	uint8_t cls[256];        /* byte -> class; bytes in no secret share one class */
	uint32_t nclasses;
	uint32_t nstates;
	uint32_t nplain;
	uint32_t ndense;
	uint32_t plain_limit;    /* nplain * nclasses */
	uint32_t dense_limit;    /* ndense * nclasses */
	uint32_t *next;          /* ndense rows of nclasses codes */
	uint32_t *match;         /* per state: length of the longest secret ending here, or 0 */
	uint32_t *hold;          /* per state: longest suffix that a longer secret could extend */
	uint32_t *fail;          /* per state: failure link (only sparse states use it) */
	uint32_t *edge_first;    /* per sparse state (+1 sentinel): index of its first edge */
	uint8_t *edge_byte;      /* edges of sparse states, sorted by byte within a state */
	uint32_t *edge_code;
};

struct mask_secret {
	char *data;
	size_t len;
};

struct mask_set {
	struct mask_secret *secrets;
	size_t count;
	size_t cap;
	size_t longest;
	size_t total;            /* sum of the lengths */
	bool built;              /* ac matches secrets */
	struct mask_automaton ac;
};

/* Dense rows are capped at this many entries (4 bytes each); deeper states go sparse. */
#define MASK_DENSE_BUDGET (1u << 21)

/* Compiles the secrets of m into m->ac (replacing an earlier automaton). */
void mask_automaton_build(struct mask_set *m);
/* Wipes and frees an automaton. */
void mask_automaton_free(struct mask_automaton *ac);
/* Builds the automaton if secrets were added since the last build. */
void mask_set_prepare(const struct mask_set *m);

/* The state behind a code. */
static inline uint32_t mask_code_state(const struct mask_automaton *ac, uint32_t code)
{
	return code < ac->dense_limit ? code / ac->nclasses : ac->ndense + (code - ac->dense_limit);
}

/* The code of a state. */
static inline uint32_t mask_state_code(const struct mask_automaton *ac, uint32_t state)
{
	return state < ac->ndense ? state * ac->nclasses : ac->dense_limit + (state - ac->ndense);
}

/* One transition from any state (the hot loop inlines the dense case itself). */
uint32_t mask_automaton_step(const struct mask_automaton *ac, uint32_t code, unsigned char b);

#endif
