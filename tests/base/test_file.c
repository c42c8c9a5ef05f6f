/* file_read_all: a whole file, bounded, and why not in words. */
#include "base.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

struct dir {
	char path[64];
	struct buf file, out, err;
};

static int dir_setup(void **state)
{
	struct dir *d = calloc(1, sizeof *d);
	snprintf(d->path, sizeof d->path, "/tmp/tether-file-XXXXXX");
	if (!d || !mkdtemp(d->path))
		return -1;
	buf_init(&d->file);
	buf_init(&d->out);
	buf_init(&d->err);
	buf_printf(&d->file, "%s/f", d->path);
	*state = d;
	return 0;
}

static int dir_teardown(void **state)
{
	struct dir *d = *state;
	char cmd[96];
	snprintf(cmd, sizeof cmd, "rm -rf %s", d->path);
	int rc = system(cmd);
	buf_fini(&d->file);
	buf_fini(&d->out);
	buf_fini(&d->err);
	free(d);
	return rc == 0 ? 0 : -1;
}

static void write_file(const char *path, size_t n)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		fputc('a' + (int)(i % 26), f);
	assert_int_equal(fclose(f), 0);
}

static void test_file_within_bound(void **state)
{
	struct dir *d = *state;
	write_file(buf_cstr(&d->file), 100000);
	bool cut = true;
	buf_puts(&d->out, "kept:");
	assert_int_equal(file_read_all(buf_cstr(&d->file), 100000, &d->out, &cut, &d->err), 0);
	assert_false(cut);
	assert_int_equal(d->out.len, 5 + 100000);
	assert_memory_equal(d->out.data, "kept:abc", 8);
	assert_int_equal(d->err.len, 0);
}

/* One byte over: refused without cut (nothing appended), the first max bytes with it. */
static void test_file_oversized(void **state)
{
	struct dir *d = *state;
	write_file(buf_cstr(&d->file), 100001);
	assert_int_equal(file_read_all(buf_cstr(&d->file), 100000, &d->out, NULL, &d->err), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(d->out.len, 0);
	assert_non_null(strstr(buf_cstr(&d->err), "/f: larger than 100000 bytes"));
	buf_clear(&d->err);
	assert_int_equal(file_read_all(buf_cstr(&d->file), 1 << 20, &d->out, NULL, &d->err), 0);
	buf_clear(&d->out);
	assert_int_equal(file_read_all(buf_cstr(&d->file), 65536, &d->out, NULL, &d->err), -1);
	assert_non_null(strstr(buf_cstr(&d->err), "larger than 65536 bytes"));
	bool cut = false;
	assert_int_equal(file_read_all(buf_cstr(&d->file), 100000, &d->out, &cut, &d->err), 0);
	assert_true(cut);
	assert_int_equal(d->out.len, 100000);
}

/* Missing, a directory, a symbolic link, and (when not root) no read permission. */
static void test_file_unreadable(void **state)
{
	struct dir *d = *state;
	assert_int_equal(file_read_all(buf_cstr(&d->file), 10, &d->out, NULL, &d->err), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(buf_cstr(&d->err), "/f: No such file or directory"));

	buf_clear(&d->err);
	assert_int_equal(file_read_all(d->path, 10, &d->out, NULL, &d->err), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(buf_cstr(&d->err), ": not a regular file"));

	write_file(buf_cstr(&d->file), 3);
	struct buf link;
	buf_init(&link);
	buf_printf(&link, "%s/link", d->path);
	assert_int_equal(symlink(buf_cstr(&d->file), buf_cstr(&link)), 0);
	buf_clear(&d->err);
	assert_int_equal(file_read_all(buf_cstr(&link), 10, &d->out, NULL, &d->err), -1);
	assert_int_equal(errno, ELOOP);
	buf_fini(&link);

	if (geteuid() != 0) {
		assert_int_equal(chmod(buf_cstr(&d->file), 0), 0);
		buf_clear(&d->err);
		assert_int_equal(file_read_all(buf_cstr(&d->file), 10, &d->out, NULL, &d->err), -1);
		assert_int_equal(errno, EACCES);
		assert_non_null(strstr(buf_cstr(&d->err), "Permission denied"));
	}
	assert_int_equal(d->out.len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_file_within_bound, dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_file_oversized, dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_file_unreadable, dir_setup, dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
