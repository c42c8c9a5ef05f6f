/* modal: the confirmation. While actions wait for the user it is shown above the prompt, but
 * it takes the keyboard only once the user moves to it (Tab, ↑↓, Ctrl-O): until then every
 * typed key goes to the draft, so a message typed as the request arrives is kept whole and a
 * message that starts with "y" or "n" is never an answer. A key that is no choice gives the
 * keyboard back to the draft. Every pending action is shown whole — tool, risk, the agent's
 * thought and every argument — wrapped and scrollable.
 *
 * Why a message may not go out while actions wait: the agent-server's socket takes a user
 * message with run = true (every socket message), EventService.send_message then calls
 * run(), LocalConversation.run() turns WAITING_FOR_CONFIRMATION into RUNNING and calls
 * agent.step(), and Agent.step() first executes every action without an observation
 * (get_unmatched_actions: "implicit confirmation") — software-agent-sdk at 611629e6. So
 * sending is allowed only after an answer, or as the explicit "send draft and allow". */
#include "draw.h"
#include "conv.h"
#include "search.h"
#include "pager.h"
#include "modal.h"
#include "clipboard.h"

#include <stdlib.h>
#include <string.h>

enum { MODAL_ACTIONS_MAX = 64 };

enum choice { CH_ALLOW, CH_REJECT, CH_SEND, CH_NEVER, CH_RISKY, CH_COPY, CH_OPEN, CH_ASIDE,
	      CH_COUNT };

/* The key's part of a label ("[y] ") is shown only while the key answers. */
static const struct {
	uint32_t key;
	const char *label;
	size_t key_len;
} choices[CH_COUNT] = {
	[CH_ALLOW] = { 'y', "[y] allow", 4 },
	[CH_REJECT] = { 'n', "[n] reject…", 4 },
	[CH_SEND] = { 's', "[s] send draft & allow", 4 },
	[CH_NEVER] = { 'd', "[d] allow, don't ask again", 4 },
	[CH_RISKY] = { 'r', "[r] allow, ask only if risky", 4 },
	[CH_COPY] = { 'c', "[c] copy", 4 },
	[CH_OPEN] = { 'o', "[o] full view", 4 },
	[CH_ASIDE] = { 27, "[Esc] set aside", 0 },
};

/* A choice's label as painted: without its key while the key would go to the draft. */
static const char *label_of(struct tui *u, int c)
{
	return choices[c].label + (u->modal->confirm.focused ? 0 : choices[c].key_len);
}

/* As the web client: UNKNOWN (no analyzer) and LOW are not worth a label. */
static const char *const risk_names[] = { "", "", "", "[MEDIUM risk] ", "[HIGH risk] " };

static const struct look plain = { 0, 0, 0 };
static const struct look title_look = { A_BOLD | A_REVERSE, PAIR_PENDING, A_BOLD | A_REVERSE };
static const struct look chosen_look = { A_REVERSE | A_BOLD, 0, A_REVERSE | A_BOLD };
static const struct look key_look = { A_BOLD, 0, A_BOLD };

/* Sending the draft and opening the pager are about the conversation on screen: not offered
 * for one answered from the board. */
static bool offered(struct tui *u, enum choice c)
{
	if (c == CH_SEND)
		return u->modal == u->cur && !editor_empty(&u->input);
	return c != CH_OPEN || u->modal == u->cur;
}

/* The pending actions as one text: what is painted, searched by the eye, and copied. */
static size_t modal_text(struct tui *u, struct buf *out)
{
	struct item_info infos[MODAL_ACTIONS_MAX];
	size_t n = transcript_pending_infos(u->modal->t, infos, MODAL_ACTIONS_MAX);
	if (n > MODAL_ACTIONS_MAX)
		n = MODAL_ACTIONS_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct item_info info = infos[i];
		int risk = info.risk >= 0 && info.risk <= 4 ? info.risk : 0;
		if (i)
			buf_puts(out, "\n\n");
		buf_printf(out, "%zu. %s%s", i + 1, risk_names[risk], info.title ? info.title : "tool");
		if (info.text_len) {
			buf_puts(out, "\nwhy: ");
			buf_append(out, info.text, info.text_len);
		}
		if (info.reasoning_len) {
			buf_puts(out, "\nreasoning: ");
			buf_append(out, info.reasoning, info.reasoning_len);
		}
		buf_putc(out, '\n');
		/* An edit shows as its diff, which holds every line of its texts. */
		if (info.detail_len && text_opens_diff(info.detail, info.detail_len))
			buf_append(out, info.detail, info.detail_len);
		else
			buf_puts(out, info.full_action ? info.full_action : info.summary ? info.summary
											: "(no arguments)");
	}
	if (!n)
		buf_puts(out, "The actions waiting are not in this transcript (history not loaded, or "
			      "they came before the first event shown): allowing allows them unseen.");
	return n;
}

