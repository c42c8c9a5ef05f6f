#!/usr/bin/env bash
# The keys as tmux sends them reach their bindings through tether's own key reader: Alt-b,
# Ctrl-Left, Home, End, Alt-Enter, Enter, Up (history), Ctrl-Z (suspend: the terminal is
# raw, so Ctrl-Z is a byte, not a signal) and Ctrl-C twice.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"
start_tether 80 24 --ping-interval 60 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"

T send-keys -t main -l "hello world"
T send-keys -t main M-b
T send-keys -t main -l "X"
wait_for "> hello Xworld" || fail "Alt-b did not move a word left"
T send-keys -t main C-Left
T send-keys -t main -l "Y"
wait_for "> hello YXworld" || fail "Ctrl-Left did not move a word left"
T send-keys -t main Home
T send-keys -t main -l "Z"
T send-keys -t main End
T send-keys -t main -l "!"
wait_for "> Zhello YXworld!" || fail "Home/End did not go to the line's start and end"
T send-keys -t main M-Enter
T send-keys -t main -l "second"
wait_for "  second" || fail "Alt-Enter did not start a new line"
hold 0.2 # a message sent wrongly would reach the fixture within this
grep -q 'Zhello' "$WORK/traffic" && fail "Alt-Enter sent the message"
T send-keys -t main Enter
wait_traffic '^recv 1 .*"Zhello YXworld!(\\n|\\u000a)second"' || fail "Enter did not send the two lines"
wait_gone "  second" || fail "the input was not emptied"
T send-keys -t main Up
wait_for "> Zhello YXworld!" || fail "Up did not bring back the last message"

# Ctrl-Z: the terminal is given back and tether stops; SIGCONT takes the screen again.
pid=$(cat "$WORK/pid")
T send-keys -t main C-z
main_screen() { [ "$(T display -p -t main '#{alternate_on}')" = 0 ]; }
wait_until 5 main_screen
[ "$(T display -p -t main '#{alternate_on}')" = 0 ] || fail "Ctrl-Z did not give the terminal back"
grep -q '^T' <(awk '{print $3}' "/proc/$pid/stat") || fail "Ctrl-Z did not stop tether"
kill -CONT "$pid"
wait_for "Zhello YXworld!" || fail "the screen was not repainted after Ctrl-Z and SIGCONT"
T send-keys -t main C-c
wait_for "press Ctrl-C again to quit" || fail "Ctrl-C did not warn"
T send-keys -t main C-c
wait_exit || fail "Ctrl-C twice did not quit"
[ "$RC" = 130 ] || fail "exit status $RC after Ctrl-C twice"
cmp -s "$WORK/stty_before" "$WORK/stty_after" || fail "the tty mode was not restored"
no_sanitizer_report
echo ok
