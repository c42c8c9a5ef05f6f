#!/usr/bin/env bash
# Many conversations (issue 17): a reconnect of one conversation's socket does not disturb the
# others. A is on screen and streams an answer while D's socket is reset in the middle of D's
# own stream: D reconnects from its cursor (after_seq) and gets its answer whole; A's server
# sees one connection only, A's answer is whole, A stays on screen.
. "$(dirname "$0")/lib.sh" "$@"

COPY="$WORK/run/tether-copy.txt"
start_fixtures a=multi_a.scenario,stream=1,parts=40,rate=20,stream_after=2 d=multi_drop.scenario,drop_after=2
start_tether 100 24 "$ID_a" "$ID_d"
wait_for "Alpha: the parser is refactored" 15 || fail "A is not on screen"
wait_log d "^conn 1 .* id=$ID_d\$" 10 || fail "D's socket did not open"
wait_log d "^conn 2 after_seq=[0-9]+ .* id=$ID_d\$" 20 || fail "D did not reconnect from its cursor"
wait_for "ALPHA-STREAM-END" 20 || fail "A's answer did not finish on screen"
screen | grep -qF "Delta:" && fail "D shows on A's screen"
[ "$(log_count a '^conn ')" = 1 ] || fail "A's socket was disturbed: $(grep '^conn' "$LOG_a")"
T send-keys -t main -l "/copy"
T send-keys -t main Enter
wait_for "copied" 5 || fail "/copy said nothing"
want=$(printf 'alpha-stream %.0s' $(seq 40); printf 'ALPHA-STREAM-END')
[ "$(cat "$COPY")" = "$want" ] || fail "A's answer is not whole: $(head -c 300 "$COPY")"

# D: its answer once, whole, after the reconnect.
wait_for " 1/2 · 2✓ │" 20 || fail "D's run did not end: $(screen | tail -2)"
T send-keys -t main M-2
wait_for "DELTA-END" 5 || fail "D's answer is not on its screen"
rm -f "$COPY"
T send-keys -t main -l "/copy"
T send-keys -t main Enter
wait_until 5 test -s "$COPY"
want=$(printf 'delta-part %.0s' $(seq 20); printf 'DELTA-END')
[ "$(cat "$COPY")" = "$want" ] || fail "D's answer is not whole: $(head -c 300 "$COPY")"
[ "$(screen | grep -c 'DELTA-END')" = 1 ] || fail "D's answer shows twice"
T send-keys -t main C-c C-c
wait_exit 10 || fail "tether did not quit"
no_sanitizer_report
echo "ok"
