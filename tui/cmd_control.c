/* tether confirm|reject|pause|resume|interrupt ID: one REST answer or control, then exit. */
#include "commands.h"
#include "app.h"
#include "clean.h"
#include "diagnose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct control_run {
	struct loop *loop;
	const struct options *o;
	struct rest_server srv;
	const struct mask_set *masks;
	const char *name;               /* the command word, for messages */
	int exit_code;
	bool done;
};

static const char *const names[] = {
	[CMD_CONFIRM] = "confirm", [CMD_REJECT] = "reject", [CMD_PAUSE] = "pause",
	[CMD_RESUME] = "resume", [CMD_INTERRUPT] = "interrupt",
};

static void finish(struct control_run *r, int code)
{
	r->exit_code = code;
	r->done = true;
	loop_quit(r->loop);
}

/* One line naming the command, the server and the conversation, and the cause in words:
 * diagnose.c words it as everywhere else; another HTTP status adds the server's own words. */
static void fail(struct control_run *r, const struct rest_response *resp)
{
	struct buf url, line, cause, scratch;
	buf_init(&url);
	buf_init(&line);
	buf_init(&cause);
	buf_init(&scratch);
	url_describe(r->o->server, &url);
	struct diag_about about = {
		.server = buf_cstr(&url),
		.conversation_id = r->o->conversation_id,
		.has_key = r->srv.api_key != NULL,
	};
	int code = EXIT_RUNTIME;
	if (resp->status == 404) {
		diag_not_found(&line, &about);
		code = EXIT_NOT_FOUND;
	} else if (resp->status == 0 || resp->status == 401 || resp->status == 403) {
		if (resp->error)
			clean_text(r->masks, resp->error, strlen(resp->error), &scratch, &cause);
		diag_rest_failure(&line, &about, resp, buf_cstr(&cause));
		if (resp->status == 401 || resp->status == 403)
			code = EXIT_AUTH;
	} else {
		/* The server's words, on the same line: at most 200 bytes, line breaks as spaces. */
		buf_printf(&line, "the server at %s answered HTTP %d for conversation %s", about.server,
			   resp->status, about.conversation_id);
		struct buf body;
		buf_init(&body);
		buf_append(&body, resp->body ? resp->body : "",
			   resp->body && resp->body_len < 200 ? resp->body_len : resp->body ? 200 : 0);
		for (size_t k = 0; k < body.len; k++)
			if (body.data[k] == '\n' || body.data[k] == '\r' || body.data[k] == '\t')
				body.data[k] = ' ';
		while (body.len && body.data[body.len - 1] == ' ')
			body.data[--body.len] = '\0';
		if (body.len)
			buf_printf(&line, ": %s", buf_cstr(&body));
		buf_fini(&body);
	}
	clean_eprintf(r->masks, "%s: %s", r->name, buf_cstr(&line));
	buf_fini(&scratch);
	buf_fini(&cause);
	buf_fini(&line);
	buf_fini(&url);
	finish(r, code);
}

static void control_done(void *ctx, const struct rest_response *resp)
{
	struct control_run *r = ctx;
	bool ok = resp->status >= 200 && resp->status < 300;
	/* 409: a run is already under way, which is what resume asks for. */
	if (r->o->command == CMD_RESUME && resp->status == 409)
		ok = true;
	if (ok)
		finish(r, EXIT_OK);
	else
		fail(r, resp);
}

static void start(struct control_run *r, int rc)
{
	if (rc != 0) {
		struct buf url;
		buf_init(&url);
		url_describe(r->o->server, &url);
		clean_eprintf(r->masks, "%s: cannot start the request to %s about conversation %s",
			      r->name, buf_cstr(&url), r->o->conversation_id);
		buf_fini(&url);
		finish(r, EXIT_RUNTIME);
	}
}

/* confirm and reject answer only what is pending: the conversation's status says whether
 * anything is. */
static void status_done(void *ctx, const struct rest_response *resp)
{
	struct control_run *r = ctx;
	if (resp->status != 200) {
		fail(r, resp);
		return;
	}
	struct conversation_info *items = NULL;
	size_t n = 0;
	char *next = NULL;
	struct codec_error err;
	int bad = conversation_list_decode(resp->body, resp->body_len, &items, &n, &next, &err);
	if (bad || n != 1) {
		struct buf url;
		buf_init(&url);
		url_describe(r->o->server, &url);
		clean_eprintf(r->masks, "%s: unexpected answer from %s about conversation %s: %s",
			      r->name, buf_cstr(&url), r->o->conversation_id,
			      bad ? err.message : "not one conversation");
		buf_fini(&url);
		conversation_infos_free(items, n);
		free(next);
		finish(r, EXIT_RUNTIME);
		return;
	}
	bool waiting = items[0].run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION;
	conversation_infos_free(items, n);
	free(next);
	if (!waiting) {
		clean_eprintf(r->masks, "nothing is waiting for confirmation in %s",
			      r->o->conversation_id);
		finish(r, EXIT_RUNTIME);
		return;
	}
	bool accept = r->o->command == CMD_CONFIRM;
	start(r, rest_respond_to_confirmation(&r->srv, r->o->conversation_id, accept,
					      accept ? NULL : r->o->reason, control_done, r));
}

int cmd_control_run(const struct options *o, loop_log_fn log, const char *api_key,
		    const struct mask_set *masks)
{
	int exit_code;
	struct loop *loop = command_loop(o, log, masks, &exit_code);
	if (!loop)
		return exit_code;
	struct control_run r = {
		.loop = loop, .o = o, .masks = masks, .name = names[o->command],
		.exit_code = EXIT_RUNTIME,
		.srv = {.loop = loop, .url = o->server, .api_key = api_key, .insecure = o->insecure},
	};
	const char *id = o->conversation_id;
	switch (o->command) {
	case CMD_CONFIRM:
	case CMD_REJECT:
		start(&r, rest_get_conversation(&r.srv, id, status_done, &r));
		break;
	case CMD_PAUSE:
		start(&r, rest_pause(&r.srv, id, control_done, &r));
		break;
	case CMD_RESUME:
		start(&r, rest_run(&r.srv, id, control_done, &r));
		break;
	default:
		start(&r, rest_interrupt(&r.srv, id, control_done, &r));
		break;
	}
	if (!r.done)
		loop_run(loop);
	loop_destroy(loop);
	return r.exit_code;
}
