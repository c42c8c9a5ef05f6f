/* net_probe: drives the session and REST API of net/ directly and prints one line per
 * event, for the integration tests in tests/net/.
 *
 *   net_probe --server URL --conversation ID [--key-env VAR] [--max-retries N]
 *             [--stall-timeout S] [--ping-interval S] [--after-seq N] [--no-history]
 *             [--max-message BYTES] [--insecure] [--send TEXT]... [--log FILE]
 *             [--until-seq N] [--until-syncs N] [--stop-after-syncs N] [--exit-after S]
 *             [--raw] [--reconnect-now] [--protocol auto|session|events] [--frame-hz HZ]
 *             [--tick-work-ms MS]
 *   net_probe --server URL --rest METHOD PATH [--body JSON] [--key-env VAR]
 *
 * Lines (t= is seconds since start, monotonic):
 *   status <state> attempt=<n> code=<c> after_seq=<N|none> retry_us=<n> exit=<n> t=<s> reason=<text>
 *   sync from=<N|none> through=<N|none> t=<s>
 *   durable <seq> <event id>          transient <event id>
 *   stream started|retired|aborted|discarded <item id> [<attempt>]
 *   delta <item id> <attempt> <order>  error <code> <detail>
 *   bad <code> <seq> <detail>           raw <bytes>            (raw only with --raw)
 *   rest <status> <body> | rest error <text>
 *   exit <code> cursor=<N> open_streams=<n> last_rx=<s>
 *   reconnect_now <1|0> t=<s>            (--reconnect-now: 0.1 s into each wait, and once live)
 *   frames ticks=<n> deltas=<n> waited=<n> turns=<n> ... last_tick=<s>  (--frame-hz: a frame
 *       clock as the TUI's holds the reads; waited counts deltas read at a tick after waiting;
 *       direct the ticks that read at once, ioctls the FIONREADs before a hold,
 *       most_in_a_turn the most message bytes one turn of the loop received)
 * The key comes from an environment variable so that it is on no command line. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

#define MAX_STREAMS 64

struct probe {
	struct loop *loop;
	struct session *session;
	struct loop_timer *exit_timer;
	int64_t t0;
	int64_t last_rx;
	int64_t until_seq;
	bool has_until_seq;
	int until_syncs;
	int stop_after_syncs;
	bool stopped;
	bool reconnect_now;
	struct loop_timer *reconnect_timer;
	int syncs;
	bool raw;
	int exit_code;
	struct loop_timer *frame_timer; /* --frame-hz: due one period after a delta */
	int64_t tick_work_us;           /* --tick-work-ms: each tick works this long (a paint) */
	int64_t frame_period_us;
	bool frame_armed;               /* a frame asked for and not yet ticked */
	uint64_t ticks, deltas, waited, durables;
	uint64_t deltas_at_tick;        /* deltas when the last tick ran */
	int64_t last_tick;
	char *streams[MAX_STREAMS];
	size_t nstreams;
	FILE *log;
};

static struct probe P;

static double now_s(void)
{
	return (double)(clock_now_us() - P.t0) / 1e6;
}

static void finish(int code)
{
	P.exit_code = code;
	loop_quit(P.loop);
}

static const char *state_name(enum session_state s)
{
	static const char *const names[] = {
		[SESSION_CONNECTING] = "connecting", [SESSION_OPEN] = "open",
		[SESSION_SYNCED] = "synced", [SESSION_CLOSED] = "closed",
		[SESSION_RECONNECTING] = "reconnecting", [SESSION_GAVE_UP] = "gave_up",
		[SESSION_FAILED] = "failed",
	};
	return names[s];
}

/* The probe prints and exits with the CLI's numbers for why a session ended (it.sh reads them). */
static int end_code(enum session_end end)
{
	static const int codes[] = {
		[SESSION_END_NONE] = 0, [SESSION_END_STOPPED] = 0, [SESSION_END_AUTH] = 3,
		[SESSION_END_NOT_FOUND] = 4, [SESSION_END_BAD_URL] = 2, [SESSION_END_GAVE_UP] = 5,
	};
	return codes[end];
}

static void frame_due(void);

