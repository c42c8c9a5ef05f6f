/* Events become transcript items; headless text mode prints the durable record. */
#include "controller_int.h"
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ events → items */

static void spec_text(struct controller *c, struct buf *store, const char *s, const char **out,
		      size_t *len)
{
	*out = NULL;
	if (len)
		*len = 0;
	if (!s)
		return;
	size_t start = store->len;
	controller_clean(c, s, strlen(s), store);
	buf_putc(store, '\0');
	/* Offsets, not pointers: store may move while later fields are appended. */
	*out = (const char *)(uintptr_t)(start + 1);
	if (len)
		*len = store->len - 1 - start;
}

static const char *resolve(struct buf *store, const char *off)
{
	return off ? store->data + ((uintptr_t)off - 1) : NULL;
}

bool ctl_event_to_spec(struct controller *c, const struct event *e, int64_t seq,
			  struct item_spec *spec, struct buf *store)
{
	memset(spec, 0, sizeof *spec);
	spec->seq = seq;
	spec->id = e->id;
	spec->risk = (int)e->risk;
	const char *title = NULL;
	switch (e->kind) {
	case EVENT_MESSAGE:
		spec->kind = e->source == SOURCE_USER ? ITEM_USER
			     : e->source == SOURCE_AGENT ? ITEM_AGENT : ITEM_NOTICE;
		if (spec->kind == ITEM_NOTICE)
			title = "environment";
		break;
	case EVENT_ACTION:
		spec->kind = ITEM_TOOL;
		title = e->tool_name ? e->tool_name : "tool";
		break;
	case EVENT_OBSERVATION:
	case EVENT_USER_REJECT:
	case EVENT_AGENT_ERROR:
		spec->kind = ITEM_TOOL_RESULT;
		spec->outcome = e->kind == EVENT_USER_REJECT ? TOOL_REJECTED
				: e->kind == EVENT_AGENT_ERROR || e->is_error ||
						  (e->has_exit_code && e->exit_code != 0)
					? TOOL_FAILED
					: TOOL_DONE;
		if (e->kind == EVENT_AGENT_ERROR && !e->tool_call_id) {
			spec->kind = ITEM_ERROR;
			title = "agent error";
		} else {
			title = e->tool_name;
		}
		break;
	case EVENT_CONVERSATION_ERROR:
		spec->kind = ITEM_ERROR;
		title = e->error_code ? e->error_code : "conversation error";
		break;
	case EVENT_PAUSE:
		spec->kind = ITEM_NOTICE;
		title = "paused";
		break;
	case EVENT_INTERRUPT:
		spec->kind = ITEM_NOTICE;
		title = "interrupted";
		break;
	case EVENT_STATE_UPDATE:
		return false;
	case EVENT_SYSTEM_PROMPT:
		spec->kind = ITEM_SYSTEM;
		title = "system prompt";
		break;
	case EVENT_CONDENSATION:
		spec->kind = ITEM_NOTICE;
		title = "history condensed";
		break;
	default:
		spec->kind = ITEM_NOTICE;
		title = e->kind_name ? e->kind_name : "event";
		break;
	}
	spec->has_exit_code = e->has_exit_code;
	spec->exit_code = e->exit_code;
	spec->tool_call_id = e->tool_call_id;
	spec_text(c, store, e->text, &spec->text, &spec->text_len);
	spec_text(c, store, e->reasoning, &spec->reasoning, &spec->reasoning_len);
	spec_text(c, store, title, &spec->title, NULL);
	spec_text(c, store, e->action_summary, &spec->summary, NULL);
	spec_text(c, store, e->action_detail, &spec->detail, NULL);
	spec->text = resolve(store, spec->text);
	spec->reasoning = resolve(store, spec->reasoning);
	spec->title = resolve(store, spec->title);
	spec->summary = resolve(store, spec->summary);
	spec->detail = resolve(store, spec->detail);
	return true;
}

/* ------------------------------------------------------------ text mode */

