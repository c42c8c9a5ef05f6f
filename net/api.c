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
	long us;
	const char *p = iso_fraction_us(ts + used, &us);
	if (!p || (*p && strspn(p, "0123456789:+-Z") != strlen(p)))
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
 * "kind" (openhands/sdk/security/confirmation_policy.py). ConfirmRisky asks at its threshold
 * and above (HIGH by default) and for UNKNOWN risk. */
static int body_confirmation_policy(const struct rest_args *a, struct buf *out)
{
	static const char *const levels[] = {
		[RISK_THRESHOLD_HIGH] = "HIGH", [RISK_THRESHOLD_MEDIUM] = "MEDIUM",
		[RISK_THRESHOLD_LOW] = "LOW",
	};

	switch (a->policy) {
	case CONFIRMATION_POLICY_NEVER:
		buf_puts(out, "{\"policy\":{\"kind\":\"NeverConfirm\"}}");
		return 0;
	case CONFIRMATION_POLICY_ALWAYS:
		buf_puts(out, "{\"policy\":{\"kind\":\"AlwaysConfirm\"}}");
		return 0;
	case CONFIRMATION_POLICY_RISKY:
		if ((unsigned)a->threshold >= sizeof levels / sizeof *levels)
			return -1;
		buf_printf(out, "{\"policy\":{\"kind\":\"ConfirmRisky\",\"threshold\":\"%s\","
			   "\"confirm_unknown\":true}}", levels[a->threshold]);
		return 0;
	}
	return -1;
}

/* {"NAME": "VALUE"} for a value that must be given. */
static int body_one_string(struct buf *out, const char *name, const char *value)
{
	if (!value)
		return -1;
	buf_printf(out, "{\"%s\":", name);
	json_append_string(out, value, strlen(value));
	buf_putc(out, '}');
	return 0;
}

/* A StartConversationRequest launched from an agent profile: upstream never falls back to
 * the active profile, and creates and git-inits working_dir on its machine. The initial
 * message always runs. There is no title field (PATCH after it). */
static int body_start_conversation(const struct rest_args *a, struct buf *out)
{
	if (!a->profile || !a->working_dir)
		return -1;
	buf_puts(out, "{\"agent_profile_id\":");
	json_append_string(out, a->profile, strlen(a->profile));
	buf_puts(out, ",\"workspace\":{\"working_dir\":");
	json_append_string(out, a->working_dir, strlen(a->working_dir));
	buf_putc(out, '}');
	if (a->text) {
		char *message = rest_encode_user_message(a->text);
		buf_puts(out, ",\"initial_message\":");
		buf_puts(out, message);
		free(message);
	}
	buf_printf(out, ",\"autotitle\":%s}", a->autotitle ? "true" : "false");
	return 0;
}

/* A ForkConversationRequest: the server mints the id; the usage starts again. */
static int body_fork(const struct rest_args *a, struct buf *out)
{
	buf_puts(out, "{\"reset_metrics\":true");
	if (a->title) {
		buf_puts(out, ",\"title\":");
		json_append_string(out, a->title, strlen(a->title));
	}
	if (a->event_id) {
		buf_puts(out, ",\"from_event_id\":");
		json_append_string(out, a->event_id, strlen(a->event_id));
	}
	buf_putc(out, '}');
	return 0;
}

/* {"event_id": null} (and {}) would move HEAD to an empty tree: refused here. */
static int body_navigate(const struct rest_args *a, struct buf *out)
{
	return body_one_string(out, "event_id", a->event_id);
}

static int body_rename(const struct rest_args *a, struct buf *out)
{
	return body_one_string(out, "title", a->title);
}

static int body_ask(const struct rest_args *a, struct buf *out)
{
	return body_one_string(out, "question", a->text);
}

static int body_switch_profile(const struct rest_args *a, struct buf *out)
{
	return body_one_string(out, "profile_name", a->profile);
}

