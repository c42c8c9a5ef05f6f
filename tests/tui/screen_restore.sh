#!/usr/bin/env bash
# However tether ends — /quit, SIGTERM, a crash (SIGSEGV) — the terminal gets back its
# original mode, the main screen and bracketed paste off; a suspend (SIGTSTP) gives the
# terminal back too and SIGCONT takes it again.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"

# check_restored HOW: tty mode, screen and paste mode are as before tether started.
check_restored() {
	[ -s "$WORK/stty_before" ] && [ -s "$WORK/stty_after" ] || fail "$1: no tty modes recorded"
	cmp -s "$WORK/stty_before" "$WORK/stty_after" ||
		fail "$1: the tty mode was not restored ($(cat "$WORK/stty_before") -> $(cat "$WORK/stty_after"))"
	[ "$(T display -p -t main '#{alternate_on}')" = 0 ] || fail "$1: still on the alternate screen"
	paste_mode "$1" l
}

# paste_mode HOW h|l: the last bracketed-paste switch written to the terminal.
paste_mode() {
	local last
	last=$(grep -ao $'\e\\[?2004[hl]' "$WORK/bytes" | tail -n 1)
	[ "$last" = $'\e[?2004'"$2" ] || fail "$1: bracketed paste is not ${2/l/off}${2/h/on}"
}

run() {
	tmux_stop
	rm -f "$WORK/bytes"
	start_tether 80 24 "$CONV"
	wait_for "Ready for your messages." || fail "$1: the conversation did not show"
	[ "$(T display -p -t main '#{alternate_on}')" = 1 ] || fail "$1: not on the alternate screen"
	paste_mode "$1" h
}

run quit
T send-keys -t main -l "/quit"
T send-keys -t main Enter
wait_exit || fail "/quit did not quit"
[ "$RC" = 0 ] || fail "/quit: exit status $RC"
check_restored quit
no_sanitizer_report

run SIGTERM
kill -TERM "$(cat "$WORK/pid")"
wait_exit || fail "SIGTERM did not end tether"
[ "$RC" = 143 ] || fail "SIGTERM: exit status $RC"
check_restored SIGTERM
no_sanitizer_report

run SIGSEGV
kill -SEGV "$(cat "$WORK/pid")"
wait_exit || fail "SIGSEGV did not end tether"
[ "$RC" = 139 ] || fail "SIGSEGV: exit status $RC (not killed by the signal)"
check_restored SIGSEGV

run suspend
pid=$(cat "$WORK/pid")
kill -TSTP "$pid"
alternate_is() { [ "$(T display -p -t main '#{alternate_on}')" = "$1" ]; }
wait_until 5 alternate_is 0
[ "$(T display -p -t main '#{alternate_on}')" = 0 ] || fail "suspend: the terminal was not given back"
paste_mode suspend l
grep -q '^T' <(awk '{print $3}' "/proc/$pid/stat") || fail "suspend: tether did not stop"
kill -CONT "$pid"
wait_until 5 alternate_is 1
wait_for "Ready for your messages." || fail "resume: the screen was not repainted"
paste_mode resume h
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit after a resume"
[ "$RC" = 0 ] || fail "suspend: exit status $RC"
check_restored suspend
no_sanitizer_report
echo ok
