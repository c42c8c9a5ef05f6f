#include "attention.h"
#include "status.h"

#include <stdio.h>
#include <string.h>

void attention_init(struct attention *a, bool bell, int bell_after_s, enum notify_mode notify)
{
	memset(a, 0, sizeof *a);
	a->bell = bell;
	a->bell_after_us = (int64_t)(bell_after_s > 0 ? bell_after_s : 0) * 1000000;
	a->notify = notify;
	a->last = RUN_STATUS_ABSENT;
}

/* The conversation's name: its title, else the start of its id. */
static void put_name(char *out, size_t size, const struct controller_status *st)
{
	size_t at = 0;
	out[0] = '\0';
	if (st->title && *st->title)
		cstr_append_fitted(out, size, &at, st->title, strlen(st->title));
	else if (st->conversation_id && *st->conversation_id)
		cstr_append_fitted(out, size, &at, st->conversation_id, strnlen(st->conversation_id, 8));
}

static bool ends_run(enum run_status s)
{
	return s == RUN_STATUS_IDLE || s == RUN_STATUS_FINISHED || s == RUN_STATUS_ERROR ||
	       s == RUN_STATUS_STUCK;
}

static void call_back(struct attention *a, const struct controller_status *st, const char *what,
		      struct attention_calls *out)
{
	out->bell = a->bell;
	if (a->notify == NOTIFY_OFF)
		return;
	char name[ATTENTION_TEXT_BYTES / 2];
	put_name(name, sizeof name, st);
	out->notify = true;
	snprintf(out->notify_title, sizeof out->notify_title, "tether%s%s", *name ? ": " : "", name);
	snprintf(out->notify_body, sizeof out->notify_body, "%s", what);
}

void attention_observe(struct attention *a, const struct controller_status *st, int64_t now_us,
		       struct attention_calls *out)
{
	memset(out, 0, sizeof *out);
	char name[ATTENTION_TEXT_BYTES / 2];
	put_name(name, sizeof name, st);
	char title[ATTENTION_TEXT_BYTES];
	char others[48] = "";
	if (a->others_need > 0)
		snprintf(others, sizeof others, " · %d other%s need%s you", a->others_need,
			 a->others_need == 1 ? "" : "s", a->others_need == 1 ? "s" : "");
	const char *state = status_title_state(st);
	size_t at = 0;
	cstr_append_fitted(title, sizeof title, &at, "tether", 6);
	if (*name) {
		cstr_append_fitted(title, sizeof title, &at, ": ", 2);
		cstr_append_fitted(title, sizeof title, &at, name, strlen(name));
	}
	cstr_append_fitted(title, sizeof title, &at, " — ", strlen(" — "));
	cstr_append_fitted(title, sizeof title, &at, state, strlen(state));
	cstr_append_fitted(title, sizeof title, &at, others, strlen(others));
	if (strcmp(title, a->title) != 0) {
		snprintf(a->title, sizeof a->title, "%s", title);
		out->set_title = true;
		snprintf(out->title, sizeof out->title, "%s", title);
	}
	/* Only a current status decides; a reconnect's catch-up then shows what changed away. */
	if (!st->caught_up || st->connection != SESSION_SYNCED || st->syncing)
		return;
	enum run_status now = st->run_status;
	bool awaiting = st->awaiting_confirmation;
	if (!a->primed) {
		/* A confirmation waiting at the first catch-up is no history: it waits for the
		 * user now (and may have asked while nobody watched). */
		a->primed = true;
		if (awaiting)
			call_back(a, st, "needs confirmation", out);
	} else if (awaiting && !a->last_awaiting) {
		call_back(a, st, "needs confirmation", out);
	} else if (a->last == RUN_STATUS_RUNNING && ends_run(now) &&
		   now_us - a->running_since_us >= a->bell_after_us) {
		char what[ATTENTION_TEXT_BYTES / 2];
		int64_t s = (now_us - a->running_since_us) / 1000000;
		snprintf(what, sizeof what, "%s after running %lld:%02lld", status_agent_word(st),
			 (long long)(s / 60), (long long)(s % 60));
		call_back(a, st, what, out);
	}
	if (now == RUN_STATUS_RUNNING)
		a->running_since_us = st->running_since_us ? st->running_since_us
				    : a->last == RUN_STATUS_RUNNING ? a->running_since_us : now_us;
	a->last = now;
	a->last_awaiting = awaiting;
}
