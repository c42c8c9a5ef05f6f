/* Conversation ids on the command line: what one looks like, and what to say about a word in
 * an id's place that is not one (a mistyped command most of the time). */
#include "options_int.h"

#include <ctype.h>
#include <string.h>

/* The words of `tether WORD …`, in the order --help lists them. */
static const char *const commands[] = {
	"list", "key", "secret", "confirm", "reject", "pause", "resume", "interrupt", "watch",
	"new", "fork", "rename", "rm", "ask", "compact", "model", "goal", "policy", "server-info",
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static bool hex_run(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

bool conversation_id_valid(const char *s)
{
	size_t n = strlen(s);
	if (n == 32)
		return hex_run(s, 32);
	static const size_t groups[] = {8, 4, 4, 4, 12};
	if (n != 36)
		return false;
	for (size_t g = 0; g < 5; g++) {
		if (!hex_run(s, groups[g]))
			return false;
		s += groups[g];
		if (g < 4 && *s++ != '-')
			return false;
	}
	return true;
}

bool conversation_id_same(const char *a, const char *b)
{
	for (;;) {
		while (*a == '-')
			a++;
		while (*b == '-')
			b++;
		if (!*a || !*b)
			return !*a && !*b;
		if (tolower((unsigned char)*a++) != tolower((unsigned char)*b++))
			return false;
	}
}

/* Edit distance with adjacent transpositions (optimal string alignment), for short words. */
static size_t distance(const char *a, const char *b)
{
	enum { MAX = 16 };
	size_t la = strlen(a), lb = strlen(b);
	if (la >= MAX || lb >= MAX)
		return MAX;
	size_t d[MAX + 1][MAX + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) != b[j - 1];
			size_t best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == b[j - 2] &&
			    tolower((unsigned char)a[i - 2]) == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/* The command word is a near miss of, or NULL. "help" counts as asking for the list. */
static const char *near_command(const char *word, bool *asked_help)
{
	*asked_help = !strcmp(word, "help");
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t i = 0; i < NCOMMANDS; i++) {
		size_t d = distance(word, commands[i]);
		/* short words are near only one edit away: "kye" is key, "pass" is not pause */
		size_t allowed = strlen(commands[i]) <= 4 ? 1 : 2;
		if (d <= allowed && d < best_d) {
			best = commands[i];
			best_d = d;
		}
	}
	return best;
}

/* Letters only, one of them beyond a-f: a word (ls, status), not the start of an id. */
static bool wordlike(const char *s)
{
	bool beyond_hex = false;
	for (; *s; s++) {
		if (!isalpha((unsigned char)*s))
			return false;
		beyond_hex |= !isxdigit((unsigned char)*s);
	}
	return beyond_hex;
}

void options_bad_id(const char *where, const char *word, struct buf *err)
{
	if (!*word) {
		buf_printf(err, "%sthe conversation id is empty (tether list shows the ids)", where);
		return;
	}
	bool help;
	const char *near = near_command(word, &help);
	if (near || help || wordlike(word)) {
		buf_printf(err, "%s'%.40s' is neither a command nor a conversation id", where, word);
		if (near)
			buf_printf(err, " (did you mean %s?)", near);
		buf_puts(err, "; the commands are");
		for (size_t i = 0; i < NCOMMANDS; i++)
			buf_printf(err, "%s %s", i ? "," : "", commands[i]);
		buf_puts(err, " (tether --help)");
		return;
	}
	buf_printf(err, "%s'%.40s' is not a conversation id: ids are UUIDs, hyphenated or as 32 hex "
			"digits (tether list shows them)", where, word);
}
