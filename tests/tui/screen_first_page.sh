#!/usr/bin/env bash
# Issue 23, item 6: Ctrl-Home in a long conversation opened on its tail goes to the first
# event with one press: the oldest page is asked directly (events/search oldest first, no
# anchor) — not paged down to — and placed at the top; while it comes, a row says how many
# events lie above what is loaded.
. "$(dirname "$0")/lib.sh" "$@"

cat >"$WORK/h.scenario" <<'SC'
message user "the very first words of this conversation"
history 10000
message agent "THE-TAIL-END"
SC
# Pages are held while WORK/hold exists: the row that waits for the first page is seen.
start_fixture "$WORK/h.scenario" --search-hold "$WORK/hold"
start_tether 100 30 "$CONV"
wait_for "THE-TAIL-END" 20 || fail "the tail did not show"
wait_for "seq 10,001" 10 || fail "the status line does not show the last seq"
# The open's window comes in two pages a frame after the first one (screen_opening): counted
# before Ctrl-Home, which must add one page only.
wait_until 10 eval '[ "$(grep -c "^rest GET .*/events/search" "$WORK/traffic")" -ge 2 ]' ||
	fail "the window was not paged in"
wait_until_stable
before=$(grep -c '^rest GET .*/events/search' "$WORK/traffic")

: >"$WORK/hold"
T send-keys -t main C-Home
wait_for "earlier events · loading the first events…" 10 ||
	fail "no row says the first events are loading"
# The row says how many events lie above what is loaded (all but the tail window).
row=$(screen | grep -oE '↑ [0-9,]+ earlier events · loading the first events…' | head -1)
n=$(echo "$row" | sed 's/ earlier.*//' | tr -dc 0-9)
[ "$n" -gt 9000 ] && [ "$n" -lt 10002 ] || fail "the row says: $row"
rm "$WORK/hold"
wait_for "the very first words of this conversation" 5 || fail "one Ctrl-Home did not reach the first event"
screen | head -3 | grep -qF "the very first words of this conversation" ||
	fail "the first event is not at the top"
grep -qE '^rest GET /api/conversations/[^ ]+/events/search\?limit=100 200$' "$WORK/traffic" ||
	fail "the oldest page was not asked directly: $(grep '^rest GET .*events/search' "$WORK/traffic" | tail -3)"
asked=$(($(grep -c '^rest GET .*/events/search' "$WORK/traffic") - before))
[ "$asked" = 1 ] || fail "reaching the first event took $asked pages"

no_sanitizer_report
echo ok
