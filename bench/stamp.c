/* stamp: the start-up clock of scripts/bench, read from outside tether. tmux pipe-pane feeds
 * it every byte tether writes to its terminal; when MARKER arrives it writes the wall clock
 * (CLOCK_REALTIME, seconds) and the CPU tether has used so far (its process CPU clock) to
 * OUT, then reads on to the end so that tmux never waits on the pipe. A C program, not a
 * script: on a loaded machine an interpreter's own start-up took longer than tether's.
 *
 *   stamp MARKER PIDFILE OUT   →   OUT: "WALL_S CPU_S"   (PIDFILE: tether's pid) */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timespec ts)
{
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* tether's CPU seconds so far, or -1. */
static double cpu_of(const char *pidfile)
{
	FILE *f = fopen(pidfile, "r");
	long pid = 0;
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	clockid_t clk;
	struct timespec ts;
	if (pid <= 0 || clock_getcpuclockid((pid_t)pid, &clk) != 0 || clock_gettime(clk, &ts) != 0)
		return -1;
	return seconds(ts);
}

int main(int argc, char **argv)
{
	if (argc != 4 || !*argv[1]) {
		fprintf(stderr, "usage: stamp MARKER PIDFILE OUT\n");
		return 2;
	}
	const char *marker = argv[1];
	size_t mlen = strlen(marker), have = 0;
	static char window[65536 * 2];
	int found = 0;
	for (;;) {
		ssize_t r = read(STDIN_FILENO, window + have, 65536);
		if (r <= 0)
			break;
		if (found)
			continue;
		have += (size_t)r;
		if (memmem(window, have, marker, mlen)) {
			struct timespec now;
			clock_gettime(CLOCK_REALTIME, &now);
			double cpu = cpu_of(argv[2]);
			FILE *out = fopen(argv[3], "w");
			if (out) {
				fprintf(out, "%.6f %.6f\n", seconds(now), cpu);
				fclose(out);
			}
			found = 1;
			continue;
		}
		/* keep the end that may hold the marker's first bytes */
		size_t keep = have < mlen ? have : mlen - 1;
		memmove(window, window + have - keep, keep);
		have = keep;
	}
	return 0;
}
