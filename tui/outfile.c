#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

FILE *outfile_open_append(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "a");
	if (!f) {
		int saved = errno;
		close(fd);
		errno = saved;
	}
	return f;
}

FILE *outfile_open_stats(void)
{
	const char *path = getenv("TETHER_STATS");
	return path && *path ? outfile_open_append(path) : NULL;
}
