/* tether model ID [PROFILE]: the LLM profiles (the default and the conversation's marked), or
 * a switch to one; tether goal ID OBJECTIVE|stop|resume; tether policy ID always|never|risky
 * [LEVEL] or analyzer KIND. Their words were checked with the options. */
#include "manage.h"
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static void goal_answer(struct manage_run *r, const struct rest_result *res,
			struct manage_answer *a)
{
	(void)res;
	const struct options *o = r->run.o;
	const char *w = o->words[0];
	bool stop = !strcmp(w, "stop"), resume = !strcmp(w, "resume");
	manage_answer_begin(r, a, "goal");
	manage_answer_field(a, "id", o->conversation_id, stop ? "goal stopped: %s (a run under "
			    "way goes on to its end)" : resume ? "goal resumed: %s" : "goal set: %s: ");
	manage_answer_field(a, "action", stop ? "stop" : resume ? "resume" : "start", NULL);
	manage_answer_field(a, "objective", stop || resume ? NULL : w, "%s");
}

static void policy_answer(struct manage_run *r, const struct rest_result *res,
			  struct manage_answer *a)
{
	static const char *const levels[] = { "HIGH", "MEDIUM", "LOW" };
	(void)res;
	const struct options *o = r->run.o;
	manage_answer_begin(r, a, "policy");
	manage_answer_field(a, "id", o->conversation_id, "policy: %s ");
	if (!strcmp(o->words[0], "analyzer")) {
		manage_answer_field(a, "analyzer", o->words[1],
				    "now rates actions with the %s analyzer");
		return;
	}
	bool risky = !strcasecmp(o->words[0], "risky");
	const char *level = risky ? levels[r->args.threshold] : NULL;
	const char *policy = r->args.policy == CONFIRMATION_POLICY_ALWAYS ? "always"
			     : r->args.policy == CONFIRMATION_POLICY_NEVER ? "never" : "risky";
	manage_answer_field(a, "policy", policy,
			    !strcmp(policy, "always") ? "now asks before every action"
			    : !strcmp(policy, "never") ? "now never asks" : "now asks at ");
	manage_answer_field(a, "level", level, "%s risk and above (and unknown risk)");
}

static void model_answer(struct manage_run *r, const struct rest_result *res,
			 struct manage_answer *a)
{
	const struct options *o = r->run.o;
	(void)res;
	manage_answer_begin(r, a, "model");
	manage_answer_field(a, "id", o->conversation_id, "model: %s now uses the LLM profile ");
	manage_answer_field(a, "profile", o->words[0], "%s");
}

/* model ID: the LLM profiles, the server's default and the conversation's model. */
static void llm_profiles_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (!manage_ok(r, res))
		return;
	const struct profile_list *p = &res->profiles;
	bool json = r->run.o->format == FORMAT_JSON;
	if (json)
		putchar('[');
	for (size_t i = 0; i < p->count; i++) {
		const struct llm_profile *l = &p->llms[i];
		struct manage_answer a;
		manage_answer_begin(r, &a, "profile");
		manage_answer_field(&a, "name", l->name, "%s");
		manage_answer_field(&a, "model", l->model, "\t%s");
		bool def = p->active && !strcmp(p->active, l->name);
		bool current = r->model && l->model && !strcmp(r->model, l->model);
		buf_printf(&a.json, ",\"default\":%s,\"current\":%s", def ? "true" : "false",
			   current ? "true" : "false");
		if (def)
			manage_answer_text(&a, "\t(the server's default)");
		if (current)
			manage_answer_text(&a, "\t(this conversation's model)");
		if (json && i)
			putchar(',');
		if (json) {
			buf_putc(&a.json, '}');
			fputs(buf_cstr(&a.json), stdout);
			manage_answer_fini(&a);
		} else {
			manage_answer_put(&a);
		}
	}
	if (json)
		puts("]");
	manage_finish(r, command_flush_stdout());
}

static void model_conversation_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (!manage_ok(r, res))
		return;
	if (res->conversations.count == 1)
		r->model = xstrdup(res->conversations.items[0].model);
	r->args = (struct rest_args){ 0 };
	manage_start(r, REST_LIST_LLM_PROFILES, llm_profiles_done);
}

