/* keymap: one key through a table. */
#include "keymap.h"

#include <stdlib.h>

bool keymap_matches(const struct binding *b, const struct key_event *ev)
{
	if (b->kind == KEYS_NONE || b->kind != ev->kind || (b->mods != KEYS_MOD_ANY && b->mods != ev->mods))
		return false;
	if (b->kind == KEYS_CHAR && b->cp == KEYS_CP_DIGITS)
		return ev->cp >= '1' && ev->cp <= '9';
	if (b->kind == KEYS_CHAR && b->cp == KEYS_CP_TEXT)
		return true;
	return (b->kind != KEYS_CHAR && b->kind != KEYS_CTRL) || b->cp == ev->cp;
}

bool keymap_dispatch(const struct binding *table, size_t n, struct tui *u, struct editor *e,
		     const struct key_event *ev)
{
	for (size_t i = 0; i < n; i++)
		if (keymap_matches(&table[i], ev)) {
			table[i].fn(u, e, ev);
			return true;
		}
	return false;
}

#define EDIT_ACTION(name, call)                                                        \
	static void name(struct tui *u, struct editor *e, const struct key_event *ev)  \
	{                                                                              \
		(void)u, (void)ev;                                                     \
		call(e);                                                               \
	}

EDIT_ACTION(act_left, editor_left)
EDIT_ACTION(act_right, editor_right)
EDIT_ACTION(act_line_start, editor_line_start)
EDIT_ACTION(act_line_end, editor_line_end)
EDIT_ACTION(act_word_left, editor_word_left)
EDIT_ACTION(act_word_right, editor_word_right)
EDIT_ACTION(act_backspace, editor_backspace)
EDIT_ACTION(act_delete, editor_delete)
EDIT_ACTION(act_kill_word, editor_kill_word_back)
EDIT_ACTION(act_kill_start, editor_kill_line_start)
EDIT_ACTION(act_kill_end, editor_kill_line_end)
EDIT_ACTION(act_yank, editor_yank)

void keymap_newline(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)u, (void)ev;
	editor_insert(e, "\n", 1);
}

void keymap_insert_char(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)u;
	struct buf b;
	buf_init(&b);
	buf_put_utf8(&b, ev->cp);
	editor_insert(e, b.data, b.len);
	buf_fini(&b);
}

/* Emacs motions and kills, in whichever editor is active. */
const struct binding keymap_edit_bindings[] = {
	BIND(KEYS_CTRL, 0, 'a', act_line_start, "start of the line"),
	BIND(KEYS_CTRL, 0, 'e', act_line_end, "end of the line"),
	BIND(KEYS_CTRL, 0, 'b', act_left, "left a character"),
	BIND(KEYS_CTRL, 0, 'f', act_right, "right a character"),
	BIND(KEYS_CTRL, 0, 'w', act_kill_word, "delete the word before the cursor"),
	BIND(KEYS_CTRL, 0, 'u', act_kill_start, "delete to the start of the line; at its start, all the input"),
	BIND(KEYS_CTRL, 0, 'k', act_kill_end, "delete to the end of the line"),
	BIND(KEYS_CTRL, 0, 'y', act_yank, "paste what was deleted last"),
	BIND(KEYS_CTRL, 0, 'd', act_delete, "delete the character under the cursor"),
	BIND(KEYS_CHAR, KEYS_MOD_ALT, 'b', act_word_left, "left a word"),
	BIND(KEYS_CHAR, KEYS_MOD_ALT, 'f', act_word_right, "right a word"),
	BIND(KEYS_LEFT, 0, 0, act_left, "left a character"),
	BIND(KEYS_RIGHT, 0, 0, act_right, "right a character"),
	BIND(KEYS_LEFT, KEYS_MOD_CTRL, 0, act_word_left, "left a word"),
	BIND(KEYS_RIGHT, KEYS_MOD_CTRL, 0, act_word_right, "right a word"),
	BIND(KEYS_LEFT, KEYS_MOD_ALT, 0, act_word_left, "left a word"),
	BIND(KEYS_RIGHT, KEYS_MOD_ALT, 0, act_word_right, "right a word"),
	BIND(KEYS_HOME, 0, 0, act_line_start, "start of the line"),
	BIND(KEYS_END, 0, 0, act_line_end, "end of the line"),
	BIND(KEYS_BACKSPACE, 0, 0, act_backspace, "delete the character before the cursor"),
	BIND(KEYS_BACKSPACE, KEYS_MOD_ALT, 0, act_kill_word, "delete the word before the cursor"),
	BIND(KEYS_DELETE, 0, 0, act_delete, "delete the character under the cursor"),
};

const size_t keymap_edit_bindings_count = sizeof keymap_edit_bindings / sizeof *keymap_edit_bindings;

bool keymap_edit(struct tui *u, struct editor *e, const struct key_event *ev, bool multiline)
{
	if (ev->kind == KEYS_PASTE) {
		if (multiline) {
			editor_insert(e, ev->text, ev->len);
		} else {
			/* By length: a pasted NUL must not end the copy early. */
			char *flat = xmalloc(ev->len + 1);
			for (size_t i = 0; i < ev->len; i++)
				flat[i] = ev->text[i] == '\n' ? ' ' : ev->text[i];
			editor_insert(e, flat, ev->len);
			free(flat);
		}
		return true;
	}
	if (ev->kind == KEYS_CHAR && !ev->mods) {
		keymap_insert_char(u, e, ev);
		return true;
	}
	return keymap_dispatch(keymap_edit_bindings, keymap_edit_bindings_count, u, e, ev);
}
