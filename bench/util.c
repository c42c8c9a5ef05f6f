#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double bench_cpu_s(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

double bench_wall_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

long bench_peak_rss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

long bench_rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size = 0, resident = 0;
	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bench_figure(const char *name, double value, const char *unit)
{
	printf("%s %.6g %s\n", name, value, unit);
	fflush(stdout);
}

void bench_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
}

char *bench_read_file(const char *path, size_t *len)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return NULL;
	struct buf b;
	buf_init(&b);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return buf_steal(&b);
}

uint64_t bench_rand(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}
