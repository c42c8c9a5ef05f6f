#!/usr/bin/env bash
# The board (issue 17): Ctrl-G lists every conversation of the server, most urgent first (a
# confirmation, an error), then by activity, with marks readable without colour; a
# conversation not open whose run ends between two polls gets "finished"; typing filters,
# Esc clears the filter and then goes back; the board survives a tiny terminal; /board opens
# it too; Enter on a conversation not open opens it beside the first.
. "$(dirname "$0")/lib.sh" "$@"

# The server writes naive local times: read as local, not as UTC, in a zone far from UTC.
export TZ=Asia/Tokyo
start_fixture "$DATA/board_list.scenario"
start_tether 100 20 "$CONV"
wait_for "Home base is ready." 15 || fail "the conversation is not on screen"
T send-keys -t main C-g
wait_for "Conversations on" 5 || fail "Ctrl-G did not open the board"
wait_for "Broke the build" 10 || fail "the board did not get the server's list"
rows=$(screen | grep -E "Home base|Long job|Asks to deploy|Broke the build")
[ "$(sed -n 1p <<<"$rows" | grep -c 'Asks to deploy')" = 1 ] || fail "the confirmation is not first: $rows"
[ "$(sed -n 2p <<<"$rows" | grep -c 'Broke the build')" = 1 ] || fail "the error is not second: $rows"
grep -q '! confirm.*Asks to deploy' <<<"$rows" || fail "no confirm mark: $rows"
grep -q '✗ error.*Broke the build' <<<"$rows" || fail "no error mark: $rows"
grep -q 'Asks to deploy.* 2 h ago' <<<"$rows" || fail "the time since activity is not 2 h: $rows"
grep -q 'Broke the build.* 1 min ago' <<<"$rows" || fail "the time since activity is not 1 min: $rows"
grep -q ' 1 5f2c9b7e .*Home base' <<<"$rows" || fail "the open one does not show its slot: $rows"
screen | grep -qF "2 need you" || fail "the title does not count who needs you"
wait_traffic "rest GET /api/conversations/search" 5 || fail "the list was not asked for"

# The long job ends between two polls: finished since you looked.
wait_for "✓ finished" 15 || fail "the run that ended is not marked: $(screen)"
screen | grep -q '✓ finished.*Long job' || fail "the finished mark is not on Long job"

# Typing filters; Esc clears the filter first, then goes back.
T send-keys -t main -l "long"
wait_gone "Broke the build" 5 || fail "typing did not filter"
screen | grep -qF "Long job" || fail "the filter hid its match"
T send-keys -t main Escape
wait_for "Broke the build" 5 || fail "Esc did not clear the filter"
screen | grep -qF "Conversations on" || fail "the first Esc left the board"

# The open one's detail line: its slot and its status apart.
T send-keys -t main -l "home"
wait_gone "Broke the build" 5 || fail "typing did not filter"
wait_for "open as 1 · " 5 || fail "the slot and the status run together: $(screen | grep 'open as')"
T send-keys -t main Escape
wait_for "Broke the build" 5 || fail "Esc did not clear the filter"

# A tiny terminal and back.
T resize-window -t main -x 20 -y 3
wait_until_stable
kill -0 "$(cat "$WORK/pid")" || fail "tether died on a tiny board"
T resize-window -t main -x 100 -y 20
wait_for "Broke the build" 5 || fail "the board did not come back after the resize"

T send-keys -t main Escape
wait_for "Home base is ready." 5 || fail "Esc did not go back to the conversation"
polls=$(grep -c "rest GET /api/conversations/search" "$WORK/traffic")
hold 3 # longer than the open board's 2 s poll
[ "$(grep -c "rest GET /api/conversations/search" "$WORK/traffic")" = "$polls" ] ||
	fail "the list is still polled with the board closed"

# /board; Enter on a conversation not open opens it beside the first.
T send-keys -t main -l "/board"
T send-keys -t main Enter
wait_for "Conversations on" 5 || fail "/board did not open the board"
T send-keys -t main -l "broke"
wait_gone "Long job" 5 || fail "typing did not filter"
T send-keys -t main Enter
# (the strip also marks "Asks to deploy", not open, that waits for confirmation)
wait_for " 2/2 · 1! elsewhere (Ctrl-G) │" 10 || fail "Enter did not open the conversation as the second: $(screen | tail -3)"
wait_traffic "rest GET /api/conversations/cafe0004-0000-4000-8000-000000000004 " 10 && wait_traffic "^conn 2 " 10 ||
	fail "no socket was opened for the conversation picked"
T send-keys -t main M-1
wait_for "Home base is ready." 5 || fail "Alt-1 did not go back"
T send-keys -t main C-c C-c
wait_exit 10 || fail "tether did not quit"
no_sanitizer_report
echo "ok"
