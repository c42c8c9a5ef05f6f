#!/usr/bin/env bash
# While an answer streams and nothing is typed, tether writes the screen itself (tui/band.c)
# rather than through ncurses' update (issue 28): only the changed cells, and a scroll of the
# transcript's region as it grows. The screen it makes must be the one ncurses makes. Here
# an answer with every look (markdown, code, wide, joined and zero-width characters) streams
# past the bottom of a 80×24 screen and stays open; its screen, colours and attributes
# included, is compared with ncurses' drawing of the same frame after Ctrl-L (which gives the
# whole screen back to ncurses), at the tail and scrolled back (the region moved down).
. "$(dirname "$0")/lib.sh" "$@"

# the screen with its looks, in sgr_canon's canonical form; what the status line says of
# time (its spinner, its clock, the stall the held stream becomes) left out
looks() {
	T capture-pane -p -e -t main | python3 "$GOLDEN_DIR/../sgr_canon.py" |
		sed -E 's/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/S/g; s/running [0-9]+:[0-9]+/running M:SS/
			s/⚠ 1 stream stalled · //; s/(Band screen test).*/\1/'
}
# settled: the looks the same twice, 0.3 s apart (the spinner never lets the pane be still)
settled() {
	looks >"$WORK/a"
	pause 0.3
	looks >"$WORK/b"
	cmp -s "$WORK/a" "$WORK/b"
}
# how many times tether saved ncurses' cursor (each time it took the screen) and restored it
# (each time it gave the screen back): ncurses itself does neither here
count_bytes() { grep -ao "$1" "$WORK/bytes" 2>/dev/null | wc -l; }
saves() { count_bytes $'\e7'; }
restores() { count_bytes $'\e8'; }
holding() { [ "$(saves)" -gt "$(restores)" ]; }

start_fixture "$DATA/tui_band.scenario" --set hold="$WORK/band_end"
start_tether 80 24 "$CONV"
wait_for "The last words of the answer so far." 20 || fail "the answer did not stream"
holding || fail "tether did not write the streamed frames itself"
same_as_ncurses "at the tail"

# Scrolled back a page while the stream stays open, then a line at a time: the region
# scrolls down and one line is written each time.
wait_until 5 holding || fail "tether did not take the screen back after Ctrl-L"
before=$(restores)
T send-keys -t main PPage
wait_gone "The last words of the answer so far." 5 || fail "PgUp did not scroll back"
holding && [ "$(restores)" = "$before" ] || fail "the scrolled frames were not tether's own"
same_as_ncurses "a page back"
top() { screen | head -1; }
first=$(top)
moved() { [ "$(top)" != "$first" ]; }
wait_until 5 holding || fail "tether did not take the screen back after Ctrl-L"
before=$(restores)
T send-keys -t main S-Up S-Up S-Up
wait_until 5 moved || fail "Shift-Up did not scroll back a line"
holding && [ "$(restores)" = "$before" ] || fail "the frames scrolled by lines were not tether's own"
same_as_ncurses "lines back"

# The stream ends: the durable message, drawn by ncurses again, keeps every line.
: >"$WORK/band_end"
T send-keys -t main End
wait_for "The last words of the answer so far." 5 || fail "End did not come back to the tail"
wait_gone "running" 10 || fail "the stream did not end"
no_sanitizer_report
