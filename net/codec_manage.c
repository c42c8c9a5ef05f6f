/* The answers of the calls that manage conversations (issue 25): /server_info's version,
 * agent and LLM profiles, {"success": …}, ask_agent's answer, and the words of an error
 * body. */
#include "codec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void server_version_parse(const char *text, struct server_version *out)
{
	memset(out, 0, sizeof *out);
	size_t n = 0;
	for (const char *p = text ? text : ""; *p && n + 1 < sizeof out->text; p++)
		out->text[n++] = *p >= 0x21 && *p <= 0x7e ? *p : '?';
	int used = 0;
	out->known = sscanf(out->text, "%d.%d.%d%n", &out->major, &out->minor, &out->patch,
			    &used) == 3 && used > 0 && out->major >= 0 && out->minor >= 0 &&
		     out->patch >= 0;
	if (!out->known)
		out->major = out->minor = out->patch = 0;
}

int server_info_decode(const char *json, size_t len, struct server_version *out,
		       struct codec_error *err)
{
	memset(out, 0, sizeof *out);
	cJSON *root = codec_parse_object(json, len, "server info", err);
	const cJSON *v;
	if (!root)
		return -1;
	int rc = codec_member(root, "server info", "version", cJSON_String, true, &v, err);
	if (rc == 0)
		server_version_parse(v->valuestring, out);
	cJSON_Delete(root);
	return rc;
}

/* Items without a name are left out: nothing could name them. */
static void agent_fill(struct profile_list *out, const cJSON *list)
{
	const cJSON *item;
	out->agents = xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof *out->agents);
	cJSON_ArrayForEach(item, list) {
		if (!ev_string(item, "name"))
			continue;
		struct agent_profile *a = &out->agents[out->count++];
		a->id = xstrdup(ev_string(item, "id"));
		a->name = xstrdup(ev_string(item, "name"));
		a->agent_kind = xstrdup(ev_string(item, "agent_kind"));
		a->llm_profile = xstrdup(ev_string(item, "llm_profile_ref"));
	}
}

static void llm_fill(struct profile_list *out, const cJSON *list)
{
	const cJSON *item;
	out->llms = xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof *out->llms);
	cJSON_ArrayForEach(item, list) {
		if (!ev_string(item, "name"))
			continue;
		struct llm_profile *l = &out->llms[out->count++];
		l->name = xstrdup(ev_string(item, "name"));
		l->model = xstrdup(ev_string(item, "model"));
		l->api_key_set = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "api_key_set"));
	}
}

int profile_list_decode(const char *json, size_t len, bool agents, struct profile_list *out,
			struct codec_error *err)
{
	const char *what = agents ? "agent profiles" : "LLM profiles";
	const char *active_key = agents ? "active_agent_profile_id" : "active_profile";
	memset(out, 0, sizeof *out);
	cJSON *root = codec_parse_object(json, len, what, err);
	const cJSON *list, *active;
	if (!root)
		return -1;
	int rc = codec_member(root, what, "profiles", cJSON_Array, true, &list, err) ||
		 codec_member(root, what, active_key, cJSON_String | cJSON_NULL, false, &active,
			      err) ? -1 : 0;
	if (rc == 0) {
		if (agents)
			agent_fill(out, list);
		else
			llm_fill(out, list);
		out->active = xstrdup(cJSON_IsString(active) ? active->valuestring : NULL);
	}
	cJSON_Delete(root);
	return rc;
}

void profile_list_fini(struct profile_list *p)
{
	for (size_t i = 0; p->agents && i < p->count; i++) {
		free(p->agents[i].id);
		free(p->agents[i].name);
		free(p->agents[i].agent_kind);
		free(p->agents[i].llm_profile);
	}
	for (size_t i = 0; p->llms && i < p->count; i++) {
		free(p->llms[i].name);
		free(p->llms[i].model);
	}
	free(p->agents);
	free(p->llms);
	free(p->active);
	memset(p, 0, sizeof *p);
}

int success_decode(const char *json, size_t len, bool *success, struct codec_error *err)
{
	*success = false;
	cJSON *root = codec_parse_object(json, len, "answer", err);
	const cJSON *v;
	if (!root)
		return -1;
	int rc = codec_member(root, "answer", "success", cJSON_True | cJSON_False, true, &v, err);
	*success = rc == 0 && cJSON_IsTrue(v);
	cJSON_Delete(root);
	return rc;
}

int ask_answer_decode(const char *json, size_t len, char **answer, struct codec_error *err)
{
	*answer = NULL;
	cJSON *root = codec_parse_object(json, len, "answer", err);
	const cJSON *v;
	if (!root)
		return -1;
	int rc = codec_member(root, "answer", "response", cJSON_String, true, &v, err);
	if (rc == 0)
		*answer = xstrdup(v->valuestring);
	cJSON_Delete(root);
	return rc;
}

/* A 422's list of pydantic errors reads as its first "msg" (and where: the last "loc"). */
static char *validation_words(const cJSON *list)
{
	const cJSON *first = cJSON_GetArrayItem(list, 0);
	const char *msg = ev_string(first, "msg");
	const cJSON *loc = cJSON_GetObjectItemCaseSensitive(first, "loc");
	const cJSON *last = cJSON_GetArrayItem(loc, cJSON_GetArraySize(loc) - 1);
	if (!msg)
		return NULL;
	if (!cJSON_IsString(last))
		return xstrdup(msg);
	size_t n = strlen(msg) + strlen(last->valuestring) + 3;
	char *s = xmalloc(n);
	snprintf(s, n, "%s: %s", last->valuestring, msg);
	return s;
}

char *error_detail_decode(const char *json, size_t len)
{
	cJSON *root = json && len ? codec_parse(json, len, NULL) : NULL;
	if (!root)
		return NULL;
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "detail");
	const char *exception = ev_string(root, "exception");
	char *out = NULL;
	if (cJSON_IsString(d) && exception && !strcmp(d->valuestring, "Internal Server Error"))
		out = xstrdup(exception);
	else if (cJSON_IsString(d))
		out = xstrdup(d->valuestring);
	else if (cJSON_IsArray(d))
		out = validation_words(d);
	else if (cJSON_IsObject(d) && ev_string(d, "message"))
		out = xstrdup(ev_string(d, "message"));
	cJSON_Delete(root);
	return out;
}
