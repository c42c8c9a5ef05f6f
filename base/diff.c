/* diff: the shortest edit script between two sequences (Myers' O(ND) greedy walk, forward,
 * keeping each step's furthest points to walk back), bounded: past max_cost differences it
 * gives up minimality and answers "delete the rest, add the rest", so a huge or wholly
 * different edit costs O((N+M) * max_cost) time and 4 * max_cost^2 bytes, never more. */
#include "base.h"

#include <stdlib.h>
#include <string.h>

static void push(struct diff_script *s, enum diff_op op, size_t a, size_t b)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->ops = xrealloc(s->ops, s->cap * sizeof *s->ops);
	}
	s->ops[s->n++] = (struct diff_edit){ .op = op, .a = a, .b = b };
}

void diff_script_fini(struct diff_script *s)
{
	free(s->ops);
	memset(s, 0, sizeof *s);
}

/* Walks back from (na, nb) through the saved furthest points; ops come out reversed. */
static void trace_back(struct diff_script *s, const int32_t *trace, long d_end, size_t lo,
		       size_t na, size_t nb)
{
	long x = (long)na, y = (long)nb;
	size_t base = s->n;
	for (long d = d_end; d > 0; d--) {
		const int32_t *v = trace + (size_t)(d - 1) * (size_t)(d - 1); /* k in [-(d-1), d-1] */
		long k = x - y;
		bool down = k == -d || (k != d && v[k - 1 + (d - 1)] < v[k + 1 + (d - 1)]);
		long pk = down ? k + 1 : k - 1;
		long px = v[pk + (d - 1)], py = px - pk;
		while (x > px + (down ? 0 : 1) && y > py + (down ? 1 : 0)) {
			x--, y--;
			push(s, DIFF_SAME, lo + (size_t)x, lo + (size_t)y);
		}
		if (down)
			push(s, DIFF_ADD, lo + (size_t)px, lo + (size_t)py);
		else
			push(s, DIFF_DEL, lo + (size_t)px, lo + (size_t)py);
		x = px, y = py;
	}
	while (x > 0 && y > 0) {
		x--, y--;
		push(s, DIFF_SAME, lo + (size_t)x, lo + (size_t)y);
	}
	for (size_t i = base, j = s->n - 1; i < j; i++, j--) {
		struct diff_edit t = s->ops[i];
		s->ops[i] = s->ops[j];
		s->ops[j] = t;
	}
}

/* The middle, after the common ends: on both sides it starts at lo. */
static bool middle(struct diff_script *s, size_t lo, size_t na, size_t nb, diff_eq_fn eq,
		   void *ctx, size_t max_cost)
{
	long n = (long)na, m = (long)nb, dmax = (long)(na + nb);
	if (max_cost < na + nb)
		dmax = (long)max_cost;
	/* points are kept in 32 bits: longer sequences get the bounded answer at once */
	if (na + nb >= INT32_MAX / 2)
		dmax = -1;
	/* step d keeps 2d+1 points: all steps up to D take (D+1)^2 */
	int32_t *trace = dmax >= 0 ? xmalloc((size_t)(dmax + 1) * (size_t)(dmax + 1) * sizeof *trace)
				   : NULL;
	int32_t *prev = NULL;
	for (long d = 0; d <= dmax; d++) {
		int32_t *v = trace + (size_t)d * (size_t)d;
		for (long k = -d; k <= d; k += 2) {
			long x;
			if (d == 0)
				x = 0;
			else if (k == -d || (k != d && prev[k - 1 + (d - 1)] < prev[k + 1 + (d - 1)]))
				x = prev[k + 1 + (d - 1)];
			else
				x = prev[k - 1 + (d - 1)] + 1;
			long y = x - k;
			while (x < n && y < m && eq(ctx, lo + (size_t)x, lo + (size_t)y))
				x++, y++;
			v[k + d] = (int32_t)x;
			if (x >= n && y >= m) {
				trace_back(s, trace, d, lo, na, nb);
				free(trace);
				return true;
			}
		}
		prev = v;
	}
	free(trace);
	for (size_t i = 0; i < na; i++)
		push(s, DIFF_DEL, lo + i, lo);
	for (size_t j = 0; j < nb; j++)
		push(s, DIFF_ADD, lo + na, lo + j);
	return false;
}

bool diff_run(struct diff_script *s, size_t na, size_t nb, diff_eq_fn eq, void *ctx,
	      size_t max_cost)
{
	size_t pre = 0;
	while (pre < na && pre < nb && eq(ctx, pre, pre))
		pre++;
	size_t suf = 0;
	while (suf < na - pre && suf < nb - pre && eq(ctx, na - 1 - suf, nb - 1 - suf))
		suf++;
	for (size_t i = 0; i < pre; i++)
		push(s, DIFF_SAME, i, i);
	/* The middle's indexes run on both sides from pre: a and b differ only after it. */
	bool exact = true;
	size_t ma = na - pre - suf, mb = nb - pre - suf;
	if (ma == 0) {
		for (size_t j = 0; j < mb; j++)
			push(s, DIFF_ADD, pre + ma, pre + j);
	} else if (mb == 0) {
		for (size_t i = 0; i < ma; i++)
			push(s, DIFF_DEL, pre + i, pre);
	} else {
		exact = middle(s, pre, ma, mb, eq, ctx, max_cost);
	}
	for (size_t i = 0; i < suf; i++)
		push(s, DIFF_SAME, na - suf + i, nb - suf + i);
	return exact;
}
