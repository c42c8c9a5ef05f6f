/* Compiles a set of secrets into the Aho–Corasick automaton of mask_int.h. */
#include "mask_int.h"

#include <stdlib.h>
#include <string.h>

struct trie_node {
	uint32_t first_child;    /* 0: none (the root is never a child) */
	uint32_t next_sibling;
	uint32_t depth;
	uint32_t term;           /* length of the secret ending here, or 0 */
	unsigned char byte;
};

struct trie {
	struct trie_node *node;
	uint32_t n;
	uint32_t cap;
};

static uint32_t trie_child(const struct trie *t, uint32_t u, unsigned char b)
{
	for (uint32_t v = t->node[u].first_child; v; v = t->node[v].next_sibling)
		if (t->node[v].byte == b)
			return v;
	return 0;
}

static uint32_t trie_add_child(struct trie *t, uint32_t u, unsigned char b)
{
	if (t->n == t->cap) {
		uint32_t cap = t->cap * 2;
		struct trie_node *grown = xcalloc(cap, sizeof *grown);
		memcpy(grown, t->node, t->n * sizeof *grown);
		mem_wipe(t->node, t->n * sizeof *t->node);
		free(t->node);
		t->node = grown;
		t->cap = cap;
	}
	uint32_t v = t->n++;
	t->node[v] = (struct trie_node){
		.next_sibling = t->node[u].first_child,
		.depth = t->node[u].depth + 1,
		.byte = b,
	};
	t->node[u].first_child = v;
	return v;
}

static void trie_insert(struct trie *t, const struct mask_secret *s)
{
	uint32_t u = 0;
	for (size_t i = 0; i < s->len; i++) {
		unsigned char b = (unsigned char)s->data[i];
		uint32_t v = trie_child(t, u, b);
		u = v ? v : trie_add_child(t, u, b);
	}
	t->node[u].term = (uint32_t)s->len;
}

/* Breadth-first order, failure links, and per node the longest secret ending there
 * (match) and the longest suffix that is still a proper prefix of a secret (hold). */
struct trie_links {
	uint32_t *bfs;
	uint32_t *fail;
	uint32_t *match;
	uint32_t *hold;
};

static void trie_link(const struct trie *t, struct trie_links *l)
{
	l->bfs = xmalloc(t->n * sizeof *l->bfs);
	l->fail = xcalloc(t->n, sizeof *l->fail);
	l->match = xcalloc(t->n, sizeof *l->match);
	l->hold = xcalloc(t->n, sizeof *l->hold);
	uint32_t head = 0, tail = 0;
	l->bfs[tail++] = 0;
	while (head < tail) {
		uint32_t u = l->bfs[head++];
		for (uint32_t v = t->node[u].first_child; v; v = t->node[v].next_sibling) {
			uint32_t f = 0;
			if (u != 0) {
				for (f = l->fail[u];; f = l->fail[f]) {
					uint32_t w = trie_child(t, f, t->node[v].byte);
					if (w) {
						f = w;
						break;
					}
					if (f == 0)
						break;
				}
			}
			/* f is shallower than v, so it was linked when its parent was expanded. */
			l->fail[v] = f;
			l->match[v] = t->node[v].term > l->match[f] ? t->node[v].term : l->match[f];
			l->hold[v] = t->node[v].first_child ? t->node[v].depth : l->hold[f];
			l->bfs[tail++] = v;
		}
	}
}

static void classes_build(struct mask_automaton *ac, const struct mask_set *m, unsigned char *rep)
{
	bool used[256] = { false };
	for (size_t i = 0; i < m->count; i++)
		for (size_t j = 0; j < m->secrets[i].len; j++)
			used[(unsigned char)m->secrets[i].data[j]] = true;
	uint32_t n = 0;
	for (int b = 0; b < 256; b++)
		if (used[b]) {
			rep[n] = (unsigned char)b;
			ac->cls[b] = (uint8_t)n++;
		}
	ac->nclasses = n < 256 ? n + 1 : n;
	for (int b = 0; b < 256; b++)
		if (!used[b])
			ac->cls[b] = (uint8_t)n;
}

/* Dense rows for the shallowest states (breadth-first order) up to the budget; of those,
 * the states where no secret ends come first so that the hot loop tests one bound. */
static void states_number(struct mask_automaton *ac, const struct trie_links *l, uint32_t n,
			  uint32_t *id)
{
	uint32_t ndense = MASK_DENSE_BUDGET / ac->nclasses;
	ac->nstates = n;
	ac->ndense = ndense < n ? (ndense ? ndense : 1) : n;
	uint32_t next = 0;
	for (uint32_t i = 0; i < ac->ndense; i++)
		if (!l->match[l->bfs[i]])
			id[l->bfs[i]] = next++;
	ac->nplain = next;
	for (uint32_t i = 0; i < ac->ndense; i++)
		if (l->match[l->bfs[i]])
			id[l->bfs[i]] = next++;
	for (uint32_t i = ac->ndense; i < n; i++)
		id[l->bfs[i]] = next++;
	ac->plain_limit = ac->nplain * ac->nclasses;
	ac->dense_limit = ac->ndense * ac->nclasses;
}

