/* history_file: the input history across runs. The file is read whole and replaced whole
 * (a temporary file renamed over it), so a crash leaves the old file or the new one. An
 * append reads, adds and replaces under an exclusive lock on FILE.lock, so two runs on one
 * server each add to what the other wrote (without it, each would rename its own read over
 * the other's entries). */
#include "history_file.h"
#include "conv.h"
#include "net.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	NAME_MAX_CHARS = 96,
	READ_MAX_BYTES = 16 * 1024 * 1024,  /* a bigger file is not ours to read */
};

void history_line_encode(const char *entry, size_t n, struct buf *out)
{
	for (size_t i = 0; i < n; i++) {
		if (entry[i] == '\\')
			buf_puts(out, "\\\\");
		else if (entry[i] == '\n')
			buf_puts(out, "\\n");
		else
			buf_putc(out, entry[i]);
	}
}

int history_line_decode(const char *line, size_t n, struct buf *out)
{
	size_t start = out->len;
	for (size_t i = 0; i < n; i++) {
		if (line[i] != '\\') {
			buf_putc(out, line[i]);
			continue;
		}
		if (i + 1 < n && (line[i + 1] == '\\' || line[i + 1] == 'n')) {
			buf_putc(out, line[++i] == 'n' ? '\n' : '\\');
			continue;
		}
		out->len = start;
		if (out->data)
			out->data[start] = '\0';
		return -1;
	}
	return 0;
}

/* HOST_PORT[_PATH] with every byte but letters, digits, '.' and '-' as '_'; a long name is
 * cut and ends with a hash of the whole, so that two servers never share a file. */
static void server_name(const struct server_url *su, struct buf *out)
{
	struct buf raw;
	buf_init(&raw);
	buf_printf(&raw, "%s_%d%s%s", su->host, su->port, su->base_path[0] ? "_" : "",
		   su->base_path[0] == '/' ? su->base_path + 1 : su->base_path);
	uint32_t hash = 2166136261u;
	for (size_t i = 0; i < raw.len; i++) {
		unsigned char c = (unsigned char)raw.data[i];
		hash = (hash ^ c) * 16777619u;
		bool keep = (c >= '0' && c <= '9') || ascii_is_letter(c) ||
			    c == '.' || c == '-';
		if (i < NAME_MAX_CHARS)
			buf_putc(out, keep ? (char)c : '_');
	}
	if (raw.len > NAME_MAX_CHARS)
		buf_printf(out, "_%08x", (unsigned)hash);
	buf_fini(&raw);
}

int history_file_path(const char *server, struct buf *path, struct buf *err)
{
	struct server_url su;
	if (server_url_parse(server, &su) != 0) {
		buf_puts(err, "the server URL cannot name a history file");
		return -1;
	}
	/* The XDG spec: a relative $XDG_STATE_HOME is invalid and ignored. */
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (state && state[0] == '/')
		buf_printf(path, "%s/tether/history-", state);
	else if (home && home[0] == '/')
		buf_printf(path, "%s/.local/state/tether/history-", home);
	else {
		buf_puts(err, "neither $XDG_STATE_HOME nor $HOME names a directory");
		return -1;
	}
	server_name(&su, path);
	return 0;
}

void history_entries_free(char **entries, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(entries[i]);
	free(entries);
}

/* Keeps the newest entries within the bounds: drops from the front. */
static void bound_entries(char **entries, size_t *count)
{
	size_t keep = 0, bytes = 0;
	struct buf line;
	buf_init(&line);
	while (keep < *count && keep < HISTORY_FILE_MAX_ENTRIES) {
		const char *e = entries[*count - 1 - keep];
		buf_clear(&line);
		history_line_encode(e, strlen(e), &line);
		if (bytes + line.len + 1 > HISTORY_FILE_MAX_BYTES)
			break;
		bytes += line.len + 1;
		keep++;
	}
	buf_fini(&line);
	size_t drop = *count - keep;
	for (size_t i = 0; i < drop; i++)
		free(entries[i]);
	if (drop && keep)
		memmove(entries, entries + drop, keep * sizeof *entries);
	*count = keep;
}

long history_file_load(const char *path, char ***entries, size_t *count, struct buf *err)
{
	*entries = NULL;
	*count = 0;
	struct buf text, entry, clean;
	buf_init(&text);
	size_t said = err->len;
	if (file_read_all(path, READ_MAX_BYTES, &text, NULL, err) != 0) {
		bool none = errno == ENOENT;    /* no history yet */
		buf_fini(&text);
		if (!none)
			return -1;
		err->len = said;
		return 0;
	}
	buf_init(&entry);
	buf_init(&clean);
	long damaged = 0;
	size_t cap = 0;
	for (size_t at = 0; at < text.len;) {
		const char *nl = memchr(text.data + at, '\n', text.len - at);
		size_t end = nl ? (size_t)(nl - text.data) : text.len;
		buf_clear(&entry);
		buf_clear(&clean);
		if (end > at && history_line_decode(text.data + at, end - at, &entry) != 0)
			damaged++;
		else if (entry.len)
			sanitize_text(entry.data, entry.len, &clean);
		if (clean.len) {
			if (*count == cap) {
				cap = cap ? cap * 2 : 64;
				*entries = xrealloc(*entries, cap * sizeof **entries);
			}
			(*entries)[(*count)++] = buf_steal(&clean);
		}
		at = end + 1;
	}
	bound_entries(*entries, count);
	buf_fini(&text);
	buf_fini(&entry);
	buf_fini(&clean);
	return damaged;
}

