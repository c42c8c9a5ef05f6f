#!/usr/bin/env bash
# Keys you can discover (issue 15, point 2): the empty prompt says "? for keys"; ? on it and
# F1 open the keys overlay, which lists keys of every context and the commands (generated
# from the tables that dispatch) and scrolls; Esc, q, ? and F1 close it; ? in a message is a
# question mark; /help opens the overlay instead of writing a paragraph; Tab completes a
# slash command. Also at 40x10 and across a resize.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"
start_tether 100 30 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"
wait_for "message the agent · ? for keys · /help" || fail "the empty prompt has no hint"
T send-keys -t main -l "hi"
wait_for "> hi" || fail "typing did not show"
screen | grep -qF "? for keys" && fail "the hint stayed while typing"
T send-keys -t main -l "?"
wait_for "> hi?" || fail "? inside a message did not type a question mark"
screen | grep -qF "Keys and commands" && fail "? in a message opened the overlay"
T send-keys -t main C-u
wait_for "? for keys" || fail "the hint did not come back on an empty prompt"

# ? on the empty prompt.
T send-keys -t main -l "?"
wait_for "Keys and commands" || fail "? on an empty prompt did not open the overlay"
for want in "Everywhere" "Ctrl-C" "PgUp, Shift-PgUp" "Ctrl-Home, Alt-Home" "Ctrl-Z" \
	"Typing a message" "Ctrl-J/Alt-Enter"; do
	screen | grep -qF -- "$want" || fail "the overlay does not show '$want'"
done
screen | grep -qF "Ready for your messages." && fail "the overlay does not cover the transcript"
# A key and its command share a line; the commands without a key follow the typing keys.
T send-keys -t main PgDn
wait_for "/resume" || fail "PgDn did not reach the commands"
for want in "Esc  /interrupt" "Ctrl-X  /edit [text]" "Ctrl-O  /confirm" "/copy [N|code|action]"; do
	screen | grep -qF -- "$want" || fail "the overlay does not show '$want'"
done
T send-keys -t main PgDn
wait_for "Asking the server (this conversation)" || fail "PgDn did not reach the server's commands"
for want in "/quit" "/rename TITLE" "/ask QUESTION" "/goal OBJECTIVE|stop|resume"; do
	screen | grep -qF -- "$want" || fail "the overlay does not show '$want'"
done
# seek TEXT: PgDn until the overlay shows TEXT (the list is longer than a few pages).
seek() {
	for _ in 1 2 3 4 5 6; do
		screen | grep -qF -- "$1" && return 0
		T send-keys -t main PgDn
		wait_until_stable
	done
	screen | grep -qF -- "$1"
}
for want in "Ctrl-W, Alt-Backspace" "Ctrl-K" "Ctrl-Y" "Browsing the matches"; do
	seek "$want" || fail "PgDn did not reach '$want'"
done
T send-keys -t main End
wait_for "close this list" || fail "End did not reach the end"
# Paging up passes the pager's keys on the way to the confirmation's.
seen_pager=
seen_reason=
screen | grep -qF "back to the confirmation" && seen_reason=1
for _ in 1 2 3; do
	T send-keys -t main PgUp
	wait_until_stable
	screen | grep -qF "A card full-screen (Ctrl-O)" && seen_pager=1
	screen | grep -qF "back to the confirmation" && seen_reason=1
	screen | grep -qF "A confirmation waits" && break
done
[ -n "$seen_pager" ] || fail "the pager's keys are not listed"
[ -n "$seen_reason" ] || fail "the reason editor's keys are not listed"
screen | grep -qF "A confirmation waits" || fail "PgUp did not reach the confirmation's keys"
screen | grep -qF "send the draft and allow" || fail "the modal's s key is not listed"
T send-keys -t main Home
wait_for "Everywhere" || fail "Home did not go back to the top"
for want in "F1  /help" "F5  /reconnect"; do
	screen | grep -qF -- "$want" || fail "the overlay does not show '$want'"
done
T send-keys -t main PgDn
wait_gone "Everywhere" || fail "PgDn did not scroll"
T send-keys -t main Escape
wait_for "Ready for your messages." || fail "Esc did not close the overlay"
wait_gone "Keys and commands" || fail "the overlay stayed"
hold 0.3 # an interrupt sent wrongly would reach the fixture within this
grep -q 'rest POST [^ ]*/interrupt' "$WORK/traffic" && fail "Esc closing the overlay interrupted"

# F1 (tmux sends xterm's SS3 P) opens it; F1, q and ? close it.
T send-keys -t main F1
wait_for "Keys and commands" || fail "F1 did not open the overlay"
T send-keys -t main F1
wait_gone "Keys and commands" || fail "F1 did not close the overlay"
T send-keys -t main -l "hi"
T send-keys -t main F1
wait_for "Keys and commands" || fail "F1 with a draft did not open the overlay"
T send-keys -t main -l "q"
wait_gone "Keys and commands" || fail "q did not close the overlay"
wait_for "> hi" || fail "the draft was touched by the overlay"
T send-keys -t main C-u

# Typing under the overlay does nothing; a paste closes it and lands in the draft.
T send-keys -t main F1
wait_for "Keys and commands" || fail "F1 did not open the overlay"
T send-keys -t main -l "x"
hold 0.2 # the overlay closing wrongly would show within a frame or two
screen | grep -qF "Keys and commands" || fail "a letter closed the overlay"
printf 'pasted words' | T load-buffer -
T paste-buffer -p -t main
wait_gone "Keys and commands" || fail "a paste did not close the overlay"
wait_for "> pasted words" || fail "a paste under the overlay was lost"
T send-keys -t main C-u

# /help opens the overlay; nothing is added to the transcript.
T send-keys -t main -l "/help"
T send-keys -t main Enter
wait_for "Keys and commands" || fail "/help did not open the overlay"
T send-keys -t main -l "?"
wait_gone "Keys and commands" || fail "? did not close the overlay"
screen | grep -qF "· help" && fail "/help still writes into the transcript"

# Tab completes a unique command, lists the candidates of a shared prefix, says when none.
T send-keys -t main -l "/pa"
T send-keys -t main Tab
T send-keys -t main -l "x"
wait_for "> /pause x" || fail "Tab did not complete /pa (with a space after it)"
T send-keys -t main C-u
T send-keys -t main -l "/re"
T send-keys -t main Tab
wait_for "/resume /reject" || fail "Tab did not list /resume and /reject"
T send-keys -t main -l "s"
T send-keys -t main Tab
wait_for "> /resume" || fail "Tab did not complete /res"
T send-keys -t main C-u
T send-keys -t main -l "/xyz"
T send-keys -t main Tab
wait_for "no command starts with /xyz" || fail "Tab did not say that nothing matches"
T send-keys -t main C-u

# A tiny terminal: the overlay still opens, scrolls to its end and closes; a resize while
# it is open redraws it at the new size.
T resize-window -t main -x 40 -y 10
wait_until_stable
T send-keys -t main F1
wait_for "Keys and" || fail "the overlay did not open at 40x10"
T send-keys -t main End
wait_for "suspend tether" || fail "the overlay's end is not reachable at 40x10"
[ "$(screen | wc -L)" -le 40 ] || fail "the overlay is drawn wider than 40 columns"
T resize-window -t main -x 90 -y 28
wait_for "Ctrl-Z       suspend tether (fg to come back)" || fail "the overlay was not redrawn after a resize"
T send-keys -t main Escape
wait_for "Ready for your messages." || fail "Esc did not close the overlay after a resize"
T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "exit status $RC"
no_sanitizer_report
echo ok
