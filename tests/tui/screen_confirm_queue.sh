#!/usr/bin/env bash
# A message typed while the socket is down is held while actions wait for confirmation, on
# both ways out: the REST fallback asks the status first, and a reconnect sends held messages
# only once the replay is over and nothing waits (issue 11, point 13: a message runs pending
# actions on the agent-server).
. "$(dirname "$0")/lib.sh" "$@"

user_messages() { grep -cE '^recv [0-9]+ \{"role":"user"|^rest POST [^ ]*/events 200' "$WORK/traffic"; }

start_fixture "$DATA/tui_confirm_reconnect.scenario"
start_tether 80 24 "$CONV"
wait_traffic '^conn 2 ' 15 && wait_for " connecting ·" 5 ||
	fail "the second connection did not hang before sync"
T send-keys -t main -l "my queued message"
T send-keys -t main Enter
wait_for "queued: my queued message" || fail "the message was not queued"
# The REST fallback (after 3 s) finds the conversation waiting and keeps the message.
wait_traffic 'rest GET /api/conversations/[^ /]* 200' 10 || fail "the REST fallback did not ask the status"
wait_for "Confirm 1 action" 20 || fail "no confirmation after the reconnect"
hold 1 # a message sent wrongly would reach the fixture within this
[ "$(user_messages)" = 0 ] || fail "the message went out while the action waited"
screen | grep -qF "queued: my queued message" || fail "the message is not shown as queued"
T send-keys -t main Tab
T send-keys -t main y
wait_traffic '"text":"my queued message"' || fail "the message was not sent after the answer"
[ "$(user_messages)" = 1 ] || fail "the message was sent $(user_messages) times"
accept_line=$(grep -n 'respond_to_confirmation' "$WORK/traffic" | head -1 | cut -d: -f1)
message_line=$(grep -n '"text":"my queued message"' "$WORK/traffic" | head -1 | cut -d: -f1)
[ "$accept_line" -lt "$message_line" ] || fail "the message went out before the answer"
wait_for "Got your queued message." || fail "the message was not answered"
no_sanitizer_report
echo ok
