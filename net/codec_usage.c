/* A conversation's usage from its stats (upstream's ConversationStats serialized as snapshots:
 * usage_to_metrics, one Metrics per usage id; only the totals are read, never the per-call
 * costs, latencies and token_usages lists a full_state carries). */
#include "codec_int.h"

#include <stdlib.h>
#include <string.h>

/* A token count: a whole non-negative number; anything else reads as 0 (the schema may grow). */
static int64_t count_of(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	double d = cJSON_IsNumber(v) ? v->valuedouble : 0;
	if (!(d >= 0 && d <= (double)NET_SEQ_MAX))
		return 0;
	return (int64_t)d;
}

static bool money_of(const cJSON *obj, const char *name, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 1e15))
		return false;
	*out = v->valuedouble;
	return true;
}

static enum usage_role role_of(const char *id)
{
	if (!strncmp(id, "profile:", 8))
		return USAGE_ROLE_PROFILE;
	if (!strcmp(id, "agent"))
		return USAGE_ROLE_AGENT;
	if (!strcmp(id, "default"))
		return USAGE_ROLE_DEFAULT;
	if (!strcmp(id, "ask-agent-llm"))
		return USAGE_ROLE_ASK_AGENT;
	return USAGE_ROLE_OTHER;
}

static void metrics_fill(struct usage_metrics *m, const char *id, const cJSON *obj)
{
	m->usage_id = xstrdup(id);
	m->role = role_of(id);
	m->model = xstrdup(ev_string(obj, "model_name"));
	money_of(obj, "accumulated_cost", &m->cost);
	m->has_budget = money_of(obj, "max_budget_per_task", &m->max_budget);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(obj, "accumulated_token_usage");
	if (!cJSON_IsObject(t))
		return;
	if (!m->model || !m->model[0]) {
		free(m->model);
		m->model = xstrdup(ev_string(t, "model"));
	}
	m->prompt_tokens = count_of(t, "prompt_tokens");
	m->completion_tokens = count_of(t, "completion_tokens");
	m->cache_read_tokens = count_of(t, "cache_read_tokens");
	m->cache_write_tokens = count_of(t, "cache_write_tokens");
	m->reasoning_tokens = count_of(t, "reasoning_tokens");
	m->context_window = count_of(t, "context_window");
	m->per_turn_tokens = count_of(t, "per_turn_token");
}

int codec_usage_decode(const cJSON *v, struct usage_stats *out)
{
	memset(out, 0, sizeof *out);
	const cJSON *map = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "usage_to_metrics")
					     : NULL;
	if (!cJSON_IsObject(map))
		return -1;
	out->entries = xcalloc((size_t)cJSON_GetArraySize(map) + 1, sizeof *out->entries);
	const cJSON *item;
	cJSON_ArrayForEach(item, map)
		if (cJSON_IsObject(item) && item->string)
			metrics_fill(&out->entries[out->count++], item->string, item);
	return 0;
}

int usage_stats_decode(const char *json, size_t len, struct usage_stats *out,
		       struct codec_error *err)
{
	memset(out, 0, sizeof *out);
	cJSON *root = codec_parse_object(json, len, "stats", err);
	if (!root)
		return -1;
	int rc = codec_usage_decode(root, out);
	if (rc < 0)
		codec_fail(err, CODEC_MISSING_FIELD, "stats: no \"usage_to_metrics\" object");
	cJSON_Delete(root);
	return rc;
}

void usage_stats_copy(struct usage_stats *dst, const struct usage_stats *src)
{
	usage_stats_fini(dst);
	if (!src || !src->count)
		return;
	dst->entries = xcalloc(src->count, sizeof *dst->entries);
	for (size_t i = 0; i < src->count; i++) {
		dst->entries[i] = src->entries[i];
		dst->entries[i].usage_id = xstrdup(src->entries[i].usage_id);
		dst->entries[i].model = src->entries[i].model ? xstrdup(src->entries[i].model) : NULL;
	}
	dst->count = src->count;
}

void usage_stats_fini(struct usage_stats *s)
{
	for (size_t i = 0; s->entries && i < s->count; i++) {
		free(s->entries[i].usage_id);
		free(s->entries[i].model);
	}
	free(s->entries);
	memset(s, 0, sizeof *s);
}
