#include "usage.h"

#include <stdio.h>
#include <string.h>

const struct usage_metrics *usage_agent(const struct usage_stats *s)
{
	if (!s || !s->count)
		return NULL;
	const struct usage_metrics *agent = NULL, *dflt = NULL, *profile = NULL;
	for (size_t i = 0; i < s->count; i++) {
		enum usage_role r = s->entries[i].role;
		if (r == USAGE_ROLE_PROFILE)
			profile = &s->entries[i];
		else if (r == USAGE_ROLE_AGENT)
			agent = &s->entries[i];
		else if (r == USAGE_ROLE_DEFAULT)
			dflt = &s->entries[i];
	}
	return profile ? profile : agent ? agent : dflt ? dflt : &s->entries[0];
}

void usage_summarize(const struct usage_stats *s, struct usage_summary *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; s && i < s->count; i++) {
		out->tokens += s->entries[i].prompt_tokens + s->entries[i].completion_tokens;
		out->cost += s->entries[i].cost;
	}
	const struct usage_metrics *a = usage_agent(s);
	if (a) {
		out->model = a->model;
		out->context_used = a->per_turn_tokens;
		out->context_window = a->context_window;
	}
}

void usage_put_tokens(struct buf *out, int64_t n)
{
	if (n < 1000)
		buf_printf(out, "%lld", (long long)n);
	else if (n < 100000)
		buf_printf(out, "%.1fk", (double)(n / 100) / 10);
	else if (n < 1000000)
		buf_printf(out, "%lldk", (long long)(n / 1000));
	else
		buf_printf(out, "%.2fM", (double)(n / 10000) / 100);
}

void usage_put_cost(struct buf *out, double usd)
{
	buf_printf(out, usd > 0 && usd < 0.01 ? "$%.4f" : "$%.2f", usd);
}

void usage_put_context(struct buf *out, const struct usage_summary *u)
{
	if (u->context_window > 0) {
		int64_t pct = (u->context_used * 100 + u->context_window / 2) / u->context_window;
		buf_printf(out, "%lld%%", (long long)pct);
	} else {
		usage_put_tokens(out, u->context_used);
	}
}

static void json_str(struct buf *out, const char *name, const char *v)
{
	buf_printf(out, "\"%s\":", name);
	if (v)
		json_append_string(out, v, strlen(v));
	else
		buf_puts(out, "null");
}

void usage_put_json(struct buf *out, const struct usage_stats *s)
{
	struct usage_summary u;
	usage_summarize(s, &u);
	json_str(out, "model", u.model);
	buf_printf(out, ",\"cost\":%.10g,\"tokens\":%lld,\"context_used\":%lld,"
		   "\"context_window\":%lld,\"usage\":[", u.cost, (long long)u.tokens,
		   (long long)u.context_used, (long long)u.context_window);
	for (size_t i = 0; s && i < s->count; i++) {
		const struct usage_metrics *m = &s->entries[i];
		buf_puts(out, i ? ",{" : "{");
		json_str(out, "usage_id", m->usage_id);
		buf_putc(out, ',');
		json_str(out, "model", m->model);
		buf_printf(out, ",\"cost\":%.10g,\"prompt_tokens\":%lld,\"completion_tokens\":%lld,"
			   "\"cache_read_tokens\":%lld,\"cache_write_tokens\":%lld,"
			   "\"reasoning_tokens\":%lld,\"context_window\":%lld,\"per_turn_tokens\":%lld",
			   m->cost, (long long)m->prompt_tokens, (long long)m->completion_tokens,
			   (long long)m->cache_read_tokens, (long long)m->cache_write_tokens,
			   (long long)m->reasoning_tokens, (long long)m->context_window,
			   (long long)m->per_turn_tokens);
		if (m->has_budget)
			buf_printf(out, ",\"max_budget\":%.10g", m->max_budget);
		buf_putc(out, '}');
	}
	buf_putc(out, ']');
}

static void put_count(struct buf *out, int64_t n)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%lld", (long long)n);
	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			buf_putc(out, ',');
		buf_putc(out, digits[i]);
	}
}

static const char *model_of(const struct usage_metrics *m)
{
	return m->model && *m->model ? m->model : "(model not named)";
}

/* One model: the usage ids that name it, their sums. */
static void put_model(struct buf *out, const struct usage_stats *s, size_t first)
{
	const char *model = model_of(&s->entries[first]);
	struct usage_metrics sum = { 0 };
	buf_printf(out, "%s (", model);
	for (size_t i = first, n = 0; i < s->count; i++) {
		const struct usage_metrics *m = &s->entries[i];
		if (strcmp(model_of(m), model) != 0)
			continue;
		buf_printf(out, "%s%s", n++ ? ", " : "", m->usage_id);
		sum.cost += m->cost;
		sum.prompt_tokens += m->prompt_tokens;
		sum.completion_tokens += m->completion_tokens;
		sum.cache_read_tokens += m->cache_read_tokens;
		sum.cache_write_tokens += m->cache_write_tokens;
		sum.reasoning_tokens += m->reasoning_tokens;
	}
	buf_puts(out, "): ");
	usage_put_cost(out, sum.cost);
	buf_puts(out, "\n  ");
	put_count(out, sum.prompt_tokens);
	buf_puts(out, " in");
	if (sum.cache_read_tokens || sum.cache_write_tokens) {
		buf_puts(out, " (");
		put_count(out, sum.cache_read_tokens);
		buf_puts(out, " cache read, ");
		put_count(out, sum.cache_write_tokens);
		buf_puts(out, " cache write)");
	}
	buf_puts(out, " · ");
	put_count(out, sum.completion_tokens);
	buf_puts(out, " out");
	if (sum.reasoning_tokens) {
		buf_puts(out, " · ");
		put_count(out, sum.reasoning_tokens);
		buf_puts(out, " reasoning");
	}
	buf_putc(out, '\n');
}

void usage_put_report(struct buf *out, const struct usage_stats *s)
{
	if (!s || !s->count) {
		buf_puts(out, "no usage yet: no LLM call was reported\n");
		return;
	}
	for (size_t i = 0; i < s->count; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(model_of(&s->entries[j]), model_of(&s->entries[i]));
		if (!seen)
			put_model(out, s, i);
	}
	struct usage_summary u;
	usage_summarize(s, &u);
	buf_puts(out, "context: ");
	put_count(out, u.context_used);
	if (u.context_window > 0) {
		buf_puts(out, " of ");
		put_count(out, u.context_window);
		buf_puts(out, " tokens (");
		usage_put_context(out, &u);
		buf_puts(out, ")\n");
	} else {
		buf_puts(out, " tokens (the window size was not reported)\n");
	}
	buf_puts(out, "total: ");
	usage_put_cost(out, u.cost);
	const struct usage_metrics *a = usage_agent(s);
	if (a && a->has_budget) {
		buf_puts(out, " of a ");
		usage_put_cost(out, a->max_budget);
		buf_puts(out, " budget");
	}
	buf_puts(out, " · ");
	put_count(out, u.tokens);
	buf_puts(out, " tokens\n");
}
