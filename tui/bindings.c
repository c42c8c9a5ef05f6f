/* bindings: what each key does. Scrolling keys never take a key that typing needs: PgUp/PgDn
 * always scroll, Home/End only while the input is empty, and letters are only ever text —
 * except n/N while browsing search results, and ? on an empty input (the keys overlay). A
 * waiting confirmation is a modal (modal.c) that takes every key while open; the keys
 * overlay (overlay.c) too. Every table's rows say what they do: the overlay lists them. */
#include "conv.h"
#include "history_view.h"
#include "search.h"
#include "pager.h"
#include "modal.h"
#include "board_view.h"
#include "overlay.h"
#include "paint.h"
#include "bindings.h"
#include "diagnose.h"
#include "external_editor.h"
#include "history_file.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define DISPATCH(table, u, e, ev) keymap_dispatch(table, sizeof table / sizeof *table, u, e, ev)

enum { CTRL_C_WINDOW_US = 2000000 };

void bindings_ctrl_c(struct tui *u)
{
	int64_t now = clock_now_us();
	if (u->ctrl_c_at && now - u->ctrl_c_at < CTRL_C_WINDOW_US) {
		ui_quit(&u->ui, 130);
		return;
	}
	u->ctrl_c_at = now;
	const struct layer *top = layers_top(&u->layers);
	if (top == &confirm_layer || top == &reason_layer)
		modal_close(u);
	if (layers_top(&u->layers) == &board_layer)
		board_view_close(u);
	else {
		pager_free(u);
		layers_drop_all(&u->layers); /* a search or the pager stops where it stands */
	}
	ui_notice(&u->ui, "press Ctrl-C again to quit");
}

/* ------------------------------------------------------------------ scrolling */

static long page(struct tui *u)
{
	int rows = u->paint.transcript_rows;
	return rows > 3 ? rows - 2 : 1;
}

static void act_page_up(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	viewport_scroll(&u->cur->vp, u->cur->t, -page(u));
}

static void act_page_down(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	viewport_scroll(&u->cur->vp, u->cur->t, page(u));
}

static void act_line_up(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	viewport_scroll(&u->cur->vp, u->cur->t, -1);
}

static void act_line_down(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	viewport_scroll(&u->cur->vp, u->cur->t, 1);
}

static void act_top(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	history_view_go_first(u);
}

static void act_bottom(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	viewport_follow(&u->cur->vp);
}

static void act_repaint(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	ui_invalidate(&u->ui);
}

/* On a card whose output is longer than a card shows, Tab expands (or folds) the whole card
 * in place; elsewhere it shows or hides the reasoning (the system prompt's text). */
static void act_tab(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	long item = paint_tab_target(u);
	if (item < 0) {
		ui_notice(&u->ui, "nothing in view to expand: no long output, no reasoning");
		return;
	}
	struct item_info info;
	transcript_item(u->cur->t, (size_t)item, &info);
	/* In place: the item's header stays on its screen line, or moves up just enough for
	 * what opened to show (never above the top), so it is read from its start (even while
	 * following, which then stops until End). */
	long y = -1;
	for (size_t i = 0; i < u->paint.nrows && y < 0; i++)
		if (u->paint.rows[i].item == (size_t)item && u->paint.rows[i].header)
			y = (long)i;
	if (transcript_item_capped(u->cur->t, (size_t)item, u->cur->vp.width))
		transcript_toggle_expanded(u->cur->t, (size_t)item);
	else if (info.reasoning_len || (info.kind == ITEM_SYSTEM && info.text_len))
		transcript_toggle_reasoning(u->cur->t, (size_t)item);
	else {
		ui_notice(&u->ui, "this item is shown whole: Ctrl-O opens it full-screen");
		return;
	}
	if (y >= 0) {
		long rows = (long)transcript_item_rows(u->cur->t, (size_t)item, u->cur->vp.width);
		if (y + rows > u->cur->vp.height)
			y = u->cur->vp.height > rows ? u->cur->vp.height - rows : 0;
		viewport_show_item(&u->cur->vp, u->cur->t, (size_t)item);
		/* Following: the item is in the last screenful, shown whole from its header. */
		if (!u->cur->vp.follow)
			viewport_scroll(&u->cur->vp, u->cur->t, -y);
	}
}

