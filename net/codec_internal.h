/* Private to net/: the cJSON entry point shared by the frame codec and the JSON helpers. */
#ifndef TETHER_CODEC_INTERNAL_H
#define TETHER_CODEC_INTERNAL_H

#include "net.h"

#include <cjson/cJSON.h>

/* Parses json[0..len) as exactly one JSON value (surrounding whitespace allowed). Returns the
 * tree (cJSON_Delete it), or NULL with *err filled. */
cJSON *codec_parse(const char *json, size_t len, struct codec_error *err);
/* codec_parse, and the text cJSON read: *mended is a repaired copy of json (free it) when
 * escapes had to be mended, else NULL (json itself was read). */
cJSON *codec_parse_mended(const char *json, size_t len, struct codec_error *err, char **mended);
/* Fills *err (when err is not NULL) with status and a printf-formatted message. */
void codec_fail(struct codec_error *err, enum codec_status status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));


/* Appends the JSON value in json[0..len) (accepted by codec_parse) as compact JSON, every
 * string passed through fn first and every number copied as written. */
void codec_rewrite_text(const char *json, size_t len, json_string_fn fn, void *ctx,
			struct buf *out);
/* Finds the first member called name of the JSON object in json[0..len) (accepted by
 * codec_parse): *at and *at_len span its value. Returns 0, or -1 when there is none. */
int codec_find_member(const char *json, size_t len, const char *name, const char **at,
		      size_t *at_len);

#endif
