/* The typed REST calls against the fixture server: each one's method, path (the conversation
 * id escaped as one segment, query values escaped) and body, as the request line left tether
 * (the fixture's front logs it as sent) and as the server read the body (its rest line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "net.h"
#include "spawn.h"

/* An id made of path and query syntax, a space, a percent sign and a non-ASCII letter. */
#define ODD_ID "../a b?c=d#e%é"
#define ODD_ESC "..%2Fa%20b%3Fc%3Dd%23e%25%C3%A9"
#define CONV "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91"
#define UNKNOWN "0d0d0d0d-0000-4000-8000-000000000000"

struct run {
	struct loop *loop;
	struct fixture_proc fp;
	char url[64];
	struct rest_server srv;
	int status;
	enum rest_outcome outcome;
	char body[4096];
	size_t conversations, events;   /* the typed answer: items decoded */
	bool has_next;
	int64_t count;
	bool done;
	char version[32];               /* SERVER_INFO */
	size_t profiles;
	char active[64], answer[256], detail[256], first_id[64], leaf[64], first_event[64];
};

static struct run R;

static void on_done(void *ctx, struct rest_result *r)
{
	struct run *run = ctx;

	run->done = true;
	run->status = r->raw->status;
	run->outcome = r->outcome;
	run->conversations = r->conversations.count;
	run->events = r->events.count;
	run->has_next = r->conversations.next_page_id || r->events.next_page_id;
	run->count = r->count;
	snprintf(run->version, sizeof run->version, "%s", r->version.text);
	run->profiles = r->profiles.count;
	snprintf(run->active, sizeof run->active, "%s", r->profiles.active ? r->profiles.active : "");
	snprintf(run->answer, sizeof run->answer, "%s", r->answer ? r->answer : "");
	snprintf(run->detail, sizeof run->detail, "%s", r->detail ? r->detail : "");
	const struct conversation_info *ci = r->conversations.count ? r->conversations.items : NULL;
	snprintf(run->first_id, sizeof run->first_id, "%s", ci && ci->id ? ci->id : "");
	snprintf(run->leaf, sizeof run->leaf, "%s", ci && ci->leaf_event_id ? ci->leaf_event_id : "");
	snprintf(run->first_event, sizeof run->first_event, "%s",
		 r->events.count && r->events.events[0].id ? r->events.events[0].id : "");
	snprintf(run->body, sizeof(run->body), "%.*s", (int)r->raw->body_len,
		 r->raw->body ? r->raw->body : "");
	loop_quit(run->loop);
}

/* Starts call with a on R's server, answered to on_done. */
static int call(enum rest_call c, struct rest_args a)
{
	return rest_call(&R.srv, c, &a, on_done, &R);
}

/* Waits for the call that rc started; then a new loop, so that the next call opens its own
 * connection and the front logs its request line (it logs a connection's first). */
static void finish_call(int rc)
{
	struct buf err;

	assert_int_equal(rc, 0);
	R.done = false;
	assert_int_equal(loop_run(R.loop), 0);
	assert_true(R.done);
	loop_destroy(R.loop);
	buf_init(&err);
	R.loop = loop_create(NULL, &err);
	assert_non_null(R.loop);
	buf_fini(&err);
	R.srv.loop = R.loop;
}

/* Starts the fixture server on a scenario of these lines and extra arguments; url[0..n) is
 * set to its address. */
static void start_fixture(struct fixture_proc *fp, const char *lines, const char *const *extra,
			  char *url, size_t n)
{
	char *scenario = fixture_scenario_file(lines);

	assert_int_equal(fixture_start(fp, NULL, scenario, extra), 0);
	unlink(scenario);
	free(scenario);
	snprintf(url, n, "http://127.0.0.1:%d", fp->port);
}

static int setup(void **state)
{
	static const char *const extra[] = { NULL };
	struct buf err;

	(void)state;
	buf_init(&err);
	alarm(60);
	memset(&R, 0, sizeof(R));
	start_fixture(&R.fp, "front pass\nhistory 3\n", extra, R.url, sizeof(R.url));
	R.loop = loop_create(NULL, &err);
	assert_non_null(R.loop);
	buf_fini(&err);
	R.srv = (struct rest_server){ .loop = R.loop, .url = R.url, .api_key = NULL };
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	loop_destroy(R.loop);
	fixture_stop(&R.fp);
	fixture_cleanup(&R.fp);
	return 0;
}

