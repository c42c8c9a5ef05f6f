#!/usr/bin/env bash
# Issue 27 point 5: theme = auto asks the terminal for its background (OSC 11) and DA1 after
# it, without waiting: the answer comes whenever it comes, as input, and a light background
# repaints the screen in the light colours (a dark one back). The answer is never typed; a
# malformed one changes nothing. COLORFGBG gives the colours to start with. theme = dark asks
# nothing and keeps its colours.
. "$(dirname "$0")/lib.sh" "$@"

# reply BYTES: the terminal's answer, written to the pane as input.
reply() { T send-keys -t main -H $(printf '%s' "$1" | od -An -tx1); }
# colour N: the screen shows some text in xterm-256 colour N (the user's name: 44 dark, 24 light).
colour() { T capture-pane -e -p -t main | grep -qF $'\e[38;5;'"$1"'m'; }
no_colour() { ! colour "$1"; }

start_fixture "$DATA/tui_markdown.scenario"
start_tether 100 40 "$CONV"
wait_for "Markdown test done." || fail "the conversation did not show"
wait_until 5 grep -qaF $'\e]11;?\e\\\e[c' "$WORK/bytes" || fail "the background was not asked"
colour 44 || fail "not the dark colours before an answer"
reply $'\e]11;rgb:ffff/ffff/ffff\e\\'
wait_until 5 colour 24 || fail "a light background did not bring the light colours"
no_colour 44 || fail "dark colours left on a light background"
reply $'\e]11;rgb:1e1e/1e1e/1e1e\a'
wait_until 5 colour 44 || fail "a dark background did not bring the dark colours back"
reply $'\e]11;rgb:zz/ff/ff\e\\'
reply $'\e]11;rgb:ffff/ff'
# An answer cut off takes what follows it until tether gives it up (KEYS_STRING_WAIT_US,
# 0.3 s): the wait is tether's own.
hold 0.5
T send-keys -t main -l "x"
wait_for "> x" 5 || fail "typing after a malformed answer did not reach the input"
screen | grep -qF "rgb" && fail "a malformed answer was typed"
colour 44 || fail "a malformed answer changed the colours"
T send-keys -t main C-u C-c C-c
wait_exit 10 || fail "tether did not quit"
stop_run

# COLORFGBG saying a light background (rxvt's convention, bg 15): light from the start.
printf '#!/bin/sh\nCOLORFGBG="0;15" exec %q "$@"\n' "$TETHER" >"$WORK/tether-light"
chmod +x "$WORK/tether-light"
TETHER_PLAIN=$TETHER
TETHER="$WORK/tether-light"
start_fixture "$DATA/tui_markdown.scenario"
start_tether 100 40 "$CONV"
wait_for "Markdown test done." || fail "the conversation did not show (COLORFGBG)"
colour 24 || fail "COLORFGBG=0;15 did not start with the light colours"
no_colour 44 || fail "dark colours with COLORFGBG=0;15"
quit_and_stop
TETHER=$TETHER_PLAIN

mkdir -p "$WORK/config/tether"
echo "theme = dark" >"$WORK/config/tether/config"
: >"$WORK/bytes"
start_fixture "$DATA/tui_markdown.scenario"
start_tether 100 40 "$CONV"
wait_for "Markdown test done." || fail "the conversation did not show (theme = dark)"
wait_until 5 grep -qaF $'\e[c' "$WORK/bytes" || fail "DA1 was not sent"
grep -qaF $'\e]11;?' "$WORK/bytes" && fail "theme = dark asked the background"
reply $'\e]11;rgb:ffff/ffff/ffff\e\\'
T send-keys -t main -l "y"
wait_for "> y" 5 || fail "typing after the answer did not reach the input"
colour 44 || fail "theme = dark took the light colours from an answer"
no_sanitizer_report
echo ok
