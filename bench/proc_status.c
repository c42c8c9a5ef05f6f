/* proc_status: one value of /proc/PID/status, for the bench's process probes. */
#include "proc_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number after KEY (e.g. "VmHWM:") in /proc/PID/status, or -1 when absent or gone. */
long proc_status_kb(long pid, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, klen))
			v = atol(line + klen);
	fclose(f);
	return v;
}
