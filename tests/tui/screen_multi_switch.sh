#!/usr/bin/env bash
# Many conversations (issue 17): switching keeps each conversation's draft, scroll position
# and streams. A is scrolled up with a draft typed when the user goes to C (Alt-2), types
# another draft there and stays while A streams an answer in the background; back on A
# (Alt-1) its draft and its view are as left, and the answer that streamed meanwhile is one
# whole message (copied with /copy: every delta once, in order). Ctrl-N brings C's draft back.
. "$(dirname "$0")/lib.sh" "$@"

COPY="$WORK/run/tether-copy.txt"
start_fixtures a=multi_a.scenario,stream=1,parts=40,rate=20,stream_go="$WORK/stream_a" c=multi_c.scenario
start_tether 80 12 "$ID_a" "$ID_c"
wait_for "Alpha: the parser is refactored" 15 || fail "A is not on screen"
wait_log c "^conn 1 .* id=$ID_c\$" 10 || fail "C's socket did not open"

T send-keys -t main -l "draft for alpha"
wait_for "> draft for alpha" 5 || fail "the draft did not show"
T send-keys -t main PgUp
top_is_you() { [ "$(screen | head -1)" = "you" ]; }
wait_until 5 top_is_you
[ "$(screen | head -1)" = "you" ] || fail "PgUp did not scroll A to its top: $(screen | head -3)"
wait_for "more below" 5 || fail "A's scrolled view does not say there is more below"
top_before=$(screen | head -3)

T send-keys -t main M-2
wait_for "Charlie: noted. Nothing else to do." 5 || fail "Alt-2 did not show C"
screen | grep -qF "draft for alpha" && fail "A's draft followed to C"
screen | grep -qF "Alpha:" && fail "A's transcript shows on C's screen"
T send-keys -t main -l "draft for charlie"
wait_for "> draft for charlie" 5 || fail "C's draft did not show"
# A streams meanwhile (once the test is on C, 40 deltas at 20/s).
: >"$WORK/stream_a"
wait_for " 2/2 · 1" 15 || fail "the strip does not mark A's activity: $(screen | tail -2)"
wait_for " 2/2 · 1✓ │" 15 || fail "A's streamed run did not end: $(screen | tail -2)"

T send-keys -t main M-1
wait_for "> draft for alpha" 5 || fail "A's draft did not come back"
screen | grep -qF "draft for charlie" && fail "C's draft followed to A"
[ "$(screen | head -3)" = "$top_before" ] ||
	fail "A's view moved: was
$top_before
now
$(screen | head -3)"
screen | grep -qE "new lines? below" || fail "A's view does not say what came below"

# The answer that streamed in the background: one message, every delta once.
T send-keys -t main C-u C-u
wait_for "message the agent" 5 || fail "Ctrl-U twice did not empty the draft"
T send-keys -t main -l "/copy"
T send-keys -t main Enter
wait_for "copied" 5 || fail "/copy said nothing"
want=$(printf 'alpha-stream %.0s' $(seq 40); printf 'ALPHA-STREAM-END')
[ "$(cat "$COPY")" = "$want" ] || fail "the streamed answer is not whole: $(head -c 300 "$COPY")"
T send-keys -t main M-End
wait_for "ALPHA-STREAM-END" 5 || fail "Alt-End did not show the end of the answer"

T send-keys -t main C-n
wait_for "> draft for charlie" 5 || fail "Ctrl-N did not bring C's draft back"
T send-keys -t main C-p
wait_for "Alpha:" 5 || fail "Ctrl-P did not go back to A"
T send-keys -t main C-c C-c
wait_exit 10 || fail "tether did not quit"
# The line that opens both again, the one on screen (A) first.
T capture-pane -p -J -t main | grep -qF "to come back: tether -s http://127.0.0.1:$PORT $ID_a $ID_c" ||
	fail "the come-back line does not name both: $(T capture-pane -p -J -t main | grep 'come back')"
no_sanitizer_report
echo "ok"
