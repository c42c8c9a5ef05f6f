/* clipboard: text copied to the terminal's clipboard (OSC 52), else to a private file. */
#include "clipboard.h"
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

void clipboard_clean(const char *s, size_t n, struct buf *out)
{
	for (size_t at = 0; at < n;) {
		uint32_t cp;
		size_t len = utf8_next(s + at, n - at, &cp);
		if (!len)
			break;
		bool control = (cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7F ||
			       (cp >= 0x80 && cp < 0xA0) || cp == UTF8_INVALID;
		if (!control)
			buf_append(out, s + at, len);
		at += len;
	}
}

void clipboard_osc52_bytes(bool passthrough, const char *s, size_t n, struct buf *out)
{
	struct buf seq;
	buf_init(&seq);
	buf_puts(&seq, "\033]52;c;");
	base64((const unsigned char *)s, n, &seq);
	buf_puts(&seq, "\a");
	terminal_passthrough(passthrough, seq.data, seq.len, out);
	buf_fini(&seq);
}

/* One global option of the tmux server tether runs under ("" when it does not say). */
static void tmux_option(const char *name, char *value, size_t size)
{
	char cmd[96];
	snprintf(cmd, sizeof cmd, "tmux show-options -gv %s </dev/null 2>/dev/null", name);
	value[0] = '\0';
	FILE *f = popen(cmd, "r");
	if (!f)
		return;
	if (!fgets(value, (int)size, f))
		value[0] = '\0';
	value[strcspn(value, "\n")] = '\0';
	pclose(f);
}

enum route { ROUTE_FILE, ROUTE_OSC52, ROUTE_PASSTHROUGH };

/* Where the copy goes, and when it is the file in auto mode, why, in words. */
static enum route choose_route(enum osc52_mode mode, int said, struct buf *why)
{
	const char *tmux = getenv("TMUX");
	if (mode == OSC52_OFF)
		return ROUTE_FILE;
	if (mode == OSC52_ON)
		return ROUTE_OSC52;
	if (tmux && *tmux) {
		char clip[32], pass[32];
		tmux_option("set-clipboard", clip, sizeof clip);
		if (!strcmp(clip, "on"))
			return ROUTE_OSC52;
		tmux_option("allow-passthrough", pass, sizeof pass);
		if (!strcmp(pass, "on") || !strcmp(pass, "all"))
			return ROUTE_PASSTHROUGH;
		buf_printf(why, "tmux takes no clipboard from programs (set-clipboard %s): "
			   "set -g set-clipboard on", clip[0] ? clip : "not known");
		return ROUTE_FILE;
	}
	/* Only the terminal's answer: terminfo's Ms comes with TERM=xterm-256color, which many
	 * terminals without OSC 52 (VTE's) claim, and the copy would be lost without a word. */
	if (said == 1)
		return ROUTE_OSC52;
	buf_printf(why, "the terminal %s it takes OSC 52 (osc52 = on sends it anyway)",
		   said == 0 ? "did not say" : "has not said yet");
	return ROUTE_FILE;
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

void clipboard_copy(struct ui *ui, enum osc52_mode mode, int said, const char *s, size_t n)
{
	struct buf text, why, path;
	buf_init(&text);
	buf_init(&why);
	buf_init(&path);
	clipboard_clean(s, n, &text);
	n = text.len;
	enum route r = choose_route(mode, said, &why);
	if (r != ROUTE_FILE) {
		struct buf seq;
		buf_init(&seq);
		clipboard_osc52_bytes(r == ROUTE_PASSTHROUGH, text.data ? text.data : "", n, &seq);
		if (terminal_write_raw(seq.data, seq.len) == 0)
			ui_notice(ui, "copied %zu byte%s to the clipboard (OSC 52%s)", n, n == 1 ? "" : "s",
				  r == ROUTE_PASSTHROUGH ? " through tmux's passthrough" : "");
		else
			ui_notice(ui, "copy failed: the terminal could not be written");
		buf_fini(&seq);
	} else if (copy_file(text.data ? text.data : "", n, &path) == 0) {
		ui_notice(ui, "copied %zu byte%s to %s%s%s", n, n == 1 ? "" : "s", buf_cstr(&path),
			  why.len ? ": " : "", buf_cstr(&why));
	} else {
		ui_notice(ui, "copy failed: %s: %s", buf_cstr(&path), strerror(errno));
	}
	buf_fini(&text);
	buf_fini(&why);
	buf_fini(&path);
}
