/* Private to net/: the cJSON entry point shared by the frame codec and the JSON helpers. */
#ifndef TETHER_CODEC_INTERNAL_H
#define TETHER_CODEC_INTERNAL_H

#include "net.h"

#include <cjson/cJSON.h>

/* Parses json[0..len) as exactly one JSON value (surrounding whitespace allowed). Returns the
 * tree (cJSON_Delete it), or NULL with *err filled. */
cJSON *codec_parse(const char *json, size_t len, struct codec_error *err);
/* Fills *err (when err is not NULL) with status and a printf-formatted message. */
void codec_fail(struct codec_error *err, enum codec_status status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Appends v as compact JSON, every string (values and keys) passed through fn first. */
void codec_rewrite_tree(const cJSON *v, json_string_fn fn, void *ctx, struct buf *out);

#endif
