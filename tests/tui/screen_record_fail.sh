#!/usr/bin/env bash
# A --record that cannot be written ends the TUI with exit 1, and the reason is seen: it is
# printed once the terminal is given back, not lost under the screen. A --record that cannot
# be opened is a usage error before the screen is taken.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"
start_tether 80 24 --record /dev/full "$CONV"
wait_until 30 test -e "$WORK/rc" || fail "tether did not end"
[ "$(cat "$WORK/rc")" = 1 ] || fail "exit status $(cat "$WORK/rc"), not 1"
[ "$(grep -c -- '--record /dev/full: cannot write: No space left on device' "$WORK/stderr")" = 1 ] ||
	fail "the write failure was not reported once after the screen"
no_sanitizer_report
tmux_stop
start_tether 80 24 --record "$WORK" "$CONV"
wait_until 10 test -e "$WORK/rc"
[ "$(cat "$WORK/rc" 2>/dev/null)" = 2 ] || fail "an unopenable --record is not exit 2"
grep -qF -- "--record $WORK: Is a directory" "$WORK/stderr" || fail "the reason is not said"
echo ok
