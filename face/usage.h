/* usage: a conversation's usage (tokens, cost, context in use) as the status line, /usage and
 * `tether usage` say it, from the stats the codec decoded (struct usage_stats). */
#ifndef TETHER_USAGE_H
#define TETHER_USAGE_H

#include "net.h"

/* The short form: what the status line shows. */
struct usage_summary {
	int64_t tokens;                 /* prompt + completion over every usage id */
	double cost;                    /* accumulated cost over every usage id, USD */
	const char *model;              /* the agent's model (owned by the stats), or NULL */
	int64_t context_used;           /* the agent's latest prompt + completion */
	int64_t context_window;         /* 0 when the provider reported none */
};

/* The usage id of the agent's LLM: the last "profile:NAME" (a switched profile), else
 * "agent", else "default", else the first; NULL when s has none. */
const struct usage_metrics *usage_agent(const struct usage_stats *s);
/* Sums s into *out. */
void usage_summarize(const struct usage_stats *s, struct usage_summary *out);
/* Appends a token count short: "950", "18.2k", "182k", "1.35M". */
void usage_put_tokens(struct buf *out, int64_t n);
/* Appends a cost in dollars: "$0.42", "$12.30", "$0.0042" under a cent. */
void usage_put_cost(struct buf *out, double usd);
/* Appends the context use: "24%" of the window, or "48.2k" when the window is not known. */
void usage_put_context(struct buf *out, const struct usage_summary *u);
/* Appends the usage as JSON members (no braces): "model" (the agent's, or null), "cost",
 * "tokens", "context_used", "context_window", and "usage": one object per usage id with
 * "usage_id", "model", "cost", "prompt_tokens", "completion_tokens", "cache_read_tokens",
 * "cache_write_tokens", "reasoning_tokens", "context_window", "per_turn_tokens" and
 * "max_budget" when set. s NULL: the sums 0 and "usage" []. */
void usage_put_json(struct buf *out, const struct usage_stats *s);
/* Appends the whole usage as lines for people, per model (usage ids of one model together):
 * the cost, tokens in (cache read and written), out and reasoning, then the agent's context and
 * the total. Strings of s must be clean already. */
void usage_put_report(struct buf *out, const struct usage_stats *s);

#endif
