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

/* Decodes one page of the server's conversation list and appends its conversations, each
 * cleaned (sanitized and masked), to (*items)[*count…]; *next_page_id as
 * conversation_list_decode. Returns 0, or -1 with *err (nothing appended). */
int conversation_page_append(const char *body, size_t len, const struct mask_set *masks,
			     struct conversation_info **items, size_t *count, char **next_page_id,
			     struct codec_error *err);
/* Sanitizes and masks every server string of one conversation's info, in place. */
void conversation_info_clean(struct conversation_info *c, const struct mask_set *masks);

#endif
