#!/usr/bin/env bash
# Issue 15 point 1: every tool output is reachable. A 121-line pytest run whose FAILED line is
# line 100 and the demo's traceback whose last line is ZeroDivisionError: collapsed, a card
# says how to see the rest; Alt-Up focuses a card (marked in reverse video) and Tab expands it
# in place; Ctrl-O opens the newest card in view in the pager, where /FAILED finds the line,
# c copies the whole output and C the command, and q returns to exactly the view left. Also
# in a 40x10 terminal and across a resize inside the pager.
. "$(dirname "$0")/lib.sh" "$@"

has() { screen | grep -qF -- "$1"; }
COPY="$WORK/run/tether-copy.txt"

start_fixture "$DATA/tui_cards.scenario"
start_tether 100 40 "$CONV"
wait_for "One test fails: test_case_095." || fail "the conversation did not show"
has "… 115 more lines · Tab expands · Ctrl-O opens" || fail "the long card does not say how to see the rest"
# Tab and Ctrl-O act on the newest card in view: an older card offers the key that selects it.
has "… 2 more lines · Alt-↑/↓ selects" || fail "the traceback card does not say how to see the rest"
has "ZeroDivisionError" && fail "the traceback's last line shows collapsed: this checks the cap"
has "test_case_095 FAILED" && fail "the FAILED line shows collapsed: this checks the cap"

# --- focus and expand in place ------------------------------------------------------------
T send-keys -t main M-Up
T send-keys -t main M-Up
T send-keys -t main M-Up
wait_for "… 2 more lines · Tab expands · Ctrl-O opens" 5 || fail "Alt-Up did not focus the traceback card"
# The focused card's header is a reverse-video bar (no colour needed: NO_COLOR is tested
# in screen_card_looks.sh); the other card's header is not.
focus_line=$(T capture-pane -e -p -t main | grep -F "python -m report tests/fixtures/empty.csv")
# (7 as a parameter of its own: 38;5;167 is a colour, not reverse video)
grep -qF $'\e[' <<<"$focus_line" && grep -qE $'\e\\[([0-9]+;)*7[;m]' <<<"$focus_line" ||
	fail "the focused card is not marked: $(cat -v <<<"$focus_line")"
other_line=$(T capture-pane -e -p -t main | grep -F "pytest -v")
grep -qE $'\e\\[([0-9]+;)*7[;m]' <<<"$other_line" && fail "the unfocused card is marked too"
has "… 2 more lines · Tab expands · Ctrl-O opens" || fail "the focused card does not offer Tab and Ctrl-O"
has "… 115 more lines · Alt-↑/↓ selects" || fail "the card no longer focused still offers Tab and Ctrl-O"
T send-keys -t main Tab
wait_for "ZeroDivisionError: division by zero" 5 || fail "Tab did not expand the focused traceback card"
has "▴ 8 lines · Tab folds · Ctrl-O opens" || fail "the expanded card does not say how to fold it"
T send-keys -t main Tab
wait_gone "ZeroDivisionError" 5 || fail "Tab did not fold the card again"
T send-keys -t main M-Down
wait_for "… 115 more lines · Tab expands · Ctrl-O opens" 5 || fail "Alt-Down did not focus the pytest card"
header_y() { screen | grep -nF "$1" | head -1 | cut -d: -f1; }
y=$(header_y "pytest -v")
T send-keys -t main Tab
wait_for "test_case_001 PASSED" 5 || fail "Tab did not expand the pytest card"
# In place: the header moves up only as far as the output needs, here to the top (the view
# stops following), and the output reads down from its start.
[ "$y" -gt 1 ] || fail "the card's header was already on top: this checks nothing"
[ "$(header_y "pytest -v")" = 1 ] || fail "expanding did not bring the card's header to the top"
has "test_case_020 PASSED" || fail "the expanded output does not read from its start"
has "more below — End to jump" || fail "the view still follows after expanding in place"
for _ in 1 2 3 4 5; do
	has "test_case_095 FAILED" && break
	T send-keys -t main NPage
	wait_until_stable
done
has "test_case_095 FAILED" || fail "the FAILED line is not reached by expanding the pytest card"
T send-keys -t main End
wait_for "▴ 121 lines · Tab folds · Ctrl-O opens" 5 || fail "the expanded card's end does not say how to fold it"
T send-keys -t main Tab
wait_gone "test_case_095 FAILED" 5 || fail "the pytest card did not fold"
T send-keys -t main End
# Past the newest item the focus is back to the default.
T send-keys -t main M-Down
T send-keys -t main M-Down
wait_for "back to the newest" 5 || fail "Alt-Down past the newest item says nothing"
wait_gone "back to the newest" 10 || fail "the notice stayed"

