/* Session API keys in a file of the user's own, for hosts without a Secret Service (as gh
 * does): one "server<TAB>key" line per server, in $XDG_CONFIG_HOME/tether/keys, mode 0600.
 * A file anyone else could read or swap is refused, never used. */
#include "store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Far above any number of keys; a bound so that a stray file cannot fill memory. */
#define KEY_FILE_MAX (1024 * 1024)

int keyring_file_path(struct buf *out)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	if (xdg && *xdg == '/')
		buf_printf(out, "%s/tether/keys", xdg);
	else if (home && *home)
		buf_printf(out, "%s/.config/tether/keys", home);
	else
		return -1;
	return 0;
}

static enum keyring_status no_path(struct buf *err)
{
	return keyring_call_error(err, KEYRING_ERROR,
				  "keyring: no key file: neither XDG_CONFIG_HOME nor HOME is set");
}

/* Wipes and frees the text of a key file. */
static void text_free(struct buf *b)
{
	if (b->data)
		mem_wipe(b->data, b->cap);
	buf_fini(b);
}

/* Reads the key file at path into text (empty when there is none: KEYRING_NOT_FOUND). A
 * symbolic link, anything but a regular file of ours, or a mode wider than 0600 is refused. */
static enum keyring_status file_read(const char *path, struct buf *text, struct buf *err)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT)
		return KEYRING_NOT_FOUND;
	if (fd < 0 && errno == ELOOP)
		return keyring_call_error(err, KEYRING_ERROR,
					  "keyring: %s is a symbolic link, so it is not used; "
					  "make it a plain file of yours with mode 0600", path);
	if (fd < 0)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: cannot open %s: %s", path,
					  strerror(errno));
	struct stat st;
	enum keyring_status rc = KEYRING_OK;
	if (fstat(fd, &st) != 0)
		rc = keyring_call_error(err, KEYRING_ERROR, "keyring: cannot read %s: %s", path,
					strerror(errno));
	else if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
		rc = keyring_call_error(err, KEYRING_ERROR,
					"keyring: %s is not a plain file of yours, so it is not used",
					path);
	else if (st.st_mode & 077)
		rc = keyring_call_error(err, KEYRING_ERROR,
					"keyring: %s has mode %04o: others may read it, so it is not "
					"used; chmod 600 it (and change the keys in it)",
					path, (unsigned)(st.st_mode & 07777));
	else if (st.st_size > KEY_FILE_MAX)
		rc = keyring_call_error(err, KEYRING_ERROR, "keyring: %s is larger than %d bytes",
					path, KEY_FILE_MAX);
	if (rc != KEYRING_OK) {
		close(fd);
		return rc;
	}
	/* Reserved once: a buffer that grew would leave copies of the keys behind. */
	buf_reserve(text, KEY_FILE_MAX + 2);
	for (;;) {
		ssize_t n = read(fd, text->data + text->len, KEY_FILE_MAX + 1 - text->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = keyring_call_error(err, KEYRING_ERROR, "keyring: cannot read %s: %s", path,
						strerror(errno));
			break;
		}
		if (n == 0)
			break;
		text->len += (size_t)n;
		if (text->len > KEY_FILE_MAX) {
			rc = keyring_call_error(err, KEYRING_ERROR,
						"keyring: %s is larger than %d bytes", path, KEY_FILE_MAX);
			break;
		}
	}
	text->data[text->len] = '\0';
	close(fd);
	return rc;
}

/* The key file's path, its text (read by the caller) and the server's line name. */
struct key_file {
	struct buf path, text;
	char *server;
};

/* Sets f up for server_url; false when there is no path for the file (nothing to close). */
static bool key_file_open(struct key_file *f, const char *server_url)
{
	buf_init(&f->path);
	buf_init(&f->text);
	if (keyring_file_path(&f->path) != 0) {
		buf_fini(&f->path);
		return false;
	}
	f->server = keyring_server_normalize(server_url);
	return true;
}

/* Frees f, the text wiped (it holds keys). */
static void key_file_close(struct key_file *f)
{
	free(f->server);
	text_free(&f->text);
	buf_fini(&f->path);
}

/* The line of text for server: its start and length (with its newline), or false. */
static bool line_find(const struct buf *text, const char *server, size_t *at, size_t *len)
{
	size_t sl = strlen(server);
	for (size_t i = 0; i < text->len;) {
		const char *nl = memchr(text->data + i, '\n', text->len - i);
		size_t end = nl ? (size_t)(nl - text->data) + 1 : text->len;
		if (end - i > sl && !memcmp(text->data + i, server, sl) && text->data[i + sl] == '\t') {
			*at = i;
			*len = end - i;
			return true;
		}
		i = end;
	}
	return false;
}

enum keyring_status keyring_file_key_get(const char *server_url, char **key, struct buf *err)
{
	*key = NULL;
	struct key_file f;
	if (!key_file_open(&f, server_url))
		return no_path(err);
	enum keyring_status rc = file_read(buf_cstr(&f.path), &f.text, err);
	size_t at, len;
	if (rc == KEYRING_OK && line_find(&f.text, f.server, &at, &len)) {
		const char *v = f.text.data + at + strlen(f.server) + 1;
		size_t vl = len - strlen(f.server) - 1;
		if (vl && v[vl - 1] == '\n')
			vl--;
		if (vl && v[vl - 1] == '\r')
			vl--;
		*key = xstrndup(v, vl);
	} else if (rc == KEYRING_OK || rc == KEYRING_NOT_FOUND) {
		rc = keyring_call_error(err, KEYRING_NOT_FOUND,
					"keyring: no session API key for %s is stored in %s", f.server,
					buf_cstr(&f.path));
	}
	if (*key && !**key) {
		free(*key);
		*key = NULL;
		rc = keyring_call_error(err, KEYRING_NOT_FOUND,
					"keyring: the session API key for %s in %s is empty", f.server,
					buf_cstr(&f.path));
	}
	key_file_close(&f);
	return rc;
}

