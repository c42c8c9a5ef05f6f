/* tether rename ID TITLE, tether rm ID: a conversation's title changed, a conversation
 * deleted (named by its title, after a question on a terminal or --yes). */
#include "manage.h"
#include "app.h"
#include "clean.h"
#include "tty_prompt.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void edited(struct manage_run *r, const struct rest_result *res, struct manage_answer *a)
{
	const struct options *o = r->run.o;
	(void)res;
	if (o->command == CMD_RENAME) {
		manage_answer_begin(r, a, "renamed");
		manage_answer_field(a, "id", o->conversation_id, "renamed: %s: ");
		manage_answer_field(a, "title", o->words[0], "%s");
	} else {
		manage_answer_begin(r, a, "deleted");
		manage_answer_field(a, "id", o->conversation_id, "deleted: %s");
		manage_answer_field(a, "title", r->title, " (%s)");
	}
}

bool manage_confirmed(struct manage_run *r, const char *question)
{
	struct buf q, scratch;
	buf_init(&q);
	buf_init(&scratch);
	buf_puts(&q, question);
	if (r->title)
		clean_text(r->run.masks, r->title, strlen(r->title), &scratch, &q);
	else
		buf_puts(&q, "(untitled)");
	buf_printf(&q, " (%s)? [y/N] ", r->run.o->conversation_id);
	struct tty_value v = { 0 };
	int rc = tty_prompt(buf_cstr(&q), true, &v);
	bool yes = rc == 0 && v.data && (v.data[0] == 'y' || v.data[0] == 'Y');
	tty_value_free(&v);
	buf_fini(&scratch);
	buf_fini(&q);
	return yes;
}

/* rm: the title to name, then the question (a terminal) or --yes. */
static void rm_conversation_done(void *ctx, struct rest_result *res)
{
	struct manage_run *r = ctx;
	if (res->outcome != REST_OK || res->conversations.count != 1) {
		manage_fail(r, res);
		return;
	}
	const char *t = res->conversations.items[0].title;
	r->title = xstrdup(t && *t ? t : NULL);
	if (!r->run.o->yes && !manage_confirmed(r, "Delete the conversation ")) {
		manage_say(r, "nothing was deleted");
		manage_finish(r, EXIT_RUNTIME);
		return;
	}
	manage_start(r, REST_DELETE, manage_done);
}

void manage_edit(struct manage_run *r)
{
	const struct options *o = r->run.o;
	r->answer = edited;
	if (o->command == CMD_RENAME) {
		r->args.title = o->words[0];
		manage_start(r, REST_RENAME, manage_done);
	} else if (!o->yes && !isatty(STDIN_FILENO)) {
		manage_say(r, "refusing to delete without --yes when stdin is not a terminal");
		manage_finish(r, EXIT_USAGE);
	} else {
		manage_start(r, REST_GET_CONVERSATION, rm_conversation_done);
	}
}