/* ------------------------------------------------------------------ focus */

/* The items of the last frame: the first and the last whose header is in view (else the
 * items of the first and last rows). */
static void items_in_view(struct tui *u, size_t *first, size_t *last)
{
	size_t n = u->paint.nrows;
	*first = n ? u->paint.rows[0].item : 0;
	*last = n ? u->paint.rows[n - 1].item : transcript_count(u->cur->t) - 1;
	for (size_t i = 0; i < n; i++)
		if (u->paint.rows[i].header) {
			*first = u->paint.rows[i].item;
			break;
		}
	for (size_t i = n; i-- > 0;)
		if (u->paint.rows[i].header) {
			*last = u->paint.rows[i].item;
			break;
		}
}

/* Scrolls just enough for item idx's header to show: on top when it is above the view, with
 * the whole item (as much as fits) at the bottom when it is below. */
static void reveal_item(struct tui *u, size_t idx)
{
	for (size_t i = 0; i < u->paint.nrows; i++)
		if (u->paint.rows[i].item == idx && u->paint.rows[i].header)
			return;
	size_t first = u->paint.nrows ? u->paint.rows[0].item : 0;
	viewport_show_item(&u->cur->vp, u->cur->t, idx);
	if (idx <= first)
		return;
	size_t rows = transcript_item_rows(u->cur->t, idx, u->cur->vp.width);
	if (rows < (size_t)u->cur->vp.height)
		viewport_scroll(&u->cur->vp, u->cur->t, -(long)((size_t)u->cur->vp.height - rows));
}

static void focus_move(struct tui *u, int dir)
{
	size_t n = transcript_count(u->cur->t);
	if (!n) {
		ui_notice(&u->ui, "nothing to focus yet");
		return;
	}
	long cur = paint_focused(u), next;
	if (cur < 0) {
		size_t first, last;
		items_in_view(u, &first, &last);
		next = (long)(dir < 0 ? last : first);
	} else {
		next = cur + dir;
	}
	if (next < 0) {
		ui_notice(&u->ui, "the first item: nothing above");
		next = 0;
	}
	if ((size_t)next >= n) {
		u->cur->focus_uid = 0;
		viewport_follow(&u->cur->vp);
		ui_notice(&u->ui, "back to the newest: Tab and Ctrl-O act on the newest card in view");
		return;
	}
	u->cur->focus_uid = transcript_uid_at(u->cur->t, (size_t)next);
	reveal_item(u, (size_t)next);
}

static void act_focus_prev(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	focus_move(u, -1);
}

static void act_focus_next(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	focus_move(u, 1);
}

/* Ctrl-Z comes as a key in raw mode. Not raised as SIGTSTP: ncurses sets SIGTSTP to SIG_IGN
 * around each screen update, which discards it while it waits for the loop. */
static void act_suspend(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	ui_suspend(&u->ui);
}

static void act_reconnect(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	slash_reconnect(u);
}

/* Keys that work the same in every mode. */
static void act_switch_slot(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e;
	tui_switch_slot(u, ev->cp - '0');
}

static void act_switch_next(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	tui_switch_step(u, 1);
}

static void act_switch_prev(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	tui_switch_step(u, -1);
}

static void act_switch_attention(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	tui_switch_attention(u);
}

