/* The legacy events socket's frames (upstream sockets.py, events_socket): each is an event's
 * own JSON, told apart by its kind. Only what the adapter acts on is read here; the event
 * itself is decoded as a durable frame's is, once it is wrapped as one. */
#include "codec_int.h"
#include "legacy_int.h"

#include <stdlib.h>
#include <string.h>

/* A JSON null or a field of another type reads as absent (servers before v1.31.2 send
 * every null field). */
static char *dup_string(const cJSON *obj, const char *name, bool keep_empty)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	if (!cJSON_IsString(v) || (!keep_empty && !v->valuestring[0]))
		return NULL;
	return xstrdup(v->valuestring);
}

static bool is_kind(const char *kind, const char *name)
{
	return kind && !strcmp(kind, name);
}

/* A state update that says the run is no longer going: an execution_status other than
 * running, as the key's value or inside full_state. */
static bool state_ends_run(const cJSON *ev, const char *key)
{
	const cJSON *value = cJSON_GetObjectItemCaseSensitive(ev, "value");
	const cJSON *status = NULL;
	if (is_kind(key, "execution_status"))
		status = value;
	else if (is_kind(key, "full_state") && cJSON_IsObject(value))
		status = cJSON_GetObjectItemCaseSensitive(value, "execution_status");
	return cJSON_IsString(status) && strcmp(status->valuestring, "running") != 0;
}

int legacy_peek_decode(const char *json, size_t len, struct legacy_peek *out,
		       struct codec_error *err)
{
	memset(out, 0, sizeof *out);
	if (err)
		memset(err, 0, sizeof *err);
	cJSON *ev = codec_parse(json, len, err);
	if (!ev)
		return -1;
	const cJSON *kind_v = cJSON_GetObjectItemCaseSensitive(ev, "kind");
	if (!cJSON_IsObject(ev) || !cJSON_IsString(kind_v)) {
		codec_fail(err, cJSON_IsObject(ev) ? CODEC_MISSING_FIELD : CODEC_NOT_OBJECT,
			   "legacy frame: not an event (no \"kind\")");
		cJSON_Delete(ev);
		return -1;
	}
	const char *kind = kind_v->valuestring;
	out->id = dup_string(ev, "id", false);
	out->timestamp = dup_string(ev, "timestamp", false);
	out->from_agent = is_kind(ev_string(ev, "source"), "agent");
	out->cls = LEGACY_EVENT;
	if (is_kind(kind, "StreamingDeltaEvent")) {
		out->cls = LEGACY_DELTA;
		out->content = dup_string(ev, "content", false);
		out->reasoning = dup_string(ev, "reasoning_content", false);
	} else if (is_kind(kind, "ServerErrorEvent")) {
		out->cls = LEGACY_ERROR;
		out->ends_run = true;
		out->code = dup_string(ev, "code", false);
		out->detail = dup_string(ev, "detail", true);
	} else if (is_kind(kind, "ConversationStateUpdateEvent")) {
		const char *key = ev_string(ev, "key");
		if (is_kind(key, "full_state"))
			out->cls = LEGACY_SNAPSHOT;
		out->ends_run = state_ends_run(ev, key);
	} else if (is_kind(kind, "ConversationErrorEvent")) {
		out->ends_run = true;
	}
	cJSON_Delete(ev);
	return 0;
}

void legacy_peek_fini(struct legacy_peek *p)
{
	free(p->id);
	free(p->timestamp);
	free(p->content);
	free(p->reasoning);
	free(p->code);
	free(p->detail);
	memset(p, 0, sizeof *p);
}
