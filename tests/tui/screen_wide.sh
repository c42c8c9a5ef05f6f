#!/usr/bin/env bash
# CJK and emoji take two columns and line up with ASCII; a long CJK line wraps without losing
# or splitting a character; wide characters typed in the input stay intact.
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed: skipped"; exit 77; }

long=$(for i in $(seq 1 30); do printf '汉字%02d' "$i"; done)
start_fixture "$DATA/tui_wide.scenario" --set "long=$long"
start_tether 70 30 "$CONV"
wait_for "Wide test done." || fail "the conversation did not show"
screen >"$WORK/screen"

python3 - "$WORK/screen" "$long" <<'PY' || fail "wide characters are misaligned"
import sys, unicodedata
def width(s):
    w = 0
    for ch in s:
        if unicodedata.combining(ch) or ch in "\u200b\u200d\ufe0f":
            continue
        w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
table = [l for l in lines if l.strip().startswith("|")]
if len(table) != 5:
    sys.exit("expected 5 table rows, got %d: %r" % (len(table), table))
cols = set()
for l in table:
    cols.add(tuple(width(l[:i]) for i, ch in enumerate(l) if ch == "|"))
if len(cols) != 1:
    sys.exit("the bars do not line up: %r" % table)
for l in lines:
    if width(l) > 70:
        sys.exit("a row is wider than the terminal: %r" % l)
long = sys.argv[2]
rows = [l.strip() for l in lines if "汉字" in l]
if "".join(rows) != long:
    sys.exit("the long line lost or split characters: %r" % rows)
if len(rows) < 2:
    sys.exit("the long line did not wrap")
PY

T send-keys -t main -l "输入 😀 é"
wait_for "> 输入 😀 é" || fail "wide characters typed in the input are not shown intact"
T send-keys -t main BSpace BSpace
wait_gone "😀 é" || fail "backspace did not delete"
screen | grep -qF "> 输入 😀" || fail "backspace deleted more than the last two characters"
no_sanitizer_report
echo ok
