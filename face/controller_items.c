/* Events become transcript items. */
#include "controller_int.h"
#include "exit_code.h"

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
	return e->is_error || e->acp_status == ACP_STATUS_COMPLETED ||
	       e->acp_status == ACP_STATUS_FAILED;
}

/* The event's timestamp when it looks like one (ISO 8601 digits and separators, at most 40
 * bytes): it is shown and sent back to the server in queries, so nothing else gets through. */
static const char *plausible_timestamp(const char *s)
{
	if (!s || !*s || strlen(s) > 40 || s[strspn(s, "0123456789-:T.+Z")])
		return NULL;
	return s;
}

bool ctl_event_to_spec(struct controller *c, const struct event *e, int64_t seq,
			  struct item_spec *spec, struct buf *store)
{
	memset(spec, 0, sizeof *spec);
	spec->seq = seq;
	spec->id = e->id;
	spec->timestamp = plausible_timestamp(e->timestamp);
	spec->parent_id = e->parent_id;
	spec->state_update = e->kind == EVENT_STATE_UPDATE;
	/* The risk as received (a confirmation reports it); the views label only what is worth
	 * it. */
	spec->risk = (int)e->risk;
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
		if (e->action_type == TOOL_KIND_FINISH) {
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
		spec->command = e->tool == TOOL_KIND_TERMINAL;
		title = e->tool_name ? e->tool_name : "tool";
		detail = e->arguments;
		break;
	case EVENT_OBSERVATION:
		/* It repeats the finish message already shown as the agent's answer. */
		if (e->observation_type == TOOL_KIND_FINISH)
			return false;
		/* fall through */
	case EVENT_USER_REJECT:
	case EVENT_AGENT_ERROR:
		spec->kind = ITEM_TOOL_RESULT;
		spec->outcome = result_outcome(e);
		spec->agent_error = e->kind == EVENT_AGENT_ERROR;
		if (e->kind == EVENT_AGENT_ERROR && !e->tool_call_id) {
			spec->kind = ITEM_ERROR;
			title = "agent error";
		} else {
			title = e->tool_name;
		}
		break;
	case EVENT_ACP_TOOL_CALL:
		spec->kind = ITEM_TOOL;
		spec->command = e->tool == TOOL_KIND_TERMINAL;
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
	if (c->policy.drop_texts) {
		/* The title, summary and whole action stay: a confirmation reports them. */
		free(composed);
		text = composed = NULL;
		detail = result = NULL;
	}
	spec_text(c, store, text, &spec->text, &spec->text_len);
	spec_text(c, store, c->policy.drop_texts ? NULL : e->reasoning, &spec->reasoning,
		  &spec->reasoning_len);
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
