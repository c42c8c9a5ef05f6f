#!/usr/bin/env bash
# The commands that ask the server to act on the conversation: /rename (the status line takes
# the new title), /ask (the answer a side note, nothing sent on the socket), /compact, /goal
# and /goal stop, /model, /delete after a question naming the title (any key but y keeps
# it); an older server's missing route said with its version; a refusal in the server's words.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"
start_tether 120 30 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"

run() { T send-keys -t main -l "$1"; T send-keys -t main Enter; }

run "/rename Renamed from the prompt"
wait_traffic 'rest PATCH [^ ]*'"$CONV"' 200 \{"title":"Renamed from the prompt"\}' ||
	fail "/rename did not PATCH the title"
wait_for "renamed: the conversation is now “Renamed from the prompt”" || fail "/rename said nothing"
screen | tail -2 | grep -qF "Renamed from the prompt" || fail "the status line kept the old title"

run "/ask what did you read?"
wait_traffic 'rest POST [^ ]*/ask_agent 200 \{"question":"what did you read\?"\}' ||
	fail "/ask did not ask the server aside"
wait_for "aside (not part of the conversation)" || fail "the answer aside is not shown"
wait_for 'Aside, about "what did you read?"' || fail "the answer's text is not shown"
grep -q '^recv 1 .*what did you read' "$WORK/traffic" && fail "the question went to the conversation"

run "/compact"
wait_traffic 'rest POST [^ ]*/condense 200' || fail "/compact did not condense"
wait_for "the server condensed the history the agent sees" || fail "/compact said nothing"

run "/goal resume"
wait_for "could not resume the goal: there is no goal to resume (none was set, or it ended)" ||
	fail "a goal/resume with nothing to resume was not said in words"
run "/goal make the tests pass"
wait_traffic 'rest POST [^ ]*/goal 200 \{"objective":"make the tests pass"' || fail "/goal sent no goal"
wait_for "goal set: the agent works toward “make the tests pass”" || fail "/goal said nothing"
run "/goal make it twice"
wait_for "could not set the goal: a run or a goal is already going" ||
	fail "a second goal's conflict was not said in words"
run "/goal stop"
wait_traffic 'rest POST [^ ]*/goal/stop 200' || fail "/goal stop did not stop"
wait_for "goal stopped" || fail "/goal stop said nothing"
run "/goal resume"
wait_for "goal resumed: the agent works toward it again" || fail "/goal resume said nothing"
run "/goal stop"
wait_for "goal stopped" || fail "the resumed goal did not stop"

# under a policy that confirms, a goal is asked about first (its loop runs what waits)
run "/policy always"
wait_for "the server now asks before every action" || fail "/policy always said nothing"
run "/goal refactor the lexer"
wait_for "a goal runs the actions your policy would ask about without asking: set the goal? y does" ||
	fail "/goal under a confirming policy did not ask first"
T send-keys -t main n
wait_for "no goal: nothing was sent to the server" || fail "n did not keep the goal back"
grep -q 'refactor the lexer' "$WORK/traffic" && fail "the goal was sent after n"
run "/goal refactor the lexer"
wait_for "set the goal? y does" || fail "/goal did not ask again"
T send-keys -t main y
wait_traffic 'rest POST [^ ]*/goal 200 \{"objective":"refactor the lexer"' || fail "y did not set the goal"
wait_for "goal set: the agent works toward “refactor the lexer”" || fail "the goal set after y said nothing"
run "/goal stop"
stops() { [ "$(grep -c 'rest POST [^ ]*/goal/stop 200' "$WORK/traffic")" -ge 3 ]; }
wait_until 10 stops || fail "the goal set after y did not stop"
run "/policy never"
wait_for "the server now runs every action without asking" || fail "/policy never said nothing"

run "/model nosuch"
wait_traffic 'rest POST [^ ]*/switch_profile 404' || fail "/model sent no switch"
wait_for "could not switch the model: the server says “Profile 'nosuch' not found”" ||
	fail "an unknown profile was not said in the server's words"
screen | grep -qF "HTTP" && fail "a failure was said as an HTTP status"
screen | tail -2 | grep -qF "fixture/scripted" || fail "the status line does not name the model"
# switched before any list: the model comes with the server's state update of the agent
run "/model fast"
wait_traffic 'rest POST [^ ]*/switch_profile 200 \{"profile_name":"fast"\}' || fail "/model fast did not switch"
wait_for "the conversation now runs on the LLM profile “fast”" || fail "/model fast said nothing"
status_names() { screen | tail -2 | grep -qF "$1"; }
wait_until 10 status_names "openai/gpt-5-mini" || fail "the status line did not take the new model from the agent's update"
# /model alone: the profiles on the input line, a digit switches, Esc keeps the model.
run "/model"
wait_for "model? 1 default (anthropic/claude-sonnet-4-5) [default] · 2 fast (openai/gpt-5-mini) · a digit picks, Esc keeps it" ||
	fail "/model did not offer the LLM profiles"
# Narrower, the line holds the names only, then only the digits: never no prompt at all.
T resize-window -t main -x 80 -y 30
wait_for "model? 1 default [default] · 2 fast · a digit picks, Esc keeps it" ||
	fail "at 80 columns the choice did not drop the models to fit"
T resize-window -t main -x 40 -y 30
wait_for "model? 1–2 · Esc keeps it" ||
	fail "at 40 columns the choice did not drop the names to fit"
T resize-window -t main -x 120 -y 30
T send-keys -t main Escape
wait_for "the model stays as it was" || fail "Esc did not keep the model"
[ "$(grep -c 'rest POST [^ ]*/switch_profile 200' "$WORK/traffic")" = 1 ] || fail "Esc switched the model"
run "/model"
wait_for "model? 1 default" || fail "/model did not offer the profiles again"
T send-keys -t main 1
wait_traffic 'rest POST [^ ]*/switch_profile 200 \{"profile_name":"default"\}' || fail "1 did not switch to the first profile"
wait_for "the conversation now runs on the LLM profile “default”" || fail "the switch by digit said nothing"
wait_until 10 status_names "anthropic/claude-sonne" || fail "the status line did not follow the switch by digit"

run "/delete"
wait_for "delete “Renamed from the prompt” from the server for good? y deletes" ||
	fail "/delete did not ask, naming the title"
T send-keys -t main n
wait_for "kept: nothing was deleted" || fail "n did not keep the conversation"
grep -q 'rest DELETE ' "$WORK/traffic" && fail "n deleted the conversation"
run "/delete"
wait_for "for good? y deletes" || fail "/delete did not ask again"
T send-keys -t main y
wait_traffic 'rest DELETE [^ ]*'"$CONV"' 200' || fail "y did not delete"
wait_for "the server deleted “Renamed from the prompt”" || fail "the deletion was not said"
kill "$SRV" 2>/dev/null
wait "$SRV" 2>/dev/null

# An older server: /ask's route is missing; the message names the version.
start_fixture "$DATA/tui_chat.scenario" --server-version 1.2.0
fresh_tmux
start_tether 120 30 "$CONV"
wait_for "Ready for your messages." || fail "the older server's history did not show"
run "/ask anything"
wait_for "this server (version 1.2.0) has no asking aside" || fail "the missing route was not said"
grep -q 'rest GET /server_info 200' "$WORK/traffic" ||
	fail "the version was not asked after the missing route"
no_sanitizer_report
echo ok
