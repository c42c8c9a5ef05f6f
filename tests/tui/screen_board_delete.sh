#!/usr/bin/env bash
# The board's Delete: a question naming the selected conversation's title; any key but y keeps
# it (nothing sent, the key not taken as a filter), y deletes it and says what the server did.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/board_list.scenario"
start_tether 100 20 "$CONV"
wait_for "Home base is ready." || fail "the conversation did not show"
T send-keys -t main C-g
wait_for "Broke the build" || fail "the board did not list the server's conversations"
T send-keys -t main -l "Home"
wait_gone "Broke the build" || fail "typing did not filter the board"
T send-keys -t main DC
wait_for "delete “Home base” from the server for good? y deletes, any other key keeps it" ||
	fail "Delete did not ask, naming the title"
T send-keys -t main n
wait_for "kept: nothing was deleted" || fail "n did not keep it"
grep -q 'rest DELETE ' "$WORK/traffic" && fail "n deleted the conversation"
screen | grep -qF "Homen" && fail "the answer was taken as a filter"
T send-keys -t main DC
wait_for "for good? y deletes" || fail "Delete did not ask again"
T send-keys -t main y
wait_traffic 'rest DELETE /api/conversations/'"$CONV"' 200' || fail "y did not delete"
wait_for "the server deleted “Home base”" || fail "the deletion was not said"
no_sanitizer_report
echo ok
