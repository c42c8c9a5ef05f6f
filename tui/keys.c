#include "keys.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <term.h>

/* Codes well above the ones ncurses hands out for terminfo's extended keys. */
enum { KEYS_CODE_PASTE_BEGIN = KEY_MAX + 0x400, KEYS_CODE_PASTE_END = KEY_MAX + 0x401 };

static const struct keys_binding standard[] = {
	{ KEY_LEFT, KEYS_LEFT, 0 },
	{ KEY_RIGHT, KEYS_RIGHT, 0 },
	{ KEY_UP, KEYS_UP, 0 },
	{ KEY_DOWN, KEYS_DOWN, 0 },
	{ KEY_HOME, KEYS_HOME, 0 },
	{ KEY_END, KEYS_END, 0 },
	{ KEY_PPAGE, KEYS_PGUP, 0 },
	{ KEY_NPAGE, KEYS_PGDN, 0 },
	{ KEY_DC, KEYS_DELETE, 0 },
	{ KEY_BACKSPACE, KEYS_BACKSPACE, 0 },
	{ KEY_ENTER, KEYS_ENTER, 0 },
	{ KEY_BTAB, KEYS_BACKTAB, 0 },
	{ KEY_RESIZE, KEYS_RESIZE, 0 },
	{ KEY_SLEFT, KEYS_LEFT, KEYS_MOD_SHIFT },
	{ KEY_SRIGHT, KEYS_RIGHT, KEYS_MOD_SHIFT },
	{ KEY_SR, KEYS_UP, KEYS_MOD_SHIFT },
	{ KEY_SF, KEYS_DOWN, KEYS_MOD_SHIFT },
	{ KEY_SHOME, KEYS_HOME, KEYS_MOD_SHIFT },
	{ KEY_SEND, KEYS_END, KEYS_MOD_SHIFT },
	{ KEY_SPREVIOUS, KEYS_PGUP, KEYS_MOD_SHIFT },
	{ KEY_SNEXT, KEYS_PGDN, KEYS_MOD_SHIFT },
	{ KEY_SDC, KEYS_DELETE, KEYS_MOD_SHIFT },
};

void keys_init(struct keys *k)
{
	memset(k, 0, sizeof *k);
	buf_init(&k->paste);
}

void keys_fini(struct keys *k)
{
	buf_fini(&k->paste);
}

void keys_bind(struct keys *k, int code, enum keys_kind kind, unsigned mods)
{
	if (k->nbindings < KEYS_MAX_BINDINGS)
		k->bindings[k->nbindings++] = (struct keys_binding){ code, kind, mods };
}

/* xterm's modified keys: terminfo names them kLFT3 (Alt-Left), kLFT5 (Ctrl-Left) and so on;
 * ncurses gives each a code above KEY_MAX that differs from terminal to terminal. */
static const struct {
	const char *name;
	enum keys_kind kind;
} modified[] = {
	{ "LFT", KEYS_LEFT }, { "RIT", KEYS_RIGHT }, { "UP", KEYS_UP }, { "DN", KEYS_DOWN },
	{ "HOM", KEYS_HOME }, { "END", KEYS_END }, { "PRV", KEYS_PGUP }, { "NXT", KEYS_PGDN },
	{ "DC", KEYS_DELETE },
};

static const struct {
	const char *suffix;
	unsigned mods;
} modifier_suffix[] = {
	{ "3", KEYS_MOD_ALT }, { "5", KEYS_MOD_CTRL }, { "7", KEYS_MOD_CTRL | KEYS_MOD_ALT },
};

static const char *terminfo_string(const char *name)
{
	char *s = tigetstr(name);
	return (s && s != (char *)-1 && *s) ? s : NULL;
}

void keys_learn_terminal(struct keys *k)
{
	char name[16];
	for (size_t i = 0; i < sizeof modified / sizeof *modified; i++) {
		for (size_t j = 0; j < sizeof modifier_suffix / sizeof *modifier_suffix; j++) {
			snprintf(name, sizeof name, "k%s%s", modified[i].name, modifier_suffix[j].suffix);
			const char *seq = terminfo_string(name);
			int code = seq ? key_defined(seq) : 0;
			if (code > 0)
				keys_bind(k, code, modified[i].kind, modifier_suffix[j].mods);
		}
	}
	/* Terminals without PS/PE in terminfo still send xterm's brackets once ?2004 is on. */
	const char *ps = terminfo_string("PS"), *pe = terminfo_string("PE");
	if (define_key(ps ? ps : "\033[200~", KEYS_CODE_PASTE_BEGIN) == OK)
		k->paste_begin = KEYS_CODE_PASTE_BEGIN;
	if (define_key(pe ? pe : "\033[201~", KEYS_CODE_PASTE_END) == OK)
		k->paste_end = KEYS_CODE_PASTE_END;
}

