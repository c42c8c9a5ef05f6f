#!/usr/bin/env bash
# Events shaped as the OpenHands SDK serializes them (tests/data/upstream.scenario, issue 13):
# every event shows what a user needs, in words. The finish message is a whole agent message
# (markdown, last paragraph on screen, what /copy takes); exit codes, timeouts and rejections
# are told apart; each standard tool's card shows its arguments; reasoning is collapsed once
# and <think> never shows; no raw kind name, no "exit -1", no "[UNKNOWN]" anywhere; a card's
# status and risk stay on its header row at a narrow width; Tab opens the system prompt.
. "$(dirname "$0")/lib.sh" "$@"

FINISH_LAST="All 7 tests pass, and the report tool now handles an empty CSV without crashing."

start_fixture "$DATA/upstream.scenario"
start_tether 120 50 "$CONV"
wait_for "$FINISH_LAST" || fail "the finish message's last paragraph is not on screen"
s=$(screen)
# The answer is an agent message rendered as markdown: no raw "## ", no tool card, no cut.
grep -B2 -F "Summary" <<<"$s" | grep -qx "agent" || fail "the finish message is not an agent message"
grep -qF "## Summary" <<<"$s" && fail "the finish message shows raw markdown"
grep -qF "• tests/test_summary.py covers the empty case" <<<"$s" || fail "the finish list is not rendered"
grep -qF "⚙ finish" <<<"$s" && fail "the finish shows as a tool card"

# /copy takes the final answer, not an older message.
T send-keys -t main -l "/copy"
T send-keys -t main Enter
wait_until 5 test -s "$WORK/run/tether-copy.txt"
grep -qF "$FINISH_LAST" "$WORK/run/tether-copy.txt" 2>/dev/null || fail "/copy did not copy the finish message"

# The whole transcript, page by page from the top.
T send-keys -t main C-Home
wait_until_stable
: >"$WORK/all"
for _ in $(seq 40); do
	screen >>"$WORK/all"
	screen | grep -qF "more below" || break
	T send-keys -t main PageDown
	wait_until_stable
done
all=$(cat "$WORK/all")
# Every event is loaded: events that make no item of their own (the ACP card's second
# emission, the LLM completion log) are part of the log, never a gap row.
grep -qF "earlier event" <<<"$all" && fail "a gap row mid-transcript: $(grep -F "earlier event" <<<"$all")"
# The socket replays the newest screenful (48 rows: after seq 4 of the log's 53 events); the
# window's rest is one page asking exactly those 5 events and its anchor, and no more.
grep -q "^conn 1 after_seq=4 " "$WORK/traffic" || fail "the socket did not replay a screenful: $(grep '^conn' "$WORK/traffic")"
[ "$(grep -c "events/search" "$WORK/traffic")" = 1 ] && grep -q "events/search?.*&limit=6&" "$WORK/traffic" ||
	fail "the window was not paged in as one page of 6: $(grep "events/search" "$WORK/traffic")"
has() { grep -qF -- "$1" <<<"$all" || fail "not shown: $1"; }
has "▸ system prompt (11 lines)"
has "⚙ terminal  ✗ failed  SESSION_URL=\"\${AUTOMATION_SESSION_URL:-https://app.all-hands.dev}\" …"
has "  echo \"SESSION_URL=\${SESSION_URL}\""
has "Cannot execute multiple commands at once."
has "▸ reasoning (5 lines) — Tab to expand"
has "⚙ terminal  ✗ failed (exit 1)  python -m report tests/fixtures/empty.csv"
has "⚙ terminal  ⧗ still running  [MEDIUM]  python -m http.server 8000"
has "[The command has no new output after 30 seconds."
has "⚙ terminal  ⧗ timed out  sleep 600"
has "⚙ file_editor  ✓ done  [MEDIUM]  str_replace /workspace/report/report/summary.py"
has "    return Summary.empty()"
has "⚙ task_tracker  ✓ done  plan"
has "2. [~] Guard the empty case in summarize() (in progress)"
has "⚙ think  ✓ done  weigh the options"
has "2. raise a clear error"
has "⚙ glob  ✓ done  tests/**/*.py"
has "⚙ grep  ✓ done  def summarize"
has "include: *.py"
has "⚙ browser_navigate  ✓ done  http://localhost:8000/report.html"
has "⚙ github_get_issue  ✓ done  read the issue"
has "issue_number: 42"
has "⚙ delegate  ✓ done  spawn"
has "agent_types: default"
has "⚙ terminal  ⊘ rejected  [HIGH]  rm -rf build/ dist/"
has "Keep dist/, it has the release files."
has "· hook PreToolUse (terminal): blocked (exit 2)"
has "⚙ terminal  ⊘ blocked by hook  [HIGH]  git push --force origin main"
has "⚙ str_replace_editor  ✗ failed  view"
has "path: /workspace/report/report/cli.py"
has "Tool 'str_replace_editor' not found."
has "· history condensed"
has "· paused"
has "⚙ Write tests/test_summary.py  ✓ done  edit"
has "Wrote 2 lines to tests/test_summary.py"
# Emitted in progress, then completed: one card that ended, not a second one left running.
grep -qF "… running" <<<"$all" && fail "a card is left running"
grep -qF "no result (run ended)" <<<"$all" && fail "a card is left without its result"
has "⚙ terminal  ✓ exit 0  pytest -q"
has "· plan review"
has "score: 0.5"
# Three reasoning shapes (thinking blocks, Responses item, reasoning_content) are collapsed.
[ "$(grep -cF "▸ reasoning" <<<"$all")" -ge 4 ] || fail "reasoning is missing from some events"
for bad in "exit -1" "[UNKNOWN]" "<think>" "</think>" "{\"" "1757015046"; do
	grep -qF -- "$bad" <<<"$all" && fail "shown: $bad"
done
for kind in $(grep -o '"kind":"[A-Za-z]*"' "$DATA/upstream/events.jsonl" | sort -u | cut -d'"' -f4); do
	grep -qF -- "$kind" <<<"$all" && fail "raw kind name on screen: $kind"
done

# Narrow: the status and the risk stay on the header row, the summary gives way.
T resize-window -t main -x 48 -y 50
wait_until_stable
T send-keys -t main C-Home
wait_until_stable
: >"$WORK/narrow"
for _ in $(seq 80); do
	screen >>"$WORK/narrow"
	screen | grep -qF "more below" || break
	T send-keys -t main PageDown
	wait_until_stable
done
grep -qF "⚙ terminal  ⧗ still running  [MEDIUM]  py" "$WORK/narrow" ||
	fail "a narrow header lost its status or risk"
grep -qF "⚙ terminal  ⊘ blocked by hook  [HIGH]  git" "$WORK/narrow" ||
	fail "a narrow header lost its status or risk"
grep -qF "⚙ Write tests/tes…  ✓ done  edit" "$WORK/narrow" ||
	fail "a long title pushed the status off a narrow header"

# Tab opens the system prompt: at the top of a short window it is the item in view.
T resize-window -t main -x 120 -y 6
wait_until_stable
T send-keys -t main C-Home
wait_until_stable
T send-keys -t main Tab
wait_for "▾ system prompt" 5 || fail "Tab did not open the system prompt"
wait_for "You are OpenHands agent, a helpful AI assistant" 5 || fail "the system prompt's text is not shown"


T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
[ "$RC" = 0 ] || fail "exit status $RC"
no_sanitizer_report
echo ok
