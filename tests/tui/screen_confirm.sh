#!/usr/bin/env bash
# The confirmation modal (issue 11, point 13; issue 23, point 7): typed text never answers
# it and goes to the draft whole; the whole 300-character command is shown at 80 columns; y after Tab, arrows + Enter,
# a rejection with a reason, "don't ask again" and "send draft & allow" each send exactly one
# answer; Esc sets it aside with the draft untouched, and a draft is never sent while actions
# wait (a message would run them on the agent-server).
. "$(dirname "$0")/lib.sh" "$@"

answers() { grep -c 'respond_to_confirmation' "$WORK/traffic"; }
accepts() { grep -c 'respond_to_confirmation 200 {"accept":true}' "$WORK/traffic"; }
user_messages() { grep -c '^recv [0-9]* {"role":"user"' "$WORK/traffic"; }

start_fixture "$DATA/tui_confirm.scenario"
start_tether 80 24 "$CONV"
wait_for "Confirm 1 action" || fail "no confirmation modal"
# The whole command, its dangerous tail included, at 80 columns; tool, risk and thought too.
wait_for "TAIL-7f3e" || fail "the command's tail is not shown"
screen | grep -qF "[HIGH risk] terminal" || fail "the modal does not name the tool and its risk"
screen | grep -qF "why: The build directory holds stale" || fail "the modal does not show the thought"

# Typing as the request shows goes to the draft whole (issue 23, point 7): a message that
# starts with y is typing, not an answer, and [y] is not offered while y would type.
T send-keys -t main -l "yes, but first list what is in build/"
wait_for "> yes, but first list what is in build/" || fail "typing while a confirmation waits was lost"
screen | grep -qF "[y] allow" && fail "the modal offers [y] while y goes to the draft"
screen | grep -qF "allow · reject" || fail "the modal does not name its choices before Tab"
T send-keys -t main Enter
wait_for "not sent: a message would allow" || fail "Enter with a draft did not say why it is not sent"
hold 1 # an answer or a message sent wrongly would reach the fixture within this
[ "$(answers)" = 0 ] || fail "typed text answered the confirmation"
[ "$(user_messages)" = 0 ] || fail "a message went out while actions waited"
screen | grep -qF "reason:" && fail "typed n started a rejection"
# Tab moves to the choices: their keys show, and the notice about the draft goes.
T send-keys -t main Tab
wait_for "[y] allow" || fail "Tab did not give the choices the keyboard"
wait_gone "not sent: a message would allow" 2 || fail "the notice about the draft stayed after Tab"
# A key that is no choice is typing: it goes to the draft, and so does the keyboard.
T send-keys -t main -l "x"
wait_for "> yes, but first list what is in build/x" || fail "a key that is no choice was lost"
wait_for "typing goes to the draft" || fail "giving the keyboard back to the draft was not said"
wait_gone "[y] allow" || fail "the choices kept the keyboard after typing"
[ "$(answers)" = 0 ] || fail "typing answered the confirmation"

# Esc sets it aside; the status line still says a confirmation is pending.
T send-keys -t main Escape
wait_gone "Confirm 1 action" || fail "Esc did not set the modal aside"
screen | grep -qF "needs confirmation · Ctrl-O to answer" || fail "the status line does not say a confirmation waits and how to answer"
screen | grep -qF "> yes, but first list what is in build/x" || fail "Esc touched the draft"
T send-keys -t main C-u
wait_gone "> yes, but" || fail "Ctrl-U did not clear the draft"
# Search and /copy action reach the whole command, its tail included.
T send-keys -t main C-r
wait_for "search:" || fail "Ctrl-R did not start a search"
T send-keys -t main -l "TAIL-7f3e"
wait_for_text "TAIL-7f3e" 5
wait_until_stable
screen | grep -qF "search (no match)" && fail "search does not reach the command's tail"
T send-keys -t main Escape
# (the search's line reads "search 1/1:" here: the empty draft's line says the search ended)
wait_for "> message the agent" || fail "Esc did not end the search"
T send-keys -t main -l "/copy action"
T send-keys -t main Enter
wait_for "tether-copy.txt" || fail "/copy action did not say where it copied"
[ "$(cat "$WORK/run/tether-copy.txt")" = "command: rm -rf build/cache build/tmp && echo step-01-of-the-cleanup && echo step-02-of-the-cleanup && echo step-03-of-the-cleanup && echo step-04-of-the-cleanup && echo step-05-of-the-cleanup && echo step-06-of-the-cleanup && echo step-07-of-the-cleanup && echo step-08-of-the-cleanup && rm -rf ~/projects TAIL-7f3e" ] ||
	fail "/copy action copied '$(cat "$WORK/run/tether-copy.txt")'"