static void rows_fill(struct mask_automaton *ac, const struct trie *t, const struct trie_links *l,
		      const uint32_t *id)
{
	uint32_t nc = ac->nclasses;
	ac->next = xcalloc((size_t)ac->ndense * nc, sizeof *ac->next);
	/* Breadth-first, so the row of a failure link (a shallower state) is already done;
	 * the root's row starts as all-root (code 0). */
	for (uint32_t i = 0; i < ac->ndense; i++) {
		uint32_t u = l->bfs[i];
		uint32_t *row = ac->next + (size_t)id[u] * nc;
		if (u != 0)
			memcpy(row, ac->next + (size_t)id[l->fail[u]] * nc, nc * sizeof *row);
		for (uint32_t v = t->node[u].first_child; v; v = t->node[v].next_sibling)
			row[ac->cls[t->node[v].byte]] = mask_state_code(ac, id[v]);
	}
}

static void edges_fill(struct mask_automaton *ac, const struct trie *t, const struct trie_links *l,
		       const uint32_t *id)
{
	uint32_t nsparse = ac->nstates - ac->ndense;
	ac->edge_first = xcalloc((size_t)nsparse + 1, sizeof *ac->edge_first);
	ac->edge_byte = xmalloc(t->n);
	ac->edge_code = xmalloc(t->n * sizeof *ac->edge_code);
	uint32_t e = 0;
	for (uint32_t i = ac->ndense; i < ac->nstates; i++) {
		uint32_t u = l->bfs[i];
		ac->edge_first[id[u] - ac->ndense] = e;
		for (uint32_t v = t->node[u].first_child; v; v = t->node[v].next_sibling) {
			uint32_t j = e++;
			for (; j > ac->edge_first[id[u] - ac->ndense] && ac->edge_byte[j - 1] > t->node[v].byte; j--) {
				ac->edge_byte[j] = ac->edge_byte[j - 1];
				ac->edge_code[j] = ac->edge_code[j - 1];
			}
			ac->edge_byte[j] = t->node[v].byte;
			ac->edge_code[j] = mask_state_code(ac, id[v]);
		}
	}
	ac->edge_first[nsparse] = e;
}

void mask_automaton_build(struct mask_set *m)
{
	struct mask_automaton *ac = &m->ac;
	mask_automaton_free(ac);
	struct trie t = { .node = xcalloc(64, sizeof *t.node), .n = 1, .cap = 64 };
	for (size_t i = 0; i < m->count; i++)
		trie_insert(&t, &m->secrets[i]);

	struct trie_links l;
	trie_link(&t, &l);
	unsigned char rep[256];
	classes_build(ac, m, rep);
	uint32_t *id = xmalloc(t.n * sizeof *id);
	states_number(ac, &l, t.n, id);

	ac->match = xmalloc(t.n * sizeof *ac->match);
	ac->hold = xmalloc(t.n * sizeof *ac->hold);
	ac->fail = xmalloc(t.n * sizeof *ac->fail);
	for (uint32_t u = 0; u < t.n; u++) {
		ac->match[id[u]] = l.match[u];
		ac->hold[id[u]] = l.hold[u];
		ac->fail[id[u]] = id[l.fail[u]];
	}
	rows_fill(ac, &t, &l, id);
	edges_fill(ac, &t, &l, id);

	mem_wipe(t.node, t.cap * sizeof *t.node);
	free(t.node);
	free(l.bfs);
	free(l.fail);
	free(l.match);
	free(l.hold);
	free(id);
	m->built = true;
}

static void free_wiped(void *p, size_t n)
{
	if (p)
		mem_wipe(p, n);
	free(p);
}

void mask_automaton_free(struct mask_automaton *ac)
{
	uint32_t nsparse = ac->nstates - ac->ndense;
	size_t nedges = ac->edge_first ? ac->edge_first[nsparse] : 0;
	free_wiped(ac->next, (size_t)ac->dense_limit * sizeof *ac->next);
	free_wiped(ac->match, ac->nstates * sizeof *ac->match);
	free_wiped(ac->hold, ac->nstates * sizeof *ac->hold);
	free_wiped(ac->fail, ac->nstates * sizeof *ac->fail);
	free_wiped(ac->edge_byte, nedges);
	free_wiped(ac->edge_code, nedges * sizeof *ac->edge_code);
	free_wiped(ac->edge_first, ((size_t)nsparse + 1) * sizeof *ac->edge_first);
	memset(ac, 0, sizeof *ac);
}

uint32_t mask_automaton_step(const struct mask_automaton *ac, uint32_t code, unsigned char b)
{
	while (code >= ac->dense_limit) {
		uint32_t sp = code - ac->dense_limit;
		for (uint32_t e = ac->edge_first[sp]; e < ac->edge_first[sp + 1] && ac->edge_byte[e] <= b; e++)
			if (ac->edge_byte[e] == b)
				return ac->edge_code[e];
		code = mask_state_code(ac, ac->fail[ac->ndense + sp]);
	}
	return ac->next[code + ac->cls[b]];
}