void modal_open(struct tui *u, bool focused)
{
	modal_open_for(u, u->cur, focused);
}

void modal_open_for(struct tui *u, struct conv *v, bool focused)
{
	if (layers_top(&u->layers) == &search_layer)
		search_cancel(u);
	/* Answered, it goes back to what it was opened over: the board or the prompt. */
	layers_pop(&u->layers, &reason_layer);
	layers_push(&u->layers, &confirm_layer);
	u->modal = v;
	u->modal->confirm.hidden = false;
	u->modal->confirm.focused = focused;
	u->modal->confirm.choice = -1;
	u->modal->confirm.scroll = 0;
	ui_schedule_frame(&u->ui);
}

void modal_close(struct tui *u)
{
	layers_pop(&u->layers, &reason_layer);
	layers_pop(&u->layers, &confirm_layer);
	u->modal->confirm.hidden = true;
	ui_schedule_frame(&u->ui);
}

static void answered(struct tui *u, bool started, const char *what)
{
	if (!started) {
		ui_notice(&u->ui, "an answer is already on its way to the server");
		return;
	}
	bool shown = u->modal == u->cur;
	modal_close(u);
	if (shown)
		ui_notice_until_status(&u->ui, "%s", what); /* true until the agent moves on */
	else
		ui_notice(&u->ui, "%s: %s", conv_name(u->modal), what);
}

static void copy_actions(struct tui *u)
{
	struct buf text;
	buf_init(&text);
	modal_text(u, &text);
	clipboard_copy(&u->ui, u->o->osc52, u->probe.clipboard, text.data ? text.data : "", text.len);
	buf_fini(&text);
}

static void choose(struct tui *u, enum choice c)
{
	switch (c) {
	case CH_ALLOW:
		answered(u, controller_confirm(u->modal->ctl, true, NULL), "allowed; waiting for the agent");
		break;
	case CH_REJECT:
		editor_clear(&u->reason);
		layers_push(&u->layers, &reason_layer);
		break;
	case CH_SEND: {
		char *draft = editor_take(&u->input);
		bool started = controller_confirm_and_send(u->modal->ctl, draft);
		if (!started)
			editor_insert(&u->input, draft, strlen(draft));
		free(draft);
		answered(u, started, "allowed; the draft goes out once the server took that");
		break;
	}
	case CH_NEVER:
	case CH_RISKY:
		answered(u, controller_set_confirmation_policy(
				    u->modal->ctl, c == CH_NEVER ? CONFIRMATION_POLICY_NEVER : CONFIRMATION_POLICY_RISKY,
				    true),
			 c == CH_NEVER ? "allowing; this conversation will not ask again"
				       : "allowing; this conversation will ask only for risky actions");
		break;
	case CH_COPY:
		copy_actions(u);
		break;
	case CH_OPEN: {
		/* The pager's q comes back to this modal. */
		size_t idx;
		if (transcript_pending_tools(u->modal->t, &idx, 1))
			pager_open(u, idx);
		else
			ui_notice(&u->ui, "the waiting action is not in this transcript");
		break;
	}
	case CH_ASIDE:
	case CH_COUNT:
		modal_close(u);
		ui_notice(&u->ui, "confirmation set aside: Ctrl-O or /confirm opens it again");
		break;
	}
}

/* The next offered choice from the current one in direction dir (+1 or -1). */
static void move_choice(struct tui *u, int dir)
{
	int c = u->modal->confirm.choice;
	if (c < 0)
		c = dir > 0 ? -1 : CH_COUNT;
	do
		c = (c + dir + CH_COUNT) % CH_COUNT;
	while (!offered(u, (enum choice)c));
	u->modal->confirm.choice = c;
}

/* The reason editor ended: send the rejection, or go back to the choices. */
static void reason_done(struct tui *u, bool send)
{
	if (!send) {
		layers_pop(&u->layers, &reason_layer);
		return;
	}
	char *reason = editor_take(&u->reason);
	bool started = controller_confirm(u->modal->ctl, false, *reason ? reason : NULL);
	free(reason);
	answered(u, started, "rejected");
}

