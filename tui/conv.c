/* conv: the conversations open in one tether. Each has its own controller (socket, cursor,
 * model, streams), view, draft and confirmation state; one is on screen. Switching puts the
 * draft aside and brings the other's back, leaves a search or a modal the way Esc would,
 * and shows the other exactly where its reader left it. */
#include "conv.h"
#include "recorder.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *conv_name(const struct conv *v)
{
	struct controller_status st;
	controller_status(v->ctl, &st);
	if (st.title && *st.title)
		return st.title;
	return st.conversation_id ? st.conversation_id : "";
}

enum conv_mark conv_mark(const struct conv *v)
{
	enum run_status run = controller_run_status(v->ctl);
	if (run == RUN_STATUS_WAITING_FOR_CONFIRMATION)
		return CONV_MARK_CONFIRM;
	if (v->ended || run == RUN_STATUS_ERROR || run == RUN_STATUS_STUCK)
		return CONV_MARK_ERROR;
	if (v->marks.finished_unseen)
		return CONV_MARK_FINISHED;
	return v->marks.unread ? CONV_MARK_UNREAD : CONV_MARK_NONE;
}

bool conv_background_news(struct conv *v)
{
	enum conv_mark m = conv_mark(v);
	bool news = (int)m != v->marks.mark_shown;
	v->marks.mark_shown = (int)m;
	return news;
}

size_t conv_slot(const struct conv *v)
{
	for (size_t i = 0; i < v->u->nconvs; i++)
		if (v->u->convs[i] == v)
			return i + 1;
	return 0;
}

struct conv *conv_find(struct tui *u, const char *id)
{
	for (size_t i = 0; i < u->nconvs; i++)
		if (conversation_id_same(u->convs[i]->id, id))
			return u->convs[i];
	return NULL;
}

/* The TUI's run ends when the user quits; the modal answers confirmations; a message typed
 * while the socket is down goes through REST; the history opens on the tail and pages. */
static const struct run_policy conv_policy = {
	.until = UNTIL_NEVER, .rest_fallback = true, .page_history = true,
};

struct conv *conv_open(struct tui *u, const char *id, bool first)
{
	struct conv *v = conv_find(u, id);
	if (v)
		return v;
	if (u->nconvs >= (size_t)u->o->max_open || u->nconvs >= CONV_OPEN_MAX) {
		ui_notice(&u->ui, "%zu conversations are open (max_open): /close one first", u->nconvs);
		return NULL;
	}
	v = xcalloc(1, sizeof *v);
	v->u = u;
	v->id = xstrdup(id);
	v->o = *u->o;
	v->o.conversation_id = v->id;
	if (!first) {
		/* --after-seq and --record are about the conversation tether was started with. */
		v->o.after_seq_given = false;
		v->o.no_history = false;
	}
	v->search.match = -1;
	v->history.dead_seq = -1;
	v->confirm.choice = -1;
	layout_init(&v->confirm.layout);
	attention_init(&v->attention, u->o->bell, u->o->bell_after_s, u->o->notify);
	viewport_init(&v->vp, COLS, LINES > 2 ? LINES - 2 : 1);
	/* A screen's worth of events fills it (each shows on a row at least): the socket
	 * replays those; the rest of the window comes in pages after the first frame. A record
	 * keeps socket frames only: there the socket replays the whole window, as before. */
	struct run_policy policy = conv_policy;
	if (!(first && u->record))
		policy.open_tail = v->vp.height;
	v->ctl = controller_create(u->loop, &v->o, &policy, u->masks, u->api_key);
	v->t = controller_transcript(v->ctl);
	u->convs[u->nconvs++] = v;
	controller_add_sink(v->ctl, tui_sink(v));
	if (first && u->record) {
		controller_add_sink(v->ctl, recorder_create(u->record, u->o->record_path, u->masks,
							    v->ctl));
		u->record = NULL; /* the controller closes it */
	}
	if (!u->cur) {
		u->cur = u->modal = v;
		u->ui.ctl = v->ctl;
	}
	if (u->started) /* else tui_run starts them with the loop */
		controller_start(v->ctl);
	return v;
}

static void put_draft_aside(struct tui *u, struct conv *v)
{
	free(v->draft);
	v->draft_cursor = u->input.cursor;
	v->draft = editor_take(&u->input);
}

static void bring_draft_back(struct tui *u, struct conv *v)
{
	editor_clear(&u->input);
	if (v->draft && *v->draft) {
		editor_insert(&u->input, v->draft, strlen(v->draft));
		/* The cursor where it was: the text is the same, so its offset is a boundary. */
		if (v->draft_cursor <= u->input.text.len)
			u->input.cursor = v->draft_cursor;
	}
	free(v->draft);
	v->draft = NULL;
}

void tui_switch(struct tui *u, struct conv *v)
{
	if (!v)
		return;
	/* What the screen had open closes the way Esc would: a search puts the view back. */
	layers_close_all(&u->layers, u);
	if (v != u->cur) {
		put_draft_aside(u, u->cur);
		u->cur = v;
		u->ui.ctl = v->ctl;
		bring_draft_back(u, v);
		ui_notice_settled(&u->ui);
		ui_notice_clear(&u->ui);
	}
	u->modal = v;
	v->attention.title[0] = '\0'; /* the terminal title is this one's now */
	/* Looked at: its marks are read (a confirmation stays until answered). */
	v->marks.unread = 0;
	v->marks.finished_unseen = false;
	v->marks.mark_shown = (int)conv_mark(v);
	ui_invalidate(&u->ui);
}

