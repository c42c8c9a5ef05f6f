#!/usr/bin/env bash
# The editor of issue 15 point 7 as a user meets it: Ctrl-X Ctrl-E and /edit open $EDITOR on
# the draft (a 0600 file in $XDG_RUNTIME_DIR, removed after), the edited text comes back as
# the draft (not sent), the keys typed meanwhile are the editor's and nothing is painted over
# it; an editor that fails or cannot run leaves the draft as it was; what comes back is
# cleaned like a paste and capped. Ctrl-U twice clears a 200-line paste and Ctrl-Y restores
# it. The cursor steps over a grapheme cluster whole (कि, Left, X → Xकि).
. "$(dirname "$0")/lib.sh" "$@"

# The stub editor does what $WORK/mode says, and notes the file's mode and directory.
cat >"$WORK/stub-editor" <<EOF
#!/bin/sh
W='$WORK'
EOF
cat >>"$WORK/stub-editor" <<'EOF'
stat -c '%a %n' "$1" >"$W/seen"
case $(cat "$W/mode") in
append) printf 'appended by the stub editor\n' >>"$1" ;;
read)
	printf 'STUB EDITOR: type a line\n'
	IFS= read -r line
	printf '%s\n' "$line" >>"$1" ;;
fail) printf 'junk\n' >>"$1"; exit 3 ;;
controls) printf 'red \033[31mtext\033[0m and a bell\007 \302\233x\n' >"$1" ;;
missing) exec "$W/no-such-editor" "$1" ;;
huge) head -c 9000000 /dev/zero | tr '\0' 'z' >"$1" ;;
esac
EOF
chmod +x "$WORK/stub-editor"
export VISUAL= EDITOR="$WORK/stub-editor"
mode() { echo "$1" >"$WORK/mode"; }

start_fixture "$DATA/tui_chat.scenario"
# Pings every half second and a short stall timeout: a loop that stopped while the editor
# is open would lose the connection.
start_tether 80 24 --ping-interval 0.5 --stall-timeout 1.5 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"
wait_traffic '^conn 1 ' || fail "no connection"

# Ctrl-X and another key: the key does its usual job and the hint goes.
T send-keys -t main C-x
wait_for "Ctrl-E edits the draft in" 5 || fail "Ctrl-X did not say what comes next"
T send-keys -t main -l "q"
wait_for "> q" 5 || fail "the key after Ctrl-X was lost"
wait_gone "Ctrl-E edits the draft in" 2 || fail "the Ctrl-X hint stayed after another key"
T send-keys -t main BSpace

# Round trip: the draft goes to the editor, comes back with its line, and is not sent.
mode append
T send-keys -t main -l "draft one"
T send-keys -t main C-x
wait_for "Ctrl-E edits the draft in" 5 || fail "Ctrl-X did not say what comes next"
T send-keys -t main C-e
wait_for "  appended by the stub editor" 5 || fail "the edited text did not come back"
screen | grep -qF "> draft one" || fail "the draft's first line is lost"
screen | grep -qF "the draft is back from the editor" || fail "no notice"
read -r perm path <"$WORK/seen"
[ "$perm" = 600 ] || fail "the draft file was $perm, not 0600"
case $path in "$WORK/run/"*) ;; *) fail "the draft file was not in XDG_RUNTIME_DIR: $path" ;; esac
[ -e "$path" ] && fail "the draft file was left behind"
hold 0.3 # a draft sent wrongly would reach the fixture within this
grep -q 'appended by the stub' "$WORK/traffic" && fail "the edited draft was sent without Enter"
T send-keys -t main Enter
wait_traffic '^(recv [0-9]+|rest POST [^ ]*/events [0-9]+) .*"draft one(\\n|\\u000a)appended by the stub editor"' ||
	fail "the edited draft did not go out as one message"

# While the editor runs the keys are its own and tether paints nothing, not even on resize.
mode read
T send-keys -t main -l "second draft"
T send-keys -t main C-x C-e
wait_for "STUB EDITOR: type a line" 5 || fail "the editor did not get the terminal"
T resize-window -t main -x 70 -y 20
hold 3 # no paint after SIGWINCH, and the connection kept while the editor runs: for 3 s
screen | grep -qF "Chat screen test" && fail "tether painted over the editor"
T send-keys -t main -l "typed in the editor"
T send-keys -t main Enter
wait_for "  typed in the editor" 5 || fail "the line typed in the editor did not come back"
screen | grep -qF "> second draft" || fail "the draft is not the editor's file"
grep -q '^conn 2 ' "$WORK/traffic" && fail "the connection was lost while the editor ran"

# A failing editor leaves the draft as it was, and says so.
mode fail
T send-keys -t main C-x C-e
wait_for "draft kept: the editor exited with status 3" 5 || fail "no notice of the failure"
screen | grep -qF "junk" && fail "a failed edit changed the draft"
screen | grep -qF "  typed in the editor" || fail "the draft was lost"
# So does one that cannot be run (sh's 127, as for an $EDITOR naming no program).
mode missing
T send-keys -t main C-x C-e
wait_for "draft kept: cannot run the editor" 5 || fail "a missing editor was not reported"
screen | grep -qF "  typed in the editor" || fail "the draft was lost"

# Empty the input: Ctrl-U at the start of the last line takes everything.
T send-keys -t main C-u C-u
wait_gone "typed in the editor" 5 || fail "Ctrl-U twice did not clear the draft"

