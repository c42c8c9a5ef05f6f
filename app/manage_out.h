/* The answer of a manager of conversations (tether new … server-info): a text line or one
 * JSON object. */
#ifndef TETHER_MANAGE_OUT_H
#define TETHER_MANAGE_OUT_H

#include "options.h"
#include "net.h"
#include "keyring.h"

/* One answer being written: its text line and its JSON object {"type": …, …}. */
struct manage_answer {
	const struct options *o;
	const struct mask_set *masks;
	struct buf text, json, scratch;
};

/* Starts an answer of the type given. */
void manage_answer_init(struct manage_answer *a, const struct options *o,
			const struct mask_set *masks, const char *type);
/* A field: value cleaned (sanitized, masked) in both forms; NULL is null in JSON and nothing
 * in text; text_fmt (one %s, NULL: none) is what the text line gets. */
void manage_answer_field(struct manage_answer *a, const char *key, const char *value,
			 const char *text_fmt);
/* Appends s to the text line only. */
void manage_answer_text(struct manage_answer *a, const char *s);
/* Writes the answer per --format (-q: text writes nothing but the id new and fork print),
 * then frees it. */
void manage_answer_put(struct manage_answer *a);
/* Frees an answer not written. */
void manage_answer_fini(struct manage_answer *a);

#endif
