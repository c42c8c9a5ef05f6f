/* controller_op (face/controller_op.c) against a server that answers what each case needs:
 * the operation's success said and kept, a bare 404 said as a route this server's version
 * lacks (its version from /server_info) or as the conversation gone, a 409 and a 422 in
 * words, a 200 whose body is not of the answer's shape, and no answer at all. Never an HTTP
 * status in the words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "controller_int.h"

#define CONV "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91"

static const struct run_policy tui_policy = {
	.until = UNTIL_NEVER, .rest_fallback = true, .page_history = true,
};

/* One canned answer: status and body, given to one request in turn. */
struct canned {
	int status;
	const char *body;
};

/* The server: a child that answers its canned answers in order, one connection each, and
 * writes each request's line (method and path) and body to a pipe. */
struct server {
	pid_t pid;
	int port;
	int requests;           /* the read end of the request lines */
};

/* Reads one HTTP request from fd: its first line and its body, into out. */
static void read_request(int fd, struct buf *out)
{
	char data[8192];
	size_t n = 0;
	char *end = NULL;
	while (!end && n < sizeof data - 1) {
		ssize_t r = read(fd, data + n, sizeof data - 1 - n);
		if (r <= 0)
			return;
		n += (size_t)r;
		data[n] = '\0';
		end = strstr(data, "\r\n\r\n");
	}
	if (!end)
		return;
	size_t length = 0;
	const char *cl = ascii_find_ci(data, n, "content-length:", 15);
	if (cl && cl < end)
		length = strtoul(cl + 15, NULL, 10);
	size_t head = (size_t)(end + 4 - data);
	while (n < head + length && n < sizeof data - 1) {
		ssize_t r = read(fd, data + n, sizeof data - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	data[n] = '\0';
	buf_printf(out, "%.*s %s\n", (int)strcspn(data, "\r"), data, data + head);
}

static void serve(int lfd, int report, const struct canned *answers, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			_exit(1);
		struct buf req;
		buf_init(&req);
		read_request(fd, &req);
		if (write(report, req.data ? req.data : "\n", req.len ? req.len : 1) < 0)
			_exit(1);
		buf_fini(&req);
		char head[256];
		size_t len = strlen(answers[i].body);
		int hn = snprintf(head, sizeof head, "HTTP/1.1 %d X\r\nContent-Type: application/json"
				  "\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
				  answers[i].status, len);
		if (write(fd, head, (size_t)hn) < 0 || write(fd, answers[i].body, len) < 0)
			_exit(1);
		shutdown(fd, SHUT_WR);
		char drain[256];
		while (read(fd, drain, sizeof drain) > 0)
			;
		close(fd);
	}
	_exit(0);
}

static void server_start(struct server *s, const struct canned *answers, size_t n)
{
	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(lfd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(lfd, 8), 0);
	socklen_t al = sizeof a;
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&a, &al), 0);
	s->port = ntohs(a.sin_port);
	int p[2];
	assert_int_equal(pipe(p), 0);
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (!s->pid) {
		close(p[0]);
		serve(lfd, p[1], answers, n);
	}
	close(p[1]);
	close(lfd);
	s->requests = p[0];
}

/* Stops the server; the request lines it saw (caller frees). */
static char *server_stop(struct server *s)
{
	kill(s->pid, SIGTERM);
	waitpid(s->pid, NULL, 0);
	struct buf b;
	buf_init(&b);
	char chunk[1024];
	ssize_t r;
	while ((r = read(s->requests, chunk, sizeof chunk)) > 0)
		buf_append(&b, chunk, (size_t)r);
	close(s->requests);
	char *text = buf_steal(&b);
	return text ? text : xstrdup("");
}

/* One controller on its loop, talking to a server on port. */
struct bed {
	struct options o;
	struct loop *loop;
	struct mask_set *masks;
	struct controller *c;
	struct loop_timer *deadline;
	bool answered, ok;
	char *words;
	char *requests;         /* the requests the server saw, after run_op */
	struct buf e, url;
};