static const struct binding global_bindings[] = {
	BIND(KEYS_PGUP, 0, 0, act_page_up, "scroll up a page"),
	BIND(KEYS_PGDN, 0, 0, act_page_down, "scroll down a page"),
	BIND(KEYS_PGUP, KEYS_MOD_SHIFT, 0, act_page_up, "scroll up a page"),
	BIND(KEYS_PGDN, KEYS_MOD_SHIFT, 0, act_page_down, "scroll down a page"),
	BIND(KEYS_UP, KEYS_MOD_SHIFT, 0, act_line_up, "scroll up a line"),
	BIND(KEYS_DOWN, KEYS_MOD_SHIFT, 0, act_line_down, "scroll down a line"),
	BIND(KEYS_UP, KEYS_MOD_CTRL, 0, act_line_up, "scroll up a line"),
	BIND(KEYS_DOWN, KEYS_MOD_CTRL, 0, act_line_down, "scroll down a line"),
	BIND(KEYS_HOME, KEYS_MOD_CTRL, 0, act_top, "go to the top of the conversation"),
	BIND(KEYS_END, KEYS_MOD_CTRL, 0, act_bottom, "go to the newest and follow it"),
	BIND(KEYS_HOME, KEYS_MOD_ALT, 0, act_top, "go to the top of the conversation"),
	BIND(KEYS_END, KEYS_MOD_ALT, 0, act_bottom, "go to the newest and follow it"),
	BIND(KEYS_CTRL, 0, 'l', act_repaint, "redraw the screen"),
	BIND(KEYS_CTRL, 0, 'z', act_suspend, "suspend tether (fg to come back)"),
	ACTION(KEYS_F5, 0, 0, act_reconnect, "reconnect", "", slash_cmd_reconnect,
	       "reconnect now instead of waiting"),
	BIND(KEYS_TAB, 0, 0, act_tab, "expand or fold the focused card (else the newest in view) or its reasoning"),
	BIND(KEYS_UP, KEYS_MOD_ALT, 0, act_focus_prev, "focus the item above (a card, a message)"),
	BIND(KEYS_DOWN, KEYS_MOD_ALT, 0, act_focus_next, "focus the item below (past the newest: none)"),
};

static void act_board(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	if (layers_top(&u->layers) == &board_layer)
		board_view_close(u);
	else
		board_view_open(u);
}

/* Everywhere but the pager and the overlay, the board included. */
static const struct binding conversation_bindings[] = {
	ACTION(KEYS_CTRL, 0, 'g', act_board, "board", "", slash_cmd_board,
	       "the board: every conversation on the server (the key again: back)"),
	BIND(KEYS_CHAR, KEYS_MOD_ALT, KEYS_CP_DIGITS, act_switch_slot, "show open conversation 1…9 (the strip's numbers)"),
	BIND(KEYS_CTRL, 0, 'n', act_switch_next, "the next open conversation"),
	BIND(KEYS_CTRL, 0, 'p', act_switch_prev, "the previous open conversation"),
	BIND(KEYS_CHAR, KEYS_MOD_ALT, 'a', act_switch_attention, "the open conversation that needs you most (confirmation, error, finished, unread)"),
};

/* ------------------------------------------------------------------ editing */

/* ------------------------------------------------------------ confirmation */

static void act_search_start(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	search_start(u);
}

/* While a confirmation waits (set aside), the waiting action is what matters: Ctrl-O opens
 * the confirmation (its [o] opens the action full-screen). Otherwise Ctrl-O opens the
 * focused card, else the newest card in view, in the pager. */
static void act_open(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	struct controller_status st;
	controller_status(u->cur->ctl, &st);
	if (st.awaiting_confirmation) {
		modal_open(u, true);
		return;
	}
	long item = paint_open_target(u);
	if (item < 0)
		ui_notice(&u->ui, "no card in view to open: Alt-Up focuses a message");
	else
		pager_open(u, (size_t)item);
}

/* ------------------------------------------------------------------ input */

static bool blank(const char *s)
{
	return s[strspn(s, " \t\n")] == '\0';
}

/* A message while actions wait for confirmation would run them (see modal.c): it stays in
 * the draft, and the modal offers to answer first or to send it and allow. */
static bool held_for_confirmation(struct tui *u)
{
	struct controller_status st;
	controller_status(u->cur->ctl, &st);
	if (!st.awaiting_confirmation)
		return false;
	modal_open(u, false);
	ui_notice(&u->ui, "not sent: a message would allow the waiting actions; answer first, or "
		      "Tab to \"send draft & allow\"");
	return true;
}

