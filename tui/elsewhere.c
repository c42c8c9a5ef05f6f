/* elsewhere: conversations on the server, not open here, that wait for confirmation. While
 * the TUI runs, the server's list is polled at a slow pace (directory.c, backing off while the
 * server fails) so that the strip and the terminal title say one elsewhere needs the user;
 * before, only the board showed it. The open conversations have their sockets, and the board
 * polls fast while it is open: this is only the slow look around. */
#include "interactive.h"
#include "directory.h"

#include <stdlib.h>
#include <string.h>

/* Slow: a confirmation waiting elsewhere is found within this, at one list request. */
#define ELSEWHERE_POLL_S 30.0

struct elsewhere {
	struct directory *dir;
	char **waiting;             /* ids the last complete list says wait for confirmation */
	size_t nwaiting;
};

static void forget(struct elsewhere *e)
{
	for (size_t i = 0; i < e->nwaiting; i++)
		free(e->waiting[i]);
	free(e->waiting);
	e->waiting = NULL;
	e->nwaiting = 0;
}

void elsewhere_note_list(struct tui *u, const struct conversation_info *items, size_t n)
{
	struct elsewhere *e = u->elsewhere;
	if (!e)
		return;
	forget(e);
	for (size_t i = 0; i < n; i++)
		if (items[i].id && items[i].run_status == RUN_STATUS_WAITING_FOR_CONFIRMATION) {
			e->waiting = xrealloc(e->waiting, (e->nwaiting + 1) * sizeof *e->waiting);
			e->waiting[e->nwaiting++] = xstrdup(items[i].id);
		}
	ui_schedule_frame(&u->ui);
}

static void on_poll(void *ctx, const struct directory_poll *p)
{
	/* a failure keeps the last list, true enough; the board says why when opened */
	if (!p->failed)
		elsewhere_note_list(ctx, p->items, p->count);
}

void elsewhere_start(struct tui *u)
{
	if (u->elsewhere)
		return;
	u->elsewhere = xcalloc(1, sizeof *u->elsewhere);
	u->elsewhere->dir = directory_create(u->loop, u->o, u->masks, u->api_key, on_poll, u);
	directory_set_interval(u->elsewhere->dir, ELSEWHERE_POLL_S);
	directory_poll_now(u->elsewhere->dir); /* the interval put the first poll off */
}

void elsewhere_stop(struct tui *u)
{
	if (!u->elsewhere)
		return;
	directory_destroy(u->elsewhere->dir);
	forget(u->elsewhere);
	free(u->elsewhere);
	u->elsewhere = NULL;
}

size_t elsewhere_waiting(struct tui *u)
{
	size_t n = 0;
	if (u->elsewhere)
		for (size_t i = 0; i < u->elsewhere->nwaiting; i++)
			n += !conv_find(u, u->elsewhere->waiting[i]); /* the open ones speak for themselves */
	return n;
}