/* Makes dir (mode 0700) when it is missing. */
static int dir_make(const char *dir)
{
	return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* Writes text over path: a new file of mode 0600 beside it, renamed into place. An empty
 * text removes the file. */
static enum keyring_status file_write(const char *path, const struct buf *text, struct buf *err)
{
	if (text->len == 0) {
		if (unlink(path) != 0 && errno != ENOENT)
			return keyring_call_error(err, KEYRING_ERROR, "keyring: cannot remove %s: %s",
						  path, strerror(errno));
		return KEYRING_OK;
	}
	/* $XDG_CONFIG_HOME, then its tether directory. */
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	*slash = '\0';
	char *parent_slash = strrchr(dir, '/');
	if (parent_slash && parent_slash != dir) {
		*parent_slash = '\0';
		dir_make(dir);
		*parent_slash = '/';
	}
	int made = dir_make(dir);
	free(dir);
	if (made != 0)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: cannot make the directory of %s: %s",
					  path, strerror(errno));
	struct buf tmp;
	buf_init(&tmp);
	buf_printf(&tmp, "%s.new-%ld", path, (long)getpid());
	unlink(buf_cstr(&tmp));
	int fd = open(buf_cstr(&tmp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	enum keyring_status rc = KEYRING_OK;
	if (fd < 0) {
		rc = keyring_call_error(err, KEYRING_ERROR, "keyring: cannot write %s: %s",
					buf_cstr(&tmp), strerror(errno));
	} else {
		if (fchmod(fd, 0600) != 0 || fd_write_all(fd, text->data, text->len) != 0 ||
		    fsync(fd) != 0)
			rc = keyring_call_error(err, KEYRING_ERROR, "keyring: cannot write %s: %s",
						buf_cstr(&tmp), strerror(errno));
		if (close(fd) != 0 && rc == KEYRING_OK)
			rc = keyring_call_error(err, KEYRING_ERROR, "keyring: cannot write %s: %s",
						buf_cstr(&tmp), strerror(errno));
		if (rc == KEYRING_OK && rename(buf_cstr(&tmp), path) != 0)
			rc = keyring_call_error(err, KEYRING_ERROR, "keyring: cannot write %s: %s", path,
						strerror(errno));
		if (rc != KEYRING_OK)
			unlink(buf_cstr(&tmp));
	}
	buf_fini(&tmp);
	return rc;
}

/* Reads the file, drops the line of server, adds "server<TAB>key" when key is set, and
 * writes it back. KEYRING_NOT_FOUND when there was nothing to drop and no key to add. */
static enum keyring_status file_update(const char *server_url, const char *key, struct buf *err)
{
	struct key_file f;
	if (!key_file_open(&f, server_url))
		return no_path(err);
	enum keyring_status rc = file_read(buf_cstr(&f.path), &f.text, err);
	if (rc == KEYRING_NOT_FOUND) {
		rc = KEYRING_OK;
		buf_reserve(&f.text, KEY_FILE_MAX + 2);
	}
	size_t at, len;
	bool had = false;
	if (rc == KEYRING_OK && line_find(&f.text, f.server, &at, &len)) {
		memmove(f.text.data + at, f.text.data + at + len, f.text.len - at - len);
		f.text.len -= len;
		had = true;
	}
	if (rc == KEYRING_OK && key) {
		if (f.text.len && f.text.data[f.text.len - 1] != '\n')
			f.text.data[f.text.len++] = '\n';
		if (f.text.len + strlen(f.server) + strlen(key) + 2 > KEY_FILE_MAX)
			rc = keyring_call_error(err, KEYRING_ERROR, "keyring: %s would be larger than %d bytes",
						buf_cstr(&f.path), KEY_FILE_MAX);
		else {
			/* not buf_printf: its stack buffer would keep a copy of the key */
			buf_puts(&f.text, f.server);
			buf_putc(&f.text, '\t');
			buf_puts(&f.text, key);
			buf_putc(&f.text, '\n');
		}
	}
	if (rc == KEYRING_OK && !key && !had)
		rc = keyring_call_error(err, KEYRING_NOT_FOUND,
					"keyring: no session API key for %s is stored in %s", f.server,
					buf_cstr(&f.path));
	else if (rc == KEYRING_OK)
		rc = file_write(buf_cstr(&f.path), &f.text, err);
	key_file_close(&f);
	return rc;
}

enum keyring_status keyring_file_key_set(const char *server_url, const char *key, struct buf *err)
{
	if (!server_url || !*server_url || strpbrk(server_url, "\t\r\n"))
		return keyring_call_error(err, KEYRING_ERROR, "keyring: no usable server URL given");
	if (!key || !*key || strpbrk(key, "\r\n"))
		return keyring_call_error(err, KEYRING_ERROR, "keyring: the API key must be one line");
	return file_update(server_url, key, err);
}

enum keyring_status keyring_file_key_rm(const char *server_url, struct buf *err)
{
	if (!server_url || !*server_url)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: no server URL given");
	return file_update(server_url, NULL, err);
}
