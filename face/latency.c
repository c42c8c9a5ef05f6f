/* Instrumentation for the benchmarks: delta arrival to painted frame. */
#include "latency.h"
#include "base.h"
#include "outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BUCKETS = 10001 };

struct latency {
	int64_t *unpainted;             /* arrival times of deltas not painted yet */
	size_t nunpainted, unpainted_cap;
	uint64_t hist[BUCKETS];         /* 0.1 ms buckets up to 1 s */
	uint64_t frames_painted;
};

struct latency *latency_create(void)
{
	return xcalloc(1, sizeof(struct latency));
}

void latency_destroy(struct latency *l)
{
	if (!l)
		return;
	free(l->unpainted);
	free(l);
}

void latency_delta(struct latency *l, int64_t at_us)
{
	if (l->nunpainted == l->unpainted_cap) {
		l->unpainted_cap = l->unpainted_cap ? 2 * l->unpainted_cap : 256;
		l->unpainted = xrealloc(l->unpainted, l->unpainted_cap * sizeof *l->unpainted);
	}
	l->unpainted[l->nunpainted++] = at_us;
}

void latency_painted(struct latency *l, int64_t now_us)
{
	l->frames_painted++;
	for (size_t i = 0; i < l->nunpainted; i++) {
		int64_t bucket = (now_us - l->unpainted[i]) / 100;
		if (bucket < 0)
			bucket = 0;
		if (bucket > BUCKETS - 1)
			bucket = BUCKETS - 1;
		l->hist[bucket]++;
	}
	l->nunpainted = 0;
}

static double percentile(const struct latency *l, uint64_t total, double p)
{
	uint64_t want = (uint64_t)(p * (double)total + 0.5), seen = 0;
	for (size_t b = 0; b < BUCKETS; b++) {
		seen += l->hist[b];
		if (seen >= want && seen)
			return (double)b / 10.0;
	}
	return 0;
}

void latency_write_stats(const struct latency *l, int render_hz)
{
	FILE *f = outfile_open_stats();
	if (!f)
		return;
	uint64_t total = 0;
	for (size_t b = 0; l && b < BUCKETS; b++)
		total += l->hist[b];
	fprintf(f, "{\"frames\":%llu,\"deltas_painted\":%llu,\"latency_p50_ms\":%.1f,"
		   "\"latency_p99_ms\":%.1f,\"render_hz\":%d}\n",
		(unsigned long long)(l ? l->frames_painted : 0), (unsigned long long)total,
		l ? percentile(l, total, 0.50) : 0.0, l ? percentile(l, total, 0.99) : 0.0,
		render_hz);
	fclose(f);
}
