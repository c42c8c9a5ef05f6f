/* keymap: the action table's row — a key, a slash command or both, with what each does and
 * the one help text the keys overlay says of it — and the dispatch of one key through a
 * table. The tables themselves belong to the parts that act (bindings.c, slash.c, search.c,
 * modal.c, pager.c, overlay.c, board.c); this knows nothing of them. */
#ifndef TETHER_KEYMAP_H
#define TETHER_KEYMAP_H

#include "editor.h"
#include "keys.h"

struct tui;
struct board;
struct board_action;

typedef void (*bindings_fn)(struct tui *u, struct editor *e, const struct key_event *ev);

/* One action of a table that dispatches: its key, its slash command, or both, and the one
 * help text the keys overlay, README and the man page say of it. */
struct binding {
	enum keys_kind kind;    /* KEYS_NONE: no key, a command only */
	unsigned mods;
	uint32_t cp;            /* KEYS_CHAR, KEYS_CTRL: the character */
	union {
		bindings_fn fn;
		/* the board's rows (board.c, dispatched by board_key) act on the board */
		bool (*board)(struct board *b, const struct key_event *ev, struct board_action *out);
	};
	const char *help;
	const char *command;    /* its slash command's name, without the slash; NULL: none */
	const char *args;       /* what the command takes ("[reason]"); NULL or "": nothing */
	void (*run)(struct tui *u, const char *arg); /* the command, arg the rest of its line */
};

/* A row with a key only. */
#define BIND(k, m, c, f, h) { .kind = (k), .mods = (m), .cp = (c), .fn = (f), .help = (h) }
/* A row of the board's keys (board.c). */
#define BIND_BOARD(k, m, c, f, h) { .kind = (k), .mods = (m), .cp = (c), .board = (f), .help = (h) }
/* A row with a key and the command that does the same (r may differ from f where the key does
 * more, as Esc also closing a layer). */
#define ACTION(k, m, c, f, name, a, r, h)                                                     \
	{ .kind = (k), .mods = (m), .cp = (c), .fn = (f), .help = (h), .command = (name),     \
	  .args = (a), .run = (r) }
/* A row with a command only. */
#define COMMAND(name, a, r, h) { .kind = KEYS_NONE, .command = (name), .args = (a), .run = (r), .help = (h) }

enum { BINDINGS_TABLES_MAX = 4, BINDINGS_CONTEXTS_MAX = 16 };

/* The tables that apply in one context, as the keys overlay lists them. */
struct bindings_context {
	const char *name;
	const struct binding *rows[BINDINGS_TABLES_MAX];
	size_t count[BINDINGS_TABLES_MAX];
	size_t ntables;
};

/* Whether row b is the key ev. */
bool keymap_matches(const struct binding *b, const struct key_event *ev);
/* Runs the first row of table[0..n) that matches ev; false when none does. */
bool keymap_dispatch(const struct binding *table, size_t n, struct tui *u, struct editor *e,
		     const struct key_event *ev);

/* Emacs motions and kills (the message, a search, a reason). */
extern const struct binding keymap_edit_bindings[];
extern const size_t keymap_edit_bindings_count;
/* Typing, pasting and editing in e (a paste's line breaks kept when multiline); false for
 * keys that are none of these. */
bool keymap_edit(struct tui *u, struct editor *e, const struct key_event *ev, bool multiline);
/* Types ev's character into e. */
void keymap_insert_char(struct tui *u, struct editor *e, const struct key_event *ev);
/* A line break into e. */
void keymap_newline(struct tui *u, struct editor *e, const struct key_event *ev);

#endif
