#!/usr/bin/env bash
# A server given by hostname ("localhost") is looked up off the loop and then connected to
# by address: the session syncs and a REST call answers, both against the fixture server.
# Environment: FIXTURE_SERVER, NET_PROBE, NET_DATA (as for it.sh).
set -euo pipefail

CONV=5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91
KEY=test-only-key-7c1e
T=$(mktemp -d)
SRV=
trap '[ -n "$SRV" ] && kill "$SRV" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*" >&2
	for f in out err traffic fixture.err; do
		[ -s "$T/$f" ] && { echo "--- $f (tail)" >&2; tail -n 20 "$T/$f" >&2; }
	done
	exit 1
}

getent hosts localhost | grep -q '127\.0\.0\.1' || { echo "localhost is not 127.0.0.1 here: skipped"; exit 77; }

"$FIXTURE_SERVER" --scenario "$NET_DATA/auth_send.scenario" --set key=$KEY --log "$T/traffic" \
	--durable-log "$T/durable" --max-seconds 60 >"$T/port" 2>"$T/fixture.err" &
SRV=$!
for _ in $(seq 400); do
	grep -q '^PORT ' "$T/port" && break
	kill -0 "$SRV" 2>/dev/null || fail "fixture exited"
	sleep 0.025
done
PORT=$(sed -n 's/^PORT //p' "$T/port")
[ -n "$PORT" ] || fail "the fixture printed no port"
export PROBE_KEY=$KEY

set +e
"$NET_PROBE" --server "http://localhost:$PORT" --key-env PROBE_KEY --conversation "$CONV" \
	--until-syncs 1 --max-retries 3 >"$T/out" 2>"$T/err"
RC=$?
set -e
[ "$RC" = 0 ] || fail "session via localhost: net_probe exited $RC"
grep -q '^status synced' "$T/out" || fail "the session did not sync"
grep -q '^conn 1 .*auth=ok' "$T/traffic" || fail "the server saw no authenticated connection"

set +e
"$NET_PROBE" --server "http://localhost:$PORT" --key-env PROBE_KEY \
	--rest GET "/api/conversations/$CONV" >"$T/out" 2>"$T/err"
RC=$?
set -e
[ "$RC" = 0 ] || fail "REST via localhost: net_probe exited $RC"
grep -q "^rest 200 .*\"id\":\"$CONV\"" "$T/out" || fail "REST via localhost: $(head -1 "$T/out")"
echo ok
