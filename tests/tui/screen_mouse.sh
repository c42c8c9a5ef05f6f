#!/usr/bin/env bash
# Issue 27 point 4: with mouse = on, tether turns the terminal's mouse reporting on (and off
# again at exit); the wheel scrolls the transcript, the pager and the board, a click on a
# card's row focuses it, a click on a board row selects it. Reports are SGR sequences written to
# the pane as input (tmux's send-keys -M needs a real mouse). Off by default: no reporting
# asked for.
. "$(dirname "$0")/lib.sh" "$@"

has() { screen | grep -qF -- "$1"; }
# mouse BYTES: a mouse report, as the terminal would send it.
mouse() { T send-keys -t main -H $(printf '%s' "$1" | od -An -tx1); }
wheel_up() { mouse $'\e[<64;10;5M'; }
wheel_down() { mouse $'\e[<65;10;5M'; }

# --- off by default ---------------------------------------------------------------------------
history=$(for i in $(seq -w 1 60); do printf 'history line %s  \\n' "$i"; done)
start_fixture "$DATA/tui_scroll.scenario" --set "history=$history" --set "flood=x" \
	--set flood_lines=1
start_tether 80 24 "$CONV"
wait_for "history line 60" || fail "the history did not show"
grep -qaF $'\e[?1000h' "$WORK/bytes" && fail "mouse reporting is on without mouse = on"
quit_and_stop

# --- the wheel in the transcript ----------------------------------------------------------------
mkdir -p "$WORK/config/tether"
echo "mouse = on" >"$WORK/config/tether/config"
: >"$WORK/bytes"
start_fixture "$DATA/tui_scroll.scenario" --set "history=$history" --set "flood=x" \
	--set flood_lines=1
start_tether 80 24 "$CONV"
wait_for "history line 60" || fail "the history did not show"
wait_until 5 grep -qaF $'\e[?1000h\e[?1006h' "$WORK/bytes" || fail "mouse reporting was not turned on"
top() { screen | sed -n 1p; }
[ "$(top)" = "history line 40" ] || fail "the view does not start at the end: this checks the wheel"
wheel_up
wait_for "more below" 5 || fail "the wheel did not scroll the transcript up"
[ "$(top)" = "history line 37" ] || fail "a notch did not scroll 3 lines (top: $(top))"
for _ in 1 2 3 4 5 6; do wheel_up; done
wait_for "history line 19" 5 || fail "more notches did not scroll further"
for _ in 1 2 3 4 5 6 7; do wheel_down; done
wait_until 5 bash -c '[ "$(tmux -L "$0" capture-pane -p -t main | sed -n 1p)" = "history line 40" ]' \
	"$SOCKET" || fail "the wheel did not scroll back down (top: $(top))"
T send-keys -t main C-c C-c
wait_exit 10 || fail "tether did not quit"
wait_until 5 grep -qaF $'\e[?1006l\e[?1000l' "$WORK/bytes" || fail "mouse reporting was left on"
stop_run

# --- a click focuses a card; the wheel in the pager ----------------------------------------------
start_fixture "$DATA/tui_cards.scenario"
start_tether 100 40 "$CONV"
wait_for "One test fails: test_case_095." || fail "the conversation did not show"
has "… 2 more lines · Alt-↑/↓ selects" || fail "the traceback card is focused already"
row=$(screen | grep -nF "python -m report tests/fixtures/empty.csv" | head -1 | cut -d: -f1)
[ -n "$row" ] || fail "no traceback card on screen"
mouse $'\e[<0;20;'"$row"'M'
mouse $'\e[<0;20;'"$row"'m'
wait_for "… 2 more lines · Tab expands · Ctrl-O opens" 5 || fail "a click did not focus the card"
T send-keys -t main C-o
wait_for "── output · 8 lines ──" 5 || fail "Ctrl-O did not open the clicked card"
T send-keys -t main q
wait_gone "── output · 8 lines ──" 5 || fail "q did not close the pager"
T send-keys -t main Escape M-Down M-Down M-Down
T send-keys -t main C-o
wait_for "── output · 121 lines ──" 5 || fail "Ctrl-O did not open the long card"
first=$(screen | sed -n 2p)
wheel_down
wait_until 5 bash -c '[ "$(tmux -L "$0" capture-pane -p -t main | sed -n 2p)" != "$1" ]' "$SOCKET" "$first" ||
	fail "the wheel did not scroll the pager"
after=$(screen | sed -n 2p)
wheel_up
wait_until 5 bash -c '[ "$(tmux -L "$0" capture-pane -p -t main | sed -n 2p)" = "$1" ]' "$SOCKET" "$first" ||
	fail "the wheel up did not scroll the pager back (was '$after')"
T send-keys -t main q C-c C-c
wait_exit 10 || fail "tether did not quit"
stop_run

# --- the wheel on the board: a row a notch ------------------------------------------------------
# selected TEXT: the board's row with TEXT is the selected one (reverse video).
selected() {
	T capture-pane -e -p -t main | grep -F -- "$1" | grep -qE $'\e\\[([0-9]+;)*7[;m]'
}
export TZ=Asia/Tokyo
start_fixture "$DATA/board_list.scenario"
start_tether 100 20 "$CONV"
wait_for "Home base is ready." 15 || fail "the conversation is not on screen"
T send-keys -t main C-g
wait_for "Broke the build" 10 || fail "the board did not get the server's list"
selected "Asks to deploy" || fail "the first row is not selected on opening"
selected "Broke the build" && fail "two rows selected: this checks the selection"
wheel_down
wait_until 5 selected "Broke the build" || fail "the wheel did not move the board's selection down a row"
selected "Asks to deploy" && fail "the wheel moved more than the selection"
wheel_up
wait_until 5 selected "Asks to deploy" || fail "the wheel did not move the board's selection back up"
# A click selects the row it lands on.
row=$(screen | grep -nF "Broke the build" | head -1 | cut -d: -f1)
[ -n "$row" ] || fail "no row of the board says Broke the build"
mouse $'\e[<0;30;'"$row"'M'
mouse $'\e[<0;30;'"$row"'m'
wait_until 5 selected "Broke the build" || fail "a click did not select the board's row"
selected "Asks to deploy" && fail "the click left the old row selected"
no_sanitizer_report
echo ok
