/* headless --send: which of the messages sent the server has shown (its durable echo), and
 * whether the last one was answered, for --until idle|finished. */
#include "controller_int.h"

#include <stdlib.h>
#include <string.h>

void ctl_echo_expect(struct controller *c, const char *text)
{
	struct ctl_echoes *q = &c->echoes;
	if (q->head == q->len) {
		q->head = q->len = 0;
	} else if (q->len == q->cap && q->head) {
		memmove(q->text, q->text + q->head, (q->len - q->head) * sizeof *q->text);
		q->len -= q->head;
		q->head = 0;
	}
	if (q->len == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 4;
		q->text = xrealloc(q->text, q->cap * sizeof *q->text);
	}
	q->text[q->len++] = xstrdup(text);
	q->last_shown = q->run_after = q->shown_in_run = false;
}

/* Messages are echoed in the order they were sent; a user message with other text, or one
 * that came before ours went out, is another client's. */
void ctl_echo_seen(struct controller *c, const struct event *e, bool live)
{
	struct ctl_echoes *q = &c->echoes;
	if (!live || q->head == q->len || e->kind != EVENT_MESSAGE || e->source != SOURCE_USER ||
	    !e->text || strcmp(e->text, q->text[q->head]))
		return;
	if (q->len - q->head <= outbox_unsent(c->outbox, NULL, 0))
		return; /* ours is still in the outbox */
	free(q->text[q->head]);
	q->head++;
	if (q->head < q->len)
		return;
	q->last_shown = true;
	q->shown_in_run = ctl_run_in_progress(c);
	if (q->shown_in_run)
		c->busy_since_send = true;
}

void ctl_echo_run_seen(struct controller *c)
{
	if (c->echoes.last_shown)
		c->echoes.run_after = true;
}

/* Upstream ends a run that answered with finished: a message echoed during it was taken in.
 * A run that ends idle after the echo left it waiting (upstream's state lock: the message
 * came as the run wound up) and the server runs again for it. */
bool ctl_echo_answered(const struct controller *c, enum run_status ended)
{
	const struct ctl_echoes *q = &c->echoes;
	return q->last_shown && (q->run_after || (ended == RUN_STATUS_FINISHED && q->shown_in_run));
}

void ctl_echo_fini(struct controller *c)
{
	struct ctl_echoes *q = &c->echoes;
	for (size_t i = q->head; i < q->len; i++)
		free(q->text[i]);
	free(q->text);
	memset(q, 0, sizeof *q);
}
