/* How a manager of conversations fails: in words, the server's own where it gave some; a
 * route the server lacks is said as "this server (version X) has no …", never as an HTTP
 * status. And the answer that ends a run that did not fail. */
#include "manage.h"
#include "app.h"
#include "clean.h"
#include "diagnose.h"

#include <stdio.h>
#include <string.h>

void manage_say(struct manage_run *r, const char *line)
{
	clean_eprintf(r->run.masks, "%s: %s", r->run.name, line);
}

void manage_finish(struct manage_run *r, int code)
{
	command_finish(&r->run, code);
}

void manage_lacks(struct manage_run *r, enum rest_call call)
{
	struct buf line;
	buf_init(&line);
	const char *v = r->version.text[0] ? r->version.text : "of unknown version";
	buf_printf(&line, "this server (%s%s) has no %s", r->version.text[0] ? "version " : "", v,
		   rest_call_name(call));
	if (call == REST_FORK && r->args.event_id && r->version.known)
		buf_puts(&line, " from an event (it would copy the whole conversation; 1.31 and "
				"later fork from an event)");
	manage_say(r, buf_cstr(&line));
	buf_fini(&line);
	manage_finish(r, EXIT_RUNTIME);
}

/* The words for res's failure into line; the exit code it means. */
static int failure_words(struct manage_run *r, const struct rest_result *res,
			 const struct diag_about *about, struct buf *line)
{
	const struct rest_response *resp = res->raw;
	const char *detail = res->detail ? res->detail : "";
	const char *what = rest_call_name(res->call);
	switch (res->outcome) {
	case REST_NO_ANSWER:
	case REST_AUTH: {
		struct buf cause, scratch;
		buf_init(&cause);
		buf_init(&scratch);
		if (resp->error)
			clean_text(r->run.masks, resp->error, strlen(resp->error), &scratch, &cause);
		diag_rest_failure(line, about, resp, buf_cstr(&cause));
		buf_fini(&scratch);
		buf_fini(&cause);
		return res->outcome == REST_AUTH ? EXIT_AUTH : EXIT_RUNTIME;
	}
	case REST_NOT_FOUND:
		/* upstream's bare 404 names the conversation; other details say what is missing */
		if (!*detail || !strcmp(detail, "Not Found") || !strcmp(detail, "Bad Request") ||
		    strstr(detail, "onversation not found") || res->call == REST_RENAME) {
			diag_not_found(line, about);
			return EXIT_NOT_FOUND;
		}
		buf_printf(line, "the server at %s says: %s", about->server, detail);
		return EXIT_RUNTIME;
	case REST_BAD_BODY:
		buf_printf(line, "unexpected answer from %s to the %s: %s", about->server, what,
			   res->err.message);
		return EXIT_RUNTIME;
	case REST_CONFLICT:
	case REST_INVALID:
	case REST_REFUSED:
		buf_printf(line, "the server at %s refused the %s: %s", about->server, what,
			   *detail ? detail : "no reason given");
		return EXIT_RUNTIME;
	default:
		buf_printf(line, "the server at %s failed the %s (HTTP %d)%s%s", about->server, what,
			   resp->status, *detail ? ": " : "", detail);
		return EXIT_RUNTIME;
	}
}

void manage_fail(struct manage_run *r, const struct rest_result *res)
{
	if (res->outcome == REST_UNSUPPORTED) {
		manage_lacks(r, res->call);
		return;
	}
	struct buf url, line;
	buf_init(&url);
	buf_init(&line);
	url_describe(r->run.o->server, &url);
	struct diag_about about = {
		.server = buf_cstr(&url),
		.conversation_id = r->args.id,
		.has_key = r->run.srv.api_key != NULL,
	};
	int code = failure_words(r, res, &about, &line);
	manage_say(r, buf_cstr(&line));
	buf_fini(&line);
	buf_fini(&url);
	manage_finish(r, code);
}

void manage_start(struct manage_run *r, enum rest_call call, rest_result_fn done)
{
	r->call = call;
	if (!rest_call_available(call, &r->args, &r->version)) {
		manage_lacks(r, call);
		return;
	}
	if (rest_call(&r->run.srv, call, &r->args, done, r) != 0) {
		struct buf url, line;
		buf_init(&url);
		buf_init(&line);
		url_describe(r->run.o->server, &url);
		buf_printf(&line, "cannot start the %s request to %s", rest_call_name(call),
			   buf_cstr(&url));
		manage_say(r, buf_cstr(&line));
		buf_fini(&line);
		buf_fini(&url);
		manage_finish(r, EXIT_RUNTIME);
	}
}

/* The conversation's GET after a failure that may be a missing route: it is there, so the
 * route is what is missing. */
static void probe_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome == REST_OK)
		manage_lacks(r, r->call);
	else
		manage_fail(r, res);
}

/* A bare 404 from a route an older server may lack (a GET's own 404, rename's and delete's
 * are the conversation's), or ask's bare 500, which upstream answers for an unknown
 * conversation too. */
static bool may_lack(const struct rest_result *res)
{
	bool bare = res->outcome == REST_NOT_FOUND && res->call != REST_RENAME &&
		    res->call != REST_DELETE && res->call != REST_GET_CONVERSATION &&
		    (!res->detail || !strcmp(res->detail, "Not Found"));
	return bare || (res->call == REST_ASK_AGENT && res->outcome == REST_HTTP_ERROR &&
			res->raw->status == 500 && res->detail &&
			!strcmp(res->detail, "500: Internal Server Error"));
}

bool manage_ok(struct manage_run *r, const struct rest_result *res)
{
	if (res->outcome == REST_OK)
		return true;
	/* a known version tells a missing route from a missing conversation; else ask the GET */
	struct rest_result judged = *res;
	bool decided = rest_result_by_version(&judged, &r->args, &r->version);
	struct rest_args a = { .id = r->args.id };
	if (decided || !may_lack(&judged) || !a.id ||
	    rest_call(&r->run.srv, REST_GET_CONVERSATION, &a, probe_done, r) != 0)
		manage_fail(r, &judged);
	return false;
}

void manage_answer_begin(struct manage_run *r, struct manage_answer *a, const char *type)
{
	manage_answer_init(a, r->run.o, r->run.masks, type);
}

void manage_reply(struct manage_run *r, struct manage_answer *a)
{
	manage_answer_put(a);
	manage_finish(r, command_flush_stdout());
}

void manage_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	struct manage_answer a;
	if (!manage_ok(r, res))
		return;
	r->answer(r, res, &a);
	manage_reply(r, &a);
}
