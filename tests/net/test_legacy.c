/* The legacy events socket's adapter (issue 26): bare events in, the session socket's
 * frames out — sync, durables with seqs of tether's own count, the snapshot as a transient,
 * identity-less deltas as one preview stream, errors — and the path with its key by version. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "net_int.h"

/* What the adapter handed on, decoded, and the cursor a session would have moved. */
struct sink {
	struct frame frames[64];
	size_t n;
	int64_t cursor;
};

static int sink_emit(void *ctx, const char *json, size_t len)
{
	struct sink *k = ctx;
	struct codec_error err;
	assert_true(k->n < 64);
	if (frame_decode(json, len, &k->frames[k->n], &err) < 0)
		fail_msg("the adapter wrote a frame that does not decode: %s (%.*s)", err.message,
			 (int)len, json);
	if (k->frames[k->n].type == FRAME_DURABLE)
		k->cursor = k->frames[k->n].seq;
	k->n++;
	return 0;
}

static int64_t sink_cursor(void *ctx)
{
	return ((struct sink *)ctx)->cursor;
}

static void sink_clear(struct sink *k)
{
	for (size_t i = 0; i < k->n; i++)
		frame_fini(&k->frames[i]);
	k->n = 0;
}

static void feed(struct legacy_rx *l, struct sink *k, const char *json)
{
	const struct legacy_ops ops = { .ctx = k, .emit = sink_emit, .cursor = sink_cursor };
	assert_int_equal(legacy_rx_feed(l, json, strlen(json), &ops), 0);
}

#define SNAPSHOT "{\"id\":\"s1\",\"timestamp\":\"2026-09-20T14:00:00.000001\",\"source\":\"environment\"," \
		 "\"kind\":\"ConversationStateUpdateEvent\",\"key\":\"full_state\"," \
		 "\"value\":{\"execution_status\":\"running\"}}"

static char *event(const char *id, const char *ts, const char *source, const char *text)
{
	static char b[4][512];
	static int i;
	char *out = b[i++ % 4];
	snprintf(out, 512, "{\"id\":\"%s\",\"timestamp\":\"%s\",\"source\":\"%s\",\"kind\":\"MessageEvent\","
		 "\"llm_message\":{\"role\":\"%s\",\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}}",
		 id, ts, source, !strcmp(source, "agent") ? "assistant" : "user", text);
	return out;
}

static char *delta(const char *ts, const char *field, const char *text)
{
	static char b[4][256];
	static int i;
	char *out = b[i++ % 4];
	snprintf(out, 256, "{\"id\":\"d-%s\",\"timestamp\":\"%s\",\"source\":\"agent\",\"%s\":\"%s\","
		 "\"kind\":\"StreamingDeltaEvent\"}", ts, ts, field, text);
	return out;
}

struct fixture {
	struct legacy_rx l;
	struct sink k;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	legacy_rx_init(&f->l);
	f->k.cursor = -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	sink_clear(&f->k);
	legacy_rx_fini(&f->l);
	free(f);
	return 0;
}

/* The first frame brings the sync; events become durables with the next seq, the snapshot a
 * transient, ServerErrorEvent an error frame. */
