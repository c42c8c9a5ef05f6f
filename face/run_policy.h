/* What a run does by itself, beside showing the conversation. The headless runner and the TUI
 * each fill one; the controller reads these fields, never which face runs it. */
#ifndef TETHER_RUN_POLICY_H
#define TETHER_RUN_POLICY_H

#include "options.h"

struct run_policy {
	enum until_mode until;          /* when the run ends by itself (UNTIL_NEVER: when told) */
	bool handle_confirmations;      /* actions that wait go to the sinks, then on_confirm */
	enum on_confirm on_confirm;     /* once per waiting period, when handle_confirmations */
	int default_retries;            /* reconnects when --max-retries does not say (0: no end) */
	bool trim_written;              /* what the sinks wrote is not held: a short tail stays */
	bool drop_texts;                /* no sink reads the model's texts: only titles are kept */
	bool rest_fallback;             /* a message goes through REST while the socket is down */
	bool page_history;              /* opens on the tail; older history comes in pages */
	int open_tail;                  /* page_history: the socket replays only the window's
					 * newest open_tail events (0: the whole window); the rest
					 * comes in pages once shown (history_fetch_window) */
	bool quiet;                     /* notices but fatal ones are dropped (-q) */
	bool say_unsent;                /* the end says how many messages were not sent */
};

#endif
