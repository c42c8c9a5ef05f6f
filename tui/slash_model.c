/* /model without a profile: the server's LLM profiles on the input line, one switched to by
 * its digit (as /new picks an agent profile), Esc or any other key keeping the model. */
#include "bindings.h"

#include <curses.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MODEL_CHOICES_MAX = 9 };

/* The profiles listed for conversation v: names as the server gave them (sent back to
 * switch) and as shown (clean), with their models. */
struct model_choice {
	struct conv *v;
	char *names[MODEL_CHOICES_MAX];
	char *shown[MODEL_CHOICES_MAX], *models[MODEL_CHOICES_MAX]; /* clean; a model may be "" */
	size_t n, more;                 /* more: listed beyond the digits */
	size_t server_default;          /* MODEL_CHOICES_MAX: none named */
};

void slash_model_fini(struct tui *u)
{
	struct model_choice *m = u->model_choice;
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->names[i]);
		free(m->shown[i]);
		free(m->models[i]);
	}
	free(m);
	u->model_choice = NULL;
}

static void models_listed(void *ctx, const struct controller_op_result *r)
{
	struct conv *v = ctx;
	struct tui *u = v->u;
	const struct profile_list *l = r->profiles;
	if (!l || !l->count || v != u->cur || u->layers.n) {
		server_cmd_said(ctx, r); /* a failure, none, or the user moved on: said as a notice */
		return;
	}
	slash_model_fini(u);
	struct model_choice *m = xcalloc(1, sizeof *m);
	m->v = v;
	m->server_default = MODEL_CHOICES_MAX;
	for (size_t i = 0; i < l->count; i++) {
		const struct llm_profile *p = &l->llms[i];
		if (m->n == MODEL_CHOICES_MAX) {
			m->more++;
			continue;
		}
		if (l->active && !strcmp(l->active, p->name))
			m->server_default = m->n;
		m->names[m->n] = xstrdup(p->name);
		m->shown[m->n] = server_cmd_cleaned(v, p->name);
		m->models[m->n] = server_cmd_cleaned(v, p->model);
		m->n++;
	}
	u->model_choice = m;
	layers_push(&u->layers, &model_layer);
	ui_schedule_frame(&u->ui);
}

void slash_model_switch(struct conv *v, const char *name)
{
	struct controller_op_args a = { .text = name };
	server_cmd_start(v, CONTROLLER_OP_MODEL, &a, server_cmd_said, "switching the model…",
			 "a model switch is already on its way");
}

void slash_model_list(struct tui *u)
{
	server_cmd_start(u->cur, CONTROLLER_OP_MODELS, NULL, models_listed,
			 "asking the server for its LLM profiles…", "already asking for the LLM profiles…");
}

static void model_close(struct tui *u)
{
	layers_pop(&u->layers, &model_layer);
	slash_model_fini(u);
	ui_schedule_frame(&u->ui);
}

static enum layer_key model_key(struct tui *u, const struct key_event *ev)
{
	struct model_choice *m = u->model_choice;
	size_t k = m && ev->kind == KEYS_CHAR && !ev->mods && ev->cp >= '1' && ev->cp < '1' + m->n
			   ? ev->cp - '1' : MODEL_CHOICES_MAX;
	if (k == MODEL_CHOICES_MAX) {
		model_close(u);
		ui_notice(&u->ui, "the model stays as it was");
		return LAYER_KEY_TAKEN;
	}
	slash_model_switch(m->v, m->names[k]);
	model_close(u);
	return LAYER_KEY_TAKEN;
}

/* The choice at a detail: 0 names and models, 1 names, 2 only the digits, briefly. */
static void compose_prefix(const struct model_choice *m, int detail, char *buf, size_t size)
{
	size_t at = (size_t)snprintf(buf, size, "model?");
	for (size_t i = 0; detail < 2 && i < m->n && at < size; i++) {
		bool model = !detail && *m->models[i];
		at += (size_t)snprintf(buf + at, size - at, " %zu %s%s%s%s%s ·", i + 1, m->shown[i],
				       model ? " (" : "", model ? m->models[i] : "", model ? ")" : "",
				       i == m->server_default ? " [default]" : "");
	}
	if (detail == 2) {
		snprintf(buf + at, size - at, " 1–%zu · Esc keeps it ", m->n);
		return;
	}
	if (m->more && at < size)
		at += (size_t)snprintf(buf + at, size - at, " %zu more: /model NAME ·", m->more);
	if (at < size)
		snprintf(buf + at, size - at, " a digit picks, Esc keeps it ");
}

/* As much of the list as the line holds: the input shows no prefix wider than the screen. */
static const char *model_prefix(struct tui *u, char *buf, size_t size)
{
	struct model_choice *m = u->model_choice;
	if (!m) {
		snprintf(buf, size, "model? ");
		return buf;
	}
	for (int detail = 0; detail < 2; detail++) {
		compose_prefix(m, detail, buf, size);
		if (text_width(buf, strlen(buf)) < COLS - 1)
			return buf;
	}
	compose_prefix(m, 2, buf, size);
	return buf;
}

const struct layer model_layer = {
	.name = "model",
	.key = model_key,
	.editor = answer_editor,
	.prefix = model_prefix,
	.close = model_close,
};
