/* Durable and transient frames of an ObservationEvent — most of a history's bytes: a tool's
 * output —, a MessageEvent, an ActionEvent (all but its small action object) or an
 * execution_status update decoded from spans of the text, without a cJSON tree: a text is
 * unescaped once into one block instead of becoming nodes and strings. Only the shapes
 * codec.c's decoders are sure of are taken; any other (an edit's diff, an image, a timeout
 * note, a tool's own fields, thinking blocks, inline <think>, an action without its object,
 * an escape in a key or a kind, a malformed frame) goes to cJSON, so a frame means the same
 * either way (tests/net/codec/test_fast.c decodes both ways). */
#include "codec_int.h"

#include <stdlib.h>
#include <string.h>

/* A string member decoded into the block at *arena, or NULL when s is absent or no string. */
static const char *take_string(char **arena, struct jspan s)
{
	if (!s.at || s.at[0] != '"')
		return NULL;
	char *at = *arena;
	*arena += jspan_string(s, at) + 1;
	return at;
}

/* The text parts of content joined with nothing between, as parts_text does for them;
 * false when a part is one this decoder leaves to cJSON (an image, a type with escapes). */
static bool take_parts(char **arena, struct jspan content, const char **text)
{
	*text = NULL;
	if (!content.at || content.at[0] == '"') {
		*text = take_string(arena, content);
		return true;
	}
	if (content.at[0] != '[')
		return true;
	static const char *const names[] = { "type", "text" };
	char *joined = *arena;
	struct jspan part, m[2];
	while (jspan_next_element(&content, &part)) {
		if (part.at[0] != '{')
			continue;
		/* A key with an escape may still spell "type" or "text": cJSON's to read. */
		if (!jspan_members(part.at, part.at + part.len, names, 2, m))
			return false;
		if (m[0].at && m[0].at[0] == '"' && !jspan_is(m[0], "text")) {
			if (memchr(m[0].at, '\\', m[0].len) || jspan_is(m[0], "image"))
				return false;
			continue;
		}
		if (!m[1].at || m[1].at[0] != '"')
			continue;
		/* Each part goes on where the last ended (over its NUL): one text, in place. */
		*arena += jspan_string(m[1], *arena);
	}
	**arena = '\0';
	if (*arena > joined)
		*text = joined;
	(*arena)++;
	return true;
}

/* An integral number in [min, max] (ev_int and field_int's rule), into *out. */
static bool take_int(struct jspan s, double min, double max, int64_t *out)
{
	double d;
	if (!jspan_number(s, &d) || !(d >= min && d <= max) || d != (double)(int64_t)d)
		return false;
	*out = (int64_t)d;
	return true;
}

/* decode_exit, from spans. */
static void take_exit(struct jspan exit_code, struct jspan meta_code, struct jspan timeout,
		      struct event *e)
{
	int64_t top = 0, meta = 0;
	bool has_top = take_int(exit_code, -2147483648.0, 2147483647.0, &top);
	bool has_meta = take_int(meta_code, -2147483648.0, 2147483647.0, &meta);
	if (has_top && top != -1) {
		e->exit_status = EXIT_STATUS_EXITED;
		e->exit_code = (int)top;
	} else if (!has_top && has_meta && meta != -1) {
		e->exit_status = EXIT_STATUS_EXITED;
		e->exit_code = (int)meta;
	} else if (jspan_true(timeout)) {
		e->exit_status = EXIT_STATUS_TIMED_OUT;
	} else if (has_top && !e->is_error) {
		e->exit_status = EXIT_STATUS_RUNNING;
	}
	e->has_exit_code = e->exit_status == EXIT_STATUS_EXITED;
}

enum { OBS_KIND, OBS_CONTENT, OBS_IS_ERROR, OBS_EXIT_CODE, OBS_TIMEOUT, OBS_METADATA,
       OBS_NEW_CONTENT, OBS_COUNT };

