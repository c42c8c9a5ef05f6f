#!/usr/bin/env bash
# A REST control that fails is one transcript item in words (what the user asked for, then
# the server's answer), not also a notice (was "pause failed: HTTP 500 no" twice).
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_rest_error.scenario"
start_tether 80 12 "$CONV"
wait_for "Ready." || fail "the conversation did not show"
T send-keys -t main -l "/pause"
T send-keys -t main Enter
wait_for "could not pause the agent" || fail "the failed pause was not shown"
hold 0.5 # a second report of it would show within this
screen >"$WORK/shot"
[ "$(grep -c "could not pause the agent" "$WORK/shot")" = 1 ] || fail "said more than once"
grep -A1 -xF "✗ pause" "$WORK/shot" | tail -1 |
	grep -qxF "could not pause the agent: the server answered HTTP 500 no" ||
	fail "the item is not the two whole lines expected"
# The notice that said it was under way goes with the failure (issue 15, point 6).
wait_gone "pausing the agent" 2 || fail "'pausing the agent…' stayed after the pause failed"
echo ok
