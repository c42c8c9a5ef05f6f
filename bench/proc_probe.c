/* proc_probe: what a running process has cost so far — CPU seconds from its process CPU
 * clock (nanosecond resolution, unlike the 10 ms ticks of /proc/PID/stat) and its peak and
 * current RSS from /proc/PID/status. scripts/bench samples tether with it just before
 * quitting it, so that teardown is not counted.
 *
 *   proc_probe PID   →   cpu_s X / hwm_kb Y / rss_kb Z */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include "proc_status.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: proc_probe PID\n");
		return 2;
	}
	pid_t pid = (pid_t)atol(argv[1]);
	clockid_t clk;
	struct timespec ts;
	if (clock_getcpuclockid(pid, &clk) != 0 || clock_gettime(clk, &ts) != 0) {
		fprintf(stderr, "proc_probe: no such process %s\n", argv[1]);
		return 1;
	}
	printf("cpu_s %.6f\nhwm_kb %ld\nrss_kb %ld\n", (double)ts.tv_sec + (double)ts.tv_nsec / 1e9,
	       proc_status_kb((long)pid, "VmHWM:"), proc_status_kb((long)pid, "VmRSS:"));
	return 0;
}
