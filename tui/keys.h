/* keys: turns what ncurses get_wch() returns into key events — Alt as an Esc prefix, a lone
 * Esc, modified keys from terminfo, and a bracketed paste collected into one event. */
#ifndef TETHER_KEYS_H
#define TETHER_KEYS_H

#include "base.h"

enum keys_kind {
	KEYS_CHAR,          /* cp: a printable character */
	KEYS_CTRL,          /* cp: 'a'..'z' for Ctrl-A..Ctrl-Z (not C-H, C-I, C-J, C-M) */
	KEYS_ENTER,
	KEYS_NEWLINE,       /* Ctrl-J or Alt-Enter: a line break in the input */
	KEYS_TAB,
	KEYS_BACKTAB,
	KEYS_BACKSPACE,
	KEYS_DELETE,
	KEYS_LEFT,
	KEYS_RIGHT,
	KEYS_UP,
	KEYS_DOWN,
	KEYS_HOME,
	KEYS_END,
	KEYS_PGUP,
	KEYS_PGDN,
	KEYS_ESC,
	KEYS_RESIZE,
	KEYS_PASTE,         /* text/len: the whole bracketed paste, CR turned into LF */
};

enum keys_mods {
	KEYS_MOD_ALT = 1 << 0,
	KEYS_MOD_CTRL = 1 << 1,
	KEYS_MOD_SHIFT = 1 << 2,
};

struct key_event {
	enum keys_kind kind;
	unsigned mods;
	uint32_t cp;
	const char *text;   /* KEYS_PASTE: valid until the next keys_feed */
	size_t len;
};

/* A key code of the terminal (from terminfo) and what it means. */
struct keys_binding {
	int code;
	enum keys_kind kind;
	unsigned mods;
};

enum {
	KEYS_MAX_EVENTS = 2,        /* what one keys_feed can produce */
	KEYS_MAX_BINDINGS = 48,
};

struct keys {
	bool esc_pending;
	bool in_csi;                /* swallowing an escape sequence ncurses did not know */
	bool pasting;
	struct buf paste;
	int paste_begin, paste_end; /* key codes of ESC[200~ and ESC[201~, 0 when undefined */
	struct keys_binding bindings[KEYS_MAX_BINDINGS];
	size_t nbindings;
};

/* Makes a decoder that knows ncurses' standard key codes. */
void keys_init(struct keys *k);
/* Frees the paste buffer. */
void keys_fini(struct keys *k);
/* Adds a terminal-specific key code (e.g. Alt-Left). */
void keys_bind(struct keys *k, int code, enum keys_kind kind, unsigned mods);
/* Learns the modified keys and paste brackets of the current terminal (after newterm):
 * defines the paste brackets as keys and binds the codes ncurses gave the xterm-style
 * modified keys. */
void keys_learn_terminal(struct keys *k);
/* Feeds one get_wch() result (function_key: it returned KEY_CODE_YES). Writes up to
 * KEYS_MAX_EVENTS events to out and returns how many. */
size_t keys_feed(struct keys *k, bool function_key, uint32_t ch, struct key_event *out);
/* get_wch() returned ERR (nothing more for now): a pending Esc is a lone Esc. */
size_t keys_idle(struct keys *k, struct key_event *out);
/* Appends the UTF-8 form of cp to out. */
void keys_put_utf8(struct buf *out, uint32_t cp);

#endif
