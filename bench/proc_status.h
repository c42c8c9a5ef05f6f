/* proc_status: one value of /proc/PID/status, for the bench's process probes. */
#ifndef TETHER_BENCH_PROC_STATUS_H
#define TETHER_BENCH_PROC_STATUS_H

/* The number after KEY (e.g. "VmHWM:") in /proc/PID/status, or -1 when absent or gone. */
long proc_status_kb(long pid, const char *key);

#endif
