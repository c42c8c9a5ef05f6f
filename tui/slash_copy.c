/* slash_copy: /copy — the focused item, the last N items, the last agent message, its last
 * code block, the waiting action — as shown (masked), to the clipboard or the copy file. */
#include "conv.h"
#include "bindings.h"
#include "clipboard.h"
#include "paint.h"

#include <stdlib.h>
#include <string.h>

enum { COPY_ITEMS_MAX = 1000 };

/* The last fenced code block of a markdown text (an unclosed one counts); false if none. */
static bool last_code_block(const char *s, size_t n, const char **out, size_t *len)
{
	bool in = false, found = false;
	const char *start = NULL;
	for (size_t at = 0; at < n;) {
		const char *nl = memchr(s + at, '\n', n - at);
		size_t end = nl ? (size_t)(nl - s) : n;
		size_t i = at;
		while (i < end && i - at < 3 && s[i] == ' ')
			i++;
		bool fence = end - i >= 3 && (strncmp(s + i, "```", 3) == 0 || strncmp(s + i, "~~~", 3) == 0);
		if (fence && !in) {
			in = true;
			start = nl ? nl + 1 : s + n;
		} else if (fence && in) {
			in = false;
			found = true;
			*out = start;
			*len = (size_t)(s + at - start);
		}
		at = nl ? end + 1 : n;
	}
	if (in) {
		*out = start;
		*len = (size_t)(s + n - start);
		found = true;
	}
	if (found && *len && (*out)[*len - 1] == '\n')
		(*len)--;
	return found;
}

static bool find_copy_text(struct tui *u, bool code, const char **s, size_t *n)
{
	for (size_t i = transcript_count(u->cur->t); i-- > 0;) {
		struct item_info info;
		transcript_item(u->cur->t, i, &info);
		if (info.kind != ITEM_AGENT || !info.text_len)
			continue;
		if (!code) {
			*s = info.text;
			*n = info.text_len;
			return true;
		}
		if (last_code_block(info.text, info.text_len, s, n))
			return true;
	}
	return false;
}

void slash_copy(struct tui *u, bool code)
{
	const char *s;
	size_t n;
	if (!find_copy_text(u, code, &s, &n)) {
		ui_notice(&u->ui, code ? "no code block to copy" : "no agent message to copy");
		return;
	}
	clipboard_copy(&u->ui, u->o->osc52, u->probe.clipboard, s, n);
}

/* The actions waiting for confirmation, else the last action, whole. */
static void copy_action(struct tui *u)
{
	size_t idx;
	long found = transcript_pending_tools(u->cur->t, &idx, 1) ? (long)idx : -1;
	for (size_t i = transcript_count(u->cur->t); found < 0 && i-- > 0;) {
		struct item_info info;
		transcript_item(u->cur->t, i, &info);
		if (info.kind == ITEM_TOOL)
			found = (long)i;
	}
	struct item_info info;
	if (found < 0 || (transcript_item(u->cur->t, (size_t)found, &info), !info.full_action)) {
		ui_notice(&u->ui, "no action to copy");
		return;
	}
	clipboard_copy(&u->ui, u->o->osc52, u->probe.clipboard, info.full_action, strlen(info.full_action));
}

/* What item idx shows, whole: a message's text; a card's title, command or summary, and
 * output. With head, a line saying whose it is comes first. */
static void item_text(const struct transcript *t, size_t idx, bool head, struct buf *out)
{
	struct item_info info;
	transcript_item(t, idx, &info);
	if (info.kind == ITEM_TOOL) {
		buf_printf(out, "%s%s%s\n", info.title ? info.title : "tool",
			   info.summary && *info.summary ? ": " : "", info.summary ? info.summary : "");
		if (info.result_len)
			buf_append(out, info.result_text, info.result_len);
		return;
	}
	if (head && (info.kind == ITEM_USER || info.kind == ITEM_AGENT))
		buf_puts(out, info.kind == ITEM_USER ? "you:\n" : "agent:\n");
	buf_append(out, info.text, info.text_len);
}

/* The n items up to the focused one (the newest when none is), each headed by whose it is;
 * n 0: the focused item alone, as shown. False when there is nothing to copy. */
static bool copy_items(struct tui *u, size_t n)
{
	size_t count = transcript_count(u->cur->t);
	long focused = paint_focused(u);
	if (!count || (n == 0 && focused < 0))
		return false;
	size_t last = focused >= 0 ? (size_t)focused : count - 1;
	size_t first = n == 0 ? last : last + 1 >= n ? last + 1 - n : 0;
	struct buf text;
	buf_init(&text);
	for (size_t i = first; i <= last; i++) {
		if (text.len)
			buf_puts(&text, "\n\n");
		item_text(u->cur->t, i, n != 0, &text);
	}
	clipboard_copy(&u->ui, u->o->osc52, u->probe.clipboard, text.data ? text.data : "", text.len);
	buf_fini(&text);
	return true;
}

void slash_cmd_copy(struct tui *u, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (strncmp(arg, "action", 6) == 0) {
		copy_action(u);
	} else if (strncmp(arg, "code", 4) == 0) {
		slash_copy(u, true);
	} else if (*arg >= '0' && *arg <= '9') {
		if (*end || n < 1 || n > COPY_ITEMS_MAX)
			ui_notice(&u->ui, "/copy N takes a number of items from 1 to %d", COPY_ITEMS_MAX);
		else if (!copy_items(u, (size_t)n))
			ui_notice(&u->ui, "nothing to copy yet");
	} else if (*arg) {
		ui_notice(&u->ui, "/copy takes N, code or action, not '%.40s'", arg);
	} else if (!copy_items(u, 0)) {
		slash_copy(u, false);
	}
}