static void test_frames_translate(void **state)
{
	struct fixture *f = *state;
	legacy_rx_connect(&f->l);
	feed(&f->l, &f->k, SNAPSHOT);
	feed(&f->l, &f->k, event("e1", "2026-09-20T14:00:01.000000", "user", "hi"));
	feed(&f->l, &f->k, event("e2", "2026-09-20T14:00:02.000000", "agent", "hello"));
	feed(&f->l, &f->k, "{\"source\":\"environment\",\"code\":\"ValidationError\","
			   "\"detail\":\"1 validation error for Message\",\"kind\":\"ServerErrorEvent\"}");
	feed(&f->l, &f->k, "[1,2]");
	struct frame *fr = f->k.frames;
	assert_int_equal(f->k.n, 6);
	assert_int_equal(fr[0].type, FRAME_SYNC);
	assert_int_equal(fr[0].from_seq, 0);
	assert_int_equal(fr[0].through_seq, -1);
	assert_int_equal(fr[1].type, FRAME_TRANSIENT);
	assert_int_equal(fr[1].event.kind, EVENT_STATE_UPDATE);
	assert_int_equal(fr[1].event.run_status, RUN_STATUS_RUNNING);
	assert_int_equal(fr[2].type, FRAME_DURABLE);
	assert_int_equal(fr[2].seq, 0);
	assert_string_equal(fr[2].event.id, "e1");
	assert_string_equal(fr[2].event.text, "hi");
	assert_int_equal(fr[3].type, FRAME_DURABLE);
	assert_int_equal(fr[3].seq, 1);
	assert_string_equal(fr[3].event.text, "hello");
	assert_int_equal(fr[4].type, FRAME_ERROR);
	assert_string_equal(fr[4].code, "ValidationError");
	assert_string_equal(fr[4].detail, "1 validation error for Message");
	assert_int_equal(fr[5].type, FRAME_ERROR);
	assert_string_equal(fr[5].code, "decode_error");
	/* where a reconnect resends from: the last durable's own timestamp */
	assert_string_equal(f->l.last_ts, "2026-09-20T14:00:02.000000");
}

/* resend_mode=since sends events at or after the timestamp (≥) and live events interleave:
 * each event id is delivered once, the seqs stay contiguous. */
static void test_since_resend_deduplicates(void **state)
{
	struct fixture *f = *state;
	legacy_rx_connect(&f->l);
	feed(&f->l, &f->k, SNAPSHOT);
	feed(&f->l, &f->k, event("e1", "2026-09-20T14:00:01.000000", "user", "a"));
	feed(&f->l, &f->k, event("e2", "2026-09-20T14:00:02.000000", "agent", "b"));
	sink_clear(&f->k);
	legacy_rx_connect(&f->l);       /* a cut, then since=e2's timestamp */
	feed(&f->l, &f->k, SNAPSHOT);
	feed(&f->l, &f->k, event("e3", "2026-09-20T14:00:03.000000", "user", "live first"));
	feed(&f->l, &f->k, event("e2", "2026-09-20T14:00:02.000000", "agent", "b"));
	feed(&f->l, &f->k, event("e3", "2026-09-20T14:00:03.000000", "user", "live first"));
	feed(&f->l, &f->k, event("e4", "2026-09-20T14:00:04.000000", "agent", "c"));
	struct frame *fr = f->k.frames;
	assert_int_equal(f->k.n, 4);
	assert_int_equal(fr[0].type, FRAME_SYNC);
	assert_int_equal(fr[0].from_seq, 2);
	assert_int_equal(fr[2].type, FRAME_DURABLE);
	assert_string_equal(fr[2].event.id, "e3");
	assert_int_equal(fr[2].seq, 2);
	assert_int_equal(fr[3].type, FRAME_DURABLE);
	assert_string_equal(fr[3].event.id, "e4");
	assert_int_equal(fr[3].seq, 3);
}

/* Deltas open one preview stream; the agent's next durable event retires it (aborted, the
 * durable shows the text once); a delta dated before that event is late and dropped; a later
 * one opens the next preview. */
