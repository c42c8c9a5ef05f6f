#!/usr/bin/env bash
# The picker with nothing to pick (issue 15.8): a server without conversations and a server
# that is down each end with one clear line saying what to do, the terminal as it was.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/picker_empty.scenario"
start_tether 80 10
wait_exit || fail "tether did not end on an empty list"
[ "$RC" = 4 ] || fail "exit status $RC on an empty list (want 4, not found)"
grep -qF "has no conversations yet: start one there (tether opens existing conversations), then run tether again" \
	"$WORK/stderr" || fail "the empty list is not explained: $(cat "$WORK/stderr")"
cmp -s "$WORK/stty_before" "$WORK/stty_after" || fail "the tty mode was not restored"

# The server goes away: the same command says it cannot reach it and how to choose another.
kill "$SRV"
wait "$SRV" 2>/dev/null
SRV=
tmux_stop
start_tether 80 10
wait_exit || fail "tether did not end with the server down"
[ "$RC" = 0 ] && fail "exit status 0 with the server down"
grep -qF "cannot reach the server at http://127.0.0.1:$PORT" "$WORK/stderr" ||
	fail "a server that is down is not said: $(cat "$WORK/stderr")"
[ "$(grep -c . "$WORK/stderr")" = 1 ] || fail "more than one line for a server that is down"
cmp -s "$WORK/stty_before" "$WORK/stty_after" || fail "the tty mode was not restored"
no_sanitizer_report
echo ok
