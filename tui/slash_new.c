/* slash_new: /new [--title "TITLE"] [MESSAGE] — a conversation started on the server with
 * one of its agent profiles (a choice on the input line when it has several) and opened
 * beside the others; upstream's start takes no title, so a title given is a rename of the
 * new conversation (as `tether new --title` does), else the server titles it itself. */
#include "bindings.h"
#include "board_view.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NEW_PROFILES_MAX = 9 };

/* /new under way: the agent profiles the server listed, then the conversation started. u is
 * NULL once the TUI is gone (the answer goes into nothing). */
struct new_conv {
	struct tui *u;
	char *message;                          /* the first message, NULL: none */
	char *title;                            /* --title's, NULL: the server's own */
	char *ids[NEW_PROFILES_MAX], *names[NEW_PROFILES_MAX];
	size_t n, active;                       /* active: the server's (n: none) */
};

static void new_free(struct new_conv *nc)
{
	for (size_t i = 0; i < nc->n; i++) {
		free(nc->ids[i]);
		free(nc->names[i]);
	}
	free(nc->message);
	free(nc->title);
	free(nc);
}

/* The end of /new: said (words clean, or NULL) and forgotten. */
static void new_end(struct new_conv *nc, const char *words)
{
	struct tui *u = nc->u;
	if (u) {
		u->new_conv = NULL;
		if (words)
			ui_notice(&u->ui, "%s", words);
	}
	new_free(nc);
}

/* Why a call of /new failed, in words (never an HTTP status). */
static void new_failure(struct tui *u, const char *what, const struct rest_result *r,
			struct buf *out)
{
	buf_printf(out, "could not %s: ", what);
	switch (r->outcome) {
	case REST_AUTH:
		buf_puts(out, "the server refused the session API key");
		return;
	case REST_UNSUPPORTED:
		buf_puts(out, "this server has no agent profiles (they came with version 1.29)");
		return;
	case REST_NO_ANSWER:
		buf_puts(out, r->raw->error ? r->raw->error : "no answer from the server");
		return;
	case REST_BAD_BODY:
		buf_puts(out, "the server's answer could not be read");
		return;
	default:
		break;
	}
	buf_puts(out, r->outcome == REST_INVALID ? "the server refused the request"
		 : r->raw->status >= 500 ? "the server failed" : "the server refused it");
	if (r->detail && *r->detail) {
		size_t n = strlen(r->detail);
		buf_puts(out, ": the server says “");
		controller_clean(u->cur->ctl, r->detail, n > 200 ? 200 : n, out);
		buf_puts(out, "”");
	}
}

static void started(void *ctx, struct rest_result *r)
{
	struct new_conv *nc = ctx;
	struct tui *u = nc->u;
	if (!u) {
		new_free(nc);
		return;
	}
	struct buf words;
	buf_init(&words);
	if (r->outcome == REST_OK && r->conversations.count == 1 && r->conversations.items[0].id &&
	    conversation_id_valid(r->conversations.items[0].id)) {
		struct conv *v = conv_open(u, r->conversations.items[0].id, false);
		if (v) {
			tui_switch(u, v);
			buf_printf(&words, "a new conversation, %s", conv_name(v));
			if (nc->title && controller_op(v->ctl, CONTROLLER_OP_RENAME,
						       &(struct controller_op_args){ .text = nc->title },
						       server_cmd_said, v))
				buf_puts(&words, "; naming it…");
		}
		new_end(nc, words.len ? buf_cstr(&words) : NULL);
	} else {
		if (r->outcome == REST_OK)
			buf_puts(&words, "could not start a conversation: the server's answer has no "
					 "conversation id");
		else
			new_failure(u, "start a conversation", r, &words);
		new_end(nc, buf_cstr(&words));
	}
	buf_fini(&words);
}

/* Starts the conversation with profile k of those listed. */
static void new_start(struct new_conv *nc, size_t k)
{
	struct tui *u = nc->u;
	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, "/");
	struct rest_server srv = tui_rest_server(u);
	struct rest_args a = {
		.profile = nc->ids[k], .working_dir = cwd, .text = nc->message,
		.autotitle = !nc->title,
	};
	ui_notice(&u->ui, "starting a conversation with the agent profile “%s”…", nc->names[k]);
	if (rest_call(&srv, REST_START_CONVERSATION, &a, started, nc) != 0)
		new_end(nc, "could not start a conversation: the request could not be made");
}

