#!/usr/bin/env bash
# Issue 15 point 9: a card's thought and its output look different and a rule sets the output
# apart, also without colour (NO_COLOR=1); the focus mark shows without colour;
# /time shows each item's local time in its header and hides it again; the config key
# timestamps = on shows them from the start.
. "$(dirname "$0")/lib.sh" "$@"

# NO_COLOR set (lib.sh's start_tether clears it): tether through a wrapper that sets it.
REAL_TETHER=$TETHER
TETHER="$WORK/no_color_tether"
printf '#!/bin/sh\nNO_COLOR=1 exec %q "$@"\n' "$REAL_TETHER" >"$TETHER"
chmod +x "$TETHER"
mkdir -p "$WORK/config/tether"
# The SGR attributes in effect at the first character of the screen line holding TEXT
# (capture-pane -e writes only changes, so they are tracked from the top), e.g. " 1 3 ".
line_with() {
	T capture-pane -e -p -t main | python3 -c '
import re, sys
want, on = sys.argv[1], set()
for line in sys.stdin.read().split("\n"):
    first = None
    for m in re.finditer(r"\x1b\[([0-9;]*)m|[^\x1b]", line):
        if m.group(1) is None:
            if first is None:
                first = set(on)
            continue
        for p in (m.group(1) or "0").split(";"):
            n = int(p or 0)
            if n == 0: on.clear()
            elif n in (22, 23, 27): on.difference_update({22: {1, 2}, 23: {3}, 27: {7}}[n])
            elif n < 10: on.add(n)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", line)
    if want in plain:
        print(" " + " ".join(str(n) for n in sorted(first or set())) + " ")
        break
' "$1"
}
# Attribute N is in effect in the attribute list $2.
has_attr() { [[ "$2" == *" $1 "* ]]; }

# The events carry the times the fixture made them at: any minute from here on.
t0=$(date +%H:%M)
start_fixture "$DATA/tui_cards.scenario"
start_tether 100 40 "$CONV"
wait_for "One test fails: test_case_095." || fail "the conversation did not show"
T capture-pane -e -p -t main | grep -qE $'\e\\[([0-9]+;)*3[1-7](;[0-9]+)*m' &&
	fail "colours on screen: NO_COLOR did not reach tether"
thought=$(line_with "Let me reproduce the crash first.")
output=$(line_with "Traceback (most recent call last):")
has_attr 3 "$thought" || fail "the thought is not italic: $(cat -v <<<"$thought")"
has_attr 2 "$thought" && fail "the thought is dim like the output: $(cat -v <<<"$thought")"
has_attr 2 "$output" || fail "the output is not dim: $(cat -v <<<"$output")"
has_attr 3 "$output" && fail "the output is italic like the thought"
s=$(screen)
grep -A1 -F "Let me reproduce the crash first." <<<"$s" | grep -qE '^── output ─+$' ||
	fail "no rule between the thought and the output"
[ "$(grep -cE '^── output ─+$' <<<"$s")" = 3 ] || fail "not every card's output has its rule"

# Search without colour: the current match reversed, the others underlined.
T send-keys -t main C-r
T send-keys -t main -l "test_case"
wait_for "search 1/" 5 || fail "the search line has no count"
T capture-pane -e -p -t main | head -n -2 >"$WORK/looks"
grep -q $'\e\\[[0-9;]*7mtest_case' "$WORK/looks" || fail "no current match in reverse video without colour"
grep -q $'\e\\[[0-9;]*4mtest_case' "$WORK/looks" || fail "no other match underlined without colour"
T send-keys -t main Escape
wait_gone "search 1/" 5 || fail "Esc did not end the search"

# The focus mark needs no colour.
T send-keys -t main M-Up
agent_marked() { has_attr 7 "$(line_with "agent")"; }
wait_until 5 agent_marked || fail "the focused item is not marked without colour"
# Point 6: a count of one says so ("1 byte", not "1 bytes").
T send-keys -t main M-Up M-Up M-Up
first_marked() { has_attr 7 "$(line_with "printf x")"; }
wait_until 5 first_marked || fail "Alt-Up did not reach the first card"
T send-keys -t main C-o
wait_for "── output · 1 line ──" 5 || fail "Ctrl-O did not open the focused card"
T send-keys -t main c
wait_for "copied 1 byte to" 5 || fail "one byte copied is not said in the singular"
T send-keys -t main q
wait_gone "── output · 1 line ──" 5 || fail "q did not leave the pager"

# /time: HH:MM of today before each item's author (the fixture's times are now, local).
before=$(date +%H:%M)
T send-keys -t main "/time" Enter
wait_for "times shown" 5 || fail "/time said nothing"
after=$(date +%H:%M)
s=$(screen)
grep -qE "^($t0|$before|$after) you$" <<<"$s" || fail "the user's message has no time"
grep -qE "^($t0|$before|$after) ⚙ terminal  ✗ failed" <<<"$s" || fail "a card has no time"
T send-keys -t main "/time" Enter
wait_for "times hidden" 5 || fail "/time again said nothing"
screen | grep -qE "^[0-9]{2}:[0-9]{2} you$" && fail "/time did not hide the times"
T send-keys -t main "/time sometimes" Enter
wait_for "/time takes on or off" 5 || fail "a bad /time argument says nothing"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
no_sanitizer_report

# The config key shows them from the start.
echo "timestamps = on" >>"$WORK/config/tether/config"
# A second session on the same tmux server (killing the server and starting another at once
# races with its exit): the first one goes once the placeholder keeps the server up.
T new-session -d -s keep "sleep 600"
T kill-session -t main
before=$(date +%H:%M)
start_tether 100 40 "$CONV"
wait_for "One test fails: test_case_095." || fail "the second run did not show the conversation"
after=$(date +%H:%M)
screen | grep -qE "^($t0|$before|$after) agent$" || fail "timestamps = on does not show the times"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "exit status $RC"
no_sanitizer_report
echo ok