void tui_switch_step(struct tui *u, int dir)
{
	if (u->nconvs < 2) {
		ui_notice(&u->ui, "one conversation is open: Ctrl-G shows the others on the server");
		return;
	}
	size_t i = conv_slot(u->cur) - 1;
	tui_switch(u, u->convs[(i + u->nconvs + (size_t)(dir > 0 ? 1 : u->nconvs - 1)) % u->nconvs]);
}

void tui_switch_slot(struct tui *u, size_t slot)
{
	if (slot == 0 || slot > u->nconvs) {
		ui_notice(&u->ui, "no conversation %zu: %zu open (Ctrl-G: the board)", slot, u->nconvs);
		return;
	}
	tui_switch(u, u->convs[slot - 1]);
}

void tui_switch_attention(struct tui *u)
{
	/* The most urgent first, then the nearest after the current one. */
	struct conv *best = NULL;
	enum conv_mark best_mark = CONV_MARK_NONE;
	size_t at = conv_slot(u->cur);
	for (size_t k = 1; k <= u->nconvs; k++) {
		struct conv *v = u->convs[(at - 1 + k) % u->nconvs];
		enum conv_mark m = v == u->cur ? CONV_MARK_NONE : conv_mark(v);
		if (m > best_mark) {
			best = v;
			best_mark = m;
		}
	}
	if (!best) {
		size_t far = conv_far_waiting(u);
		if (far)
			ui_notice(&u->ui, "no other open conversation needs you; %zu not open here wait%s for "
				      "confirmation: Ctrl-G", far, far == 1 ? "s" : "");
		else
			ui_notice(&u->ui, "no other conversation needs you");
		return;
	}
	tui_switch(u, best);
}

void conv_destroy(struct conv *v)
{
	controller_destroy(v->ctl);
	layout_fini(&v->confirm.layout);
	free(v->history.page_us);
	free(v->draft);
	free(v->rewind_text);
	free(v->fork_text);
	free(v->id);
	free(v);
}

struct rest_server tui_rest_server(const struct tui *u)
{
	return (struct rest_server){
		.loop = u->loop, .url = u->o->server, .api_key = u->api_key,
		.insecure = u->o->insecure,
	};
}

bool tui_close(struct tui *u, struct conv *v)
{
	if (u->nconvs < 2)
		return false;
	size_t i = conv_slot(v) - 1;
	if (v == u->cur)
		tui_switch(u, u->convs[i + 1 < u->nconvs ? i + 1 : i - 1]);
	memmove(&u->convs[i], &u->convs[i + 1], (u->nconvs - i - 1) * sizeof *u->convs);
	u->nconvs--;
	conv_destroy(v);
	return true;
}

void tui_close_current(struct tui *u)
{
	char name[64];
	snprintf(name, sizeof name, "%s", conv_name(u->cur));
	if (tui_close(u, u->cur))
		ui_notice(&u->ui, "closed %s", name);
	else
		ui_notice(&u->ui, "the only conversation open: /quit ends tether");
}

void conv_strip(struct tui *u, bool brief, struct buf *out)
{
	size_t far = conv_far_waiting(u);
	if (u->nconvs < 2 && !far)
		return;
	if (u->nconvs >= 2) {
		/* irssi's activity bar: where you are, then who has something for you. */
		buf_printf(out, "%zu/%zu", conv_slot(u->cur), u->nconvs);
		bool any = false;
		for (size_t i = 0; i < u->nconvs; i++) {
			struct conv *v = u->convs[i];
			enum conv_mark m = v == u->cur ? CONV_MARK_NONE : conv_mark(v);
			if (m == CONV_MARK_NONE)
				continue;
			buf_puts(out, any ? " " : " · ");
			buf_printf(out, "%zu%s", i + 1, conv_mark_glyph(m));
			any = true;
		}
	}
	/* not open here, found by the slow poll of the server's list: the board answers them */
	if (far)
		buf_printf(out, brief ? "%s+%zu%s" : "%s%zu%s elsewhere (Ctrl-G)",
			   u->nconvs >= 2 ? " · " : "", far, conv_mark_glyph(CONV_MARK_CONFIRM));
	buf_puts(out, " │ ");
}

void conv_note_far(struct tui *u, const struct conversation_info *items, size_t n)
{
	for (size_t i = 0; i < u->nfar; i++)
		free(u->far[i]);
	free(u->far);
	u->far = NULL;
	u->nfar = 0;
	if (!u->elsewhere)
		return;
	for (size_t i = 0; i < n; i++)
		if (items[i].id && items[i].run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION) {
			u->far = xrealloc(u->far, (u->nfar + 1) * sizeof *u->far);
			u->far[u->nfar++] = xstrdup(items[i].id);
		}
	ui_schedule_frame(&u->ui);
}

size_t conv_far_waiting(struct tui *u)
{
	size_t n = 0;
	for (size_t i = 0; i < u->nfar; i++)
		n += !conv_find(u, u->far[i]); /* the open ones speak for themselves */
	return n;
}
