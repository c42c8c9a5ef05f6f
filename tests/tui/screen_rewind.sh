#!/usr/bin/env bash
# Rewind and fork (issue 25): Esc on an empty prompt with no run says Esc again rewinds; Esc
# Esc marks the last question (Up/Down pick another, asking nothing) and Enter navigates the
# server's HEAD to the event before it (its parent, never to no event), the transcript shows
# that branch only, and the question comes back into the input; /rewind with nothing of the
# user's before it says so without asking the server. /fork forks the whole conversation (no
# item focused) and opens and shows the new one, and with an item focused its branch up to
# the event before it (the focused question in the new one's input); a server older than the
# fork route is said so with its version, never as an HTTP status, and one before 1.31 is not
# asked to fork from an event (it would fork everything).
. "$(dirname "$0")/lib.sh" "$@"

# begin [FIXTURE ARG...]: a new fixture server with the rewind scenario (and the arguments) and
# tether on its conversation, the history shown.
begin() {
	start_fixture "$DATA/tui_rewind.scenario" "$@"
	start_tether 100 24 "$CONV"
	wait_for "Second answer." || fail "the history did not show ($*)"
}

# reopen [FIXTURE ARG...]: begin again, after the tmux server and the fixture have ended.
reopen() {
	fresh_tmux
	kill "$SRV" 2>/dev/null
	wait "$SRV" 2>/dev/null
	SRV=
	begin "$@"
}

# enter TEXT: TEXT typed into the input, then Enter.
enter() {
	T send-keys -t main -l "$1"
	T send-keys -t main Enter
}

# quit: Ctrl-C twice ends tether, and nothing was reported by a sanitizer.
quit() {
	T send-keys -t main C-c C-c
	wait_exit || fail "Ctrl-C twice did not quit"
	no_sanitizer_report
}

begin

# The id of "First answer." (seq 1): where the rewind goes (the second question's parent).
first_answer=$(sed -n 's/^1 \([^ ]*\).*/\1/p' "$WORK/durable")
[ -n "$first_answer" ] || fail "the fixture's durable log has no id for the first answer"

T send-keys -t main Escape
wait_for "(Esc again: /rewind)" || fail "Esc on an empty prompt did not say that a second rewinds"
hold 1.1 # past the second that makes the next Esc the second of two
T send-keys -t main Escape Escape
wait_for "rewind to before the marked message?" || fail "Esc Esc did not offer to rewind"
# Up marks the first question, Down the second again; Enter goes.
T send-keys -t main Up
wait_for "nothing before it" 1 && fail "Up rewound at once"
T send-keys -t main Down
T send-keys -t main Down
wait_for "your last message: nothing newer" || fail "Down past the last message did not say so"
hold 0.3
grep -q 'rest POST [^ ]*/navigate ' "$WORK/traffic" && fail "picking a message asked the server"
T send-keys -t main Enter
wait_traffic "rest POST [^ ]*/navigate 200 .*\"event_id\":\"$first_answer\"" ||
	fail "Esc Esc did not navigate to the event before the last question"
wait_for "rewound: your message is in the input" || fail "the rewind did not say what it did"
wait_gone "Second answer." || fail "the abandoned branch is still shown"
s=$(screen)
grep -qF "First answer." <<<"$s" || fail "the branch kept is not shown"
[ "$(grep -cF "Second question, to be edited." <<<"$s")" = 1 ] ||
	fail "the question is not in the input once (and only there)"
tail -3 <<<"$s" | grep -qF "Second question, to be edited." || fail "the question is not in the input"

# Sent again, edited: the new question is the first answer's child, shown on the branch; the
# abandoned one stays off.
T send-keys -t main End
T send-keys -t main -l " Again."
T send-keys -t main Enter
wait_gone "> Second question" 5 || fail "the input still holds the question after sending it"
wait_for "Second question, to be edited. Again." || fail "the question sent again is not shown"
screen | grep -qF "Second answer." && fail "the abandoned branch came back with the new question"

# The first question marked (Up, Up: nothing older), nothing comes before it: said, and the
# server not asked again.
enter "/rewind"
wait_for "rewind to before the marked message?" || fail "/rewind did not offer to rewind"
T send-keys -t main Up Up
wait_for "your first message: nothing older" || fail "Up past the first message did not say so"
T send-keys -t main Enter
wait_for "nothing before it to go back to" || fail "/rewind before the first message did not say so"
[ "$(grep -c 'rest POST [^ ]*/navigate ' "$WORK/traffic")" = 1 ] || fail "the refused rewind asked the server"

# /fork with no item focused: the whole conversation, shown.
T send-keys -t main M-Down M-Down M-Down
enter "/fork"
wait_traffic 'rest POST [^ ]*/fork 201' || fail "/fork did not fork"
grep 'rest POST [^ ]*/fork ' "$WORK/traffic" | grep -q from_event_id && fail "a whole fork sent from_event_id"
wait_for "2/2 │" || fail "/fork did not open the new conversation beside this one"
quit

# Try again from here: the second question focused, the fork is its branch up to the event
# before it (the first answer), and the question is in the new conversation's input.
reopen
first_answer=$(sed -n 's/^1 \([^ ]*\).*/\1/p' "$WORK/durable")
T send-keys -t main M-Up M-Up
enter "/fork"
wait_traffic "rest POST [^ ]*/fork 201 .*\"from_event_id\":\"$first_answer\"" ||
	fail "/fork on the focused question did not fork from the event before it"
wait_for "2/2 │" || fail "the fork from here was not opened"
# connected, its history the branch copied up to the first answer
wait_for " live · " || fail "the fork is not connected"
screen | grep -qF "First answer." && ! screen | grep -qF "Second answer." ||
	fail "the fork does not show its own history (up to the first answer)"
tail -3 <<<"$(screen)" | grep -qF "Second question, to be edited." ||
	fail "the focused question is not in the new conversation's input"
quit

# A server before the fork route: said with its version.
reopen --server-version 1.17.0
enter "/fork"
wait_for "this server (version 1.17.0) has no fork" || fail "the older server's missing fork was not said"
grep -q 'rest POST [^ ]*/fork ' "$WORK/traffic" && fail "tether asked an older server for a fork it has not"
quit

# A server with fork but before from_event_id (1.30.0) would fork everything: refused.
reopen --server-version 1.30.0
T send-keys -t main M-Up
enter "/fork"
wait_for "this server (version 1.30.0) cannot fork from an event" ||
	fail "a fork from an event on a server before 1.31 was not refused"
grep -q 'rest POST [^ ]*/fork ' "$WORK/traffic" && fail "tether asked 1.30.0 to fork from an event"
quit
echo ok
