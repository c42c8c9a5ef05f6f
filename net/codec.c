/* The frame codec: server frames (protocol.md §2, §5) from JSON into struct frame, and the
 * few client messages (§1.2, §3) back. Strict on the envelope, liberal inside events. */
#define _GNU_SOURCE /* memmem */
#include "codec_int.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Far above MAX_FRAME_BYTES (4 MiB, §1.4) and REST pages, low enough to refuse absurd input. */
#define CODEC_MAX_INPUT ((size_t)64 << 20)
/* Integers beyond 2^53 do not survive cJSON's doubles; no seq or count gets near that. */
#define CODEC_INT_MAX ((double)NET_SEQ_MAX)
#define ACTION_SUMMARY_MAX 200
#define STORE_OWNED_MAX 9
#define COUNT(a) (sizeof (a) / sizeof (a)[0])

/* What the strings of a decoded frame point into. */
struct frame_store {
	cJSON *root;
	const cJSON *event;             /* the event object of a durable/transient frame */
	cJSON *call_arguments;          /* an ActionEvent without action: its tool_call's arguments */
	char *src;                      /* event frames: a copy of the text cJSON read */
	size_t src_len;
	char *raw;                      /* made on demand by frame_event_json */
	char *arena;                    /* decoded without a tree: the strings (codec_fast.c) */
	size_t event_at;                /* ... and where the event's value is in src, else 0 */
	size_t owned_count;
	char *owned[STORE_OWNED_MAX];   /* composed strings (joined parts, summaries) */
	struct usage_stats stats;       /* a state update's usage */
	bool one_block;                 /* src and arena follow the struct in its allocation */
};

void codec_fail(struct codec_error *err, enum codec_status status, const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	err->status = status;
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
}

static int hex_value(const char *h)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = h[i];
		int d = c >= '0' && c <= '9' ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Whether json[0..len) holds a "\\u0000", "\\ud" or "\\uD" anywhere: one pass over the text,
 * stopping only at backslashes. */
static bool may_need_mending(const char *json, size_t len)
{
	const char *p = json, *end = json + len;
	while ((p = memchr(p, '\\', (size_t)(end - p))) != NULL) {
		size_t left = (size_t)(end - p);
		if (left >= 3 && p[1] == 'u' &&
		    (p[2] == 'd' || p[2] == 'D' || (left >= 6 && !memcmp(p + 2, "0000", 4))))
			return true;
		p++;
	}
	return false;
}

/* cJSON ends a string at an escaped NUL (the rest of a delta would be lost) and rejects a
 * whole frame over one lone surrogate escape. Both become \ufffd in a copy of the text
 * (same length, so error offsets still hold). Returns NULL when there is nothing to mend. */
static char *mend_escapes(const char *json, size_t len)
{
	if (!may_need_mending(json, len))
		return NULL;
	char *copy = xmalloc(len + 1);
	memcpy(copy, json, len);
	copy[len] = '\0';
	bool in_string = false;
	for (size_t i = 0; i < len; i++) {
		char c = copy[i];
		if (c == '"') {
			in_string = !in_string;
		} else if (in_string && c == '\\') {
			if (i + 5 < len && copy[i + 1] == 'u') {
				int v = hex_value(copy + i + 2);
				bool high = v >= 0xD800 && v <= 0xDBFF;
				int next = i + 11 < len && copy[i + 6] == '\\' && copy[i + 7] == 'u'
						   ? hex_value(copy + i + 8) : -1;
				if (high && next >= 0xDC00 && next <= 0xDFFF) {
					i += 11; /* a proper pair */
					continue;
				}
				if (v == 0 || (v >= 0xD800 && v <= 0xDFFF))
					memcpy(copy + i + 2, "fffd", 4);
				i += 5;
			} else {
				i++; /* the escaped character, whatever it is */
			}
		}
	}
	return copy;
}

static cJSON *parse_text(const char *json, size_t len, struct codec_error *err);

cJSON *codec_parse(const char *json, size_t len, struct codec_error *err)
{
	char *mended = NULL;
	cJSON *root = codec_parse_mended(json, len, err, &mended);
	free(mended);
	return root;
}

cJSON *codec_parse_mended(const char *json, size_t len, struct codec_error *err, char **mended)
{
	*mended = NULL;
	if (len > CODEC_MAX_INPUT) {
		codec_fail(err, CODEC_TOO_LARGE, "JSON of %zu bytes is over the %zu MiB limit", len,
			   CODEC_MAX_INPUT >> 20);
		return NULL;
	}
	if (!json || len == 0) {
		codec_fail(err, CODEC_MALFORMED_JSON, "empty input, expected JSON");
		return NULL;
	}
	*mended = mend_escapes(json, len);
	cJSON *root = parse_text(*mended ? *mended : json, len, err);
	if (!root) {
		free(*mended);
		*mended = NULL;
	}
	return root;
}

static cJSON *parse_text(const char *json, size_t len, struct codec_error *err)
{
	const char *end = NULL;
	/* cJSON's own trailing-data check wants a NUL inside len, so it is done below instead. */
	cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
	size_t at = end && end >= json && end <= json + len ? (size_t)(end - json) : len;
	if (!root) {
		/* cJSON also fails here on nesting deeper than CJSON_NESTING_LIMIT (1000). */
		codec_fail(err, CODEC_MALFORMED_JSON, "malformed JSON at byte %zu of %zu", at, len);
		return NULL;
	}
	while (at < len && json[at] && strchr(" \t\r\n", json[at]))
		at++;
	if (at < len) {
		cJSON_Delete(root);
		codec_fail(err, CODEC_MALFORMED_JSON, "unexpected data after the JSON value at byte %zu",
			   at);
		return NULL;
	}
	return root;
}

static void store_free(struct frame_store *st)
{
	if (!st)
		return;
	cJSON_Delete(st->root);
	cJSON_Delete(st->call_arguments);
	free(st->raw);
	if (!st->one_block) {
		free(st->src);
		free(st->arena);
	}
	usage_stats_fini(&st->stats);
	for (size_t i = 0; i < st->owned_count; i++)
		free(st->owned[i]);
	free(st);
}

static const char *store_own(struct frame_store *st, char *s)
{
	assert(st->owned_count < STORE_OWNED_MAX &&
	       "an event composes at most text, reasoning, summary, arguments, the whole action, "
	       "label and two parts");
	st->owned[st->owned_count++] = s;
	return s;
}

/* ------------------------------------------------------------- event fields */

static const cJSON *ev_object(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	return cJSON_IsObject(v) ? v : NULL;
}

static bool ev_int(const cJSON *obj, const char *name, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	double d = cJSON_IsNumber(v) ? v->valuedouble : 0.5;
	if (!(d >= -2147483648.0 && d <= 2147483647.0) || d != (double)(int)d)
		return false;
	*out = (int)d;
	return true;
}

/* Joins strings with sep, allocating only when there are two or more. */
struct joiner {
	const char *sep;
	const char *first;
	size_t count;
	struct buf joined;
};

static void joiner_add(struct joiner *j, const char *s)
{
	if (!s || !*s)
		return;
	if (j->count == 0) {
		j->first = s;
	} else {
		if (j->count == 1)
			buf_puts(&j->joined, j->first);
		buf_puts(&j->joined, j->sep);
		buf_puts(&j->joined, s);
	}
	j->count++;
}

