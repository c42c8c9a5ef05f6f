#!/usr/bin/env bash
# A streamed answer appears progressively and ends complete, once, as the durable message
# says; a retried stream does not show the first attempt's text; an aborted stream leaves
# nothing behind; Esc interrupts a running agent, whose answer so far stays, marked.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_stream.scenario"
start_tether 80 40 "$CONV"
wait_for "History answer: once upon a time." || fail "the history did not show"
rest POST "/api/conversations/$CONV/run"

# Progressive: some of the answer is on screen before all of it is.
partial=0
for _ in $(seq 300); do
	s=$(screen)
	if grep -qF "Alpha line" <<<"$s"; then
		grep -qF "Delta line four, the last one." <<<"$s" || partial=1
		break
	fi
	pause 0.05
done
[ "$partial" = 1 ] || fail "the answer did not appear progressively"

wait_for "After the abort." || fail "the run did not finish"
s=$(screen)
expected="Alpha line one of the answer. Bravo line two of the answer. Charlie line three of the answer. Delta line four, the last one."
# Complete and identical to the durable message: the four lines, in order, each exactly
# once; one paragraph, so its soft breaks reflow (issue 15.5): the rows up to the blank one
# after it, joined, are the text.
got=$(awk '/Alpha line one/{on=1} on&&/^ *$/{exit} on' <<<"$s" | sed 's/^ *//; s/ *$//' |
	tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$expected" ] || fail "the answer on screen is not the durable text: $got"
for line in "Alpha line one" "Bravo line two" "Charlie line three" "Delta line four"; do
	[ "$(grep -cF "$line" <<<"$s")" = 1 ] || fail "'$line' is not shown exactly once"
done
[ "$(grep -cF "Retried answer survives." <<<"$s")" = 1 ] || fail "the retried answer is not shown once"
grep -qF "Wrong first attempt" <<<"$s" && fail "the superseded attempt's text is still shown"
grep -qF "Doomed partial" <<<"$s" && fail "the aborted stream left text behind"

# Esc interrupts a running agent, and only a running one.
T send-keys -t main Escape
wait_for "nothing to interrupt: the agent is idle" || fail "Esc on an idle agent did not say so"
grep -q '/interrupt' "$WORK/traffic" && fail "Esc interrupted an idle agent"
T send-keys -t main -l "go slowly"
T send-keys -t main Enter
wait_for "Slow answer" || fail "the slow answer did not start"
# While an answer streams and nothing is typed the cursor is hidden, left where the text
# ends (no move back to the input line every frame); it comes back when the stream ends.
[ "$(T display -p -t main '#{cursor_flag}')" = 0 ] || fail "the cursor shows while an answer streams"
T send-keys -t main Escape
wait_traffic "^rest POST /api/conversations/$CONV/interrupt 200" || fail "Esc did not interrupt"
wait_for "agent (interrupted)" || fail "the answer cut short is not marked interrupted"
for _ in $(seq 50); do [ "$(T display -p -t main '#{cursor_flag}')" = 1 ] && break; pause 0.05; done
[ "$(T display -p -t main '#{cursor_flag}')" = 1 ] || fail "the cursor did not come back after the stream"
screen | grep -qF "Slow answer" || fail "the answer cut short vanished"
wait_for "paused" || fail "the status line does not show the pause"

# Two SIGINTs in a row may merge into one pending signal: the second Ctrl-C waits for the
# first one's notice, as a person would.
T send-keys -t main C-c
wait_for "press Ctrl-C again to quit" || fail "the first Ctrl-C was not noticed"
T send-keys -t main C-c
wait_exit || fail "Ctrl-C twice did not quit"
[ "$RC" = 130 ] || fail "exit status $RC after Ctrl-C twice"
no_sanitizer_report
echo ok