/* Sends the input's text as a message, or runs it as a slash command. */
static void submit(struct tui *u)
{
	const char *draft = editor_text(&u->input);
	bool slash = draft[0] == '/' && draft[1] != '/';
	if (!slash && !blank(draft) && held_for_confirmation(u))
		return;
	char *text = editor_take(&u->input);
	if (!blank(text)) {
		tui_history_save(u, text);
		const char *msg = text;
		if (text[0] == '/' && text[1] == '/')
			msg = text + 1;
		else if (slash_run(u, text))
			msg = NULL;
		if (msg) {
			controller_send(u->cur->ctl, msg);
			viewport_follow(&u->cur->vp);
		}
	}
	free(text);
}

static void act_send(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	submit(u);
}

enum { ESC_AFTER_CLOSE_US = 1000000 };

/* Esc on the plain prompt interrupts a run in progress, and nothing else: not when no run
 * is, and not right after an Esc that closed a search, the overlay or the confirmation. */
static void act_interrupt(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)ev;
	bool running = ui_running(&u->ui);
	if (u->ui.esc_left_at && clock_now_us() - u->ui.esc_left_at < ESC_AFTER_CLOSE_US) {
		u->ui.esc_left_at = 0;
		if (running)
			ui_notice(&u->ui, "Esc again interrupts the agent");
		return;
	}
	if (!running && editor_empty(e)) {
		/* Esc Esc on an empty prompt: back to before the last message (Claude Code's). */
		int64_t now = clock_now_us();
		if (u->esc_idle_at && now - u->esc_idle_at < ESC_AFTER_CLOSE_US) {
			u->esc_idle_at = 0;
			slash_cmd_rewind(u, "");
			return;
		}
		u->esc_idle_at = now;
	}
	if (!running) {
		struct controller_status st;
		controller_status(u->cur->ctl, &st);
		struct buf words;
		buf_init(&words);
		if (st.execution_status)
			diag_status_words(&words, st.execution_status);
		else
			buf_puts(&words, "not known to be running yet");
		ui_notice(&u->ui, "nothing to interrupt: the agent is %s%s", buf_cstr(&words),
			  editor_empty(e) ? " (Esc again: /rewind)" : "");
		buf_fini(&words);
		return;
	}
	if (!controller_interrupt(u->cur->ctl))
		return; /* one is in flight: a burst of Esc is one interrupt */
	ui_notice_until_status(&u->ui, "interrupting the agent…");
}

/* '?' on an empty prompt opens the keys; in a message it is a question mark. */
static void act_question(struct tui *u, struct editor *e, const struct key_event *ev)
{
	if (editor_empty(e))
		overlay_open(u, overlay_text);
	else
		keymap_insert_char(u, e, ev);
}

static void act_eof(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)ev;
	if (editor_empty(e))
		ui_quit(&u->ui, 0);
	else
		editor_delete(e);
}

static void act_up(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)ev;
	if (!editor_move_up(e, u->paint.input_width))
		editor_history_prev(e);
}

static void act_down(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)ev;
	if (!editor_move_down(e, u->paint.input_width))
		editor_history_next(e);
}

static void act_home(struct tui *u, struct editor *e, const struct key_event *ev)
{
	if (editor_empty(e))
		act_top(u, e, ev);
	else
		editor_line_start(e);
}

static void act_end(struct tui *u, struct editor *e, const struct key_event *ev)
{
	if (editor_empty(e))
		act_bottom(u, e, ev);
	else
		editor_line_end(e);
}

/* The first key of Ctrl-X Ctrl-E (readline's and zsh's key for the same). */
static void act_ctrl_x(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	u->ctrl_x = true;
	ui_notice(&u->ui, "Ctrl-X: Ctrl-E edits the draft in $EDITOR");
}

