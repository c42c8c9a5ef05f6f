/* Instrumentation for the benchmarks: delta arrival to painted frame. */
#include "controller_int.h"
#include "app.h"
#include "outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void controller_frame_painted(struct controller *c, int64_t now_us)
{
	c->frames_painted++;
	for (size_t i = 0; i < c->nunpainted; i++) {
		int64_t bucket = (now_us - c->unpainted[i]) / 100;
		if (bucket < 0)
			bucket = 0;
		if (bucket > 10000)
			bucket = 10000;
		c->latency_hist[bucket]++;
	}
	c->nunpainted = 0;
}

static double latency_percentile(const struct controller *c, uint64_t total, double p)
{
	uint64_t want = (uint64_t)(p * (double)total + 0.5), seen = 0;
	for (size_t b = 0; b <= 10000; b++) {
		seen += c->latency_hist[b];
		if (seen >= want && seen)
			return (double)b / 10.0;
	}
	return 0;
}

/* $TETHER_STATS: one JSON line of instrumentation for the benchmarks. */
void ctl_write_stats(const struct controller *c)
{
	const char *path = getenv("TETHER_STATS");
	if (!path || !*path)
		return;
	FILE *f = outfile_open_append(path);
	if (!f)
		return;
	uint64_t total = 0;
	for (size_t b = 0; b <= 10000; b++)
		total += c->latency_hist[b];
	fprintf(f, "{\"frames\":%llu,\"deltas_painted\":%llu,\"latency_p50_ms\":%.1f,"
		   "\"latency_p99_ms\":%.1f,\"render_hz\":%d}\n",
		(unsigned long long)c->frames_painted, (unsigned long long)total,
		latency_percentile(c, total, 0.50), latency_percentile(c, total, 0.99),
		c->o->render_hz);
	fclose(f);
}
