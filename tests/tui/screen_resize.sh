#!/usr/bin/env bash
# Resizing in the middle of a stream (narrower, wider, tiny) re-wraps everything and loses or
# duplicates no line; below 80x24 the screen degrades instead of crashing.
. "$(dirname "$0")/lib.sh" "$@"

# Agent prose reflows (issue 15.5): two blanks at each line's end make it a hard break, so
# every line keeps a row of its own while the paragraph is laid out again as it grows.
history=$(for i in $(seq -w 1 20); do printf 'past %s  \\n' "$i"; done)
lines=$(for i in $(seq -w 1 200); do printf 'line %s  \\n' "$i"; done)
start_fixture "$DATA/tui_resize.scenario" --set "history=$history" --set "lines=$lines"
start_tether 80 24 "$CONV"
wait_for "past 20" || fail "the history did not show"
rest POST "/api/conversations/$CONV/run"

wait_for "line 040" || fail "the stream did not start"
T resize-window -t main -x 50 -y 16
wait_for "line 080" || fail "the stream stopped after a resize"
T resize-window -t main -x 10 -y 3
hold 0.3 # a few frames at 10x3 (the stream keeps the screen moving: nothing settles to wait for)
T resize-window -t main -x 120 -y 30
wait_for "line 120" || fail "the stream stopped after a resize to 10x3"
T resize-window -t main -x 100 -y 300
wait_for "Resize test done." || fail "the run did not finish"

# Every line once, in order, each on a row of its own.
s=$(screen)
got=$(grep -oE '(past|line) [0-9]+' <<<"$s" | tr '\n' ' ')
want=$( (seq -w 1 20 | sed 's/^/past /'; seq -w 1 200 | sed 's/^/line /') | tr '\n' ' ')
[ "$got" = "$want" ] || fail "lines lost, duplicated or out of order after resizes"

# Tiny terminals still work: the input keeps its line, and typing shows.
T resize-window -t main -x 10 -y 3
T send-keys -t main -l "abc"
wait_for "> abc" || fail "the input does not work at 10x3"
T resize-window -t main -x 80 -y 24
wait_for "Resize test done." || fail "the transcript did not come back after 10x3"
kill -0 "$(cat "$WORK/pid")" || fail "tether died"
no_sanitizer_report
echo ok