static const struct binding input_bindings[] = {
	BIND(KEYS_ENTER, 0, 0, act_send, "send the message (or run the /command; //text sends \"/text\")"),
	BIND(KEYS_NEWLINE, 0, 0, keymap_newline, "a line break in the message"),
	BIND(KEYS_CHAR, 0, '?', act_question, "this list of keys (on an empty prompt)"),
	ACTION(KEYS_ESC, 0, 0, act_interrupt, "interrupt", "", slash_cmd_interrupt,
	       "interrupt the agent while it runs (cancel its current step)"),
	BIND(KEYS_CTRL, 0, 'd', act_eof, "quit (on an empty prompt)"),
	ACTION(KEYS_CTRL, 0, 'o', act_open, "confirm", "", slash_cmd_confirm,
	       "open the waiting confirmation (the key, with none waiting: the focused card, else the newest in view, full-screen)"),
	BIND(KEYS_CTRL, 0, 'r', act_search_start, "search the conversation"),
	BIND(KEYS_CTRL, 0, 's', act_search_start, "search the conversation"),
	BIND(KEYS_UP, 0, 0, act_up, "the previous message you sent (or up a line)"),
	BIND(KEYS_DOWN, 0, 0, act_down, "the next message you sent (or down a line)"),
	BIND(KEYS_HOME, 0, 0, act_home, "the top (empty prompt) or start of the line"),
	BIND(KEYS_END, 0, 0, act_end, "the newest (empty prompt) or end of the line"),
	ACTION(KEYS_CTRL, 0, 'x', act_ctrl_x, "edit", "[text]", slash_cmd_edit,
	       "then Ctrl-E: write the message in $VISUAL or $EDITOR, from text if given"),
};

static void act_complete(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	slash_complete(u);
}

/* Before the global keys, while the message is a command name being typed. */
static const struct binding completion_bindings[] = {
	BIND(KEYS_TAB, 0, 0, act_complete, "complete the /command being typed"),
};

static void act_ctrl_c(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	if (u->layers.overlay)
		overlay_close(u);
	bindings_ctrl_c(u);
}

static void act_overlay_toggle(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	if (u->layers.overlay)
		overlay_close(u);
	else
		overlay_open(u, overlay_text);
}

/* Keys that come before any mode's. */
static const struct binding first_bindings[] = {
	BIND(KEYS_CTRL, 0, 'c', act_ctrl_c, "quit (twice within 2 s)"),
	ACTION(KEYS_F1, 0, 0, act_overlay_toggle, "help", "", slash_cmd_help, "this list of keys and commands"),
};

#define TABLE(t) t, sizeof t / sizeof *t

size_t bindings_contexts(struct bindings_context *out, size_t max)
{
	const struct {
		const char *name;
		const struct binding *rows[BINDINGS_TABLES_MAX];
		size_t count[BINDINGS_TABLES_MAX];
	} all[] = {
		{ "Everywhere", { first_bindings, global_bindings },
		  { sizeof first_bindings / sizeof *first_bindings,
		    sizeof global_bindings / sizeof *global_bindings } },
		{ "Conversations (also on the board)", { conversation_bindings },
		  { sizeof conversation_bindings / sizeof *conversation_bindings } },
		{ "Typing a message", { input_bindings, completion_bindings },
		  { sizeof input_bindings / sizeof *input_bindings,
		    sizeof completion_bindings / sizeof *completion_bindings } },
		{ "Commands (Enter runs one; Tab completes its name)", { slash_bindings },
		  { slash_bindings_count } },
		{ "Asking the server (this conversation)", { server_cmd_bindings },
		  { server_cmd_bindings_count } },
		{ "Editing (the message, a search, a reason)", { keymap_edit_bindings },
		  { keymap_edit_bindings_count } },
		{ "Searching (Ctrl-R)", { search_edit_bindings }, { search_edit_bindings_count } },
		{ "Browsing the matches (after Enter)", { search_browse_bindings },
		  { search_browse_bindings_count } },
		{ "The board (Ctrl-G)", { board_bindings }, { board_bindings_count } },
		{ "A confirmation waits", { modal_bindings }, { modal_bindings_count } },
		{ "A card full-screen (Ctrl-O)", { pager_bindings }, { pager_bindings_count } },
		{ "Typing the reason of a rejection", { reason_bindings }, { reason_bindings_count } },
		{ "This list", { overlay_bindings }, { overlay_bindings_count } },
	};
	size_t n = sizeof all / sizeof *all;
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		out[i] = (struct bindings_context){ .name = all[i].name };
		for (size_t j = 0; j < BINDINGS_TABLES_MAX && all[i].rows[j]; j++) {
			out[i].rows[j] = all[i].rows[j];
			out[i].count[j] = all[i].count[j];
			out[i].ntables = j + 1;
		}
	}
	return n;
}

