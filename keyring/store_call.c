/* Bounded calls into the Secret Service: the shared connection, a watchdog that cancels a
 * call that takes too long, glib's logging kept off the terminal, and GError → status. */
#include "store_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gint timeout_ms = KEYRING_TIMEOUT_MS_DEFAULT;

void keyring_set_timeout_ms(int ms)
{
	g_atomic_int_set(&timeout_ms, ms > 0 ? ms : KEYRING_TIMEOUT_MS_DEFAULT);
}

/* glib and libsecret print warnings to stderr by default, which would corrupt the
 * screen; the caller reports what matters through its err. */
static GLogWriterOutput log_discard(GLogLevelFlags level, const GLogField *fields, gsize n,
				    gpointer data)
{
	(void)level;
	(void)fields;
	(void)n;
	(void)data;
	return G_LOG_WRITER_HANDLED;
}

static void log_route_once(void)
{
	static gsize done;
	if (g_once_init_enter(&done)) {
		g_log_set_writer_func(log_discard, NULL, NULL);
		g_once_init_leave(&done, 1);
	}
}

static gpointer watchdog_run(gpointer data)
{
	struct keyring_call *c = data;
	gint64 deadline = g_get_monotonic_time() + (gint64)g_atomic_int_get(&timeout_ms) * 1000;
	g_mutex_lock(&c->lock);
	while (!c->done)
		if (!g_cond_wait_until(&c->cond, &c->lock, deadline))
			break;
	bool late = !c->done;
	g_mutex_unlock(&c->lock);
	/* Thread-safe: GDBus delivers the cancellation to the waiting call's own context. */
	if (late)
		g_cancellable_cancel(c->cancel);
	return NULL;
}

enum keyring_status keyring_call_begin(struct keyring_call *c, struct buf *err)
{
	log_route_once();
	memset(c, 0, sizeof *c);
	c->cancel = g_cancellable_new();
	g_mutex_init(&c->lock);
	g_cond_init(&c->cond);
	/* Without a thread the D-Bus timeout below still bounds each method call. */
	c->watchdog = g_thread_try_new("keyring-watchdog", watchdog_run, c, NULL);
	GError *e = NULL;
	c->service = secret_service_get_sync(SECRET_SERVICE_NONE, c->cancel, &e);
	if (!c->service) {
		keyring_call_end(c);
		return keyring_call_fail(e, err);
	}
	g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(c->service), g_atomic_int_get(&timeout_ms));
	return KEYRING_OK;
}

void keyring_call_end(struct keyring_call *c)
{
	if (c->watchdog) {
		g_mutex_lock(&c->lock);
		c->done = true;
		g_cond_signal(&c->cond);
		g_mutex_unlock(&c->lock);
		g_thread_join(c->watchdog);
		c->watchdog = NULL;
	}
	g_mutex_clear(&c->lock);
	g_cond_clear(&c->cond);
	g_clear_object(&c->service);
	g_clear_object(&c->cancel);
}