static void test_late_delta_dropped(void **state)
{
	struct fixture *f = *state;
	legacy_rx_connect(&f->l);
	feed(&f->l, &f->k, SNAPSHOT);
	feed(&f->l, &f->k, delta("2026-09-20T14:00:01.100000", "reasoning_content", "think"));
	feed(&f->l, &f->k, delta("2026-09-20T14:00:01.200000", "content", "Hel"));
	feed(&f->l, &f->k, event("m1", "2026-09-20T14:00:01.500000", "agent", "Hello"));
	feed(&f->l, &f->k, delta("2026-09-20T14:00:01.300000", "content", "lo"));
	feed(&f->l, &f->k, delta("2026-09-20T14:00:02.000000", "content", "Next"));
	struct frame *fr = f->k.frames;
	assert_int_equal(f->k.n, 9);
	assert_int_equal(fr[2].type, FRAME_ITEM_STARTED);
	assert_string_equal(fr[2].item_id, "preview-1");
	assert_int_equal(fr[3].type, FRAME_DELTA);
	assert_int_equal(fr[3].delta_kind, DELTA_REASONING);
	assert_int_equal(fr[3].order, 0);
	assert_int_equal(fr[4].type, FRAME_DELTA);
	assert_int_equal(fr[4].delta_kind, DELTA_TEXT);
	assert_string_equal(fr[4].content, "Hel");
	assert_int_equal(fr[4].order, 1);
	assert_int_equal(fr[5].type, FRAME_ITEM_ABORTED);
	assert_string_equal(fr[5].item_id, "preview-1");
	assert_int_equal(fr[6].type, FRAME_DURABLE);
	assert_string_equal(fr[6].event.id, "m1");
	/* "lo" (dated before m1) left no frame */
	assert_int_equal(fr[7].type, FRAME_ITEM_STARTED);
	assert_string_equal(fr[7].item_id, "preview-2");
	assert_int_equal(fr[8].type, FRAME_DELTA);
	assert_string_equal(fr[8].content, "Next");
	assert_int_equal(fr[8].order, 0);
}

/* The run going idle (or an error) drops an open preview; empty chunks open nothing. */
static void test_preview_dropped_on_idle(void **state)
{
	struct fixture *f = *state;
	legacy_rx_connect(&f->l);
	feed(&f->l, &f->k, SNAPSHOT);
	feed(&f->l, &f->k, delta("2026-09-20T14:00:01.000000", "content", ""));
	assert_int_equal(f->k.n, 2);
	feed(&f->l, &f->k, delta("2026-09-20T14:00:01.100000", "content", "partial"));
	feed(&f->l, &f->k, "{\"id\":\"u1\",\"timestamp\":\"2026-09-20T14:00:01.200000\","
			   "\"source\":\"environment\",\"kind\":\"ConversationStateUpdateEvent\","
			   "\"key\":\"execution_status\",\"value\":\"idle\"}");
	struct frame *fr = f->k.frames;
	assert_int_equal(f->k.n, 6);
	assert_int_equal(fr[2].type, FRAME_ITEM_STARTED);
	assert_int_equal(fr[4].type, FRAME_ITEM_ABORTED);
	assert_int_equal(fr[5].type, FRAME_DURABLE);
	assert_int_equal(fr[5].event.run_status, RUN_STATUS_IDLE);
}

/* The REST tail comes right after the sync, before the first frame; events known from REST
 * before the cursor never come again. */
static void test_rest_tail_after_sync(void **state)
{
	struct fixture *f = *state;
	f->k.cursor = 7;                /* the session's cursor below the tail */
	legacy_rx_known(&f->l, "e7", NULL);
	legacy_rx_tail_push(&f->l, event("e8", "2026-09-20T14:00:08.000000", "user", "a"));
	legacy_rx_tail_push(&f->l, event("e9", "2026-09-20T14:00:09.000000", "agent", "b"));
	legacy_rx_known(&f->l, NULL, "2026-09-20T14:00:09.000000");
	legacy_rx_connect(&f->l);
	feed(&f->l, &f->k, SNAPSHOT);
	feed(&f->l, &f->k, event("e7", "2026-09-20T14:00:07.000000", "agent", "old"));
	feed(&f->l, &f->k, event("e9", "2026-09-20T14:00:09.000000", "agent", "b"));
	struct frame *fr = f->k.frames;
	assert_int_equal(f->k.n, 4);
	assert_int_equal(fr[0].type, FRAME_SYNC);
	assert_int_equal(fr[0].from_seq, 8);
	assert_int_equal(fr[0].through_seq, 9);
	assert_int_equal(fr[1].seq, 8);
	assert_string_equal(fr[1].event.id, "e8");
	assert_int_equal(fr[2].seq, 9);
	assert_int_equal(fr[3].type, FRAME_TRANSIENT);
}

/* An idle server may send nothing at all: the sync and the tail come when the socket opens,
 * once per connection. */