static void act_aside(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	choose(u, CH_ASIDE);
	u->ui.esc_left_at = clock_now_us(); /* an Esc right after this one is no interrupt */
}

static void act_scroll_up(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	u->modal->confirm.scroll = u->modal->confirm.scroll > 3 ? u->modal->confirm.scroll - 3 : 0;
}

static void act_scroll_down(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	u->modal->confirm.scroll += 3; /* clamped when painted */
}

/* The choices take the keyboard: a notice about typing while it waited is no longer true. */
static void focus(struct tui *u)
{
	if (u->modal->confirm.focused)
		return;
	u->modal->confirm.focused = true;
	ui_notice_clear(&u->ui);
}

/* The first of these keys gives the choices the keyboard; the next ones move. */
static void act_move(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e;
	if (u->modal->confirm.focused)
		move_choice(u, ev->kind == KEYS_UP || ev->kind == KEYS_LEFT || ev->kind == KEYS_BACKTAB
				       ? -1 : 1);
	focus(u);
}

static void act_take(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	if (u->modal->confirm.focused && u->modal->confirm.choice >= 0)
		choose(u, (enum choice)u->modal->confirm.choice);
	else
		ui_notice(&u->ui, "Tab or an arrow key chooses; Esc sets the confirmation aside");
}

static void act_focus(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	focus(u);
}

static bool modal_give_back(struct tui *u);

/* A choice's key answers only once the choices have the keyboard. */
static void act_choice(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e;
	for (int c = 0; c < CH_COUNT; c++)
		if (u->modal->confirm.focused && offered(u, (enum choice)c) && choices[c].key == ev->cp) {
			choose(u, (enum choice)c);
			return;
		}
	modal_give_back(u); /* not reached: modal_handle leaves such keys to the draft */
}

const struct binding modal_bindings[] = {
	BIND(KEYS_TAB, 0, 0, act_move, "give the choices the keyboard, then the next choice"),
	BIND(KEYS_DOWN, 0, 0, act_move, "give the choices the keyboard, then the next choice"),
	BIND(KEYS_RIGHT, 0, 0, act_move, "the next choice (before Tab: moves in the draft)"),
	BIND(KEYS_UP, 0, 0, act_move, "give the choices the keyboard, then the previous choice"),
	BIND(KEYS_LEFT, 0, 0, act_move, "the previous choice (before Tab: moves in the draft)"),
	BIND(KEYS_BACKTAB, 0, 0, act_move, "give the choices the keyboard, then the previous choice"),
	BIND(KEYS_CTRL, 0, 'o', act_focus, "give the choices the keyboard"),
	BIND(KEYS_ENTER, 0, 0, act_take, "take the highlighted choice"),
	BIND(KEYS_CHAR, 0, 'y', act_choice, "allow (once the choices have the keyboard)"),
	BIND(KEYS_CHAR, 0, 'n', act_choice, "reject, with a reason you may type"),
	BIND(KEYS_CHAR, 0, 's', act_choice, "send the draft and allow"),
	BIND(KEYS_CHAR, 0, 'd', act_choice, "allow, and this conversation does not ask again"),
	BIND(KEYS_CHAR, 0, 'r', act_choice, "allow, and ask only for risky actions"),
	BIND(KEYS_CHAR, 0, 'c', act_choice, "copy the actions whole"),
	BIND(KEYS_CHAR, 0, 'o', act_choice, "open the waiting action full-screen in the pager (q comes back)"),
	BIND(KEYS_ESC, 0, 0, act_aside, "set the confirmation aside (Ctrl-O or /confirm opens it)"),
	BIND(KEYS_PGUP, 0, 0, act_scroll_up, "scroll the actions up"),
	BIND(KEYS_PGDN, 0, 0, act_scroll_down, "scroll the actions down"),
};
const size_t modal_bindings_count = sizeof modal_bindings / sizeof *modal_bindings;

/* Whether key answers one of the choices offered now. */
static bool is_choice(struct tui *u, uint32_t key)
{
	for (int c = 0; c < CH_COUNT; c++)
		if (offered(u, (enum choice)c) && choices[c].key == key)
			return true;
	return false;
}

/* Keys the modal takes before it has the keyboard: those that move to it or away, scroll it,
 * and Enter on an empty draft (to say how to answer). */
