#!/usr/bin/env bash
# Issue 23, item 5: Ctrl-R typed key by key in a long conversation whose partial queries
# match deep in the server's history. The server is asked once typing pauses, for the query
# as it is then (an older query's search is dropped: nothing placed or paged for it); the
# match is shown and the history around it is paged only as far as the view needs — a gap
# between rows shown is filled from the side the view is anchored to, so it leaves the view
# instead of being paged whole. The count that places the match rides the search's kept-alive
# connection.
. "$(dirname "$0")/lib.sh" "$@"

for k in $(seq 1 20); do
	printf 'history 500\nmessage user "run the suite again (turn %d)"\n' "$k"
done >"$WORK/h.scenario"
printf 'message agent "THE-TAIL-END"\n' >>"$WORK/h.scenario"
start_fixture "$WORK/h.scenario"
start_tether 100 30 "$CONV"
wait_for "THE-TAIL-END" 20 || fail "the tail did not show"
# The open's window comes in two pages a frame after the first one (screen_opening): counted
# before the search, which is measured alone.
wait_until 10 eval '[ "$(grep -c "^rest GET .*/events/search" "$WORK/traffic")" -ge 2 ]' ||
	fail "the window was not paged in"
wait_until_stable
before=$(grep -c '^rest ' "$WORK/traffic")

T send-keys -t main C-r
for c in '(' t u r n ' ' 1 2 ')'; do
	T send-keys -t main -l "$c"
	pause 0.05 # one key at a time, as typed: each narrows the search
done
wait_for "run the suite again (turn 12)" 15 || fail "the match of (turn 12) was not shown"
# Settled: no request for 2 s (before the fix, pages went on at tens a second).
last=-1
for _ in $(seq 60); do
	n=$(grep -c '^rest ' "$WORK/traffic")
	[ "$n" = "$last" ] && break
	last=$n
	hold 2 # settled is: no request for 2 s
done
[ "$n" = "$last" ] || fail "requests never stopped: $n so far"
reqs=$((n - before))
searches=$(tail -n +1 "$WORK/traffic" | grep -c '^rest GET .*/events/search?limit=1&sort_order=TIMESTAMP_DESC&body=')
pages=$(grep -c '^rest GET .*/events/search?page_id=' "$WORK/traffic")
echo "search: $reqs requests ($searches searches, $pages pages), $(grep -c '^tcp ' "$WORK/traffic") TCP connections"
[ "$reqs" -le 10 ] || fail "one search made $reqs requests: $(grep '^rest' "$WORK/traffic" | tail -n +"$((before + 1))" | cut -c1-160)"
grep -q '^rest GET .*/events/count?timestamp__lt=.* 200$' "$WORK/traffic" || fail "the match was not placed"
# Placed only for the query shown: no count after a search of a partial query.
grep '^rest GET' "$WORK/traffic" | grep -B1 '/events/count?timestamp__lt' | grep 'body=' |
	grep -v 'body=(turn 12)&' && fail "a partial query's match was placed"
# The count, started by the search's answer, rode the search's kept-alive connection: no
# connection was accepted between the two. Only when the search was the one sent: where
# typing paused (a loaded machine), a partial query's search went too, and if it was still
# unanswered, the next search, a GET beside one in flight, connected on its own (net/rest.c).
between=$(sed -n '/^rest GET .*body=(turn 12)&/,/^rest GET .*events\/count?timestamp__lt/p' "$WORK/traffic" |
	grep -c '^tcp ')
[ "$searches" != 1 ] || [ "$between" = 0 ] || fail "the count after the search opened a connection of its own"
no_sanitizer_report
echo ok
