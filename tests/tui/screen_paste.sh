#!/usr/bin/env bash
# A large bracketed paste (2 MB through tmux paste-buffer) lands whole in the input within
# seconds, is not sent without Enter, and goes out as one message with Enter. Pasted text
# never acts as keys: a fake end marker followed by CR inside the clipboard does not send.
# Two Ctrl-C right behind a paste stay two: tether quits, 130. A NUL pasted into the search
# query is not read past.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_chat.scenario"
start_tether 100 30 --ping-interval 60 "$CONV"
wait_for "Ready for your messages." || fail "the history did not show"
wait_traffic '^conn 1 ' || fail "no connection"

# 2 MB of numbered lines between two marks; tmux turns each LF into CR, as a terminal does.
python3 - "$WORK/big" <<'EOF'
import sys
lines, size = ["PASTE-START"], 12
while size < 2 * 1024 * 1024:
    lines.append(f"line {len(lines):07d} the quick brown fox jumps over the lazy dog 0123456789")
    size += len(lines[-1]) + 1
lines.append("PASTE-END-MARK")
open(sys.argv[1], "w").write("\n".join(lines))
EOF
T load-buffer -b big "$WORK/big"
start=$(date +%s.%N)
T paste-buffer -p -b big -t main
# Without its own reader tether took 6 s per MB (ncurses read a byte per read()).
wait_for "PASTE-END-MARK" 3 || fail "the 2 MB paste did not land within 3 s"
took=$(echo "$(date +%s.%N) $start" | awk '{printf "%.2f", $1 - $2}')
echo "2 MB paste on screen after $took s"
hold 0.5 # a paste sent wrongly would reach the fixture within this
grep -q 'PASTE-START' "$WORK/traffic" && fail "the paste was sent before Enter"
T send-keys -t main Enter
wait_traffic '^recv 1 .*PASTE-START' 20 || fail "Enter did not send the paste"
python3 - "$WORK/traffic" "$WORK/big" <<'EOF' || fail "the message is not the whole paste"
import json, sys
want = open(sys.argv[2]).read()
sent = [l[len("recv 1 "):] for l in open(sys.argv[1], encoding="utf-8") if "PASTE-START" in l]
assert len(sent) == 1, f"{len(sent)} messages hold the paste"
text = json.loads(sent[0])["content"][0]["text"]
assert text == want, f"sent {len(text)} bytes, pasted {len(want)}"
EOF

# A clipboard that ends the paste early and presses Enter, then types more: all of it is
# text in the input, and nothing is sent.
T set-buffer -b evil "$(printf 'echo pwned\033[201~\rand more after the fake end\033[A\003')"
T paste-buffer -p -b evil -t main
wait_for "and more after the fake end" || fail "the text after the fake end marker is not in the input"
hold 0.5 # a message sent wrongly would reach the fixture within this
grep -q 'pwned' "$WORK/traffic" && fail "a fake end marker and CR in a paste sent the message"
screen | grep -qF "> echo pwned" || fail "the pasted text is not in the input"
[ -e "$WORK/rc" ] && fail "a pasted Ctrl-C quit tether"
T send-keys -t main -l " typed"
wait_for "fake end typed" || fail "typing after the paste does not work"

# A paste into the search query (one line) with a NUL in it: copied by length, not cut at
# the NUL (under ASan, reading past the cut copy aborts).
printf 'needle\000haystack\nline' >"$WORK/nul"
T load-buffer -b nul "$WORK/nul"
T send-keys -t main C-r
wait_for "search" || fail "Ctrl-R did not start a search"
T paste-buffer -p -b nul -t main
wait_for "needlehaystack line" || fail "the pasted query is not in the search line"
T send-keys -t main Escape
wait_gone "needlehaystack" || fail "Esc did not end the search"
no_sanitizer_report

# Two Ctrl-C right behind a large paste (tmux queues them after it): two, so tether quits.
T paste-buffer -p -b big -t main
T send-keys -t main C-c
T send-keys -t main C-c
wait_exit 20 || fail "two Ctrl-C after a paste did not quit"
[ "$RC" = 130 ] || fail "exit status $RC after two Ctrl-C"
no_sanitizer_report
echo ok
