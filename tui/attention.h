/* attention: when to call the user back — the terminal title with the conversation and its
 * state, a bell once per confirmation request and once per run that ends after running a
 * while, and a desktop notification for the same moments when enabled. It decides; the
 * terminal (terminal.h) emits. Edge-triggered, and blind to history: nothing rings for what
 * the first catch-up replays, but a confirmation still waiting once it is done rings once;
 * nothing is decided while the state is not current. */
#ifndef TETHER_ATTENTION_H
#define TETHER_ATTENTION_H

#include "controller.h"

enum { ATTENTION_TEXT_BYTES = 256 };

struct attention {
	bool bell;
	int64_t bell_after_us;
	enum notify_mode notify;
	bool primed;                /* the first catch-up happened: changes from now on are news */
	enum run_status last;       /* the run status as last seen current */
	bool last_awaiting;
	int64_t running_since_us;   /* of the run last seen running */
	char title[ATTENTION_TEXT_BYTES];
	int others_need;            /* set by the caller: other open conversations that need the user */
};

/* What to do now: each set field once. */
struct attention_calls {
	bool set_title;
	char title[ATTENTION_TEXT_BYTES];
	bool bell;
	bool notify;
	char notify_title[ATTENTION_TEXT_BYTES];
	char notify_body[ATTENTION_TEXT_BYTES];
};

/* Starts watching with the user's settings (bell, bell_after, notify). */
void attention_init(struct attention *a, bool bell, int bell_after_s, enum notify_mode notify);
/* Looks at the status at now_us and says what to do (every field false when nothing). */
void attention_observe(struct attention *a, const struct controller_status *st, int64_t now_us,
		       struct attention_calls *out);

#endif