/* True when the traffic log has a line that starts with prefix and ends with suffix. */
static bool logged(const char *prefix, const char *suffix)
{
	char *log = fixture_read_file(R.fp.traffic, NULL);
	bool found = false;

	assert_non_null(log);
	for (char *line = strtok(log, "\n"); line && !found; line = strtok(NULL, "\n")) {
		size_t n = strlen(line), s = strlen(suffix);
		found = !strncmp(line, prefix, strlen(prefix)) && n >= s &&
			!strcmp(line + n - s, suffix);
	}
	free(log);
	return found;
}

/* The front saw exactly this request line (after "front <n> pass "). */
static void expect_request(const char *line)
{
	char suffix[600];

	snprintf(suffix, sizeof(suffix), " pass %s HTTP/1.1", line);
	if (!logged("front ", suffix))
		fail_msg("no request line \"%s\" in the traffic log:\n%s", line,
			 fixture_read_file(R.fp.traffic, NULL));
}

/* The server read this body on a METHOD request. */
static void expect_body(const char *method, const char *body)
{
	char prefix[32], suffix[600];

	snprintf(prefix, sizeof(prefix), "rest %s ", method);
	snprintf(suffix, sizeof(suffix), " %s", body);
	if (!logged(prefix, suffix))
		fail_msg("no %s with body %s in the traffic log:\n%s", method, body,
			 fixture_read_file(R.fp.traffic, NULL));
}

static void test_get_conversation(void **state)
{
	(void)state;
	finish_call(call(REST_GET_CONVERSATION, (struct rest_args){ .id = ODD_ID }));
	expect_request("GET /api/conversations/" ODD_ESC);
	/* the real id answers its ConversationInfo */
	finish_call(call(REST_GET_CONVERSATION, (struct rest_args){ .id = CONV }));
	assert_int_equal(R.status, 200);
	assert_non_null(strstr(R.body, "\"id\":\"" CONV "\""));
	/* decoded: one conversation */
	assert_int_equal(R.outcome, REST_OK);
	assert_int_equal(R.conversations, 1);
}

static void test_send_message(void **state)
{
	(void)state;
	finish_call(call(REST_SEND_MESSAGE, (struct rest_args){ .id = ODD_ID, .text = "say \"hi\"\n\x01" }));
	expect_request("POST /api/conversations/" ODD_ESC "/events");
	expect_body("POST", "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":"
			    "\"say \\\"hi\\\"\\u000a\\u0001\"}],\"run\":true}");
}

static void test_controls(void **state)
{
	(void)state;
	finish_call(call(REST_PAUSE, (struct rest_args){ .id = ODD_ID }));
	expect_request("POST /api/conversations/" ODD_ESC "/pause");
	finish_call(call(REST_INTERRUPT, (struct rest_args){ .id = ODD_ID }));
	expect_request("POST /api/conversations/" ODD_ESC "/interrupt");
	finish_call(call(REST_RUN, (struct rest_args){ .id = ODD_ID }));
	expect_request("POST /api/conversations/" ODD_ESC "/run");
	/* the fixture's conversation pauses: the call reached the route */
	finish_call(call(REST_PAUSE, (struct rest_args){ .id = CONV }));
	assert_int_equal(R.status, 200);
	assert_string_equal(R.body, "{\"success\":true}");
}

static void test_confirmation(void **state)
{
	(void)state;
	finish_call(call(REST_RESPOND_TO_CONFIRMATION, (struct rest_args){ .id = ODD_ID, .accept = true, .reason = "ignored" }));
	expect_request("POST /api/conversations/" ODD_ESC "/events/respond_to_confirmation");
	expect_body("POST", "{\"accept\":true}");
	finish_call(call(REST_RESPOND_TO_CONFIRMATION, (struct rest_args){ .id = CONV, .accept = false, .reason = "too \"risky\"" }));
	assert_int_equal(R.status, 200);
	expect_body("POST", "{\"accept\":false,\"reason\":\"too \\\"risky\\\"\"}");
	finish_call(call(REST_RESPOND_TO_CONFIRMATION, (struct rest_args){ .id = CONV, .accept = false, .reason = "" }));
	expect_body("POST", "{\"accept\":false}");
}

