#!/usr/bin/env bash
# Typing a message and Enter sends it once; a bracketed multi-line paste is inserted whole and
# goes out as ONE message when Enter is pressed, never line by line; idle, tether sleeps.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"
start_tether 80 30 --ping-interval 60 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"
wait_traffic '^conn 1 ' || fail "no connection"
# No stats yet (issue 25): /usage says so, the status line has no usage, nothing is sent.
T send-keys -t main -l "/usage"
T send-keys -t main Enter
wait_for "no usage known yet: the server reports it after the agent's first LLM call" 5 ||
	fail "/usage without stats said nothing: $(screen)"
screen | grep -qF "ctx " && fail "a status line with usage before any stats: $(screen)"

T send-keys -t main -l "héllo from the screen test 你好"
wait_for "> héllo from the screen test 你好" || fail "typed text is not in the input"
T send-keys -t main Enter
wait_for "Scripted reply to your message." || fail "no reply streamed"
wait_gone "> héllo" || fail "the input was not emptied"
[ "$(grep -c '^recv 1 .*héllo from the screen test' "$WORK/traffic")" = 1 ] ||
	fail "the message did not go out exactly once"
screen | grep -qF "héllo from the screen test 你好" || fail "the echo is not shown"

# A paste with line breaks: tmux brackets it (paste-buffer -p) because tether asked for
# bracketed paste; the line breaks arrive as CR, as from a real terminal.
T set-buffer -b multi "$(printf 'paste line one\npaste line two\npaste line three')"
T paste-buffer -p -b multi -t main
wait_for "paste line three" || fail "the paste is not in the input"
hold 0.3 # a paste sent wrongly would reach the fixture within this
grep -q 'paste line' "$WORK/traffic" && fail "the paste was sent before Enter"
s=$(screen)
grep -qF "> paste line one" <<<"$s" || fail "the first pasted line is not the input's first row"
grep -qF "  paste line two" <<<"$s" || fail "the second pasted line is not in the input"
T send-keys -t main Enter
nl='(\\n|\\u000a)'
wait_traffic "^recv 1 .*paste line one${nl}paste line two${nl}paste line three\"" ||
	fail "the paste did not go out as one message with its line breaks"
[ "$(grep -c '^recv 1 .*paste line' "$WORK/traffic")" = 1 ] || fail "the paste went out in pieces"

# Slash commands: an unknown one is not sent, a doubled slash sends a message starting with one.
T send-keys -t main -l "/nope"
T send-keys -t main Enter
wait_for "unknown command /nope" || fail "an unknown command was not reported"
grep -q 'nope' "$WORK/traffic" && fail "an unknown command was sent as a message"
T send-keys -t main -l "//etc/hosts please"
T send-keys -t main Enter
wait_traffic '^recv 1 .*"text":"/etc/hosts please"' || fail "//text did not send /text"

# Idle means asleep: no render ticks, no spinner. Counted as context switches (a wakeup is
# one), once the reply's reveal has ended; pings are 60 s apart here.
wait_until_stable # the reply's reveal has ended
pid=$(cat "$WORK/pid")
switches() { awk '/ctxt_switches/ { n += $2 } END { print n }' "/proc/$pid/status"; }
before=$(switches)
hold 2 # what is measured: wakeups in 2 s
after=$(switches)
[ $((after - before)) -le 2 ] || fail "an idle tether woke up $((after - before)) times in 2 s"

T send-keys -t main C-d
wait_exit || fail "Ctrl-D on an empty input did not quit"
[ "$RC" = 0 ] || fail "exit status $RC after Ctrl-D"
no_sanitizer_report
echo ok
