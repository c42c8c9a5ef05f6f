/* history_file: the input history kept across runs, one file per server under
 * $XDG_STATE_HOME/tether/ — one entry a line (newlines and backslashes escaped), bounded,
 * written 0600 by replacing the file whole. */
#ifndef TETHER_HISTORY_FILE_H
#define TETHER_HISTORY_FILE_H

#include "base.h"

enum {
	HISTORY_FILE_MAX_ENTRIES = 1000,
	HISTORY_FILE_MAX_BYTES = 1024 * 1024,   /* the file's size, escapes included */
	HISTORY_FILE_MAX_ENTRY = 128 * 1024,    /* a longer entry is not stored: it would push
						 * out most of the others */
};

struct tui;

/* Appends the file's line for entry: '\\' and '\n' escaped as \\ and \n. */
void history_line_encode(const char *entry, size_t n, struct buf *out);
/* Appends the entry a line holds; -1 (nothing appended) for a broken escape. */
int history_line_decode(const char *line, size_t n, struct buf *out);
/* The history file of server (a URL): $XDG_STATE_HOME/tether/history-HOST_PORT[_PATH], else
 * under ~/.local/state. Returns 0, or -1 with why in err. */
int history_file_path(const char *server, struct buf *path, struct buf *err);
/* Reads the entries (oldest first, sanitized like a paste; the newest within the bounds). A
 * missing file is no entries. Returns the number of damaged lines skipped, or -1 with why
 * in err when the file cannot be read (then no entries). */
long history_file_load(const char *path, char ***entries, size_t *count, struct buf *err);
/* Adds entry to the file as the newest (merged with what another run wrote meanwhile),
 * keeping the bounds; creates the directories 0700. An entry longer than
 * HISTORY_FILE_MAX_ENTRY once escaped is left out. Returns 0, or -1 with why in err. */
int history_file_append(const char *path, const char *entry, struct buf *err);
/* Frees what history_file_load returned. */
void history_entries_free(char **entries, size_t count);

/* Loads this server's history into the input editor (when the history option is on); a file
 * that cannot be read is a notice. */
void tui_history_load(struct tui *u);
/* Records a sent entry in the file, masked first: a secret typed in a message is stored as
 * the screen shows it. */
void tui_history_save(struct tui *u, const char *entry);

#endif
