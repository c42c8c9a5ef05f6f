/* The shape of a REST answer: a JSON object, and its members of the expected types, or an
 * error that names what was wrong with it. */
#include "codec_int.h"

#include <string.h>

cJSON *codec_parse_object(const char *json, size_t len, const char *what,
			  struct codec_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	cJSON *root = codec_parse(json, len, err);
	if (root && !cJSON_IsObject(root)) {
		codec_fail(err, CODEC_NOT_OBJECT, "%s: not a JSON object", what);
		cJSON_Delete(root);
		root = NULL;
	}
	return root;
}

/* The words for the first type of types that the error names. */
static const char *type_words(int types)
{
	if (types & cJSON_String)
		return "a string";
	if (types & cJSON_Array)
		return "an array";
	if (types & cJSON_Object)
		return "an object";
	if (types & cJSON_Number)
		return "a number";
	return "a boolean";
}

int codec_member(const cJSON *obj, const char *what, const char *name, int types,
		 bool required, const cJSON **out, struct codec_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	*out = NULL;
	if (!v && !required)
		return 0;
	if (!v) {
		codec_fail(err, CODEC_MISSING_FIELD, "%s: missing \"%s\"", what, name);
		return -1;
	}
	if (!((v->type & 0xff) & types)) {
		codec_fail(err, CODEC_WRONG_TYPE, "%s: \"%s\" must be %s", what, name,
			   type_words(types));
		return -1;
	}
	*out = v;
	return 0;
}