static bool taken_unfocused(struct tui *u, const struct key_event *ev)
{
	switch (ev->kind) {
	case KEYS_TAB:
	case KEYS_BACKTAB:
	case KEYS_UP:
	case KEYS_DOWN:
	case KEYS_ESC:
	case KEYS_PGUP:
	case KEYS_PGDN:
		return !ev->mods;
	case KEYS_CTRL:
		return ev->cp == 'o' && !ev->mods;
	case KEYS_ENTER:
		return !ev->mods && editor_empty(&u->input);
	default:
		return false;
	}
}

/* Whether the draft is on screen to take the keys the modal does not. */
static bool draft_shown(struct tui *u)
{
	return u->modal == u->cur && !layers_screen(&u->layers); /* not over the board */
}

/* A key while the modal has the keyboard: runs its row of modal_bindings; false when none. */
static bool modal_handle(struct tui *u, const struct key_event *ev)
{
	if (!u->modal->confirm.focused && draft_shown(u) && !taken_unfocused(u, ev))
		return false;
	struct key_event k = *ev;
	if (k.kind == KEYS_CHAR && k.cp >= 'A' && k.cp <= 'Z')
		k.cp = k.cp - 'A' + 'a'; /* Y is y */
	if (k.kind == KEYS_CHAR && !is_choice(u, k.cp))
		return false; /* typing: the caller gives the keyboard back to the draft */
	return keymap_dispatch(modal_bindings, modal_bindings_count, u, &u->input, &k);
}

/* The modal did not take a key: true when it goes to the draft (the keyboard goes back there),
 * false (with a notice of what the modal takes) when no draft is on screen. */
static bool modal_give_back(struct tui *u)
{
	if (!draft_shown(u)) {
		/* Answering from the board: no draft on screen to type into. */
		ui_notice(&u->ui, "not a choice: y allow · n reject · Esc set aside");
		return false;
	}
	if (u->modal->confirm.focused) {
		u->modal->confirm.focused = false;
		u->modal->confirm.choice = -1;
		ui_notice(&u->ui, "typing goes to the draft; Tab answers the confirmation");
	}
	return true;
}

/* ------------------------------------------------------------------ the reason */

static void act_reason_send(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e, (void)ev;
	reason_done(u, true);
}

static void act_reason_cancel(struct tui *u, struct editor *e, const struct key_event *ev)
{
	(void)e;
	reason_done(u, false);
	ui_esc_closed(&u->ui, ev);
}

const struct binding reason_bindings[] = {
	BIND(KEYS_ENTER, 0, 0, act_reason_send, "reject with this reason"),
	BIND(KEYS_NEWLINE, 0, 0, keymap_newline, "a line break in the reason"),
	BIND(KEYS_ESC, 0, 0, act_reason_cancel, "back to the confirmation"),
};
const size_t reason_bindings_count = sizeof reason_bindings / sizeof *reason_bindings;

/* ------------------------------------------------------------------ painting */

/* Rows the choices take at width: labels placed greedily, " · " between. */
static int choice_lines(struct tui *u, int width, int line_of[CH_COUNT])
{
	int line = 0, x = 0;
	for (int c = 0; c < CH_COUNT; c++) {
		if (!offered(u, (enum choice)c)) {
			line_of[c] = -1;
			continue;
		}
		const char *label = label_of(u, c);
		int w = text_width(label, strlen(label)) + 3;
		if (x && x + w > width) {
			line++;
			x = 0;
		}
		line_of[c] = line;
		x += w;
	}
	return line + 1;
}

int modal_rows_wanted(struct tui *u, int width)
{
	struct buf text;
	buf_init(&text);
	modal_text(u, &text);
	/* The actions change in other ways than growing: lay out afresh (a few rows). */
	layout_reset(&u->modal->confirm.layout);
	layout_update(&u->modal->confirm.layout, text.data ? text.data : "", text.len,
		      width > 3 ? width - 2 : 1, LAYOUT_FENCES);
	buf_fini(&text);
	int line_of[CH_COUNT];
	return 1 + (int)u->modal->confirm.layout.nrows + choice_lines(u, width, line_of);
}

