/* A page of REST events (GET …/events/search): each item decoded as a durable frame's event
 * is (protocol.md §4.1: the event JSON with None fields left out, and no seq). */
#include "codec_int.h"
#include "legacy_int.h"

#include <stdlib.h>
#include <string.h>

/* What a page's strings point into: the parsed page and each event's composed strings. */
struct page_store {
	cJSON *root;
	struct frame_store **stores;
	size_t count;
};

static void page_store_free(struct page_store *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->count; i++)
		codec_store_free(ps->stores[i]);
	free(ps->stores);
	cJSON_Delete(ps->root);
	free(ps);
}

int event_page_decode(const char *json, size_t len, struct event_page *out,
		      struct codec_error *err)
{
	memset(out, 0, sizeof *out);
	cJSON *root = codec_parse_object(json, len, "event page", err);
	const cJSON *items, *next;
	if (!root)
		return -1;
	if (!codec_member(root, "event page", "items", cJSON_Array, true, &items, err) &&
	    !codec_member(root, "event page", "next_page_id", cJSON_String | cJSON_NULL, false,
			  &next, err)) {
		struct page_store *ps = xcalloc(1, sizeof *ps);
		size_t n = (size_t)cJSON_GetArraySize(items);
		ps->root = root;
		ps->stores = xcalloc(n ? n : 1, sizeof *ps->stores);
		out->events = xcalloc(n ? n : 1, sizeof *out->events);
		const cJSON *item;
		/* An item that is not an object cannot be an event: it is left out (skipped). */
		cJSON_ArrayForEach(item, items) {
			if (!cJSON_IsObject(item)) {
				out->skipped++;
				continue;
			}
			ps->stores[ps->count] = codec_event_decode(item, &out->events[ps->count]);
			ps->count++;
		}
		out->count = ps->count;
		out->next_page_id = cJSON_IsString(next) ? next->valuestring : NULL;
		out->priv_ = ps;
		return 0;
	}
	cJSON_Delete(root);
	return -1;
}

void event_page_fini(struct event_page *p)
{
	page_store_free(p->priv_);
	free(p->events);
	memset(p, 0, sizeof *p);
}

char *event_page_event_json(const struct event_page *p, size_t i)
{
	const struct page_store *ps = p->priv_;
	return ps && i < ps->count ? codec_store_event_json(ps->stores[i]) : NULL;
}
