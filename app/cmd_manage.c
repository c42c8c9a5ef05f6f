/* tether new|fork|rename|rm|ask|compact|model|goal|policy|server-info: the server's version
 * first (/server_info), then the command group's calls (manage_*.c), said in text or as one
 * JSON object. */
#include "manage.h"
#include "app.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const words[] = {
	[CMD_NEW] = "new", [CMD_FORK] = "fork", [CMD_RENAME] = "rename", [CMD_RM] = "rm",
	[CMD_ASK] = "ask", [CMD_COMPACT] = "compact", [CMD_MODEL] = "model",
	[CMD_GOAL] = "goal", [CMD_POLICY] = "policy", [CMD_SERVER_INFO] = "server-info",
};

/* tether server-info: the server and its version. */
static void server_info(struct manage_run *r)
{
	struct manage_answer a;
	struct buf url;
	buf_init(&url);
	url_describe(r->run.o->server, &url);
	manage_answer_begin(r, &a, "server");
	manage_answer_field(&a, "url", buf_cstr(&url), "%s: ");
	manage_answer_field(&a, "version", r->version.text, "version %s");
	buf_printf(&a.json, ",\"known\":%s", r->version.known ? "true" : "false");
	buf_fini(&url);
	manage_reply(r, &a);
}

/* The version, then the command's own calls. */
static void version_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	const struct options *o = r->run.o;
	if (res->outcome == REST_NO_ANSWER || res->outcome == REST_AUTH) {
		manage_fail(r, res);
		return;
	}
	/* another answer: a server without /server_info is of unknown version */
	if (res->outcome == REST_OK)
		r->version = res->version;
	if (o->log_path && r->log) {
		char line[96];
		snprintf(line, sizeof line, "server version: %s",
			 r->version.text[0] ? r->version.text : "unknown (no /server_info answer)");
		r->log(0, line);
	}
	if (o->command == CMD_SERVER_INFO) {
		if (res->outcome != REST_OK)
			manage_fail(r, res);
		else
			server_info(r);
		return;
	}
	r->args = (struct rest_args){ .id = o->conversation_id };
	switch (o->command) {
	case CMD_NEW:
	case CMD_FORK:
		manage_create(r);
		break;
	case CMD_RENAME:
	case CMD_RM:
		manage_edit(r);
		break;
	case CMD_ASK:
	case CMD_COMPACT:
		manage_ask(r);
		break;
	default: /* CMD_MODEL, CMD_GOAL, CMD_POLICY */
		manage_settings(r);
		break;
	}
}

int cmd_manage_run(const struct options *o, loop_log_fn log, const char *api_key,
		   const struct mask_set *masks, char **new_id)
{
	int exit_code;
	struct loop *loop = command_loop(o, log, masks, &exit_code);
	if (!loop)
		return exit_code;
	struct manage_run r = { .new_id = new_id, .log = log, .call = REST_SERVER_INFO };
	command_run_init(&r.run, loop, o, api_key, masks, words[o->command]);
	if (rest_call(&r.run.srv, REST_SERVER_INFO, NULL, version_done, &r) != 0) {
		manage_say(&r, "cannot start the request for the server's version");
		r.run.done = true;
	}
	if (!r.run.done)
		loop_run(loop);
	loop_destroy(loop);
	free(r.made_id);
	free(r.title);
	free(r.model);
	free(r.profile_id);
	return r.run.exit_code;
}