static const char *joiner_finish(struct joiner *j, struct frame_store *st)
{
	if (j->count < 2)
		return j->first;
	return store_own(st, buf_steal(&j->joined));
}

static const char image_text[] = "[image]";

/* The display text of one content part: its text, "[image]" for images, else NULL. */
static const char *part_text(const cJSON *part)
{
	const char *type = ev_string(part, "type");
	if (!type || strcmp(type, "text") == 0)
		return ev_string(part, "text");
	if (strcmp(type, "image") == 0)
		return image_text;
	return NULL;
}

/* The parts as one text: text parts joined with sep, which is nothing where upstream shows a
 * message or an observation (content_to_str, then "".join), so that a secret split across two
 * parts reaches the masker whole; an image stands on a line of its own. A bare string (as
 * Message accepts) counts as one part. */
static const char *parts_text(struct frame_store *st, const cJSON *parts, const char *sep)
{
	if (cJSON_IsString(parts))
		return parts->valuestring;
	const char *first = NULL;
	size_t count = 0;
	bool last_image = false;
	struct buf joined;
	buf_init(&joined);
	const cJSON *part, *list = array_or_null(parts);
	cJSON_ArrayForEach(part, list) {
		const char *s = part_text(part);
		if (!s || !*s)
			continue;
		bool image = s == image_text;
		if (count == 1)
			buf_puts(&joined, first);
		if (count && (image || last_image))
			buf_putc(&joined, '\n');
		else if (count)
			buf_puts(&joined, sep);
		if (count)
			buf_puts(&joined, s);
		else
			first = s;
		last_image = image;
		count++;
	}
	if (count < 2) {
		buf_fini(&joined);
		return first;
	}
	return store_own(st, buf_steal(&joined));
}

/* Adds s unless the reasoning so far already holds it (providers repeat the same thoughts
 * in several fields: litellm fills reasoning_content from Anthropic's thinking blocks, and
 * some models also write them inline as <think>…</think>). */
static void reasoning_add(struct joiner *j, const char *s)
{
	if (!s || !*s)
		return;
	if (j->count == 1 && strstr(j->first, s))
		return;
	if (j->count > 1 && strstr(j->joined.data, s))
		return;
	joiner_add(j, s);
}

/* The reasoning of a Message or ActionEvent: reasoning_content, thinking blocks (redacted ones
 * carry no text), and the summary and content of an OpenAI Responses reasoning item. */
static void reasoning_fields(struct joiner *j, const cJSON *obj)
{
	reasoning_add(j, ev_string(obj, "reasoning_content"));
	const cJSON *block, *blocks = cJSON_GetObjectItemCaseSensitive(obj, "thinking_blocks");
	cJSON_ArrayForEach(block, array_or_null(blocks))
		reasoning_add(j, ev_string(block, "thinking"));
	const cJSON *item = ev_object(obj, "responses_reasoning_item");
	const char *lists[] = { "summary", "content" };
	for (size_t i = 0; i < 2; i++) {
		const cJSON *line, *list = cJSON_GetObjectItemCaseSensitive(item, lists[i]);
		cJSON_ArrayForEach(line, array_or_null(list))
			if (cJSON_IsString(line))
				reasoning_add(j, line->valuestring);
	}
}

/* Takes <think>…</think> out of *text (an unclosed one runs to the end) and adds what was
 * inside to the reasoning, trimmed; *text becomes the rest, NULL when nothing is left. */
static void take_inline_thinking(struct frame_store *st, const char **text, struct joiner *j)
{
	const char *open = *text ? strstr(*text, "<think>") : NULL;
	if (!open)
		return;
	struct buf rest, inner;
	buf_init(&rest);
	buf_init(&inner);
	const char *p = *text;
	while (open) {
		buf_append(&rest, p, (size_t)(open - p));
		const char *in = open + strlen("<think>");
		const char *close = strstr(in, "</think>");
		const char *in_end = close ? close : in + strlen(in);
		while (in < in_end && strchr(" \t\r\n", *in))
			in++;
		while (in_end > in && strchr(" \t\r\n", in_end[-1]))
			in_end--;
		buf_clear(&inner);
		buf_append(&inner, in, (size_t)(in_end - in));
		if (inner.len) {
			size_t before = j->count;
			reasoning_add(j, buf_cstr(&inner));
			/* joiner_add keeps the first string by pointer: give it one that lives on */
			if (j->count > before && j->count == 1)
				j->first = store_own(st, buf_steal(&inner));
		}
		p = close ? close + strlen("</think>") : in_end + strlen(in_end);
		open = strstr(p, "<think>");
	}
	buf_puts(&rest, p);
	size_t lead = 0;
	while (lead < rest.len && strchr(" \t\r\n", rest.data[lead]))
		lead++;
	*text = lead < rest.len ? store_own(st, xstrdup(rest.data + lead)) : NULL;
	buf_fini(&rest);
	buf_fini(&inner);
}

/* The text and reasoning of a message or an action's thought, each said once. */
static void text_and_reasoning(struct frame_store *st, const cJSON *parts, const cJSON *obj,
			       struct event *e)
{
	struct joiner j = { .sep = "\n\n" };
	e->text = parts_text(st, parts, "");
	reasoning_fields(&j, obj);
	take_inline_thinking(st, &e->text, &j);
	e->reasoning = joiner_finish(&j, st);
}

static void decode_tool_fields(const cJSON *ev, struct event *e)
{
	e->tool_name = ev_string(ev, "tool_name");
	e->tool_call_id = ev_string(ev, "tool_call_id");
}

/* Which action fields make the one-line summary, by action kind (protocol.md §5.3). */
static const struct summary_rule {
	const char *action_kind;        /* NULL: any other action */
	bool join;                      /* all present fields joined by a space, else the first */
	const char *fields[5];
} summary_rules[] = {
	{ "TerminalAction", false, { "command" } },
	{ "FileEditorAction", true, { "command", "path" } },
	{ "TaskTrackerAction", false, { "command" } },
	{ "GlobAction", false, { "pattern" } },
	{ "GrepAction", false, { "pattern" } },
	{ "FinishAction", false, { "message" } },
	/* The thought itself is the card's body: the header takes the LLM's own summary. */
	{ "ThinkAction", false, { NULL } },
	{ NULL, false, { "command", "path", "url", "pattern", "message" } },
};

/* Only line-breaking whitespace: other controls (ESC above all) stay for the display
 * sanitizer, which removes whole escape sequences. Turning ESC into a space would leave the
 * rest of a sequence as text, and a sequence inside a secret would then split it past the
 * masker. */
static bool is_line_break(char c)
{
	return c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f';
}

/* s on one line (line breaks and tabs become spaces), cut to ACTION_SUMMARY_MAX bytes at a
 * character boundary with "…" appended. composed is s when s was built here (it is then
 * owned), else NULL; s itself is returned when it needs no change. */
