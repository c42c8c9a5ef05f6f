#!/usr/bin/env bash
# Escape sequences in server text (ESC[2J, OSC 52, OSC 0/2, RIS), whole or split across
# deltas, neither clear the screen, nor write the clipboard, nor change the title.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_escape.scenario"
start_tether 80 30 "$CONV"
T set -g set-clipboard on
T set -g allow-rename on
wait_for "Escape test done." || fail "the conversation did not show"
s=$(screen)
grep -qF "first line stays on screen" <<<"$s" || fail "the screen was cleared"
grep -qF "beforemiddleafterend" <<<"$s" || fail "the durable text is not shown without its escapes"
grep -qF "streamdone" <<<"$s" || fail "the streamed text is not shown without its escapes"
title_after=$(T display -p -t main '#{pane_title}')
# tether sets the title itself (the conversation and its state), never the server's way.
case "$title_after" in "tether: "*) ;; *) fail "the pane title changed to '$title_after'" ;; esac
case "$title_after" in *HACKED*) fail "the pane title was set by the server" ;; esac
[ -z "$(T list-buffers)" ] || fail "a paste buffer was written: $(T list-buffers)"
if grep -aqF -e $'\e]52' -e $'\ec' "$WORK/bytes" ||
	grep -ao $'\e][02];[^\a]*' "$WORK/bytes" | grep -qv $'^\e][02];tether: '; then
	fail "escape sequences from the server reached the terminal"
fi
no_sanitizer_report
echo ok
