#!/usr/bin/env bash
# Golden screens (issue 24): key screens compared whole, character for character, with the
# files in tests/tui/golden/ (how to regenerate and review them: tests/tui/golden/README.md).
# Usage: golden.sh TETHER FIXTURE_SERVER DATA_DIR CASE — one CASE per meson test.
. "$(dirname "$0")/lib.sh" "$@"
CASE=${4:?usage: golden.sh TETHER FIXTURE_SERVER DATA_DIR CASE}

# Fixed zone and fixed ids; the clock readings a screen shows (the picker's "updated" time of
# the selected row, the age of the board's list) are scrubbed before the comparison.
export TZ=Asia/Tokyo

# keys KEY...: tmux send-keys to tether (-l for text).
keys() { T send-keys -t main "$@"; }

case $CASE in
cards) # tool cards collapsed: each says how to see the rest
	start_fixture "$DATA/tui_cards.scenario"
	start_tether 100 40 "$CONV"
	wait_for_text "One test fails: test_case_095."
	golden cards -e
	;;
card_expanded) # the traceback card focused (reverse video) and expanded in place
	start_fixture "$DATA/tui_cards.scenario"
	start_tether 100 40 "$CONV"
	wait_for_text "One test fails: test_case_095."
	keys M-Up M-Up M-Up
	wait_for_text "… 2 more lines · Tab expands · Ctrl-O opens"
	keys Tab
	wait_for_text "▴ 8 lines · Tab folds · Ctrl-O opens"
	golden card_expanded -e
	;;
pager) # Ctrl-O: the newest card in view full-screen, after a search
	start_fixture "$DATA/tui_cards.scenario"
	start_tether 100 30 "$CONV"
	wait_for_text "One test fails: test_case_095."
	keys C-o
	wait_for_text "── output · 121 lines ──"
	keys -l "/test_case_09"
	keys Enter
	wait_for_text "match 1/10"
	golden pager -e
	;;
confirm) # the confirmation modal, its choices given the keyboard
	start_fixture "$DATA/tui_confirm.scenario"
	start_tether 80 24 "$CONV"
	wait_for_text "TAIL-7f3e"
	keys Tab
	wait_for_text "[y] allow"
	golden confirm
	;;
ask_aside) # /ask: the answer a note of this client, apart from the conversation's items
	start_fixture "$DATA/tui_chat.scenario"
	start_tether 100 20 "$CONV"
	wait_for_text "Ready for your messages."
	keys -l "/ask what did you read?"
	keys Enter
	wait_for_text "answered aside"
	golden ask_aside -e
	;;
keys_overlay) # ? on the empty prompt
	start_fixture "$DATA/tui_chat.scenario"
	start_tether 100 30 "$CONV"
	wait_for_text "message the agent · ? for keys · /help"
	keys -l "?"
	wait_for_text "Keys and commands"
	golden keys_overlay
	;;
board) # Ctrl-G: every conversation of the server, most urgent first, one finished since
	start_fixture "$DATA/board_list.scenario" --set ends_after=1
	start_tether 100 20 "$CONV"
	wait_for_text "Home base is ready." 15
	keys C-g
	wait_for_text "✓ finished" 15
	wait_for_text "server 1.43.1" 15 # the server's version, from /server_info
	GOLDEN_SCRUB='s/list updated [0-9]* s ago/list updated N s ago/'
	golden board -e
	;;
status_60 | status_80 | status_140) # the status line at three widths: what it drops first
	# A confirmation set aside, with a draft: the status line has its most parts.
	start_fixture "$DATA/tui_confirm.scenario"
	start_tether "${CASE#status_}" 10 "$CONV"
	wait_for_text "Confirm 1 action"
	keys Escape
	wait_gone "Confirm 1 action" 5 || fail "Esc did not set the confirmation aside"
	keys -l "a draft"
	wait_for_text "> a draft"
	golden "$CASE" -e
	;;
picker) # no conversation given: the server's list to pick from
	start_fixture "$DATA/picker_filter.scenario"
	start_tether 100 20
	wait_for_text "Pick a conversation"
	wait_for_text "Write release notes"
	GOLDEN_SCRUB='s/updated 20[0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]$/updated YYYY-MM-DD HH:MM/'
	golden picker
	;;
markdown) # a markdown answer: headings, lists, code and a table
	start_fixture "$DATA/tui_markdown.scenario"
	start_tether 100 40 "$CONV"
	wait_for_text "Markdown test done."
	golden markdown -e
	;;
