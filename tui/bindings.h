/* bindings: the actions — what each key and each slash command does, in tables that the
 * keys overlay, README and the man page are checked against (bindings.c, slash.c,
 * keys_help.c). */
#ifndef TETHER_BINDINGS_H
#define TETHER_BINDINGS_H

#include "conv.h"

/* Ctrl-C (the key or SIGINT): a second one within 2 s quits. */
void bindings_ctrl_c(struct tui *u);
/* Reconnects now when a reconnect is waiting (F5, /reconnect), else says why not. */
void slash_reconnect(struct tui *u);

/* Handles one key event. */
void bindings_handle(struct tui *u, const struct key_event *ev);

/* Runs line when it is a slash command (returns true); "//x" is the message "/x". */
bool slash_run(struct tui *u, const char *line);
/* Copies the last agent message (code: its last code block) to the clipboard or a file. */
void slash_copy(struct tui *u, bool code);
/* /copy ARG: the focused item (else the last agent message), N items, code or action. */
void slash_cmd_copy(struct tui *u, const char *arg);
/* Shows each item's time in its header (local HH:MM today, the date before) or not. */
void slash_timestamps(struct tui *u, bool on);

/* Fills out with up to max contexts, in the order the overlay lists them; returns how many. */
size_t bindings_contexts(struct bindings_context *out, size_t max);

/* The commands that share a row with a key in bindings.c's tables (slash.c). */
void slash_cmd_interrupt(struct tui *u, const char *arg);
void slash_cmd_confirm(struct tui *u, const char *arg);
void slash_cmd_reconnect(struct tui *u, const char *arg);
void slash_cmd_edit(struct tui *u, const char *arg);
void slash_cmd_board(struct tui *u, const char *arg);
void slash_cmd_help(struct tui *u, const char *arg);
/* /rewind: back to before the focused (else the newest) message of the user's, which comes
 * back into the input (slash_branch.c). */
void slash_cmd_rewind(struct tui *u, const char *arg);
/* /fork: a new conversation, the whole of this one or up to before the focused item. */
void slash_cmd_fork(struct tui *u, const char *arg);
/* The commands without a key (slash.c), a context of their own in the overlay. */
extern const struct binding slash_bindings[];
extern const size_t slash_bindings_count;
/* The commands that ask the server to act on the conversation (server_cmds.c). */
extern const struct binding server_cmd_bindings[];
extern const size_t server_cmd_bindings_count;
/* The server's answer to an operation on the conversation ctx: what it did, or why not, as
 * a notice (named when not the one on screen). */
void server_cmd_said(void *ctx, const struct controller_op_result *r);
/* Sends op for conversation v (ctx of done), the notice saying it is under way (asking) or
 * already was (busy). */
void server_cmd_start(struct conv *v, enum controller_op op, const struct controller_op_args *a,
		      controller_op_fn done, const char *asking, const char *busy);
/* A name from the server (NULL: none), sanitized and masked for the screen; never NULL. */
char *server_cmd_cleaned(struct conv *v, const char *s);
/* The empty editor of a question answered by one key (/delete's, /new's profile). */
struct editor *answer_editor(struct tui *u);
/* /delete: asks, naming the title, before the conversation on screen is deleted. */
void slash_cmd_delete(struct tui *u, const char *arg);
/* The question /delete asks (y deletes, any other key keeps it), and /goal under a policy
 * that confirms (y sets the goal). */
extern const struct layer question_layer;
/* /new [--title "TITLE"] [MESSAGE]: starts a conversation and opens it (slash_new.c). */
void slash_cmd_new(struct tui *u, const char *arg);
/* /new's calls in flight go on into nothing (the TUI is ending). */
void slash_new_fini(struct tui *u);
/* /new's choice of an agent profile when the server has several. */
extern const struct layer profile_layer;
/* The questions' and choices' state of the server commands, freed (the TUI is ending). */
void server_cmds_fini(struct tui *u);
/* /model without a profile: the server's LLM profiles, one picked by its digit (slash_model.c). */
void slash_model_list(struct tui *u);
/* /model PROFILE: conversation v runs on the LLM profile name from now on. */
void slash_model_switch(struct conv *v, const char *name);
/* Frees /model's choice (the TUI is ending). */
void slash_model_fini(struct tui *u);
/* /model's choice of an LLM profile. */
extern const struct layer model_layer;
/* The row of the command that line (without its "/") starts with, name n bytes long; NULL
 * when no row of any context has it. */
const struct binding *bindings_command(const char *name, size_t n);
/* Tab on a draft that is a command name being typed: completes it (or lists the candidates);
 * false when the draft is not one. */
bool slash_complete(struct tui *u);

/* The overlay's text at width columns: every context's keys and commands. */
void overlay_text(int width, struct buf *out);

#endif
