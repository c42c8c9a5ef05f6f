/* `tether list`: the server's conversations for people and scripts. */
#ifndef TETHER_LIST_H
#define TETHER_LIST_H

#include "options.h"
#include "net.h"
#include "keyring.h"

/* Prints the server's conversations per o->format, every field sanitized and masked with
 * masks; returns the exit code. */
int list_run(const struct options *o, loop_log_fn log, const char *api_key,
	     const struct mask_set *masks);

/* Fetches every conversation of the server (no output; fields sanitized and masked); returns
 * the exit code. */
int list_fetch(const struct options *o, loop_log_fn log, const char *api_key,
	       const struct mask_set *masks, struct conversation_info **items, size_t *count);

/* Moves the conversations of a decoded page, each cleaned (sanitized and masked), to
 * (*items)[*count…] and its next page id to *next_page_id; the page is left empty. */
void conversation_page_append(struct conversation_page *page, const struct mask_set *masks,
			      struct conversation_info **items, size_t *count, char **next_page_id);
/* Sanitizes and masks every server string of one conversation's info, in place. */
void conversation_info_clean(struct conversation_info *c, const struct mask_set *masks);

#endif
