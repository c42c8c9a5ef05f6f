/* The answer of a manager of conversations: one text line, or one JSON object with a type
 * (ndjson and json alike), every value cleaned on the way. */
#include "manage_out.h"
#include "clean.h"

#include <stdio.h>
#include <string.h>

void manage_answer_init(struct manage_answer *a, const struct options *o,
			const struct mask_set *masks, const char *type)
{
	a->o = o;
	a->masks = masks;
	buf_init(&a->text);
	buf_init(&a->json);
	buf_init(&a->scratch);
	buf_puts(&a->json, "{\"type\":");
	json_append_string(&a->json, type, strlen(type));
}

void manage_answer_field(struct manage_answer *a, const char *key, const char *value,
			 const char *text_fmt)
{
	struct buf clean;
	buf_init(&clean);
	if (value)
		clean_text(a->masks, value, strlen(value), &a->scratch, &clean);
	buf_printf(&a->json, ",\"%s\":", key);
	if (value)
		json_append_string(&a->json, buf_cstr(&clean), clean.len);
	else
		buf_puts(&a->json, "null");
	if (value && text_fmt)
		buf_printf(&a->text, text_fmt, buf_cstr(&clean));
	buf_fini(&clean);
}

void manage_answer_text(struct manage_answer *a, const char *s)
{
	buf_puts(&a->text, s);
}

void manage_answer_put(struct manage_answer *a)
{
	const struct options *o = a->o;
	bool id_only = o->command == CMD_NEW || o->command == CMD_FORK;
	buf_putc(&a->json, '}');
	if (o->format != FORMAT_TEXT)
		printf("%s\n", buf_cstr(&a->json));
	else if ((!o->quiet || id_only) && a->text.len)
		printf("%s\n", buf_cstr(&a->text));
	manage_answer_fini(a);
}

void manage_answer_fini(struct manage_answer *a)
{
	buf_fini(&a->text);
	buf_fini(&a->json);
	buf_fini(&a->scratch);
}
