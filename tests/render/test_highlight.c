/* Code highlighting and diffs: each language's tokens in a fenced block, state carried across
 * lines (a block comment, a long string), a diff block's lines and changed words, the
 * unified diff of two texts (hunks, context, line numbers, the cap), and the edit script
 * checked against a brute-force LCS on random sequences. Dumps as test_markdown's, a token
 * after '=': w keyword, s string, c comment, n number, f file, h hunk, - + removed/added
 * lines, _ ^ removed/added words. */
#include "text_test.h"

#define MD LAYOUT_MARKDOWN

static void test_python(void **state)
{
	(void)state;
	EXPECT_LAYOUT("```python\ndef f(x):\n    return 'a' # c\n```", 40, MD,
		      "  {D:── python ────────────────────────────}\n"
		      "  {K=w:def}{K: f(x):}\n"
		      "  {K:    }{K=w:return}{K: }{K=s:'a'}{K: }{K=c:# c}");
	/* a triple-quoted string goes on over lines until it closes */
	EXPECT_LAYOUT("```py\nx = \"\"\"a\nif b\n\"\"\" + 1\n```", 40, MD,
		      "  {D:── py ────────────────────────────────}\n"
		      "  {K:x = }{K=s:\"\"\"a}\n"
		      "  {K=s:if b}\n"
		      "  {K=s:\"\"\"}{K: + }{K=n:1}");
}

static void test_shell(void **state)
{
	(void)state;
	EXPECT_LAYOUT("```sh\nfor f in *.c; do echo \"$f\" $HOME; done # x\n```", 60, MD,
		      "  {D:── sh ────────────────────────────────────────────────────}\n"
		      "  {K=w:for}{K: f }{K=w:in}{K: *.c; }{K=w:do}{K: }{K=w:echo}{K: }"
		      "{K=s:\"$f\"}{K: }{K=n:$HOME}{K:; }{K=w:done}{K: }{K=c:# x}");
	/* '#' inside a word is not a comment */
	EXPECT_LAYOUT("```bash\necho a#b\n```", 20, MD,
		      "  {D:── bash ──────────}\n  {K=w:echo}{K: a#b}");
}

static void test_c_family(void **state)
{
	(void)state;
	EXPECT_LAYOUT("```c\n#include <x.h>\nint a = 0x1F; /* c\n still */ return;\n```", 40, MD,
		      "  {D:── c ─────────────────────────────────}\n"
		      "  {K=w:#include}{K: <x.h>}\n"
		      "  {K=w:int}{K: a = }{K=n:0x1F}{K:; }{K=c:/* c}\n"
		      "  {K=c: still */}{K: }{K=w:return}{K:;}");
	EXPECT_LAYOUT("```ts\nconst s = `a ${b}`; // x\n```", 40, MD,
		      "  {D:── ts ────────────────────────────────}\n"
		      "  {K=w:const}{K: s = }{K=s:`a ${b}`}{K:; }{K=c:// x}");
	EXPECT_LAYOUT("```go\nfunc f() error { return nil }\n```", 40, MD,
		      "  {D:── go ────────────────────────────────}\n"
		      "  {K=w:func}{K: f() }{K=w:error}{K: { }{K=w:return}{K: }{K=w:nil}{K: }}");
	/* a lifetime's quote opens no string */
	EXPECT_LAYOUT("```rust\nfn f<'a>(x: &'a str) {}\n```", 40, MD,
		      "  {D:── rust ──────────────────────────────}\n"
		      "  {K=w:fn}{K: f<'a>(x: &'a str) {}}");
}

static void test_data_languages(void **state)
{
	(void)state;
	EXPECT_LAYOUT("```json\n{\"k\": \"v\", \"n\": 12, \"t\": true}\n```", 40, MD,
		      "  {D:── json ──────────────────────────────}\n"
		      "  {K:{}{K=w:\"k\"}{K:: }{K=s:\"v\"}{K:, }{K=w:\"n\"}{K:: }{K=n:12}{K:, }"
		      "{K=w:\"t\"}{K:: }{K=w:true}{K:}}");
	EXPECT_LAYOUT("```yaml\n- name: x # c\n  on: 'y'\n```", 40, MD,
		      "  {D:── yaml ──────────────────────────────}\n"
		      "  {K:- }{K=w:name}{K:: x }{K=c:# c}\n"
		      "  {K:  }{K=w:on}{K:: }{K=s:'y'}");
	EXPECT_LAYOUT("```md\n# Title\nuse `x`\n```", 40, MD,
		      "  {D:── md ────────────────────────────────}\n"
		      "  {K=w:# Title}\n"
		      "  {K:use }{K=s:`x`}");
	/* an unknown language is code without tokens */
	EXPECT_LAYOUT("```cobol\nif 1\n```", 20, MD, "  {D:── cobol ─────────}\n  {K:if 1}");
}

