/* keys: the bytes read from the terminal turned into key events — UTF-8 characters, Ctrl
 * keys, Alt as an Esc prefix, CSI/SS3 sequences with xterm's modifiers and the terminal's
 * own sequences from terminfo, a lone Esc once no byte follows it, and a bracketed paste
 * collected into one event whose content never acts as keys. The caller reads the
 * terminal and keeps the clock (keys_wait_us, keys_expire). */
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
	KEYS_PASTE,         /* text/len: the whole bracketed paste, CR and CRLF turned into LF */
	KEYS_F5,
	KEYS_F1,
	KEYS_MOUSE,         /* a button or the wheel (SGR or X10 report): button, x, y, release */
	KEYS_REPLY,         /* text/len: a terminal's answer to a query (OSC, DCS, DA), never keys */
	KEYS_NONE,          /* not a key: a table row that has a command only */
	KEYS_KIND_COUNT,   /* not a key: how many kinds there are */
};

enum keys_mods {
	KEYS_MOD_ALT = 1 << 0,
	KEYS_MOD_CTRL = 1 << 1,
	KEYS_MOD_SHIFT = 1 << 2,
	KEYS_MOD_ANY = 1 << 3,      /* a binding's mods: whatever the key came with */
};

struct key_event {
	enum keys_kind kind;
	unsigned mods;
	uint32_t cp;
	const char *text;   /* KEYS_PASTE, KEYS_REPLY: valid during the call that hands it over */
	size_t len;
	int x, y;           /* KEYS_MOUSE: the cell, from 0 */
	bool release;       /* KEYS_MOUSE: a button let go */
};

/* KEYS_MOUSE's button: xterm's code without its modifier bits (Shift 4, Alt 8, Ctrl 16). */
enum keys_button {
	KEYS_BUTTON_LEFT = 0,
	KEYS_BUTTON_MIDDLE = 1,
	KEYS_BUTTON_RIGHT = 2,
	KEYS_BUTTON_MOTION = 32,    /* added while a button is held and the pointer moves */
	KEYS_WHEEL_UP = 64,
	KEYS_WHEEL_DOWN = 65,
};

/* A sequence the terminal sends for a key, and what it means. */
struct keys_seq {
	char bytes[24];
	size_t len;
	enum keys_kind kind;
	unsigned mods;
};

enum {
	KEYS_MAX_SEQS = 96,
	KEYS_SEQ_MAX = 32,                  /* longer escape sequences are skipped, unread */
	KEYS_STRING_MAX = 4096,             /* longer OSC/DCS strings are skipped, unread */
	/* An answer of the terminal (OSC, DCS) started but not finished waits this long for
	 * the rest, which a slow link may send in a later read. */
	KEYS_STRING_WAIT_US = 300000,
	KEYS_ESC_DELAY_US = 25000,          /* Esc then a byte within this is Alt+key */
	/* A paste ends at its last end marker once the terminal has sent nothing for this
	 * long: an end marker inside the pasted text is followed at once by more of it. */
	KEYS_PASTE_SETTLE_US = 100000,
	/* A paste whose end never comes (a terminal that lost it) becomes text after this
	 * long without a byte, so that the keys work again. */
	KEYS_PASTE_ABANDON_US = 10000000,
};

/* Called for each key; ev and its text are valid during the call only. */
typedef void (*keys_fn)(void *ctx, const struct key_event *ev);

struct keys {
	struct buf carry;           /* the start of a key that the next bytes complete */
	bool skipping;              /* inside an overlong escape sequence, until its final byte */
	bool skipping_string;       /* inside an overlong OSC/DCS string, until BEL or ST */
	bool pasting;
	struct buf paste;           /* the paste so far, raw, end markers included */
	size_t paste_end;           /* offset of its last end marker; SIZE_MAX when none */
	struct keys_seq seqs[KEYS_MAX_SEQS];
	size_t nseqs;
};

/* Makes a decoder that knows xterm's sequences. */
void keys_init(struct keys *k);
/* Frees its buffers. */
void keys_fini(struct keys *k);
/* Teaches it one more sequence of the terminal (it wins over xterm's reading of the bytes). */
void keys_bind(struct keys *k, const char *seq, enum keys_kind kind, unsigned mods);
/* Learns the key sequences terminfo gives the current terminal (after setupterm/newterm). */
void keys_learn_terminal(struct keys *k);
/* Decodes n bytes read from the terminal, calling on for each complete key; the start of an
 * unfinished one waits for the next call or for keys_expire. */
void keys_feed(struct keys *k, const char *s, size_t n, keys_fn on, void *ctx);
/* How long to wait for more bytes before calling keys_expire (µs); -1 when nothing waits. */
int64_t keys_wait_us(const struct keys *k);
/* Nothing came for keys_wait_us: a pending Esc is a lone Esc, an unfinished sequence is
 * dropped, and a paste ends at its last end marker (what followed it is keys again) or,
 * without one, as it is. */
void keys_expire(struct keys *k, keys_fn on, void *ctx);
/* A binding's cp that stands for any of the digits 1…9 ("Alt-1…9"). */
#define KEYS_CP_DIGITS 0x110000u
/* A binding's cp that stands for any character typed ("typing"). */
#define KEYS_CP_TEXT 0x110001u

/* Appends the key's name as the keys overlay shows it: "Ctrl-O", "Alt-b", "Shift-PgUp", "F1". */
void keys_describe(enum keys_kind kind, unsigned mods, uint32_t cp, struct buf *out);
/* CR and CRLF become LF in s[0..n), in place; returns the new length. A paste's text is made so. */
size_t keys_line_feeds(char *s, size_t n);

#endif
