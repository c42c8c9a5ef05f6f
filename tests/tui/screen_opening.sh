#!/usr/bin/env bash
# Issue 28 (start-up): the first frame waits for the conversation. Until the conversation on
# screen has caught up (the server's snapshot after the replay) or one render period has
# passed, nothing is painted: a server that answers within the period shows the conversation
# in the first frame, with no "connecting" frame a tick before it. A server that does not
# answer gets the status line at the end of the period, and an error shows at once.
. "$(dirname "$0")/lib.sh" "$@"

# The offset of the first TEXT in the bytes tether wrote (empty when it never came).
before_first() { grep -aobF -- "$1" "$WORK/bytes" | head -1 | cut -d: -f1; }

cat >"$WORK/quick.scenario" <<'SC'
history 100
message agent "THE-TAIL-END"
status idle
SC
start_fixture "$WORK/quick.scenario"
# A render period of 1 s: the opening waits up to 1 s, far beyond a loopback answer, so
# the conversation comes first however slow the machine.
start_tether 100 30 --render-hz 1 "$CONV"
wait_for "THE-TAIL-END" 20 || fail "the tail did not show"
tail_at=$(before_first "THE-TAIL-END")
conn_at=$(before_first "connecting")
[ -z "$conn_at" ] || [ "$conn_at" -gt "$tail_at" ] ||
	fail "a \"connecting\" frame came before the conversation (byte $conn_at, the tail at $tail_at)"
# That first frame goes out alone: the window's pages (102 events, 28 rows) start a frame
# later, here a second after it, where without the wait they followed it within milliseconds.
[ "$(grep -c events/search "$WORK/traffic")" = 0 ] ||
	fail "history was paged with the first frame, not a frame after it"
wait_until 10 eval '[ "$(grep -c events/search "$WORK/traffic")" -ge 1 ]' ||
	fail "the window was not paged in after the first frame"
T send-keys -t main C-d
wait_exit 10 || fail "tether did not quit"
stop_run

# A long conversation opens on a screen's tail: the socket replays as many events as the view
# has rows (28 here), and the rest of the window (history_window, 200) comes in pages after
# the first frame with no key pressed; scrolling through the window then asks nothing more.
cat >"$WORK/long.scenario" <<'SC'
history 1000
message agent "THE-TAIL-END"
status idle
SC
start_fixture "$WORK/long.scenario"
start_tether 100 30 "$CONV"
wait_for "THE-TAIL-END" 20 || fail "the tail did not show"
# 1002 events: the socket resumes after seq 1001 - 28 = 973
grep -q "^conn 1 after_seq=973 " "$WORK/traffic" || fail "the socket did not replay the tail: $(grep '^conn' "$WORK/traffic")"
wait_until 20 eval '[ "$(grep -c events/search "$WORK/traffic")" -ge 2 ]' ||
	fail "the window was not paged in: $(grep -c 'events/search' "$WORK/traffic") pages"
wait_until_stable 5
pages=$(grep -c 'events/search' "$WORK/traffic")
for _ in $(seq 20); do T send-keys -t main PageUp; done
wait_until_stable 5
[ "$(grep -c 'events/search' "$WORK/traffic")" = "$pages" ] ||
	fail "scrolling 20 pages within the window asked the server again"
shows "loading" && fail "a gap row inside the window"
T send-keys -t main C-d
wait_exit 10 || fail "tether did not quit"
stop_run

# --record keeps socket frames only: with it the socket replays the whole window, which the
# record then holds (200 durable frames), as before the screenful open.
start_fixture "$WORK/long.scenario"
start_tether 100 30 --record "$WORK/record.ndjson" "$CONV"
wait_for "THE-TAIL-END" 20 || fail "the tail did not show (recording)"
grep -q "^conn 1 after_seq=801 " "$WORK/traffic" ||
	fail "a recording socket did not replay the window: $(grep '^conn' "$WORK/traffic")"
T send-keys -t main C-d
wait_exit 10 || fail "tether did not quit"
durables=$(grep -c '"durable"' "$WORK/record.ndjson")
[ "$durables" -ge 200 ] || fail "the record holds $durables durable frames, not the window's 200"
stop_run

# A socket that never syncs: the status line still comes, one period after the start.
silent=$WORK/silent
: >"$silent"
cat >"$WORK/silent.scenario" <<SC
conn * silence for=60 at=open while=$silent
history 3
status idle
SC
start_fixture "$WORK/silent.scenario"
start_tether 100 30 "$CONV"
wait_for "connecting" 10 || fail "nothing was painted while the server was silent"
rm -f "$silent"
T send-keys -t main C-d
wait_exit 10 || fail "tether did not quit"

no_sanitizer_report
echo ok