static void on_status(void *ctx, const struct session_status *st)
{
	(void)ctx;
	printf("status %s attempt=%d code=%d after_seq=", state_name(st->state), st->attempt,
	       st->close_code);
	if (st->state == SESSION_CONNECTING && st->has_after_seq)
		printf("%lld", (long long)st->after_seq);
	else
		printf("none");
	printf(" retry_us=%lld exit=%d t=%.3f reason=%s\n", (long long)st->retry_in_us,
	       end_code(st->end), now_s(), st->reason ? st->reason : "");
	if (st->state == SESSION_GAVE_UP || st->state == SESSION_FAILED)
		finish(end_code(st->end));
	/* As the TUI's status line: a new state is a frame to paint. */
	frame_due();
	/* as a user would: a moment into the wait (and once live, where it must do nothing) */
	if (P.reconnect_now && (st->state == SESSION_RECONNECTING || st->state == SESSION_SYNCED))
		loop_timer_schedule(P.reconnect_timer, 100000);
	/* after session_stop: linger to show that nothing reconnects */
	if (st->state == SESSION_CLOSED && P.stopped)
		loop_timer_schedule(P.exit_timer, 700000);
}

static ssize_t stream_find(const char *id)
{
	for (size_t i = 0; i < P.nstreams; i++)
		if (!strcmp(P.streams[i], id))
			return (ssize_t)i;
	return -1;
}

static void stream_end(const char *how, const char *id)
{
	ssize_t i = stream_find(id);

	if (i < 0)
		return;
	printf("stream %s %s\n", how, id);
	free(P.streams[i]);
	P.streams[i] = P.streams[--P.nstreams];
}

static void print_opt(const char *name, bool has, int64_t v)
{
	if (has)
		printf(" %s=%lld", name, (long long)v);
	else
		printf(" %s=none", name);
}

/* --frame-hz: something changed, so a frame is due one period on; as the TUI's clock, one
 * asked for stays asked for until it is painted (what its tick reads asks for nothing). */
static void frame_due(void)
{
	if (P.frame_timer && !P.frame_armed) {
		P.frame_armed = true;
		loop_timer_schedule(P.frame_timer, P.frame_period_us);
	}
}

static void on_frame(void *ctx, const struct frame *f)
{
	(void)ctx;
	switch (f->type) {
	case FRAME_SYNC:
		printf("sync");
		print_opt("from", f->has_from_seq, f->from_seq);
		print_opt("through", f->has_through_seq, f->through_seq);
		printf(" t=%.3f\n", now_s());
		P.syncs++;
		if (P.until_syncs && P.syncs >= P.until_syncs)
			finish(0);
		if (P.stop_after_syncs && P.syncs == P.stop_after_syncs) {
			P.stopped = true;
			session_stop(P.session);
		}
		break;
	case FRAME_DURABLE:
		printf("durable %lld %s\n", (long long)f->seq, f->event.id ? f->event.id : "-");
		P.durables++;
		frame_due();
		if (f->event.id)
			stream_end("retired", f->event.id);
		if (P.has_until_seq && f->seq >= P.until_seq)
			finish(0);
		break;
	case FRAME_TRANSIENT:
		printf("transient %s\n", f->event.id ? f->event.id : "-");
		break;
	case FRAME_ITEM_STARTED:
		if (stream_find(f->item_id) < 0 && P.nstreams < MAX_STREAMS)
			P.streams[P.nstreams++] = xstrdup(f->item_id);
		printf("stream started %s %d\n", f->item_id, f->attempt);
		break;
	case FRAME_DELTA:
		printf("delta %s %d %lld\n", f->item_id, f->attempt, (long long)f->order);
		P.deltas++;
		if (P.frame_timer) {
			int64_t now = clock_now_us();
			if (loop_read_since(P.loop, now) < now)
				P.waited++;
		}
		frame_due();
		break;
	case FRAME_ITEM_ABORTED:
		stream_end("aborted", f->item_id);
		break;
	case FRAME_ERROR:
		printf("error %s %s\n", f->code ? f->code : "-", f->detail ? f->detail : "-");
		break;
	default:
		printf("unknown %s\n", f->type_name ? f->type_name : "-");
		break;
	}
}

static void on_bad_frame(void *ctx, const char *code, const char *detail, int64_t seq)
{
	(void)ctx;
	printf("bad %s %lld %s\n", code, (long long)seq, detail ? detail : "");
}

