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

static bool is_kind(const char *kind, const char *name)
{
	return kind && strcmp(kind, name) == 0;
}

/* The outcome of a tool result event (ObservationEvent, UserRejectObservation, AgentErrorEvent,
 * a finished ACP tool call). */
static enum tool_outcome result_outcome(const struct event *e)
{
	if (e->kind == EVENT_USER_REJECT)
		return e->rejected_by_hook ? TOOL_BLOCKED : TOOL_REJECTED;
	if (e->kind == EVENT_AGENT_ERROR || e->is_error)
		return TOOL_FAILED;
	switch (e->exit_status) {
	case EXIT_STATUS_RUNNING:
		return TOOL_STILL_RUNNING;
	case EXIT_STATUS_TIMED_OUT:
		return TOOL_TIMED_OUT;
	case EXIT_STATUS_EXITED:
		return e->exit_code ? TOOL_FAILED : TOOL_DONE;
	default:
		return TOOL_DONE;
	}
}

/* An ACP tool call is its own result once its status says it ended. */
static bool acp_ended(const struct event *e)
{
	return e->is_error || is_kind(e->tool_status, "completed") || is_kind(e->tool_status, "failed");
}

bool ctl_event_to_spec(struct controller *c, const struct event *e, int64_t seq,
			  struct item_spec *spec, struct buf *store)
{
	memset(spec, 0, sizeof *spec);
	spec->seq = seq;
	spec->id = e->id;
	/* As the web client: UNKNOWN (no analyzer) and LOW are not worth a label. */
	spec->risk = e->risk >= RISK_MEDIUM ? (int)e->risk : 0;
	const char *title = NULL, *text = e->text, *detail = NULL, *result = NULL;
	char *composed = NULL;
	switch (e->kind) {
	case EVENT_MESSAGE:
		spec->kind = e->source == SOURCE_USER ? ITEM_USER
			     : e->source == SOURCE_AGENT ? ITEM_AGENT : ITEM_NOTICE;
		if (spec->kind == ITEM_NOTICE)
			title = "environment";
		break;
	case EVENT_ACTION:
		if (is_kind(e->action_kind, "FinishAction")) {
			/* The final answer: an agent message in every output, as the web client. */
			spec->kind = ITEM_AGENT;
			if (e->text && e->arguments) {
				struct buf b;
				buf_init(&b);
				buf_printf(&b, "%s\n\n%s", e->text, e->arguments);
				text = composed = buf_steal(&b);
			} else if (e->arguments) {
				text = e->arguments;
			}
			break;
		}
		spec->kind = ITEM_TOOL;
		title = e->tool_name ? e->tool_name : "tool";
		detail = e->arguments;
		break;
	case EVENT_OBSERVATION:
		/* It repeats the finish message already shown as the agent's answer. */
		if (is_kind(e->observation_kind, "FinishObservation"))
			return false;
		/* fall through */
	case EVENT_USER_REJECT:
	case EVENT_AGENT_ERROR:
		spec->kind = ITEM_TOOL_RESULT;
		spec->outcome = result_outcome(e);
		if (e->kind == EVENT_AGENT_ERROR && !e->tool_call_id) {
			spec->kind = ITEM_ERROR;
			title = "agent error";
		} else {
			title = e->tool_name;
		}
		break;
	case EVENT_ACP_TOOL_CALL:
		spec->kind = ITEM_TOOL;
		title = e->tool_name ? e->tool_name : "tool";
		detail = e->arguments;
		text = NULL;
		spec->replaces_card = true;
		if (acp_ended(e)) {
			spec->has_result = true;
			spec->outcome = result_outcome(e);
			result = e->text;
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
	case EVENT_LLM_LOG:
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
		/* HookExecutionEvent and kinds this client does not know: the codec's label. */
		spec->kind = ITEM_NOTICE;
		title = e->label ? e->label : "event";
		break;
	}
	spec->has_exit_code = e->has_exit_code;
	spec->exit_code = e->exit_code;
	spec->tool_call_id = e->tool_call_id;
	spec_text(c, store, text, &spec->text, &spec->text_len);
	spec_text(c, store, e->reasoning, &spec->reasoning, &spec->reasoning_len);
	spec_text(c, store, title, &spec->title, NULL);
	spec_text(c, store, e->action_summary, &spec->summary, NULL);
	spec_text(c, store, e->action_detail, &spec->full_action, NULL);
	spec_text(c, store, detail, &spec->detail, &spec->detail_len);
	spec_text(c, store, result, &spec->result, &spec->result_len);
	spec->text = resolve(store, spec->text);
	spec->reasoning = resolve(store, spec->reasoning);
	spec->title = resolve(store, spec->title);
	spec->summary = resolve(store, spec->summary);
	spec->detail = resolve(store, spec->detail);
	spec->result = resolve(store, spec->result);
	spec->full_action = resolve(store, spec->full_action);
	free(composed);
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

/* Appends text's lines, each indented by four spaces, on lines of their own. */
static void put_indented(struct buf *line, const char *text, size_t len)
{
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		if (i > start || i < len) {
			buf_puts(line, "\n    ");
			buf_append(line, text + start, i - start);
		}
		start = i + 1;
	}
}

/* "→ exit 2", "→ still running (no new output)", "→ failed: why" … for a tool result. */
static void put_outcome(struct buf *line, enum tool_outcome outcome, bool has_exit_code,
			int exit_code, const char *text, size_t text_len)
{
	switch (outcome) {
	case TOOL_REJECTED:
	case TOOL_BLOCKED:
		buf_printf(line, "  → %s: %.*s", outcome == TOOL_BLOCKED ? "blocked by hook" : "rejected",
			   (int)text_len, text ? text : "");
		return;
	case TOOL_STILL_RUNNING:
		buf_puts(line, "  → still running (no new output)");
		return;
	case TOOL_TIMED_OUT:
		buf_puts(line, "  → timed out");
		return;
	case TOOL_FAILED:
		if (has_exit_code)
			buf_printf(line, "  → exit %d", exit_code);
		else
			buf_puts(line, "  → failed");
		break;
	default:
		if (has_exit_code)
			buf_printf(line, "  → exit %d", exit_code);
		else
			buf_puts(line, "  → done");
		return;
	}
	if (!has_exit_code && text_len) {
		/* The error says why: its first line here, the rest below. */
		const char *nl = memchr(text, '\n', text_len);
		size_t first = nl ? (size_t)(nl - text) : text_len;
		buf_puts(line, ": ");
		buf_append(line, text, first);
		if (nl)
			put_indented(line, nl + 1, text_len - first - 1);
	}
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
		/* An ACP tool call is emitted again as it progresses: the last emission counts. */
		if (s->tool_call_id)
			free(summary_take(c, s->tool_call_id));
		if (s->text_len)
			headless_text_message(&c->out, false, s->text, s->text_len);
		if (e->tool_name && !strcmp(e->tool_name, "terminal"))
			buf_printf(&line, "$ %s", s->summary ? s->summary : "");
		else
			buf_printf(&line, "• %s %s", s->title ? s->title : "tool",
				   s->summary ? s->summary : "");
		/* The outcome goes at the end of the first line; the arguments follow it. */
		if (s->has_result)
			put_outcome(&line, s->outcome, s->has_exit_code, s->exit_code, NULL, 0);
		if (s->detail_len)
			put_indented(&line, s->detail, s->detail_len);
		if (s->has_result && s->result_len)
			put_indented(&line, s->result, s->result_len);
		if (s->tool_call_id && !s->has_result)
			summary_remember(c, s->tool_call_id, buf_cstr(&line));
		else
			headless_text_line(&c->out, buf_cstr(&line));
		break;
	case ITEM_TOOL_RESULT: {
		char *head = s->tool_call_id ? summary_take(c, s->tool_call_id) : NULL;
		const char *first = head ? head : (s->title ? s->title : "tool");
		const char *nl = strchr(first, '\n');
		buf_append(&line, first, nl ? (size_t)(nl - first) : strlen(first));
		put_outcome(&line, s->outcome, s->has_exit_code, s->exit_code, s->text, s->text_len);
		if (nl)
			buf_puts(&line, nl);
		free(head);
		headless_text_line(&c->out, buf_cstr(&line));
		break;
	}
	case ITEM_ERROR:
		buf_printf(&line, "error: %s: %s", s->title ? s->title : "error", s->text ? s->text : "");
		headless_text_line(&c->out, buf_cstr(&line));
		break;
	case ITEM_NOTICE:
		/* Hooks and kinds this client does not know: their label and fields. */
		if (e->kind != EVENT_HOOK && e->kind != EVENT_UNKNOWN)
			break;
		buf_printf(&line, "· %s", s->title ? s->title : "event");
		if (s->text_len)
			put_indented(&line, s->text, s->text_len);
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
		const char *head = c->summaries[i].line, *nl = strchr(head, '\n');
		buf_append(&line, head, nl ? (size_t)(nl - head) : strlen(head));
		buf_printf(&line, "  → %s%s", why, nl ? nl : "");
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
