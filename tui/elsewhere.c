/* elsewhere: conversations on the server, not open here, that wait for confirmation. While
 * the TUI runs, the server's list is polled at a slow pace (directory.c, backing off while the
 * server fails) so that the strip and the terminal title say one elsewhere needs the user;
 * before, only the board showed it. The open conversations have their sockets, and the board
 * polls fast while it is open: this is only the slow look around. */
#include "conv.h"
#include "elsewhere.h"
#include "directory.h"

#include <stdlib.h>

/* Slow: a confirmation waiting elsewhere is found within this, at one list request. */
#define ELSEWHERE_POLL_S 30.0

struct elsewhere {
	struct directory *dir;
};

static void on_poll(void *ctx, const struct directory_poll *p)
{
	/* a failure keeps the last list, true enough; the board says why when opened */
	if (!p->failed)
		conv_note_far(ctx, p->items, p->count);
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
	conv_note_far(u, NULL, 0);
	free(u->elsewhere);
	u->elsewhere = NULL;
}
