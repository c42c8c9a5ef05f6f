/* An edit as a unified diff: file_editor's arguments (a creation, an insertion after its line,
 * a replacement) and the result of an edit from the file before and after, as upstream's
 * visualize_diff shows it. */
#include "codec_int.h"

#include <string.h>

/* An edit as a unified diff in a diff block: a creation all added, an insertion after its
 * line, a replacement of old_str by new_str (where in the file is not known before the
 * result). False when the texts are beyond what is compared: then said so in words. */
static bool put_edit_diff(struct buf *b, const char *path, const char *old, const char *new,
			  size_t old_first, size_t new_first, size_t context)
{
	struct buf d;
	buf_init(&d);
	struct diff_unified_opts o = { .old_path = old_first == 1 && !*old ? "/dev/null" : path,
				       .new_path = path, .context = context, .old_first = old_first,
				       .new_first = new_first };
	bool ok = diff_unified(&d, old, strlen(old), new, strlen(new), &o);
	if (ok)
		codec_put_fenced(b, "diff", d.data ? d.data : "", d.len);
	else
		buf_printf(b, "(an edit of %.1f MB: too large to show as a diff)\n",
			   (double)(strlen(old) + strlen(new)) / (1024.0 * 1024.0));
	buf_fini(&d);
	return ok;
}

char *codec_edit_result(const char *path, const char *before, const char *after, bool whole)
{
	if (strcmp(before, after) == 0)
		return NULL;
	struct buf b;
	buf_init(&b);
	size_t first = whole ? 1 : 0;
	if (!put_edit_diff(&b, path, before, after, first, first, whole ? 2 : 3)) {
		buf_fini(&b);
		return NULL;
	}
	while (b.len && b.data[b.len - 1] == '\n')
		b.data[--b.len] = '\0';
	return buf_steal(&b);
}

void codec_file_editor_arguments(struct buf *b, const cJSON *a)
{
	const char *cmd = ev_string(a, "command"), *path = ev_string(a, "path");
	const char *file_text = ev_string(a, "file_text"), *old_str = ev_string(a, "old_str");
	const char *new_str = ev_string(a, "new_str");
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(a, "insert_line");
	const cJSON *range = cJSON_GetObjectItemCaseSensitive(a, "view_range");
	if (cJSON_IsArray(range) && cJSON_GetArraySize(range) == 2) {
		buf_puts(b, "lines ");
		codec_put_number(b, cJSON_GetArrayItem(range, 0)->valuedouble);
		buf_puts(b, " to ");
		codec_put_number(b, cJSON_GetArrayItem(range, 1)->valuedouble);
		buf_putc(b, '\n');
	}
	if (!path)
		path = "(no path)";
	if (cmd && strcmp(cmd, "create") == 0 && file_text) {
		if (!put_edit_diff(b, path, "", file_text, 1, 1, 3))
			codec_put_fenced(b, "", file_text, strlen(file_text));
		return;
	}
	bool at_line = cJSON_IsNumber(line) && line->valuedouble >= 0 && line->valuedouble < 1e9;
	if (new_str && !old_str && at_line) {
		size_t after = (size_t)line->valuedouble;
		if (put_edit_diff(b, path, "", new_str, after + 1, after + 1, 3))
			return;
	} else if (old_str) {
		if (put_edit_diff(b, path, old_str, new_str ? new_str : "", 0, 0, 3))
			return;
	}
	if (old_str) {
		buf_puts(b, "replace:\n");
		codec_put_fenced(b, "", old_str, strlen(old_str));
	}
	if (new_str) {
		if (cJSON_IsNumber(line)) {
			buf_puts(b, "insert after line ");
			codec_put_number(b, line->valuedouble);
			buf_puts(b, ":\n");
		} else {
			buf_puts(b, old_str ? "with:\n" : "new text:\n");
		}
		codec_put_fenced(b, "", new_str, strlen(new_str));
	}
}
