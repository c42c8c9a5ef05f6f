#!/usr/bin/env bash
# The board's Delete: a question naming the selected conversation's title; any key but y keeps
# it (nothing sent, the key not taken as a filter), y deletes it and says what the server did.
# Open here, the deleted conversation is closed (its socket with it: the server only lets it
# go quiet), the board staying on screen; the only one open stays, said so.
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
# a second conversation open beside it, then back to the first: it is the one on screen
T send-keys -t main BSpace BSpace BSpace BSpace
wait_for "Broke the build" || fail "the filter did not go"
T send-keys -t main -l "Broke"
wait_gone "Home base is ready" 1
T send-keys -t main Enter
wait_for "2/2" || fail "Enter did not open a second conversation"
T send-keys -t main M-1
wait_for "Home base is ready." || fail "Alt-1 did not show the first again"
T send-keys -t main C-g
wait_for "Conversations on" || fail "the board did not open again"
T send-keys -t main C-u
wait_for "Broke the build" || fail "Ctrl-U did not clear the filter"
T send-keys -t main -l "Home"
wait_gone "Broke the build" || fail "typing did not filter the board again"
T send-keys -t main DC
wait_for "for good? y deletes" || fail "Delete did not ask again"
T send-keys -t main y
wait_traffic 'rest DELETE /api/conversations/'"$CONV"' 200' || fail "y did not delete"
wait_for "the server deleted “Home base”: closed here" || fail "the open conversation was not closed"
screen | grep -qF "Conversations on" || fail "the board did not stay on screen"
conns() { grep -c "^conn [0-9]* .*id=$CONV" "$WORK/traffic"; }
before=$(conns)
T send-keys -t main C-u
wait_for "Broke the build" || fail "Ctrl-U did not clear the filter"
T send-keys -t main Escape
wait_gone "Conversations on" || fail "Esc did not close the board"
screen | tail -2 | grep -qF "2/2" && fail "the deleted conversation is still open"
screen | grep -qF "Home base is ready." && fail "the deleted conversation is still shown"
# closed with its socket: no reconnect to it within a backoff's first step
hold 3
[ "$(conns)" = "$before" ] || fail "tether still connects to the deleted conversation"
no_sanitizer_report
echo ok
