#include "clean.h"

#include <stdarg.h>
#include <stdio.h>

void clean_text(const struct mask_set *masks, const char *in, size_t n, struct buf *scratch,
		struct buf *out)
{
	buf_clear(scratch);
	sanitize_text(in, n, scratch);
	if (masks)
		mask_text(masks, buf_cstr(scratch), scratch->len, out);
	else
		buf_append(out, buf_cstr(scratch), scratch->len);
}

void clean_eprintf(const struct mask_set *masks, const char *fmt, ...)
{
	struct buf raw, scratch, out;
	buf_init(&raw);
	buf_init(&scratch);
	buf_init(&out);
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&raw, fmt, ap);
	va_end(ap);
	clean_text(masks, buf_cstr(&raw), raw.len, &scratch, &out);
	fprintf(stderr, "tether: %s\n", buf_cstr(&out));
	buf_fini(&raw);
	buf_fini(&scratch);
	buf_fini(&out);
}
