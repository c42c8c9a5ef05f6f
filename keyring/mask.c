/* The set of secrets to mask: what is accepted as a secret, and loading a mask file. */
#include "mask_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A longer "secret" is almost surely a mistake, and the hold-back grows with it. */
#define MASK_MAX_SECRET_LEN 65536
/* Bounds the automaton (states fit in 32 bits with room to spare). */
#define MASK_MAX_TOTAL (64u << 20)

struct mask_set *mask_set_create(void)
{
	return xcalloc(1, sizeof(struct mask_set));
}

void mask_set_destroy(struct mask_set *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->count; i++) {
		mem_wipe(m->secrets[i].data, m->secrets[i].len);
		free(m->secrets[i].data);
	}
	free(m->secrets);
	mask_automaton_free(&m->ac);
	free(m);
}

/* Why secret cannot be masked, or NULL when it can. */
static const char *secret_refusal(const char *secret, size_t len)
{
	if (!secret || len == 0)
		return "the secret is empty";
	if (len > MASK_MAX_SECRET_LEN)
		return "the secret is longer than 64 KiB";
	if (memchr(secret, '\n', len))
		return "the secret contains a line break";
	size_t chars = 0;
	for (size_t i = 0; i < len; chars++) {
		uint32_t cp;
		size_t step = utf8_next(secret + i, len - i, &cp);
		if (cp == UTF8_INVALID)
			return "the secret is not valid UTF-8";
		/* Output is sanitized before it is masked: a character the sanitizer removes
		 * can never be part of a match. */
		if ((cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F) ||
		    (cp_is_default_ignorable(cp) && !cp_is_emoji_joiner(cp)))
			return "the secret contains a control or invisible character, which is never "
			       "shown, so it could never be matched";
		i += step;
	}
	if (chars < MASK_MIN_SECRET_LEN)
		return "the secret is shorter than 4 characters";
	return NULL;
}

int mask_set_add(struct mask_set *m, const char *secret, size_t len, struct buf *err)
{
	const char *refusal = secret_refusal(secret, len);
	if (!refusal && m->total + len > MASK_MAX_TOTAL)
		refusal = "too many secrets (64 MiB in all)";
	if (refusal) {
		if (err)
			buf_puts(err, refusal);
		return -1;
	}
	if (m->count == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 8;
		m->secrets = xrealloc(m->secrets, m->cap * sizeof *m->secrets);
	}
	m->secrets[m->count++] = (struct mask_secret){ xstrndup(secret, len), len };
	m->total += len;
	if (len > m->longest)
		m->longest = len;
	m->built = false;
	return 0;
}

/* Every line is a secret: cli.md says "one per line", and a secret may well start with
 * '#', so there are no comments. Only empty lines are skipped; trailing blanks and CR are
 * not part of a secret. A warning names the file, the line number and the reason, never
 * the line itself. */
int mask_set_add_file(struct mask_set *m, const char *path, struct buf *err,
		      void (*warn)(void *ctx, const char *line), void *ctx)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		if (err)
			buf_puts(err, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	int added = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		char *text = line;
		size_t len = (size_t)n;
		/* A byte order mark that an editor put at the start is no part of the secret. */
		if (lineno == 1 && len >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3)) {
			text += 3;
			len -= 3;
		}
		if (len > 0 && text[len - 1] == '\n')
			len--;
		size_t kept = len;
		while (kept > 0 && (text[kept - 1] == ' ' || text[kept - 1] == '\t' ||
				    text[kept - 1] == '\r'))
			kept--;
		/* An editor's trailing blank would make the secret never match; a CR alone is
		 * just a CRLF file. */
		bool trimmed = kept < len && !(kept == len - 1 && text[kept] == '\r');
		len = kept;
		if (len == 0)
			continue;
		struct buf reason;
		buf_init(&reason);
		char msg[512];
		if (mask_set_add(m, text, len, &reason) == 0) {
			added++;
			if (trimmed && warn) {
				snprintf(msg, sizeof msg,
					 "%s:%zu: trailing blanks are not part of the secret (removed)",
					 path, lineno);
				warn(ctx, msg);
			}
		} else if (warn) {
			snprintf(msg, sizeof msg, "%s:%zu: not used as a secret: %s", path, lineno,
				 buf_cstr(&reason));
			warn(ctx, msg);
		}
		buf_fini(&reason);
	}
	bool failed = ferror(f);
	int saved = errno;
	if (line)
		mem_wipe(line, cap);
	free(line);
	fclose(f);
	if (failed) {
		if (err)
			buf_puts(err, strerror(saved));
		return -1;
	}
	return added;
}

size_t mask_set_count(const struct mask_set *m)
{
	return m ? m->count : 0;
}

size_t mask_set_longest(const struct mask_set *m)
{
	return m ? m->longest : 0;
}

/* The automaton is compiled on first use after adds, so that loading N secrets costs one
 * build. Sets are only ever created by mask_set_create (never const objects), so the
 * cast is sound; the set is not for concurrent use while it is being changed. */
void mask_set_prepare(const struct mask_set *m)
{
	if (m && !m->built && m->count)
		mask_automaton_build((struct mask_set *)m);
}