static const char *one_line(struct frame_store *st, const char *s, char *composed)
{
	size_t len = strlen(s), keep = len;
	if (len > ACTION_SUMMARY_MAX)
		keep = utf8_complete_prefix(s, ACTION_SUMMARY_MAX);
	size_t plain = 0;
	while (plain < keep && !is_line_break(s[plain]))
		plain++;
	if (plain == len)
		return composed ? store_own(st, composed) : s;
	char *line = composed && keep == len ? composed : xmalloc(keep + sizeof "…");
	for (size_t i = 0; i < keep; i++)
		line[i] = is_line_break(s[i]) ? ' ' : s[i];
	strcpy(line + keep, keep < len ? "…" : "");
	if (line != composed)
		free(composed);
	return store_own(st, line);
}

/* summary: the event's own, for an action whose fields say nothing. */
static const char *action_summary(struct frame_store *st, const char *summary,
				  const cJSON *action, const char *action_kind)
{
	const struct summary_rule *rule = summary_rules;
	while (rule->action_kind && !(action_kind && strcmp(rule->action_kind, action_kind) == 0))
		rule++;
	struct joiner j = { .sep = " " };
	/* A command of several lines: its first line here, the whole of it in the arguments. */
	const char *cmd = ev_string(action, "command");
	if (rule->fields[0] && strcmp(rule->fields[0], "command") == 0 && !rule->join && cmd &&
	    strchr(cmd, '\n')) {
		size_t first = strcspn(cmd, "\n");
		char *line = xmalloc(first + sizeof " …");
		memcpy(line, cmd, first);
		strcpy(line + first, " …");
		return one_line(st, line, line);
	}
	for (size_t i = 0; i < COUNT(rule->fields) && rule->fields[i] && (rule->join || j.count == 0);
	     i++)
		joiner_add(&j, ev_string(action, rule->fields[i]));
	if (j.count == 0)
		joiner_add(&j, summary);
	if (j.count == 0)
		return NULL;
	if (j.count == 1)
		return one_line(st, j.first, NULL);
	char *joined = buf_steal(&j.joined);
	return one_line(st, joined, joined);
}

/* Every argument of the action, whole, one "name: value" per field (strings as they are, line
 * breaks kept; other values as JSON): what a confirmation must show, never cut. Fields that
 * say nothing (false, null, empty) are left out; so is the kind. */
static const char *action_detail(struct frame_store *st, const cJSON *action)
{
	struct buf b;
	buf_init(&b);
	for (const cJSON *f = action ? action->child : NULL; f; f = f->next) {
		if (!f->string || strcmp(f->string, "kind") == 0 || cJSON_IsFalse(f) ||
		    cJSON_IsNull(f) || (cJSON_IsString(f) && !*f->valuestring))
			continue;
		if (b.len)
			buf_putc(&b, '\n');
		buf_printf(&b, "%s: ", f->string);
		if (cJSON_IsString(f)) {
			buf_puts(&b, f->valuestring);
		} else {
			char *json = cJSON_PrintUnformatted(f);
			buf_puts(&b, json ? json : "");
			cJSON_free(json);
		}
	}
	if (!b.len) {
		buf_fini(&b);
		return NULL;
	}
	return store_own(st, buf_steal(&b));
}

static const struct name_value {
	const char *name;
	int value;
} risk_names[] = {
	{ "UNKNOWN", RISK_UNKNOWN },
	{ "LOW", RISK_LOW },
	{ "MEDIUM", RISK_MEDIUM },
	{ "HIGH", RISK_HIGH },
}, run_status_names[] = {
	{ "idle", RUN_STATUS_IDLE },
	{ "running", RUN_STATUS_RUNNING },
	{ "paused", RUN_STATUS_PAUSED },
	{ "waiting_for_confirmation", RUN_STATUS_WAITING_FOR_CONFIRMATION },
	{ "finished", RUN_STATUS_FINISHED },
	{ "error", RUN_STATUS_ERROR },
	{ "stuck", RUN_STATUS_STUCK },
	{ "deleting", RUN_STATUS_DELETING },
}, source_names[] = {
	{ "agent", SOURCE_AGENT },
	{ "user", SOURCE_USER },
	{ "environment", SOURCE_ENVIRONMENT },
	{ "hook", SOURCE_HOOK },
}, action_type_names[] = {
	{ "FinishAction", TOOL_KIND_FINISH },
	{ "TerminalAction", TOOL_KIND_TERMINAL },
}, observation_type_names[] = {
	{ "FinishObservation", TOOL_KIND_FINISH },
	{ "TerminalObservation", TOOL_KIND_TERMINAL },
}, tool_names[] = {
	{ "finish", TOOL_KIND_FINISH },
	{ "terminal", TOOL_KIND_TERMINAL },
}, acp_status_names[] = {
	{ "pending", ACP_STATUS_PENDING },
	{ "in_progress", ACP_STATUS_IN_PROGRESS },
	{ "completed", ACP_STATUS_COMPLETED },
	{ "failed", ACP_STATUS_FAILED },
};

static int name_lookup(const struct name_value *table, size_t n, const char *name, int fallback)
{
	for (size_t i = 0; name && i < n; i++)
		if (strcmp(table[i].name, name) == 0)
			return table[i].value;
	return fallback;
}

static enum run_status run_status_of(const char *s)
{
	return s ? name_lookup(run_status_names, COUNT(run_status_names), s, RUN_STATUS_UNKNOWN)
		 : RUN_STATUS_ABSENT;
}

/* A tool field's name as a tool_kind: NONE when absent, OTHER when not in table. */
static enum tool_kind tool_kind_of(const struct name_value *table, size_t n, const char *s)
{
	return s ? name_lookup(table, n, s, TOOL_KIND_OTHER) : TOOL_KIND_NONE;
}

/* The protocol names of e decoded to enums, whichever decoder set them. */
static void decode_names(struct event *e)
{
	e->action_type = tool_kind_of(action_type_names, COUNT(action_type_names), e->action_kind);
	e->observation_type = tool_kind_of(observation_type_names, COUNT(observation_type_names),
					   e->observation_kind);
	e->tool = tool_kind_of(tool_names, COUNT(tool_names), e->tool_name);
	e->acp_status = e->tool_status ? name_lookup(acp_status_names, COUNT(acp_status_names),
						     e->tool_status, ACP_STATUS_UNKNOWN)
				       : ACP_STATUS_ABSENT;
}

static void decode_message(struct frame_store *st, const cJSON *ev, struct event *e)
{
	const cJSON *msg = ev_object(ev, "llm_message");
	e->role = ev_string(msg, "role");
	text_and_reasoning(st, cJSON_GetObjectItemCaseSensitive(msg, "content"), msg, e);
}

/* The action's summary, every argument, the arguments in words and the risk. */
static void action_fields(struct frame_store *st, const cJSON *action, const char *summary,
			  const char *risk, struct event *e)
{
	e->action_summary = action_summary(st, summary, action, e->action_kind);
	e->action_detail = action_detail(st, action);
	char *args = codec_tool_arguments(action, e->action_kind, ACTION_SUMMARY_MAX);
	/* A short thought or message is already the whole summary. */
	if (args && e->action_summary && strcmp(args, e->action_summary) == 0) {
		free(args);
		args = NULL;
	}
	e->arguments = args ? store_own(st, args) : NULL;
	e->risk = risk ? name_lookup(risk_names, COUNT(risk_names), risk, RISK_UNKNOWN) : RISK_ABSENT;
}

