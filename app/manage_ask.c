/* tether ask ID QUESTION: the agent's answer aside, outside the conversation's history;
 * tether compact ID: the server condenses the conversation's history. */
#include "manage.h"

static void asked(struct manage_run *r, const struct rest_result *res, struct manage_answer *a)
{
	const struct options *o = r->run.o;
	if (o->command == CMD_ASK) {
		manage_answer_begin(r, a, "answer");
		manage_answer_field(a, "id", o->conversation_id, NULL);
		manage_answer_field(a, "question", o->words[0], NULL);
		manage_answer_field(a, "answer", res->answer, "%s");
	} else {
		manage_answer_begin(r, a, "compacted");
		manage_answer_field(a, "id", o->conversation_id,
				    "compacted: %s (the server condensed its history)");
	}
}

void manage_ask(struct manage_run *r)
{
	r->answer = asked;
	if (r->run.o->command == CMD_ASK) {
		r->args.text = r->run.o->words[0];
		manage_start(r, REST_ASK_AGENT, manage_done);
	} else {
		manage_start(r, REST_CONDENSE, manage_done);
	}
}
