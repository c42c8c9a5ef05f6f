/* Hostname lookups that do not block the loop (stack.md P8: this lws build resolves with a
 * blocking getaddrinfo inside lws_client_connect_via_info). glibc's getaddrinfo_a runs the
 * lookup on its own helper thread; the loop polls gai_error from a timer and the caller
 * then hands lws the numeric address, which lws resolves without a query. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "net_int.h"

#define RESOLVE_FAST_POLL_US 5000
#define RESOLVE_FAST_SPAN_US 50000
#define RESOLVE_SLOW_POLL_US 20000
#define RESOLVE_CACHE_US ((int64_t)60 * 1000000)
#define RESOLVE_CACHE_SLOTS 8

static int64_t resolve_timeout_us = (int64_t)10 * 1000000;

struct resolve {
	struct resolve *next_orphan;    /* in orphans once abandoned while running */
	struct loop_timer *timer;       /* polls gai_error; NULL once abandoned */
	struct gaicb cb;                /* owned by glibc until gai_error leaves EAI_INPROGRESS */
	struct addrinfo hints;
	char *host;                     /* cb.ar_name */
	int start_rc;                   /* getaddrinfo_a's own error, 0 when submitted */
	int64_t started_us;
	resolve_done_fn done;
	void *ctx;
};

struct resolve_cache_slot {
	char host[256];
	char address[INET6_ADDRSTRLEN];
	int64_t at_us;
};

/* Both only touched from the loop's thread. */
static struct resolve_cache_slot cache[RESOLVE_CACHE_SLOTS];
/* Abandoned lookups glibc is still running: freed once gai_error says they are done, so
 * its helper thread never writes into freed memory. */
static struct resolve *orphans;

/* True when host is an IPv4 or IPv6 literal. */
bool resolve_is_numeric(const char *host)
{
	unsigned char a[sizeof(struct in6_addr)];

	return inet_pton(AF_INET, host, a) == 1 || inet_pton(AF_INET6, host, a) == 1;
}

static struct resolve_cache_slot *cache_find(const char *host)
{
	for (size_t i = 0; i < RESOLVE_CACHE_SLOTS; i++)
		if (cache[i].at_us && !strcmp(cache[i].host, host))
			return &cache[i];
	return NULL;
}

static void cache_store(const char *host, const char *address)
{
	struct resolve_cache_slot *slot = cache_find(host);

	if (strlen(host) >= sizeof(slot->host))
		return;
	if (!slot) {
		slot = &cache[0];       /* the oldest (or an empty) slot */
		for (size_t i = 1; i < RESOLVE_CACHE_SLOTS; i++)
			if (cache[i].at_us < slot->at_us)
				slot = &cache[i];
	}
	snprintf(slot->host, sizeof(slot->host), "%s", host);
	snprintf(slot->address, sizeof(slot->address), "%s", address);
	slot->at_us = clock_now_us();
}

/* The address to connect to right now: host itself when numeric, a lookup of it made in
 * the last minute (copied into buf), or NULL when a lookup is needed. */
const char *resolve_now(const char *host, char *buf, size_t cap)
{
	struct resolve_cache_slot *slot;

	if (resolve_is_numeric(host))
		return host;
	slot = cache_find(host);
	if (!slot || clock_now_us() - slot->at_us >= RESOLVE_CACHE_US)
		return NULL;
	snprintf(buf, cap, "%s", slot->address);
	return buf;
}

/* Forgets every cached lookup (tests). */
void resolve_cache_clear(void)
{
	memset(cache, 0, sizeof(cache));
}

/* Sets the overall lookup timeout (default 10 s; tests). */
void resolve_set_timeout_us(int64_t us)
{
	resolve_timeout_us = us;
}

static void resolve_free(struct resolve *r)
{
	loop_timer_destroy(r->timer);
	if (r->cb.ar_result)
		freeaddrinfo(r->cb.ar_result);
	free(r->host);
	free(r);
}

