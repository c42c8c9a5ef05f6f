#include "mirror.h"

#include "net.h"

#include <string.h>

/* How an event kind becomes an item (event_to_spec's switch, as a table). */
static const struct {
	enum item_kind kind;
	const char *title;
	bool skip;
} kind_map[] = {
	[EVENT_UNKNOWN] = { ITEM_NOTICE, "event", false },
	[EVENT_MESSAGE] = { ITEM_AGENT, NULL, false },
	[EVENT_ACTION] = { ITEM_TOOL, "tool", false },
	[EVENT_OBSERVATION] = { ITEM_TOOL_RESULT, NULL, false },
	[EVENT_USER_REJECT] = { ITEM_TOOL_RESULT, NULL, false },
	[EVENT_AGENT_ERROR] = { ITEM_TOOL_RESULT, NULL, false },
	[EVENT_CONVERSATION_ERROR] = { ITEM_ERROR, "conversation error", false },
	[EVENT_PAUSE] = { ITEM_NOTICE, "paused", false },
	[EVENT_INTERRUPT] = { ITEM_NOTICE, "interrupted", false },
	[EVENT_STATE_UPDATE] = { ITEM_NOTICE, NULL, true },
	[EVENT_SYSTEM_PROMPT] = { ITEM_SYSTEM, "system prompt", false },
	[EVENT_CONDENSATION] = { ITEM_NOTICE, "history condensed", false },
};

void mirror_init(struct mirror *m, const struct mask_set *masks)
{
	memset(m, 0, sizeof *m);
	m->masks = masks;
	buf_init(&m->san);
	buf_init(&m->store);
}

void mirror_fini(struct mirror *m)
{
	buf_fini(&m->san);
	buf_fini(&m->store);
}

/* Sanitize then mask, as controller_clean does; the result lives in m->store. */
static void clean(struct mirror *m, int slot, const char *s)
{
	m->present[slot] = s != NULL;
	if (!s)
		return;
	buf_clear(&m->san);
	sanitize_text(s, strlen(s), &m->san);
	m->off[slot] = m->store.len;
	mask_text(m->masks, m->san.data ? m->san.data : "", m->san.len, &m->store);
	buf_putc(&m->store, '\0');
}

/* Offsets, not pointers, until every field is in: store may move while it grows. */
static const char *cleaned(struct mirror *m, int slot, size_t *len)
{
	if (!m->present[slot]) {
		if (len)
			*len = 0;
		return NULL;
	}
	const char *s = m->store.data + m->off[slot];
	if (len)
		*len = strlen(s);
	return s;
}

static void apply_event(struct mirror *m, struct transcript *t, const struct event *e, int64_t seq)
{
	if ((size_t)e->kind >= sizeof kind_map / sizeof *kind_map || kind_map[e->kind].skip)
		return;
	struct item_spec spec = { .kind = kind_map[e->kind].kind, .seq = seq, .id = e->id };
	const char *title = kind_map[e->kind].title;
	if (e->kind == EVENT_MESSAGE)
		spec.kind = e->source == SOURCE_USER ? ITEM_USER
			    : e->source == SOURCE_AGENT ? ITEM_AGENT : ITEM_NOTICE;
	if (e->kind == EVENT_ACTION && e->tool_name)
		title = e->tool_name;
	if (spec.kind == ITEM_TOOL_RESULT) {
		title = e->tool_name;
		spec.outcome = e->kind == EVENT_USER_REJECT ? TOOL_REJECTED
			       : e->kind == EVENT_AGENT_ERROR || e->is_error ||
					 (e->has_exit_code && e->exit_code)
				       ? TOOL_FAILED : TOOL_DONE;
	}
	spec.risk = (int)e->risk;
	spec.tool_call_id = e->tool_call_id;
	spec.has_exit_code = e->has_exit_code;
	spec.exit_code = e->exit_code;
	buf_clear(&m->store);
	clean(m, 0, e->text);
	clean(m, 1, e->reasoning);
	clean(m, 2, title);
	clean(m, 3, e->action_summary);
	spec.text = cleaned(m, 0, &spec.text_len);
	spec.reasoning = cleaned(m, 1, &spec.reasoning_len);
	spec.title = cleaned(m, 2, NULL);
	spec.summary = cleaned(m, 3, NULL);
	transcript_add_event(t, &spec);
}

bool mirror_apply(struct mirror *m, struct transcript *t, const char *json, size_t len)
{
	struct frame f;
	struct codec_error err;
	if (frame_decode(json, len, &f, &err) != 0) {
		m->failed++;
		return false;
	}
	if (f.type == FRAME_DURABLE)
		apply_event(m, t, &f.event, f.seq);
	frame_fini(&f);
	return true;
}