static int body_goal(const struct rest_args *a, struct buf *out)
{
	if (!a->text || a->max_iterations < 0)
		return -1;
	buf_puts(out, "{\"objective\":");
	json_append_string(out, a->text, strlen(a->text));
	if (a->max_iterations > 0)
		buf_printf(out, ",\"max_iterations\":%d", a->max_iterations);
	buf_putc(out, '}');
	return 0;
}

/* The key is required: {"security_analyzer": null} removes the analyzer. */
static int body_security_analyzer(const struct rest_args *a, struct buf *out)
{
	static const char *const bodies[] = {
		[SECURITY_ANALYZER_NONE] = "{\"security_analyzer\":null}",
		[SECURITY_ANALYZER_LLM] = "{\"security_analyzer\":{\"kind\":\"LLMSecurityAnalyzer\"}}",
		[SECURITY_ANALYZER_PATTERN] =
			"{\"security_analyzer\":{\"kind\":\"PatternSecurityAnalyzer\"}}",
	};

	if ((unsigned)a->analyzer >= sizeof bodies / sizeof *bodies)
		return -1;
	buf_puts(out, bodies[a->analyzer]);
	return 0;
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

static int decode_server_info(const char *json, size_t len, struct rest_result *out)
{
	return server_info_decode(json, len, &out->version, &out->err);
}

static int decode_agent_profiles(const char *json, size_t len, struct rest_result *out)
{
	return profile_list_decode(json, len, true, &out->profiles, &out->err);
}

static int decode_llm_profiles(const char *json, size_t len, struct rest_result *out)
{
	return profile_list_decode(json, len, false, &out->profiles, &out->err);
}

/* PATCH answers an unknown conversation with 200 {"success": false}: 1 says so. */
static int decode_success(const char *json, size_t len, struct rest_result *out)
{
	bool ok;
	if (success_decode(json, len, &ok, &out->err) != 0)
		return -1;
	return ok ? 0 : 1;
}

static int decode_answer(const char *json, size_t len, struct rest_result *out)
{
	return ask_answer_decode(json, len, &out->answer, &out->err);
}

/* ------------------------------------------------------------ the table */

/* What 400, 404, 405, 409 and 422 mean for a call. */
struct status_meaning {
	enum rest_outcome on400, on404, on405, on409, on422;
};

/* A 404 says what was asked for is not there (the conversation; for a list, the route on a
 * server that is no agent-server). */
static const struct status_meaning plain = {
	REST_REFUSED, REST_NOT_FOUND, REST_UNSUPPORTED, REST_CONFLICT, REST_INVALID,
};
/* A route that older servers lack: their 404 says that. */
static const struct status_meaning newer_route = {
	REST_REFUSED, REST_UNSUPPORTED, REST_UNSUPPORTED, REST_CONFLICT, REST_INVALID,
};
/* DELETE answers an unknown conversation with 400 "Bad Request". */
static const struct status_meaning delete_statuses = {
	REST_NOT_FOUND, REST_NOT_FOUND, REST_UNSUPPORTED, REST_CONFLICT, REST_INVALID,
};

struct rest_route {
	const char *method;
	const char *tail;       /* after /api/conversations/{id}; NULL: path is the whole path */
	const char *path;
	void (*query)(struct buf *path, bool *first, const struct rest_args *a); /* NULL: none */
	int (*body)(const struct rest_args *a, struct buf *out); /* NULL: none; -1: bad args */
	int (*decode)(const char *json, size_t len, struct rest_result *out); /* NULL: none */
	const struct status_meaning *statuses;
	const char *name;       /* in words, for messages */
	int since[3];           /* the first release with the route ({0}: from the first) */
};

/* since: the first release whose route answers (upstream's tags; 1.0.0 was the first).
 * A 404 from a route that exists from the first release names the conversation. */
static const struct rest_route routes[REST_CALL_COUNT] = {
	[REST_GET_CONVERSATION] = { .method = "GET", .tail = "",
		.decode = decode_conversations, .statuses = &plain, .name = "conversation" },
	[REST_SEND_MESSAGE] = { .method = "POST", .tail = "/events",
		.body = body_user_message, .statuses = &plain, .name = "message" },
	[REST_PAUSE] = { .method = "POST", .tail = "/pause", .statuses = &plain,
		.name = "pause" },
	[REST_INTERRUPT] = { .method = "POST", .tail = "/interrupt",
		.statuses = &plain, .name = "interrupt", .since = { 1, 23, 0 } },
	/* 409: a run is under way */
	[REST_RUN] = { .method = "POST", .tail = "/run", .statuses = &plain, .name = "run" },
	[REST_RESPOND_TO_CONFIRMATION] = { .method = "POST",
		.tail = "/events/respond_to_confirmation", .body = body_confirmation,
		.statuses = &plain, .name = "confirmation" },
	[REST_SET_CONFIRMATION_POLICY] = { .method = "POST", .tail = "/confirmation_policy",
		.body = body_confirmation_policy, .statuses = &newer_route,
		.name = "confirmation policy" },
	[REST_SEARCH_CONVERSATIONS] = { .method = "GET", .path = "/api/conversations/search",
		.query = query_search_conversations, .decode = decode_conversations,
		.statuses = &plain, .name = "conversation list" },
	[REST_SEARCH_CONVERSATIONS_NEWEST] = { .method = "GET",
		.path = "/api/conversations/search", .query = query_search_conversations_newest,
		.decode = decode_conversations, .statuses = &plain, .name = "conversation list" },
	[REST_SEARCH_EVENTS] = { .method = "GET", .tail = "/events/search",
		.query = query_search_events, .decode = decode_events,
		.statuses = &plain, .name = "event search" },
	[REST_COUNT_EVENTS] = { .method = "GET", .tail = "/events/count",
		.query = query_count_events, .decode = decode_count, .statuses = &newer_route,
		.name = "event count" },
	[REST_SERVER_INFO] = { .method = "GET", .path = "/server_info",
		.decode = decode_server_info, .statuses = &newer_route, .name = "server info" },
	[REST_LIST_AGENT_PROFILES] = { .method = "GET", .path = "/api/agent-profiles",
		.decode = decode_agent_profiles, .statuses = &newer_route,
		.name = "agent profiles", .since = { 1, 29, 0 } },
	[REST_LIST_LLM_PROFILES] = { .method = "GET", .path = "/api/profiles",
		.decode = decode_llm_profiles, .statuses = &newer_route,
		.name = "LLM profiles", .since = { 1, 22, 0 } },
	/* 404: no such agent profile; before 1.29 the profile id is dropped and 422 follows */
	[REST_START_CONVERSATION] = { .method = "POST", .path = "/api/conversations",
		.body = body_start_conversation, .decode = decode_conversations,
		.statuses = &plain, .name = "new conversation", .since = { 1, 29, 0 } },
	[REST_FORK] = { .method = "POST", .tail = "/fork", .body = body_fork,
		.decode = decode_conversations, .statuses = &plain, .name = "fork",
		.since = { 1, 18, 0 } },
	[REST_NAVIGATE] = { .method = "POST", .tail = "/navigate", .body = body_navigate,
		.decode = decode_conversations, .statuses = &plain, .name = "navigate",
		.since = { 1, 31, 0 } },
	[REST_RENAME] = { .method = "PATCH", .tail = "", .body = body_rename,
		.decode = decode_success, .statuses = &plain, .name = "rename" },
	[REST_DELETE] = { .method = "DELETE", .tail = "", .statuses = &delete_statuses,
		.name = "delete" },
	[REST_ASK_AGENT] = { .method = "POST", .tail = "/ask_agent", .body = body_ask,
		.decode = decode_answer, .statuses = &plain, .name = "ask",
		.since = { 1, 3, 0 } },
	[REST_CONDENSE] = { .method = "POST", .tail = "/condense", .statuses = &plain,
		.name = "compact", .since = { 1, 5, 1 } },
	[REST_SWITCH_PROFILE] = { .method = "POST", .tail = "/switch_profile",
		.body = body_switch_profile, .statuses = &plain, .name = "model switch",
		.since = { 1, 18, 0 } },
	[REST_GOAL_START] = { .method = "POST", .tail = "/goal", .body = body_goal,
		.statuses = &plain, .name = "goal", .since = { 1, 29, 0 } },
	[REST_GOAL_STOP] = { .method = "POST", .tail = "/goal/stop", .statuses = &plain,
		.name = "goal stop", .since = { 1, 29, 0 } },
	[REST_GOAL_RESUME] = { .method = "POST", .tail = "/goal/resume", .statuses = &plain,
		.name = "goal resume", .since = { 1, 29, 0 } },
	[REST_SET_SECURITY_ANALYZER] = { .method = "POST", .tail = "/security_analyzer",
		.body = body_security_analyzer, .statuses = &newer_route,
		.name = "security analyzer", .since = { 1, 1, 0 } },
};

/* fork's from_event_id: older servers ignore it and fork the whole conversation. */
static const int fork_from_since[3] = { 1, 31, 0 };

static bool version_before(const struct server_version *v, const int since[3])
{
	int have[3] = { v->major, v->minor, v->patch };
	for (int i = 0; i < 3; i++)
		if (have[i] != since[i])
			return have[i] < since[i];
	return false;
}

const char *rest_call_name(enum rest_call call)
{
	return (unsigned)call < REST_CALL_COUNT ? routes[call].name : "call";
}

bool rest_call_available(enum rest_call call, const struct rest_args *a,
			 const struct server_version *v)
{
	if ((unsigned)call >= REST_CALL_COUNT)
		return false;
	if (!v || !v->known)
		return true;
	if (version_before(v, routes[call].since))
		return false;
	return !(call == REST_FORK && a && a->event_id && version_before(v, fork_from_since));
}

bool rest_result_by_version(struct rest_result *r, const struct rest_args *a,
			    const struct server_version *v)
{
	bool missing = r->outcome == REST_UNSUPPORTED || r->outcome == REST_NOT_FOUND;
	if (!v || !v->known || !missing || !r->raw || r->raw->status != 404)
		return false;
	r->outcome = rest_call_available(r->call, a, v) ? REST_NOT_FOUND : REST_UNSUPPORTED;
	return true;
}

void rest_result_decode(enum rest_call call, const struct rest_response *raw,
			struct rest_result *out)
{
	assert((unsigned)call < REST_CALL_COUNT);
	const struct rest_route *r = &routes[call];
	memset(out, 0, sizeof *out);
	out->call = call;
	out->raw = raw;
	if (raw->status < 200 || raw->status >= 300)
		out->detail = error_detail_decode(raw->body, raw->body_len);
	switch (raw->status) {
	case 0:
		out->outcome = REST_NO_ANSWER;
		return;
	case 401:
	case 403:
		out->outcome = REST_AUTH;
		return;
	case 400:
		out->outcome = r->statuses->on400;
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
	int decoded = 0;
	if (raw->status < 200 || raw->status >= 300)
		out->outcome = REST_HTTP_ERROR;
	else if (r->decode && (decoded = r->decode(raw->body ? raw->body : "", raw->body_len,
						    out)) < 0)
		out->outcome = REST_BAD_BODY;
	else
		out->outcome = decoded > 0 ? REST_NOT_FOUND : REST_OK;
}

void rest_result_fini(struct rest_result *r)
{
	conversation_infos_free(r->conversations.items, r->conversations.count);
	free(r->conversations.next_page_id);
	event_page_fini(&r->events);
	memset(&r->conversations, 0, sizeof r->conversations);
	profile_list_fini(&r->profiles);
	free(r->answer);
	r->answer = NULL;
	free(r->detail);
	r->detail = NULL;
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
