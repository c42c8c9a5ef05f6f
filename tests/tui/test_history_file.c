/* The input history file: its line format, its bounds, its merging, its mode and its name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "history_file.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/tether-history-test.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	struct buf b;
	buf_init(&b);
	char chunk[4096];
	size_t r;
	while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, r);
	fclose(f);
	return buf_steal(&b);
}

/* Multi-line entries and backslashes round-trip through one line each. */
static void test_line_round_trip(void **state)
{
	(void)state;
	static const char *const entries[] = { "plain", "two\nlines", "back\\slash\\n not a newline",
					       "\\", "trailing\n", "tab\there" };
	for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
		struct buf line, back;
		buf_init(&line);
		buf_init(&back);
		history_line_encode(entries[i], strlen(entries[i]), &line);
		assert_null(memchr(buf_cstr(&line), '\n', line.len));
		assert_int_equal(history_line_decode(line.data, line.len, &back), 0);
		assert_string_equal(buf_cstr(&back), entries[i]);
		buf_fini(&line);
		buf_fini(&back);
	}
	struct buf line;
	buf_init(&line);
	history_line_encode("a\\b\nc", 5, &line);
	assert_string_equal(buf_cstr(&line), "a\\\\b\\nc");
	buf_fini(&line);
}

static void test_broken_escape_is_refused(void **state)
{
	(void)state;
	static const char *const bad[] = { "a\\x", "ends with\\", "\\t" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct buf out;
		buf_init(&out);
		assert_int_equal(history_line_decode(bad[i], strlen(bad[i]), &out), -1);
		assert_int_equal(out.len, 0);
		buf_fini(&out);
	}
}