const struct binding *bindings_command(const char *name, size_t n)
{
	struct bindings_context c[BINDINGS_CONTEXTS_MAX];
	size_t nc = bindings_contexts(c, BINDINGS_CONTEXTS_MAX);
	for (size_t i = 0; i < nc; i++)
		for (size_t t = 0; t < c[i].ntables; t++)
			for (size_t r = 0; r < c[i].count[t]; r++) {
				const struct binding *b = &c[i].rows[t][r];
				if (b->command && strlen(b->command) == n && !strncmp(b->command, name, n))
					return b;
			}
	return NULL;
}

/* Tab completes while the message is "/" and a command name, nothing after it. */
static bool completing(struct tui *u, const struct key_event *ev)
{
	const char *draft = editor_text(&u->input);
	return ev->kind == KEYS_TAB && !ev->mods && draft[0] == '/' && draft[1] != '/' &&
	       !draft[strcspn(draft, " \t\n")];
}

/* A key through one layer: its own keys, the conversation keys (the board), the keys of
 * Everywhere on its editor, then what it does with the rest. */
static enum layer_key through(struct tui *u, const struct layer *l, const struct key_event *ev)
{
	enum layer_key r = l->key ? l->key(u, ev) : LAYER_KEY_NONE;
	if (r == LAYER_KEY_NONE && l->conversation_keys) {
		DISPATCH(conversation_bindings, u, &u->input, ev);
		r = LAYER_KEY_TAKEN;
	}
	if (r == LAYER_KEY_NONE && l->global_keys &&
	    DISPATCH(global_bindings, u, l->editor ? l->editor(u) : &u->input, ev))
		r = LAYER_KEY_TAKEN;
	if (r == LAYER_KEY_NONE)
		r = l->other ? l->other(u, ev) : LAYER_KEY_TAKEN;
	return r;
}

void bindings_handle(struct tui *u, const struct key_event *ev)
{
	bool after_ctrl_x = u->ctrl_x;
	u->ctrl_x = false;
	if (DISPATCH(first_bindings, u, &u->input, ev))
		return;
	if (u->layers.overlay && through(u, u->layers.overlay, ev) == LAYER_KEY_TAKEN)
		return;
	/* Down the stack; the conversation keys come before the first layer of the prompt area
	 * (or the prompt itself). */
	bool conversation_keys = false;
	for (size_t i = u->layers.n; i-- > 0;) {
		const struct layer *l = u->layers.at[i];
		if (!l->screen && !conversation_keys) {
			conversation_keys = true;
			if (DISPATCH(conversation_bindings, u, &u->input, ev))
				return;
		}
		enum layer_key r = through(u, l, ev);
		if (r == LAYER_KEY_TAKEN)
			return;
		if (r == LAYER_KEY_PROMPT)
			break;
		if (i > u->layers.n)
			i = u->layers.n; /* a layer closed more than itself */
	}
	if (!conversation_keys && DISPATCH(conversation_bindings, u, &u->input, ev))
		return;
	if (after_ctrl_x && ev->kind == KEYS_CTRL && ev->cp == 'e' && !ev->mods) {
		external_editor_open(u);
		return;
	}
	if (after_ctrl_x) {
		/* Another key: the hint that Ctrl-X gave is no longer true. */
		ui_notice_clear(&u->ui);
	}
	if (completing(u, ev) && DISPATCH(completion_bindings, u, &u->input, ev))
		return;
	if (DISPATCH(global_bindings, u, &u->input, ev) ||
	    DISPATCH(input_bindings, u, &u->input, ev))
		return;
	keymap_edit(u, &u->input, ev, true);
}
