#!/usr/bin/env bash
# /new: the agent profiles asked of the server; several are a choice (a digit picks, Enter the
# active one, Esc none); the conversation started with the one chosen and the first message,
# then opened beside the others and shown.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario" --agent-profile default --agent-profile reviewer
start_tether 120 30 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"
run() { T send-keys -t main -l "$1"; T send-keys -t main Enter; }

run "/new"
wait_for "agent profile? 1 default (active) · 2 reviewer ·" || fail "/new did not offer the profiles"
T send-keys -t main Escape
wait_for "no new conversation" || fail "Esc did not give up"
grep -q 'rest POST /api/conversations ' "$WORK/traffic" && fail "Esc started a conversation"

run "/new review the parser"
wait_for "agent profile? 1 default (active) · 2 reviewer ·" || fail "/new did not offer them again"
T send-keys -t main 2
wait_traffic 'rest POST /api/conversations 201 \{"agent_profile_id":"[^"]*","workspace":\{"working_dir":"[^"]*"\},"initial_message":\{"role":"user","content":\[\{"type":"text","text":"review the parser"\}\],"run":true\},"autotitle":true\}' ||
	fail "the conversation was not started with the message"
# the second profile listed (the fixture's ids count from …0001)
grep -q 'rest POST /api/conversations 201 {"agent_profile_id":"a9000000-0000-4000-8000-000000000002"' \
	"$WORK/traffic" || fail "2 did not start the conversation with the second profile"
# open beside the first and shown: the strip says 2/2 and the status line names its id; it is
# connected, its own history (its first message) shown, not the first conversation's
wait_for "2/2" || fail "the new conversation is not open beside the first"
screen | tail -2 | grep -qF "c0000000-0000-4000-8000-000000000001" ||
	fail "the new conversation is not the one shown"
status_live() { screen | tail -2 | grep -qF " live · "; }
wait_until 10 status_live || fail "the new conversation is not connected"
wait_for "review the parser" || fail "the new conversation's first message is not shown"
screen | grep -qF "Ready for your messages." && fail "the new conversation shows the first one's history"
grep -q '^conn [0-9]* .*id=c0000000-0000-4000-8000-000000000001$' "$WORK/traffic" ||
	fail "no socket was opened for the new conversation"

# --title: a title the server takes by a rename once the conversation started (upstream's
# start has none), the server's own title not asked for; a title without its end quote is
# said, nothing started
run '/new --title "Parser review'
wait_for "/new --title takes a title: a word, or words in double quotes" ||
	fail "a title without its end quote was not said"
run '/new --title "Parser review" look at the lexer'
wait_for "agent profile? 1 default (active)" || fail "/new --title did not offer the profiles"
T send-keys -t main 1
wait_traffic 'rest POST /api/conversations 201 \{"agent_profile_id":"a9000000-0000-4000-8000-000000000001",.*"text":"look at the lexer"\}\],"run":true\},"autotitle":false\}' ||
	fail "the conversation was not started with the message alone, without the server's title"
wait_traffic 'rest PATCH /api/conversations/c0000000-0000-4000-8000-000000000002 200 \{"title":"Parser review"\}' ||
	fail "the new conversation was not renamed to the title given"
wait_for "renamed: the conversation is now “Parser review”" || fail "the rename was not said"
wait_for "3/3" || fail "the titled conversation is not open beside the others"
screen | tail -2 | grep -qF "Parser review" || fail "the status line does not name the title given"

# the new conversation's own state: /model there is published on its socket (the status line
# names the model), not on the first conversation's
run '/model fast'
wait_traffic 'rest POST /api/conversations/c0000000-0000-4000-8000-000000000002/switch_profile 200' ||
	fail "/model did not switch the new conversation's profile"
wait_for "openai/gpt-5-mini" || fail "the new conversation's status line does not name its new model"
no_sanitizer_report
echo ok
