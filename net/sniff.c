/* The start of a message too large to keep: is it a durable frame, and which seq?
 * Only an exact {"type":"…" prefix counts; anything else is "cannot tell". */
#include <string.h>

#include "net_int.h"

struct cursor {
	const char *p, *end;
};

static void skip_ws(struct cursor *c)
{
	while (c->p < c->end && strchr(" \t\r\n", *c->p) && *c->p)
		c->p++;
}

static bool eat(struct cursor *c, const char *lit)
{
	size_t n = strlen(lit);

	skip_ws(c);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n))
		return false;
	c->p += n;
	return true;
}

/* A plain string (no escapes) into out; false when it does not fit or is not plain. */
static bool read_name(struct cursor *c, char *out, size_t cap)
{
	size_t n = 0;

	if (!eat(c, "\""))
		return false;
	while (c->p < c->end && *c->p != '"') {
		if (*c->p == '\\' || n + 1 >= cap)
			return false;
		out[n++] = *c->p++;
	}
	if (c->p >= c->end)
		return false;
	c->p++;
	out[n] = '\0';
	return true;
}

static bool read_int(struct cursor *c, int64_t *out)
{
	int64_t v = 0;
	bool neg = false, any = false;

	skip_ws(c);
	if (c->p < c->end && *c->p == '-') {
		neg = true;
		c->p++;
	}
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		if (v > NET_SEQ_MAX / 10)
			return false;
		v = v * 10 + (*c->p++ - '0');
		any = true;
	}
	/* the number must be complete: followed by a delimiter we can see */
	skip_ws(c);
	if (!any || v > NET_SEQ_MAX || c->p >= c->end || (*c->p != ',' && *c->p != '}'))
		return false;
	*out = neg ? -v : v;
	return true;
}

/* Reads the type (and a durable frame's seq) from the first bytes of a message. */
void sniff_frame(const char *p, size_t n, struct sniff *out)
{
	struct cursor c = { p, p + n };

	memset(out, 0, sizeof(*out));
	if (!eat(&c, "{") || !eat(&c, "\"type\"") || !eat(&c, ":") ||
	    !read_name(&c, out->type, sizeof(out->type))) {
		out->type[0] = '\0';
		return;
	}
	if (strcmp(out->type, "durable")) {
		out->kind = SNIFF_OTHER;
		return;
	}
	out->kind = SNIFF_DURABLE;
	if (eat(&c, ",") && eat(&c, "\"seq\"") && eat(&c, ":") && read_int(&c, &out->seq))
		out->has_seq = true;
}