/* A growing block is laid out a line at a time: every finished line of it is settled (never
 * laid out again), also inside a string that is still open, and the result equals a fresh
 * layout's. */
static void test_streaming_block_settles(void **state)
{
	(void)state;
	static const char src[] = "```python\nx = 1\ns = \"\"\"open\nstill open\ny = 2";
	size_t len = strlen(src), last = (size_t)(strrchr(src, '\n') - src) + 1;
	struct layout inc, fresh;
	layout_init(&inc);
	layout_init(&fresh);
	for (size_t n = 1; n <= len; n++)
		layout_update(&inc, src, n, 40, MD | LAYOUT_STREAMING);
	assert_int_equal(inc.settled_src, last);
	layout_update(&fresh, src, len, 40, MD | LAYOUT_STREAMING);
	assert_true(layouts_equal(&inc, &fresh));
	struct buf dump;
	buf_init(&dump);
	layout_dump(&inc, &dump);
	assert_string_equal(dump.data, "  {D:── python ────────────────────────────}\n"
			    "  {K:x = }{K=n:1}\n"
			    "  {K:s = }{K=s:\"\"\"open}\n"
			    "  {K=s:still open}\n"
			    "  {K=s:y = 2}");
	buf_fini(&dump);
	layout_fini(&inc);
	layout_fini(&fresh);
}

static void test_language_names(void **state)
{
	(void)state;
	assert_int_equal(code_lang_named("Python", 6), LANG_PYTHON);
	assert_int_equal(code_lang_named("tsx", 3), LANG_JS);
	assert_int_equal(code_lang_named("", 0), LANG_NONE);
	assert_int_equal(code_lang_of_path("/a/b.py", 7), LANG_PYTHON);
	assert_int_equal(code_lang_of_path("x.RS", 4), LANG_RUST);
	assert_int_equal(code_lang_of_path("Makefile", 8), LANG_NONE);
	assert_int_equal(code_lang_of_path("a.d/b", 5), LANG_NONE);
	assert_int_equal(code_lang_of_path("x.", 2), LANG_NONE);
}

static void test_diff_block(void **state)
{
	(void)state;
	EXPECT_LAYOUT("```diff\n--- a.py\n+++ a.py\n@@ -1,3 +1,3 @@\n keep\n-x = old(1)\n-y = 2\n"
		      "+x = new(1)\n+y = 3\n+added line\n```", 40, MD,
		      "  {D:── diff ──────────────────────────────}\n"
		      "  {K=f:--- a.py}\n"
		      "  {K=f:+++ a.py}\n"
		      "  {K=h:@@ -1,3 +1,3 @@}\n"
		      "  {K: keep}\n"
		      "  {K=-:-x = old(1)}\n"
		      "  {K=-:-y = 2}\n"
		      "  {K=+:+x = }{K=^:new}{K=+:(1)}\n"
		      "  {K=+:+y = }{K=^:3}\n"
		      "  {K=+:+added line}");
	/* an added line that keeps less than half of its removed pair is a new line */
	EXPECT_LAYOUT("```diff\n-    return total\n+    if not rows:\n```", 40, MD,
		      "  {D:── diff ──────────────────────────────}\n"
		      "  {K=-:-    return total}\n"
		      "  {K=+:+    if not rows:}");
}

/* Plain text with fences: the fenced block is code, everything else shows as it is. */
/* The pager's "output · N lines": a fence's own lines are its rules, not lines of output;
 * a fence of another kind inside a block is a line of it. */
static void test_fenced_lines(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		size_t lines;
	} cases[] = {
		{ "", 0 },
		{ "one", 1 },
		{ "one\n", 1 },
		{ "one\n\nthree", 3 },
		{ "```diff\n--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n```", 5 },
		{ "```diff\n-x\n+y\n```\n", 2 },
		{ "before\n  ~~~~\n```\nin\n~~~\n~~~~ \nafter", 5 },
		{ "```\nnever closed\n", 1 },
		{ "``not a fence\n", 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t got = text_fenced_lines(cases[i].text, strlen(cases[i].text));
		if (got != cases[i].lines)
			print_error("\"%s\": %zu lines, not %zu\n", cases[i].text, got, cases[i].lines);
		assert_int_equal(got, cases[i].lines);
	}
	assert_int_equal(text_fenced_lines(NULL, 0), 0);
}

