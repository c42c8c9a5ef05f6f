/* Helpers the in-process benchmarks share: clocks, memory readings, medians and the figure
 * lines scripts/bench parses. */
#ifndef TETHER_BENCH_UTIL_H
#define TETHER_BENCH_UTIL_H

#include "base.h"

/* CPU seconds this process has used (all threads). */
double bench_cpu_s(void);
/* Monotonic wall seconds. */
double bench_wall_s(void);
/* Peak resident set size so far, in KiB (getrusage). */
long bench_peak_rss_kb(void);
/* Resident set size now, in KiB (/proc/self/statm). */
long bench_rss_kb(void);
/* The median of v[0..n) (reorders v). */
double bench_median(double *v, size_t n);
/* Prints one figure line `name value unit` (what scripts/bench reads); other output starts
 * with '#'. */
void bench_figure(const char *name, double value, const char *unit);
/* Prints a '#' comment line. */
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reads a whole file; NULL when it cannot. Caller frees. */
char *bench_read_file(const char *path, size_t *len);
/* A small deterministic generator (xorshift), so every run builds the same input. */
uint64_t bench_rand(uint64_t *state);

#endif
