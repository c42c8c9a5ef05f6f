/* The session's send path: the auth frame first, pings, then queued user messages, one
 * frame per WRITEABLE callback. A user message leaves the queue when it is written and is
 * never written again. */
#include <stdlib.h>
#include <string.h>

#include "net_int.h"

/* Appends an encoded message to the queue. */
void session_queue_push(struct session *s, char *msg)
{
	if (s->queue_head + s->queue_len == s->queue_cap) {
		if (s->queue_head) {
			memmove(s->queue, s->queue + s->queue_head, s->queue_len * sizeof(*s->queue));
			s->queue_head = 0;
		} else {
			s->queue_cap = s->queue_cap ? 2 * s->queue_cap : 8;
			s->queue = xrealloc(s->queue, s->queue_cap * sizeof(*s->queue));
		}
	}
	s->queue[s->queue_head + s->queue_len++] = msg;
}

/* Takes the oldest queued message (the caller frees it), or NULL. */
char *session_queue_pop(struct session *s)
{
	char *msg;

	if (!s->queue_len)
		return NULL;
	msg = s->queue[s->queue_head++];
	if (!--s->queue_len)
		s->queue_head = 0;
	return msg;
}

static int write_text(struct lws *wsi, const char *text, enum lws_write_protocol proto)
{
	size_t n = strlen(text);
	unsigned char *b = xmalloc(LWS_PRE + n + 1);
	int rc;

	memcpy(b + LWS_PRE, text, n);
	rc = lws_write(wsi, b + LWS_PRE, n, proto);
	mem_wipe(b + LWS_PRE, n);         /* it may have held the key */
	free(b);
	return rc < (int)n ? -1 : 0;
}

/* One frame per WRITEABLE, in priority order: auth first on every connection. */
int session_on_writeable(struct session *s, struct lws *wsi)
{
	unsigned char ping[LWS_PRE + 1];
	char *msg;
	int rc;

	if (s->stopping) {
		s->close_code = 1000;
		session_set_reason(s, "closed by client", strlen("closed by client"));
		lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, (unsigned char *)"bye", 3);
		return -1;
	}
	if (s->auth_pending) {
		char *auth = frame_encode_auth(s->cfg.api_key);

		s->auth_pending = false;
		rc = write_text(wsi, auth, LWS_WRITE_TEXT);
		str_wipe_free(auth);
		if (rc)
			return -1;
	} else if (s->ping_pending) {
		s->ping_pending = false;
		if (lws_write(wsi, ping + LWS_PRE, 0, LWS_WRITE_PING) < 0)
			return -1;
	} else if (s->phase == PHASE_SYNCED && (msg = session_queue_pop(s))) {
		rc = write_text(wsi, msg, LWS_WRITE_TEXT);
		free(msg);
		if (rc)
			return -1;
	}
	if (s->auth_pending || s->ping_pending || (s->phase == PHASE_SYNCED && s->queue_len))
		lws_callback_on_writable(wsi);
	return 0;
}
