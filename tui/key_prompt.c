/* Asks for the session API key on the terminal when the server wants one and none was found. */
#include "key_prompt.h"
#include "key_source.h"
#include "tty_prompt.h"
#include "diagnose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A server that does not answer the probe in this long is left to the session to judge. */
#define PROBE_TIMEOUT_US ((int64_t)2 * 1000000)

struct probe {
	struct loop *loop;
	bool refused;           /* the server refused the key */
	bool done;
	bool abandoned;         /* timed out: the answer, when it comes, only frees the probe */
};

static void probe_done(void *ctx, struct rest_result *r)
{
	struct probe *p = ctx;
	if (p->abandoned) {
		free(p);
		return;
	}
	p->done = true;
	p->refused = r->outcome == REST_AUTH;
	loop_quit(p->loop);
}

static void probe_timeout(void *arg)
{
	struct probe *p = arg;
	p->abandoned = true;
	loop_quit(p->loop);
}

/* Whether the server refuses key (NULL: none) for a one-item list; no answer is no. On
 * the run's own loop: a second loop (a second lws context, its TLS set-up) cost as much as
 * the whole open of a conversation. */
static bool probe_refused(const struct options *o, struct loop *loop, const char *key)
{
	struct probe *p = xcalloc(1, sizeof *p);
	p->loop = loop;
	struct loop_timer *t = loop_timer_create(loop, probe_timeout, p);
	struct rest_server srv = {.loop = loop, .url = o->server, .api_key = key,
				  .insecure = o->insecure};
	struct rest_args a = {.limit = 1};
	if (rest_call(&srv, REST_SEARCH_CONVERSATIONS, &a, probe_done, p) != 0) {
		loop_timer_destroy(t); /* a URL that does not parse: done is never called */
		free(p);
		return false;
	}
	loop_timer_schedule(t, PROBE_TIMEOUT_US);
	while (!p->done && !p->abandoned)
		if (loop_run(loop) != 0)
			break;
	loop_timer_destroy(t);
	bool refused = p->done && p->refused;
	if (p->done)
		free(p);
	else
		p->abandoned = true; /* still in flight: answered on the loop later, or by its end */
	return refused;
}

/* Drops the line's end; true when something is left. */
static bool value_trim(struct tty_value *v)
{
	while (v->len && (v->data[v->len - 1] == '\n' || v->data[v->len - 1] == '\r'))
		v->len--;
	v->data[v->len] = '\0';
	return v->len > 0 && strlen(v->data) == v->len;
}

/* Offers to store key for the server; says on stderr where it went. */
static void offer_store(const char *server, const char *shown_server, const char *key)
{
	struct buf q;
	buf_init(&q);
	buf_printf(&q, "Store this key for %s (tether key set)? [y/N] ", shown_server);
	struct tty_value a;
	if (tty_prompt(buf_cstr(&q), true, &a) == 0 && a.len && (a.data[0] == 'y' || a.data[0] == 'Y'))
		key_store(server, key);
	tty_value_free(&a);
	buf_fini(&q);
}

void key_prompt(const struct options *o, struct loop *loop, struct mask_set *masks,
		char **api_key)
{
	bool had = *api_key != NULL;
	if (!probe_refused(o, loop, *api_key))
		return;
	struct buf shown, q;
	buf_init(&shown);
	buf_init(&q);
	sanitize_text(o->server, strlen(o->server), &shown);
	const char *trouble = diag_keyring_trouble();
	for (int tries = 0; tries < 3; tries++) {
		buf_clear(&q);
		if (tries == 0 && had)
			buf_printf(&q, "tether: the server at %s refused the session API key that was "
				   "found for it\n", buf_cstr(&shown));
		else if (tries == 0)
			buf_printf(&q, "tether: the server at %s wants a session API key and none was "
				   "found (TETHER_SESSION_API_KEY, the keyring, the key file)%s%s%s\n",
				   buf_cstr(&shown), *trouble ? " (" : "", trouble, *trouble ? ")" : "");
		else
			buf_puts(&q, "tether: the server refused that key\n");
		buf_printf(&q, "session API key for %s (hidden; empty to give up): ", buf_cstr(&shown));
		struct tty_value v;
		if (tty_prompt(buf_cstr(&q), false, &v) != 0 || !value_trim(&v)) {
			tty_value_free(&v);
			break;
		}
		/* Masked like any key: the last one given goes on to the run, taken or not. */
		mask_set_add(masks, v.data, v.len, NULL);
		bool refused = probe_refused(o, loop, v.data);
		str_wipe_free(*api_key);
		*api_key = xstrdup(v.data);
		if (!refused)
			offer_store(o->server, buf_cstr(&shown), v.data);
		tty_value_free(&v);
		if (!refused)
			break;
	}
	buf_fini(&shown);
	buf_fini(&q);
}
