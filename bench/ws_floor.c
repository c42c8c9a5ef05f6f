/* ws_floor: the receive-and-discard floor for the streaming benchmarks. It opens the same
 * session socket tether opens, reassembles each message (as any client must) and throws it
 * away: no JSON, no transcript, no terminal. What it costs is the least any client on this
 * stream can cost. At the end it prints its own CPU time (in all, and since the first message
 * containing --start: "while streaming"), peak RSS and counts.
 *
 *   ws_floor --port N --conversation ID [--after-seq N] [--start TEXT] [--until TEXT]
 *            [--timeout S] [--read-bytes N]
 *
 * It stops at the first message containing --until that comes after a message containing
 * --start (both optional), when the server closes, or after --timeout seconds. */
#define _GNU_SOURCE /* memmem */
#include "base.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct floor_state {
	struct lws_context *ctx;
	lws_sorted_usec_list_t timeout_sul;
	struct buf msg;
	const char *start, *until;
	bool started;
	bool done;
	bool failed;
	unsigned long messages;
	unsigned long long bytes;
	int64_t first_us, last_us;
	double cpu_at_start;            /* CPU seconds when --start matched */
};

static struct floor_state st;

static double process_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool contains(const struct buf *b, const char *needle)
{
	return b->len && memmem(b->data, b->len, needle, strlen(needle)) != NULL;
}

static void message_done(void)
{
	st.messages++;
	st.bytes += st.msg.len;
	st.last_us = clock_now_us();
	if (!st.first_us)
		st.first_us = st.last_us;
	if (!st.started && (!st.start || contains(&st.msg, st.start))) {
		st.started = true;
		st.cpu_at_start = process_cpu_s();
	}
	else if (st.started && st.until && contains(&st.msg, st.until))
		st.done = true;
}

static int on_event(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		    size_t len)
{
	switch (reason) {
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		fprintf(stderr, "ws_floor: %s\n", in ? (const char *)in : "connection error");
		st.failed = st.done = true;
		break;
	case LWS_CALLBACK_CLIENT_RECEIVE:
		if (lws_is_first_fragment(wsi))
			buf_clear(&st.msg);
		buf_append(&st.msg, in, len);
		if (lws_is_final_fragment(wsi))
			message_done();
		if (st.done)
			return -1;
		break;
	case LWS_CALLBACK_CLIENT_CLOSED:
		st.done = true;
		break;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static void timed_out(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	fprintf(stderr, "ws_floor: timeout\n");
	st.failed = st.done = true;
	lws_cancel_service(st.ctx);
}

static const struct lws_protocols protocols[] = {
	{ "floor", on_event, 0, 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	int port = 0;
	const char *conv = NULL, *after = "-1";
	double timeout_s = 60;
	/* As much per read as tether (NET_READ_BYTES): lws's default, 4 KB, costs a poll and a read
	 * per 4 KB, which no client need pay. */
	unsigned read_bytes = 64u * 1024u;
	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];
		if (!strcmp(k, "--port"))
			port = atoi(v);
		else if (!strcmp(k, "--conversation"))
			conv = v;
		else if (!strcmp(k, "--after-seq"))
			after = v;
		else if (!strcmp(k, "--start"))
			st.start = v;
		else if (!strcmp(k, "--until"))
			st.until = v;
		else if (!strcmp(k, "--timeout"))
			timeout_s = atof(v);
		else if (!strcmp(k, "--read-bytes"))
			read_bytes = (unsigned)atoi(v);
	}
	if (!port || !conv) {
		fprintf(stderr, "usage: ws_floor --port N --conversation ID [--after-seq N] "
				"[--start TEXT] [--until TEXT] [--timeout S] [--read-bytes N]\n");
		return 2;
	}
	lws_set_log_level(LLL_ERR, NULL);
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.pt_serv_buf_size = read_bytes;
	st.ctx = lws_create_context(&info);
	if (!st.ctx) {
		fprintf(stderr, "ws_floor: no lws context\n");
		return 1;
	}
	char path[512];
	snprintf(path, sizeof path, "/sockets/session/%s?after_seq=%s", conv, after);
	struct lws_client_connect_info ci;
	memset(&ci, 0, sizeof ci);
	ci.context = st.ctx;
	ci.address = "127.0.0.1";
	ci.port = port;
	ci.path = path;
	ci.host = "127.0.0.1";
	ci.origin = "127.0.0.1";
	ci.protocol = NULL;
	ci.local_protocol_name = "floor";
	int64_t t0 = clock_now_us();
	if (!lws_client_connect_via_info(&ci)) {
		fprintf(stderr, "ws_floor: connect failed\n");
		lws_context_destroy(st.ctx);
		return 1;
	}
	lws_sul_schedule(st.ctx, 0, &st.timeout_sul, timed_out, (lws_usec_t)(timeout_s * 1e6));
	while (!st.done && lws_service(st.ctx, 0) >= 0)
		;
	/* Measured before teardown: the cost of receiving, not of exiting. */
	double cpu = process_cpu_s();
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("messages %lu\nbytes %llu\ncpu_s %.6f\ncpu_stream_s %.6f\nmaxrss_kb %ld\nwall_s %.3f\n"
	       "stream_s %.3f\n",
	       st.messages, st.bytes, cpu, st.started ? cpu - st.cpu_at_start : 0.0, ru.ru_maxrss,
	       (double)(clock_now_us() - t0) / 1e6, (double)(st.last_us - st.first_us) / 1e6);
	lws_sul_cancel(&st.timeout_sul);
	lws_context_destroy(st.ctx);
	buf_fini(&st.msg);
	return st.failed ? 1 : 0;
}
