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
 * string passed through fn first and every number copied as written. kept_plain: fn gives
 * printable ASCII, LF and TAB back as they are, so strings of only those skip it. */
void codec_rewrite_text(const char *json, size_t len, json_string_fn fn, void *ctx,
			bool kept_plain, struct buf *out);
/* What codec_rewrite_text gives for kept_plain, in one pass with no walk of the structure, for
 * an object or array in json (strict JSON, text after it ignored) whose strings hold only
 * printable ASCII and the escapes such an fn keeps: appended, true. False (out as it was)
 * for any other, which then needs codec_rewrite_text. */
bool codec_rewrite_kept_flat(const char *json, size_t len, struct buf *out);
/* Finds the first member called name of the JSON object in json[0..len) (accepted by
 * codec_parse): *at and *at_len span its value (at_len NULL: only *at, without walking the
 * value). Returns 0, or -1 when there is none. */
int codec_find_member(const char *json, size_t len, const char *name, const char **at,
		      size_t *at_len);

/* v when it is an array, else NULL (for cJSON_ArrayForEach, which takes NULL as empty). */
static inline const cJSON *array_or_null(const cJSON *v)
{
	return cJSON_IsArray(v) ? v : NULL;
}

/* obj's member name when it is a string, else NULL: inside events, a field of an unexpected
 * type reads as absent (the schema may grow). */
