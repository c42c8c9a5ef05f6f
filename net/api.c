/* The agent-server's REST routes (protocol.md §4) behind typed calls: every path, its
 * escaping and every request body are spelled here and nowhere else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec_int.h"
#include "net_int.h"

/* METHOD /api/conversations/{id}+tail+query (escaped already; NULL: none) with body (NULL:
 * none). */
static int conversation_call(const struct rest_server *srv, const char *method, const char *id,
			     const char *tail, const char *query, const char *body,
			     rest_done_fn done, void *ctx)
{
	struct buf path;
	int rc;

	buf_init(&path);
	rest_path_conversation(&path, id, tail);
	buf_puts(&path, query ? query : "");
	rc = rest_request(srv->loop, srv->url, srv->api_key, srv->insecure, method,
			  buf_cstr(&path), body, done, ctx);
	buf_fini(&path);
	return rc;
}

/* Appends "?name=value" or "&name=value" (value escaped); nothing for a NULL value. */
static void query_add(struct buf *path, bool *first, const char *name, const char *value)
{
	if (!value)
		return;
	buf_putc(path, *first ? '?' : '&');
	*first = false;
	buf_puts(path, name);
	buf_putc(path, '=');
	url_append_escaped(path, value);
}

int rest_get_conversation(const struct rest_server *srv, const char *id, rest_done_fn done,
			  void *ctx)
{
	return conversation_call(srv, "GET", id, "", NULL, NULL, done, ctx);
}

int rest_send_message(const struct rest_server *srv, const char *id, const char *text,
		      rest_done_fn done, void *ctx)
{
	char *body = rest_encode_user_message(text);
	int rc = conversation_call(srv, "POST", id, "/events", NULL, body, done, ctx);

	free(body);
	return rc;
}

int rest_pause(const struct rest_server *srv, const char *id, rest_done_fn done, void *ctx)
{
	return conversation_call(srv, "POST", id, "/pause", NULL, NULL, done, ctx);
}

int rest_interrupt(const struct rest_server *srv, const char *id, rest_done_fn done, void *ctx)
{
	return conversation_call(srv, "POST", id, "/interrupt", NULL, NULL, done, ctx);
}

int rest_run(const struct rest_server *srv, const char *id, rest_done_fn done, void *ctx)
{
	return conversation_call(srv, "POST", id, "/run", NULL, NULL, done, ctx);
}

/* upstream's ConfirmationResponseRequest: accept, and a reason that only a rejection uses. */
int rest_respond_to_confirmation(const struct rest_server *srv, const char *id, bool accept,
				 const char *reason, rest_done_fn done, void *ctx)
{
	struct buf body;
	int rc;

	buf_init(&body);
	buf_printf(&body, "{\"accept\":%s", accept ? "true" : "false");
	if (!accept && reason && *reason) {
		buf_puts(&body, ",\"reason\":");
		json_append_string(&body, reason, strlen(reason));
	}
	buf_putc(&body, '}');
	rc = conversation_call(srv, "POST", id, "/events/respond_to_confirmation", NULL,
			       buf_cstr(&body), done, ctx);
	buf_fini(&body);
	return rc;
}

/* A SetConfirmationPolicyRequest: {"policy": <ConfirmationPolicyBase>}, discriminated by
 * "kind" (openhands/sdk/security/confirmation_policy.py). ConfirmRisky asks for HIGH (its
 * threshold) and for UNKNOWN risk. */
int rest_set_confirmation_policy(const struct rest_server *srv, const char *id,
				 enum confirmation_policy policy, rest_done_fn done, void *ctx)
{
	static const char *const bodies[] = {
		[CONFIRMATION_POLICY_NEVER] = "{\"policy\":{\"kind\":\"NeverConfirm\"}}",
		[CONFIRMATION_POLICY_RISKY] = "{\"policy\":{\"kind\":\"ConfirmRisky\","
					      "\"threshold\":\"HIGH\",\"confirm_unknown\":true}}",
		[CONFIRMATION_POLICY_ALWAYS] = "{\"policy\":{\"kind\":\"AlwaysConfirm\"}}",
	};

	if ((unsigned)policy >= sizeof(bodies) / sizeof(*bodies))
		return -1;
	return conversation_call(srv, "POST", id, "/confirmation_policy", NULL, bodies[policy],
				 done, ctx);
}