void keys_put_utf8(struct buf *out, uint32_t cp)
{
	char b[4];
	size_t n;
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xC0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xE0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		b[0] = (char)(0xF0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	buf_append(out, b, n);
}

static struct key_event event(enum keys_kind kind, unsigned mods, uint32_t cp)
{
	return (struct key_event){ .kind = kind, .mods = mods, .cp = cp };
}

static bool function_event(const struct keys *k, uint32_t code, struct key_event *ev)
{
	for (size_t i = 0; i < sizeof standard / sizeof *standard; i++)
		if ((uint32_t)standard[i].code == code) {
			*ev = event(standard[i].kind, standard[i].mods, 0);
			return true;
		}
	for (size_t i = 0; i < k->nbindings; i++)
		if ((uint32_t)k->bindings[i].code == code) {
			*ev = event(k->bindings[i].kind, k->bindings[i].mods, 0);
			return true;
		}
	return false;
}

/* What a plain character means; false for ones that mean nothing here. */
static bool char_event(uint32_t ch, struct key_event *ev)
{
	switch (ch) {
	case '\r':
		*ev = event(KEYS_ENTER, 0, 0);
		return true;
	case '\n':
		*ev = event(KEYS_NEWLINE, 0, 0);
		return true;
	case '\t':
		*ev = event(KEYS_TAB, 0, 0);
		return true;
	case 8:
	case 127:
		*ev = event(KEYS_BACKSPACE, 0, 0);
		return true;
	default:
		break;
	}
	if (ch >= 1 && ch <= 26) {
		*ev = event(KEYS_CTRL, 0, 'a' + ch - 1);
		return true;
	}
	if (ch < 0x20 || (ch >= 0x80 && ch < 0xA0))
		return false;
	*ev = event(KEYS_CHAR, 0, ch);
	return true;
}

static size_t feed_paste(struct keys *k, bool function_key, uint32_t ch, struct key_event *out)
{
	if (function_key) {
		if ((int)ch == k->paste_end) {
			k->pasting = false;
			out[0] = event(KEYS_PASTE, 0, 0);
			out[0].text = buf_cstr(&k->paste);
			out[0].len = k->paste.len;
			return 1;
		}
		if (ch == KEY_ENTER)
			buf_putc(&k->paste, '\n');
		return 0;
	}
	keys_put_utf8(&k->paste, ch == '\r' ? '\n' : ch);
	return 0;
}

size_t keys_feed(struct keys *k, bool function_key, uint32_t ch, struct key_event *out)
{
	if (k->pasting)
		return feed_paste(k, function_key, ch, out);
	if (function_key && k->paste_begin && (int)ch == k->paste_begin) {
		size_t n = keys_idle(k, out);
		k->pasting = true;
		buf_clear(&k->paste);
		return n;
	}
	if (k->in_csi) {
		/* An unknown CSI/SS3 sequence ends at its final byte; none of it is typing. */
		if (function_key || (ch >= 0x40 && ch <= 0x7E) || ch < 0x20)
			k->in_csi = false;
		return 0;
	}
	struct key_event ev;
	size_t n = 0;
	bool alt = k->esc_pending;
	k->esc_pending = false;
	if (!function_key && ch == 27) {
		if (alt)
			out[n++] = event(KEYS_ESC, 0, 0);
		k->esc_pending = true;
		return n;
	}
	if (alt && !function_key && (ch == '[' || ch == 'O')) {
		k->in_csi = true;
		return 0;
	}
	if (function_key ? !function_event(k, ch, &ev) : !char_event(ch, &ev))
		return alt ? (out[0] = event(KEYS_ESC, 0, 0), 1) : 0;
	if (alt) {
		ev.mods |= KEYS_MOD_ALT;
		if (ev.kind == KEYS_ENTER)
			ev = event(KEYS_NEWLINE, 0, 0);
	}
	out[n++] = ev;
	return n;
}

size_t keys_idle(struct keys *k, struct key_event *out)
{
	k->in_csi = false;
	if (!k->esc_pending)
		return 0;
	k->esc_pending = false;
	out[0] = event(KEYS_ESC, 0, 0);
	return 1;
}
