/* slash_branch: /rewind (and Esc Esc on an empty prompt) and /fork (issue 25). /rewind
 * marks the user's focused (else last) message, Up and Down pick another, and Enter moves
 * the server's HEAD to the event before it: the transcript shows that branch and the message
 * comes back into the input to edit and send again; the later events stay on the server as
 * another branch. A fork makes a new conversation: the whole of this one, or (an item
 * focused) its branch up to the event before that item, to try again from there. */
#include "conv.h"
#include "bindings.h"

#include <stdlib.h>
#include <string.h>

/* The user message to go back to: the focused item when it is one, else the newest shown;
 * -1 when there is none. */
static long rewind_target(struct tui *u)
{
	struct conv *v = u->cur;
	long f = v->focus_uid ? transcript_index_of(v->t, v->focus_uid) : -1;
	struct item_info info;
	if (f >= 0) {
		transcript_item(v->t, (size_t)f, &info);
		if (info.kind == ITEM_USER && info.seq >= 0)
			return f;
	}
	for (size_t i = transcript_count(v->t); i-- > 0;) {
		transcript_item(v->t, i, &info);
		if (info.kind == ITEM_USER && info.seq >= 0 && info.id)
			return (long)i;
	}
	return -1;
}

/* The draft of v becomes text (on screen: the input itself). */
static void draft_put(struct conv *v, const char *text)
{
	struct tui *u = v->u;
	if (u->cur == v) {
		editor_set(&u->input, text, strlen(text));
		return;
	}
	free(v->draft);
	v->draft = xstrdup(text);
	v->draft_cursor = strlen(text);
}

static void rewound(void *ctx, bool ok, const char *words, const char *fork_id)
{
	struct conv *v = ctx;
	(void)fork_id;
	char *text = v->rewind_text;
	v->rewind_text = NULL;
	if (!ok) {
		ui_notice(&v->u->ui, "%s", words);
	} else {
		if (text)
			draft_put(v, text);
		viewport_follow(&v->vp);
		ui_notice(&v->u->ui, "rewound: your message is in the input to edit and send "
			  "again (%s)", words);
	}
	free(text);
	ui_schedule_frame(&v->u->ui);
}

/* Rewinds to before the user message at idx. */
static void rewind_to(struct tui *u, long idx)
{
	struct conv *v = u->cur;
	struct item_info info;
	transcript_item(v->t, (size_t)idx, &info);
	bool root;
	const char *parent = transcript_parent_id(v->t, info.id, &root);
	if (!parent) {
		/* Navigating to no event would start a branch without the system prompt. */
		ui_notice(&u->ui, root ? "that is the conversation's first message: there is "
				   "nothing before it to go back to"
				 : "the event before that message is not loaded: scroll up to it first");
		return;
	}
	free(v->rewind_text);
	v->rewind_text = xstrndup(info.text, info.text_len);
	if (!controller_navigate(v->ctl, parent, rewound, v)) {
		ui_notice(&u->ui, "already rewinding…");
		return;
	}
	ui_notice(&u->ui, "rewinding to before your message…");
}

/* ------------------------------------------------------------ the picker layer
 * Up and Down pick among the user's messages (the focus bar shows which), Enter rewinds to
 * before it, Esc leaves. */

static const struct layer rewind_layer;

static long picked(struct tui *u)
{
	return u->cur->focus_uid ? transcript_index_of(u->cur->t, u->cur->focus_uid) : -1;
}

static void pick_show(struct tui *u, long idx)
{
	u->cur->focus_uid = transcript_uid_at(u->cur->t, (size_t)idx);
	viewport_show_item(&u->cur->vp, u->cur->t, (size_t)idx);
	ui_schedule_frame(&u->ui);
}

/* The user's message next to at going dir (-1 older, 1 newer), -1 when none. */
static long user_next(struct tui *u, long at, int dir)
{
	struct item_info info;
	for (long i = at + dir; i >= 0 && (size_t)i < transcript_count(u->cur->t); i += dir) {
		transcript_item(u->cur->t, (size_t)i, &info);
		if (info.kind == ITEM_USER && info.seq >= 0 && info.id)
			return i;
	}
	return -1;
}

