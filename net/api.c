/* The agent-server's REST routes (protocol.md §4) as one table: every path, its escaping,
 * every request body, the decoder of every answer and what its error statuses mean are
 * spelled here and nowhere else. Adding a call is a row and, when it answers something, a
 * decoder. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec_int.h"
#include "net_int.h"

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

/* ------------------------------------------------------------ queries */

static void query_search_conversations(struct buf *path, bool *first, const struct rest_args *a)
{
	char n[16];
	snprintf(n, sizeof(n), "%d", a->limit < 1 ? 1 : a->limit > 100 ? 100 : a->limit);
	query_add(path, first, "limit", n);
	query_add(path, first, "page_id", a->page_id);
}

static void query_search_conversations_newest(struct buf *path, bool *first,
					      const struct rest_args *a)
{
	query_search_conversations(path, first, a);
	query_add(path, first, "sort_order", "UPDATED_AT_DESC");
}

static const struct event_query no_query;

static void query_search_events(struct buf *path, bool *first, const struct rest_args *a)
{
	const struct event_query *q = a->query ? a->query : &no_query;
	char n[16];
	query_add(path, first, "page_id", q->page_id);
	if (q->limit > 0) {
		snprintf(n, sizeof(n), "%d", q->limit > 100 ? 100 : q->limit);
		query_add(path, first, "limit", n);
	}
	if (q->order == EVENT_ORDER_NEWEST_FIRST)
		query_add(path, first, "sort_order", "TIMESTAMP_DESC");
	event_filters(path, first, q);
}

static void query_count_events(struct buf *path, bool *first, const struct rest_args *a)
{
	event_filters(path, first, a->query ? a->query : &no_query);
}

/* ------------------------------------------------------------ bodies */

static int body_user_message(const struct rest_args *a, struct buf *out)
{
	char *body = rest_encode_user_message(a->text ? a->text : "");
	buf_puts(out, body);
	free(body);
	return 0;
}

/* upstream's ConfirmationResponseRequest: accept, and a reason that only a rejection uses. */
static int body_confirmation(const struct rest_args *a, struct buf *out)
{
	buf_printf(out, "{\"accept\":%s", a->accept ? "true" : "false");
	if (!a->accept && a->reason && *a->reason) {
		buf_puts(out, ",\"reason\":");
		json_append_string(out, a->reason, strlen(a->reason));
	}
	buf_putc(out, '}');
	return 0;
}

/* A SetConfirmationPolicyRequest: {"policy": <ConfirmationPolicyBase>}, discriminated by
 * "kind" (openhands/sdk/security/confirmation_policy.py). ConfirmRisky asks from its
 * threshold up (HIGH unless a lower one is given) and for UNKNOWN risk. */
static int body_confirmation_policy(const struct rest_args *a, struct buf *out)
{
	switch (a->policy) {
	case CONFIRMATION_POLICY_NEVER:
		buf_puts(out, "{\"policy\":{\"kind\":\"NeverConfirm\"}}");
		return 0;
	case CONFIRMATION_POLICY_ALWAYS:
		buf_puts(out, "{\"policy\":{\"kind\":\"AlwaysConfirm\"}}");
		return 0;
	case CONFIRMATION_POLICY_RISKY:
		buf_printf(out, "{\"policy\":{\"kind\":\"ConfirmRisky\",\"threshold\":\"%s\","
			   "\"confirm_unknown\":true}}",
			   a->threshold == RISK_LOW ? "LOW" : a->threshold == RISK_MEDIUM ? "MEDIUM"
										: "HIGH");
		return 0;
	}
	return -1;
}

/* ------------------------------------------------------------ decoders */

static int decode_conversations(const char *json, size_t len, struct rest_result *out)
{
	struct conversation_page *p = &out->conversations;
	return conversation_list_decode(json, len, &p->items, &p->count, &p->next_page_id,
					&out->err);
}

static int decode_events(const char *json, size_t len, struct rest_result *out)
{
	return event_page_decode(json, len, &out->events, &out->err);
}

static int decode_count(const char *json, size_t len, struct rest_result *out)
{
	return event_count_decode(json, len, &out->count, &out->err);
}

/* ------------------------------------------------------------ the table */

/* What 404, 405, 409 and 422 mean for a call. */
struct status_meaning {
	enum rest_outcome on404, on405, on409, on422;
};

/* A 404 says what was asked for is not there (the conversation; for a list, the route on a
 * server that is no agent-server). */
static const struct status_meaning plain = {
	REST_NOT_FOUND, REST_UNSUPPORTED, REST_CONFLICT, REST_INVALID,
};
/* A route that older servers lack: their 404 says that. */
static const struct status_meaning newer_route = {
	REST_UNSUPPORTED, REST_UNSUPPORTED, REST_CONFLICT, REST_INVALID,
};