/* The observation object's part of the event; false to leave the frame to cJSON. */
static bool take_observation(char **arena, struct jspan obs, struct event *e)
{
	static const char *const names[OBS_COUNT] = {
		[OBS_KIND] = "kind", [OBS_CONTENT] = "content", [OBS_IS_ERROR] = "is_error",
		[OBS_EXIT_CODE] = "exit_code", [OBS_TIMEOUT] = "timeout",
		[OBS_METADATA] = "metadata", [OBS_NEW_CONTENT] = "new_content",
	};
	static const char *const meta_names[] = { "exit_code", "suffix" };
	struct jspan m[OBS_COUNT], meta[2] = { { 0 } };
	if (!obs.at || obs.at[0] != '{' || !jspan_members(obs.at, obs.at + obs.len, names,
							   OBS_COUNT, m))
		return false;
	if (m[OBS_METADATA].at && m[OBS_METADATA].at[0] == '{' &&
	    !jspan_members(m[OBS_METADATA].at, m[OBS_METADATA].at + m[OBS_METADATA].len,
			   meta_names, 2, meta))
		return false;
	e->observation_kind = take_string(arena, m[OBS_KIND]);
	e->is_error = jspan_true(m[OBS_IS_ERROR]);
	/* An MCP tool's blocks, an edit's diff, a timeout note: decode_observation's. */
	if (e->observation_kind && !strcmp(e->observation_kind, "MCPToolObservation"))
		return false;
	if (!e->is_error && m[OBS_NEW_CONTENT].at && m[OBS_NEW_CONTENT].at[0] == '"')
		return false;
	const char *suffix = take_string(arena, meta[1]);
	if (suffix && suffix[strspn(suffix, "\n")])
		return false;
	if (!take_parts(arena, m[OBS_CONTENT], &e->text))
		return false;
	if (!e->text && e->observation_kind && !codec_known_observation(e->observation_kind))
		return false;
	take_exit(m[OBS_EXIT_CODE], meta[0], m[OBS_TIMEOUT], e);
	return true;
}

/* reasoning_content as the only reasoning of a message or an action (reasoning_fields): false
 * when thinking blocks or a Responses reasoning item would add to it, left to cJSON. */
static bool take_reasoning(char **arena, struct jspan content, struct jspan blocks,
			   struct jspan item, struct event *e)
{
	struct jspan block;
	if ((blocks.at && blocks.at[0] == '[' && jspan_next_element(&blocks, &block)) ||
	    (item.at && item.at[0] == '{'))
		return false;
	e->reasoning = take_string(arena, content);
	if (e->reasoning && !*e->reasoning)
		e->reasoning = NULL;
	return true;
}

/* The text parts and reasoning of a message or an action's thought (text_and_reasoning);
 * false for inline <think>, which is cJSON's. */
static bool take_text(char **arena, struct jspan parts, struct event *e)
{
	return take_parts(arena, parts, &e->text) && !(e->text && strstr(e->text, "<think>"));
}

/* A message's role, text and reasoning (decode_message); false to leave it to cJSON. */
static bool take_message(char **arena, struct jspan msg, struct event *e)
{
	static const char *const names[] = {
		"role", "content", "reasoning_content", "thinking_blocks", "responses_reasoning_item",
	};
	struct jspan m[5];
	if (!msg.at || msg.at[0] != '{' || !jspan_members(msg.at, msg.at + msg.len, names, 5, m) ||
	    !take_reasoning(arena, m[2], m[3], m[4], e))
		return false;
	e->role = take_string(arena, m[0]);
	return take_text(arena, m[1], e);
}

enum { EV_KIND, EV_ID, EV_TIMESTAMP, EV_PARENT, EV_SOURCE, EV_TOOL_NAME, EV_TOOL_CALL_ID,
       EV_OBSERVATION, EV_MESSAGE, EV_KEY, EV_VALUE, EV_THOUGHT, EV_ACTION, EV_SUMMARY, EV_RISK,
       EV_REASONING, EV_BLOCKS, EV_ITEM, EV_COUNT };

/* An action's thought, reasoning and tool fields from spans (decode_action); its action
 * object — a few short members — through cJSON, so that the rules of its summary, detail and
 * arguments stay codec.c's alone. False (no action object: the call's raw arguments, thinking)
 * to leave it to cJSON. */
static bool take_action(char **arena, struct frame_store *st, const struct jspan *ev,
			struct event *e)
{
	struct jspan action = ev[EV_ACTION];
	if (!action.at || action.at[0] != '{' ||
	    !take_reasoning(arena, ev[EV_REASONING], ev[EV_BLOCKS], ev[EV_ITEM], e) ||
	    !take_text(arena, ev[EV_THOUGHT], e))
		return false;
	e->tool_name = take_string(arena, ev[EV_TOOL_NAME]);
	e->tool_call_id = take_string(arena, ev[EV_TOOL_CALL_ID]);
	const char *summary = take_string(arena, ev[EV_SUMMARY]);
	const char *risk = take_string(arena, ev[EV_RISK]);
	return codec_action_from_text(st, action.at, action.len, summary, risk, e) == 0;
}

