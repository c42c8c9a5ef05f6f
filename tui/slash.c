/* slash: the slash commands of the input line (/copy in slash_copy.c). */
#include "conv.h"
#include "modal.h"
#include "board_view.h"
#include "overlay.h"
#include "bindings.h"
#include "clipboard.h"
#include "reltime.h"
#include "terminal.h"
#include "diagnose.h"
#include "external_editor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void slash_reconnect(struct tui *u)
{
	/* The status line says "connecting" at once: a notice would outlive it. */
	if (controller_reconnect_now(u->cur->ctl))
		return;
	struct controller_status st;
	controller_status(u->cur->ctl, &st);
	if (st.connection == SESSION_SYNCED)
		ui_notice(&u->ui, "already connected: nothing to reconnect");
	else
		ui_notice(&u->ui, "already connecting…");
}

/* What the status says, in words ("idle", "paused"…). */
static void status_words(struct tui *u, struct buf *out)
{
	struct controller_status st;
	controller_status(u->cur->ctl, &st);
	if (st.execution_status)
		diag_status_words(out, st.execution_status);
	else
		buf_puts(out, "in a state not known yet");
}

static enum run_status run_status(struct tui *u)
{
	struct controller_status st;
	controller_status(u->cur->ctl, &st);
	return st.run_status;
}

static void cmd_pause(struct tui *u, const char *arg)
{
	(void)arg;
	if (run_status(u) == RUN_STATUS_PAUSED)
		ui_notice(&u->ui, "the agent is already paused: /resume goes on");
	else if (controller_pause(u->cur->ctl))
		ui_notice_until_status(&u->ui, "pausing the agent…");
	else
		ui_notice(&u->ui, "already pausing…");
}

static void cmd_resume(struct tui *u, const char *arg)
{
	(void)arg;
	if (run_status(u) != RUN_STATUS_PAUSED) {
		struct buf words;
		buf_init(&words);
		status_words(u, &words);
		ui_notice(&u->ui, "nothing to resume: the agent is %s, not paused", buf_cstr(&words));
		buf_fini(&words);
	} else if (controller_resume(u->cur->ctl)) {
		ui_notice_until_status(&u->ui, "resuming the agent…");
	} else {
		ui_notice(&u->ui, "already resuming…");
	}
}

void slash_cmd_interrupt(struct tui *u, const char *arg)
{
	(void)arg;
	if (!ui_running(&u->ui)) {
		struct buf words;
		buf_init(&words);
		status_words(u, &words);
		ui_notice(&u->ui, "nothing to interrupt: the agent is %s", buf_cstr(&words));
		buf_fini(&words);
	} else if (controller_interrupt(u->cur->ctl)) {
		ui_notice_until_status(&u->ui, "interrupting the agent…");
	} else {
		ui_notice(&u->ui, "already interrupting…");
	}
}

static bool awaiting(struct tui *u)
{
	struct controller_status st;
	controller_status(u->cur->ctl, &st);
	if (!st.awaiting_confirmation)
		ui_notice(&u->ui, "nothing is waiting for confirmation");
	return st.awaiting_confirmation;
}

/* Typed on purpose, so the modal opens with the keyboard: y allows at once. */
void slash_cmd_confirm(struct tui *u, const char *arg)
{
	(void)arg;
	if (awaiting(u))
		modal_open(u, true);
}

static void cmd_reject(struct tui *u, const char *arg)
{
	if (!awaiting(u))
		return;
	if (!controller_confirm(u->cur->ctl, false, *arg ? arg : NULL)) {
		ui_notice(&u->ui, "an answer is already on its way to the server");
		return;
	}
	modal_close(u);
	ui_notice_until_status(&u->ui, "rejected; waiting for the agent");
}


/* An item's time as a header shows it: HH:MM today, the date too before today. */
static bool clock_label(const char *iso, char *out, size_t size)
{
	time_t t, now = time(NULL);
	struct tm at, today;
	if (reltime_parse(iso, &t) != 0 || !localtime_r(&t, &at) || !localtime_r(&now, &today))
		return false;
	bool same_day = at.tm_year == today.tm_year && at.tm_yday == today.tm_yday;
	return strftime(out, size, same_day ? "%H:%M" : "%Y-%m-%d %H:%M", &at) > 0;
}

void slash_timestamps(struct tui *u, bool on)
{
	render_set_clock(on ? clock_label : NULL);
	if (u->ui.frame_timer) /* not before the loop runs */
		ui_schedule_frame(&u->ui);
}

static void cmd_time(struct tui *u, const char *arg)
{
	bool on = !render_clock_shown();
	if (!strcmp(arg, "on"))
		on = true;
	else if (!strcmp(arg, "off"))
		on = false;
	else if (*arg) {
		ui_notice(&u->ui, "/time takes on or off (nothing: toggle)");
		return;
	}
	slash_timestamps(u, on);
	ui_notice(&u->ui, on ? "times shown (local; messages from this client have none)"
			 : "times hidden");
}

void slash_cmd_board(struct tui *u, const char *arg)
{
	(void)arg;
	board_view_open(u);
}

/* The usage per model, as a notice block over the prompt. */
static void cmd_usage(struct tui *u, const char *arg)
{
	(void)arg;
	const struct usage_stats *us = controller_usage(u->cur->ctl);
	if (!us) {
		ui_notice(&u->ui, "no usage known yet: the server reports it after the agent's "
			  "first LLM call");
		return;
	}
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "usage: ");
	usage_put_report(&b, us);
	while (b.len && b.data[b.len - 1] == '\n')
		b.data[--b.len] = '\0';
	ui_notice(&u->ui, "%s", buf_cstr(&b));
	buf_fini(&b);
}

