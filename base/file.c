/* A whole file read into memory, bounded: what the input history and the external editor's
 * draft read back. */
#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(int fd, int e, const char *path, const char *why, size_t max, struct buf *err)
{
	if (fd >= 0)
		close(fd);
	if (e == EFBIG && max % (1u << 20) == 0)
		buf_printf(err, "%s: larger than %zu MiB", path, max >> 20);
	else if (e == EFBIG)
		buf_printf(err, "%s: larger than %zu bytes", path, max);
	else
		buf_printf(err, "%s: %s", path, why ? why : strerror(e));
	errno = e;
	return -1;
}

int file_read_all(const char *path, size_t max, struct buf *out, bool *cut, struct buf *err)
{
	if (cut)
		*cut = false;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(-1, errno, path, NULL, max, err);
	struct stat st;
	if (fstat(fd, &st) != 0)
		return fail(fd, errno, path, NULL, max, err);
	if (!S_ISREG(st.st_mode))
		return fail(fd, EINVAL, path, "not a regular file", max, err);
	if (!cut && (uintmax_t)st.st_size > max)
		return fail(fd, EFBIG, path, NULL, max, err);
	size_t start = out->len;
	char chunk[65536];
	for (;;) {
		ssize_t r = read(fd, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail(fd, errno, path, NULL, max, err);
		if (r == 0)
			break;
		size_t room = max - (out->len - start);
		if ((size_t)r > room) {
			/* Grown since fstat, or cut asked for. */
			if (!cut) {
				out->len = start;
				return fail(fd, EFBIG, path, NULL, max, err);
			}
			buf_append(out, chunk, room);
			*cut = true;
			break;
		}
		buf_append(out, chunk, (size_t)r);
	}
	close(fd);
	return 0;
}