static void test_confirmation_policy(void **state)
{
	(void)state;
	finish_call(call(REST_SET_CONFIRMATION_POLICY, (struct rest_args){ .id = ODD_ID, .policy = CONFIRMATION_POLICY_NEVER }));
	expect_request("POST /api/conversations/" ODD_ESC "/confirmation_policy");
	expect_body("POST", "{\"policy\":{\"kind\":\"NeverConfirm\"}}");
	finish_call(call(REST_SET_CONFIRMATION_POLICY, (struct rest_args){ .id = CONV, .policy = CONFIRMATION_POLICY_RISKY }));
	assert_int_equal(R.status, 200);
	expect_body("POST", "{\"policy\":{\"kind\":\"ConfirmRisky\",\"threshold\":\"HIGH\","
			    "\"confirm_unknown\":true}}");
	finish_call(call(REST_SET_CONFIRMATION_POLICY, (struct rest_args){ .id = CONV, .policy = CONFIRMATION_POLICY_ALWAYS }));
	assert_int_equal(R.status, 200);
	expect_body("POST", "{\"policy\":{\"kind\":\"AlwaysConfirm\"}}");
	finish_call(call(REST_SET_CONFIRMATION_POLICY, (struct rest_args){ .id = CONV, .policy = CONFIRMATION_POLICY_RISKY, .threshold = RISK_THRESHOLD_LOW }));
	expect_body("POST", "{\"policy\":{\"kind\":\"ConfirmRisky\",\"threshold\":\"LOW\","
			    "\"confirm_unknown\":true}}");
}

static void test_search_conversations(void **state)
{
	(void)state;
	finish_call(call(REST_SEARCH_CONVERSATIONS, (struct rest_args){ .page_id = NULL, .limit = 100 }));
	expect_request("GET /api/conversations/search?limit=100");
	assert_int_equal(R.status, 200);
	assert_int_equal(R.outcome, REST_OK);
	assert_int_equal(R.conversations, 1);
	finish_call(call(REST_SEARCH_CONVERSATIONS, (struct rest_args){ .page_id = ODD_ID, .limit = 500 }));
	expect_request("GET /api/conversations/search?limit=100&page_id=" ODD_ESC);
}

static void test_search_events(void **state)
{
	struct event_query q = {
		.page_id = ODD_ID, .limit = 7, .order = EVENT_ORDER_NEWEST_FIRST,
		.kind = "openhands.sdk.event.llm_convertible.message.MessageEvent",
		.source = "user", .body = "50% & more", .timestamp_gte = "2026-01-02T03:04:05+01:00",
		.timestamp_lt = "2026-01-03T00:00:00",
	};

	(void)state;
	finish_call(call(REST_SEARCH_EVENTS, (struct rest_args){ .id = ODD_ID, .query = &q }));
	expect_request("GET /api/conversations/" ODD_ESC "/events/search?page_id=" ODD_ESC
		       "&limit=7&sort_order=TIMESTAMP_DESC"
		       "&kind=openhands.sdk.event.llm_convertible.message.MessageEvent&source=user"
		       "&body=50%25%20%26%20more&timestamp__gte=2026-01-02T03%3A04%3A05%2B01%3A00"
		       "&timestamp__lt=2026-01-03T00%3A00%3A00");
	/* no query: no parameters; the fixture's conversation answers a page */
	finish_call(call(REST_SEARCH_EVENTS, (struct rest_args){ .id = CONV, .query = NULL }));
	expect_request("GET /api/conversations/" CONV "/events/search");
	assert_int_equal(R.status, 200);
	assert_non_null(strstr(R.body, "\"items\":["));
	/* limit 2, oldest first: two events and the next page named */
	q = (struct event_query){ .limit = 2 };
	finish_call(call(REST_SEARCH_EVENTS, (struct rest_args){ .id = CONV, .query = &q }));
	expect_request("GET /api/conversations/" CONV "/events/search?limit=2");
	assert_int_equal(R.status, 200);
	assert_null(strstr(R.body, "\"next_page_id\":null"));
	assert_int_equal(R.outcome, REST_OK);
	assert_int_equal(R.events, 2);
	assert_true(R.has_next);
}

/* At or before a time: upstream has only __lt, so one microsecond later, carried through
 * seconds, days and years, the zone as given; a time that does not parse sends no bound. */
