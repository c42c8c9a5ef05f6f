#!/usr/bin/env bash
# Calling the user back (issue 15 point 3): the terminal title names the conversation and
# its state and comes back after a suspend and on exit; the bell rings once when a
# confirmation is asked and once when a run of more than bell_after seconds ends, never for
# the history replayed at start; notify = osc9 writes OSC 9 (in tmux's passthrough wrapper).
# tether runs in window 0 while window 1 is the current one, as when the user is elsewhere.
. "$(dirname "$0")/lib.sh" "$@"

screen() { T capture-pane -p -t main:0; }
title() { T display -p -t main:0 '#{pane_title}'; }
bell_flag() { T display -p -t main:0 '#{window_bell_flag}'; }
# The bell flag is cleared when its window is selected.
clear_bell() { T select-window -t main:0; T select-window -t main:1; }
wait_title() {
	for _ in $(seq 100); do [ "$(title)" = "$1" ] && return 0; pause 0.1; done
	return 1
}
wait_bell() {
	for _ in $(seq "${2:-100}"); do [ "$(bell_flag)" = "$1" ] && return 0; pause 0.1; done
	return 1
}
# notices [TEXT]: how many OSC 9 notifications (with TEXT) were written, in tmux's wrapper.
notices() {
	if [ $# -eq 0 ]; then
		grep -aoF -- $'\eP''tmux;'$'\e\e'"]9;" "$WORK/bytes" | wc -l
	else
		grep -aoF -- $'\eP''tmux;'$'\e\e'"]9;$1"$'\a\e\\' "$WORK/bytes" | wc -l
	fi
}

mkdir -p "$WORK/config/tether"
printf 'notify = osc9\nbell_after = 1\n' >"$WORK/config/tether/config"
start_fixture "$DATA/tui_attention.scenario" --set run=4 --set tail=1.5
start_tether 100 24 "$CONV"
T new-window -t main:1 'exec sleep 600'
fresh=$(T display -p -t main:1 '#{pane_title}')
wait_for "Earlier run done." || fail "the conversation did not show"

# Idle after catch-up: the title says so; the replayed run and confirmation rang nothing.
wait_title "tether: Fix the tests — idle" || fail "title '$(title)', not the idle one"
[ "$(bell_flag)" = 0 ] || fail "the history replayed at start rang the bell"
[ "$(notices)" = 0 ] || fail "the history replayed at start sent a notification"

# Running: the title follows, the status line counts the time.
wait_title "tether: Fix the tests — running" || fail "title '$(title)' while running"
wait_for "running 0:01" || fail "the status line shows no running time"
wait_for "running 0:02" || fail "the running time does not advance"
screen | grep -qF "Esc interrupts" || fail "the status line does not say Esc interrupts while running"
[ "$(bell_flag)" = 0 ] || fail "the run starting rang the bell"

# A confirmation: one bell, one notification, the title says it.
wait_title "tether: Fix the tests — needs confirmation" || fail "title '$(title)' for a confirmation"
wait_bell 1 || fail "no bell for the confirmation (window_bell_flag $(bell_flag))"
one_notice() { [ "$(notices)" = 1 ]; }
wait_until 3 one_notice
[ "$(notices 'tether: Fix the tests: needs confirmation')" = 1 ] ||
	fail "no OSC 9 notification for the confirmation: $(grep -ao $'\e''P[^\\]*' "$WORK/bytes" | cat -v)"
clear_bell
hold 0.5 # a second bell would ring within a frame or two of the first
[ "$(bell_flag)" = 0 ] || fail "the confirmation rang more than once"

# Answered: the run goes on for more than bell_after, then ends: one more bell.
T send-keys -t main:0 Tab
T send-keys -t main:0 y
wait_title "tether: Fix the tests — running" || fail "title '$(title)' after allowing"
wait_title "tether: Fix the tests — idle" || fail "title '$(title)' after the run"
wait_bell 1 || fail "no bell when the run ended"
for _ in $(seq 30); do [ "$(notices 'tether: Fix the tests: idle after running 0:01')" = 1 ] && break; pause 0.1; done
[ "$(notices 'tether: Fix the tests: idle after running 0:01')" = 1 ] ||
	fail "no notification for the run's end: $(grep -ao $'\e''P[^\\]*' "$WORK/bytes" | cat -v)"
[ "$(notices)" = 2 ] || fail "$(notices) notifications, not 2"

# Suspend gives the title back; coming back sets it again; exit gives it back.
T send-keys -t main:0 C-z
wait_title "$fresh" || fail "after Ctrl-Z the title is '$(title)', not '$fresh'"
kill -CONT "$(cat "$WORK/pid")"
wait_title "tether: Fix the tests — idle" || fail "after SIGCONT the title is '$(title)'"
T send-keys -t main:0 -l "/quit"
T send-keys -t main:0 Enter
wait_exit || fail "/quit did not quit"
wait_title "$fresh" || fail "after exit the title is '$(title)', not '$fresh'"
no_sanitizer_report

# A crash gives the title back too (the fatal-signal path writes the same restore bytes).
tmux_stop
# the old server is gone before the new one starts (else it may answer, exiting)
server_gone() { T list-sessions 2>&1 | grep -q "no server running"; }
wait_until 5 server_gone
start_tether 100 24 "$CONV"
T new-window -t main:1 'exec sleep 600'
wait_title "tether: Fix the tests — idle" || fail "title '$(title)' after a restart"
kill -SEGV "$(cat "$WORK/pid")"
wait_exit || fail "SIGSEGV did not end tether"
wait_title "$fresh" || fail "after a crash the title is '$(title)', not '$fresh'"
echo ok
