/* Helpers shared by the codec tests. */
#ifndef TETHER_CODEC_TEST_H
#define TETHER_CODEC_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "net.h"

/* Decodes json from an exact-size heap copy (so ASan sees any read past the end), asserting
 * success; failures report the caller's line. */
#define DECODE_OK(json, f) decode_ok((json), (f), __FILE__, __LINE__)
/* Decodes json, asserting failure with the given status; returns the message. */
#define DECODE_FAILS(json, status) decode_fails((json), strlen(json), (status), __FILE__, __LINE__)

static inline int decode_copy(const char *json, size_t len, struct frame *f, struct codec_error *err)
{
	char *copy = malloc(len ? len : 1);
	memcpy(copy, json, len);
	int rc = frame_decode(copy, len, f, err);
	free(copy);
	return rc;
}

/* The copy is freed before the caller reads the frame: its strings must be its own. */
static inline void decode_ok(const char *json, struct frame *f, const char *file, int line)
{
	struct codec_error err = { 0 };
	if (decode_copy(json, strlen(json), f, &err) != 0) {
		print_error("frame_decode failed: %s\n", err.message);
		_fail(file, line);
	}
}

static inline const char *decode_fails(const char *json, size_t len, enum codec_status status,
				       const char *file, int line)
{
	static struct codec_error err;
	struct frame f;
	memset(&err, 0, sizeof err);
	int rc = decode_copy(json, len, &f, &err);
	if (rc != -1 || err.status != status || err.message[0] == '\0' || f.priv_ != NULL ||
	    f.type != FRAME_UNKNOWN)
		_fail(file, line);
	frame_fini(&f);
	return err.message;
}

/* The event JSON, made on demand by the codec. */
static inline const char *raw_of(const struct frame *f)
{
	size_t len;
	return frame_event_json(f, &len);
}

static inline size_t raw_len_of(const struct frame *f)
{
	size_t len;
	frame_event_json(f, &len);
	return len;
}

#endif