static void test_search_events_at_or_before(void **state)
{
	static const char *const cases[][2] = {
		{ "2026-06-16T05:39:45.004545", "2026-06-16T05%3A39%3A45.004546" },
		{ "2026-06-16T05:39:45", "2026-06-16T05%3A39%3A45.000001" },
		{ "2026-06-16T05:39:45.5", "2026-06-16T05%3A39%3A45.500001" },
		{ "2026-12-31T23:59:59.999999+01:00", "2027-01-01T00%3A00%3A00.000000%2B01%3A00" },
		{ "2024-02-28T23:59:59.999999Z", "2024-02-29T00%3A00%3A00.000000Z" },
		{ "2026-06-16T05:39:45.1234567", "2026-06-16T05%3A39%3A45.123457" },
	};
	char want[256];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct event_query q = { .timestamp_lte = cases[i][0] };
		finish_call(call(REST_SEARCH_EVENTS, (struct rest_args){ .id = CONV, .query = &q }));
		snprintf(want, sizeof want, "GET /api/conversations/" CONV
			 "/events/search?timestamp__lt=%s", cases[i][1]);
		expect_request(want);
	}
	struct event_query q = { .timestamp_lte = "yesterday" };
	finish_call(call(REST_SEARCH_EVENTS, (struct rest_args){ .id = CONV, .query = &q }));
	expect_request("GET /api/conversations/" CONV "/events/search");
}

static void test_count_events(void **state)
{
	struct event_query q = { .page_id = "p", .limit = 3, .order = EVENT_ORDER_NEWEST_FIRST,
				 .source = "agent", .timestamp_lt = "2030-01-01T00:00:00" };
	(void)state;
	/* paging and order are not count's parameters */
	finish_call(call(REST_COUNT_EVENTS, (struct rest_args){ .id = ODD_ID, .query = &q }));
	expect_request("GET /api/conversations/" ODD_ESC
		       "/events/count?source=agent&timestamp__lt=2030-01-01T00%3A00%3A00");
	finish_call(call(REST_COUNT_EVENTS, (struct rest_args){ .id = CONV, .query = NULL }));
	expect_request("GET /api/conversations/" CONV "/events/count");
	assert_int_equal(R.status, 200);
	assert_int_equal(R.outcome, REST_OK);
	assert_true(R.count >= 3);
}

