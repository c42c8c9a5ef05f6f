/* tether new: an agent profile, a conversation started with it (and titled); tether fork:
 * a copy of a conversation, whole or from an event. Each prints the new id. */
#include "manage.h"
#include "app.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say_conversation(struct manage_run *r, const char *type, const char *id,
			     const char *title)
{
	struct manage_answer a;
	manage_answer_begin(r, &a, type);
	manage_answer_field(&a, "id", id, "%s");
	if (r->run.o->command == CMD_FORK)
		manage_answer_field(&a, "forked_from", r->run.o->conversation_id, NULL);
	manage_answer_field(&a, "title", title, NULL);
	manage_reply(r, &a);
}

static void renamed_made(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (!manage_ok(r, res))
		return;
	char *id = r->made_id;
	if (r->new_id) {
		*r->new_id = r->made_id;
		r->made_id = NULL;
	}
	say_conversation(r, "created", id, r->run.o->title);
}

static void made(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome == REST_OK && res->conversations.count != 1)
		res->outcome = REST_BAD_BODY;
	if (!manage_ok(r, res))
		return;
	r->made_id = xstrdup(res->conversations.items[0].id);
	if (r->run.o->command == CMD_FORK) {
		say_conversation(r, "forked", r->made_id, res->conversations.items[0].title);
		return;
	}
	if (r->run.o->title) {
		/* upstream's start has no title: a PATCH names it */
		r->args = (struct rest_args){ .id = r->made_id, .title = r->run.o->title };
		manage_start(r, REST_RENAME, renamed_made);
		return;
	}
	renamed_made(r, &(struct rest_result){ .outcome = REST_OK });
}

/* Why no agent profile can be launched (pick: one without an id), and the exit code. */
static int no_profile(struct manage_run *r, const struct profile_list *p,
		      const struct agent_profile *pick)
{
	const char *want = r->run.o->profile;
	struct buf line, names;
	buf_init(&line);
	buf_init(&names);
	for (size_t i = 0; i < p->count; i++)
		buf_printf(&names, "%s%s", i ? ", " : "", p->agents[i].name);
	if (pick)
		buf_printf(&line, "the agent profile %s has no id and cannot be launched", pick->name);
	else if (want)
		buf_printf(&line, "the server has no agent profile %s (it has: %s)", want,
			   names.len ? buf_cstr(&names) : "none");
	else if (!p->count)
		buf_puts(&line, "the server has no agent profile to start a conversation with");
	else
		buf_printf(&line, "the server has several agent profiles and none is active: "
			   "choose one with --profile NAME (%s)", buf_cstr(&names));
	manage_say(r, buf_cstr(&line));
	buf_fini(&names);
	buf_fini(&line);
	return want && !pick ? EXIT_NOT_FOUND : EXIT_RUNTIME;
}

/* The agent profile to launch with: --profile by name or id, else the active one, else the
 * only one. */
static void agent_profiles_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	const struct options *o = r->run.o;
	if (!manage_ok(r, res))
		return;
	const struct profile_list *p = &res->profiles;
	const struct agent_profile *pick = NULL;
	const char *want = o->profile;
	for (size_t i = 0; i < p->count && !pick; i++) {
		const struct agent_profile *a = &p->agents[i];
		if (want ? (!strcmp(a->name, want) || (a->id && !strcmp(a->id, want)))
			 : (a->id && p->active && !strcmp(a->id, p->active)))
			pick = a;
	}
	if (!pick && !want && p->count == 1)
		pick = &p->agents[0];
	if (!pick || !pick->id) {
		manage_finish(r, no_profile(r, p, pick));
		return;
	}
	static char cwd[4096];
	const char *dir = o->workdir;
	if (!dir)
		dir = getcwd(cwd, sizeof cwd) ? cwd : "/";
	r->profile_id = xstrdup(pick->id);
	r->args = (struct rest_args){ .profile = r->profile_id, .working_dir = dir,
				      .text = o->nwords ? o->words[0] : NULL,
				      .autotitle = !o->title };
	manage_start(r, REST_START_CONVERSATION, made);
}

void manage_create(struct manage_run *r)
{
	const struct options *o = r->run.o;
	if (o->command == CMD_NEW) {
		r->args.id = NULL;
		manage_start(r, REST_LIST_AGENT_PROFILES, agent_profiles_done);
		return;
	}
	r->args.title = o->title;
	r->args.event_id = o->from_event;
	manage_start(r, REST_FORK, made);
}