static void profiles_listed(void *ctx, struct rest_result *r)
{
	struct new_conv *nc = ctx;
	struct tui *u = nc->u;
	if (!u) {
		new_free(nc);
		return;
	}
	if (r->outcome != REST_OK) {
		struct buf words;
		buf_init(&words);
		new_failure(u, "list the agent profiles", r, &words);
		new_end(nc, buf_cstr(&words));
		buf_fini(&words);
		return;
	}
	const struct profile_list *l = &r->profiles;
	nc->active = NEW_PROFILES_MAX;
	for (size_t i = 0; i < l->count && nc->n < NEW_PROFILES_MAX; i++) {
		if (!l->agents[i].id)
			continue; /* a legacy profile: not launchable by id */
		if (l->active && !strcmp(l->active, l->agents[i].id))
			nc->active = nc->n;
		nc->ids[nc->n] = xstrdup(l->agents[i].id);
		nc->names[nc->n] = server_cmd_cleaned(u->cur, l->agents[i].name);
		nc->n++;
	}
	if (!nc->n) {
		new_end(nc, "the server has no agent profile to start a conversation with");
	} else if (nc->n == 1) {
		new_start(nc, 0);
	} else {
		layers_push(&u->layers, &profile_layer);
		ui_schedule_frame(&u->ui);
	}
}

static void profile_close(struct tui *u)
{
	layers_pop(&u->layers, &profile_layer);
	if (u->new_conv)
		new_end(u->new_conv, "no new conversation");
	ui_schedule_frame(&u->ui);
}

static enum layer_key profile_key(struct tui *u, const struct key_event *ev)
{
	struct new_conv *nc = u->new_conv;
	size_t k = nc ? nc->n : 0;
	if (nc && ev->kind == KEYS_CHAR && !ev->mods && ev->cp >= '1' && ev->cp < '1' + nc->n)
		k = ev->cp - '1';
	else if (nc && ev->kind == KEYS_ENTER && nc->active < nc->n)
		k = nc->active;
	if (!nc || k >= nc->n) {
		profile_close(u);
		return LAYER_KEY_TAKEN;
	}
	layers_pop(&u->layers, &profile_layer);
	new_start(nc, k);
	return LAYER_KEY_TAKEN;
}

static const char *profile_prefix(struct tui *u, char *buf, size_t size)
{
	struct new_conv *nc = u->new_conv;
	size_t at = (size_t)snprintf(buf, size, "agent profile?");
	for (size_t i = 0; nc && i < nc->n && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, " %zu %s%s ·", i + 1, nc->names[i],
				       i == nc->active ? " (active)" : "");
	if (at < size)
		snprintf(buf + at, size - at, nc && nc->active < nc->n
					       ? " a digit picks, Enter the active, Esc none "
					       : " a digit picks, Esc none ");
	return buf;
}

const struct layer profile_layer = {
	.name = "profile",
	.key = profile_key,
	.editor = answer_editor,
	.prefix = profile_prefix,
	.close = profile_close,
};

/* --title's title (a word, or words in double quotes) into *title, and *arg past it and
 * the blanks after; -1 when --title has none. */
static int title_word(const char **arg, char **title)
{
	const char *s = *arg;
	*title = NULL;
	if (strncmp(s, "--title", 7) || (s[7] && !strchr(" \t", s[7])))
		return 0;
	s += 7;
	s += strspn(s, " \t");
	size_t n;
	if (*s == '"') {
		const char *end = strchr(++s, '"');
		if (!end)
			return -1;
		n = (size_t)(end - s);
		*arg = end + 1;
	} else {
		n = strcspn(s, " \t");
		*arg = s + n;
	}
	if (strspn(s, " \t") >= n)
		return -1;      /* no title, or blanks only */
	*title = xstrndup(s, n);
	*arg += strspn(*arg, " \t");
	return 0;
}

void slash_cmd_new(struct tui *u, const char *arg)
{
	char *title;
	if (u->new_conv) {
		ui_notice(&u->ui, "a new conversation is already being started");
		return;
	}
	if (title_word(&arg, &title) != 0) {
		ui_notice(&u->ui, "/new --title takes a title: a word, or words in double quotes");
		return;
	}
	struct new_conv *nc = xcalloc(1, sizeof *nc);
	nc->u = u;
	nc->message = *arg ? xstrdup(arg) : NULL;
	nc->title = title;
	struct rest_server srv = tui_rest_server(u);
	if (rest_call(&srv, REST_LIST_AGENT_PROFILES, NULL, profiles_listed, nc) != 0) {
		new_free(nc);
		ui_notice(&u->ui, "could not ask the server for its agent profiles");
		return;
	}
	u->new_conv = nc;
	ui_notice(&u->ui, "asking the server for its agent profiles…");
}

void slash_new_fini(struct tui *u)
{
	if (u->new_conv)
		u->new_conv->u = NULL;
	u->new_conv = NULL;
}