static void orphans_reap(void)
{
	struct resolve **p = &orphans;

	while (*p) {
		struct resolve *r = *p;

		if (gai_error(&r->cb) == EAI_INPROGRESS) {
			p = &r->next_orphan;
			continue;
		}
		*p = r->next_orphan;
		resolve_free(r);
	}
}

/* The first IPv4 address, else the first one: servers bound to 127.0.0.1 only are common
 * (and "localhost" often lists ::1 first), IPv6-only servers behind a name rare. */
static bool pick_address(const struct addrinfo *list, char *out, size_t cap)
{
	const struct addrinfo *pick = NULL;

	for (const struct addrinfo *ai = list; ai; ai = ai->ai_next) {
		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		if (!pick || (ai->ai_family == AF_INET && pick->ai_family != AF_INET))
			pick = ai;
	}
	return pick && !getnameinfo(pick->ai_addr, pick->ai_addrlen, out, (socklen_t)cap, NULL,
				    0, NI_NUMERICHOST);
}

static void resolve_poll(void *arg)
{
	struct resolve *r = arg;
	char address[INET6_ADDRSTRLEN] = "";
	char error[320] = "";
	bool final = false;
	resolve_done_fn done = r->done;
	void *ctx = r->ctx;
	int64_t elapsed = clock_now_us() - r->started_us;
	int rc = r->start_rc ? r->start_rc : gai_error(&r->cb);

	orphans_reap();
	if (rc == EAI_INPROGRESS) {
		if (elapsed < resolve_timeout_us) {
			loop_timer_schedule(r->timer, elapsed < RESOLVE_FAST_SPAN_US ?
						      RESOLVE_FAST_POLL_US : RESOLVE_SLOW_POLL_US);
			return;
		}
		snprintf(error, sizeof(error), "DNS lookup of %s timed out", r->host);
		resolve_cancel(r);
	} else {
		if (rc == 0 && pick_address(r->cb.ar_result, address, sizeof(address)))
			cache_store(r->host, address);
		else if (rc == 0)
			final = snprintf(error, sizeof(error), "DNS lookup of %s: no usable address",
					 r->host) > 0;
		else
			final = rc == EAI_NONAME || rc == EAI_NODATA || rc == EAI_FAIL;
		if (rc != 0)
			snprintf(error, sizeof(error), "DNS lookup of %s: %s", r->host,
				 rc == EAI_SYSTEM ? "system error" : gai_strerror(rc));
		resolve_free(r);
	}
	/* r is gone: done may start another lookup or destroy the loop */
	done(ctx, error[0] ? NULL : address, error[0] ? error : NULL, final);
}

/* Starts looking host up without blocking; done runs once, later, from a loop timer. */
struct resolve *resolve_start(struct loop *loop, const char *host, resolve_done_fn done,
			      void *ctx)
{
	struct resolve *r = xcalloc(1, sizeof(*r));
	struct gaicb *list[1] = { &r->cb };
	struct sigevent none;

	orphans_reap();
	r->host = xstrdup(host);
	r->done = done;
	r->ctx = ctx;
	r->started_us = clock_now_us();
	r->hints.ai_family = AF_UNSPEC;
	r->hints.ai_socktype = SOCK_STREAM;
	r->cb.ar_name = r->host;
	r->cb.ar_request = &r->hints;
	memset(&none, 0, sizeof(none));
	none.sigev_notify = SIGEV_NONE;
	r->start_rc = getaddrinfo_a(GAI_NOWAIT, list, 1, &none);
	r->timer = loop_timer_create(loop, resolve_poll, r);
	/* even a lookup that could not start reports from the loop, never inside this call */
	loop_timer_schedule(r->timer, r->start_rc ? 0 : RESOLVE_FAST_POLL_US);
	return r;
}

/* Abandons a lookup: done never runs. NULL is fine. */
void resolve_cancel(struct resolve *r)
{
	if (!r)
		return;
	loop_timer_destroy(r->timer);
	r->timer = NULL;
	if (!r->start_rc && gai_cancel(&r->cb) == EAI_NOTCANCELED) {
		r->next_orphan = orphans;
		orphans = r;
		return;
	}
	resolve_free(r);
}
