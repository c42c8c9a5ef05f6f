#!/usr/bin/env bash
# The picker waiting on a server that does not answer (issue 15.8): Enter says it is opening
# and how to stop; Esc stops waiting, says so, and the picker stays usable; Esc then quits.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/picker_silent.scenario"
start_tether 100 20
wait_for "Silent server" || fail "the picker did not list the conversations"
T send-keys -t main -l "silent"
wait_gone "Answering conversation" 5 || fail "typing does not filter"
T send-keys -t main Enter
wait_for "opening… (Esc to stop waiting)" 5 || fail "the wait is not said"
T send-keys -t main Escape
wait_for "stopped waiting for the server at http://127.0.0.1:$PORT to answer about conversation" 5 ||
	fail "Esc did not stop the wait"
grep -qxF "5ilent00-0000-4000-8000-000000000000" <<<"$(screen)" || fail "the message's id is not shown"
grep -qF "Pick a conversation" <<<"$(screen)" || fail "the picker did not stay"
[ -e "$WORK/rc" ] && fail "tether exited"
# Ctrl-C stops a wait too, and does not end tether.
T send-keys -t main Enter
wait_for "opening… (Esc to stop waiting)" 5 || fail "the second wait is not said"
T send-keys -t main C-c
wait_for "stopped waiting for the server" 5 || fail "Ctrl-C did not stop the wait"
hold 0.3 # tether ending wrongly would do so within this
[ -e "$WORK/rc" ] && fail "Ctrl-C during the wait ended tether"
# Still usable: the filter edits, and another conversation opens.
T send-keys -t main C-u
wait_for "Answering conversation" 5 || fail "the picker does not take keys after the wait"
T send-keys -t main -l "answering"
wait_gone "Silent server" 5 || fail "typing does not filter after the wait"
T send-keys -t main Enter
wait_for "hello from the answering one" 10 || fail "another conversation did not open after the wait"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "exit status $RC"
no_sanitizer_report
echo ok
