#!/usr/bin/env bash
# Search (Ctrl-R, older/newer, highlight, Esc back), Tab on reasoning, /copy to a file, and
# the confirmation modal: Tab then y allows, n asks a reason, Esc sets it aside for /reject.
. "$(dirname "$0")/lib.sh" "$@"

filler=$(for i in $(seq -w 1 40); do printf 'filler %s\\n' "$i"; done)
start_fixture "$DATA/tui_controls.scenario" --set "filler=$filler"
start_tether 80 24 "$CONV"
wait_for "Last visible message." || fail "the conversation did not show"

# Search: the newest match first, then an older one; matches in reverse video.
T send-keys -t main C-r
wait_for "search:" || fail "Ctrl-R did not start a search"
T send-keys -t main -l "needle"
wait_for "needle two is here" || fail "the search did not show the newest match"
screen | grep -qF "needle one" && fail "the search did not go to the newest match first"
wait_for "search 1/2: needle" 5 || fail "the search line does not say which match of how many"
# (the line was on screen before the search: wait for the highlight itself)
# reversed TEXT: the screen line with TEXT is in reverse video.
reversed() { T capture-pane -p -e -t main | grep -F -- "$1" | grep -q $'\e\\[[0-9;]*7m'; }
wait_until 5 reversed "two is here" || fail "the match is not highlighted"
T send-keys -t main C-r
wait_for "needle one is here" || fail "Ctrl-R did not go to the older match"
wait_for "search 2/2: needle" 5 || fail "the search line did not count the older match"
T send-keys -t main Enter
wait_for "n older" || fail "Enter did not switch to browsing the matches"
T send-keys -t main N
wait_for "needle two is here" || fail "N did not go to the newer match"
T send-keys -t main Escape
wait_for "Last visible message." || fail "Esc did not bring the view back"
wait_gone "search:" || fail "Esc did not end the search"

# The current match (the newest item with an "e") in reverse video, the other items' matches
# on screen underlined, not reversed: they look apart, also without colour.
T send-keys -t main C-r
wait_for "search:" || fail "Ctrl-R did not start a search"
T send-keys -t main -l "e"
wait_for "search 1/" 5 || fail "a one-letter search shows no count"
wait_until 5 reversed "Last visibl"
T capture-pane -p -e -t main >"$WORK/looks"
grep -F "Last visibl" "$WORK/looks" | grep -q $'\e\\[[0-9;]*7m' ||
	fail "the current match is not in reverse video"
grep -F "cho copi" "$WORK/looks" | grep -q $'\e\\[[0-9;]*4m' ||
	fail "another item's match is not underlined"
grep -F "cho copi" "$WORK/looks" | grep -q $'\e\\[[0-9;]*7m' &&
	fail "another item's match looks like the current one"
T send-keys -t main Escape
wait_gone "search 1/" || fail "Esc did not end the search"

# Tab shows and hides the reasoning of the last message in view that has some.
screen | grep -qF "Reasoning text hidden at first." && fail "reasoning shown before Tab"
T send-keys -t main Tab
wait_for "Reasoning text hidden at first." || fail "Tab did not show the reasoning"
T send-keys -t main Tab
wait_gone "Reasoning text hidden at first." || fail "Tab did not hide the reasoning"

# /copy writes the masked text to $XDG_RUNTIME_DIR when OSC 52 is not enabled (a file left
# there readable by others is made 0600 before the text goes in).
printf 'a longer text left there before\n' >"$WORK/run/tether-copy.txt"
chmod 644 "$WORK/run/tether-copy.txt"
T send-keys -t main -l "/copy code"
T send-keys -t main Enter
wait_for "tether-copy.txt" || fail "/copy did not say where it copied"
[ "$(stat -c %a "$WORK/run/tether-copy.txt")" = 600 ] ||
	fail "/copy left the file mode $(stat -c %a "$WORK/run/tether-copy.txt")"
[ "$(cat "$WORK/run/tether-copy.txt")" = "echo copied-code-line" ] ||
	fail "/copy code copied '$(cat "$WORK/run/tether-copy.txt")'"
T send-keys -t main -l "/copy"
T send-keys -t main Enter
copied() { [ "$(cat "$WORK/run/tether-copy.txt" 2>/dev/null)" = "$1" ]; }
wait_until 5 copied "Last visible message."
[ "$(cat "$WORK/run/tether-copy.txt")" = "Last visible message." ] || fail "/copy did not copy the last message"

# Confirmation (the modal; screen_confirm.sh tests it in depth): after Tab, n asks a reason,
# Enter rejects with it.
T send-keys -t main -l "run it"
T send-keys -t main Enter
wait_for "Confirm 1 action" || fail "no confirmation modal"
screen | grep -F "[HIGH risk]" | grep -qF "terminal" || fail "the modal does not list the tool and its risk"
screen | grep -qF "command: rm -rf build" || fail "the modal does not show the command"
T send-keys -t main Tab
T send-keys -t main n
wait_for "reason:" || fail "n did not ask for a reason"
T send-keys -t main -l "not now"
T send-keys -t main Enter
wait_traffic 'respond_to_confirmation 200 .*"accept":false,"reason":"not now"' ||
	fail "the rejection did not reach the server"
wait_for "Rejected, fine." || fail "the run did not go on after the rejection"

# Tab, y allows.
T send-keys -t main -l "run it"
T send-keys -t main Enter
wait_for "Confirm 1 action" || fail "no second confirmation modal"
T send-keys -t main Tab
T send-keys -t main y
wait_traffic 'respond_to_confirmation 200 .*"accept":true' || fail "y did not allow"
wait_for "Accepted and done." || fail "the run did not go on after allowing"

# Esc sets the modal aside; /reject answers later.
T send-keys -t main -l "run it"
T send-keys -t main Enter
wait_for "Confirm 1 action" || fail "no third confirmation modal"
T send-keys -t main Escape
wait_gone "Confirm 1 action" || fail "Esc did not set the modal aside"
T send-keys -t main -l "/reject later reason"
T send-keys -t main Enter
wait_traffic '"accept":false,"reason":"later reason"' || fail "/reject did not reject"
[ "$(grep -c 'respond_to_confirmation' "$WORK/traffic")" = 3 ] || fail "an answer was sent twice"
no_sanitizer_report
echo ok
