/* search: finding text in the transcript from the input line — newest match first, then
 * older or newer ones, and back to where the reader was on Esc. */
#include "interactive.h"

static void show_match(struct tui *u, long idx)
{
	u->match = idx;
	if (idx >= 0)
		viewport_show_item(&u->vp, u->t, (size_t)idx);
}

void search_update(struct tui *u)
{
	size_t count = transcript_count(u->t);
	const char *needle = editor_text(&u->query);
	long idx = *needle && count ? transcript_search(u->t, needle, count - 1, true) : -1;
	u->search_failed = *needle && idx < 0;
	if (idx >= 0)
		show_match(u, idx);
}

void search_step(struct tui *u, bool older)
{
	const char *needle = editor_text(&u->query);
	size_t count = transcript_count(u->t);
	if (!*needle || !count)
		return;
	long idx;
	if (u->match < 0)
		idx = transcript_search(u->t, needle, count - 1, true);
	else if (older)
		idx = u->match > 0 ? transcript_search(u->t, needle, (size_t)u->match - 1, true) : -1;
	else
		idx = transcript_search(u->t, needle, (size_t)u->match + 1, false);
	if (idx < 0)
		tui_notice(u, older ? "no older match" : "no newer match");
	else
		show_match(u, idx);
}

void search_start(struct tui *u)
{
	u->saved_follow = u->vp.follow;
	u->saved_top_item = u->vp.top_item;
	u->saved_top_row = u->vp.top_row;
	u->saved_top_uid = u->vp.top_uid;
	editor_clear(&u->query);
	u->match = -1;
	u->search_failed = false;
	u->mode = TUI_MODE_SEARCH_EDIT;
}

void search_cancel(struct tui *u)
{
	u->mode = TUI_MODE_INPUT;
	if (u->saved_follow) {
		viewport_follow(&u->vp);
	} else {
		u->vp.follow = false;
		u->vp.top_item = u->saved_top_item;
		u->vp.top_row = u->saved_top_row;
		u->vp.top_uid = u->saved_top_uid;
	}
}