static void too_late(void *arg)
{
	struct bed *b = arg;
	loop_quit(b->loop);
}

static void bed_open(struct bed *b, int port)
{
	memset(b, 0, sizeof *b);
	buf_init(&b->e);
	buf_init(&b->url);
	buf_printf(&b->url, "http://127.0.0.1:%d", port);
	setenv("XDG_CONFIG_HOME", "/nonexistent-tether-test", 1);
	char *argv[] = { "tether", "--server", (char *)buf_cstr(&b->url), CONV, NULL };
	assert_int_equal(options_parse(4, argv, &b->o, &b->e), 0);
	b->loop = loop_create(NULL, &b->e);
	assert_non_null(b->loop);
	b->masks = mask_set_create();
	b->c = controller_create(b->loop, &b->o, &tui_policy, b->masks, NULL);
	b->deadline = loop_timer_create(b->loop, too_late, b);
}

static void bed_close(struct bed *b)
{
	loop_timer_destroy(b->deadline);
	controller_destroy(b->c);
	mask_set_destroy(b->masks);
	loop_destroy(b->loop);
	options_fini(&b->o);
	buf_fini(&b->url);
	buf_fini(&b->e);
	free(b->words);
	free(b->requests);
}

static void done(void *ctx, const struct controller_op_result *r)
{
	struct bed *b = ctx;
	b->answered = true;
	b->ok = r->ok;
	b->words = xstrdup(r->words);
	loop_quit(b->loop);
}

/* Runs op against answers: the words said in b->words, the requests seen in b->requests. */
static void run_op(struct bed *b, enum controller_op op, const struct controller_op_args *a,
		   const struct canned *answers, size_t n)
{
	struct server s;
	server_start(&s, answers, n);
	bed_open(b, s.port);
	assert_true(controller_op(b->c, op, a, done, b));
	/* the same operation again while the first is under way: refused, not sent */
	assert_false(controller_op(b->c, op, a, done, b));
	loop_timer_schedule(b->deadline, 10 * 1000000);
	loop_run(b->loop);
	assert_true(b->answered);
	b->requests = server_stop(&s);
	assert_null(strstr(b->words, "HTTP"));
	assert_null(strstr(b->words, "404"));
}

static void renamed_and_kept(void **state)
{
	(void)state;
	static const struct canned answers[] = { { 200, "{\"success\":true}" } };
	struct bed b;
	run_op(&b, CONTROLLER_OP_RENAME, &(struct controller_op_args){ .text = "  New title \t" },
	       answers, 1);
	assert_true(b.ok);
	assert_string_equal(b.words, "renamed: the conversation is now “New title”");
	assert_string_equal(b.requests, "PATCH /api/conversations/" CONV " HTTP/1.1 "
					"{\"title\":\"  New title \\u0009\"}\n");
	struct controller_status st;
	controller_status(b.c, &st);
	assert_string_equal(st.title, "New title");
	bed_close(&b);
}

/* A bare 404 from a server whose version is older than the route: the route is missing. */
static void missing_route_named_with_the_version(void **state)
{
	(void)state;
	static const struct canned answers[] = {
		{ 404, "{\"detail\":\"Not Found\"}" },
		{ 200, "{\"uptime\":1.0,\"idle_time\":1.0,\"title\":\"OpenHands Agent Server\","
		       "\"version\":\"1.20.0\",\"docs\":\"/docs\",\"redoc\":\"/redoc\"}" },
	};
	struct bed b;
	run_op(&b, CONTROLLER_OP_GOAL, &(struct controller_op_args){ .text = "ship it" }, answers,
	       2);
	assert_false(b.ok);
	assert_string_equal(b.words, "this server (version 1.20.0) has no goals");
	assert_non_null(strstr(b.requests, "POST /api/conversations/" CONV "/goal HTTP/1.1 "
					   "{\"objective\":\"ship it\""));
	assert_non_null(strstr(b.requests, "\nGET /server_info HTTP/1.1"));
	bed_close(&b);
}

