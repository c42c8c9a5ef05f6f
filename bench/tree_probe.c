/* tree_probe: what a process tree has cost so far — a peer client in scripts/bench --peers is
 * several processes (Codex: its TUI and an app-server daemon that leaves the tree), so every
 * process that descends from PID or whose environment holds NAME=VALUE is counted: CPU seconds
 * (utime + stime, and the reaped children's cutime + cstime, from /proc/P/stat; 10 ms ticks),
 * the sum of their peak RSS (VmHWM) and their current RSS.
 *
 *   tree_probe PID [NAME=VALUE]   →   cpu_s X / hwm_kb Y / rss_kb Z / procs N / pids P… */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc_status.h"

#define MAX_PROCS 65536

struct proc {
	long pid, ppid;
	double cpu_s;
	int in;
};

static struct proc procs[MAX_PROCS];
static size_t nprocs;

/* utime, stime, cutime, cstime are fields 14–17; comm (field 2) may hold spaces and ')'. */
static int read_stat(long pid, struct proc *p)
{
	char path[64], buf[4096];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *s = strrchr(buf, ')');
	if (!s)
		return -1;
	char state;
	long ppid;
	unsigned long ut, st;
	long cut, cst;
	if (sscanf(s + 2, "%c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %ld %ld", &state,
		   &ppid, &ut, &st, &cut, &cst) != 6)
		return -1;
	p->pid = pid;
	p->ppid = ppid;
	p->cpu_s = (double)(ut + st + (unsigned long)cut + (unsigned long)cst) /
		   (double)sysconf(_SC_CLK_TCK);
	p->in = 0;
	return 0;
}

static int environ_has(long pid, const char *mark)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/environ", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char var[8192];
	size_t len = 0, mlen = strlen(mark);
	int c, found = 0;
	while (!found && (c = fgetc(f)) != EOF) {
		if (c != '\0') {
			if (len < sizeof var - 1)
				var[len++] = (char)c;
			continue;
		}
		found = len == mlen && memcmp(var, mark, mlen) == 0;
		len = 0;
	}
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: tree_probe PID [NAME=VALUE]\n");
		return 2;
	}
	long root = atol(argv[1]);
	const char *mark = argc == 3 ? argv[2] : NULL;
	DIR *d = opendir("/proc");
	if (!d) {
		perror("tree_probe: /proc");
		return 1;
	}
	struct dirent *e;
	while ((e = readdir(d)) && nprocs < MAX_PROCS) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		long pid = atol(e->d_name);
		if (read_stat(pid, &procs[nprocs]) == 0) {
			procs[nprocs].in = pid == root || (mark && environ_has(pid, mark));
			nprocs++;
		}
	}
	closedir(d);
	/* Descendants: repeat until no process joins (a child may be listed before its parent). */
	for (int grew = 1; grew;) {
		grew = 0;
		for (size_t i = 0; i < nprocs; i++) {
			if (procs[i].in)
				continue;
			for (size_t j = 0; j < nprocs; j++)
				if (procs[j].in && procs[j].pid == procs[i].ppid) {
					procs[i].in = grew = 1;
					break;
				}
		}
	}
	double cpu = 0;
	long hwm = 0, rss = 0, n = 0;
	for (size_t i = 0; i < nprocs; i++) {
		if (!procs[i].in)
			continue;
		cpu += procs[i].cpu_s;
		long h = proc_status_kb(procs[i].pid, "VmHWM:"), r = proc_status_kb(procs[i].pid, "VmRSS:");
		hwm += h > 0 ? h : 0;
		rss += r > 0 ? r : 0;
		n++;
	}
	if (n == 0) {
		fprintf(stderr, "tree_probe: no process %s\n", argv[1]);
		return 1;
	}
	printf("cpu_s %.2f\nhwm_kb %ld\nrss_kb %ld\nprocs %ld\npids", cpu, hwm, rss, n);
	for (size_t i = 0; i < nprocs; i++)
		if (procs[i].in)
			printf(" %ld", procs[i].pid);
	printf("\n");
	return 0;
}
