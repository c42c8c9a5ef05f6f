#!/bin/sh
# Runs width_probe under tmux and checks that every sample came back as "<sample>|": the '|'
# that ncurses drew at text_width() landed right after the text, so render, ncurses and the
# terminal agree on the sample's width. Exit 77 (skip) without tmux.
set -eu
probe=$1
samples=$2
command -v tmux >/dev/null 2>&1 || { echo "tmux not installed: skipping"; exit 77; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8
T="tmux -L test-$$ -f /dev/null"
trap '$T kill-server 2>/dev/null || true' EXIT
$T new-session -d -x 80 -y 24 -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 "$probe" "$samples"

expected=$(grep -v '^#' "$samples" | grep -v '^$' | sed 's/$/|/')
n=$(printf '%s\n' "$expected" | wc -l)
got=""
for _ in $(seq 100); do
	got=$($T capture-pane -p | head -n "$n")
	[ "$(printf '%s\n' "$got" | grep -c '|')" -ge "$n" ] && break
	sleep 0.1
done

status=0
i=1
while [ "$i" -le "$n" ]; do
	want=$(printf '%s\n' "$expected" | sed -n "${i}p")
	have=$(printf '%s\n' "$got" | sed -n "${i}p" | sed 's/ *$//')
	if [ "$want" != "$have" ]; then
		echo "width disagreement: expected [$want] got [$have]"
		status=1
	fi
	i=$((i + 1))
done
[ "$status" = 0 ] && echo "$n samples agree"
exit "$status"