static int search_conversations(const struct rest_server *srv, const char *page_id, int limit,
				const char *sort_order, rest_done_fn done, void *ctx)
{
	struct buf path;
	bool first = true;
	char n[16];
	int rc;

	buf_init(&path);
	buf_puts(&path, "/api/conversations/search");
	snprintf(n, sizeof(n), "%d", limit < 1 ? 1 : limit > 100 ? 100 : limit);
	query_add(&path, &first, "limit", n);
	query_add(&path, &first, "page_id", page_id);
	query_add(&path, &first, "sort_order", sort_order);
	rc = rest_request(srv->loop, srv->url, srv->api_key, srv->insecure, "GET", buf_cstr(&path),
			  NULL, done, ctx);
	buf_fini(&path);
	return rc;
}

int rest_search_conversations(const struct rest_server *srv, const char *page_id, int limit,
			      rest_done_fn done, void *ctx)
{
	return search_conversations(srv, page_id, limit, NULL, done, ctx);
}

int rest_search_conversations_newest(const struct rest_server *srv, const char *page_id,
				     int limit, rest_done_fn done, void *ctx)
{
	return search_conversations(srv, page_id, limit, "UPDATED_AT_DESC", done, ctx);
}

/* The time one microsecond after ts (YYYY-MM-DDTHH:MM:SS[.frac][zone], the zone kept as it
 * is) into out; false when ts is not such a time. Upstream compares times as isoformat
 * strings of parsed datetimes, so "before this" means "at or before ts". */
static bool time_after(const char *ts, char *out, size_t n)
{
	struct tm tm = { 0 };
	int used = 0;
	if (sscanf(ts, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 6 || used != 19)
		return false;
	const char *p = ts + used;
	long us = 0;
	if (*p == '.') {
		int digits = 0;
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			if (digits < 6)
				us = us * 10 + (*p - '0');
		if (!digits)
			return false;
		for (; digits < 6; digits++)
			us *= 10;
	}
	if (*p && strspn(p, "0123456789:+-Z") != strlen(p))
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t secs = timegm(&tm);
	if (++us == 1000000) {
		us = 0;
		secs++;
	}
	if (!gmtime_r(&secs, &tm))
		return false;
	int w = snprintf(out, n, "%04d-%02d-%02dT%02d:%02d:%02d.%06ld%s", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, us, p);
	return w > 0 && (size_t)w < n;
}

/* The filters search and count share: upstream's query parameter names. */
static void event_filters(struct buf *path, bool *first, const struct event_query *q)
{
	char lt[64];
	query_add(path, first, "kind", q->kind);
	query_add(path, first, "source", q->source);
	query_add(path, first, "body", q->body);
	query_add(path, first, "timestamp__gte", q->timestamp_gte);
	if (q->timestamp_lte && !q->timestamp_lt && time_after(q->timestamp_lte, lt, sizeof lt))
		query_add(path, first, "timestamp__lt", lt);
	else
		query_add(path, first, "timestamp__lt", q->timestamp_lt);
}

int rest_search_events(const struct rest_server *srv, const char *id,
		       const struct event_query *q, rest_done_fn done, void *ctx)
{
	static const struct event_query none;
	struct buf query;
	bool first = true;
	char n[16];
	int rc;

	if (!q)
		q = &none;
	buf_init(&query);
	query_add(&query, &first, "page_id", q->page_id);
	if (q->limit > 0) {
		snprintf(n, sizeof(n), "%d", q->limit > 100 ? 100 : q->limit);
		query_add(&query, &first, "limit", n);
	}
	if (q->order == EVENT_ORDER_NEWEST_FIRST)
		query_add(&query, &first, "sort_order", "TIMESTAMP_DESC");
	event_filters(&query, &first, q);
	rc = conversation_call(srv, "GET", id, "/events/search", buf_cstr(&query), NULL, done,
			       ctx);
	buf_fini(&query);
	return rc;
}

int rest_count_events(const struct rest_server *srv, const char *id,
		      const struct event_query *q, rest_done_fn done, void *ctx)
{
	static const struct event_query none;
	struct buf query;
	bool first = true;
	int rc;

	buf_init(&query);
	event_filters(&query, &first, q ? q : &none);
	rc = conversation_call(srv, "GET", id, "/events/count", buf_cstr(&query), NULL, done,
			       ctx);
	buf_fini(&query);
	return rc;
}
