#!/usr/bin/env bash
# The picker (issue 15.8): each row shows the short id and how long ago it changed, the
# selected one's full id below the list; typing filters by title or id (case ignored); a
# conversation that answers 404 says so in the picker, which stays; then another opens.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/picker_filter.scenario"
start_tether 100 20
wait_for "Pick a conversation" || fail "the picker did not open"
wait_for "Write release notes" || fail "the list is incomplete"
s=$(screen)
row() { grep -F -- "$1" <<<"$s" || fail "no row for $1"; }
row "5f2c9b7e  Deploy the staging cluster" | grep -qF "just now" || fail "no relative time (just now)"
row "0badc0de  Gone on the server" | grep -qF "3 min ago" || fail "no relative time (3 min ago)"
row "7e57ab1e  Refactor the parser" | grep -qF "2 h ago" || fail "no relative time (2 h ago)"
row "cafe0001  Write release notes" | grep -qF "3 days ago" || fail "no relative time (3 days ago)"
grep -qE "20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T" <<<"$(grep -F "ago" <<<"$s")" &&
	fail "raw ISO timestamps on the rows"
grep -qE "^id 5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91  updated 20[0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]$" <<<"$s" ||
	fail "the selected row's full id and time are not shown"
T send-keys -t main Down
wait_for "id 0badc0de-0000-4000-8000-000000000404" 5 || fail "the full id does not follow the selection"

# Typing filters, case ignored, over titles and ids.
T send-keys -t main -l "GONE"
wait_gone "Deploy the staging cluster" 5 || fail "typing does not filter"
s=$(screen)
grep -qF "Filter: GONE" <<<"$s" || fail "the filter is not shown"
grep -qF "Gone on the server" <<<"$s" || fail "the filter hid its match"
T send-keys -t main C-u
wait_for "Deploy the staging cluster" 5 || fail "Ctrl-U did not clear the filter"
T send-keys -t main -l "7E57"
wait_gone "Write release notes" 5 || fail "the filter does not match ids"
grep -qF "Refactor the parser" <<<"$(screen)" || fail "the id filter hid its match"
T send-keys -t main C-u
T send-keys -t main -l "nothing like this"
wait_for 'No conversation matches "nothing like this"' 5 || fail "an empty result is not said"
T send-keys -t main Enter

# A conversation that answers 404: said in the picker, which stays.
T send-keys -t main C-u
T send-keys -t main -l "gone"
wait_gone "Deploy the staging cluster" 5 || fail "typing does not filter"
T send-keys -t main Enter
wait_for "is not on this server (HTTP 404)" 10 || fail "the 404 is not shown in the picker"
s=$(screen)
grep -qF "Pick a conversation" <<<"$s" || fail "the picker did not stay after a 404"
[ -e "$WORK/rc" ] && fail "tether exited after a 404"
kill -0 "$(cat "$WORK/pid")" || fail "tether died"

# A short terminal keeps what matters: the filter, the list, and the error on the last line.
T resize-window -t main -x 40 -y 4
first_line_is() { [ "$(screen | head -1)" = "$1" ]; }
wait_until 5 first_line_is "Filter: gone"
s=$(screen)
[ "$(sed -n 1p <<<"$s")" = "Filter: gone" ] || fail "a short picker does not start with its filter"
sed -n 2p <<<"$s" | grep -qF "0badc0de  Gone on the" || fail "a short picker lost its list"
sed -n 4p <<<"$s" | grep -qF "conversation 0badc0de-0000" || fail "a short picker lost the error"
# The last row selected on the short screen; grown again, the rows above it come back.
T send-keys -t main C-u
T send-keys -t main End
wait_until_stable
T resize-window -t main -x 100 -y 20
for id in 5f2c9b7e 0badc0de 7e57ab1e cafe0001; do
	wait_for "$id" 5 || fail "row $id is missing after the screen grew: $(screen)"
done

# Another pick opens.
T send-keys -t main C-u
T send-keys -t main -l "staging"
wait_gone "Gone on the server" 5 || fail "typing does not filter"
T send-keys -t main Enter
wait_for "hello from staging" 10 || fail "the picked conversation did not open"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "exit status $RC"
no_sanitizer_report
echo ok