static void test_count_decode(void **state)
{
	struct codec_error err;
	int64_t n = -1;

	(void)state;
	assert_int_equal(event_count_decode("42", 2, &n, &err), 0);
	assert_int_equal(n, 42);
	assert_int_equal(event_count_decode(" 0 ", 3, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_int_equal(event_count_decode("-1", 2, &n, &err), -1);
	assert_int_equal(err.status, CODEC_WRONG_TYPE);
	assert_int_equal(event_count_decode("1.5", 3, &n, &err), -1);
	assert_int_equal(event_count_decode("\"3\"", 3, &n, &err), -1);
	assert_int_equal(event_count_decode("{}", 2, &n, &err), -1);
	assert_int_equal(event_count_decode("1e300", 5, &n, &err), -1);
	assert_int_equal(event_count_decode("", 0, &n, &err), -1);
	assert_int_equal(err.status, CODEC_MALFORMED_JSON);
}

/* Lines of the traffic log of fp that start with prefix. */
static int count_lines(struct fixture_proc *fp, const char *prefix)
{
	char *log = fixture_read_file(fp->traffic, NULL);
	int n = 0;

	assert_non_null(log);
	for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
		n += !strncmp(line, prefix, strlen(prefix));
	free(log);
	return n;
}

struct chain {
	struct loop *loop;
	struct rest_server *srv;
	int left, ok;
};

/* Each answer starts the next request, as paging does. */
static void chain_next(void *ctx, struct rest_result *r)
{
	struct chain *ch = ctx;
	struct event_query q = { .limit = 1 };
	struct rest_args a = { .id = CONV, .query = &q };

	ch->ok += r->outcome == REST_OK;
	if (--ch->left <= 0 || rest_call(ch->srv, REST_SEARCH_EVENTS, &a, chain_next, ch) != 0)
		loop_quit(ch->loop);
}

/* Reads started by the answer of the one before (a search, then its count) ride its kept-alive
 * TCP connection; a read on its own later opens another (none is left idle for the server to
 * close under it). */
static void test_keep_alive(void **state)
{
	static const char *const extra[] = { NULL };
	struct fixture_proc fp;
	struct rest_server srv;
	char url[64];

	(void)state;
	start_fixture(&fp, "history 3\n", extra, url, sizeof(url));
	srv = (struct rest_server){ .loop = R.loop, .url = url };
	struct chain ch = { .loop = R.loop, .srv = &srv, .left = 10 };
	struct rest_args a = { .id = CONV };
	assert_int_equal(rest_call(&srv, REST_SEARCH_EVENTS, &a, chain_next, &ch), 0);
	assert_int_equal(loop_run(R.loop), 0);
	assert_int_equal(ch.ok, 10);
	int tcp = count_lines(&fp, "tcp ");
	if (tcp != 1)
		fail_msg("10 chained requests took %d TCP connections, not 1:\n%s", tcp,
			 fixture_read_file(fp.traffic, NULL));
	ch.left = 1;
	assert_int_equal(rest_call(&srv, REST_COUNT_EVENTS, &a, chain_next, &ch), 0);
	assert_int_equal(loop_run(R.loop), 0);
	assert_int_equal(ch.ok, 11);
	assert_int_equal(count_lines(&fp, "rest GET"), 11);
	assert_int_equal(count_lines(&fp, "tcp "), 2);
	fixture_stop(&fp);
	fixture_cleanup(&fp);
}

struct beside {
	struct loop *loop;
	struct rest_server *srv;
	int done, ok;
	char failed[160];
};

static void beside_done(void *ctx, struct rest_result *r)
{
	struct beside *b = ctx;

	b->ok += r->outcome == REST_OK;
	if (r->outcome != REST_OK && !b->failed[0])
		snprintf(b->failed, sizeof b->failed, "%s: %s", rest_call_name(r->call),
			 r->raw && r->raw->error ? r->raw->error : "not OK");
	if (++b->done == 3)
		loop_quit(b->loop);
}

/* The count's answer starts a follow-up read. */
static void count_then_info(void *ctx, struct rest_result *r)
{
	struct beside *b = ctx;
	struct rest_args none = {0};

	beside_done(ctx, r);
	if (rest_call(b->srv, REST_SERVER_INFO, &none, beside_done, b) != 0)
		loop_quit(b->loop);
}

/* A follow-up started from an answer while another read is still in flight: it must not be
 * queued on that other read's connection, which closes when that read is answered (the
 * follow-up was lost there: "connection closed before the response was complete"). */
static void test_follow_up_beside_slow_read(void **state)
{
	static const char *const extra[] = { "--search-delay", "0.4", NULL };
	struct fixture_proc fp;
	struct rest_server srv;
	char url[64];

	(void)state;
	start_fixture(&fp, "history 3\n", extra, url, sizeof(url));
	srv = (struct rest_server){ .loop = R.loop, .url = url };
	struct beside b = { .loop = R.loop, .srv = &srv };
	struct rest_args a = { .id = CONV };
	assert_int_equal(rest_call(&srv, REST_SEARCH_EVENTS, &a, beside_done, &b), 0);
	assert_int_equal(rest_call(&srv, REST_COUNT_EVENTS, &a, count_then_info, &b), 0);
	assert_int_equal(loop_run(R.loop), 0);
	if (b.ok != 3)
		fail_msg("%d of 3 reads answered; first failure %s", b.ok, b.failed);
	fixture_stop(&fp);
	fixture_cleanup(&fp);
}

/* GET /server_info: no key needed, the version decoded. */
static void test_server_info(void **state)
{
	(void)state;
	finish_call(call(REST_SERVER_INFO, (struct rest_args){ 0 }));
	expect_request("GET /server_info");
	assert_int_equal(R.outcome, REST_OK);
	assert_string_equal(R.version, "1.43.1");
}

/* Profiles: the first list of agent profiles seeds "default" and makes it active; a new
 * conversation from it (201), with its workspace and first message; an unknown profile
 * 404 in the server's words; none given is refused before sending. */
static void test_profiles_and_start(void **state)
{
	(void)state;
	finish_call(call(REST_LIST_AGENT_PROFILES, (struct rest_args){ 0 }));
	expect_request("GET /api/agent-profiles");
	assert_int_equal(R.outcome, REST_OK);
	assert_int_equal(R.profiles, 1);
	char active[64];
	snprintf(active, sizeof active, "%s", R.active);
	assert_true(active[0]);
	finish_call(call(REST_LIST_LLM_PROFILES, (struct rest_args){ 0 }));
	expect_request("GET /api/profiles");
	assert_int_equal(R.outcome, REST_OK);
	assert_int_equal(R.profiles, 2);
	assert_string_equal(R.active, "default");

	finish_call(call(REST_START_CONVERSATION, (struct rest_args){ .profile = active,
		.working_dir = "/work/a \"b\"", .text = "hello", .autotitle = false }));
	expect_request("POST /api/conversations");
	char body[512];
	snprintf(body, sizeof body, "{\"agent_profile_id\":\"%s\",\"workspace\":{\"working_dir\":"
		 "\"/work/a \\\"b\\\"\"},\"initial_message\":{\"role\":\"user\",\"content\":[{\"type\":"
		 "\"text\",\"text\":\"hello\"}],\"run\":true},\"autotitle\":false}", active);
	expect_body("POST", body);
	assert_int_equal(R.status, 201);
	assert_int_equal(R.outcome, REST_OK);
	assert_true(R.first_id[0]);
	finish_call(call(REST_START_CONVERSATION, (struct rest_args){ .profile = "nope",
		.working_dir = "/w", .autotitle = true }));
	assert_int_equal(R.outcome, REST_NOT_FOUND);
	assert_string_equal(R.detail, "Agent profile with id 'nope' not found");
	assert_int_equal(call(REST_START_CONVERSATION, (struct rest_args){ .working_dir = "/w" }), -1);
}

/* fork (whole, from an event, an unknown event), navigate (HEAD in the answer; an unknown
 * event), rename (a made conversation; an unknown one is upstream's 200 success:false),
 * delete (then gone: 400 again). */
static void test_fork_navigate_rename_delete(void **state)
{
	struct event_query q = { .limit = 1 };
	(void)state;
	finish_call(call(REST_SEARCH_EVENTS, (struct rest_args){ .id = CONV, .query = &q }));
	char ev[64];
	snprintf(ev, sizeof ev, "%s", R.first_event);
	assert_true(ev[0]);

	finish_call(call(REST_FORK, (struct rest_args){ .id = ODD_ID }));
	expect_request("POST /api/conversations/" ODD_ESC "/fork");
	finish_call(call(REST_FORK, (struct rest_args){ .id = UNKNOWN }));
	assert_int_equal(R.outcome, REST_NOT_FOUND);
	assert_string_equal(R.detail, "Source conversation not found");
	finish_call(call(REST_FORK, (struct rest_args){ .id = CONV, .title = "Try 2", .event_id = ev }));
	char body[256];
	snprintf(body, sizeof body, "{\"reset_metrics\":true,\"title\":\"Try 2\",\"from_event_id\":\"%s\"}", ev);
	expect_body("POST", body);
	assert_int_equal(R.status, 201);
	assert_int_equal(R.outcome, REST_OK);
	char fork[64];
	snprintf(fork, sizeof fork, "%s", R.first_id);
	assert_true(fork[0] && strcmp(fork, CONV));
	finish_call(call(REST_FORK, (struct rest_args){ .id = CONV, .event_id = "evt-missing" }));
	assert_int_equal(R.outcome, REST_NOT_FOUND);
	assert_string_equal(R.detail, "Unknown from_event_id: evt-missing");

	finish_call(call(REST_NAVIGATE, (struct rest_args){ .id = CONV, .event_id = ev }));
	expect_request("POST /api/conversations/" CONV "/navigate");
	snprintf(body, sizeof body, "{\"event_id\":\"%s\"}", ev);
	expect_body("POST", body);
	assert_int_equal(R.outcome, REST_OK);
	assert_string_equal(R.leaf, ev);
	finish_call(call(REST_NAVIGATE, (struct rest_args){ .id = CONV, .event_id = "nope" }));
	assert_int_equal(R.outcome, REST_NOT_FOUND);
	assert_string_equal(R.detail, "Unknown event_id: nope");
	/* no event: the empty tree, never sent */
	assert_int_equal(call(REST_NAVIGATE, (struct rest_args){ .id = CONV }), -1);
	/* nothing is renumbered: the next event is appended with the new HEAD as its parent,
	 * and becomes HEAD (a state update after it hangs off it and does not) */
	finish_call(call(REST_SEND_MESSAGE, (struct rest_args){ .id = CONV, .text = "again" }));
	struct event_query newest = { .limit = 1, .order = EVENT_ORDER_NEWEST_FIRST,
				      .source = "user" };
	finish_call(call(REST_SEARCH_EVENTS, (struct rest_args){ .id = CONV, .query = &newest }));
	snprintf(body, sizeof body, "\"parent_id\":\"%s\"", ev);
	assert_non_null(strstr(R.body, body));
	char echo[64];
	snprintf(echo, sizeof echo, "%s", R.first_event);
	finish_call(call(REST_SEND_MESSAGE, (struct rest_args){ .id = CONV, .text = "and again" }));
	finish_call(call(REST_SEARCH_EVENTS, (struct rest_args){ .id = CONV, .query = &newest }));
	snprintf(body, sizeof body, "\"parent_id\":\"%s\"", echo);
	assert_non_null(strstr(R.body, body));

	finish_call(call(REST_RENAME, (struct rest_args){ .id = fork, .title = "A \"new\" name" }));
	expect_body("PATCH", "{\"title\":\"A \\\"new\\\" name\"}");
	assert_int_equal(R.outcome, REST_OK);
	finish_call(call(REST_GET_CONVERSATION, (struct rest_args){ .id = fork }));
	assert_non_null(strstr(R.body, "\"title\":\"A \\\"new\\\" name\""));
	finish_call(call(REST_RENAME, (struct rest_args){ .id = "c0000000-0000-4000-8000-999999999999",
		.title = "x" }));
	assert_int_equal(R.status, 200);
	assert_int_equal(R.outcome, REST_NOT_FOUND);
	finish_call(call(REST_RENAME, (struct rest_args){ .id = fork, .title = "" }));
	assert_int_equal(R.outcome, REST_INVALID);
	assert_string_equal(R.detail, "title: String should have at least 1 character");

	finish_call(call(REST_DELETE, (struct rest_args){ .id = fork }));
	char line[128];
	snprintf(line, sizeof line, "DELETE /api/conversations/%s", fork);
	expect_request(line);
	assert_int_equal(R.outcome, REST_OK);
	finish_call(call(REST_DELETE, (struct rest_args){ .id = fork }));
	assert_int_equal(R.status, 400);
	assert_int_equal(R.outcome, REST_NOT_FOUND);
	finish_call(call(REST_GET_CONVERSATION, (struct rest_args){ .id = fork }));
	assert_int_equal(R.outcome, REST_NOT_FOUND);
}

/* ask_agent, condense, switch_profile, goals, policy with a level, the security analyzer. */
static void test_ask_compact_model_goal_policy(void **state)
{
	(void)state;
	finish_call(call(REST_ASK_AGENT, (struct rest_args){ .id = CONV, .text = "what now?" }));
	expect_request("POST /api/conversations/" CONV "/ask_agent");
	expect_body("POST", "{\"question\":\"what now?\"}");
	assert_int_equal(R.outcome, REST_OK);
	assert_non_null(strstr(R.answer, "what now?"));
	finish_call(call(REST_ASK_AGENT, (struct rest_args){ .id = UNKNOWN, .text = "x" }));
	assert_int_equal(R.status, 500);
	assert_int_equal(R.outcome, REST_HTTP_ERROR);

	finish_call(call(REST_CONDENSE, (struct rest_args){ .id = CONV }));
	expect_request("POST /api/conversations/" CONV "/condense");
	assert_int_equal(R.outcome, REST_OK);
	finish_call(call(REST_CONDENSE, (struct rest_args){ .id = UNKNOWN }));
	assert_int_equal(R.outcome, REST_NOT_FOUND);
	assert_string_equal(R.detail, "Conversation not found");

	finish_call(call(REST_SWITCH_PROFILE, (struct rest_args){ .id = CONV, .profile = "fast" }));
	expect_body("POST", "{\"profile_name\":\"fast\"}");
	assert_int_equal(R.outcome, REST_OK);
	finish_call(call(REST_SWITCH_PROFILE, (struct rest_args){ .id = CONV, .profile = "slow" }));
	assert_int_equal(R.outcome, REST_NOT_FOUND);
	assert_string_equal(R.detail, "Profile 'slow' not found");

	finish_call(call(REST_GOAL_RESUME, (struct rest_args){ .id = CONV }));
	assert_int_equal(R.outcome, REST_REFUSED);
	assert_string_equal(R.detail, "no_resumable_goal");
	finish_call(call(REST_GOAL_START, (struct rest_args){ .id = CONV, .text = "  " }));
	assert_int_equal(R.outcome, REST_REFUSED);
	assert_string_equal(R.detail, "Goal objective must not be empty.");
	finish_call(call(REST_GOAL_START, (struct rest_args){ .id = CONV, .text = "tests pass",
		.max_iterations = 3 }));
	expect_body("POST", "{\"objective\":\"tests pass\",\"max_iterations\":3}");
	assert_int_equal(R.outcome, REST_OK);
	finish_call(call(REST_GOAL_START, (struct rest_args){ .id = CONV, .text = "again" }));
	assert_int_equal(R.outcome, REST_CONFLICT);
	finish_call(call(REST_GOAL_STOP, (struct rest_args){ .id = CONV }));
	expect_request("POST /api/conversations/" CONV "/goal/stop");
	assert_int_equal(R.outcome, REST_OK);
	finish_call(call(REST_GOAL_STOP, (struct rest_args){ .id = CONV }));
	assert_int_equal(R.outcome, REST_OK);
	finish_call(call(REST_GOAL_RESUME, (struct rest_args){ .id = CONV }));
	expect_request("POST /api/conversations/" CONV "/goal/resume");
	assert_int_equal(R.outcome, REST_OK);

	finish_call(call(REST_SET_CONFIRMATION_POLICY, (struct rest_args){ .id = CONV,
		.policy = CONFIRMATION_POLICY_RISKY, .threshold = RISK_THRESHOLD_MEDIUM }));
	expect_body("POST", "{\"policy\":{\"kind\":\"ConfirmRisky\",\"threshold\":\"MEDIUM\","
			    "\"confirm_unknown\":true}}");
	finish_call(call(REST_SET_SECURITY_ANALYZER, (struct rest_args){ .id = CONV,
		.analyzer = SECURITY_ANALYZER_LLM }));
	expect_request("POST /api/conversations/" CONV "/security_analyzer");
	expect_body("POST", "{\"security_analyzer\":{\"kind\":\"LLMSecurityAnalyzer\"}}");
	assert_int_equal(R.outcome, REST_OK);
	finish_call(call(REST_SET_SECURITY_ANALYZER, (struct rest_args){ .id = CONV,
		.analyzer = SECURITY_ANALYZER_NONE }));
	expect_body("POST", "{\"security_analyzer\":null}");
	assert_int_equal(R.outcome, REST_OK);
}

/* An older server (1.20.0): routes it lacks answer a bare 404 (UNSUPPORTED), without
 * looking at the key; fork from an event forks everything (from_event_id dropped). */
static void test_older_server(void **state)
{
	static const char *const extra[] = { "--server-version", "1.20.0", NULL };
	struct fixture_proc fp;
	char url[64];
	(void)state;
	start_fixture(&fp, "key sekrit\nhistory 2\n", extra, url, sizeof url);
	struct rest_server keep = R.srv;
	R.srv.url = url;
	R.srv.api_key = NULL;
	finish_call(call(REST_SERVER_INFO, (struct rest_args){ 0 }));
	assert_string_equal(R.version, "1.20.0");
	static const enum rest_call missing[] = { REST_LIST_AGENT_PROFILES, REST_NAVIGATE,
						  REST_GOAL_START, REST_GOAL_STOP, REST_INTERRUPT };
	for (size_t i = 0; i < sizeof missing / sizeof *missing; i++) {
		finish_call(call(missing[i], (struct rest_args){ .id = CONV, .event_id = "e",
								 .text = "t" }));
		assert_int_equal(R.status, 404);
		assert_string_equal(R.body, "{\"detail\":\"Not Found\"}");
	}
	finish_call(call(REST_NAVIGATE, (struct rest_args){ .id = CONV, .event_id = "e" }));
	assert_int_equal(R.outcome, REST_NOT_FOUND);  /* a 404 alone: the version tells */
	finish_call(call(REST_LIST_AGENT_PROFILES, (struct rest_args){ 0 }));
	assert_int_equal(R.outcome, REST_UNSUPPORTED);
	/* a route it has still wants the key */
	finish_call(call(REST_FORK, (struct rest_args){ .id = CONV }));
	assert_int_equal(R.outcome, REST_AUTH);
	R.srv.api_key = "sekrit";
	finish_call(call(REST_FORK, (struct rest_args){ .id = CONV, .event_id = "evt-missing" }));
	assert_int_equal(R.status, 201);
	assert_int_equal(R.outcome, REST_OK);
	assert_non_null(strstr(R.body, "\"forked_from_event_id\":null"));
	R.srv = keep;
	R.srv.loop = R.loop;
	fixture_stop(&fp);
	fixture_cleanup(&fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_conversation),
		cmocka_unit_test(test_send_message),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_confirmation),
		cmocka_unit_test(test_confirmation_policy),
		cmocka_unit_test(test_search_conversations),
		cmocka_unit_test(test_search_events),
		cmocka_unit_test(test_search_events_at_or_before),
		cmocka_unit_test(test_count_events),
		cmocka_unit_test(test_count_decode),
		cmocka_unit_test(test_keep_alive),
		cmocka_unit_test(test_follow_up_beside_slow_read),
		cmocka_unit_test(test_server_info),
		cmocka_unit_test(test_profiles_and_start),
		cmocka_unit_test(test_fork_navigate_rename_delete),
		cmocka_unit_test(test_ask_compact_model_goal_policy),
		cmocka_unit_test(test_older_server),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
