#!/usr/bin/env bash
# Issue 27 point 3: /copy under tmux. tmux's default set-clipboard (external) drops OSC 52
# from programs: tether says so and writes the copy file. With set -g set-clipboard on, the
# OSC 52 sequence reaches tmux, whose buffer then holds the text: the focused item, or the
# last N items, as shown — a secret masked, never the secret itself.
. "$(dirname "$0")/lib.sh" "$@"

secret=tok-Zq9VX7wKpL3mN8rT
printf '%s\n' "$secret" >"$WORK/mask"
start_fixture "$DATA/tui_secret.scenario" --set "secret=$secret"
start_tether 100 30 --mask-file "$WORK/mask" "$CONV"
wait_for "Secret test done." || fail "the conversation did not finish"
# says TEXT: the screen shows TEXT, also wrapped over lines.
says() { screen | tr '\n' ' ' | grep -qF -- "$1"; }
buffer_is() { [ "$(T show-buffer 2>/dev/null)" = "$1" ]; }
copy() {
	T send-keys -t main -l "/copy$1"
	T send-keys -t main Enter
}

# --- refused by tmux: the reason named, the file written -------------------------------------
[ "$(T show-options -gv set-clipboard)" = external ] || fail "tmux's default set-clipboard is not external here"
copy ""
wait_until 5 says "tmux takes no clipboard from programs (set-clipboard external): set -g set-clipboard on" ||
	fail "/copy did not say why not the clipboard, naming tmux's setting"
[ "$(cat "$WORK/run/tether-copy.txt")" = "Secret test done." ] || fail "the copy file has '$(cat "$WORK/run/tether-copy.txt")'"
grep -aqF $'\e]52;' "$WORK/bytes" && fail "OSC 52 was sent although tmux drops it"

# --- set-clipboard on: through OSC 52 into tmux's buffer ----------------------------------------
T set -g set-clipboard on
T send-keys -t main M-Up M-Up
wait_for "copy <secret-hidden> end" 5 || fail "no item to focus"
copy ""
wait_for "to the clipboard (OSC 52)" 5 || fail "/copy did not use OSC 52 with set-clipboard on"
wait_until 5 buffer_is "durable copy <secret-hidden> end" ||
	fail "tmux's buffer has '$(T show-buffer 2>&1)', not the focused item"
copy " 2"
want=$'agent:\nthe token is <secret-hidden> and more text after it\n\nagent:\ndurable copy <secret-hidden> end'
wait_until 5 buffer_is "$want" ||
	fail "/copy 2 put '$(T show-buffer 2>&1)' in tmux's buffer"
copy " 0"
wait_for "/copy N takes a number of items from 1 to 1000" 5 || fail "/copy 0 was not refused in words"
T list-buffers -F '#{buffer_sample}' | grep -qF "$secret" && fail "a secret reached tmux's buffers"
grep -aqF -e "$secret" "$WORK/bytes" && fail "the secret was written to the terminal"
grep -aqF "$(printf '%s' "$secret" | base64)" "$WORK/bytes" && fail "the secret was sent through OSC 52"
quit_and_stop

# --- a card: its tool and command, then its whole output ------------------------------------------
start_fixture "$DATA/tui_cards.scenario"
start_tether 100 40 "$CONV"
wait_for "One test fails: test_case_095." || fail "the cards did not show"
T set -g set-clipboard on
T send-keys -t main M-Up M-Up M-Up
wait_for "… 2 more lines · Tab expands · Ctrl-O opens" 5 || fail "Alt-Up did not focus the traceback card"
copy ""
wait_until 5 eval '[ "$(T show-buffer 2>/dev/null | head -1)" = "terminal: python -m report tests/fixtures/empty.csv" ]' ||
	fail "the card's copy starts with '$(T show-buffer 2>&1 | head -1)'"
T show-buffer | tail -1 | grep -qF "ZeroDivisionError: division by zero" ||
	fail "the card's copy does not end with its output's last line: $(T show-buffer | tail -1)"
quit_and_stop

# --- not under tmux: the terminal's own answer decides ---------------------------------------
# (tether run without $TMUX; tmux still answers DA1 but not XTGETTCAP, as a terminal that
# does not know OSC 52 would; the answer "Ms" is then written to the pane as the terminal's.)
printf '#!/bin/sh\nunset TMUX\nexec %q "$@"\n' "$TETHER" >"$WORK/tether-no-tmux"
chmod +x "$WORK/tether-no-tmux"
TETHER="$WORK/tether-no-tmux"
: >"$WORK/bytes"
start_fixture "$DATA/tui_secret.scenario" --set "secret=$secret"
start_tether 100 30 --mask-file "$WORK/mask" "$CONV"
wait_for "Secret test done." || fail "the conversation did not finish (no tmux)"
wait_until 5 grep -qaF $'\eP+q4d73\e\\\e[c' "$WORK/bytes" || fail "the terminal was not asked for Ms"
copy ""
wait_until 5 says "the terminal did not say it takes OSC 52 (osc52 = on sends it anyway)" ||
	fail "/copy did not say the terminal is silent"
grep -aqF $'\e]52;' "$WORK/bytes" && fail "OSC 52 was sent to a terminal that did not say it takes it"
T send-keys -t main -H $(printf '%s' $'\eP1+r4d73=5c455d35323b25703125733b25703225735c303037\e\\' | od -An -tx1)
copy ""
wait_for "to the clipboard (OSC 52)" 5 || fail "/copy did not use OSC 52 once the terminal said Ms"
wait_until 5 grep -aqF $'\e]52;c;'"$(printf 'Secret test done.' | base64)"$'\a' "$WORK/bytes" ||
	fail "no OSC 52 sequence with the message in what tether wrote"
no_sanitizer_report
echo ok