struct rest_route {
	const char *method;
	const char *tail;       /* after /api/conversations/{id}; NULL: path is the whole path */
	const char *path;
	void (*query)(struct buf *path, bool *first, const struct rest_args *a); /* NULL: none */
	int (*body)(const struct rest_args *a, struct buf *out); /* NULL: none; -1: bad args */
	int (*decode)(const char *json, size_t len, struct rest_result *out); /* NULL: none */
	const struct status_meaning *statuses;
};

static const struct rest_route routes[REST_CALL_COUNT] = {
	[REST_GET_CONVERSATION] = { .method = "GET", .tail = "",
		.decode = decode_conversations, .statuses = &plain },
	[REST_SEND_MESSAGE] = { .method = "POST", .tail = "/events",
		.body = body_user_message, .statuses = &plain },
	[REST_PAUSE] = { .method = "POST", .tail = "/pause", .statuses = &plain },
	[REST_INTERRUPT] = { .method = "POST", .tail = "/interrupt",
		.statuses = &plain },
	/* 409: a run is under way */
	[REST_RUN] = { .method = "POST", .tail = "/run", .statuses = &plain },
	[REST_RESPOND_TO_CONFIRMATION] = { .method = "POST",
		.tail = "/events/respond_to_confirmation", .body = body_confirmation,
		.statuses = &plain },
	[REST_SET_CONFIRMATION_POLICY] = { .method = "POST", .tail = "/confirmation_policy",
		.body = body_confirmation_policy, .statuses = &newer_route },
	[REST_SEARCH_CONVERSATIONS] = { .method = "GET", .path = "/api/conversations/search",
		.query = query_search_conversations, .decode = decode_conversations,
		.statuses = &plain },
	[REST_SEARCH_CONVERSATIONS_NEWEST] = { .method = "GET",
		.path = "/api/conversations/search", .query = query_search_conversations_newest,
		.decode = decode_conversations, .statuses = &plain },
	[REST_SEARCH_EVENTS] = { .method = "GET", .tail = "/events/search",
		.query = query_search_events, .decode = decode_events,
		.statuses = &plain },
	[REST_COUNT_EVENTS] = { .method = "GET", .tail = "/events/count",
		.query = query_count_events, .decode = decode_count, .statuses = &newer_route },
};

void rest_result_decode(enum rest_call call, const struct rest_response *raw,
			struct rest_result *out)
{
	assert((unsigned)call < REST_CALL_COUNT);
	const struct rest_route *r = &routes[call];
	memset(out, 0, sizeof *out);
	out->call = call;
	out->raw = raw;
	switch (raw->status) {
	case 0:
		out->outcome = REST_NO_ANSWER;
		return;
	case 401:
	case 403:
		out->outcome = REST_AUTH;
		return;
	case 404:
		out->outcome = r->statuses->on404;
		return;
	case 405:
		out->outcome = r->statuses->on405;
		return;
	case 409:
		out->outcome = r->statuses->on409;
		return;
	case 422:
		out->outcome = r->statuses->on422;
		return;
	}
	if (raw->status < 200 || raw->status >= 300)
		out->outcome = REST_HTTP_ERROR;
	else if (r->decode && r->decode(raw->body ? raw->body : "", raw->body_len, out) != 0)
		out->outcome = REST_BAD_BODY;
	else
		out->outcome = REST_OK;
}

void rest_result_fini(struct rest_result *r)
{
	conversation_infos_free(r->conversations.items, r->conversations.count);
	free(r->conversations.next_page_id);
	event_page_fini(&r->events);
	memset(&r->conversations, 0, sizeof r->conversations);
}

/* One call in flight: what to decode its answer as, and whom to tell. */
struct rest_pending {
	enum rest_call call;
	rest_result_fn done;
	void *ctx;
};

static void call_answered(void *ctx, const struct rest_response *raw)
{
	struct rest_pending *p = ctx;
	struct rest_result r;
	rest_result_decode(p->call, raw, &r);
	p->done(p->ctx, &r);
	rest_result_fini(&r);
	free(p);
}

int rest_call(const struct rest_server *srv, enum rest_call call, const struct rest_args *a,
	      rest_result_fn done, void *ctx)
{
	static const struct rest_args none;
	if ((unsigned)call >= REST_CALL_COUNT)
		return -1;
	const struct rest_route *r = &routes[call];
	struct buf path, body;
	bool first = true;
	int rc = -1;

	if (!a)
		a = &none;
	buf_init(&path);
	buf_init(&body);
	if (r->tail)
		rest_path_conversation(&path, a->id ? a->id : "", r->tail);
	else
		buf_puts(&path, r->path);
	if (r->query)
		r->query(&path, &first, a);
	if (!r->body || r->body(a, &body) == 0) {
		struct rest_pending *p = xcalloc(1, sizeof *p);
		*p = (struct rest_pending){ .call = call, .done = done, .ctx = ctx };
		rc = rest_request(srv->loop, srv->url, srv->api_key, srv->insecure, r->method,
				  buf_cstr(&path), r->body ? buf_cstr(&body) : NULL, call_answered, p);
		if (rc != 0)
			free(p);
	}
	buf_fini(&body);
	buf_fini(&path);
	return rc;
}