# A draft typed now is never sent while actions wait: Enter opens the modal instead.
T send-keys -t main -l "my draft"
T send-keys -t main Enter
wait_for "Confirm 1 action" || fail "Enter with a draft did not bring the modal back"
hold 0.5 # a message sent wrongly would reach the fixture within this
[ "$(user_messages)" = 0 ] || fail "a message went out while actions waited"
T send-keys -t main Escape
wait_gone "Confirm 1 action" || fail "Esc did not set the modal aside again"
screen | grep -qF "> my draft" || fail "the draft was touched"
# /confirm (typed on purpose) opens it with focus; Ctrl-O too.
T send-keys -t main C-o
wait_for "Confirm 1 action" || fail "Ctrl-O did not open the modal"
screen | grep -qF "Tab or ↑↓ to answer" && fail "Ctrl-O opened the modal without focus"
T send-keys -t main Escape
wait_gone "Confirm 1 action" || fail "Esc did not set it aside"
screen | grep -qF "> my draft" || fail "the draft was touched by the modal"
T send-keys -t main C-u
wait_gone "> my draft" 5 || fail "Ctrl-U did not clear the draft"

# 1: allow by a single key, once the modal has focus (Tab).
T send-keys -t main C-o
wait_for "Confirm 1 action" || fail "Ctrl-O did not open the modal"
T send-keys -t main y
wait_traffic 'respond_to_confirmation 200 \{"accept":true\}' || fail "y did not allow"
wait_for "Allowed one." || fail "the run did not go on after allowing"
[ "$(answers)" = 1 ] || fail "y sent $(answers) answers"

# 2: the next request opens the modal unfocused: Tab, then y allows.
wait_for "why: Second try." || fail "no second confirmation"
T send-keys -t main y
wait_for "> y" || fail "y before Tab did not go to the draft"
[ "$(answers)" = 1 ] || fail "y answered a modal without focus"
T send-keys -t main C-u
wait_gone "> y" || fail "Ctrl-U did not clear the draft"
T send-keys -t main Enter
wait_for "Tab or an arrow key chooses" || fail "Enter without focus was not explained"
[ "$(answers)" = 1 ] || fail "Enter answered a modal without focus"
T send-keys -t main Tab
T send-keys -t main y
wait_for "Allowed two." || fail "Tab then y did not allow"
[ "$(accepts)" = 2 ] || fail "Tab, y sent $(accepts) accepts in all"

# 3: arrows + Enter: the first arrow focuses, the next chooses, Enter answers once.
wait_for "why: Third try." || fail "no third confirmation"
T send-keys -t main Down
T send-keys -t main Down
T send-keys -t main Enter
wait_for "Allowed three." || fail "arrows and Enter did not allow"
[ "$(accepts)" = 3 ] || fail "arrows + Enter sent $(accepts) accepts in all"

# 4: reject with a reason typed in the modal.
wait_for "why: Fourth try." || fail "no fourth confirmation"
T send-keys -t main Tab
T send-keys -t main n
wait_for "reason:" || fail "n did not ask for a reason"
T send-keys -t main -l "too dangerous"
T send-keys -t main Enter
wait_traffic 'respond_to_confirmation 200 \{"accept":false,"reason":"too dangerous"\}' ||
	fail "the rejection did not carry its reason"
wait_for "Rejected four." || fail "the run did not go on after the rejection"

# 5: "don't ask again": the policy (NeverConfirm) first, then the answer.
wait_for "why: Fifth try." || fail "no fifth confirmation"
T send-keys -t main Tab
T send-keys -t main d
wait_traffic 'confirmation_policy 200 \{"policy":\{"kind":"NeverConfirm"\}\}' ||
	fail "d did not set the confirmation policy"
wait_for "Allowed five." || fail "d did not allow after setting the policy"
[ "$(accepts)" = 4 ] || fail "d sent $(accepts) accepts in all"

# 6: "send draft & allow": the answer first, then the message, each once.
wait_for "why: Sixth try." || fail "no sixth confirmation"
T send-keys -t main Escape
wait_gone "why: Sixth try." || fail "Esc did not set the sixth aside"
T send-keys -t main -l "after allowing"
T send-keys -t main C-o
wait_for "[s] send draft" || fail "the modal does not offer to send the draft"
T send-keys -t main s
wait_traffic '"text":"after allowing"' || fail "the draft was not sent after allowing"
[ "$(accepts)" = 5 ] || fail "send & allow sent $(accepts) accepts in all"
[ "$(user_messages)" = 1 ] || fail "the draft was sent $(user_messages) times"
accept_line=$(grep -n 'respond_to_confirmation' "$WORK/traffic" | tail -1 | cut -d: -f1)
message_line=$(grep -n '"text":"after allowing"' "$WORK/traffic" | head -1 | cut -d: -f1)
[ "$accept_line" -lt "$message_line" ] || fail "the draft went out before the answer"
wait_for "Got your message." || fail "the message was not answered"
[ "$(answers)" = 6 ] || fail "$(answers) answers for 6 confirmations"
no_sanitizer_report
echo ok