# --- the pager --------------------------------------------------------------------------
before=$(screen)
T send-keys -t main C-o
wait_for "── output · 121 lines ──" 5 || fail "Ctrl-O did not open the newest card in view in the pager"
has "pytest -v  · rows 1-38 of" || fail "the pager's title is not the card's header with its rows"
has "Now the whole suite, to see what else fails." || fail "the pager does not show the thought"
has "test_case_095 FAILED" && fail "the FAILED line is on the first page: the search would prove nothing"
# The title says which match of how many; the current one is reversed, the others underlined.
T send-keys -t main -l "/test_case_09"
T send-keys -t main Enter
wait_for "match 1/10" 5 || fail "the pager's search does not say which match of how many"
T send-keys -t main n
wait_for "match 2/10" 5 || fail "n did not count the next match"
T capture-pane -p -e -t main >"$WORK/looks"
grep -F "[ 79%]" "$WORK/looks" | grep -q $'\e\\[[0-9;]*7m' || fail "the current match is not reversed"
grep -F "2 PASSED  [ 80%]" "$WORK/looks" | grep -q $'\e\\[[0-9;]*4m' || fail "another match is not underlined"
grep -F "2 PASSED  [ 80%]" "$WORK/looks" | grep -q $'\e\\[[0-9;]*7m' && fail "another match looks like the current one"
T send-keys -t main / F A I L E D
wait_for "/FAILED" 5 || fail "the search line does not show what is typed"
T send-keys -t main Enter
wait_for "test_case_095 FAILED" 5 || fail "/FAILED did not reach the FAILED line"
T send-keys -t main / n o p e Enter
wait_for "not found: nope" 5 || fail "a search with no match says nothing"
# A 1 MB paste into the search line: kept to its first bytes, searched, no harm.
head -c 1000000 /dev/zero | tr '\0' 'A' >"$WORK/big"
T load-buffer -b big "$WORK/big"
T send-keys -t main /
T paste-buffer -p -b big -t main
T send-keys -t main Enter
wait_for "not found: AAAAAAAAAA" 10 || fail "a pasted search says nothing"
T send-keys -t main c
wait_for "copied 6125 bytes" 5 || fail "c did not copy the output"
cmp -s "$COPY" "$DATA/cards/pytest_121.txt" || fail "the copy is not the whole output"
T send-keys -t main C
wait_for "copied 18 bytes" 5 || fail "C did not copy the command"
[ "$(cat "$COPY")" = "command: pytest -v" ] || fail "the command copied is $(cat "$COPY")"
T send-keys -t main x
wait_for "q back · / search" 5 || fail "a key the pager does not know says nothing"

# A tiny terminal and a resize inside the pager: still the pager, still its keys.
T resize-window -t main -x 40 -y 10
wait_until_stable
T send-keys -t main End
wait_for "passed in 3.21s" 5 || fail "End in a 40x10 pager does not show the last line"
T resize-window -t main -x 100 -y 40
wait_until_stable
T send-keys -t main Home
wait_for "── command ──" 5 || fail "Home after a resize does not show the top"
T send-keys -t main q
wait_gone "── command ──" 5 || fail "q did not leave the pager"
wait_gone "copied" 10 || fail "the copy notice stayed"
wait_gone "q back · / search" 10 || fail "the pager's notice stayed"
wait_until 5 screen_is "$before"
after=$(screen)
[ "$before" = "$after" ] || {
	diff <(echo "$before") <(echo "$after") >&2
	fail "q did not return to the view left"
}

# Scrolled out of view, the focus goes back to the default: Ctrl-O then opens the newest
# card in view, not the focused item that is no longer seen.
T resize-window -t main -x 100 -y 12
wait_until_stable
T send-keys -t main End
T send-keys -t main M-Up
agent_focused() { T capture-pane -e -p -t main | grep -F "agent" | grep -qE $'\e\\[[0-9;]*7[;m]'; }
wait_until 5 agent_focused || fail "Alt-Up did not focus the answer at 100x12"
T send-keys -t main C-Home
wait_gone "One test fails" 5 || fail "Ctrl-Home did not scroll the answer out of view"
T send-keys -t main C-o
wait_for "── command ──" 5 || fail "Ctrl-O opened nothing after scrolling"
screen | head -1 | grep -qF "python -m report" || fail "Ctrl-O did not open the newest card in view"
T send-keys -t main q
wait_gone "── command ──" 5 || fail "q did not leave the pager"

T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "exit status $RC"
no_sanitizer_report
echo ok
