/* cards: tool cards, indexed by tool_call_id, with their results attached, and the cards
 * still waiting for one (confirmation prompt, run end). */
#include "transcript_int.h"

#include <stdlib.h>
#include <string.h>

void transcript_pending_add(struct transcript *t, struct item *it)
{
	if (it->pending_listed)
		return;
	if (t->npending == t->pending_cap) {
		t->pending_cap = t->pending_cap ? t->pending_cap * 2 : 16;
		t->pending = xrealloc(t->pending, t->pending_cap * sizeof *t->pending);
	}
	t->pending[t->npending++] = it;
	it->pending_listed = true;
}

void transcript_pending_remove(struct transcript *t, struct item *it)
{
	if (!it->pending_listed)
		return;
	for (size_t i = 0; i < t->npending; i++) {
		if (t->pending[i] == it) {
			memmove(t->pending + i, t->pending + i + 1,
				(t->npending - i - 1) * sizeof *t->pending);
			t->npending--;
			break;
		}
	}
	it->pending_listed = false;
}

/* The first card with a tool_call_id owns it in the index. */
void transcript_index_card(struct transcript *t, struct item *it)
{
	if (it->kind != ITEM_TOOL)
		return;
	/* A card without a tool_call_id can get no result, but the end of the run still ends it. */
	if (it->tool_call_id && !strmap_get(&t->cards, it->tool_call_id))
		strmap_put(&t->cards, it->tool_call_id, it);
	if (it->outcome == TOOL_PENDING && !it->has_result)
		transcript_pending_add(t, it);
}

enum apply_result transcript_attach_result(struct transcript *t, struct item *card,
					   const struct item_spec *spec)
{
	buf_clear(&card->result);
	if (spec->text)
		buf_append(&card->result, spec->text, spec->text_len);
	card->outcome = spec->outcome;
	card->has_result = true;
	if (spec->has_exit_code) {
		card->has_exit_code = true;
		card->exit_code = spec->exit_code;
	}
	card->result_epoch++;
	if (spec->id) {
		card->result_id = xstrdup(spec->id);
		strmap_put(&t->result_ids, card->result_id, card);
	}
	transcript_pending_remove(t, card);
	t->lines_added += 1 + count_newlines(card->result.data, card->result.len);
	transcript_touch(t, card);
	return APPLY_ATTACHED;
}

enum apply_result transcript_update_card(struct transcript *t, struct item *card,
					 const struct item_spec *spec)
{
	/* The card keeps its place and seq: it is the same call, seen again. */
	int64_t seq = card->seq;
	item_fill(card, spec);
	card->seq = seq;
	if (card->has_result)
		transcript_pending_remove(t, card);
	if (spec->id) {
		if (card->result_id)
			strmap_del(&t->result_ids, card->result_id);
		free(card->result_id);
		card->result_id = xstrdup(spec->id);
		strmap_put(&t->result_ids, card->result_id, card);
	}
	transcript_touch(t, card);
	return APPLY_ATTACHED;
}

void transcript_mark_run_ended(struct transcript *t)
{
	for (size_t i = 0; i < t->npending; i++) {
		struct item *it = t->pending[i];
		it->outcome = TOOL_NO_RESULT;
		it->pending_listed = false;
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
		idx[i] = t->pending[i]->pos;
	return t->npending;
}
