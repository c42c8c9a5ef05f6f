#!/usr/bin/env bash
# While the connection is down the status line counts down to the next attempt; a message
# sent meanwhile shows as queued and goes out exactly once when the connection is back.
. "$(dirname "$0")/lib.sh" "$@"

: >"$WORK/down"
start_fixture "$DATA/tui_queue.scenario" --set down="$WORK/down"
start_tether 80 24 "$CONV"
wait_for "Before the drop." || fail "the history did not show"
wait_for "reconnecting in " || fail "the status line shows no reconnect countdown"
# The reason may come a frame after the countdown (a capture can also catch a frame half
# drawn): waited for, not read once.
says_why() { screen | grep -qE "reconnecting in [0-9]+s \((close 1011: )?(going away|try again)\)"; }
wait_until 5 says_why || fail "the countdown does not say why"
T send-keys -t main -l "sent while down"
T send-keys -t main Enter
wait_for "⧗ queued: sent while down" 5 || fail "the message is not shown as queued"
wait_for "1 queued" 5 || fail "the status line does not count the queued message"
# Connections are taken again; F5 cuts short the backoff that grew meanwhile.
rm "$WORK/down"
T send-keys -t main F5
wait_for "Reply after reconnect." 60 || fail "the queued message was not answered"
wait_gone "queued" || fail "the queued marker stayed"
[ "$(grep -c '^recv [0-9]* .*sent while down' "$WORK/traffic")" = 1 ] ||
	fail "the queued message did not go out exactly once"
no_sanitizer_report
echo ok
