#!/usr/bin/env bash
# A terminal the interface cannot be drawn on is refused with one line that suggests
# --headless, exit 2, before anything is drawn or fetched: TERM=dumb, a TERM terminfo does
# not know, no TERM. Absurd $LINES/$COLUMNS are ignored: the kernel's size is used.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"
REAL=$TETHER
TETHER="$WORK/tether-env"

# with_env ENV...: tether runs under these environment changes.
with_env() {
	{
		echo '#!/bin/bash'
		printf 'exec env'
		printf ' %q' "$@" "$REAL"
		echo ' "$@"'
	} >"$TETHER"
	chmod +x "$TETHER"
}

# refused WHAT TEXT [ARG...]: tether exits 2 with one line holding TEXT and the hint.
refused() {
	local what=$1 text=$2
	shift 2
	fresh_tmux
	rm -f "$WORK/bytes"
	start_tether 80 24 "$@"
	wait_exit 10 || fail "$what: tether did not exit"
	[ "$RC" = 2 ] || fail "$what: exit status $RC, not 2"
	[ "$(wc -l <"$WORK/stderr")" = 1 ] || fail "$what: not one line on stderr"
	grep -qF -- "$text" "$WORK/stderr" || fail "$what: the message does not say '$text'"
	grep -qF -- "--headless" "$WORK/stderr" || fail "$what: the message does not suggest --headless"
	grep -qaF $'\e[?1049h' "$WORK/bytes" 2>/dev/null && fail "$what: the screen was taken"
	cmp -s "$WORK/stty_before" "$WORK/stty_after" || fail "$what: the tty mode changed"
	grep -q '^conn ' "$WORK/traffic" 2>/dev/null && fail "$what: tether connected anyway"
	no_sanitizer_report
}

with_env TERM=dumb
refused "TERM=dumb" "TERM=dumb cannot move the cursor" "$CONV"
refused "TERM=dumb, picker" "TERM=dumb cannot move the cursor"
with_env TERM=nonexistent-terminal-xyz
refused "unknown TERM" "TERM=nonexistent-terminal-xyz is not a terminal type known here" "$CONV"
refused "unknown TERM, picker" "TERM=nonexistent-terminal-xyz is not a terminal type known here"
# "unknown" (what some systems set): refused whether terminfo has an entry (a generic one
# that cannot move the cursor) or not.
with_env TERM=unknown
refused "TERM=unknown" "TERM=unknown" "$CONV"
with_env -u TERM
refused "no TERM" "TERM is not set" "$CONV"
with_env "TERM=$(printf 'x\033]0;owned\007')"
refused "TERM with escapes" "TERM is not the name of a terminal type" "$CONV"
grep -qaF $'\e]0;' "$WORK/stderr" && fail "TERM's escape sequence was printed"

# Absurd sizes in the environment: the interface runs at the real size.
with_env LINES=100000000 COLUMNS=100000000
fresh_tmux
start_tether 80 24 "$CONV"
wait_for "Ready for your messages." || fail "huge LINES/COLUMNS: the conversation did not show"
[ "$(screen | wc -L)" -le 80 ] || fail "huge LINES/COLUMNS: drawn wider than the terminal"
T send-keys -t main C-d
wait_exit || fail "huge LINES/COLUMNS: Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "huge LINES/COLUMNS: exit status $RC"
no_sanitizer_report
echo ok
