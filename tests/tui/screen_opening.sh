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
T send-keys -t main C-d
wait_exit 10 || fail "tether did not quit"
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
