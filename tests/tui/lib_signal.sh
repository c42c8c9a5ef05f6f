#!/usr/bin/env bash
# A screen test ended at its timeout leaves nothing behind. meson ends it with SIGTERM to the
# test's process group and SIGKILL 0.5 s later (mtest.py, _kill); tmux, and tether in its
# pane, are outside that group. Here a test that waits forever is ended so once tether runs:
# its tmux server, tether and its files must then go (the watcher lib.sh starts is bounded:
# ~20 s at most under load, where the server and the last writes into WORK are waited out).
. "$(dirname "$0")/lib.sh" "$@"
command -v setsid >/dev/null 2>&1 || { echo "setsid is not installed: skipped"; exit 77; }

LIB=$(cd "$(dirname "$0")" && pwd)/lib.sh
cat >"$WORK/inner.sh" <<EOF2
. "$LIB" "\$@"
start_fixture "\$DATA/tui_chat.scenario"
start_tether 80 24 "\$CONV"
wait_for " live · " 60 || fail "tether did not start"
echo "\$SOCKET \$(cat "\$WORK/pid") \$WORK" >"$WORK/inner.info"
wait_for "never shown" 600
EOF2
# a process group of its own, as meson gives each test
setsid bash "$WORK/inner.sh" "$TETHER" "$FIXTURE" "$DATA" >"$WORK/inner.out" 2>&1 &
inner=$!
isock= ipid= iwork=
trap 'kill -KILL -- "-$inner" 2>/dev/null
      [ -z "$isock" ] || tmux -L "$isock" kill-server 2>/dev/null
      [ -z "$ipid" ] || kill -KILL "$ipid" 2>/dev/null
      [ -z "$iwork" ] || rm -rf "$iwork"
      cleanup' EXIT
wait_until 60 test -s "$WORK/inner.info" ||
	fail "the inner test did not start tether: $(cat "$WORK/inner.out")"
read -r isock ipid iwork <"$WORK/inner.info"

kill -TERM -- "-$inner"
hold 0.5 # meson's grace before its SIGKILL
kill -KILL -- "-$inner" 2>/dev/null
wait "$inner" 2>/dev/null

gone() {
	! kill -0 "$ipid" 2>/dev/null && ! tmux -L "$isock" has-session 2>/dev/null &&
		[ ! -e "$iwork" ]
}
wait_until 45 gone || {
	kill -0 "$ipid" 2>/dev/null && echo "tether (pid $ipid) is still running" >&2
	tmux -L "$isock" has-session 2>/dev/null && echo "its tmux server is still running" >&2
	[ -e "$iwork" ] && echo "its files are still in $iwork" >&2
	fail "a test ended by meson's signals left these behind"
}
echo ok