static void on_raw(void *ctx, const char *json, size_t len, const struct frame *f)
{
	(void)ctx;
	(void)json;
	(void)f;
	P.last_rx = clock_now_us();
	if (P.raw)
		printf("raw %zu t=%.3f\n", len, now_s());
}

static void on_discard(void *ctx)
{
	(void)ctx;
	while (P.nstreams)
		stream_end("discarded", P.streams[P.nstreams - 1]);
}

static void on_log(int level, const char *line)
{
	if (P.log)
		fprintf(P.log, "%d %s\n", level, line);
}

static void on_rest(void *ctx, const struct rest_response *r)
{
	(void)ctx;
	if (r->error) {
		printf("rest error %s\n", r->error);
		finish(1);
	} else {
		printf("rest %d %.*s\n", r->status, (int)r->body_len, r->body);
		finish(0);
	}
}

static void on_reconnect_timer(void *arg)
{
	(void)arg;
	bool started = session_reconnect_now(P.session);
	printf("reconnect_now %d t=%.3f\n", started, now_s());
}

static void on_frame_tick(void *arg)
{
	(void)arg;
	P.ticks++;
	P.last_tick = clock_now_us();
	P.frame_armed = false;
	/* As the TUI's reveal of a stream: while deltas come, a frame follows the frame. */
	if (P.deltas != P.deltas_at_tick) {
		P.deltas_at_tick = P.deltas;
		frame_due();
	}
	/* a slow paint, after the next frame is asked for, as the TUI's */
	int64_t until = P.last_tick + P.tick_work_us;
	while (P.tick_work_us && clock_now_us() < until)
		;
}

static void on_exit_timer(void *arg)
{
	(void)arg;
	finish(0);
}

static void on_signal(void *arg, int signo)
{
	(void)arg;
	printf("signal %d\n", signo);
	finish(130);
}

