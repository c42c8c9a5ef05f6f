#!/usr/bin/env bash
# The user's own text is masked on screen like the server's: a message typed while the
# connection is down shows as queued with the secret hidden, and so does its echo once sent;
# a notice that quotes what the user typed (an unknown slash command) hides it too.
. "$(dirname "$0")/lib.sh" "$@"

secret=tok-Zq9VX7wKpL3mN8rT
printf '%s\n' "$secret" >"$WORK/mask"
: >"$WORK/down"
start_fixture "$DATA/tui_queue.scenario" --set down="$WORK/down"
start_tether 80 24 --mask-file "$WORK/mask" "$CONV"
wait_for "Before the drop." || fail "the history did not show"
wait_for "reconnecting in " || fail "the connection did not drop"
T send-keys -t main -l "my key is $secret ok"
T send-keys -t main Enter
wait_for "⧗ queued: my key is <secret-hidden> ok" 5 || fail "the queued message is not masked"
screen | grep -qF -e "$secret" -e "Zq9VX7wKpL3" && fail "the secret is on screen while queued"
# Connections are taken again; F5 cuts short the backoff that grew meanwhile.
rm "$WORK/down"
T send-keys -t main F5
wait_for "Reply after reconnect." 60 || fail "the queued message was not answered"
screen | grep -qF "my key is <secret-hidden> ok" || fail "the sent message is not shown masked"
T send-keys -t main -l "/$secret"
T send-keys -t main Enter
wait_for "unknown command /<secret-hidden>" 5 || fail "the notice does not mask what the user typed"
screen | grep -qF -e "$secret" -e "Zq9VX7wKpL3" && fail "the secret is on screen"
[ "$(grep -c '^recv [0-9]* .*my key is' "$WORK/traffic")" = 1 ] ||
	fail "the message did not go out exactly once"
no_sanitizer_report
echo ok
