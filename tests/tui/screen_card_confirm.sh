#!/usr/bin/env bash
# Issue 15 point 1 with a confirmation waiting: Ctrl-O opens the confirmation (the waiting
# action is what matters), and its [o] opens that action full-screen in the pager; q comes
# back to the modal, which still has the keyboard, and nothing was answered meanwhile.
. "$(dirname "$0")/lib.sh" "$@"

answers() { grep -c 'respond_to_confirmation' "$WORK/traffic"; }

start_fixture "$DATA/tui_confirm.scenario"
start_tether 80 24 "$CONV"
wait_for "Confirm 1 action" || fail "no confirmation modal"
screen | grep -qF "full view" || fail "the modal does not offer the pager"
T send-keys -t main Escape
wait_gone "Confirm 1 action" || fail "Esc did not set the modal aside"
T send-keys -t main C-o
wait_for "Confirm 1 action" || fail "Ctrl-O did not open the confirmation set aside"
screen | grep -qF "── command ──" && fail "Ctrl-O opened the pager while a confirmation waits"
screen | grep -qF "[o] full view" || fail "the modal with the keyboard does not name o for the pager"
T send-keys -t main o
wait_for "── command ──" 5 || fail "o in the modal did not open the action in the pager"
screen | grep -qF "a confirmation waits: q to answer" || fail "the pager does not say a confirmation waits"
screen | grep -qF "TAIL-7f3e" || fail "the pager does not show the whole command"
[ "$(screen | grep -cF "TAIL-7f3e")" = 1 ] || fail "the pager shows the command more than once"
screen | grep -qF '```' && fail "the pager shows the command again in markdown fences"
screen | grep -qF "Second try." && fail "the pager shows another action than the waiting one"
T send-keys -t main q
wait_for "Confirm 1 action" 5 || fail "q did not come back to the modal"
screen | grep -qF "── command ──" && fail "the pager stayed"
screen | grep -qF "Tab or ↑↓ to answer" && fail "the modal lost the keyboard's focus"
hold 0.5 # an answer sent wrongly would reach the fixture within this
[ "$(answers)" = 0 ] || fail "opening the pager answered the confirmation"
T send-keys -t main y
wait_for "Allowed one." || fail "y after the pager did not allow"
T send-keys -t main Escape
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
no_sanitizer_report
echo ok
