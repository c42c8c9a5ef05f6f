#!/usr/bin/env bash
# /policy asks the server to change the confirmation policy and says what the server did;
# a word it does not take is said, nothing sent; a server that refuses is said in words,
# never as an HTTP status.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"
start_tether 100 24 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"

T send-keys -t main -l "/policy risky medium"
T send-keys -t main Enter
wait_traffic 'rest POST [^ ]*/confirmation_policy 200 .*"kind":"ConfirmRisky","threshold":"MEDIUM"' ||
	fail "/policy risky medium did not send ConfirmRisky from MEDIUM"
wait_for "the server now asks before actions of medium risk or higher and of unknown risk" ||
	fail "/policy risky medium did not say what the server did"

T send-keys -t main -l "/policy always"
T send-keys -t main Enter
wait_traffic 'rest POST [^ ]*/confirmation_policy 200 .*"kind":"AlwaysConfirm"' ||
	fail "/policy always did not send AlwaysConfirm"
wait_for "the server now asks before every action" || fail "/policy always said nothing"

T send-keys -t main -l "/policy sometimes"
T send-keys -t main Enter
wait_for "/policy takes always, never, or risky [low|medium|high]" ||
	fail "a word /policy does not take was not said"
[ "$(grep -c 'rest POST [^ ]*/confirmation_policy ' "$WORK/traffic")" = 2 ] ||
	fail "a /policy it refused went to the server"

# /analyzer: who rates the risks /policy risky compares.
T send-keys -t main -l "/analyzer llm"
T send-keys -t main Enter
wait_traffic 'rest POST [^ ]*/security_analyzer 200 \{"security_analyzer":\{"kind":"LLMSecurityAnalyzer"\}\}' ||
	fail "/analyzer llm did not set the LLM analyzer"
wait_for "the server now has the LLM rate each action's risk" || fail "/analyzer llm said nothing"
T send-keys -t main -l "/analyzer none"
T send-keys -t main Enter
wait_traffic 'rest POST [^ ]*/security_analyzer 200 \{"security_analyzer":null\}' ||
	fail "/analyzer none did not remove the analyzer"
wait_for "the server no longer rates the actions' risk" || fail "/analyzer none said nothing"
no_sanitizer_report
echo ok
