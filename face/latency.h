/* Instrumentation for the benchmarks: delta arrival to painted frame, written to
 * $TETHER_STATS at exit. */
#ifndef TETHER_LATENCY_H
#define TETHER_LATENCY_H

#include <stdint.h>

struct latency;

/* Creates an empty histogram (0.1 ms buckets up to 1 s). */
struct latency *latency_create(void);
/* Frees it. */
void latency_destroy(struct latency *l);
/* A delta arrived at at_us and is not painted yet. */
void latency_delta(struct latency *l, int64_t at_us);
/* A frame was painted at now_us: every delta that arrived before it is on screen. */
void latency_painted(struct latency *l, int64_t now_us);
/* Appends the instrumentation line to $TETHER_STATS when set (l NULL: nothing painted). */
void latency_write_stats(const struct latency *l, int render_hz);

#endif
