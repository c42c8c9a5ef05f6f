#!/usr/bin/env bash
# Issue 16, the TUI half: a 20,000-event conversation opens on its tail (events/count, then
# the socket resumes a window before the end) with the newest event on screen; PgUp to the
# top shows the row of history not loaded and loads pages of it (events/search in the
# fixture's log); a page landing above does not move the lines being read; search finds a
# message that was never loaded and shows it.
. "$(dirname "$0")/lib.sh" "$@"

cat >"$WORK/h.scenario" <<'SC'
history 10000
message user "the zebra needle in old history"
history 10000
SC
# Pages are held while WORK/hold exists, so "loading…" is seen however slow the machine, and
# a page lands while the top is shown.
start_fixture "$WORK/h.scenario" --search-hold "$WORK/hold"
start_tether 100 30 "$CONV"

# The newest event, as the server has it: the last agent message's last line.
newest=$(python3 - "$PORT" "$CONV" <<'PY'
import json, sys, urllib.request
port, conv = sys.argv[1:]
url = f"http://127.0.0.1:{port}/api/conversations/{conv}/events/search?limit=1&kind=MessageEvent&sort_order=TIMESTAMP_DESC"
ev = json.load(urllib.request.urlopen(url))["items"][0]
print(ev["llm_message"]["content"][0]["text"].splitlines()[-1].replace("**", ""))
PY
)
[ -n "$newest" ] || fail "could not read the newest event from the fixture"
wait_for "$newest" 10 || fail "the newest event ($newest) is not on screen"
wait_for "seq 20,000" 10 || fail "the status line does not show the last seq"
grep -q "events/count" "$WORK/traffic" || fail "no events/count asked"
if [ "${TETHER_TEST_PROTOCOL:-session}" = events ]; then
	# the window comes through REST there (pages newest first, none before a time); the
	# socket resends from its newest event on
	grep -qE "^conn 1 events resend=since after_timestamp=[0-9T:.-]+ " "$WORK/traffic" ||
		fail "the socket did not resend from the tail: $(grep '^conn' "$WORK/traffic")"
	older="events/search?page_id=.*limit=100.*timestamp__lt="
else
	# a screenful (28 rows) before the end: 20,001 events, after seq 20,000 - 28
	grep -qE "^conn 1 after_seq=19972 " "$WORK/traffic" ||
		fail "the socket did not resume a screenful before the end: $(grep '^conn' "$WORK/traffic")"
	older="events/search?page_id=.*limit=100"
fi
# Before anyone scrolls, the rest of the window (history_window, 200) comes in two pages — a
# page of 100, then one down to the window's first event — and no more.
wait_until 10 eval '[ "$(grep -c "events/search?page_id=" "$WORK/traffic")" -ge 2 ]' ||
	fail "the window was not paged in: $(grep 'events/search' "$WORK/traffic")"
wait_until_stable 5
pause 0.5
[ "$(grep -c 'events/search?page_id=' "$WORK/traffic")" = 2 ] ||
	fail "history beyond the window was paged before anyone scrolled: $(grep 'events/search' "$WORK/traffic")"

# PgUp to the top of what is loaded: the row of history not loaded, loading, on the top line
# (its page held until the test has seen it there).
: >"$WORK/hold"
top_loading() { screen | head -1 | grep -q "earlier events · loading…"; }
# Quick PgUps until the row is in view (it is then the top line: nothing is above it; keys
# sent ahead do nothing there); then, if not, one at a time, each handled (the screen
# changed) before the next. Looked at without waiting for the screen to settle: the page is
# held from when the row came within a screen, and tether waits 15 s for it.
for _ in $(seq 150); do
	screen | grep -q "earlier events" && break
	T send-keys -t main PPage
	pause 0.05 # a key at a time, as typed; the screen tells when to stop
done
for _ in $(seq 40); do
	top_loading && break
	prev=$(screen)
	# up a page; at the top, a page held past tether's 15 s wait (the walk on a loaded
	# machine) failed, "could not load … scroll to retry", and PgUp asks it again
	T send-keys -t main PPage
	wait_until 10 eval '[ "$(screen)" != "$prev" ]' || break
done
wait_until 10 top_loading || fail "the top line is not the 'earlier events · loading…' row"
wait_traffic "events/search\?page_id=[0-9a-f-]+&limit=100&sort_order=TIMESTAMP_DESC&timestamp__lt=" 5 ||
	fail "no page of older history was asked"
before=$(screen | sed -n '2,20p')
pages=$(grep -c "events/search?page_id=.*limit=100" "$WORK/traffic")
# The page lands above: the row goes (or moves up), the lines below stay where they were.
rm "$WORK/hold"
wait_gone "earlier events · loading…" 10 || fail "the page never landed"
after=$(screen | sed -n '2,20p')
[ "$before" = "$after" ] || {
	diff <(echo "$before") <(echo "$after") >&2
	fail "the view moved when older history landed above"
}
screen | grep -qF "new below" && fail "a page of history counted as new output below"
# Further up, more pages come.
more_pages() { [ "$(grep -c "events/search?page_id=.*limit=100" "$WORK/traffic")" -gt "$pages" ]; }
for _ in $(seq 30); do
	T send-keys -t main PPage
	wait_until 0.1 more_pages && break
done
wait_until 5 more_pages || fail "scrolling up loaded no further page"

# Search: the needle was never loaded; the server's history has it, and it is shown.
T send-keys -t main End
T send-keys -t main C-r
T send-keys -t main -l "zebra needle"
wait_traffic "events/search\?limit=1&sort_order=TIMESTAMP_DESC&body=zebra" 10 ||
	fail "the search did not go to the server"
wait_for "the zebra needle in old history" 10 || fail "search did not show the match"
wait_traffic "events/count\?timestamp__lt=" 5 || fail "the match was not placed by its count"
no_sanitizer_report
echo ok
