#!/usr/bin/env bash
# Notices are wrapped, never cut at the width (issue 23, point 8): the notice of a draft held
# while actions wait ends with its next step ("Tab to …"), whole at 40, 80 and 100 columns,
# and the pager's at 40;
# the board's line under the list keeps what to do next, the id giving way first.
. "$(dirname "$0")/lib.sh" "$@"

# The screen's rows as one line of words: a wrapped notice reads whole.
joined() { screen | tr '\n' ' ' | tr -s ' '; }
held='not sent: a message would allow the waiting actions; answer first, or Tab to "send draft & allow"'

start_fixture "$DATA/tui_confirm.scenario"
start_tether 80 24 "$CONV"
wait_for "Confirm 1 action" || fail "no confirmation modal"
T send-keys -t main -l "my draft"
wait_for "> my draft" || fail "the draft did not show"
for cols in 80 40 100; do
	T resize-window -t main -x "$cols" -y 24
	wait_until_stable
	T send-keys -t main Enter
	wait_for "not sent: a message" || fail "Enter with a draft did not say why at $cols columns"
	joined | grep -qF -- "$held" || fail "the notice is cut at $cols columns: $(screen)"
done
# The pager's notice too, on its bar at 40 columns.
T resize-window -t main -x 40 -y 24
T send-keys -t main C-o
T send-keys -t main o
wait_for "── command ──" 5 || fail "o in the modal did not open the pager"
T send-keys -t main z
wait_for "q back" 5 || fail "a key the pager does not take was not explained"
joined | grep -qF "q back · / search · c copy output · C copy command" ||
	fail "the pager's notice is cut at 40 columns: $(screen)"
T send-keys -t main q
wait_gone "── command ──" 5 || fail "q did not leave the pager"
T send-keys -t main Escape C-u
wait_gone "> my draft" || fail "Ctrl-U did not clear the draft"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
no_sanitizer_report

fresh_tmux
kill "$SRV" 2>/dev/null
wait "$SRV" 2>/dev/null
SRV=
start_fixture "$DATA/board_list.scenario"
start_tether 60 20 "$CONV"
wait_for "Home base is ready." 15 || fail "the conversation is not on screen"
T send-keys -t main C-g
wait_for "Asks to deploy" 10 || fail "the board did not get the server's list"
T send-keys -t main Home
# The selected row asks for a confirmation: the line under the list says how to answer.
wait_for "Ctrl-O to answer" 5 || fail "the board's detail line cut the next step: $(screen)"
no_sanitizer_report
echo ok