static void test_plain_with_fences(void **state)
{
	(void)state;
	EXPECT_LAYOUT("**a**\n```diff\n-a\n+b\n```", 20, LAYOUT_FENCES,
		      "**a**\n  {D:── diff ──────────}\n  {K=-:-a}\n  {K=+:+b}");
	EXPECT_LAYOUT("**a**\n```diff\n-a\n```", 20, 0, "**a**\n```diff\n-a\n```");
	assert_true(text_opens_diff("```diff\n-a", 10));
	assert_true(text_opens_diff("~~~~patch\n", 10));
	assert_false(text_opens_diff("```python\n", 10));
	assert_false(text_opens_diff("diff\n", 5));
}

/* A file view (upstream's `cat -n` output) of a known language: numbers dim, code highlighted,
 * a docstring carried over lines; the heading and unnumbered lines as they are. */
static void test_file_view(void **state)
{
	(void)state;
	static const char view[] = "Here's the result of running `cat -n` on /w/a.py:\n"
				   "     1\tdef f():\n     2\t    \"\"\"doc\n     3\t    end\"\"\" # x\n";
	assert_int_equal(text_view_lang(view, strlen(view)), LANG_PYTHON);
	assert_int_equal(text_view_lang("Here's the result of running `cat -n` on a snippet of "
					"/w/m.go:\n", 62), LANG_GO);
	assert_int_equal(text_view_lang("Here's the result of running `cat -n` on /w/Makefile:\n",
					53), LANG_NONE);
	assert_int_equal(text_view_lang("total 4\n", 8), LANG_NONE);
	EXPECT_LAYOUT(view, 80, LAYOUT_LANG(LANG_PYTHON),
		      "Here's the result of running `cat -n` on /w/a.py:\n"
		      "{D:     1  }{=w:def} f():\n"
		      "{D:     2  }    {=s:\"\"\"doc}\n"
		      "{D:     3  }{=s:    end\"\"\"} {=c:# x}");
}

/* ------------------------------------------------------------------ diffs */

static char *unified(const char *a, const char *b, size_t context, size_t old_first,
		     size_t new_first)
{
	struct buf out;
	buf_init(&out);
	struct diff_unified_opts o = { .old_path = "f", .new_path = "f", .context = context,
				       .old_first = old_first, .new_first = new_first };
	assert_true(diff_unified(&out, a, strlen(a), b, strlen(b), &o));
	return buf_steal(&out);
}

#define EXPECT_DIFF(a, b, ctx, of, nf, want) do { \
	char *got_ = unified((a), (b), (ctx), (of), (nf)); \
	assert_string_equal(got_, (want)); \
	free(got_); \
} while (0)

static void test_unified(void **state)
{
	(void)state;
	EXPECT_DIFF("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nD\ne\nf\ng\n", 2, 10, 10,
		    "--- f\n+++ f\n@@ -11,5 +11,5 @@\n b\n c\n-d\n+D\n e\n f\n");
	/* far apart changes make two hunks; near ones share one */
	EXPECT_DIFF("1\n2\n3\n4\n5\n6\n7\n8\n", "x\n2\n3\n4\n5\n6\n7\ny\n", 1, 1, 1,
		    "--- f\n+++ f\n@@ -1,2 +1,2 @@\n-1\n+x\n 2\n@@ -7,2 +7,2 @@\n 7\n-8\n+y\n");
	EXPECT_DIFF("1\n2\n3\n", "x\n2\ny\n", 1, 1, 1,
		    "--- f\n+++ f\n@@ -1,3 +1,3 @@\n-1\n+x\n 2\n-3\n+y\n");
	/* an insertion after line 4, a creation, line numbers not known */
	EXPECT_DIFF("", "new\n", 3, 5, 5, "--- f\n+++ f\n@@ -4,0 +5 @@\n+new\n");
	EXPECT_DIFF("", "a\nb", 3, 1, 1, "--- f\n+++ f\n@@ -0,0 +1,2 @@\n+a\n+b\n");
	EXPECT_DIFF("x\ny\n", "x\nz\n", 3, 0, 0, "--- f\n+++ f\n@@ -?,2 +?,2 @@\n x\n-y\n+z\n");
	EXPECT_DIFF("same\n", "same\n", 3, 1, 1, "--- f\n+++ f\n");
}

