/* The server's conversation list, a page at a time, cleaned (sanitized and masked): what
 * tether list, the picker and the directory poller read. */
#ifndef TETHER_CONV_PAGE_H
#define TETHER_CONV_PAGE_H

#include "net.h"
#include "keyring.h"

/* Decodes one page of the server's conversation list and appends its conversations, each
 * cleaned (sanitized and masked), to (*items)[*count…]; *next_page_id as
 * conversation_list_decode. Returns 0, or -1 with *err (nothing appended). */
int conversation_page_append(const char *body, size_t len, const struct mask_set *masks,
			     struct conversation_info **items, size_t *count, char **next_page_id,
			     struct codec_error *err);
/* Sanitizes and masks every server string of one conversation's info, in place. */
void conversation_info_clean(struct conversation_info *c, const struct mask_set *masks);

#endif