static inline const char *ev_string(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* codec_shape.c */
/* Parses json[0..len) as one JSON object, what naming it in messages: the tree (cJSON_Delete
 * it), or NULL with *err (cleared first) filled. */
cJSON *codec_parse_object(const char *json, size_t len, const char *what,
			  struct codec_error *err);
/* Sets *out to obj's member name when its cJSON type is one of types (or-ed cJSON_String, …;
 * cJSON_NULL where null is allowed), or to NULL when it is absent and not required. Returns
 * 0, or -1 with *err naming what and the member (missing, or of another type). */
int codec_member(const cJSON *obj, const char *what, const char *name, int types,
		 bool required, const cJSON **out, struct codec_error *err);

/* jspan.c: spans of strict JSON text (RFC 8259), for frames decoded without a tree. */
/* A value's whole text (at NULL: absent). */
struct jspan {
	const char *at;
	size_t len;
};
/* Nesting the scanner follows; deeper text is left to cJSON (whose limit is 1000). */
#define JSPAN_DEPTH 256
/* The end of the JSON value at p (whitespace before and after it skipped), or NULL: not
 * strict JSON, nested deeper than JSPAN_DEPTH, or a string holding a raw NUL. */
const char *jspan_skip(const char *p, const char *end);
/* Walks the object at p (after whitespace) in text jspan_skip took: out[i] spans the value
 * of the first member whose key is names[i] as written; the walk stops once all are found.
 * Returns non-NULL, or NULL when there is no object or a key before the end of the walk has
 * an escape. Values are not checked again; text that was not checked may give NULL or wrong
 * spans, never a read past end — right ones when it passes the check afterwards. */
const char *jspan_members(const char *p, const char *end, const char *const *names, size_t n,
			  struct jspan *out);
/* jspan_skip and jspan_members in one walk: true when json[0..end) is one strict JSON object
 * (whitespace around it) whose keys have no escape, with out[i] as jspan_members gives it. */
bool jspan_object_members(const char *p, const char *end, const char *const *names, size_t n,
			  struct jspan *out);
/* The next element of an array in text jspan_skip took: *array is the array's span, then
 * what is left of it. False at its end. */
bool jspan_next_element(struct jspan *array, struct jspan *elem);
/* Whether s is the string literal "lit" written without escapes. */
bool jspan_is(struct jspan s, const char *lit);
/* Whether s is the literal true. */
bool jspan_true(struct jspan s);
/* s as a number (strtod of its text); false when it is none. */
bool jspan_number(struct jspan s, double *out);
/* Decodes the string literal s (checked by jspan_skip) into out, NUL-terminated, as cJSON
 * reads it after codec_parse's mending (an escaped NUL or lone surrogate is U+FFFD); out
 * needs s.len bytes. Returns the decoded length. */
size_t jspan_string(struct jspan s, char *out);

/* codec_fast.c */
struct frame_store;
/* Decodes json[0..len) into *f when it is a delta (codec_delta_decode), or a durable or
 * transient frame of an ObservationEvent, a MessageEvent, an ActionEvent or an
 * execution_status update, of a shape decoded without a tree of the whole frame: 0 and *st
 * its store. -1 (f as it was) for
 * anything else, to be decoded with cJSON; a frame of another type or kind is found so
 * before its text is checked. */
int codec_fast_decode(const char *json, size_t len, struct frame *f, struct frame_store **st);
/* codec_delta.c */
/* Decodes json[0..len) into *f when it is a delta frame of a shape decoded without cJSON:
 * 0 and *st its store; -1 (f as it was) for anything else, to be decoded with cJSON. */
int codec_delta_decode(const char *json, size_t len, struct frame *f, struct frame_store **st);
/* frame_decode through a cJSON tree, whatever the frame (what codec_fast_decode leaves). */
int codec_frame_decode_tree(const char *json, size_t len, struct frame *out,
			    struct codec_error *err);
/* A store for a frame decoded from its text: a copy of json[0..len), the event's value at
 * event_at in it, and *arena: len + 1 bytes for its decoded strings. */
struct frame_store *codec_store_for_text(const char *json, size_t len, size_t event_at,
					 char **arena);
/* The event's source name, execution status and protocol names decoded to enums, as
 * decode_event does. */
void codec_event_names(struct event *e, const char *source);
/* An ActionEvent's action object, json[0..len) (strict JSON), through cJSON into st and *e:
 * its kind, summary (summary: the event's own), every argument, the arguments in words, and
 * the risk. The rest of the event is the caller's. 0, or -1 when it is no object. */
int codec_action_from_text(struct frame_store *st, const char *json, size_t len,
			   const char *summary, const char *risk, struct event *e);
/* Whether kind names an observation of the standard tools (its content says what came back). */
bool codec_known_observation(const char *kind);

/* codec_usage.c */
/* Decodes a stats value (an object with usage_to_metrics) into *out. Returns 0, or -1 (out
 * empty) when v is not of that shape. */
int codec_usage_decode(const cJSON *v, struct usage_stats *out);

/* Decodes the event object ev into *e, as a durable frame's event; its composed strings live
 * in the returned store (free it with codec_store_free), the rest point into ev. */
struct frame_store *codec_event_decode(const cJSON *ev, struct event *e);
/* Frees a store from codec_event_decode; NULL is fine. */
void codec_store_free(struct frame_store *st);
/* The event a store decoded, as compact JSON (malloc'd), or NULL. */
char *codec_store_event_json(const struct frame_store *st);

/* The REST body for send-message: the user message plus "run":true. Caller frees. */
char *rest_encode_user_message(const char *text);

/* codec_args.c */
/* The arguments of an action as readable lines (markdown-lite), or NULL: a terminal command
 * longer than one_line_max or on several lines, an edit, a task list, a thought, a finish
 * message, search and browser fields, MCP data, any other tool's fields. Caller frees. */
char *codec_tool_arguments(const cJSON *action, const char *action_kind, size_t one_line_max);
/* text[0..n) (NUL-terminated) as a fenced block whose fence it does not hold, info naming
 * the language ("" none). */
void codec_put_fenced(struct buf *b, const char *info, const char *text, size_t n);
/* A number as a person writes it: integers without a fraction. */
void codec_put_number(struct buf *b, double d);

/* codec_edit.c */
/* file_editor's arguments: view_range, and an edit as a unified diff in a diff block (or in
 * words and as they are when too large to compare). */
void codec_file_editor_arguments(struct buf *b, const cJSON *a);
/* A file edit's result as a unified diff in a diff block, from the file's content before and
 * after (whole: line numbers, two lines of context, as upstream shows it; else a snippet of
 * it, no line numbers); NULL when nothing changed or the texts are beyond what is
 * compared. */
char *codec_edit_result(const char *path, const char *before, const char *after, bool whole);
/* obj's members (except NULLs and skip, a NULL-ended list) as "key: value" lines, nested keys
 * dotted; a non-object as one "value:" line. NULL when nothing is left. Caller frees. */
char *codec_kv_lines(const cJSON *obj, const char *const *skip);
/* "FooBarEvent" → "foo bar": a kind name in words. Caller frees. */
char *codec_kind_words(const char *kind);

/* codec_manage.c */
/* /server_info's answer: its "version" read by server_version_parse. 0, or -1 with *err. */
int server_info_decode(const char *json, size_t len, struct server_version *out,
		       struct codec_error *err);
/* {"profiles":[…], "active_agent_profile_id"|"active_profile": …}: agent profiles when
 * agents, else LLM profiles. 0 (free with profile_list_fini), or -1 with *err. */
int profile_list_decode(const char *json, size_t len, bool agents, struct profile_list *out,
			struct codec_error *err);
/* Frees what profile_list_decode allocated; safe on a zeroed list. */
void profile_list_fini(struct profile_list *p);
/* {"success": bool}: 0 with *success, or -1 with *err. */
int success_decode(const char *json, size_t len, bool *success, struct codec_error *err);
/* An error body's words: "detail" (a 5xx's "exception"; a 422's first message), or NULL.
 * Caller frees. */
char *error_detail_decode(const char *json, size_t len);
/* ask_agent's {"response": str}: 0 with *answer (caller frees), or -1 with *err. */
int ask_answer_decode(const char *json, size_t len, char **answer, struct codec_error *err);

#endif