static void test_sync_without_a_frame(void **state)
{
	struct fixture *f = *state;
	const struct legacy_ops ops = { .ctx = &f->k, .emit = sink_emit, .cursor = sink_cursor };
	legacy_rx_tail_push(&f->l, event("e0", "2026-09-20T14:00:00.000000", "user", "a"));
	legacy_rx_connect(&f->l);
	assert_int_equal(legacy_rx_open(&f->l, &ops), 0);
	assert_int_equal(legacy_rx_open(&f->l, &ops), 0);
	feed(&f->l, &f->k, SNAPSHOT);
	struct frame *fr = f->k.frames;
	assert_int_equal(f->k.n, 3);
	assert_int_equal(fr[0].type, FRAME_SYNC);
	assert_int_equal(fr[0].through_seq, 0);
	assert_int_equal(fr[1].type, FRAME_DURABLE);
	assert_int_equal(fr[2].type, FRAME_TRANSIENT);
}

/* The key goes as the server's version takes it (research §5.1): first-message from 1.22.1,
 * the header from 1.12.0 (and for an unknown version), the query before. */
static void test_auth_by_version(void **state)
{
	struct server_version v;
	struct buf p;
	(void)state;
	server_version_parse("1.22.1", &v);
	assert_int_equal(legacy_auth_for(&v), LEGACY_AUTH_FRAME);
	server_version_parse("1.22.0", &v);
	assert_int_equal(legacy_auth_for(&v), LEGACY_AUTH_HEADER);
	server_version_parse("unknown", &v);
	assert_int_equal(legacy_auth_for(&v), LEGACY_AUTH_HEADER);
	server_version_parse("1.11.4", &v);
	assert_int_equal(legacy_auth_for(&v), LEGACY_AUTH_QUERY);
	buf_init(&p);
	legacy_path(&p, "/base", "c1", NULL, &v, LEGACY_AUTH_QUERY, "k ey");
	assert_string_equal(buf_cstr(&p), "/base/sockets/events/c1?resend_all=true&session_api_key=k%20ey");
	buf_clear(&p);
	server_version_parse("1.43.1", &v);
	legacy_path(&p, "", "c1", "2026-09-20T14:00:09.000001", &v, LEGACY_AUTH_FRAME, "key");
	assert_string_equal(buf_cstr(&p), "/sockets/events/c1?resend_mode=since&after_timestamp="
			    "2026-09-20T14%3A00%3A09.000001");
	buf_clear(&p);
	legacy_path(&p, "", "c1", "", &v, LEGACY_AUTH_HEADER, "key");
	assert_string_equal(buf_cstr(&p), "/sockets/events/c1?resend_mode=all");
	buf_fini(&p);
}

/* auto: a 403 on the session socket's upgrade (upstream's answer where no route matches)
 * moves to the events socket; not a 404, not once the session socket upgraded, not when
 * forced, and 4001/4004 closes stay final. */
static void test_fallback_on_403(void **state)
{
	struct session *s = calloc(1, sizeof *s);
	(void)state;
	s->cfg.protocol = NET_PROTOCOL_AUTO;
	s->proto = NET_PROTOCOL_SESSION;
	s->http_status = 404;
	assert_false(legacy_fallback(s));
	s->http_status = 403;
	s->session_upgraded = true;
	assert_false(legacy_fallback(s));
	s->session_upgraded = false;
	s->cfg.protocol = NET_PROTOCOL_SESSION;
	assert_false(legacy_fallback(s));
	s->cfg.protocol = NET_PROTOCOL_AUTO;
	assert_true(legacy_fallback(s));
	assert_true(s->prefer_events);
	assert_true(legacy_attempt_start(s));   /* the next attempt: events, REST first */
	assert_int_equal(s->proto, NET_PROTOCOL_EVENTS);
	s->http_status = 403;
	assert_false(legacy_fallback(s));       /* refused there too: final (auth) */
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_frames_translate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_since_resend_deduplicates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_late_delta_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_preview_dropped_on_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rest_tail_after_sync, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sync_without_a_frame, setup, teardown),
		cmocka_unit_test(test_auth_by_version),
		cmocka_unit_test(test_fallback_on_403),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
