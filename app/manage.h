/* Private to the conversation managers (tether new … server-info): the run they share, its
 * failures in words, and each command group's first call. */
#ifndef TETHER_MANAGE_H
#define TETHER_MANAGE_H

#include "command_run.h"
#include "manage_out.h"

/* One manager's run: the server's version first, then the command's calls. */
struct manage_run {
	struct command_run run;
	struct server_version version;
	enum rest_call call;            /* the managing call under way */
	struct rest_args args;
	char *made_id;                  /* new, fork: the conversation made */
	char *title;                    /* rm, goal: the conversation's title, for the question */
	char *model;                    /* model: the conversation's model */
	char *profile_id;               /* new: the agent profile launched */
	char **new_id;                  /* new: where the id goes for a run that follows */
	loop_log_fn log;                /* --log */
	/* what manage_done writes for the answer res of the call under way */
	void (*answer)(struct manage_run *r, const struct rest_result *res,
		       struct manage_answer *a);
};

/* manage_fail.c */
/* Says line on stderr after the command word. */
void manage_say(struct manage_run *r, const char *line);
/* Ends r with code. */
void manage_finish(struct manage_run *r, int code);
/* "this server (version X) has no …": ends r with exit 1. */
void manage_lacks(struct manage_run *r, enum rest_call call);
/* Any failure of res in words (the server's own where it gave some); ends r. */
void manage_fail(struct manage_run *r, const struct rest_result *res);
/* True when res is REST_OK; else fails r, after asking whether the conversation exists where
 * the failure may be a route the server lacks. */
bool manage_ok(struct manage_run *r, const struct rest_result *res);
/* Starts call with r->args (done gets r), or says why it cannot. */
void manage_start(struct manage_run *r, enum rest_call call, rest_result_fn done);
/* Starts answer a of type for r's command. */
void manage_answer_begin(struct manage_run *r, struct manage_answer *a, const char *type);
/* Writes a and ends r with the flush of stdout. */
void manage_reply(struct manage_run *r, struct manage_answer *a);
/* A call's done callback (ctx: r): on REST_OK, r->answer's answer written, else the failure. */
void manage_done(void *ctx, struct rest_result *res);

/* Each group's first call after the version, for r's command. */
/* manage_create.c: new, fork */
void manage_create(struct manage_run *r);
/* manage_edit.c: rename, rm */
void manage_edit(struct manage_run *r);
/* "QUESTION TITLE (ID)? [y/N]" on the terminal (r->title, cleaned and masked): true for yes. */
bool manage_confirmed(struct manage_run *r, const char *question);
/* manage_ask.c: ask, compact */
void manage_ask(struct manage_run *r);
/* manage_settings.c: model, goal, policy */
void manage_settings(struct manage_run *r);

#endif
