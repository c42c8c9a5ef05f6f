/* The server's conversation list, a page at a time, cleaned (sanitized and masked): what
 * tether list, the picker and the directory poller read. */
#ifndef TETHER_CONV_PAGE_H
#define TETHER_CONV_PAGE_H

#include "net.h"
#include "keyring.h"

/* Moves the conversations of a decoded page, each cleaned (sanitized and masked), to
 * (*items)[*count…] and its next page id to *next_page_id; the page is left empty. */
void conversation_page_append(struct conversation_page *page, const struct mask_set *masks,
			      struct conversation_info **items, size_t *count, char **next_page_id);
/* Sanitizes and masks every server string of one conversation's info, in place. */
void conversation_info_clean(struct conversation_info *c, const struct mask_set *masks);

#endif
