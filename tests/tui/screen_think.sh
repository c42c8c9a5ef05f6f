#!/usr/bin/env bash
# An answer streamed with the model's thinking inline (<think>…</think>): while it streams and
# once it is durable, the thinking is collapsed reasoning and no tag reaches the screen.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/upstream_stream.scenario"
start_tether 100 30 "$CONV"
wait_for "All 7 tests pass." || fail "the streamed answer did not show"
s=$(screen)
grep -qF "agent ▍" <<<"$s" || fail "the answer is no longer streaming: this checks the open stream"
grep -qF "▸ reasoning (3 lines) — Tab to expand" <<<"$s" || fail "the streamed thinking is not collapsed reasoning"
grep -qF "think>" <<<"$s" && fail "a think tag is on screen while streaming"
grep -qF "Check the test run first." <<<"$s" && fail "the thinking shows as the answer"
wait_gone "agent ▍" || fail "the stream did not end"
s=$(screen)
grep -qF "All 7 tests pass." <<<"$s" || fail "the durable answer is not shown"
grep -qF "think>" <<<"$s" && fail "a think tag is on screen once durable"
grep -qF "▸ reasoning (2 lines) — Tab to expand" <<<"$s" || fail "the durable's thinking is not collapsed reasoning"

T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "exit status $RC"
no_sanitizer_report
echo ok
