#!/usr/bin/env bash
# On leaving, the TUI prints one line saying how to come back (issue 15, point 11), after the
# screen is given back, on stdout: `tether -s URL ID` (the server is not the default here).
# Not when no conversation was opened: the picker left with q, a conversation not found.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"
want="to come back: tether -s http://127.0.0.1:$PORT $CONV"

start_tether 100 24 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"
screen | grep -qF "to come back" && fail "the line was shown before leaving"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "exit status $RC"
wait_for "$want" 5 || fail "Ctrl-D: no line saying how to come back"
[ "$(screen | grep -cF 'to come back')" = 1 ] || fail "not one line"
[ -s "$WORK/stderr" ] && fail "something was written on stderr: $(cat "$WORK/stderr")"
grep -qaF "$want" "$WORK/bytes" || fail "the line is not in what was written"
# After the screen was given back: the line comes after the alternate screen's end.
tail -c 400 "$WORK/bytes" | grep -qaF "to come back" || fail "the line is not the last output"
awk 'BEGIN{RS="\033\\[\\?1049l"} END{print}' "$WORK/bytes" | grep -qaF "to come back" ||
	fail "the line was written before the screen was given back"
no_sanitizer_report

# Ctrl-C twice says it too.
fresh_tmux
start_tether 100 24 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"
T send-keys -t main C-c
wait_for "press Ctrl-C again to quit" || fail "Ctrl-C did not warn"
T send-keys -t main C-c
wait_exit || fail "Ctrl-C twice did not quit"
wait_for "$want" 5 || fail "Ctrl-C twice: no line saying how to come back"

# The picker left without choosing: no conversation, no line.
fresh_tmux
start_tether 100 24
wait_for "Chat screen test" || fail "the picker did not show"
T send-keys -t main Escape
wait_exit || fail "Esc did not leave the picker"
wait_until_stable # all tether wrote is on the screen
screen | grep -qF "to come back" && fail "the picker left without a choice printed a come-back line"
kill "$SRV" 2>/dev/null
wait "$SRV" 2>/dev/null
SRV=

# A conversation that is not found: nothing to come back to.
start_fixture "$DATA/close_4004.scenario"
fresh_tmux
start_tether 100 24 "$CONV"
wait_exit 20 || fail "a conversation not found did not end the run"
[ "$RC" = 4 ] || fail "exit status $RC for a conversation not found"
wait_until_stable
screen | grep -qF "to come back" && fail "a conversation not found printed a come-back line"
no_sanitizer_report
echo ok
