/* What a tool call was asked to do, as readable text: per action kind of the SDK's standard
 * tools (docs/events.md names the upstream classes), and key: value lines for any other
 * tool, MCP arguments, ACP inputs and event kinds this client does not know. Never raw JSON. */
#include "codec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KV_MAX_LINES 40
#define KV_MAX_DEPTH 3
#define KV_VALUE_MAX 2000

static bool nonempty(const char *s)
{
	return s && *s;
}

/* A fence that does not occur in the text (NUL-terminated, n bytes), so the block cannot end
 * early; info names the language ("" none). */
void codec_put_fenced(struct buf *b, const char *info, const char *text, size_t n)
{
	bool tick = !strstr(text, "```"), tilde = !strstr(text, "~~~");
	const char *fence = tick ? "```" : tilde ? "~~~" : "````";
	while (n && text[n - 1] == '\n')
		n--;
	buf_printf(b, "%s%s\n", fence, info);
	buf_append(b, text, n);
	buf_printf(b, "\n%s\n", fence);
}

static void put_code_block(struct buf *b, const char *text)
{
	codec_put_fenced(b, "", text, strlen(text));
}

/* A number as a person writes it: integers without a fraction. The range is checked before
 * the cast: casting 1e300 or NaN to long long is undefined behaviour. */
void codec_put_number(struct buf *b, double d)
{
	if (d > -1e15 && d < 1e15 && d == (double)(long long)d)
		buf_printf(b, "%lld", (long long)d);
	else
		buf_printf(b, "%.15g", d);
}

static void put_value_cut(struct buf *b, const char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (n <= KV_VALUE_MAX) {
		buf_append(b, s, n);
		return;
	}
	buf_append(b, s, utf8_complete_prefix(s, KV_VALUE_MAX));
	buf_puts(b, "…");
}

struct kv {
	struct buf out;
	size_t lines;
	bool cut;
};

static void kv_scalar(struct buf *b, const cJSON *v)
{
	if (cJSON_IsString(v))
		put_value_cut(b, v->valuestring);
	else if (cJSON_IsNumber(v))
		codec_put_number(b, v->valuedouble);
	else if (cJSON_IsBool(v))
		buf_puts(b, cJSON_IsTrue(v) ? "yes" : "no");
	else
		buf_puts(b, "none");
}

static bool is_scalar(const cJSON *v)
{
	return !cJSON_IsObject(v) && !cJSON_IsArray(v);
}

static void kv_line_start(struct kv *kv, const char *key)
{
	if (kv->out.len)
		buf_putc(&kv->out, '\n');
	buf_puts(&kv->out, key);
	buf_puts(&kv->out, ": ");
	kv->lines++;
}

/* One "key: value" line per scalar; nested objects and arrays of objects get dotted and
 * indexed keys; arrays of scalars are joined with ", ". A multi-line string continues on
 * lines indented by two spaces. */
static void kv_walk(struct kv *kv, const char *key, const cJSON *v, int depth)
{
	if (kv->lines >= KV_MAX_LINES) {
		kv->cut = true;
		return;
	}
	if (is_scalar(v)) {
		kv_line_start(kv, key);
		size_t start = kv->out.len;
		kv_scalar(&kv->out, v);
		for (size_t i = start; i < kv->out.len; i++) {
			if (kv->out.data[i] != '\n')
				continue;
			buf_reserve(&kv->out, 2);
			memmove(kv->out.data + i + 3, kv->out.data + i + 1, kv->out.len - i - 1);
			kv->out.data[i + 1] = ' ';
			kv->out.data[i + 2] = ' ';
			kv->out.len += 2;
			kv->out.data[kv->out.len] = '\0';
		}
		return;
	}
	const cJSON *c;
	bool all_scalar = true;
	cJSON_ArrayForEach(c, v)
		all_scalar = all_scalar && is_scalar(c);
	if (cJSON_IsArray(v) && all_scalar) {
		kv_line_start(kv, key);
		if (!v->child)
			buf_puts(&kv->out, "(none)");
		cJSON_ArrayForEach(c, v) {
			if (c != v->child)
				buf_puts(&kv->out, ", ");
			kv_scalar(&kv->out, c);
		}
		return;
	}
	if (depth >= KV_MAX_DEPTH || !v->child) {
		kv_line_start(kv, key);
		buf_puts(&kv->out, cJSON_IsArray(v) ? "(list)" : "(details)");
		return;
	}
	int i = 0;
	cJSON_ArrayForEach(c, v) {
		char sub[256];
		if (cJSON_IsArray(v))
			snprintf(sub, sizeof sub, "%s[%d]", key, ++i);
		else
			snprintf(sub, sizeof sub, "%s%s%s", key, *key ? "." : "", c->string ? c->string : "");
		kv_walk(kv, sub, c, depth + 1);
	}
}

char *codec_kv_lines(const cJSON *obj, const char *const *skip)
{
	struct kv kv = { .lines = 0 };
	buf_init(&kv.out);
	const cJSON *c;
	if (!cJSON_IsObject(obj)) {
		if (obj)
			kv_walk(&kv, "value", obj, 1);
	} else {
		cJSON_ArrayForEach(c, obj) {
			bool skipped = cJSON_IsNull(c) || !c->string;
			for (size_t i = 0; !skipped && skip && skip[i]; i++)
				skipped = strcmp(skip[i], c->string) == 0;
			if (!skipped)
				kv_walk(&kv, c->string, c, 1);
		}
	}
	if (kv.cut)
		buf_puts(&kv.out, "\n…");
	if (!kv.out.len) {
		buf_fini(&kv.out);
		return NULL;
	}
	return buf_steal(&kv.out);
}