static void cmd_open(struct tui *u, const char *arg)
{
	char id[128];
	size_t n = strcspn(arg, " \t\n");
	if (!n || n >= sizeof id) {
		ui_notice(&u->ui, "/open takes a conversation id (Ctrl-G: the board lists them)");
		return;
	}
	memcpy(id, arg, n);
	id[n] = '\0';
	if (!conversation_id_valid(id)) {
		ui_notice(&u->ui, "not a conversation id: %s", id);
		return;
	}
	struct conv *v = conv_open(u, id, false);
	if (v)
		tui_switch(u, v);
}

static void cmd_close(struct tui *u, const char *arg)
{
	(void)arg;
	tui_close_current(u);
}

static void cmd_quit(struct tui *u, const char *arg)
{
	(void)arg;
	ui_quit(&u->ui, 0);
}

/* The rest of the line, if any, is the draft the editor starts with. */
void slash_cmd_edit(struct tui *u, const char *arg)
{
	editor_set(&u->input, arg, strlen(arg));
	external_editor_open(u);
}

static void cmd_clear(struct tui *u, const char *arg)
{
	(void)arg;
	editor_clear(&u->input);
	ui_notice(&u->ui, "input emptied (Ctrl-U twice does it too, and Ctrl-Y then undoes it)");
}

void slash_cmd_reconnect(struct tui *u, const char *arg)
{
	(void)arg;
	slash_reconnect(u);
}

void slash_cmd_help(struct tui *u, const char *arg)
{
	(void)arg;
	overlay_open(u, overlay_text);
}

const struct binding slash_bindings[] = {
	COMMAND("pause", "", cmd_pause, "pause the agent"),
	COMMAND("resume", "", cmd_resume, "let a paused agent go on"),
	COMMAND("reject", "[reason]", cmd_reject, "reject the actions waiting for confirmation"),
	COMMAND("copy", "[N|code|action]", slash_cmd_copy,
		"copy the focused item, else the last agent message (N: the last N items up to "
		"the focused one; code: the last code block; action: the waiting action, whole)"),
	COMMAND("time", "[on|off]", cmd_time, "show or hide each item's time (config: timestamps)"),
	COMMAND("usage", "", cmd_usage, "tokens, cost and context in use, per model"),
	COMMAND("clear", "", cmd_clear, "empty the input (as Ctrl-U twice does)"),
	COMMAND("open", "ID", cmd_open,
		"open another conversation of this server beside this one and show it"),
	COMMAND("close", "", cmd_close, "close this conversation (the others stay open)"),
	COMMAND("rewind", "", slash_cmd_rewind,
		"go back to before one of your messages (Up/Down pick, Enter) and edit it in the "
		"input (Esc Esc on an empty prompt)"),
	COMMAND("fork", "", slash_cmd_fork,
		"a new conversation: all of this one, or up to before the focused item"),
	COMMAND("quit", "", cmd_quit, "leave tether"),
};
const size_t slash_bindings_count = sizeof slash_bindings / sizeof *slash_bindings;

bool slash_run(struct tui *u, const char *line)
{
	if (line[0] != '/' || !ascii_is_letter((unsigned char)line[1]))
		return false;
	const char *name = line + 1;
	size_t n = strcspn(name, " \t\n");
	const char *arg = name + n;
	while (*arg == ' ' || *arg == '\t' || *arg == '\n')
		arg++;
	const struct binding *b = bindings_command(name, n);
	if (b) {
		b->run(u, arg);
		return true;
	}
	ui_notice(&u->ui, "unknown command /%.*s: /help lists them; //%.*s sends it as a message",
		   (int)(n > 40 ? 40 : n), name, (int)(n > 40 ? 40 : n), name);
	return true;
}

/* Adds name to the candidates for typed (n bytes): listed, and their common start kept. */
static void candidate(const char *name, const char *typed, size_t n, const char **first,
		      size_t *common, size_t *found, struct buf *list)
{
	if (!name || strncmp(name, typed, n) != 0)
		return;
	if (!*first) {
		*first = name;
		*common = strlen(name);
	} else {
		size_t k = 0;
		while (k < *common && (*first)[k] == name[k])
			k++;
		*common = k;
	}
	buf_printf(list, "%s/%s", (*found)++ ? " " : "", name);
}

bool slash_complete(struct tui *u)
{
	const char *draft = editor_text(&u->input);
	if (draft[0] != '/' || draft[1] == '/' || draft[strcspn(draft, " \t\n")])
		return false;
	const char *typed = draft + 1;
	size_t n = strlen(typed), found = 0, common = 0;
	const char *first = NULL;
	struct buf list;
	buf_init(&list);
	struct bindings_context c[BINDINGS_CONTEXTS_MAX];
	size_t nc = bindings_contexts(c, BINDINGS_CONTEXTS_MAX);
	for (size_t i = 0; i < nc; i++)
		for (size_t t = 0; t < c[i].ntables; t++)
			for (size_t r = 0; r < c[i].count[t]; r++)
				candidate(c[i].rows[t][r].command, typed, n, &first, &common, &found,
					  &list);
	if (!found) {
		ui_notice(&u->ui, "no command starts with /%.*s: /help lists them", (int)(n > 40 ? 40 : n),
			   typed);
	} else if (found == 1) {
		struct buf line;
		buf_init(&line);
		buf_printf(&line, "/%s ", first);
		editor_set(&u->input, line.data, line.len);
		buf_fini(&line);
	} else {
		if (common > n) {
			struct buf line;
			buf_init(&line);
			buf_printf(&line, "/%.*s", (int)common, first);
			editor_set(&u->input, line.data, line.len);
			buf_fini(&line);
		}
		ui_notice(&u->ui, "%s", buf_cstr(&list));
	}
	buf_fini(&list);
	return true;
}