static void decode_action(struct frame_store *st, const cJSON *ev, struct event *e)
{
	text_and_reasoning(st, cJSON_GetObjectItemCaseSensitive(ev, "thought"), ev, e);
	decode_tool_fields(ev, e);
	const cJSON *action = ev_object(ev, "action");
	e->action_kind = ev_string(action, "kind");
	/* No action: the call was not executable (unknown tool, bad arguments; an AgentErrorEvent
	 * follows). What the model asked for is in tool_call.arguments, a JSON string. */
	if (!action) {
		const char *raw = ev_string(ev_object(ev, "tool_call"), "arguments");
		cJSON *parsed = raw ? cJSON_Parse(raw) : NULL;
		if (cJSON_IsObject(parsed)) {
			cJSON_DeleteItemFromObjectCaseSensitive(parsed, "security_risk");
			cJSON_DeleteItemFromObjectCaseSensitive(parsed, "summary");
			action = st->call_arguments = parsed;
		} else {
			cJSON_Delete(parsed);
		}
	}
	action_fields(st, action, ev_string(ev, "summary"), ev_string(ev, "security_risk"), e);
}

int codec_action_from_text(struct frame_store *st, const char *json, size_t len,
			   const char *summary, const char *risk, struct event *e)
{
	cJSON *action = codec_parse(json, len, NULL);
	if (!cJSON_IsObject(action)) {
		cJSON_Delete(action);
		return -1;
	}
	assert(!st->root && "a frame decoded from spans has no tree but its action's");
	st->root = action;
	e->action_kind = ev_string(action, "kind");
	action_fields(st, action, summary, risk, e);
	return 0;
}

/* exit_code -1 is upstream's "no exit code yet": the command hit the soft timeout and is still
 * running; timeout true is the hard timeout. metadata.exit_code is -1 by default, so it only
 * stands in for a missing top-level code when it holds a real one. */
static void decode_exit(const cJSON *obs, struct event *e)
{
	int top = 0, meta = 0;
	bool has_top = ev_int(obs, "exit_code", &top);
	bool has_meta = ev_int(ev_object(obs, "metadata"), "exit_code", &meta);
	if (has_top && top != -1) {
		e->exit_status = EXIT_STATUS_EXITED;
		e->exit_code = top;
	} else if (!has_top && has_meta && meta != -1) {
		e->exit_status = EXIT_STATUS_EXITED;
		e->exit_code = meta;
	} else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obs, "timeout"))) {
		e->exit_status = EXIT_STATUS_TIMED_OUT;
	} else if (has_top && !e->is_error) {
		e->exit_status = EXIT_STATUS_RUNNING;
	}
	e->has_exit_code = e->exit_status == EXIT_STATUS_EXITED;
}

bool codec_known_observation(const char *kind)
{
	static const char *const known[] = {
		"TerminalObservation", "ExecuteBashObservation", "FileEditorObservation",
		"StrReplaceEditorObservation", "TaskTrackerObservation", "ThinkObservation",
		"FinishObservation", "GlobObservation", "GrepObservation", "BrowserObservation",
		"MCPToolObservation",
	};
	for (size_t i = 0; i < COUNT(known); i++)
		if (strcmp(known[i], kind) == 0)
			return true;
	return false;
}

static void decode_observation(struct frame_store *st, const cJSON *ev, struct event *e)
{
	const cJSON *obs = ev_object(ev, "observation");
	decode_tool_fields(ev, e);
	e->observation_kind = ev_string(obs, "kind");
	/* MCPToolObservation's visualize ends each block with a line break: its first block is
	 * "[Tool 'name' executed.]", the tool's own blocks follow. */
	bool mcp = e->observation_kind && strcmp(e->observation_kind, "MCPToolObservation") == 0;
	e->text = parts_text(st, cJSON_GetObjectItemCaseSensitive(obs, "content"), mcp ? "\n" : "");
	e->is_error = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obs, "is_error"));
	decode_exit(obs, e);
	/* An edit's result is the change it made, as upstream's visualize shows it: the diff of
	 * the file before and after (its words only say that the file was edited). */
	const char *after = e->is_error ? NULL : ev_string(obs, "new_content");
	const char *cmd = after ? ev_string(obs, "command") : NULL;
	const char *path = cmd ? ev_string(obs, "path") : NULL;
	if (cmd && path && strcmp(cmd, "view") != 0) {
		const char *before = ev_string(obs, "old_content");
		char *diff = codec_edit_result(path, before ? before : "", after, true);
		if (diff)
			e->text = store_own(st, diff);
	}
	/* A tool this client does not know that says nothing in content: what came back, in words. */
	if (!e->text && e->observation_kind && !codec_known_observation(e->observation_kind)) {
		static const char *const skip[] = { "content", "is_error", "kind", NULL };
		char *kv = codec_kv_lines(obs, skip);
		e->text = kv ? store_own(st, kv) : NULL;
	}
	/* The terminal's note on a timeout ("[The command has no new output after 30 s …]"). */
	const char *suffix = ev_string(ev_object(obs, "metadata"), "suffix");
	while (suffix && *suffix == '\n')
		suffix++;
	if (suffix && *suffix && !(e->text && strstr(e->text, suffix))) {
		struct buf b;
		buf_init(&b);
		if (e->text)
			buf_printf(&b, "%s\n", e->text);
		buf_puts(&b, suffix);
		e->text = store_own(st, buf_steal(&b));
	}
}

static void decode_user_reject(struct frame_store *st, const cJSON *ev, struct event *e)
{
	(void)st;
	decode_tool_fields(ev, e);
	e->text = ev_string(ev, "rejection_reason");
	const char *by = ev_string(ev, "rejection_source");
	e->rejected_by_hook = by && strcmp(by, "hook") == 0;
}

static void decode_agent_error(struct frame_store *st, const cJSON *ev, struct event *e)
{
	(void)st;
	decode_tool_fields(ev, e);
	e->text = ev_string(ev, "error");
}

static void decode_conversation_error(struct frame_store *st, const cJSON *ev, struct event *e)
{
	(void)st;
	e->error_code = ev_string(ev, "code");
	e->text = ev_string(ev, "detail");
}

/* A confirmation policy's kind (openhands/sdk/security/confirmation_policy.py); false when
 * none is named. */
static bool policy_kind(const cJSON *policy, enum confirmation_policy *out)
{
	const char *kind = ev_string(policy, "kind");
	if (!kind)
		return false;
	*out = !strcmp(kind, "NeverConfirm") ? CONFIRMATION_POLICY_NEVER
	       : !strcmp(kind, "AlwaysConfirm") ? CONFIRMATION_POLICY_ALWAYS
	       : CONFIRMATION_POLICY_RISKY;
	return true;
}

static void decode_policy(const cJSON *policy, struct event *e)
{
	if (policy_kind(policy, &e->policy))
		e->has_policy = true;
}

/* The model of an agent as state.py serializes it: agent.llm.model. */
static const char *agent_model(const cJSON *agent)
{
	return ev_string(ev_object(agent, "llm"), "model");
}