char *codec_kind_words(const char *kind)
{
	if (!nonempty(kind))
		return xstrdup("event");
	size_t n = strlen(kind);
	if (n > 5 && strcmp(kind + n - 5, "Event") == 0)
		n -= 5;
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < n; i++) {
		char c = kind[i];
		bool upper = c >= 'A' && c <= 'Z';
		bool prev_lower = i > 0 && kind[i - 1] >= 'a' && kind[i - 1] <= 'z';
		bool next_lower = i + 1 < n && kind[i + 1] >= 'a' && kind[i + 1] <= 'z';
		bool prev_upper = i > 0 && kind[i - 1] >= 'A' && kind[i - 1] <= 'Z';
		if (upper && i > 0 && (prev_lower || (prev_upper && next_lower)))
			buf_putc(&b, ' ');
		buf_putc(&b, c == '_' ? ' ' : upper ? (char)(c - 'A' + 'a') : c);
	}
	if (!b.len)
		buf_puts(&b, "event");
	return buf_steal(&b);
}

/* ------------------------------------------------------------ per action kind */

/* Starts a new line unless b is empty or already at one. */
static void new_line(struct buf *b)
{
	if (b->len && b->data[b->len - 1] != '\n')
		buf_putc(b, '\n');
}

static void args_terminal(struct buf *b, const cJSON *a, size_t one_line_max)
{
	const char *cmd = ev_string(a, "command");
	if (cmd && (strchr(cmd, '\n') || strlen(cmd) > one_line_max))
		put_code_block(b, cmd);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "is_input"))) {
		new_line(b);
		buf_puts(b, "(input to the running process)");
	}
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(a, "timeout");
	if (cJSON_IsNumber(t)) {
		new_line(b);
		buf_puts(b, "timeout: ");
		codec_put_number(b, t->valuedouble);
		buf_puts(b, " s");
	}
}

/* The task list as the web client lists it: number, status, title, notes. */
static void task_list(struct buf *b, const cJSON *list)
{
	const cJSON *task;
	int i = 0;
	cJSON_ArrayForEach(task, array_or_null(list)) {
		const char *status = ev_string(task, "status"), *title = ev_string(task, "title");
		const char *notes = ev_string(task, "notes");
		static const struct { const char *status, *mark; } marks[] = {
			{ "todo", "[ ]" }, { "in_progress", "[~]" }, { "done", "[x]" },
		};
		const char *mark = "[?]";
		for (size_t k = 0; status && k < sizeof marks / sizeof *marks; k++)
			if (strcmp(marks[k].status, status) == 0)
				mark = marks[k].mark;
		buf_printf(b, "%s%d. %s %s", b->len ? "\n" : "", ++i, mark, title ? title : "(untitled)");
		if (status && strcmp(status, "todo") && strcmp(status, "done"))
			buf_printf(b, " (%s)", strcmp(status, "in_progress") == 0 ? "in progress" : status);
		if (nonempty(notes))
			buf_printf(b, "\n   %s", notes);
	}
	if (i == 0)
		buf_puts(b, "(no tasks)");
}

static void args_task_tracker(struct buf *b, const cJSON *a)
{
	const char *cmd = ev_string(a, "command");
	if (cmd && strcmp(cmd, "plan") == 0)
		task_list(b, cJSON_GetObjectItemCaseSensitive(a, "task_list"));
}

static void args_text_field(struct buf *b, const cJSON *a, const char *name)
{
	const char *s = ev_string(a, name);
	if (s)
		buf_puts(b, s);
}

static void args_kv(struct buf *b, const cJSON *obj, const char *const *skip)
{
	char *kv = codec_kv_lines(obj, skip);
	if (kv)
		buf_puts(b, kv);
	free(kv);
}

char *codec_tool_arguments(const cJSON *action, const char *action_kind, size_t one_line_max)
{
	static const char *const skip_kind[] = { "kind", NULL };
	static const char *const skip_search[] = { "kind", "pattern", NULL };
	static const char *const skip_url[] = { "kind", "url", NULL };
	struct buf b;
	buf_init(&b);
	const char *k = action_kind ? action_kind : "";
	if (!cJSON_IsObject(action))
		;
	else if (strcmp(k, "TerminalAction") == 0 || strcmp(k, "ExecuteBashAction") == 0)
		args_terminal(&b, action, one_line_max);
	else if (strcmp(k, "FileEditorAction") == 0 || strcmp(k, "StrReplaceEditorAction") == 0)
		codec_file_editor_arguments(&b, action);
	else if (strcmp(k, "ApplyPatchAction") == 0 && ev_string(action, "patch"))
		codec_put_fenced(&b, "diff", ev_string(action, "patch"), strlen(ev_string(action, "patch")));
	else if (strcmp(k, "TaskTrackerAction") == 0)
		args_task_tracker(&b, action);
	else if (strcmp(k, "ThinkAction") == 0)
		args_text_field(&b, action, "thought");
	else if (strcmp(k, "FinishAction") == 0)
		args_text_field(&b, action, "message");
	else if (strcmp(k, "GlobAction") == 0 || strcmp(k, "GrepAction") == 0)
		args_kv(&b, action, skip_search);
	else if (strcmp(k, "BrowserNavigateAction") == 0)
		args_kv(&b, action, skip_url);
	else if (strcmp(k, "MCPToolAction") == 0)
		args_kv(&b, cJSON_GetObjectItemCaseSensitive(action, "data"), NULL);
	else
		args_kv(&b, action, skip_kind);
	while (b.len && b.data[b.len - 1] == '\n')
		b.data[--b.len] = '\0';
	if (!b.len) {
		buf_fini(&b);
		return NULL;
	}
	return buf_steal(&b);
}
