#!/usr/bin/env bash
# Many conversations (issue 17): while the user looks at A, conversation B (open, in the
# background) goes to waiting_for_confirmation: the strip marks it "2!", the bell rings once,
# in the first frame after the event (tether's $TETHER_STATS line), and Alt-A jumps to it.
# Then from the board (Ctrl-G) B's confirmation is answered without switching: the modal shows
# B's whole command, y allows it, B's server gets exactly one respond_to_confirmation and A's
# none; the board stays and A stays the conversation on screen.
. "$(dirname "$0")/lib.sh" "$@"

bell_flag() { T display -p -t main:0 '#{window_bell_flag}'; }
wait_bell() {
	for _ in $(seq "${2:-100}"); do [ "$(bell_flag)" = "$1" ] && return 0; pause 0.1; done
	return 1
}
screen() { T capture-pane -p -t main:0; }

start_fixtures a=multi_a.scenario b=multi_b.scenario,confirm_after=3
export TETHER_STATS="$WORK/stats"
start_tether 100 24 "$ID_a" "$ID_b"
T new-window -t main:1 'exec sleep 600'   # the user is in another tmux window
wait_for "Alpha: the parser is refactored" 15 || fail "A is not on screen"
wait_for " 1/2 │" 10 || fail "the strip does not say 1 of 2"
wait_log b "^conn 1 .* id=$ID_b\$" 10 || fail "B's socket did not open in the background"
[ "$(bell_flag)" = 0 ] || fail "a bell before anything happened"

# B asks; A is on screen.
wait_for " 1/2 · 2! │" 15 || fail "the strip does not mark B as waiting: $(screen | tail -2)"
wait_bell 1 30 || fail "no bell for B's confirmation"
screen | grep -qF "kubectl apply" && fail "B's command shows on A's screen"
title=$(T display -p -t main:0 '#{pane_title}')
grep -qF "· 1 other needs you" <<<"$title" || fail "the title does not say B needs you: $title"
screen | grep -qF "Alpha: the parser is refactored" || fail "A left the screen"

# The board: B first (it needs you), its mark; Ctrl-O answers it in the modal.
T send-keys -t main:0 C-g
wait_for "Conversations on" 5 || fail "Ctrl-G did not open the board"
wait_for "Bravo: deploy to staging" 5 || fail "the board does not list B"
first=$(screen | grep -m1 -E "Alpha: refactor|Bravo: deploy")
grep -qF "Bravo" <<<"$first" || fail "B (waiting) is not sorted first: $first"
grep -qF "!" <<<"$first" || fail "B's row has no mark: $first"
T send-keys -t main:0 C-o
wait_for "kubectl apply -f deploy/staging.yaml" 5 || fail "the modal does not show B's command"
screen | grep -qF "Conversations on" || fail "the modal left the board"
T send-keys -t main:0 y
wait_log b 'respond_to_confirmation 200 \{"accept":true\}' 10 || fail "y did not reach B's server"
hold 1 # a second answer sent wrongly would reach the fixture within this
[ "$(log_count b 'respond_to_confirmation')" = 1 ] || fail "B's server got more than one answer"
[ "$(log_count a 'respond_to_confirmation')" = 0 ] || fail "A's server got an answer"
wait_for "Conversations on" 5 || fail "answering left the board"
wait_gone "kubectl apply -f deploy/staging.yaml" 5 || fail "the modal stayed after the answer"

# Esc: back to A, which never left; B's answer went on in the background.
T send-keys -t main:0 Escape
wait_for "Alpha: the parser is refactored" 5 || fail "Esc did not go back to A"
wait_for " 1/2 · 2✓ │" 15 || fail "B's run ending after the answer is not marked: $(screen | tail -2)"
T send-keys -t main:0 M-a
wait_for "Bravo: deployed to staging." 5 || fail "Alt-A did not go to B"
wait_for " 2/2 │" 5 || fail "the strip does not say 2 of 2"
T send-keys -t main:0 M-a
wait_for "no other conversation needs you" 5 || fail "Alt-A with nothing waiting said nothing"
T send-keys -t main:0 M-1
wait_for "Alpha: the parser is refactored" 5 || fail "Alt-1 did not go back to A"

T send-keys -t main:0 C-c C-c
wait_exit 10 || fail "tether did not quit"
grep -q '"background_rings":1,' "$WORK/stats" || fail "stats: $(cat "$WORK/stats")"
grep -q '"ring_frames_max":1}' "$WORK/stats" ||
	fail "the bell did not ring in the first frame after B's status changed: $(cat "$WORK/stats")"
no_sanitizer_report
echo "ok"