static void decode_state_update(struct frame_store *st, const cJSON *ev, struct event *e)
{
	e->state_key = ev_string(ev, "key");
	if (!e->state_key)
		return;
	const cJSON *stats = NULL;
	if (strcmp(e->state_key, "execution_status") == 0) {
		e->execution_status = ev_string(ev, "value");
	} else if (strcmp(e->state_key, "full_state") == 0) {
		const cJSON *value = ev_object(ev, "value");
		e->execution_status = ev_string(value, "execution_status");
		e->leaf_event_id = ev_string(value, "leaf_event_id");
		e->head_is_empty = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(value,
										  "head_is_empty"));
		stats = ev_object(value, "stats");
		e->agent_model = agent_model(ev_object(value, "agent"));
		decode_policy(ev_object(value, "confirmation_policy"), e);
	} else if (strcmp(e->state_key, "stats") == 0) {
		stats = ev_object(ev, "value");
	} else if (strcmp(e->state_key, "agent") == 0) {
		e->agent_model = agent_model(ev_object(ev, "value"));
	} else if (strcmp(e->state_key, "confirmation_policy") == 0) {
		decode_policy(ev_object(ev, "value"), e);
	}
	e->run_status = run_status_of(e->execution_status);
	if (stats && codec_usage_decode(stats, &st->stats) == 0)
		e->stats = &st->stats;
}

static void decode_condensation(struct frame_store *st, const cJSON *ev, struct event *e)
{
	(void)st;
	e->text = ev_string(ev, "summary");
}

/* The prompt, the per-conversation context and the tools' names: Tab expands them. */
static void decode_system_prompt(struct frame_store *st, const cJSON *ev, struct event *e)
{
	struct joiner j = { .sep = "\n\n" };
	joiner_add(&j, ev_string(ev_object(ev, "system_prompt"), "text"));
	joiner_add(&j, ev_string(ev_object(ev, "dynamic_context"), "text"));
	struct buf tools;
	buf_init(&tools);
	const cJSON *tool, *list = cJSON_GetObjectItemCaseSensitive(ev, "tools");
	cJSON_ArrayForEach(tool, array_or_null(list)) {
		const char *name = ev_string(ev_object(tool, "annotations"), "title");
		if (!name)
			name = ev_string(tool, "name");
		if (!name)
			name = ev_string(tool, "kind");
		if (name)
			buf_printf(&tools, "%s%s", tools.len ? ", " : "tools: ", name);
	}
	if (tools.len)
		joiner_add(&j, buf_cstr(&tools));
	if (j.count == 1 && j.first == tools.data)
		j.first = store_own(st, buf_steal(&tools));
	e->text = joiner_finish(&j, st);
	buf_fini(&tools);
}

/* One ACP diff block as a unified diff (old_text, or ACP's oldText, absent: a file written
 * whole), else "edited PATH". */
static void acp_diff(struct buf *b, const cJSON *block)
{
	const char *path = ev_string(block, "path");
	const char *old = ev_string(block, "old_text"), *new = ev_string(block, "new_text");
	if (!old)
		old = ev_string(block, "oldText");
	if (!new)
		new = ev_string(block, "newText");
	char *diff = new ? codec_edit_result(path ? path : "a file", old ? old : "", new, !old)
			 : NULL;
	if (diff)
		buf_printf(b, "%s%s", b->len ? "\n" : "", diff);
	else
		buf_printf(b, "%sedited %s", b->len ? "\n" : "", path ? path : "a file");
	free(diff);
}

/* Text of ACP content blocks: diffs first (so that the text opens with one), then text
 * blocks and content blocks wrapping text. */
static void acp_content_text(struct buf *b, const cJSON *blocks)
{
	const cJSON *block;
	cJSON_ArrayForEach(block, array_or_null(blocks)) {
		const char *type = ev_string(block, "type");
		if (type && strcmp(type, "diff") == 0)
			acp_diff(b, block);
	}
	cJSON_ArrayForEach(block, array_or_null(blocks)) {
		const char *type = ev_string(block, "type");
		const char *text = ev_string(block, "text");
		if (!text)
			text = ev_string(ev_object(block, "content"), "text");
		if (text && !(type && strcmp(type, "diff") == 0))
			buf_printf(b, "%s%s", b->len ? "\n" : "", text);
	}
}

static void decode_acp_tool_call(struct frame_store *st, const cJSON *ev, struct event *e)
{
	e->tool_name = ev_string(ev, "title");
	e->tool_call_id = ev_string(ev, "tool_call_id");
	e->tool_status = ev_string(ev, "status");
	e->is_error = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "is_error"));
	const char *kind = ev_string(ev, "tool_kind");
	e->action_summary = kind ? one_line(st, kind, NULL) : NULL; /* a summary: one line, cut */
	const cJSON *in = cJSON_GetObjectItemCaseSensitive(ev, "raw_input");
	char *args = cJSON_IsString(in) ? xstrdup(in->valuestring) : codec_kv_lines(in, NULL);
	e->arguments = args ? store_own(st, args) : NULL;
	const cJSON *out = cJSON_GetObjectItemCaseSensitive(ev, "raw_output");
	struct buf b;
	buf_init(&b);
	if (cJSON_IsString(out)) {
		buf_puts(&b, out->valuestring);
	} else if (out && !cJSON_IsNull(out)) {
		char *kv = codec_kv_lines(out, NULL);
		if (kv)
			buf_puts(&b, kv);
		free(kv);
	}
	if (!b.len)
		acp_content_text(&b, cJSON_GetObjectItemCaseSensitive(ev, "content"));
	e->text = b.len ? store_own(st, buf_steal(&b)) : NULL;
	buf_fini(&b);
}

/* s without the white space around it. */
static void trimmed(const char *s, const char **start, size_t *len)
{
	size_t n = strlen(s);
	while (n && strchr(" \t\r\n", s[n - 1]))
		n--;
	while (n && strchr(" \t\r\n", *s)) {
		s++;
		n--;
	}
	*start = s;
	*len = n;
}

/* Whether v, white space aside, is blank or one of the n strings already shown. */
static bool said_before(const char *const *shown, size_t n, const char *v)
{
	const char *a;
	size_t alen;
	trimmed(v, &a, &alen);
	for (size_t i = 0; i < n; i++) {
		const char *b;
		size_t blen;
		trimmed(shown[i], &b, &blen);
		if (alen == blen && memcmp(a, b, alen) == 0)
			return true;
	}
	return !alen;
}

/* Whether a hook's stdout is only its JSON answer, whose fields upstream already decoded into
 * the event (decision and continue into blocked, reason, additionalContext). */
static bool hook_answer_only(const char *out)
{
	static const char *const answer[] = {
		"decision", "reason", "additionalContext", "continue",
	};
	cJSON *j = cJSON_Parse(out);
	bool only = cJSON_IsObject(j) && j->child;
	for (const cJSON *f = only ? j->child : NULL; f && only; f = f->next) {
		bool known = false;
		for (size_t i = 0; f->string && i < COUNT(answer); i++)
			known = known || strcmp(f->string, answer[i]) == 0;
		only = known;
	}
	cJSON_Delete(j);
	return only;
}