static void usage(void)
{
	fprintf(stderr, "usage: net_probe --server URL (--conversation ID | --rest METHOD PATH) …\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "server", required_argument, NULL, 's' },
		{ "conversation", required_argument, NULL, 'c' },
		{ "key-env", required_argument, NULL, 'k' },
		{ "max-retries", required_argument, NULL, 'r' },
		{ "stall-timeout", required_argument, NULL, 'S' },
		{ "ping-interval", required_argument, NULL, 'p' },
		{ "after-seq", required_argument, NULL, 'a' },
		{ "no-history", no_argument, NULL, 'n' },
		{ "max-message", required_argument, NULL, 'm' },
		{ "insecure", no_argument, NULL, 'i' },
		{ "send", required_argument, NULL, 'x' },
		{ "log", required_argument, NULL, 'l' },
		{ "until-seq", required_argument, NULL, 'u' },
		{ "until-syncs", required_argument, NULL, 'y' },
		{ "stop-after-syncs", required_argument, NULL, 'Z' },
		{ "exit-after", required_argument, NULL, 'e' },
		{ "raw", no_argument, NULL, 'R' },
		{ "rest", required_argument, NULL, 'H' },
		{ "body", required_argument, NULL, 'b' },
		{ "reconnect-now", no_argument, NULL, 'N' },
		{ "protocol", required_argument, NULL, 'P' },
		{ "frame-hz", required_argument, NULL, 'F' },
		{ "tick-work-ms", required_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 },
	};
	struct session_config cfg = { .after_seq = -1, .ping_interval_s = 20,
				      .stall_timeout_s = 60, .max_retries = 8 };
	const char *sends[32], *rest_method = NULL, *rest_path = NULL, *body = NULL;
	int nsends = 0, c, signals[] = { SIGINT, SIGTERM };
	double exit_after = 0;
	int frame_hz = 0;
	struct buf err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	P.t0 = clock_now_us();
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': cfg.server_url = optarg; break;
		case 'c': cfg.conversation_id = optarg; break;
		case 'k': cfg.api_key = getenv(optarg); break;
		case 'r': cfg.max_retries = atoi(optarg); break;
		case 'S': cfg.stall_timeout_s = atof(optarg); break;
		case 'p': cfg.ping_interval_s = atof(optarg); break;
		case 'a': cfg.after_seq = atoll(optarg); break;
		case 'n': cfg.no_history = true; break;
		case 'm': cfg.max_message_bytes = (size_t)atoll(optarg); break;
		case 'i': cfg.insecure = true; break;
		case 'x': if (nsends < 32) sends[nsends++] = optarg; break;
		case 'l': P.log = fopen(optarg, "a"); break;
		case 'u': P.until_seq = atoll(optarg); P.has_until_seq = true; break;
		case 'y': P.until_syncs = atoi(optarg); break;
		case 'Z': P.stop_after_syncs = atoi(optarg); break;
		case 'e': exit_after = atof(optarg); break;
		case 'R': P.raw = true; break;
		case 'H':
			rest_method = optarg;
			if (optind >= argc)
				usage();
			rest_path = argv[optind++];
			break;
		case 'b': body = optarg; break;
		case 'N': P.reconnect_now = true; break;
		case 'P':
			cfg.protocol = !strcmp(optarg, "session") ? NET_PROTOCOL_SESSION
				       : !strcmp(optarg, "events") ? NET_PROTOCOL_EVENTS : NET_PROTOCOL_AUTO;
			break;
		case 'F': frame_hz = atoi(optarg); break;
		case 'W': P.tick_work_us = (int64_t)(atof(optarg) * 1000); break;
		default: usage();
		}
	}
	if (!cfg.server_url || (!cfg.conversation_id && !rest_method))
		usage();
	if (P.log)
		setvbuf(P.log, NULL, _IOLBF, 0);
	buf_init(&err);
	P.loop = loop_create(on_log, &err);
	if (!P.loop) {
		fprintf(stderr, "net_probe: %s\n", buf_cstr(&err));
		return 1;
	}
	loop_watch_signals(P.loop, signals, 2, on_signal, NULL);
	P.exit_timer = loop_timer_create(P.loop, on_exit_timer, NULL);
	P.reconnect_timer = loop_timer_create(P.loop, on_reconnect_timer, NULL);
	if (exit_after > 0)
		loop_timer_schedule(P.exit_timer, (int64_t)(exit_after * 1e6));
	if (frame_hz > 0) {
		P.frame_period_us = 1000000 / frame_hz;
		P.frame_timer = loop_timer_create(P.loop, on_frame_tick, NULL);
		loop_timer_hold_reads(P.frame_timer, P.frame_period_us);
	}
	if (rest_method) {
		if (rest_request(P.loop, cfg.server_url, cfg.api_key, cfg.insecure, rest_method,
				 rest_path, body, on_rest, NULL)) {
			printf("rest error bad url\n");
			return 1;
		}
	} else {
		struct session_handlers h = {
			.on_status = on_status, .on_frame = on_frame, .on_bad_frame = on_bad_frame,
			.on_raw = on_raw, .on_discard_streams = on_discard,
		};
		P.session = session_create(P.loop, &cfg, &h);
		for (int i = 0; i < nsends; i++)
			session_send_user_message(P.session, sends[i]);
		session_start(P.session);
	}
	if (loop_run(P.loop))
		P.exit_code = 1;
	printf("exit %d cursor=%lld pending=%zu open_streams=%zu last_rx=%.3f\n", P.exit_code,
	       P.session ? (long long)session_cursor(P.session) : -1LL,
	       P.session ? session_pending_messages(P.session) : 0, P.nstreams,
	       P.last_rx ? (double)(P.last_rx - P.t0) / 1e6 : -1.0);
	if (P.frame_timer)
		printf("frames ticks=%llu deltas=%llu durables=%llu waited=%llu turns=%llu checks=%llu "
		       "direct=%llu ioctls=%llu quiet=%llu most_in_a_turn=%zu last_tick=%.3f\n",
		       (unsigned long long)P.ticks, (unsigned long long)P.deltas,
		       (unsigned long long)P.durables,
		       (unsigned long long)P.waited, (unsigned long long)P.loop->turns,
		       (unsigned long long)P.loop->checks, (unsigned long long)P.loop->direct_ticks,
		       (unsigned long long)P.loop->backlog_checks,
		       (unsigned long long)P.loop->quiet_waits, P.loop->most_in_a_turn,
		       P.last_tick ? (double)(P.last_tick - P.t0) / 1e6 : -1.0);
	session_destroy(P.session);
	loop_timer_destroy(P.frame_timer);
	loop_timer_destroy(P.exit_timer);
	loop_timer_destroy(P.reconnect_timer);
	loop_destroy(P.loop);
	while (P.nstreams)
		free(P.streams[--P.nstreams]);
	if (P.log)
		fclose(P.log);
	return P.exit_code;
}