multi_strip) # a second conversation open beside the first: the strip names both
	start_fixtures a=multi_a.scenario b=multi_b.scenario c=multi_c.scenario
	start_tether 100 24 "$ID_c"
	wait_for_text "Charlie: noted. Nothing else to do." 15
	keys C-g
	wait_for_text "Bravo: deploy to staging" 10
	keys -l "bravo"
	wait_gone "Charlie: idle notes" 5 || fail "typing did not filter the board"
	keys Enter
	wait_for_text "Bravo: I will check the cluster first." 15
	wait_for_text " 2/2 " 10
	golden multi_strip -e
	;;
history_gap) # the row of history not loaded, at the top, its pages refused by the server (the
	# window's after the open's screenful, then Ctrl-Home's first events)
	printf 'history 2000\n' >"$WORK/h.scenario"
	start_fixture "$WORK/h.scenario" --search-fail 1000
	start_tether 100 30 "$CONV"
	wait_for_text "seq 1,999" 10
	# the open's page (a frame after the first one) refused first, then Ctrl-Home's
	wait_traffic "events/search.* 503$" 10 || fail "the open's page was not asked"
	wait_until_stable
	keys C-Home
	wait_for_text "earlier events · could not load the first events: the server answered HTTP 503" 10
	golden history_gap
	;;
rest_error) # a control the server refuses: one item in words
	start_fixture "$DATA/tui_rest_error.scenario"
	start_tether 80 12 "$CONV"
	wait_for_text "Ready."
	keys -l "/pause"
	keys Enter
	wait_for_text "could not pause the agent"
	wait_gone "pausing the agent" 5 || fail "'pausing the agent…' stayed"
	golden rest_error -e
	;;
light) # theme = light: the cards' colours (user, agent, done, error, code) for a light background
	mkdir -p "$WORK/config/tether"
	echo "theme = light" >"$WORK/config/tether/config"
	start_fixture "$DATA/tui_cards.scenario"
	start_tether 100 40 "$CONV"
	wait_for_text "One test fails: test_case_095."
	golden light -e
	;;
diff_card | diff_card_80) # file edits as diffs: the edit's with line numbers, the creation collapsed
	start_fixture "$DATA/tui_diff.scenario"
	cols=100
	[ "$CASE" = diff_card ] || cols=80
	start_tether "$cols" 50 "$CONV"
	wait_for_text "Diff test done."
	keys PPage
	wait_for_text "Fix the crash on an empty file."
	golden "$CASE" -e
	;;
diff_nocolor) # NO_COLOR: the diff keeps its -/+ marks, the changed words underlined
	printf '#!/bin/sh\nNO_COLOR=1 exec %q "$@"\n' "$TETHER" >"$WORK/tether_nocolor"
	chmod +x "$WORK/tether_nocolor"
	TETHER=$WORK/tether_nocolor
	start_fixture "$DATA/tui_diff.scenario"
	start_tether 100 50 "$CONV"
	wait_for_text "Diff test done."
	keys PPage
	wait_for_text "Fix the crash on an empty file."
	golden diff_nocolor -e
	;;
diff_expanded) # the creation's diff focused and expanded in place
	start_fixture "$DATA/tui_diff.scenario"
	start_tether 100 50 "$CONV"
	wait_for_text "Diff test done."
	keys M-Up M-Up
	wait_for_text "more lines · Tab expands · Ctrl-O opens"
	keys Tab
	wait_for_text "lines · Tab folds · Ctrl-O opens"
	golden diff_expanded -e
	;;
diff_pager | diff_pager_80) # Ctrl-O on the edit: the pager in the same colours
	start_fixture "$DATA/tui_diff.scenario"
	cols=100
	[ "$CASE" = diff_pager ] || cols=80
	start_tether "$cols" 40 "$CONV"
	wait_for_text "Diff test done."
	keys M-Up M-Up M-Up
	keys C-o
	wait_for_text "── command ──"
	wait_for_text "Guard the empty case."
	golden "$CASE" -e
	;;
diff_confirm | diff_confirm_100) # an edit waiting for confirmation: the modal shows its diff
	start_fixture "$DATA/tui_diff_confirm.scenario"
	cols=80
	[ "$CASE" = diff_confirm ] || cols=100
	start_tether "$cols" 30 "$CONV"
	wait_for_text "Confirm 1 action"
	golden "$CASE" -e
	;;
code_highlight) # an answer with a Python and a shell block, highlighted
	start_fixture "$DATA/tui_diff.scenario"
	start_tether 100 24 "$CONV"
	wait_for_text "Diff test done."
	golden code_highlight -e
	;;
*) fail "no golden case '$CASE'" ;;
esac
keys C-c C-c
wait_exit 10 || fail "tether did not quit"
no_sanitizer_report
echo ok