/* "hook PreToolUse (terminal): blocked", and its reason, error and output as the text. */
static void decode_hook(struct frame_store *st, const cJSON *ev, struct event *e)
{
	const char *type = ev_string(ev, "hook_event_type");
	e->tool_name = ev_string(ev, "tool_name");
	bool blocked = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "blocked"));
	bool ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "success"));
	e->is_error = !ok && !blocked;
	e->has_exit_code = ev_int(ev, "exit_code", &e->exit_code);
	e->exit_status = e->has_exit_code ? EXIT_STATUS_EXITED : EXIT_STATUS_NONE;
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "hook %s", type ? type : "");
	if (e->tool_name)
		buf_printf(&b, " (%s)", e->tool_name);
	buf_puts(&b, blocked ? ": blocked" : ok ? ": ok" : ": failed");
	if (e->has_exit_code && e->exit_code)
		buf_printf(&b, " (exit %d)", e->exit_code);
	e->label = store_own(st, buf_steal(&b));
	buf_init(&b);
	/* Upstream fills several fields with one message (a hook that fails open has it as both
	 * reason and error; a deny's reason is also in the JSON it printed): each once. */
	static const char *const fields[] = { "reason", "error", "additional_context", "stdout", "stderr" };
	const char *shown[COUNT(fields)];
	size_t nshown = 0;
	for (size_t i = 0; i < COUNT(fields); i++) {
		const char *v = ev_string(ev, fields[i]);
		if (!v || !*v || said_before(shown, nshown, v) ||
		    (strcmp(fields[i], "stdout") == 0 && hook_answer_only(v)))
			continue;
		buf_printf(&b, "%s%s", b.len ? "\n" : "", v);
		shown[nshown++] = v;
	}
	const char *cmd = ev_string(ev, "hook_command");
	if (cmd && *cmd)
		buf_printf(&b, "%scommand: %s", b.len ? "\n" : "", cmd);
	e->text = b.len ? store_own(st, buf_steal(&b)) : NULL;
	buf_fini(&b);
}

/* A kind this client does not know: its name in words and its fields as key: value lines. */
static void decode_unknown(struct frame_store *st, const cJSON *ev, struct event *e)
{
	static const char *const skip[] = { "id", "timestamp", "source", "kind", NULL };
	e->label = store_own(st, codec_kind_words(e->kind_name));
	char *kv = codec_kv_lines(ev, skip);
	e->text = kv ? store_own(st, kv) : NULL;
}

/* Dispatch on the top-level event.kind (§5.1); nested objects' kinds never count. */
static const struct kind_rule {
	const char *name;
	enum event_kind kind;
	void (*decode)(struct frame_store *st, const cJSON *ev, struct event *e);
} kind_rules[] = {
	{ "MessageEvent", EVENT_MESSAGE, decode_message },
	{ "ActionEvent", EVENT_ACTION, decode_action },
	{ "ObservationEvent", EVENT_OBSERVATION, decode_observation },
	{ "UserRejectObservation", EVENT_USER_REJECT, decode_user_reject },
	{ "AgentErrorEvent", EVENT_AGENT_ERROR, decode_agent_error },
	{ "ConversationErrorEvent", EVENT_CONVERSATION_ERROR, decode_conversation_error },
	{ "PauseEvent", EVENT_PAUSE, NULL },
	{ "InterruptEvent", EVENT_INTERRUPT, NULL },
	{ "ConversationStateUpdateEvent", EVENT_STATE_UPDATE, decode_state_update },
	{ "SystemPromptEvent", EVENT_SYSTEM_PROMPT, decode_system_prompt },
	{ "Condensation", EVENT_CONDENSATION, decode_condensation },
	{ "CondensationSummaryEvent", EVENT_CONDENSATION, decode_condensation },
	{ "CondensationRequest", EVENT_CONDENSATION, NULL },
	{ "ACPToolCallEvent", EVENT_ACP_TOOL_CALL, decode_acp_tool_call },
	{ "HookExecutionEvent", EVENT_HOOK, decode_hook },
	{ "LLMCompletionLogEvent", EVENT_LLM_LOG, NULL },
};

static void decode_event(struct frame_store *st, const cJSON *ev, struct event *e)
{
	memset(e, 0, sizeof *e);
	e->kind_name = ev_string(ev, "kind");
	e->id = ev_string(ev, "id");
	e->timestamp = ev_string(ev, "timestamp");
	e->parent_id = ev_string(ev, "parent_id");
	e->source = name_lookup(source_names, COUNT(source_names), ev_string(ev, "source"),
				SOURCE_UNKNOWN);
	for (size_t i = 0; e->kind_name && i < COUNT(kind_rules); i++) {
		if (strcmp(kind_rules[i].name, e->kind_name) != 0)
			continue;
		e->kind = kind_rules[i].kind;
		if (kind_rules[i].decode)
			kind_rules[i].decode(st, ev, e);
		break;
	}
	if (e->kind == EVENT_UNKNOWN)
		decode_unknown(st, ev, e);
	decode_names(e);
	/* The JSON text is made only when asked for: most consumers never need it. */
	st->event = ev;
}

void codec_event_names(struct event *e, const char *source)
{
	e->source = name_lookup(source_names, COUNT(source_names), source, SOURCE_UNKNOWN);
	e->run_status = run_status_of(e->execution_status);
	decode_names(e);
}

struct frame_store *codec_store_for_text(const char *json, size_t len, size_t event_at,
					 char **arena)
{
	/* One allocation per frame: the store, then the text, then room for its strings. */
	struct frame_store *st = xmalloc(sizeof *st + 2 * (len + 1));
	memset(st, 0, sizeof *st);
	st->one_block = true;
	st->src = (char *)(st + 1);
	memcpy(st->src, json, len);
	st->src[len] = '\0';
	st->src_len = len;
	st->event_at = event_at;
	*arena = st->arena = st->src + len + 1;
	return st;
}

struct frame_store *codec_event_decode(const cJSON *ev, struct event *e)
{
	struct frame_store *st = xcalloc(1, sizeof *st);
	decode_event(st, ev, e);
	return st;
}

void codec_store_free(struct frame_store *st)
{
	store_free(st);
}

char *codec_store_event_json(const struct frame_store *st)
{
	return st && st->event ? cJSON_PrintUnformatted(st->event) : NULL;
}

/* Where the event's value starts in the frame's text (numbers are copied from there as
 * written) and how much text follows: the rewrite reads one value and stops at its end, so
 * the value is not walked once more just to measure it. */
static int event_span(const struct frame_store *st, const char **at, size_t *len)
{
	if (st && st->event_at)
		*at = st->src + st->event_at;
	else if (!st || !st->event || codec_find_member(st->src, st->src_len, "event", at, NULL) < 0)
		return -1;
	*len = st->src_len - (size_t)(*at - st->src);
	return 0;
}

const char *frame_event_json(const struct frame *f, size_t *len)
{
	struct frame_store *st = f->priv_;
	*len = 0;
	if (!st || (!st->event && !st->event_at))
		return NULL;
	if (!st->raw) {
		struct buf b;
		buf_init(&b);
		if (frame_event_rewrite(f, NULL, NULL, &b) < 0) {
			buf_fini(&b);
			return NULL;
		}
		st->raw = buf_steal(&b);
	}
	*len = strlen(st->raw);
	return st->raw;
}

