#!/usr/bin/env bash
# /policy asks the server to change the confirmation policy and says what the server did;
# a word it does not take is said, nothing sent; a server that refuses is said in words,
# never as an HTTP status.
. "$(dirname "$0")/lib.sh" "$@"

# sends COMMAND PATTERN SAID: COMMAND typed and entered sends a request the traffic log shows
# as PATTERN, and then the screen says SAID (what the server did).
sends() {
	T send-keys -t main -l "$1"
	T send-keys -t main Enter
	wait_traffic "$2" || fail "$1 did not send what it should: $2"
	wait_for "$3" || fail "$1 did not say what the server did: $3"
}

start_fixture "$DATA/tui_chat.scenario"
start_tether 100 24 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"

sends "/policy risky medium" \
	'rest POST [^ ]*/confirmation_policy 200 .*"kind":"ConfirmRisky","threshold":"MEDIUM"' \
	"the server now asks before actions of medium risk or higher and of unknown risk"
sends "/policy always" 'rest POST [^ ]*/confirmation_policy 200 .*"kind":"AlwaysConfirm"' \
	"the server now asks before every action"
# the level as the one-shot and upstream write it (HIGH) is taken too
sends "/policy Risky HIGH" \
	'rest POST [^ ]*/confirmation_policy 200 .*"kind":"ConfirmRisky","threshold":"HIGH"' \
	"the server now asks before actions of high risk"

T send-keys -t main -l "/policy sometimes"
T send-keys -t main Enter
wait_for "/policy takes always, never, or risky [low|medium|high]" ||
	fail "a word /policy does not take was not said"
[ "$(grep -c 'rest POST [^ ]*/confirmation_policy ' "$WORK/traffic")" = 3 ] ||
	fail "a /policy it refused went to the server"

# /analyzer: who rates the risks /policy risky compares.
sends "/analyzer llm" \
	'rest POST [^ ]*/security_analyzer 200 \{"security_analyzer":\{"kind":"LLMSecurityAnalyzer"\}\}' \
	"the server now has the LLM rate each action's risk"
sends "/analyzer none" 'rest POST [^ ]*/security_analyzer 200 \{"security_analyzer":null\}' \
	"the server no longer rates the actions' risk"
no_sanitizer_report
echo ok