static void model(struct manage_run *r)
{
	const struct options *o = r->run.o;
	if (o->nwords) {
		r->args.profile = o->words[0];
		r->answer = model_answer;
		manage_start(r, REST_SWITCH_PROFILE, manage_done);
	} else if (!rest_call_available(REST_LIST_LLM_PROFILES, NULL, &r->version)) {
		manage_lacks(r, REST_LIST_LLM_PROFILES);
	} else {
		manage_start(r, REST_GET_CONVERSATION, model_conversation_done);
	}
}

static void goal_send(struct manage_run *r)
{
	const char *w = r->run.o->words[0];
	if (!strcmp(w, "resume")) {
		manage_start(r, REST_GOAL_RESUME, manage_done);
	} else {
		r->args.text = w;
		manage_start(r, REST_GOAL_START, manage_done);
	}
}

/* A goal loop judges a run that stopped to wait for confirmation and runs the conversation
 * again, which runs the waiting actions (upstream-25-26 2.12): under a policy that asks, a
 * goal set or resumed is asked about first, as /goal does, or refused without a terminal. */
static void goal_policy_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (!manage_ok(r, res))
		return;
	const struct conversation_info *c = res->conversations.count == 1 ? res->conversations.items
									   : NULL;
	if (c && c->has_policy && c->policy != CONFIRMATION_POLICY_NEVER) {
		bool resume = !strcmp(r->run.o->words[0], "resume");
		char line[256];
		if (!isatty(STDIN_FILENO)) {
			snprintf(line, sizeof line, "refusing to %s without --yes when stdin is not a "
				 "terminal: under this conversation's confirmation policy the goal "
				 "loop runs the actions it would ask about",
				 resume ? "resume the goal" : "set a goal");
			manage_say(r, line);
			manage_finish(r, EXIT_USAGE);
			return;
		}
		r->title = xstrdup(c->title && *c->title ? c->title : NULL);
		snprintf(line, sizeof line, "The goal loop runs the actions your policy would ask "
			 "about without asking. %s the goal on ", resume ? "Resume" : "Set");
		if (!manage_confirmed(r, line)) {
			manage_say(r, resume ? "the goal was not resumed" : "no goal was set");
			manage_finish(r, EXIT_RUNTIME);
			return;
		}
	}
	goal_send(r);
}

static void goal(struct manage_run *r)
{
	r->answer = goal_answer;
	if (!strcmp(r->run.o->words[0], "stop"))
		manage_start(r, REST_GOAL_STOP, manage_done);
	else if (r->run.o->yes)
		goal_send(r);
	else
		manage_start(r, REST_GET_CONVERSATION, goal_policy_done);
}

static void policy(struct manage_run *r)
{
	const char *const *w = r->run.o->words;
	r->answer = policy_answer;
	if (!strcmp(w[0], "analyzer")) {
		r->args.analyzer = !strcasecmp(w[1], "llm") ? SECURITY_ANALYZER_LLM
				   : !strcasecmp(w[1], "pattern") ? SECURITY_ANALYZER_PATTERN
				   : SECURITY_ANALYZER_NONE;
		manage_start(r, REST_SET_SECURITY_ANALYZER, manage_done);
		return;
	}
	r->args.policy = !strcasecmp(w[0], "always") ? CONFIRMATION_POLICY_ALWAYS
			 : !strcasecmp(w[0], "never") ? CONFIRMATION_POLICY_NEVER
			 : CONFIRMATION_POLICY_RISKY;
	if (r->run.o->nwords > 1)
		r->args.threshold = !strcasecmp(w[1], "low") ? RISK_THRESHOLD_LOW
				    : !strcasecmp(w[1], "medium") ? RISK_THRESHOLD_MEDIUM
				    : RISK_THRESHOLD_HIGH;
	manage_start(r, REST_SET_CONFIRMATION_POLICY, manage_done);
}

void manage_settings(struct manage_run *r)
{
	if (r->run.o->command == CMD_MODEL)
		model(r);
	else if (r->run.o->command == CMD_GOAL)
		goal(r);
	else
		policy(r);
}
