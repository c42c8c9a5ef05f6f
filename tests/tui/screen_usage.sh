#!/usr/bin/env bash
# Issue 25, usage: the status line's short form from the conversation's stats (context in use,
# tokens, cost), refreshed by a live stats update; /usage shows it per model, the server's
# strings cleaned (an escape sequence dropped, a secret masked); narrow, the context in use
# stays.
. "$(dirname "$0")/lib.sh" "$@"

printf 'sk-usage-secret-4242\n' >"$WORK/mask"
start_fixture "$DATA/usage.scenario"
start_tether 120 24 --mask-file "$WORK/mask" "$CONV"
wait_for "About forty-three cents so far." || fail "the conversation did not show"
wait_for "ctx 24% · 188k tok · \$0.43" 5 || fail "the status line has no usage: $(screen)"

T send-keys -t main -l "/usage"
T send-keys -t main Enter
wait_for "usage: anthropic/claude-sonnet-4-5 (agent): \$0.42" 5 || fail "/usage said nothing: $(screen)"
for line in "  182,340 in (150,112 cache read, 20,480 cache write) · 5,120 out" \
	"openai/gpt-5-<secret-hidden> (ask-agent-llm): \$0.01" \
	"context: 48,211 of 200,000 tokens (24%)" "total: \$0.43 · 188,400 tokens"; do
	screen | grep -qxF -- "$line" || fail "/usage lacks the line '$line': $(screen)"
done
screen | grep -qF "sk-usage-secret" && fail "the secret reached the screen"
grep -q $'\e\\[31m' "$WORK/bytes" && fail "the server's escape sequence reached the terminal"

# A live stats update (the agent's next call) moves the status line.
T send-keys -t main -l "go on"
T send-keys -t main Enter
wait_for "Now about ninety cents." || fail "the answer did not come"
wait_for "ctx 60% · 257k tok · \$0.91" 5 || fail "the status line did not follow the stats: $(screen)"

# Narrow: the tokens and the cost give way, the context in use stays.
T resize-window -t main -x 30 -y 24
wait_until_stable
status=$(screen | grep -F " live · ")
[ "$status" = " live · idle · ctx 60%" ] || fail "the narrow status line is '$status'"
no_sanitizer_report
echo ok
