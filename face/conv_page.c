/* The server's conversation list, a page at a time, every string cleaned for showing. */
#include "conv_page.h"
#include "clean.h"

#include <stdlib.h>
#include <string.h>

/* Server strings cross the same boundary as everything else shown: sanitize, then mask. */
static void clean_field(char **field, const struct mask_set *masks)
{
	if (!*field)
		return;
	struct buf san, out;
	buf_init(&san);
	buf_init(&out);
	clean_text(masks, *field, strlen(*field), &san, &out);
	free(*field);
	*field = buf_steal(&out);
	buf_fini(&san);
}

void conversation_page_append(struct conversation_page *page, const struct mask_set *masks,
			      struct conversation_info **items, size_t *count, char **next_page_id)
{
	size_t n = page->count;
	*items = xrealloc(*items, (*count + n + 1) * sizeof **items);
	for (size_t i = 0; i < n; i++) {
		conversation_info_clean(&page->items[i], masks);
		(*items)[*count + i] = page->items[i];
	}
	*count += n;
	*next_page_id = page->next_page_id;
	free(page->items);
	memset(page, 0, sizeof *page);
}

void conversation_info_clean(struct conversation_info *c, const struct mask_set *masks)
{
	clean_field(&c->id, masks);
	clean_field(&c->title, masks);
	clean_field(&c->execution_status, masks);
	clean_field(&c->updated_at, masks);
}
