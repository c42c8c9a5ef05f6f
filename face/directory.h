/* The server's conversations, live: GET /api/conversations/search, most recently updated
 * first, polled on the loop at an interval, with backoff while the server fails. A poll asks
 * the pages up to the first where nothing changed (every page on the first poll and once a
 * minute), at most DIRECTORY_MAX_PAGES pages. The source of tether watch and of the board. */
#ifndef TETHER_DIRECTORY_H
#define TETHER_DIRECTORY_H

#include "options.h"
#include "net.h"
#include "keyring.h"

struct directory;

/* Pages of 100 a poll may walk: a server listing more is a failed poll that says so. */
enum { DIRECTORY_MAX_PAGES = 10000 };

/* What one poll gave: the complete list, or why there is none this time. */
struct directory_poll {
	bool failed;
	/* a complete poll: every conversation, most recently updated first as the server
	 * ordered them, each sanitized and masked; owned by the directory until its next
	 * callback or its destroy */
	const struct conversation_info *items;
	size_t count;
	size_t pages;                   /* pages asked by this poll */
	bool walked_all;                /* every page asked (else the older ones were unchanged) */
	/* a failed poll */
	bool refused;                   /* the server refused the key */
	const char *words;              /* the failure in words (diagnose.c), clean */
	const char *cause;              /* the clean transport error ("" when none) */
	int failures;                   /* failed polls in a row, this one included */
	double retry_s;                 /* the next poll, in seconds from now */
};

typedef void (*directory_fn)(void *ctx, const struct directory_poll *p);

/* Starts polling on loop (the first poll at once, on the loop, never inside this call) the
 * server of o with api_key (NULL: none); on_poll gets every outcome. The interval starts as
 * o->watch_interval_s (at least 0.1 s); after a failure the next poll is 2, 4, 8 … 30 s later. */
struct directory *directory_create(struct loop *loop, const struct options *o,
				   const struct mask_set *masks, const char *api_key,
				   directory_fn on_poll, void *ctx);
/* Sets the seconds between polls while the server answers (from now on; at least 0.1). */
void directory_set_interval(struct directory *d, double seconds);
/* Polls at once (on the loop) unless a poll is under way: the user opened the board. */
void directory_poll_now(struct directory *d);
/* Stops polling and frees (also from inside on_poll): no callback comes after it, and a
 * request in flight no longer reaches it. Call it before the loop's destroy. */
void directory_destroy(struct directory *d);

#endif