# What comes back is cleaned like a paste: no escape sequence, bell or C1 control.
mode controls
T send-keys -t main -l "/edit"
T send-keys -t main Enter
wait_for "> red text and a bell x" 5 || fail "the edited text was not cleaned: $(screen | tail -2)"
# (tether's own title sequences end in BEL: they are taken out first)
if sed $'s/\e][02];tether: [^\a]*\a//g' "$WORK/bytes" | grep -qaE $'\x1b\\[31m|\a'; then
	fail "a control from the file reached the terminal"
fi
# A huge file is cut, with a notice.
mode huge
T send-keys -t main C-u C-u
T send-keys -t main -l "/edit"
T send-keys -t main Enter
wait_for "only its first 8 MiB is in the draft" 10 || fail "a huge file was not capped with a notice"
T send-keys -t main C-u C-u
wait_gone "zzzz" 5 || fail "the huge draft was not cleared"

# Clear-all after a 200-line paste, and Ctrl-Y brings it all back.
seq -f 'pasted line %g' 200 | head -c -1 >"$WORK/paste"
T load-buffer -b page "$WORK/paste"
T paste-buffer -p -b page -t main
wait_for "  pasted line 200" 10 || fail "the paste is not in the input"
T send-keys -t main C-u
wait_gone "pasted line 200" 5 || fail "Ctrl-U did not clear the last line"
screen | grep -qF "pasted line 199" || fail "the first Ctrl-U took more than the line"
T send-keys -t main C-u
wait_gone "pasted line" 5 || fail "the second Ctrl-U did not clear the whole draft"
screen | grep -qE '^> *(message the agent · .*)?$' || fail "the input is not empty"
T send-keys -t main C-y
wait_for "  pasted line 200" 5 || fail "Ctrl-Y did not bring the draft back"
T send-keys -t main Enter
wait_traffic '^(recv [0-9]+|rest POST [^ ]*/events [0-9]+) .*"pasted line 1(\\n|\\u000a)pasted line 2(\\n|\\u000a).*pasted line 200"' ||
	fail "the restored draft did not go out whole"

# /clear typed before a draft empties it, and nothing is sent.
T send-keys -t main -l "a draft to drop"
T send-keys -t main C-a
T send-keys -t main -l "/clear "
T send-keys -t main Enter
wait_for "input emptied" 5 || fail "/clear said nothing"
screen | grep -qF "a draft to drop" && fail "/clear left the draft"
grep -q 'a draft to drop' "$WORK/traffic" && fail "/clear sent the draft"

# The cursor moves by grapheme cluster.
T send-keys -t main -l "कि"
T send-keys -t main Left
T send-keys -t main -l "X"
wait_for "> Xकि" 5 || fail "Left stepped into the cluster: $(screen | tail -1)"
T send-keys -t main End BSpace
wait_for "> X" 5 && ! screen | grep -qF "> Xक" || fail "Backspace did not take the whole cluster"

T send-keys -t main C-u C-d
wait_exit || fail "Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "exit status $RC"
ls "$WORK/run" | grep -q . && fail "files left in XDG_RUNTIME_DIR: $(ls "$WORK/run")"

# The server goes away for good while the editor is open: tether waits for the user to
# finish, then exits and says where the message is kept.
T kill-session -t main
start_tether 80 24 --max-retries 1 "$CONV"
wait_for " live · " || fail "tether did not start again"
mode read
T send-keys -t main -l "words not yet sent"
T send-keys -t main C-x C-e
wait_for "STUB EDITOR: type a line" 5 || fail "the editor did not open"
kill "$SRV"
wait "$SRV" 2>/dev/null
SRV=
hold 4 # the one retry and the giving up (--max-retries 1) come within this
[ -e "$WORK/rc" ] && fail "tether quit under the editor"
T send-keys -t main -l "and the end of them"
T send-keys -t main Enter
wait_exit 10 || fail "tether did not exit once the editor was done"
[ "$RC" = 5 ] || fail "exit status $RC, not 5 (gave up)"
kept=$(sed -n 's/^tether: the message you were editing is kept in //p' "$WORK/stderr")
[ -n "$kept" ] || fail "no line saying where the message is kept"
[ "$(cat "$kept")" = "$(printf 'words not yet sent\nand the end of them')" ] ||
	fail "the kept file does not hold the message: $(cat "$kept")"
no_sanitizer_report

# SIGTERM while the editor is open: the editor is hung up, its file removed, tether exits.
T kill-session -t main
start_fixture "$DATA/tui_chat.scenario"
start_tether 80 24 "$CONV"
wait_for "Ready for your messages." || fail "tether did not start a third time"
mode read
T send-keys -t main -l "to be hung up"
T send-keys -t main C-x C-e
wait_for "STUB EDITOR: type a line" 5 || fail "the editor did not open"
read -r _ path <"$WORK/seen"
[ -e "$path" ] || fail "no draft file while the editor runs"
kill -TERM "$(cat "$WORK/pid")"
wait_exit 10 || fail "SIGTERM did not end tether while the editor ran"
[ "$RC" = 143 ] || fail "exit status $RC after SIGTERM"
[ -e "$path" ] && fail "the draft file was left behind after SIGTERM"
pgrep -f "$WORK/stub-editor" >/dev/null && fail "the editor outlived tether"
grep -q "kept in" "$WORK/stderr" && fail "a hung-up editor's file was said to be kept"
no_sanitizer_report
echo ok