enum keyring_status keyring_call_error(struct buf *err, enum keyring_status status,
				       const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	/* One line, whatever a D-Bus peer put into its error text. */
	for (char *p = line; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	buf_puts(err, line);
	return status;
}


enum { ANY_CODE = -1 };
enum detail { DETAIL_NONE, DETAIL_MESSAGE, DETAIL_TIMEOUT };

/* The error matrix of stack.md §6; the first matching rule wins. A text has at most one
 * %s, filled per its detail: the GError's message or the timeout. */
static const struct error_rule {
	GQuark (*domain)(void);
	int code;
	enum keyring_status status;
	enum detail detail;
	const char *text;
} error_rules[] = {
	{ g_io_error_quark, G_IO_ERROR_CANCELLED, KEYRING_ERROR, DETAIL_TIMEOUT,
	  "keyring: the Secret Service did not answer within %s" },
	{ g_io_error_quark, G_IO_ERROR_TIMED_OUT, KEYRING_ERROR, DETAIL_TIMEOUT,
	  "keyring: the Secret Service did not answer within %s" },
	{ g_dbus_error_quark, G_DBUS_ERROR_TIMEOUT, KEYRING_ERROR, DETAIL_TIMEOUT,
	  "keyring: the Secret Service did not answer within %s" },
	{ g_dbus_error_quark, G_DBUS_ERROR_NO_REPLY, KEYRING_ERROR, DETAIL_TIMEOUT,
	  "keyring: the Secret Service did not answer within %s" },
	{ g_io_error_quark, ANY_CODE, KEYRING_NO_BUS, DETAIL_MESSAGE,
	  "keyring: cannot reach the D-Bus session bus (%s)" },
	{ g_dbus_error_quark, G_DBUS_ERROR_SERVICE_UNKNOWN, KEYRING_NO_SERVICE, DETAIL_NONE,
	  "keyring: no Secret Service on the session bus (no gnome-keyring or similar)" },
	{ g_dbus_error_quark, G_DBUS_ERROR_UNKNOWN_METHOD, KEYRING_NO_SERVICE, DETAIL_NONE,
	  "keyring: the Secret Service has no default collection (no login keyring)" },
	{ g_dbus_error_quark, ANY_CODE, KEYRING_NO_SERVICE, DETAIL_MESSAGE,
	  "keyring: the Secret Service is not usable (%s)" },
	{ secret_error_get_quark, SECRET_ERROR_IS_LOCKED, KEYRING_LOCKED, DETAIL_NONE,
	  "keyring: the default keyring is locked; unlock it, or use env and --mask-file secrets" },
};

static const struct error_rule other_error = {
	NULL, ANY_CODE, KEYRING_ERROR, DETAIL_MESSAGE, "keyring: %s"
};

enum keyring_status keyring_call_fail(GError *e, struct buf *err)
{
	if (!e)
		return keyring_call_error(err, KEYRING_ERROR, "keyring: the call failed without a reason");
	/* Drop the "GDBus.Error:org.freedesktop…: " prefix a remote error carries. */
	g_dbus_error_strip_remote_error(e);
	const struct error_rule *rule = &other_error;
	for (size_t i = 0; i < sizeof error_rules / sizeof error_rules[0]; i++) {
		const struct error_rule *r = &error_rules[i];
		if (e->domain == r->domain() && (r->code == ANY_CODE || e->code == r->code)) {
			rule = r;
			break;
		}
	}
	char detail[160] = "";
	const char *text = rule->text;
	if (rule->detail == DETAIL_MESSAGE)
		snprintf(detail, sizeof detail, "%s", e->message ? e->message : "");
	else if (rule->detail == DETAIL_TIMEOUT)
		snprintf(detail, sizeof detail, "%.1f s", g_atomic_int_get(&timeout_ms) / 1000.0);
	if (rule->status == KEYRING_NO_BUS && !getenv("DBUS_SESSION_BUS_ADDRESS"))
		text = "keyring: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset)";
	g_error_free(e);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	return keyring_call_error(err, rule->status, text, detail);
#pragma GCC diagnostic pop
}

bool keyring_call_default_locked(struct keyring_call *c)
{
	GError *e = NULL;
	SecretCollection *col = secret_collection_for_alias_sync(c->service, SECRET_COLLECTION_DEFAULT,
								 SECRET_COLLECTION_NONE, c->cancel, &e);
	bool locked = col && secret_collection_get_locked(col);
	g_clear_object(&col);
	g_clear_error(&e);
	return locked;
}

enum keyring_status keyring_call_absent(struct keyring_call *c, struct buf *err, const char *what)
{
	if (keyring_call_default_locked(c))
		return keyring_call_error(err, KEYRING_LOCKED,
					  "keyring: the default keyring is locked, so the %s cannot be used; "
					  "unlock it, or use env and --mask-file secrets", what);
	return keyring_call_error(err, KEYRING_NOT_FOUND, "keyring: no %s is stored", what);
}
