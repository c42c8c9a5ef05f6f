/* outfile: the files tether appends to (--record, --log, $TETHER_STATS). They hold what the
 * server said, so they are never reached through a symbolic link (which could point them at
 * a file of someone else's choosing) and always end 0600, an existing file included. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *outfile_open_append(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0600);
	if (fd < 0)
		return NULL;
	/* The mode of a file that was already there is made 0600 too; a device or a pipe
	 * (/dev/null, a FIFO) keeps its own. */
	struct stat st;
	int rc = fstat(fd, &st);
	if (rc == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) != 0600)
		rc = fchmod(fd, 0600);
	FILE *f = rc == 0 ? fdopen(fd, "a") : NULL;
	if (!f) {
		int saved = errno;
		close(fd);
		errno = saved;
	}
	return f;
}

const char *outfile_strerror(int err)
{
	return err == ELOOP ? "a symbolic link (not followed: name the file itself)" : strerror(err);
}

FILE *outfile_open_stats(void)
{
	const char *path = getenv("TETHER_STATS");
	return path && *path ? outfile_open_append(path) : NULL;
}

int outfile_check_stats(struct buf *err)
{
	const char *path = getenv("TETHER_STATS");
	if (!path || !*path)
		return 0;
	FILE *f = outfile_open_append(path);
	if (!f) {
		buf_printf(err, "$TETHER_STATS %s: %s", path, outfile_strerror(errno));
		return -1;
	}
	fclose(f);
	return 0;
}