/* The kind this decoder takes the event as (EVENT_UNKNOWN: none), from its kind and key. */
static enum event_kind kind_taken(const struct jspan *ev)
{
	if (jspan_is(ev[EV_KIND], "ObservationEvent"))
		return EVENT_OBSERVATION;
	if (jspan_is(ev[EV_KIND], "MessageEvent"))
		return EVENT_MESSAGE;
	if (jspan_is(ev[EV_KIND], "ActionEvent"))
		return EVENT_ACTION;
	if (jspan_is(ev[EV_KIND], "ConversationStateUpdateEvent") &&
	    jspan_is(ev[EV_KEY], "execution_status"))
		return EVENT_STATE_UPDATE;
	return EVENT_UNKNOWN;
}

/* The fields of an event of kind (kind_taken's); false to leave the frame to cJSON. */
static bool take_kind(char **arena, struct frame_store *st, enum event_kind kind,
		      const struct jspan *ev, struct event *e)
{
	e->kind = kind;
	switch (kind) {
	case EVENT_OBSERVATION:
		e->kind_name = "ObservationEvent";
		e->tool_name = take_string(arena, ev[EV_TOOL_NAME]);
		e->tool_call_id = take_string(arena, ev[EV_TOOL_CALL_ID]);
		return take_observation(arena, ev[EV_OBSERVATION], e);
	case EVENT_MESSAGE:
		e->kind_name = "MessageEvent";
		return take_message(arena, ev[EV_MESSAGE], e);
	case EVENT_ACTION:
		e->kind_name = "ActionEvent";
		return take_action(arena, st, ev, e);
	case EVENT_STATE_UPDATE:
		e->kind_name = "ConversationStateUpdateEvent";
		e->state_key = "execution_status";
		e->execution_status = take_string(arena, ev[EV_VALUE]);
		return true;
	default:
		return false;
	}
}

int codec_fast_decode(const char *json, size_t len, struct frame *f, struct frame_store **out)
{
	static const char *const type_name[] = { "type" }, *const names[] = { "seq", "event" };
	static const char *const ev_names[EV_COUNT] = {
		[EV_KIND] = "kind", [EV_ID] = "id", [EV_TIMESTAMP] = "timestamp",
		[EV_PARENT] = "parent_id", [EV_SOURCE] = "source", [EV_TOOL_NAME] = "tool_name",
		[EV_TOOL_CALL_ID] = "tool_call_id", [EV_OBSERVATION] = "observation",
		[EV_MESSAGE] = "llm_message", [EV_KEY] = "key", [EV_VALUE] = "value",
		[EV_THOUGHT] = "thought", [EV_ACTION] = "action", [EV_SUMMARY] = "summary",
		[EV_RISK] = "security_risk", [EV_REASONING] = "reasoning_content",
		[EV_BLOCKS] = "thinking_blocks", [EV_ITEM] = "responses_reasoning_item",
	};
	struct jspan type, m[2], ev[EV_COUNT];
	const char *end = json + len;
	/* The type and the event's kind first, from text not yet checked (a delta stops at its
	 * first member): a frame this decoder does not take goes to cJSON untouched. */
	if (!len || json[0] != '{' || !jspan_members(json, end, type_name, 1, &type))
		return -1;
	if (jspan_is(type, "delta"))
		return codec_delta_decode(json, len, f, out);
	bool durable = jspan_is(type, "durable");
	if ((!durable && !jspan_is(type, "transient")) ||
	    !jspan_members(json, end, names, 2, m) || !m[1].at || m[1].at[0] != '{' ||
	    !jspan_members(m[1].at, m[1].at + m[1].len, ev_names, EV_COUNT, ev))
		return -1;
	enum event_kind kind = kind_taken(ev);
	if (kind == EVENT_UNKNOWN)
		return -1;
	/* Then its whole text, once: the spans found above are right when it is strict JSON. */
	if (jspan_skip(json, end) != end)
		return -1;
	if (durable && !take_int(m[0], 0, (double)NET_SEQ_MAX, &f->seq))
		return -1;
	char *arena;
	struct frame_store *st = codec_store_for_text(json, len, (size_t)(m[1].at - json),
						      &arena);
	struct event *e = &f->event;
	memset(e, 0, sizeof *e);
	e->id = take_string(&arena, ev[EV_ID]);
	e->timestamp = take_string(&arena, ev[EV_TIMESTAMP]);
	e->parent_id = take_string(&arena, ev[EV_PARENT]);
	const char *source = take_string(&arena, ev[EV_SOURCE]);
	if (!take_kind(&arena, st, kind, ev, e)) {
		codec_store_free(st);
		memset(e, 0, sizeof *e);
		f->seq = 0;
		return -1;
	}
	codec_event_names(e, source);
	f->type = durable ? FRAME_DURABLE : FRAME_TRANSIENT;
	f->type_name = durable ? "durable" : "transient";
	*out = st;
	return 0;
}
