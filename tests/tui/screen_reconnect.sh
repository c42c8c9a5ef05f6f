#!/usr/bin/env bash
# The status line while the connection is down (issue 15 point 4): one vocabulary at 120, 80
# and 40 columns, the reason of the last drop with the countdown, the key that reconnects;
# F5 reconnects at once, from the cursor (the fixture sees after_seq of the last event), and
# /reconnect while live says there is nothing to do.
. "$(dirname "$0")/lib.sh" "$@"

status_line() { screen | grep -E 'reconnecting|connecting|live|offline' | tail -n 1; }

start_fixture "$DATA/tui_reconnect.scenario"
start_tether 120 20 "$CONV"
wait_for "Ready when you are." || fail "the conversation did not show"
# Connections 2 to 6 are closed as they open: the wait before the 7th is about 8 s.
wait_traffic '^conn 6 ' 20 || fail "the fixture never saw connection 6"
wait_for "reconnecting in 7s" 5 || wait_for "reconnecting in 6s" 2 || fail "no long countdown"
s=$(status_line)
grep -qF "reconnecting in " <<<"$s" || fail "120 columns: '$s'"
grep -qF "(close 1011: server restarting)" <<<"$s" || fail "120 columns: no reason: '$s'"
grep -qF "F5 reconnects" <<<"$s" || fail "120 columns: no key: '$s'"
grep -qF "last: idle" <<<"$s" || fail "120 columns: the agent's state is shown as current: '$s'"
for cols in 80 40; do
	T resize-window -t main -x "$cols"
	hold 0.3 # a few frames at the new width: the countdown repaints every second, and the
	         # 7th connection comes soon, so there is neither a still screen nor time to wait for one
	s=$(status_line)
	grep -qE "^ reconnecting in [0-9]+s" <<<"$s" || fail "$cols columns: '$s'"
	grep -qF "F5 reconnects" <<<"$s" || fail "$cols columns: no key: '$s'"
	grep -qE "retry|down|conn…" <<<"$s" && fail "$cols columns: other words: '$s'"
	[ "$(printf %s "$s" | wc -m)" -le "$cols" ] || fail "$cols columns: too wide: '$s'"
done
T resize-window -t main -x 120
grep -q '^conn 7 ' "$WORK/traffic" && fail "connection 7 came before F5"
T send-keys -t main F5
# (the whole line: the fixture may have written only its start when the wait first looks)
wait_traffic '^conn 7 .* id=' 1.5 || fail "F5 did not reconnect at once"
if [ "${TETHER_TEST_PROTOCOL:-session}" = events ]; then
	# no seq on the events socket: resent since the last event's own timestamp
	last_ts=$(python3 -c 'import json, sys, urllib.request as u
print(json.load(u.urlopen("http://127.0.0.1:%s/api/conversations/%s/events/search?sort_order=TIMESTAMP_DESC&limit=1" % tuple(sys.argv[1:])))["items"][0]["timestamp"])' "$PORT" "$CONV")
	cursor="events resend=since after_timestamp=$last_ts "
else
	cursor="after_seq=1 "
fi
grep -qF "conn 7 $cursor" "$WORK/traffic" ||
	fail "the reconnect did not resume from the cursor: $(grep '^conn 7' "$WORK/traffic")"
wait_for " live · idle" || fail "not live after F5"
T send-keys -t main -l "/reconnect"
T send-keys -t main Enter
wait_for "already connected" || fail "/reconnect while live did not say so"
hold 0.5 # a connection opened wrongly would reach the fixture within this
grep -q '^conn 8 ' "$WORK/traffic" && fail "/reconnect while live reconnected"
no_sanitizer_report
echo ok
