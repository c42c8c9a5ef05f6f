#!/usr/bin/env bash
# Controls are coalesced (issue 11, point 12): 200 quick Esc presses while the agent runs
# send one POST /interrupt, not 200.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_interrupt.scenario"
start_tether 80 24 "$CONV"
wait_for "running" || fail "the agent did not start running"
keys=()
for _ in $(seq 200); do keys+=(Escape); done
T send-keys -t main "${keys[@]}"
wait_traffic 'rest POST [^ ]*/interrupt ' || fail "Esc did not interrupt"
wait_for "paused" || fail "the interrupt did not take"
hold 1 # a second interrupt sent wrongly would reach the fixture within this
n=$(grep -c 'rest POST [^ ]*/interrupt ' "$WORK/traffic")
[ "$n" = 1 ] || fail "200 Esc presses sent $n interrupts"
no_sanitizer_report
echo ok