static void summary_remember(struct controller *c, const char *tool_call_id, const char *line)
{
	c->summaries = xrealloc(c->summaries, (c->nsummaries + 1) * sizeof *c->summaries);
	c->summaries[c->nsummaries].tool_call_id = xstrdup(tool_call_id);
	c->summaries[c->nsummaries].line = xstrdup(line);
	c->nsummaries++;
}

static char *summary_take(struct controller *c, const char *tool_call_id)
{
	for (size_t i = 0; i < c->nsummaries; i++) {
		if (!strcmp(c->summaries[i].tool_call_id, tool_call_id)) {
			char *line = c->summaries[i].line;
			free(c->summaries[i].tool_call_id);
			/* kept in arrival order for ctl_summaries_flush */
			memmove(c->summaries + i, c->summaries + i + 1,
				(c->nsummaries - i - 1) * sizeof *c->summaries);
			c->nsummaries--;
			return line;
		}
	}
	return NULL;
}

void ctl_text_mode_event(struct controller *c, const struct item_spec *s, const struct event *e)
{
	struct buf line;
	buf_init(&line);
	switch (s->kind) {
	case ITEM_USER:
	case ITEM_AGENT:
		headless_text_message(&c->out, s->kind == ITEM_USER, s->text ? s->text : "",
				      s->text_len);
		break;
	case ITEM_TOOL:
		if (s->text_len)
			headless_text_message(&c->out, false, s->text, s->text_len);
		if (e->tool_name && !strcmp(e->tool_name, "terminal"))
			buf_printf(&line, "$ %s", s->summary ? s->summary : "");
		else
			buf_printf(&line, "• %s %s", s->title ? s->title : "tool",
				   s->summary ? s->summary : "");
		if (s->tool_call_id)
			summary_remember(c, s->tool_call_id, buf_cstr(&line));
		else
			headless_text_line(&c->out, buf_cstr(&line));
		break;
	case ITEM_TOOL_RESULT: {
		char *head = s->tool_call_id ? summary_take(c, s->tool_call_id) : NULL;
		buf_puts(&line, head ? head : (s->title ? s->title : "tool"));
		free(head);
		if (s->outcome == TOOL_REJECTED)
			buf_printf(&line, "  → rejected: %s", s->text ? s->text : "");
		else if (s->has_exit_code)
			buf_printf(&line, "  → exit %d", s->exit_code);
		else if (s->outcome == TOOL_FAILED)
			buf_puts(&line, "  → failed");
		else
			buf_puts(&line, "  → done");
		if (s->outcome == TOOL_FAILED && !s->has_exit_code && s->text_len) {
			/* The first line of the error says why. */
			const char *nl = memchr(s->text, '\n', s->text_len);
			buf_puts(&line, ": ");
			buf_append(&line, s->text, nl ? (size_t)(nl - s->text) : s->text_len);
		}
		headless_text_line(&c->out, buf_cstr(&line));
		break;
	}
	case ITEM_ERROR:
		buf_printf(&line, "error: %s: %s", s->title ? s->title : "error", s->text ? s->text : "");
		headless_text_line(&c->out, buf_cstr(&line));
		break;
	default:
		break;
	}
	buf_fini(&line);
}

void ctl_summaries_flush(struct controller *c, const char *why)
{
	for (size_t i = 0; i < c->nsummaries; i++) {
		struct buf line;
		buf_init(&line);
		buf_printf(&line, "%s  → %s", c->summaries[i].line, why);
		headless_text_line(&c->out, buf_cstr(&line));
		buf_fini(&line);
	}
	ctl_summaries_free(c);
}

void ctl_summaries_free(struct controller *c)
{
	for (size_t i = 0; i < c->nsummaries; i++) {
		free(c->summaries[i].tool_call_id);
		free(c->summaries[i].line);
	}
	free(c->summaries);
	c->summaries = NULL;
	c->nsummaries = 0;
}
