/* keys: the names of keys as the keys overlay and the help show them. */
#include "keys.h"

static const char *const kind_names[KEYS_KIND_COUNT] = {
	[KEYS_ENTER] = "Enter", [KEYS_NEWLINE] = "Ctrl-J/Alt-Enter", [KEYS_TAB] = "Tab",
	[KEYS_BACKTAB] = "Shift-Tab", [KEYS_BACKSPACE] = "Backspace", [KEYS_DELETE] = "Delete",
	[KEYS_LEFT] = "Left", [KEYS_RIGHT] = "Right", [KEYS_UP] = "Up", [KEYS_DOWN] = "Down",
	[KEYS_HOME] = "Home", [KEYS_END] = "End", [KEYS_PGUP] = "PgUp", [KEYS_PGDN] = "PgDn",
	[KEYS_ESC] = "Esc", [KEYS_PASTE] = "a paste", [KEYS_F1] = "F1", [KEYS_F5] = "F5",
	[KEYS_MOUSE] = "the mouse",
};

void keys_describe(enum keys_kind kind, unsigned mods, uint32_t cp, struct buf *out)
{
	if (mods & KEYS_MOD_CTRL)
		buf_puts(out, "Ctrl-");
	if (mods & KEYS_MOD_ALT)
		buf_puts(out, "Alt-");
	if (mods & KEYS_MOD_SHIFT)
		buf_puts(out, "Shift-");
	switch (kind) {
	case KEYS_CTRL:
		buf_puts(out, "Ctrl-");
		buf_putc(out, (char)(cp >= 'a' && cp <= 'z' ? cp - 'a' + 'A' : '?'));
		return;
	case KEYS_CHAR:
		if (cp == ' ')
			buf_puts(out, "Space");
		else if (cp == KEYS_CP_DIGITS)
			buf_puts(out, "1…9");
		else if (cp == KEYS_CP_TEXT)
			buf_puts(out, "typing");
		else
			buf_put_utf8(out, cp);
		return;
	default:
		if ((size_t)kind < sizeof kind_names / sizeof *kind_names && kind_names[kind])
			buf_puts(out, kind_names[kind]);
		else
			buf_puts(out, "?");
		return;
	}
}
