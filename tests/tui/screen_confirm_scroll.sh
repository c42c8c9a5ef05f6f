#!/usr/bin/env bash
# On a small screen the confirmation modal shows the action in part and says so; PgDn
# scrolls it to the command's tail, PgUp back (issue 11, point 13: every action whole).
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_confirm.scenario"
start_tether 60 12 "$CONV"
wait_for "Confirm 1 action" || fail "no confirmation modal"
wait_for "PgUp/PgDn" || fail "the modal does not say it scrolls"
# The modal's rows only: the card above it in the transcript may show the command too.
modal() { screen | sed -n '/Confirm [0-9]* action/,$p'; }
# wait_modal TEXT: until the modal shows TEXT (10 s).
modal_has() { modal | grep -qF -- "$1"; }
wait_modal() { wait_until 10 modal_has "$1"; }
modal | grep -qF "TAIL-7f3e" && fail "the small screen shows the whole action: nothing to test"
T send-keys -t main PageDown
T send-keys -t main PageDown
T send-keys -t main PageDown
wait_modal "TAIL-7f3e" || fail "PgDn did not scroll to the command's tail"
T send-keys -t main PageUp
T send-keys -t main PageUp
T send-keys -t main PageUp
wait_for "1. [HIGH risk] terminal" || fail "PgUp did not scroll back"
grep -q 'respond_to_confirmation' "$WORK/traffic" && fail "scrolling answered the confirmation"
no_sanitizer_report
echo ok
