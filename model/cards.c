/* cards: tool cards, indexed by tool_call_id, with their results attached, and the cards
 * still waiting for one (confirmation prompt, run end). */
#include "model_int.h"

#include <stdlib.h>
#include <string.h>

void transcript_pending_add(struct transcript *t, struct item *it)
{
	if (it->card->pending_listed)
		return;
	if (t->npending == t->pending_cap) {
		t->pending_cap = t->pending_cap ? t->pending_cap * 2 : 16;
		t->pending = xrealloc(t->pending, t->pending_cap * sizeof *t->pending);
	}
	t->pending[t->npending++] = it;
	it->card->pending_listed = true;
}

void transcript_pending_remove(struct transcript *t, struct item *it)
{
	if (!it->card || !it->card->pending_listed)
		return;
	for (size_t i = 0; i < t->npending; i++) {
		if (t->pending[i] == it) {
			memmove(t->pending + i, t->pending + i + 1,
				(t->npending - i - 1) * sizeof *t->pending);
			t->npending--;
			break;
		}
	}
	it->card->pending_listed = false;
}

/* The first card with a tool_call_id owns it in the index. */
void transcript_index_card(struct transcript *t, struct item *it)
{
	if (it->kind != ITEM_TOOL)
		return;
	struct item_card *c = item_card(it);
	/* A card without a tool_call_id can get no result, but the end of the run still ends it. */
	if (c->tool_call_id && !strmap_get(&t->cards, c->tool_call_id))
		strmap_put(&t->cards, c->tool_call_id, it);
	if (!c->has_result)
		transcript_adopt_orphan(t, it);
	/* A card from a page of history is not waiting: its result lies later in the log. */
	if (c->outcome == TOOL_PENDING && !c->has_result && !t->paging)
		transcript_pending_add(t, it);
}

long transcript_find_card(const struct transcript *t, const char *tool_call_id)
{
	const struct item *it = tool_call_id ? strmap_get(&t->cards, tool_call_id) : NULL;
	return it && !it->hidden ? (long)transcript_index(t, it) : -1;
}

void transcript_adopt_orphan(struct transcript *t, struct item *card)
{
	const char *call = card->card->tool_call_id;
	struct item *res = call ? strmap_get(&t->orphans, call) : NULL;
	/* (a result on a branch not shown stays where it is, off screen) */
	if (!res || res->hidden || strmap_get(&t->cards, call) != card)
		return;
	/* The standalone result goes away in place; the card shows it from its own position. */
	strmap_del(&t->orphans, call);
	if (res->id && strmap_get(&t->by_id, res->id) == res)
		strmap_del(&t->by_id, res->id);
	transcript_unlink(t, res);
	struct item_spec spec = {
		.kind = ITEM_TOOL_RESULT,
		.seq = res->seq,
		.id = res->id,
		.text = res->text.data,
		.text_len = res->text.len,
		.outcome = res->card->outcome,
		.agent_error = res->card->agent_error,
		.has_exit_code = res->card->has_exit_code,
		.exit_code = res->card->exit_code,
	};
	uint64_t lines = t->lines_added;
	transcript_attach_result(t, card, &spec);
	t->lines_added = lines;
	item_destroy(t, res);
}

enum apply_result transcript_attach_result(struct transcript *t, struct item *card,
					   const struct item_spec *spec)
{
	struct item_card *c = card->card;
	buf_clear(&c->result);
	if (spec->text)
		buf_append(&c->result, spec->text, spec->text_len);
	c->outcome = spec->outcome;
	c->agent_error = spec->agent_error;
	c->has_result = true;
	if (spec->has_exit_code) {
		c->has_exit_code = true;
		c->exit_code = spec->exit_code;
	}
	c->result_epoch++;
	if (spec->id) {
		c->result_id = xstrdup(spec->id);
		strmap_put(&t->result_ids, c->result_id, card);
	}
	if (spec->seq >= 0) {
		c->result_seq = spec->seq;
		idmap_put(&t->by_seq, (uint64_t)spec->seq, card);
		if (spec->seq > t->newest_seq)
			t->newest_seq = spec->seq;
	}
	transcript_pending_remove(t, card);
	t->lines_added += 1 + count_newlines(c->result.data, c->result.len);
	transcript_touch(t, card);
	return APPLY_ATTACHED;
}

enum apply_result transcript_update_card(struct transcript *t, struct item *card,
					 const struct item_spec *spec)
{
	/* The card keeps its place and seq: it is the same call, seen again. */
	struct item_spec again = *spec;
	again.seq = -1;
	item_fill(t, card, &again);
	struct item_card *c = card->card;
	if (c->has_result)
		transcript_pending_remove(t, card);
	if (spec->id) {
		if (c->result_id)
			strmap_del(&t->result_ids, c->result_id);
		free(c->result_id);
		c->result_id = xstrdup(spec->id);
		strmap_put(&t->result_ids, c->result_id, card);
	}
	transcript_touch(t, card);
	return APPLY_ATTACHED;
}

void transcript_mark_run_ended(struct transcript *t)
{
	for (size_t i = 0; i < t->npending; i++) {
		struct item *it = t->pending[i];
		it->card->outcome = TOOL_NO_RESULT;
		it->card->pending_listed = false;
		transcript_touch(t, it);
	}
	t->npending = 0;
}

void transcript_set_awaiting_confirmation(struct transcript *t, bool awaiting)
{
	if (t->awaiting == awaiting)
		return;
	t->awaiting = awaiting;
	for (size_t i = 0; i < t->npending; i++)
		transcript_touch(t, t->pending[i]);
	t->generation++;
}

size_t transcript_pending_tools(const struct transcript *t, size_t *idx, size_t max)
{
	for (size_t i = 0; i < t->npending && i < max; i++)
		idx[i] = transcript_index(t, t->pending[i]);
	return t->npending;
}

size_t transcript_pending_infos(const struct transcript *t, struct item_info *out, size_t max)
{
	for (size_t i = 0; i < t->npending && i < max; i++)
		transcript_item(t, transcript_index(t, t->pending[i]), &out[i]);
	return t->npending;
}
