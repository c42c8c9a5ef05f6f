#!/usr/bin/env bash
# Every notice true when shown and gone when no longer true (issue 15, point 6): Esc
# interrupts only a run in progress on the plain prompt, never as the second Esc that leaves
# a search or the overlay; the answer cut short stays, marked interrupted; "interrupting…"
# goes when the interrupt lands; /pause while paused, /resume (POST run) and /resume when
# not paused, /confirm and /reject with nothing waiting, /interrupt when idle say what is
# true; "allowed; waiting for the agent" goes when the agent goes on.
. "$(dirname "$0")/lib.sh" "$@"

interrupts() { grep -c 'rest POST [^ ]*/interrupt ' "$WORK/traffic"; }

start_fixture "$DATA/tui_notices.scenario"
start_tether 100 24 "$CONV"
wait_for "Ready." || fail "the history did not show"

# Idle: Esc interrupts nothing and says so; /interrupt too.
T send-keys -t main Escape
wait_for "nothing to interrupt: the agent is idle" || fail "Esc while idle did not say so"
T send-keys -t main -l "/interrupt"
T send-keys -t main Enter
wait_for "nothing to interrupt: the agent is idle" || fail "/interrupt while idle did not say so"
for cmd in confirm reject; do
	T send-keys -t main -l "/$cmd"
	T send-keys -t main Enter
	wait_for "nothing is waiting for confirmation" || fail "/$cmd with nothing pending did not say so"
	T send-keys -t main -l "/help"  # another notice in between, so the next one is seen anew
	T send-keys -t main Enter
	wait_for "Keys and commands" || fail "/help did not open the overlay"
	T send-keys -t main q
	wait_gone "Keys and commands" || fail "q did not close the overlay"
done
T send-keys -t main -l "/resume"
T send-keys -t main Enter
wait_for "nothing to resume: the agent is idle, not paused" || fail "/resume while idle did not say so"
hold 0.3 # a request sent wrongly would reach the fixture within this
grep -q 'rest POST [^ ]*/run ' "$WORK/traffic" && fail "/resume while idle asked the server to run"
[ "$(interrupts)" = 0 ] || fail "an interrupt was sent while idle"

# A run streams slowly.
T send-keys -t main -l "go"
T send-keys -t main Enter
wait_for "Partial answer" || fail "the answer did not start streaming"

# The second Esc that leaves a search, or the overlay, is no interrupt.
T send-keys -t main C-r
wait_for "search:" || fail "Ctrl-R did not start a search"
T send-keys -t main -l "Ready"
T send-keys -t main Escape Escape
wait_gone "search:" || fail "Esc did not end the search"
wait_for "Esc again interrupts the agent" || fail "the second Esc did not say what a third does"
T send-keys -t main -l "?"
wait_for "Keys and commands" || fail "? did not open the overlay"
T send-keys -t main Escape Escape
wait_gone "Keys and commands" || fail "Esc did not close the overlay"
hold 0.5 # an interrupt sent wrongly would reach the fixture within this
[ "$(interrupts)" = 0 ] || fail "an Esc that left the search or the overlay interrupted the agent"

# Now Esc interrupts; the notice goes once the interrupt landed; the partial answer stays.
hold 1.1 # past the 1 s after closing something in which Esc is no interrupt
T send-keys -t main Escape
wait_traffic 'rest POST [^ ]*/interrupt ' || fail "Esc on the plain prompt did not interrupt"
wait_for "paused" || fail "the interrupt did not take"
wait_gone "interrupting the agent" 2 || fail "'interrupting the agent…' stayed after the interrupt landed"
wait_for "agent (interrupted)" || fail "the answer cut short is not marked interrupted"
screen | grep -qF "Partial answer" || fail "the answer cut short vanished"

# Paused: /pause says so; /resume runs (POST run), and its notice goes with the status.
T send-keys -t main -l "/pause"
T send-keys -t main Enter
wait_for "the agent is already paused" || fail "/pause while paused did not say so"
hold 0.3 # a request sent wrongly would reach the fixture within this
grep -q 'rest POST [^ ]*/pause ' "$WORK/traffic" && fail "/pause while paused asked the server"
T send-keys -t main -l "/resume"
T send-keys -t main Enter
wait_traffic 'rest POST [^ ]*/run ' || fail "/resume did not POST run"
wait_for "idle" || fail "the resumed run did not end"
wait_gone "resuming the agent" 2 || fail "'resuming the agent…' stayed after the agent went on"
screen | grep -qF "Partial answer" || fail "the interrupted answer went away"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
no_sanitizer_report

# "allowed; waiting for the agent" goes once the agent goes on, well before 6 s.
fresh_tmux
kill "$SRV" 2>/dev/null
wait "$SRV" 2>/dev/null
SRV=
start_fixture "$DATA/tui_notices_confirm.scenario"
start_tether 100 24 "$CONV"
wait_for "echo cleaning" || fail "the confirmation did not show"
# The keys overlay over the waiting confirmation says it waits.
T send-keys -t main F1
wait_for "Keys and commands · Esc closes · a confirmation waits" ||
	fail "the overlay does not say that a confirmation waits under it"
T send-keys -t main Escape
wait_gone "Keys and commands" || fail "Esc did not close the overlay"
wait_for "echo cleaning" || fail "the confirmation is not back after the overlay"
# Shift-Tab gives the choices the keyboard (else Y would go to the draft); Y is y.
T send-keys -t main BTab
T send-keys -t main Y
wait_traffic 'respond_to_confirmation.*"accept": ?true' || fail "Shift-Tab then Y did not allow"
wait_for "Cleaned." || fail "the run did not go on"
wait_gone "allowed; waiting for the agent" 2 || fail "'allowed; waiting for the agent' stayed after the agent went on"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
no_sanitizer_report
echo ok
