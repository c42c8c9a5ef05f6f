#!/usr/bin/env bash
# Several conversations behind one URL (issue 17's test infrastructure): start_fixtures runs
# one fixture server per conversation and a router in front; today's tether, given the
# router's URL, opens B by id and sees B's messages, B's server alone gets the socket and
# exactly one respond_to_confirmation; the picker through the router lists all three and
# opens C on C's server; A streams through the router.
. "$(dirname "$0")/lib.sh" "$@"

start_fixtures a=multi_a.scenario,stream=1,parts=10,rate=50,history=30 \
	b=multi_b.scenario,confirm_after=1 c=multi_c.scenario
[ -n "$ID_a" ] && [ -n "$ID_b" ] && [ -n "$ID_c" ] || fail "start_fixtures did not set the ids"
[ "$URL" = "http://127.0.0.1:$PORT" ] || fail "URL is not the router's"

# B by id, through the router.
start_tether 100 24 "$ID_b"
wait_for "Bravo: I will check the cluster first." 15 || fail "B's messages are not on screen"
grep -qF "Alpha:" <<<"$(screen)" && fail "A's messages are on B's screen"
wait_log b "^conn 1 .* id=$ID_b\$" 5 || fail "B's server did not get the socket"
wait_log router "^front [0-9]+ route $PORT_b GET /sockets/session/$ID_b" 5 ||
	fail "the router did not log the routed socket"
[ "$(log_count a '^conn ')" = 0 ] || fail "A's server got a socket"
[ "$(log_count router '^conn ')" = 0 ] || fail "the router's own server got a socket"

# B asks for confirmation a second after going live; Tab, y answers it, on B's server only.
wait_for "Confirm 1 action" 15 || fail "B's confirmation is not on screen"
T send-keys -t main Tab
wait_for_text "[y] allow" 5
T send-keys -t main y
wait_log b 'respond_to_confirmation 200 \{"accept":true\}' 10 || fail "y did not reach B's server"
wait_for "Bravo: deployed to staging." 10 || fail "B did not go on after the confirmation"
[ "$(log_count b 'respond_to_confirmation')" = 1 ] || fail "B's server got more than one answer"
for n in a c router; do
	[ "$(log_count "$n" '^rest POST')" = 0 ] || fail "a POST reached $n's server"
done
T send-keys -t main C-d
wait_exit 10 || fail "tether did not quit"
no_sanitizer_report

# The picker through the router lists the three conversations; C opens on C's server.
fresh_tmux
start_tether 100 24
wait_for "Pick a conversation" 15 || fail "the picker did not open"
for title in "Alpha: refactor the parser" "Bravo: deploy to staging" "Charlie: idle notes"; do
	wait_for "$title" 5 || fail "the picker does not list '$title'"
done
T send-keys -t main -l "charlie"
wait_gone "Bravo: deploy to staging" 5 || fail "typing did not filter"
T send-keys -t main Enter
wait_for "Charlie: noted. Nothing else to do." 15 || fail "C's messages are not on screen"
wait_log c "^conn 1 .* id=$ID_c\$" 5 || fail "C's server did not get the socket"
[ "$(log_count a '^conn ')" = 0 ] || fail "A's server got a socket"
[ "$(log_count b '^conn ')" = 1 ] || fail "B's server got another socket"
T send-keys -t main C-d
wait_exit 10 || fail "tether did not quit"
no_sanitizer_report

# A by id: its generated history, then its stream to the end.
fresh_tmux
start_tether 100 24 "$ID_a"
wait_for "ALPHA-STREAM-END" 20 || fail "A's stream did not reach its end"
grep -qF "alpha-stream alpha-stream" <<<"$(screen)" || fail "A's streamed text is not on screen"
wait_log a "^conn 1 .* id=$ID_a\$" 5 || fail "A's server did not get the socket"
[ "$(grep -c . "$WORK/durable_a")" -gt 30 ] || fail "A's history was not generated"
T send-keys -t main C-d
wait_exit 10 || fail "tether did not quit"
no_sanitizer_report
echo "ok"
