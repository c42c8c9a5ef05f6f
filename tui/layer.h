/* layer: what is open over a conversation, after tmux's window modes — a search, the
 * confirmation, the reason of a rejection, the pager, the board — as a stack, and the keys
 * overlay in a slot of its own above it (tmux's client overlay). A layer is a table of
 * callbacks; its state is its module's. A key goes to the top layer first and down; the
 * topmost layer that covers the screen paints it; switching conversations closes the layers
 * through the stack. No layer open: the prompt. */
#ifndef TETHER_LAYER_H
#define TETHER_LAYER_H

#include "controller.h"
#include "editor.h"
#include "keys.h"

struct tui;

/* What a layer did with a key. */
enum layer_key {
	LAYER_KEY_NONE,             /* not its own: the keys after it in the same layer */
	LAYER_KEY_TAKEN,
	LAYER_KEY_DOWN,             /* to the layer below */
	LAYER_KEY_PROMPT,           /* straight to the prompt (the draft's keys) */
};

struct layer {
	const char *name;
	/* It covers the whole screen and paints it alone (paint). Otherwise it lives in the
	 * prompt area: the conversation keys (Ctrl-G, Ctrl-N…) come before it. */
	bool screen;
	bool conversation_keys;     /* a screen layer in which the conversation keys work */
	bool global_keys;           /* the keys of Everywhere work in it, on its editor */
	/* Its own keys; then other for a key nobody took (NULL: it is taken). */
	enum layer_key (*key)(struct tui *u, const struct key_event *ev);
	enum layer_key (*other)(struct tui *u, const struct key_event *ev);
	/* Prompt-area layers: the editor the input line shows (NULL: the draft), the words
	 * before it, a hint after it, and rows above the notice (rows, paint_rows). */
	struct editor *(*editor)(struct tui *u);
	const char *(*prefix)(struct tui *u, char *buf, size_t size);
	const char *(*hint)(struct tui *u);
	int (*rows)(struct tui *u, const struct controller_status *st, int width);
	void (*paint_rows)(struct tui *u, int y, int rows);
	/* Screen layers: one whole frame. */
	void (*paint)(struct tui *u, const struct controller_status *st, int64_t now_us);
	/* Leaves it the way Esc would (switching conversations). */
	void (*close)(struct tui *u);
};

enum { LAYERS_MAX = 8 };

struct layers {
	const struct layer *at[LAYERS_MAX];
	size_t n;
	const struct layer *overlay;   /* above the stack while open (NULL: none) */
};

/* Puts l on top (a layer open already is not opened twice). */
void layers_push(struct layers *s, const struct layer *l);
/* Takes the top layer off when it is l; true when it was. */
bool layers_pop(struct layers *s, const struct layer *l);
/* The top layer (the overlay not counted), NULL when none. */
const struct layer *layers_top(const struct layers *s);
/* Whether l is open anywhere in the stack. */
bool layers_has(const struct layers *s, const struct layer *l);
/* The topmost layer that covers the screen (the overlay first), NULL when none. */
const struct layer *layers_screen(const struct layers *s);
/* The top layer when it lives in the prompt area (the input line and the rows above it are
 * its), NULL when none is or a screen layer is on top. */
const struct layer *layers_prompt(const struct layers *s);
/* Forgets every layer without closing them: each stops where it stands. */
void layers_drop_all(struct layers *s);
/* Closes every layer of the stack from the top, each the way Esc would (not the overlay: it
 * is above the conversations). */
void layers_close_all(struct layers *s, struct tui *u);

#endif
