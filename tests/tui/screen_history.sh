#!/usr/bin/env bash
# The input history survives a restart (issue 15 point 7): a message sent, tether quit and
# started again, Up brings it back — a multi-line one whole. The file is the server's own,
# 0600, and holds a secret typed in a message masked. `input_history = off` keeps nothing.
. "$(dirname "$0")/lib.sh" "$@"

secret=tok-Zq9VX7wKpL3mN8rT
printf '%s\n' "$secret" >"$WORK/mask"
start_fixture "$DATA/tui_chat.scenario"
start_tether 80 24 --mask-file "$WORK/mask" "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"
T send-keys -t main -l "remember me with $secret inside"
T send-keys -t main Enter
wait_for "Scripted reply to your message." || fail "no reply to the first message"
T set-buffer -b two "$(printf 'first line\nsecond line')"
T paste-buffer -p -b two -t main
wait_for "  second line" || fail "the paste is not in the input"
T send-keys -t main Enter
wait_traffic '^recv 1 .*first line(\\n|\\u000a)second line' || fail "the paste was not sent"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"

file="$WORK/state/tether/history-127.0.0.1_$PORT"
[ -f "$file" ] || fail "no history file at $file: $(ls -R "$WORK/state" 2>&1)"
[ "$(stat -c %a "$file")" = 600 ] || fail "the history file is not 0600"
[ "$(stat -c %a "$WORK/state/tether")" = 700 ] || fail "the history directory is not 0700"
grep -qF -e "$secret" -e "Zq9VX7wKpL3" "$file" && fail "the history file holds the secret"
grep -qxF "remember me with <secret-hidden> inside" "$file" ||
	fail "the message is not in the history file, masked: $(cat "$file")"
grep -qxF 'first line\nsecond line' "$file" || fail "a multi-line entry is not one escaped line"

# Started again: Up shows the newest (two lines), Up again the one before.
T kill-session -t main
start_tether 80 24 --mask-file "$WORK/mask" "$CONV"
wait_for "Ready for your messages." || fail "the history did not show after the restart"
T send-keys -t main Up
wait_for "> first line" 5 || fail "Up after a restart did not bring the last message back"
screen | grep -qF "  second line" || fail "the multi-line entry did not come back whole"
# (the first Up moves within the two lines, the next goes back in history)
T send-keys -t main Up Up
wait_for "> remember me with <secret-hidden> inside" 5 ||
	fail "Up did not bring the older message back (masked)"

# A damaged line is skipped with a notice; the rest still comes back.
T send-keys -t main C-u C-u C-d
wait_exit || fail "Ctrl-D did not quit"
printf 'broken \\q escape\n' >>"$file"
T kill-session -t main
start_tether 80 24 "$CONV"
wait_for "input history: 1 damaged line skipped" 10 || fail "a damaged line was not reported"
T send-keys -t main Up
wait_for "> first line" 5 || fail "the good entries did not come back"
# A file that cannot be read: a notice, and the run keeps no history (the file is left).
T send-keys -t main C-u C-u C-d
wait_exit || fail "Ctrl-D did not quit"
mv "$file" "$file.saved"
mkdir "$file"
T kill-session -t main
start_tether 80 24 "$CONV"
wait_for "input history is not kept this run" 10 || fail "an unreadable history file was not reported"
T send-keys -t main -l "while unreadable"
T send-keys -t main Enter
wait_traffic '^recv [0-9]+ .*while unreadable' || fail "the message was not sent"
[ -d "$file" ] || fail "the unreadable history was replaced"
rmdir "$file"
mv "$file.saved" "$file"

# input_history = off: nothing is loaded, nothing written.
T send-keys -t main C-u C-u C-d
wait_exit || fail "Ctrl-D did not quit"
before=$(cat "$file")
mkdir -p "$WORK/config/tether"
echo "input_history = off" >"$WORK/config/tether/config"
T kill-session -t main
start_tether 80 24 "$CONV"
wait_for "Ready for your messages." || fail "tether did not start with input_history = off"
T send-keys -t main Up
hold 0.3 # Up with nothing to recall paints nothing to wait for
screen | grep -qF "> first line" && fail "input_history = off still loaded the history"
T send-keys -t main -l "not to be kept"
T send-keys -t main Enter
wait_traffic '^recv [0-9]+ .*not to be kept' || fail "the message was not sent"
[ "$(cat "$file")" = "$before" ] || fail "input_history = off still wrote the file"
no_sanitizer_report
echo ok
