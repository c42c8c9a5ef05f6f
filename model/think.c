/* think: streamed text that carries the model's thinking inline, as <think>…</think> (models
 * served through litellm that also send reasoning_content). What is inside goes to the slot's
 * reasoning, so the tags never show; the durable event that retires the slot has them taken
 * out by the codec. A tag split across deltas is held back until the next one. */
#include "model_int.h"

#include <string.h>

static const char open_tag[] = "<think>", close_tag[] = "</think>";

/* Appends s[0..n) to the slot's reasoning or text, as the think state says. Text right after
 * the thinking starts at its first non-blank character, as the durable's text does. */
static void think_put(struct transcript *t, struct item *it, const char *s, size_t n)
{
	if (it->stream->think_inside) {
		if (!it->reasoning.len)
			it->reasoning_lines = 1;
		it->reasoning_lines += count_newlines(s, n);
		buf_append(&it->reasoning, s, n);
		return;
	}
	if (it->stream->think_seen && !it->text.len)
		while (n && strchr(" \t\r\n", *s)) {
			s++;
			n--;
		}
	t->lines_added += count_newlines(s, n);
	buf_append(&it->text, s, n);
}

void transcript_think_feed(struct transcript *t, struct item *it, const char *text, size_t len)
{
	struct buf joined;
	buf_init(&joined);
	if (it->stream->think_held) {
		buf_append(&joined, it->stream->think_hold, it->stream->think_held);
		buf_append(&joined, text, len);
		text = joined.data;
		len = joined.len;
		it->stream->think_held = 0;
	}
	size_t run = 0, i = 0;
	while (i < len) {
		const char *p = memchr(text + i, '<', len - i);
		if (!p)
			break;
		i = (size_t)(p - text);
		const char *tag = it->stream->think_inside ? close_tag : open_tag;
		size_t tlen = it->stream->think_inside ? sizeof close_tag - 1 : sizeof open_tag - 1;
		size_t left = len - i;
		if (left < tlen && memcmp(p, tag, left) == 0) {
			/* Maybe a tag that the next delta finishes. */
			think_put(t, it, text + run, i - run);
			memcpy(it->stream->think_hold, p, left);
			it->stream->think_held = (unsigned char)left;
			buf_fini(&joined);
			return;
		}
		if (left >= tlen && memcmp(p, tag, tlen) == 0) {
			think_put(t, it, text + run, i - run);
			it->stream->think_inside = !it->stream->think_inside;
			it->stream->think_seen = true;
			i += tlen;
			run = i;
			continue;
		}
		i++;
	}
	think_put(t, it, text + run, len - run);
	buf_fini(&joined);
}

void transcript_think_reset(struct item *it)
{
	it->stream->think_inside = false;
	it->stream->think_seen = false;
	it->stream->think_held = 0;
}