/* mkdir -p of path's directory, new directories 0700. */
static int make_dirs(const char *path, struct buf *err)
{
	char *dir = xstrdup(path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			buf_printf(err, "%s: %s", dir, strerror(errno));
			free(dir);
			return -1;
		}
		*p = '/';
	}
	free(dir);
	return 0;
}

static int replace_file(const char *path, const struct buf *text, struct buf *err)
{
	struct buf tmp;
	buf_init(&tmp);
	buf_printf(&tmp, "%s.XXXXXX", path);
	int fd = mkstemp(tmp.data);
	if (fd < 0) {
		buf_printf(err, "%s: %s", buf_cstr(&tmp), strerror(errno));
		buf_fini(&tmp);
		return -1;
	}
	int rc = fchmod(fd, 0600) == 0 && fd_write_all(fd, text->data ? text->data : "", text->len) == 0 &&
			 fsync(fd) == 0 ? 0 : -1;
	int saved = errno;
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc == 0 && rename(tmp.data, path) != 0) {
		rc = -1;
		saved = errno;
	}
	if (rc != 0) {
		buf_printf(err, "%s: %s", path, strerror(saved));
		unlink(tmp.data);
	}
	buf_fini(&tmp);
	return rc;
}

/* The lock that orders appends: FILE.lock, locked whole, waited for (an append is short). */
static int lock_file(const char *path, struct buf *err)
{
	struct buf lp;
	buf_init(&lp);
	buf_printf(&lp, "%s.lock", path);
	int fd = open(buf_cstr(&lp), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	int rc = fd;
	while (fd >= 0 && (rc = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
		;
	if (fd < 0 || rc != 0) {
		buf_printf(err, "%s: %s", buf_cstr(&lp), strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	buf_fini(&lp);
	return fd;
}

/* Reads the file again (what other runs added meanwhile), adds entry and replaces it. */
static int append_locked(const char *path, const char *entry, struct buf *err)
{
	char **entries;
	size_t count;
	if (history_file_load(path, &entries, &count, err) < 0)
		return -1;
	if (count && strcmp(entries[count - 1], entry) == 0) {
		history_entries_free(entries, count);
		return 0;
	}
	entries = xrealloc(entries, (count + 1) * sizeof *entries);
	entries[count++] = xstrdup(entry);
	bound_entries(entries, &count);
	struct buf text;
	buf_init(&text);
	for (size_t i = 0; i < count; i++) {
		history_line_encode(entries[i], strlen(entries[i]), &text);
		buf_putc(&text, '\n');
	}
	history_entries_free(entries, count);
	int rc = replace_file(path, &text, err);
	buf_fini(&text);
	return rc;
}

int history_file_append(const char *path, const char *entry, struct buf *err)
{
	struct buf line;
	buf_init(&line);
	history_line_encode(entry, strlen(entry), &line);
	size_t len = line.len;
	buf_fini(&line);
	if (len > HISTORY_FILE_MAX_ENTRY)
		return 0;
	if (!*entry)
		return 0;
	if (make_dirs(path, err) != 0)
		return -1;
	int lock = lock_file(path, err);
	if (lock < 0)
		return -1;
	int rc = append_locked(path, entry, err);
	close(lock);                        /* drops the lock */
	return rc;
}

/* ------------------------------------------------------------------ the TUI's */

void tui_history_load(struct tui *u)
{
	if (!u->o->history)
		return;
	struct buf path, err;
	buf_init(&path);
	buf_init(&err);
	if (history_file_path(u->o->server, &path, &err) != 0) {
		ui_notice(&u->ui, "input history is not kept: %s", buf_cstr(&err));
		buf_fini(&path);
		buf_fini(&err);
		return;
	}
	char **entries;
	size_t count;
	long damaged = history_file_load(buf_cstr(&path), &entries, &count, &err);
	if (damaged < 0) {
		/* Replacing a file that could not be read would lose it: not kept this run. */
		ui_notice(&u->ui, "input history is not kept this run: %s", buf_cstr(&err));
		buf_fini(&path);
	} else {
		for (size_t i = 0; i < count; i++)
			editor_history_add(&u->input, entries[i]);
		if (damaged)
			ui_notice(&u->ui, "input history: %ld damaged line%s skipped in %s", damaged,
				   damaged == 1 ? "" : "s", buf_cstr(&path));
		free(u->history_path);
		u->history_path = buf_steal(&path);
	}
	history_entries_free(entries, count);
	buf_fini(&err);
}

void tui_history_save(struct tui *u, const char *entry)
{
	if (!u->history_path)
		return;
	struct buf masked, err;
	buf_init(&masked);
	buf_init(&err);
	controller_clean(u->cur->ctl, entry, strlen(entry), &masked);
	if (history_file_append(u->history_path, buf_cstr(&masked), &err) != 0) {
		ui_notice(&u->ui, "input history is not saved any more this run: %s", buf_cstr(&err));
		free(u->history_path);
		u->history_path = NULL;
	}
	buf_fini(&masked);
	buf_fini(&err);
}