static int event_rewrite(const struct frame *f, json_string_fn fn, void *ctx, bool kept_plain,
			 struct buf *out)
{
	struct frame_store *st = f->priv_;
	const char *at;
	size_t n;
	if (event_span(st, &at, &n) < 0)
		return -1;
	/* Text the span scanner took is strict JSON: numbers need no mending, so a plain event
	 * is copied in one pass (a history's tool outputs are nearly all such). */
	if (kept_plain && st->event_at && codec_rewrite_kept_flat(at, n, out))
		return 0;
	codec_rewrite_text(at, n, fn, ctx, kept_plain, out);
	return 0;
}

int frame_event_rewrite(const struct frame *f, json_string_fn fn, void *ctx, struct buf *out)
{
	return event_rewrite(f, fn, ctx, false, out);
}

int frame_event_rewrite_kept(const struct frame *f, json_string_fn fn, void *ctx,
			     struct buf *out)
{
	return event_rewrite(f, fn, ctx, true, out);
}

/* ---------------------------------------------------------------- envelope */

/* The frame being decoded, for field lookups that report errors by frame type. */
struct envelope {
	const cJSON *obj;
	const char *type;
	struct codec_error *err;
};

/* Reports a missing field (must is NULL) or one that is not what it must be. */
static void field_fail(const struct envelope *env, const char *name, const char *must)
{
	const char *sep = env->type[0] ? " " : "";
	if (must)
		codec_fail(env->err, CODEC_WRONG_TYPE, "%s%sframe: \"%s\" must be %s", env->type, sep,
			   name, must);
	else
		codec_fail(env->err, CODEC_MISSING_FIELD, "%s%sframe: missing \"%s\"", env->type, sep,
			   name);
}

/* A JSON null counts as absent: the server leaves null fields out anyway (§1.4). */
static const cJSON *field(const struct envelope *env, const char *name, bool required)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(env->obj, name);
	if (cJSON_IsNull(v))
		v = NULL;
	if (!v && required)
		field_fail(env, name, NULL);
	return v;
}

static int field_string(const struct envelope *env, const char *name, bool required,
			const char **out)
{
	const cJSON *v = field(env, name, required);
	if (!v)
		return required ? -1 : 0;
	if (!cJSON_IsString(v)) {
		field_fail(env, name, "a string");
		return -1;
	}
	*out = v->valuestring;
	return 0;
}

/* The accepted range of an integer field, and how to name it in an error. */
struct int_range {
	double min, max;
	const char *what;
};

static const struct int_range any_int = { -CODEC_INT_MAX, CODEC_INT_MAX, "an integer" };
static const struct int_range non_negative = { 0, CODEC_INT_MAX, "a non-negative integer" };
static const struct int_range attempt_range = { 1, 2147483647.0, "a positive integer" };

static int field_int(const struct envelope *env, const char *name, bool required,
		     const struct int_range *range, bool *has, int64_t *out)
{
	const cJSON *v = field(env, name, required);
	if (!v)
		return required ? -1 : 0;
	double d = cJSON_IsNumber(v) ? v->valuedouble : 0.5;
	if (!(d >= range->min && d <= range->max) || d != (double)(int64_t)d) {
		field_fail(env, name, range->what);
		return -1;
	}
	*out = (int64_t)d;
	if (has)
		*has = true;
	return 0;
}

static int field_attempt(const struct envelope *env, struct frame *f)
{
	int64_t attempt = 1;
	if (field_int(env, "attempt", false, &attempt_range, NULL, &attempt) < 0)
		return -1;
	f->attempt = (int)attempt;
	return 0;
}

static int field_event(const struct envelope *env, struct frame_store *st, struct frame *f)
{
	const cJSON *ev = field(env, "event", true);
	if (!ev)
		return -1;
	if (!cJSON_IsObject(ev)) {
		field_fail(env, "event", "an object");
		return -1;
	}
	decode_event(st, ev, &f->event);
	return 0;
}

static int decode_sync(const struct envelope *env, struct frame_store *st, struct frame *f)
{
	(void)st;
	if (field_int(env, "from_seq", false, &any_int, &f->has_from_seq, &f->from_seq) < 0)
		return -1;
	return field_int(env, "through_seq", false, &any_int, &f->has_through_seq, &f->through_seq);
}

static int decode_durable(const struct envelope *env, struct frame_store *st, struct frame *f)
{
	if (field_int(env, "seq", true, &non_negative, NULL, &f->seq) < 0)
		return -1;
	return field_event(env, st, f);
}

static int decode_transient(const struct envelope *env, struct frame_store *st, struct frame *f)
{
	return field_event(env, st, f);
}

static int decode_item_started(const struct envelope *env, struct frame_store *st,
			       struct frame *f)
{
	(void)st;
	if (field_string(env, "item_id", true, &f->item_id) < 0 || field_attempt(env, f) < 0)
		return -1;
	return field_int(env, "anchor_seq", false, &any_int, &f->has_anchor_seq, &f->anchor_seq);
}

static int decode_delta(const struct envelope *env, struct frame_store *st, struct frame *f)
{
	(void)st;
	const char *kind = "text";
	if (field_string(env, "item_id", true, &f->item_id) < 0 || field_attempt(env, f) < 0 ||
	    field_int(env, "order", true, &non_negative, NULL, &f->order) < 0 ||
	    field_string(env, "kind", false, &kind) < 0 ||
	    field_string(env, "content", true, &f->content) < 0 ||
	    field_string(env, "chunk_id", false, &f->chunk_id) < 0 ||
	    field_int(env, "choice_index", false, &any_int, &f->has_choice_index,
		      &f->choice_index) < 0)
		return -1;
	if (strcmp(kind, "text") != 0 && strcmp(kind, "reasoning") != 0) {
		field_fail(env, "kind", "\"text\" or \"reasoning\"");
		return -1;
	}
	f->delta_kind = kind[0] == 'r' ? DELTA_REASONING : DELTA_TEXT;
	f->content_len = strlen(f->content);
	return 0;
}

static int decode_item_aborted(const struct envelope *env, struct frame_store *st,
			       struct frame *f)
{
	(void)st;
	if (field_string(env, "item_id", true, &f->item_id) < 0 || field_attempt(env, f) < 0)
		return -1;
	return field_string(env, "reason", true, &f->reason);
}

static int decode_error(const struct envelope *env, struct frame_store *st, struct frame *f)
{
	(void)st;
	if (field_string(env, "code", true, &f->code) < 0)
		return -1;
	return field_string(env, "detail", true, &f->detail);
}

static const struct frame_rule {
	const char *name;
	enum frame_type type;
	int (*decode)(const struct envelope *env, struct frame_store *st, struct frame *f);
} frame_rules[] = {
	{ "sync", FRAME_SYNC, decode_sync },
	{ "durable", FRAME_DURABLE, decode_durable },
	{ "transient", FRAME_TRANSIENT, decode_transient },
	{ "item_started", FRAME_ITEM_STARTED, decode_item_started },
	{ "delta", FRAME_DELTA, decode_delta },
	{ "item_aborted", FRAME_ITEM_ABORTED, decode_item_aborted },
	{ "error", FRAME_ERROR, decode_error },
};

int frame_decode(const char *json, size_t len, struct frame *out, struct codec_error *err)
{
	struct frame_store *fast;
	memset(out, 0, sizeof *out);
	if (len <= CODEC_MAX_INPUT && json && codec_fast_decode(json, len, out, &fast) == 0) {
		if (err)
			memset(err, 0, sizeof *err);
		out->priv_ = fast;
		return 0;
	}
	return codec_frame_decode_tree(json, len, out, err);
}

