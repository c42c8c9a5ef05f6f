#!/usr/bin/env bash
# Issue 16, what goes wrong: a server without events/count opens on the whole history as
# before (no gap, nothing paged); a page that fails says so in the row of history not loaded,
# is never fatal, and is asked again on the next scroll, even at the top.
. "$(dirname "$0")/lib.sh" "$@"

# quit_round: tether quits and its fixture ends; the next round starts on a fresh log.
quit_round() {
	T send-keys -t main C-d
	wait_exit 10 || fail "tether did not quit"
	tmux_stop
	kill "$SRV" 2>/dev/null
	wait "$SRV" 2>/dev/null
	SRV=
	rm -f "$WORK/go" "$WORK/traffic"
}

# page_up_to TEXT: PgUp until the first line shows TEXT (the row of history not loaded at
# the top), and no further.
page_up_to() {
	for _ in $(seq 100); do
		screen | head -1 | grep -q "$1" && return
		T send-keys -t main PPage
		pause 0.05
	done
}

printf 'history 300\n' >"$WORK/h.scenario"
start_fixture "$WORK/h.scenario" --no-count
start_tether 100 30 "$CONV"
wait_for "seq 299" 10 || fail "the history did not open without events/count"
grep -qE "events/count.* 404" "$WORK/traffic" || fail "events/count was not asked"
grep -qE "^conn 1 after_seq=-1 " "$WORK/traffic" ||
	fail "without a count the socket did not replay the whole history: $(grep '^conn' "$WORK/traffic")"
T send-keys -t main C-Home
wait_for "system prompt" 5 || fail "the first event is not loaded"
screen | grep -q "earlier event" && fail "a gap row without history missing"
grep -q "events/search" "$WORK/traffic" && fail "history was paged though all of it was loaded"
quit_round

printf 'history 2000\n' >"$WORK/h2.scenario"
# Each scroll asks again: 20 failures outlast the way up to the top.
start_fixture "$WORK/h2.scenario" --search-fail 20
start_tether 100 30 "$CONV"
wait_for "seq 1,999" 10 || fail "the tail did not open"
page_up_to "could not load"
wait_for "earlier events · could not load: the server answered HTTP 503 · scroll to retry" 5 ||
	fail "the failed page is not said in the row"
asked=$(grep -c "events/search.* 503" "$WORK/traffic")
hold 0.5 # a page asked again wrongly would reach the fixture within this
[ "$(grep -c "events/search" "$WORK/traffic")" = "$asked" ] ||
	fail "a failed page was asked again without a scroll"
# Each scroll at the top (where the view does not move) asks again, until it loads.
asked_again() { [ "$(grep -c "events/search" "$WORK/traffic")" -gt "$asked" ]; }
for _ in $(seq 30); do
	grep -q "events/search.* 200" "$WORK/traffic" && break
	T send-keys -t main PPage
	wait_until 2 asked_again
	[ "$(grep -c "events/search" "$WORK/traffic")" -gt "$asked" ] ||
		fail "a scroll did not ask the failed page again"
	asked=$(grep -c "events/search" "$WORK/traffic")
done
wait_traffic "events/search.* 200" 5 || fail "the page never loaded after the failures"
wait_gone "could not load" 5 || fail "the row still says the page failed"
[ -e "$WORK/rc" ] && fail "tether ended after a failed page"
quit_round

# A page asked again says so at once, while it is on its way: the frame that asked it used
# to drop its repaint, so the row kept "could not load · scroll to retry" as if the scroll
# had done nothing. Pages are held (--search-hold) so that no answer races the keys.
start_fixture "$WORK/h2.scenario" --search-fail 1 --search-hold "$WORK/hold"
touch "$WORK/hold"
start_tether 100 30 "$CONV"
wait_for "seq 1,999" 10 || fail "the tail did not open"
page_up_to "earlier events"
rm -f "$WORK/hold"
wait_for "could not load" 10 || fail "the first page did not fail"
asked=$(grep -c "events/search" "$WORK/traffic")
touch "$WORK/hold"
T send-keys -t main PPage
wait_for "earlier events · loading…" 2 ||
	fail "a page asked again was not said to be loading; the row: $(screen | head -1)"
rm -f "$WORK/hold"
[ "$(grep -c "events/search" "$WORK/traffic")" -gt "$asked" ] || fail "the page was not asked again"
wait_gone "earlier events" 10 || fail "the page asked again did not load"
no_sanitizer_report
echo ok
