/* Server URLs: scheme, host, port and base path of the agent server (cli.md --server). */
#include "net_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct url_scheme {
	const char *prefix;
	bool tls;
	int default_port;
} url_schemes[] = {
	{ "http://", false, 80 },
	{ "https://", true, 443 },
	{ "ws://", false, 80 },
	{ "wss://", true, 443 },
};

/* Host names and IPv4 literals: letters, digits, '-', '.', '_'. */
static bool host_name_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-._", s[i]))
			return false;
	return n > 0;
}

/* The inside of [...]: hex digits, ':' and '.' (an embedded IPv4), at least one ':'. */
static bool host_ipv6_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) && s[i] != ':' && s[i] != '.')
			return false;
	return memchr(s, ':', n) != NULL;
}

static int port_parse(const char *s, size_t n, int *port)
{
	int v = 0;
	if (n == 0 || n > 5)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v < 1 || v > 65535)
		return -1;
	*port = v;
	return 0;
}

/* The host is stored without the brackets of an IPv6 literal (as getaddrinfo wants it).
 * User info, queries and fragments are refused: a base URL has no use for them, and a
 * password in it would end up in logs. */
int server_url_parse(const char *url, struct server_url *out)
{
	const struct url_scheme *scheme = NULL;
	memset(out, 0, sizeof *out);
	for (size_t i = 0; url && i < sizeof url_schemes / sizeof url_schemes[0]; i++)
		if (strncasecmp(url, url_schemes[i].prefix, strlen(url_schemes[i].prefix)) == 0)
			scheme = &url_schemes[i];
	if (!scheme)
		return -1;
	const char *p = url + strlen(scheme->prefix);
	size_t auth_len = strcspn(p, "/?#");
	const char *path = p + auth_len;
	if (memchr(p, '@', auth_len) || strpbrk(path, "?#"))
		return -1;

	const char *host = p, *port = NULL;
	size_t host_len;
	if (*p == '[') {
		const char *close = memchr(p, ']', auth_len);
		if (!close)
			return -1;
		host = p + 1;
		host_len = (size_t)(close - host);
		if (!host_ipv6_ok(host, host_len))
			return -1;
		if (close + 1 < p + auth_len) {
			if (close[1] != ':')
				return -1;
			port = close + 2;
		}
	} else {
		const char *colon = memchr(p, ':', auth_len);
		host_len = colon ? (size_t)(colon - p) : auth_len;
		if (!host_name_ok(host, host_len))
			return -1;
		if (colon)
			port = colon + 1;
	}
	out->port = scheme->default_port;
	if (port && port_parse(port, (size_t)(p + auth_len - port), &out->port) < 0)
		return -1;

	size_t path_len = strlen(path);
	while (path_len > 0 && path[path_len - 1] == '/')
		path_len--;
	for (size_t i = 0; i < path_len; i++)
		if ((unsigned char)path[i] <= 0x20 || path[i] == 0x7F)
			return -1;
	if (host_len >= sizeof out->host || path_len >= sizeof out->base_path)
		return -1;
	out->tls = scheme->tls;
	memcpy(out->host, host, host_len);
	memcpy(out->base_path, path, path_len);
	return 0;
}

/* Why url is refused, checked in the order a user would fix it. */
const char *server_url_problem(const char *url)
{
	struct server_url u;
	const char *p;
	size_t auth_len;

	if (!url || !*url)
		return "is empty";
	p = strstr(url, "://");
	if (!p || server_url_parse(url, &u) == 0) {
		if (p)
			return NULL;
		return "must start with http://, https://, ws:// or wss://";
	}
	p += 3;
	auth_len = strcspn(p, "/?#");
	if (memchr(p, '@', auth_len))
		return "must not hold a user name or password (user@host): give the key with "
		       "tether key set or TETHER_SESSION_API_KEY";
	if (strpbrk(p, "?#"))
		return "must not have a query (?...) or fragment (#...): give the server's base URL";
	for (size_t i = 0; i < sizeof url_schemes / sizeof url_schemes[0]; i++)
		if (!strncasecmp(url, url_schemes[i].prefix, strlen(url_schemes[i].prefix)))
			return "has an invalid host, port (1-65535) or path (spaces, control "
			       "characters)";
	return "must start with http://, https://, ws:// or wss://";
}

/* A URL named by a server (a redirect's Location) as safe to show: user info, query and
 * fragment left out (they may hold credentials), bytes outside printable ASCII as '?', at most
 * 160 characters. */
void url_describe(const char *url, struct buf *out)
{
	const char *p = url, *auth = strstr(url, "://");
	size_t start = out->len;

	if (auth) {
		const char *host = auth + 3;
		size_t alen = strcspn(host, "/?#");
		const char *at = NULL;

		for (const char *q = host; q < host + alen; q++)
			if (*q == '@')
				at = q;
		buf_append(out, url, (size_t)(host - url));
		p = at ? at + 1 : host;
	}
	for (; *p && *p != '?' && *p != '#'; p++) {
		unsigned char c = (unsigned char)*p;

		if (out->len - start >= 160) {
			buf_puts(out, "...");
			return;
		}
		buf_putc(out, c >= 0x20 && c < 0x7f ? (char)c : '?');
	}
	if (*p)
		buf_puts(out, *p == '?' ? "?..." : "#...");
}

/* One path segment or query value, %-escaped. */
void url_append_escaped(struct buf *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	/* a dot segment would be resolved away by the server ("/x/.." is "/") */
	if (!strcmp(s, ".") || !strcmp(s, "..")) {
		buf_puts(out, s[1] ? "%2E%2E" : "%2E");
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~", *p)) {
			buf_putc(out, (char)*p);
		} else {
			buf_putc(out, '%');
			buf_putc(out, hex[*p >> 4]);
			buf_putc(out, hex[*p & 15]);
		}
	}
}