int codec_frame_decode_tree(const char *json, size_t len, struct frame *out,
			    struct codec_error *err)
{
	memset(out, 0, sizeof *out);
	if (err)
		memset(err, 0, sizeof *err);
	char *mended = NULL;
	cJSON *root = codec_parse_mended(json, len, err, &mended);
	if (!root)
		return -1;
	struct frame_store *st = xcalloc(1, sizeof *st);
	st->root = root;
	st->src = mended;
	st->src_len = len;
	out->priv_ = st;
	struct envelope env = { .obj = root, .type = "", .err = err };
	if (!cJSON_IsObject(root)) {
		codec_fail(err, CODEC_NOT_OBJECT, "frame is not a JSON object");
		goto fail;
	}
	if (field_string(&env, "type", true, &out->type_name) < 0)
		goto fail;
	env.type = out->type_name;
	for (size_t i = 0; i < COUNT(frame_rules); i++) {
		if (strcmp(frame_rules[i].name, out->type_name) != 0)
			continue;
		out->type = frame_rules[i].type;
		if (frame_rules[i].decode(&env, st, out) < 0)
			goto fail;
		break;
	}
	/* The event's JSON is re-read from the text (numbers as written) after json is gone. */
	if (st->event && !st->src) {
		st->src = xmalloc(len + 1);
		memcpy(st->src, json, len);
		st->src[len] = '\0';
	}
	return 0;
fail:
	frame_fini(out);
	return -1;
}

void frame_fini(struct frame *f)
{
	store_free(f->priv_);
	memset(f, 0, sizeof *f);
}

/* ---------------------------------------------------------------- encoders */

char *frame_encode_auth(const char *session_api_key)
{
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "{\"type\":\"auth\",\"session_api_key\":");
	json_append_string(&b, session_api_key, session_api_key ? strlen(session_api_key) : 0);
	buf_putc(&b, '}');
	return buf_steal(&b);
}

/* Escaped by json_append_string, so the text frame is valid UTF-8 whatever the user typed:
 * a WebSocket peer must close on invalid UTF-8 in a text message (RFC 6455 §8.1). */
static char *encode_user_message(const char *text, bool run)
{
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":");
	json_append_string(&b, text, text ? strlen(text) : 0);
	buf_puts(&b, run ? "}],\"run\":true}" : "}]}");
	return buf_steal(&b);
}

char *frame_encode_user_message(const char *text)
{
	return encode_user_message(text, false);
}

char *rest_encode_user_message(const char *text)
{
	return encode_user_message(text, true);
}

void frame_encode_delta(const struct frame *f, const char *item_id, const char *content,
			size_t len, json_string_fn fn, void *ctx, struct buf *out)
{
	buf_puts(out, "{\"type\":\"delta\",\"item_id\":");
	json_append_string(out, item_id, strlen(item_id));
	buf_printf(out, ",\"attempt\":%d,\"order\":%lld,\"kind\":\"%s\",\"content\":", f->attempt,
		   (long long)f->order, f->delta_kind == DELTA_REASONING ? "reasoning" : "text");
	json_append_string(out, content, len);
	if (f->chunk_id) {
		struct buf chunk;
		buf_init(&chunk);
		if (fn)
			fn(ctx, f->chunk_id, strlen(f->chunk_id), &chunk);
		else
			buf_puts(&chunk, f->chunk_id);
		buf_puts(out, ",\"chunk_id\":");
		json_append_string(out, chunk.data ? chunk.data : "", chunk.len);
		buf_fini(&chunk);
	}
	if (f->has_choice_index)
		buf_printf(out, ",\"choice_index\":%lld", (long long)f->choice_index);
	buf_putc(out, '}');
}

/* ------------------------------------------------------ conversation lists */

static void conversation_info_fill(struct conversation_info *ci, const cJSON *obj)
{
	const char *updated = ev_string(obj, "updated_at");
	ci->id = xstrdup(ev_string(obj, "id"));
	ci->title = xstrdup(ev_string(obj, "title"));
	ci->execution_status = xstrdup(ev_string(obj, "execution_status"));
	ci->run_status = run_status_of(ci->execution_status);
	ci->updated_at = xstrdup(updated ? updated : ev_string(obj, "created_at"));
	ci->has_stats = codec_usage_decode(ev_object(obj, "stats"), &ci->stats) == 0;
	ci->leaf_event_id = xstrdup(ev_string(obj, "leaf_event_id"));
	ci->model = xstrdup(agent_model(ev_object(obj, "agent")));
	ci->has_policy = policy_kind(ev_object(obj, "confirmation_policy"), &ci->policy);
}

int conversation_list_decode(const char *json, size_t len, struct conversation_info **items,
			     size_t *count, char **next_page_id, struct codec_error *err)
{
	*items = NULL;
	*count = 0;
	if (next_page_id)
		*next_page_id = NULL;
	cJSON *root = codec_parse_object(json, len, "conversation list", err);
	const cJSON *list;
	if (!root)
		return -1;
	int rc = codec_member(root, "conversation list", "items", cJSON_Array, false, &list, err);
	if (rc == 0 && !list && !ev_string(root, "id")) {
		codec_fail(err, CODEC_MISSING_FIELD, "conversation: missing \"id\"");
		rc = -1;
	} else if (rc == 0 && !list) {
		*items = xcalloc(1, sizeof **items);
		conversation_info_fill(*items, root);
		*count = 1;
	} else if (rc == 0) {
		/* Items without an id cannot be opened: they are left out. */
		*items = xcalloc((size_t)cJSON_GetArraySize(list), sizeof **items);
		const cJSON *item;
		cJSON_ArrayForEach(item, list)
			if (ev_string(item, "id"))
				conversation_info_fill(&(*items)[(*count)++], item);
		if (*count == 0) {
			free(*items);
			*items = NULL;
		}
		if (next_page_id)
			*next_page_id = xstrdup(ev_string(root, "next_page_id"));
	}
	cJSON_Delete(root);
	return rc;
}

int event_count_decode(const char *json, size_t len, int64_t *count, struct codec_error *err)
{
	*count = 0;
	if (err)
		memset(err, 0, sizeof *err);
	cJSON *root = codec_parse(json, len, err);
	if (!root)
		return -1;
	double v = cJSON_IsNumber(root) ? root->valuedouble : -1;
	int rc = -1;
	if (!(v >= 0 && v <= (double)NET_SEQ_MAX && v == (double)(int64_t)v)) {
		codec_fail(err, CODEC_WRONG_TYPE, "event count: not a whole number of events");
	} else {
		*count = (int64_t)v;
		rc = 0;
	}
	cJSON_Delete(root);
	return rc;
}

void conversation_infos_free(struct conversation_info *items, size_t count)
{
	for (size_t i = 0; items && i < count; i++) {
		free(items[i].id);
		free(items[i].title);
		free(items[i].execution_status);
		free(items[i].updated_at);
		usage_stats_fini(&items[i].stats);
		free(items[i].leaf_event_id);
		free(items[i].model);
	}
	free(items);
}
