#include "clean.h"
#include "render.h"

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
