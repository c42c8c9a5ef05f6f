/* layer: the stack of what is open over the conversation. */
#include "layer.h"

#include <assert.h>

void layers_push(struct layers *s, const struct layer *l)
{
	if (layers_has(s, l))
		return;
	assert(s->n < LAYERS_MAX && "each layer is open at most once");
	s->at[s->n++] = l;
}

bool layers_pop(struct layers *s, const struct layer *l)
{
	if (!s->n || s->at[s->n - 1] != l)
		return false;
	s->n--;
	return true;
}

const struct layer *layers_top(const struct layers *s)
{
	return s->n ? s->at[s->n - 1] : NULL;
}

bool layers_has(const struct layers *s, const struct layer *l)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->at[i] == l)
			return true;
	return false;
}

const struct layer *layers_screen(const struct layers *s)
{
	if (s->overlay)
		return s->overlay;
	for (size_t i = s->n; i-- > 0;)
		if (s->at[i]->screen)
			return s->at[i];
	return NULL;
}

const struct layer *layers_prompt(const struct layers *s)
{
	const struct layer *top = layers_top(s);
	return top && !top->screen ? top : NULL;
}

void layers_drop_all(struct layers *s)
{
	s->n = 0;
}

void layers_close_all(struct layers *s, struct tui *u)
{
	while (s->n) {
		size_t before = s->n;
		s->at[s->n - 1]->close(u);
		if (s->n == before)
			s->n--; /* a close that left it open: it is gone all the same */
	}
}
