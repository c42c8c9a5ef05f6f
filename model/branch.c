/* branch: the conversation's tree of events (issue 25) and the one branch the transcript
 * shows. Every durable names its parent (parent_id; absent on an event written before the
 * tree: the log's previous event; "__root__": a root). The server's HEAD is the last event
 * appended that is not a state update, unless a snapshot or this client's navigate says
 * where it is; the active branch is the walk from HEAD to a root. A navigate sends nothing:
 * the next event names the new HEAD as its parent, and a replay sends every branch, so the
 * client works the branch out itself. Items off the branch leave display order but keep
 * their ids and seqs (dedupe, gaps), and come back when HEAD moves back to them. */
#include "model_int.h"

#include <stdlib.h>
#include <string.h>

void transcript_tree_init(struct tree *tr)
{
	*tr = (struct tree){ .max_seq = -1 };
	strmap_init(&tr->by_id);
}

void transcript_tree_fini(struct tree *tr)
{
	for (size_t i = 0; i < tr->count; i++) {
		free(tr->nodes[i]->id);
		free(tr->nodes[i]->parent);
		free(tr->nodes[i]);
	}
	free(tr->nodes);
	free(tr->head_id);
	strmap_fini(&tr->by_id);
}

/* The first node whose seq is at least seq (count when none). */
static size_t node_lower(const struct tree *tr, int64_t seq)
{
	size_t lo = 0, hi = tr->count;
	if (hi && tr->nodes[hi - 1]->seq < seq)
		return hi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tr->nodes[mid]->seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct tree_node *node_at_seq(const struct tree *tr, int64_t seq)
{
	size_t i = node_lower(tr, seq);
	return i < tr->count && tr->nodes[i]->seq == seq ? tr->nodes[i] : NULL;
}

/* The node's parent; *root when it has none (a root); NULL and !*root when the parent is not
 * loaded (history not fetched). */
static struct tree_node *parent_of(const struct tree *tr, const struct tree_node *n, bool *root)
{
	*root = false;
	if (n->parent && strcmp(n->parent, "__root__") == 0) {
		*root = true;
		return NULL;
	}
	if (n->parent)
		return strmap_get(&tr->by_id, n->parent);
	if (n->seq == 0) {
		*root = true;
		return NULL;
	}
	return node_at_seq(tr, n->seq - 1);
}

/* Walks from HEAD to a root, marking the active branch. */
static void walk(struct tree *tr)
{
	tr->path_gen++;
	tr->complete = false;
	tr->stop_seq = INT64_MAX;
	for (struct tree_node *n = tr->head; n;) {
		if (n->path == tr->path_gen) {
			tr->complete = true; /* a cycle: upstream refuses one; stop where it closes */
			break;
		}
		n->path = tr->path_gen;
		tr->stop_seq = n->seq;
		bool root;
		n = parent_of(tr, n, &root);
		if (root)
			tr->complete = true;
	}
}

/* Whether it belongs on screen: not a durable of the tree, or on the active branch, or
 * older than where the walk stopped at history not loaded (nothing says it is off). */
static bool item_on_branch(const struct transcript *t, const struct item *it)
{
	const struct tree *tr = &t->tree;
	if (!tr->known || it->seq < 0 || !it->id)
		return true;
	const struct tree_node *n = strmap_get(&tr->by_id, it->id);
	if (!n)
		return true;
	if (tr->head_empty)
		return false;
	if (!tr->head)
		return true; /* HEAD names an event not loaded: nothing to go by */
	if (n->path == tr->path_gen)
		return true;
	return !tr->complete && n->seq < tr->stop_seq;
}

static void hidden_add(struct transcript *t, struct item *it)
{
	if (t->nhidden == t->hidden_cap) {
		t->hidden_cap = t->hidden_cap ? t->hidden_cap * 2 : 16;
		t->hidden = xrealloc(t->hidden, t->hidden_cap * sizeof *t->hidden);
	}
	t->hidden[t->nhidden++] = it;
	it->hidden = true;
	/* Off the branch, a card waits for nothing: the server runs the active branch. */
	transcript_pending_remove(t, it);
}

void transcript_branch_settle(struct transcript *t)
{
	struct tree *tr = &t->tree;
	if (!tr->dirty || t->paging)
		return;
	tr->dirty = false;
	if (!tr->known)
		return; /* no event named a parent: one line, as before the tree */
	walk(tr);
	size_t w = 0, before = t->nhidden;
	for (size_t i = 0; i < t->count; i++) {
		struct item *it = t->items[i];
		if (item_on_branch(t, it) || (it->stream && it->stream->open))
			t->items[w++] = it;
		else
			hidden_add(t, it);
	}
	bool changed = w != t->count;
	t->count = w;
	uint64_t lines = t->lines_added;
	size_t keep = 0;
	for (size_t i = 0; i < before; i++) {
		struct item *it = t->hidden[i];
		if (!item_on_branch(t, it)) {
			t->hidden[keep++] = it;
			continue;
		}
		it->hidden = false;
		transcript_insert(t, it);
		changed = true;
	}
	/* the ones hidden just now follow the kept ones */
	if (t->nhidden > before)
		memmove(t->hidden + keep, t->hidden + before,
			(t->nhidden - before) * sizeof *t->hidden);
	t->nhidden = keep + (t->nhidden - before);
	t->lines_added = lines; /* shown again is not new output */
	if (changed)
		t->generation++;
}

void transcript_tree_add(struct transcript *t, const char *id, int64_t seq,
			 const char *parent_id, bool state_update)
{
	struct tree *tr = &t->tree;
	if (!id || seq < 0 || strmap_get(&tr->by_id, id))
		return;
	struct tree_node *n = xcalloc(1, sizeof *n);
	n->id = xstrdup(id);
	n->parent = parent_id ? xstrdup(parent_id) : NULL;
	n->seq = seq;
	n->state_update = state_update;
	if (tr->count == tr->cap) {
		tr->cap = tr->cap ? tr->cap * 2 : 64;
		tr->nodes = xrealloc(tr->nodes, tr->cap * sizeof *tr->nodes);
	}
	size_t at = node_lower(tr, seq);
	memmove(tr->nodes + at + 1, tr->nodes + at, (tr->count - at) * sizeof *tr->nodes);
	tr->nodes[at] = n;
	tr->count++;
	strmap_put(&tr->by_id, n->id, n);
	if (parent_id && !tr->known) {
		tr->known = true;
		tr->dirty = true;
	}
	if (tr->head_id && strcmp(tr->head_id, id) == 0) {
		tr->head = n; /* the HEAD a snapshot named has come */
		free(tr->head_id);
		tr->head_id = NULL;
		tr->dirty = true;
	}
	if (seq <= tr->max_seq) {
		/* Older history (a page): it may continue the walk where it stopped. */
		if (!tr->complete)
			tr->dirty = true;
		return;
	}
	tr->max_seq = seq;
	if (state_update)
		return; /* hangs off the branch, never HEAD */
	bool root;
	bool extends = tr->head && !tr->head_empty && parent_of(tr, n, &root) == tr->head;
	if (tr->pinned && !extends && (tr->head || tr->head_id || tr->head_empty)) {
		/* Appended before this client's navigate, arriving after it: off the branch. */
		tr->dirty = true;
		return;
	}
	tr->pinned = false;
	tr->head_empty = false;
	free(tr->head_id);
	tr->head_id = NULL;
	if (extends && tr->path_gen) {
		n->path = tr->path_gen; /* the usual case: the branch grows by one */
		tr->head = n;
		return;
	}
	tr->head = n;
	tr->dirty = true;
}

void transcript_tree_forget_before(struct transcript *t, int64_t seq)
{
	struct tree *tr = &t->tree;
	size_t end = node_lower(tr, seq), w = 0;
	if (!end)
		return;
	for (size_t i = 0; i < tr->count; i++) {
		struct tree_node *n = tr->nodes[i];
		if (i >= end || n == tr->head) {
			tr->nodes[w++] = n;
			continue;
		}
		strmap_del(&tr->by_id, n->id);
		free(n->id);
		free(n->parent);
		free(n);
	}
	tr->count = w;
	tr->dirty = true; /* the walk now stops where the nodes end: history not loaded */
}

size_t transcript_tree_size(const struct transcript *t)
{
	return t->tree.count;
}

void transcript_tree_note(struct transcript *t, const char *id, int64_t seq,
			  const char *parent_id, bool state_update)
{
	transcript_tree_add(t, id, seq, parent_id, state_update);
	transcript_branch_settle(t);
}

void transcript_set_head(struct transcript *t, const char *leaf_id, bool head_empty,
			 enum head_source from)
{
	struct tree *tr = &t->tree;
	if (!leaf_id && !head_empty)
		return; /* no HEAD given (a conversation from before the tree): the last event */
	/* A snapshot may have been made before this client's navigate (the socket and the REST
	 * answer race), even one naming the same event: only an event extending HEAD, or a new
	 * connection, tells. */
	if (tr->pinned && from == HEAD_SNAPSHOT)
		return;
	tr->known = true;
	tr->pinned = from == HEAD_NAVIGATED;
	tr->head_empty = head_empty && !leaf_id;
	free(tr->head_id);
	tr->head_id = NULL;
	tr->head = leaf_id ? strmap_get(&tr->by_id, leaf_id) : NULL;
	if (leaf_id && !tr->head)
		tr->head_id = xstrdup(leaf_id);
	tr->dirty = true;
	transcript_branch_settle(t);
}

const char *transcript_parent_id(const struct transcript *t, const char *id, bool *root)
{
	*root = false;
	const struct tree_node *n = id ? strmap_get(&t->tree.by_id, id) : NULL;
	if (!n)
		return NULL;
	const struct tree_node *p = parent_of(&t->tree, n, root);
	return p ? p->id : NULL;
}

const char *transcript_head_id(const struct transcript *t)
{
	const struct tree *tr = &t->tree;
	if (tr->head_empty)
		return NULL;
	return tr->head ? tr->head->id : tr->head_id;
}

size_t transcript_hidden_count(const struct transcript *t)
{
	return t->nhidden;
}
