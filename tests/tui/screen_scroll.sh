#!/usr/bin/env bash
# Scrolled up, the view does not move while 500 lines stream in below, and the marker counts
# them; End jumps back to the bottom and follows again.
. "$(dirname "$0")/lib.sh" "$@"

# Two blanks at each line's end: a hard break, so agent prose that reflows (issue 15.5) still
# gives each line a row of its own.
history=$(for i in $(seq -w 1 60); do printf 'history line %s  \\n' "$i"; done)
flood=$(for i in $(seq -w 1 500); do printf 'flood line %s  \\n' "$i"; done)
start_fixture "$DATA/tui_scroll.scenario" --set "history=$history" --set "flood=$flood" \
	--set flood_lines=500
start_tether 80 24 "$CONV"
wait_for "history line 60" || fail "the history did not show"

T send-keys -t main PPage
wait_for "more below" || fail "no marker after scrolling up"
before=$(screen | sed -n '1,/more below/p' | sed '$d')
grep -q "history line" <<<"$before" || fail "scrolled to an unexpected place"

rest POST "/api/conversations/$CONV/run"
# Wait until the whole flood arrived: the marker counts at least its 500 lines and stops.
n=0
for _ in $(seq 600); do
	n=$(screen | sed -n 's/.*↓ \([0-9,]*\) new lines below.*/\1/p' | tr -d ,)
	[ -n "$n" ] && [ "$n" -ge 500 ] && break
	pause 0.1
done
[ -n "$n" ] && [ "$n" -ge 500 ] || fail "the marker did not count the new lines (got '$n')"
after=$(screen | sed -n '1,/new lines\? below/p' | sed '$d')
[ "$before" = "$after" ] || {
	diff <(echo "$before") <(echo "$after") >&2
	fail "the view moved while output streamed below"
}
screen | grep -qF "flood line" && fail "streamed lines were drawn into the scrolled view"

T send-keys -t main End
wait_for "End of the flood." || fail "End did not jump to the bottom"
screen | grep -qE "new lines? below" && fail "the marker stayed after End"
screen | grep -qF "flood line 500" || fail "the last streamed line is not above the end"
no_sanitizer_report
echo ok