/* Append writes 0600, keeps the order, merges with what is there and skips a repeat. */
static void test_append_and_load(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/state/tether/history-x", dir);
	struct buf err;
	buf_init(&err);
	assert_int_equal(history_file_append(path, "one", &err), 0);
	assert_int_equal(history_file_append(path, "two\nlines", &err), 0);
	assert_int_equal(history_file_append(path, "two\nlines", &err), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	char sub[160];
	snprintf(sub, sizeof sub, "%s/state/tether", dir);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	char *text = read_file(path);
	assert_string_equal(text, "one\ntwo\\nlines\n");
	free(text);
	char **entries;
	size_t n;
	assert_int_equal(history_file_load(path, &entries, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(entries[0], "one");
	assert_string_equal(entries[1], "two\nlines");
	history_entries_free(entries, n);
	/* No temporary file is left behind: the file and its lock alone. */
	char cmd[256];
	snprintf(cmd, sizeof cmd, "test \"$(ls -A '%s/state/tether' | tr '\\n' ' ')\" = "
		 "'history-x history-x.lock '", dir);
	assert_int_equal(system(cmd), 0);
	buf_fini(&err);
}

/* A missing file is an empty history; damaged lines are counted and skipped; controls and
 * invalid UTF-8 in the file never reach the editor. */
static void test_load_damaged_and_missing(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/damaged", dir);
	struct buf err;
	buf_init(&err);
	char **entries;
	size_t n;
	assert_int_equal(history_file_load(path, &entries, &n, &err), 0);
	assert_int_equal(n, 0);
	write_file(path, "good\nbad\\q\n\nesc \x1b[31mred\x1b[0m \xff\nlast");
	assert_int_equal(history_file_load(path, &entries, &n, &err), 1);
	assert_int_equal(n, 3);
	assert_string_equal(entries[0], "good");
	assert_string_equal(entries[1], "esc red \xef\xbf\xbd");
	assert_string_equal(entries[2], "last");
	history_entries_free(entries, n);
	/* Appending to a damaged file keeps its good entries. */
	assert_int_equal(history_file_append(path, "new", &err), 0);
	assert_int_equal(history_file_load(path, &entries, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_string_equal(entries[3], "new");
	history_entries_free(entries, n);
	buf_fini(&err);
}

/* A directory in the file's place cannot be read: an error that says where, and append
 * refuses to replace it. */
static void test_unreadable_is_an_error(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/adir", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	struct buf err;
	buf_init(&err);
	char **entries;
	size_t n;
	assert_int_equal(history_file_load(path, &entries, &n, &err), -1);
	assert_non_null(strstr(buf_cstr(&err), "adir"));
	assert_int_equal(n, 0);
	buf_clear(&err);
	assert_int_equal(history_file_append(path, "x", &err), -1);
	assert_non_null(strstr(buf_cstr(&err), "not a regular file"));
	buf_fini(&err);
}

/* At most 1000 entries and 1 MiB: the oldest go first. */
static void test_bounds(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/bounded", dir);
	struct buf text, err;
	buf_init(&text);
	buf_init(&err);
	for (int i = 0; i < 1500; i++)
		buf_printf(&text, "entry %d\n", i);
	write_file(path, buf_cstr(&text));
	assert_int_equal(history_file_append(path, "newest", &err), 0);
	char **entries;
	size_t n;
	assert_int_equal(history_file_load(path, &entries, &n, &err), 0);
	assert_int_equal(n, HISTORY_FILE_MAX_ENTRIES);
	assert_string_equal(entries[0], "entry 501");
	assert_string_equal(entries[n - 1], "newest");
	history_entries_free(entries, n);
	/* An entry too big to keep is left out; the others stay. */
	char *big = malloc(HISTORY_FILE_MAX_ENTRY + 2);
	memset(big, 'b', HISTORY_FILE_MAX_ENTRY + 1);
	big[HISTORY_FILE_MAX_ENTRY + 1] = '\0';
	assert_int_equal(history_file_append(path, big, &err), 0);
	assert_int_equal(history_file_load(path, &entries, &n, &err), 0);
	assert_int_equal(n, HISTORY_FILE_MAX_ENTRIES);
	assert_string_equal(entries[n - 1], "newest");
	history_entries_free(entries, n);
	/* Big entries: the file stays within its bytes, the oldest going first. */
	big[HISTORY_FILE_MAX_ENTRY - 10] = '\0';
	for (int i = 0; i < 10; i++) {
		big[0] = (char)('0' + i);
		assert_int_equal(history_file_append(path, big, &err), 0);
	}
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= HISTORY_FILE_MAX_BYTES);
	assert_true(st.st_size > HISTORY_FILE_MAX_BYTES - HISTORY_FILE_MAX_ENTRY);
	assert_int_equal(history_file_load(path, &entries, &n, &err), 0);
	assert_int_equal(entries[n - 1][0], '9');
	assert_int_equal(entries[0][0], (int)('0' + 10 - n));
	history_entries_free(entries, n);
	free(big);
	buf_fini(&text);
	buf_fini(&err);
}

/* Two runs appending at once: every entry of both is in the file afterwards (each append
 * reads, adds and replaces under the lock; without it about half were lost). */
static void test_concurrent_appends_lose_nothing(void **state)
{
	(void)state;
	enum { EACH = 300 };
	char path[128];
	snprintf(path, sizeof path, "%s/state/tether/history-both", dir);
	pid_t kids[2];
	for (int k = 0; k < 2; k++) {
		kids[k] = fork();
		assert_true(kids[k] >= 0);
		if (kids[k] == 0) {
			struct buf err, entry;
			buf_init(&err);
			buf_init(&entry);
			int bad = 0;
			for (int i = 0; i < EACH; i++) {
				buf_clear(&entry);
				buf_printf(&entry, "run %c entry %d", 'a' + k, i);
				bad += history_file_append(path, buf_cstr(&entry), &err) != 0;
			}
			_exit(bad ? 1 : 0);
		}
	}
	for (int k = 0; k < 2; k++) {
		int st;
		assert_int_equal(waitpid(kids[k], &st, 0), kids[k]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	char **entries;
	size_t n;
	struct buf err;
	buf_init(&err);
	assert_int_equal(history_file_load(path, &entries, &n, &err), 0);
	assert_int_equal(n, 2 * EACH);
	/* each run's entries in its own order */
	int next[2] = { 0, 0 };
	for (size_t i = 0; i < n; i++) {
		char run;
		int at;
		assert_int_equal(sscanf(entries[i], "run %c entry %d", &run, &at), 2);
		assert_int_equal(at, next[run - 'a']++);
	}
	history_entries_free(entries, n);
	struct stat st;
	char lock[160];
	snprintf(lock, sizeof lock, "%s.lock", path);
	assert_int_equal(stat(lock, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	buf_fini(&err);
}

/* One file per server, named from its host and port (and path), nothing else of the URL. */
static void test_path_names_the_server(void **state)
{
	(void)state;
	struct buf path, err;
	buf_init(&path);
	buf_init(&err);
	setenv("XDG_STATE_HOME", "/st", 1);
	assert_int_equal(history_file_path("http://127.0.0.1:8000", &path, &err), 0);
	assert_string_equal(buf_cstr(&path), "/st/tether/history-127.0.0.1_8000");
	buf_clear(&path);
	assert_int_equal(history_file_path("https://agents.example:8443/api/v1/", &path, &err), 0);
	assert_string_equal(buf_cstr(&path), "/st/tether/history-agents.example_8443_api_v1");
	buf_clear(&path);
	assert_int_equal(history_file_path("http://h:1/../x", &path, &err), 0);
	assert_null(strstr(buf_cstr(&path) + strlen("/st/tether/"), "/"));
	buf_clear(&path);
	setenv("XDG_STATE_HOME", "relative", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(history_file_path("http://h:1", &path, &err), 0);
	assert_string_equal(buf_cstr(&path), "/home/u/.local/state/tether/history-h_1");
	unsetenv("XDG_STATE_HOME");
	buf_fini(&path);
	buf_fini(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_round_trip),
		cmocka_unit_test(test_broken_escape_is_refused),
		cmocka_unit_test(test_append_and_load),
		cmocka_unit_test(test_load_damaged_and_missing),
		cmocka_unit_test(test_unreadable_is_an_error),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_concurrent_appends_lose_nothing),
		cmocka_unit_test(test_path_names_the_server),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
