#!/usr/bin/env bash
# Attention beyond the open conversations (issue 23, point 11): with one conversation open,
# another on the server that waits for confirmation is found by the slow poll of the list
# while the TUI runs, and marked in the strip and the terminal title; Alt-A says where it is;
# the board opens on it (the most urgent row); the list is not polled at the board's pace;
# answered elsewhere, the board's poll takes the mark off.
. "$(dirname "$0")/lib.sh" "$@"

polls() { grep -c "rest GET /api/conversations/search" "$WORK/traffic"; }

start_fixture "$DATA/board_list.scenario"
start_tether 100 20 "$CONV"
wait_for "Home base is ready." 15 || fail "the conversation is not on screen"
wait_for "1! elsewhere (Ctrl-G) │" 10 || fail "the strip does not mark the one waiting elsewhere: $(screen | tail -2)"
title_says() { title=$(T display -p -t main '#{pane_title}'); grep -qF -- "$1" <<<"$title"; }
wait_until 3 title_says "· 1 other needs you"
grep -qF "· 1 other needs you" <<<"$title" || fail "the title does not say another needs you: $title"
# Narrow, the strip says it briefly rather than cut.
T resize-window -t main -x 40 -y 20
wait_for " +1! │" 5 || fail "the strip at 40 columns is not brief: $(screen | tail -2)"
T resize-window -t main -x 100 -y 20
wait_for "1! elsewhere (Ctrl-G) │" 5 || fail "the strip did not come back whole at 100 columns"
T send-keys -t main M-a
wait_for "1 not open here waits for confirmation: Ctrl-G" 5 || fail "Alt-A did not say where it waits"
# Slow: no second list request within a few seconds.
n=$(polls)
hold 3 # longer than the open board's 2 s poll
[ "$(polls)" = "$n" ] || fail "the list is polled at a fast pace with the board closed"

# The board opens on the most urgent row: the one waiting for confirmation.
T send-keys -t main C-g
wait_for "Conversations on" 5 || fail "Ctrl-G did not open the board"
wait_for "Broke the build" 10 || fail "the board did not get the server's list"
wait_for "cafe0003-0000-4000-8000-000000000003" 5 || fail "the board is not on the most urgent row: $(screen)"
no_sanitizer_report

# Answered elsewhere (another client): the board's faster poll takes the mark off the strip at
# once, not at the next slow poll.
fresh_tmux
kill "$SRV" 2>/dev/null
wait "$SRV" 2>/dev/null
SRV=
start_fixture "$DATA/elsewhere_answered.scenario"
start_tether 100 20 "$CONV"
wait_for "1! elsewhere (Ctrl-G) │" 10 || fail "the strip does not mark the one waiting elsewhere"
T send-keys -t main C-g
wait_for "Asks to deploy" 10 || fail "the board did not get the server's list"
wait_gone "! confirm" 15 || fail "the board still shows the confirmation answered elsewhere"
T send-keys -t main Escape
wait_for "Home base is ready." 5 || fail "Esc did not go back to the conversation"
wait_gone "elsewhere (Ctrl-G)" 3 || fail "the strip still marks the confirmation answered elsewhere"
no_sanitizer_report
echo ok
