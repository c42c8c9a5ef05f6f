/* probe: queries to the terminal and its answers. */
#include "probe.h"
#include "terminal.h"

#include <string.h>

void probe_init(struct probe *p)
{
	*p = (struct probe){ .background = -1, .clipboard = -1 };
}

void probe_query_bytes(bool background, bool clipboard, struct buf *out)
{
	if (background)
		buf_puts(out, "\033]11;?\033\\");
	if (clipboard)
		buf_puts(out, "\033P+q4d73\033\\");     /* XTGETTCAP "Ms" */
	buf_puts(out, "\033[c");
}

void probe_ask(struct probe *p, bool background, bool clipboard)
{
	struct buf b;
	buf_init(&b);
	probe_query_bytes(background, clipboard, &b);
	p->asked_clipboard = clipboard;
	(void)terminal_write_raw(b.data, b.len);
	buf_fini(&b);
}

static bool starts(const char *s, size_t n, const char *head)
{
	size_t h = strlen(head);
	return n >= h && memcmp(s, head, h) == 0;
}

/* Whether DA1's parameters (s[0..n), "62;22;52") name 52: the terminal takes OSC 52. */
static bool da1_clipboard(const char *s, size_t n)
{
	for (size_t at = 0; at < n;) {
		size_t end = at;
		while (end < n && s[end] != ';')
			end++;
		if (end - at == 2 && s[at] == '5' && s[at + 1] == '2')
			return true;
		at = end + 1;
	}
	return false;
}

bool probe_reply(struct probe *p, const char *s, size_t n)
{
	enum theme_kind t;
	if (starts(s, n, "]11;")) {
		if (theme_from_osc11(s, n, &t) != 0)
			return false;
		bool changed = p->background != (int)t;
		p->background = (int)t;
		return changed;
	}
	/* XTGETTCAP: DCS 1 + r name=value when the terminal has it, DCS 0 + r when not. */
	if (starts(s, n, "P1+r4d73") || starts(s, n, "P1+r4D73"))
		p->clipboard = 1;
	else if (starts(s, n, "P0+r"))
		p->clipboard = p->clipboard == 1 ? 1 : 0;
	else if (starts(s, n, "[?") && s[n - 1] == 'c') {
		p->answered = true;
		if (da1_clipboard(s + 2, n - 3))
			p->clipboard = 1;
		else if (p->clipboard < 0 && p->asked_clipboard)
			p->clipboard = 0;
	}
	return false;
}