void modal_paint(struct tui *u, int y, int rows)
{
	int line_of[CH_COUNT];
	int nchoice = choice_lines(u, COLS, line_of);
	int body = rows - 1 - nchoice;
	if (body < 0) {
		nchoice += body;
		body = 0;
	}
	struct layout *l = &u->modal->confirm.layout;
	size_t max_scroll = l->nrows > (size_t)body ? l->nrows - (size_t)body : 0;
	if (u->modal->confirm.scroll > max_scroll)
		u->modal->confirm.scroll = max_scroll;
	size_t npending = transcript_pending_tools(u->modal->t, NULL, 0);
	struct buf title;
	buf_init(&title);
	if (npending)
		buf_printf(&title, " Confirm %zu action%s ", npending, npending == 1 ? "" : "s");
	else
		buf_puts(&title, " Confirm the actions the agent waits to run ");
	if (max_scroll)
		buf_printf(&title, "· rows %zu-%zu of %zu (PgUp/PgDn) ", u->modal->confirm.scroll + 1,
			   u->modal->confirm.scroll + (size_t)body, l->nrows);
	if (!u->modal->confirm.focused)
		buf_puts(&title, "· Tab or ↑↓ to answer, Esc to set aside ");
	struct draw_line t = { .nseg = 0, .fill = true, .fill_look = title_look };
	draw_line_add(&t, title.data, title.len, title_look);
	draw_line_paint(&u->paint, y, &t);
	buf_fini(&title);
	for (int i = 0; i < body; i++) {
		struct draw_line a = { .nseg = 0 };
		size_t r = u->modal->confirm.scroll + (size_t)i;
		draw_line_puts(&a, "  ", plain);
		if (r < l->nrows) {
			const struct row *row = &l->rows[r];
			static const char pad[] = "        ";
			draw_line_add(&a, pad, row->indent < sizeof pad - 1 ? row->indent : sizeof pad - 1,
				      plain);
			for (uint32_t s = 0; s < row->span_count && a.nseg < DRAW_LINE_SEGMENTS; s++) {
				const struct span *sp = &l->spans[row->span_first + s];
				draw_line_add(&a, l->text.data + sp->off, sp->len,
					      draw_span_look(plain, sp->style));
			}
		}
		draw_line_paint(&u->paint, y + 1 + i, &a);
	}
	for (int line = 0; line < nchoice; line++) {
		struct draw_line a = { .nseg = 0 };
		for (int c = 0; c < CH_COUNT; c++) {
			if (line_of[c] != line || a.nseg + 2 > DRAW_LINE_SEGMENTS)
				continue;
			if (a.nseg)
				draw_line_puts(&a, " · ", plain);
			bool chosen = u->modal->confirm.focused && u->modal->confirm.choice == c;
			draw_line_puts(&a, label_of(u, c),
				       chosen ? chosen_look : u->modal->confirm.focused ? key_look : plain);
		}
		draw_line_paint(&u->paint, y + 1 + body + line, &a);
	}
}

/* ------------------------------------------------------------------ the layers */

static enum layer_key confirm_key(struct tui *u, const struct key_event *ev)
{
	return modal_handle(u, ev) ? LAYER_KEY_TAKEN : LAYER_KEY_NONE;
}

/* Typing goes to the draft when it is on screen. */
static enum layer_key confirm_other(struct tui *u, const struct key_event *ev)
{
	(void)ev;
	return modal_give_back(u) ? LAYER_KEY_PROMPT : LAYER_KEY_TAKEN;
}

/* The actions above the notice while they wait. */
static int modal_rows(struct tui *u, const struct controller_status *st, int width)
{
	return st->awaiting_confirmation ? modal_rows_wanted(u, width) : 0;
}

const struct layer confirm_layer = {
	.name = "confirm",
	.global_keys = true,
	.key = confirm_key,
	.other = confirm_other,
	.rows = modal_rows,
	.paint_rows = modal_paint,
	.close = modal_close,
};

static enum layer_key reason_key(struct tui *u, const struct key_event *ev)
{
	return keymap_dispatch(reason_bindings, reason_bindings_count, u, &u->reason, ev)
		       ? LAYER_KEY_TAKEN : LAYER_KEY_NONE;
}

static enum layer_key reason_other(struct tui *u, const struct key_event *ev)
{
	keymap_edit(u, &u->reason, ev, true);
	return LAYER_KEY_TAKEN;
}

static struct editor *reason_editor(struct tui *u)
{
	return &u->reason;
}

static const char *reason_prefix(struct tui *u, char *buf, size_t size)
{
	(void)u, (void)buf, (void)size;
	return "reason: ";
}

const struct layer reason_layer = {
	.name = "reason",
	.global_keys = true,
	.key = reason_key,
	.other = reason_other,
	.editor = reason_editor,
	.prefix = reason_prefix,
	.rows = modal_rows,
	.paint_rows = modal_paint,
	.close = modal_close,
};