static void pick_close(struct tui *u)
{
	layers_pop(&u->layers, &rewind_layer);
	ui_schedule_frame(&u->ui);
}

static enum layer_key pick_key(struct tui *u, const struct key_event *ev)
{
	long at = picked(u), next;
	switch (ev->kind) {
	case KEYS_UP:
	case KEYS_DOWN:
		next = at < 0 ? -1 : user_next(u, at, ev->kind == KEYS_UP ? -1 : 1);
		if (next >= 0)
			pick_show(u, next);
		else
			ui_notice(&u->ui, ev->kind == KEYS_UP ? "your first message: nothing older"
							      : "your last message: nothing newer");
		return LAYER_KEY_TAKEN;
	case KEYS_ENTER:
		pick_close(u);
		if (at >= 0)
			rewind_to(u, at);
		return LAYER_KEY_TAKEN;
	case KEYS_ESC:
		pick_close(u);
		ui_notice(&u->ui, "not rewound");
		return LAYER_KEY_TAKEN;
	default:
		return LAYER_KEY_NONE;
	}
}

/* Nothing else while picking: a key typed into the draft would be lost in the rewind. */
static enum layer_key pick_other(struct tui *u, const struct key_event *ev)
{
	(void)u, (void)ev;
	return LAYER_KEY_TAKEN;
}

static const char *pick_prefix(struct tui *u, char *buf, size_t size)
{
	(void)u, (void)buf, (void)size;
	return "rewind to before the marked message? ";
}

static const char *pick_hint(struct tui *u)
{
	(void)u;
	return "↑↓ another · Enter rewinds · Esc no";
}

static const struct layer rewind_layer = {
	.name = "rewind",
	.key = pick_key,
	.other = pick_other,
	.prefix = pick_prefix,
	.hint = pick_hint,
	.close = pick_close,
};

void slash_cmd_rewind(struct tui *u, const char *arg)
{
	(void)arg;
	if (ui_running(&u->ui)) {
		ui_notice(&u->ui, "the agent is running: interrupt it (Esc) before rewinding");
		return;
	}
	long at = rewind_target(u);
	if (at < 0) {
		ui_notice(&u->ui, "no message of yours to rewind to");
		return;
	}
	pick_show(u, at);
	layers_push(&u->layers, &rewind_layer);
}

static void forked(void *ctx, bool ok, const char *words, const char *fork_id)
{
	struct conv *v = ctx;
	struct tui *u = v->u;
	char *text = v->fork_text;
	v->fork_text = NULL;
	if (!ok) {
		ui_notice(&u->ui, "%s", words);
		free(text);
		return;
	}
	struct conv *nv = conv_open(u, fork_id, false);
	if (nv) {
		if (text) {
			free(nv->draft);
			nv->draft = text;
			nv->draft_cursor = strlen(text);
			text = NULL;
		}
		tui_switch(u, nv);
	}
	ui_notice(&u->ui, "%s%s", words,
		  nv && nv->draft ? "; your message is in its input to send again" : "");
	free(text);
	ui_schedule_frame(&u->ui);
}

void slash_cmd_fork(struct tui *u, const char *arg)
{
	(void)arg;
	struct conv *v = u->cur;
	long f = v->focus_uid ? transcript_index_of(v->t, v->focus_uid) : -1;
	const char *from = NULL;
	free(v->fork_text);
	v->fork_text = NULL;
	if (f >= 0) {
		struct item_info info;
		transcript_item(v->t, (size_t)f, &info);
		bool root;
		from = info.id ? transcript_parent_id(v->t, info.id, &root) : NULL;
		if (!from) {
			ui_notice(&u->ui, root ? "nothing comes before the focused item: Alt-Down past "
					   "the newest unfocuses, and /fork forks the whole conversation"
					 : "the focused item has no place in the server's log to fork from");
			return;
		}
		if (info.kind == ITEM_USER)
			v->fork_text = xstrndup(info.text, info.text_len);
	}
	if (!controller_fork(v->ctl, from, forked, v)) {
		ui_notice(&u->ui, "already forking…");
		return;
	}
	ui_notice(&u->ui, from ? "forking from before the focused item…"
			       : "forking the whole conversation…");
}
