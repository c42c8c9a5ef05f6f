/* clipboard: text copied to the terminal's clipboard (OSC 52), else to a private file. */
#include "clipboard.h"
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void base64(const unsigned char *s, size_t n, struct buf *out)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		buf_putc(out, abc[(v >> 18) & 63]);
		buf_putc(out, abc[(v >> 12) & 63]);
		buf_putc(out, i + 1 < n ? abc[(v >> 6) & 63] : '=');
		buf_putc(out, i + 2 < n ? abc[v & 63] : '=');
	}
}

static int copy_osc52(const char *s, size_t n)
{
	struct buf seq;
	buf_init(&seq);
	buf_puts(&seq, "\033]52;c;");
	base64((const unsigned char *)s, n, &seq);
	buf_puts(&seq, "\a");
	int rc = terminal_write_raw(seq.data, seq.len);
	buf_fini(&seq);
	return rc;
}

/* Writes the text to $XDG_RUNTIME_DIR/tether-copy.txt, else a per-user file in /tmp, never
 * following a symlink planted there, nor writing into a file of someone else's; a file left
 * there with a wider mode is made 0600 before the text goes in. */
static int copy_file(const char *s, size_t n, struct buf *path)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	if (dir && *dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		buf_printf(path, "%s/tether-copy.txt", dir);
	else
		buf_printf(path, "/tmp/tether-copy-%lu.txt", (unsigned long)getuid());
	int fd = open(path->data, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	int rc = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		 fchmod(fd, 0600) == 0 && ftruncate(fd, 0) == 0 ? 0 : -1;
	while (n && rc == 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			rc = -1;
		else {
			s += w;
			n -= (size_t)w;
		}
	}
	if (close(fd) != 0)
		rc = -1;
	return rc;
}

void clipboard_copy(struct ui *ui, bool osc52, const char *s, size_t n)
{
	if (osc52) {
		if (copy_osc52(s, n) == 0)
			ui_notice(ui, "copied %zu byte%s to the clipboard (OSC 52)", n, n == 1 ? "" : "s");
		else
			ui_notice(ui, "copy failed: the terminal could not be written");
		return;
	}
	struct buf path;
	buf_init(&path);
	if (copy_file(s, n, &path) == 0)
		ui_notice(ui, "copied %zu byte%s to %s (TETHER_OSC52=1 or osc52 = on uses the clipboard)",
			   n, n == 1 ? "" : "s", buf_cstr(&path));
	else
		ui_notice(ui, "copy failed: %s: %s", buf_cstr(&path), strerror(errno));
	buf_fini(&path);
}