#define NOT_FOUND { 404, "{\"detail\":\"Not Found\"}" }
#define NEW_SERVER { 200, "{\"version\":\"1.43.1\"}" }

/* One operation refused: the answers it gets (one or two) and the words it must say. */
struct refusal {
	enum controller_op op;
	struct controller_op_args args;
	struct canned answers[2];
	const char *words;
};

static const struct refusal refusals[] = {
	/* the same bare 404 from a server that has the route: the conversation is gone */
	{ CONTROLLER_OP_GOAL, { .text = "ship it" }, { NOT_FOUND, NEW_SERVER },
	  "could not set the goal: the server no longer has this conversation" },
	/* a route in every release (the confirmation policy) answering 404 on a server of
	 * known version: the conversation is gone, whatever the table guesses for a 404 */
	{ CONTROLLER_OP_POLICY, { .policy = CONFIRMATION_POLICY_ALWAYS }, { NOT_FOUND, NEW_SERVER },
	  "could not change the confirmation policy: the server no longer has this conversation" },
	/* a 404 with other words names what is missing in the server's words */
	{ CONTROLLER_OP_MODEL, { .text = "x" },
	  { { 404, "{\"detail\":\"Profile 'x' not found\"}" } },
	  "could not switch the model: the server says “Profile 'x' not found”" },
	/* a 409 and a 422 in words */
	{ CONTROLLER_OP_GOAL, { .text = "again" },
	  { { 409, "{\"detail\":\"Conversation run or goal loop already running.\"}" } },
	  "could not set the goal: a run or a goal is already going (/goal stop, or wait)" },
	{ CONTROLLER_OP_RENAME, { .text = "" },
	  { { 422, "{\"detail\":[{\"type\":\"string_too_short\",\"loc\":[\"body\",\"title\"],"
		   "\"msg\":\"String should have at least 1 character\",\"input\":\"\"}]}" } },
	  "could not rename the conversation: the server refused the values given" },
	/* a 200 whose body is not the answer's shape is said as unreadable */
	{ CONTROLLER_OP_ASK, { .text = "why?" }, { { 200, "{\"response\":5}" } },
	  "could not ask the agent aside: the server's answer could not be read" },
	{ CONTROLLER_OP_MODELS, { 0 }, { { 200, "[\"default\"]" } },
	  "could not list the LLM profiles: the server's answer could not be read" },
};

/* Each refusal is said in its words and keeps nothing (no title, no model). */
static void refusals_in_words(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof refusals / sizeof *refusals; i++) {
		const struct refusal *r = &refusals[i];
		struct bed b;
		run_op(&b, r->op, &r->args, r->answers, r->answers[1].body ? 2 : 1);
		assert_false(b.ok);
		assert_string_equal(b.words, r->words);
		struct controller_status st;
		controller_status(b.c, &st);
		assert_null(st.title);
		assert_null(st.model);
		bed_close(&b);
	}
}

/* A switch of profile that worked does not name a model: the status line's comes with the
 * server's state update of the agent, not from the profile's name or a list. */
static void model_switch_leaves_the_model_to_the_server(void **state)
{
	(void)state;
	static const struct canned answers[] = { { 200, "{\"success\":true}" } };
	struct bed b;
	run_op(&b, CONTROLLER_OP_MODEL, &(struct controller_op_args){ .text = "fast" }, answers, 1);
	assert_true(b.ok);
	assert_string_equal(b.words, "the conversation now runs on the LLM profile “fast”");
	struct controller_status st;
	controller_status(b.c, &st);
	assert_null(st.model);
	bed_close(&b);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(renamed_and_kept),
		cmocka_unit_test(missing_route_named_with_the_version),
		cmocka_unit_test(refusals_in_words),
		cmocka_unit_test(model_switch_leaves_the_model_to_the_server),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