/* A 5 MB edit is refused at once rather than compared. */
static void test_unified_cap(void **state)
{
	(void)state;
	size_t n = 5u << 20;
	char *big = malloc(n + 1);
	memset(big, 'x', n);
	big[n] = '\0';
	struct buf out;
	buf_init(&out);
	struct diff_unified_opts o = { .context = 3 };
	int64_t t0 = clock_now_us();
	assert_false(diff_unified(&out, big, n, "y", 1, &o));
	assert_int_equal(out.len, 0);
	/* many short lines: beyond the line cap */
	for (size_t i = 0; i < 200000; i++)
		big[i * 2 + 1] = '\n';
	assert_false(diff_unified(&out, big, 400000, "y", 1, &o));
	assert_true(clock_now_us() - t0 < 2000000);
	free(big);
	buf_fini(&out);
}

/* Two texts wholly different past the cost bound: a correct script, made quickly. */
static void test_unified_bounded(void **state)
{
	(void)state;
	struct buf a, b, out;
	buf_init(&a);
	buf_init(&b);
	buf_init(&out);
	for (int i = 0; i < 15000; i++) {
		buf_printf(&a, "a%d\n", i);
		buf_printf(&b, "b%d\n", i);
	}
	struct diff_unified_opts o = { .context = 3, .old_first = 1, .new_first = 1 };
	int64_t t0 = clock_now_us();
	assert_true(diff_unified(&out, a.data, a.len, b.data, b.len, &o));
	assert_true(clock_now_us() - t0 < 5000000);
	assert_non_null(strstr(out.data, "@@ -1,15000 +1,15000 @@\n-a0\n"));
	buf_fini(&a);
	buf_fini(&b);
	buf_fini(&out);
}

struct seqs {
	const int *a, *b;
};

static bool int_eq(void *ctx, size_t i, size_t j)
{
	const struct seqs *s = ctx;
	return s->a[i] == s->b[j];
}

/* Random sequences over a small alphabet: the script turns a into b, and keeps as many as
 * the longest common subsequence. */
static void test_script_is_shortest(void **state)
{
	(void)state;
	srand(27);
	for (int round = 0; round < 500; round++) {
		int a[40], b[40];
		size_t na = (size_t)(rand() % 40), nb = (size_t)(rand() % 40);
		for (size_t i = 0; i < na; i++)
			a[i] = rand() % 4;
		for (size_t j = 0; j < nb; j++)
			b[j] = rand() % 4;
		struct seqs s = { a, b };
		struct diff_script sc = { 0 };
		assert_true(diff_run(&sc, na, nb, int_eq, &s, 1000));
		size_t ia = 0, ib = 0, same = 0;
		for (size_t k = 0; k < sc.n; k++) {
			const struct diff_edit *e = &sc.ops[k];
			if (e->op == DIFF_SAME) {
				assert_int_equal(e->a, ia);
				assert_int_equal(e->b, ib);
				assert_int_equal(a[ia], b[ib]);
				ia++, ib++, same++;
			} else if (e->op == DIFF_DEL) {
				assert_int_equal(e->a, ia);
				ia++;
			} else {
				assert_int_equal(e->b, ib);
				ib++;
			}
		}
		assert_int_equal(ia, na);
		assert_int_equal(ib, nb);
		size_t lcs[41][41] = { { 0 } };
		for (size_t i = 1; i <= na; i++)
			for (size_t j = 1; j <= nb; j++)
				lcs[i][j] = a[i - 1] == b[j - 1] ? lcs[i - 1][j - 1] + 1
					    : lcs[i - 1][j] > lcs[i][j - 1] ? lcs[i - 1][j] : lcs[i][j - 1];
		assert_int_equal(same, lcs[na][nb]);
		diff_script_fini(&sc);
		/* past a small bound: still a correct script */
		assert_true(diff_run(&sc, na, nb, int_eq, &s, 2) || sc.n >= na + nb - 2 * lcs[na][nb]);
		diff_script_fini(&sc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_python),
		cmocka_unit_test(test_shell),
		cmocka_unit_test(test_c_family),
		cmocka_unit_test(test_data_languages),
		cmocka_unit_test(test_streaming_block_settles),
		cmocka_unit_test(test_language_names),
		cmocka_unit_test(test_diff_block),
		cmocka_unit_test(test_plain_with_fences),
		cmocka_unit_test(test_file_view),
		cmocka_unit_test(test_unified),
		cmocka_unit_test(test_unified_cap),
		cmocka_unit_test(test_unified_bounded),
		cmocka_unit_test(test_script_is_shortest),
		cmocka_unit_test(test_fenced_lines),
	};
	return cmocka_run_group_tests(tests, text_test_setup, NULL);
}
