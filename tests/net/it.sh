#!/usr/bin/env bash
# Integration tests of net/ (session, reconnect, liveness, REST) against the fixture server,
# driven through net_probe. One case per meson test: it.sh CASE.
# Environment: FIXTURE_SERVER, NET_PROBE, NET_DATA (tests/net/data), and optionally
# NET_IT_SLACK: extra seconds allowed on the one timing bound (sanitizer builds).
set -euo pipefail

CASE=$1
CONV=5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91
KEY=test-only-key-7c1e
T=$(mktemp -d)
SRV=
STUB=

cleanup() {
	for p in $SRV $STUB; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT

fail() {
	echo "FAIL [$CASE]: $*" >&2
	for f in out err traffic fixture.err; do
		[ -s "$T/$f" ] && { echo "--- $f (tail)" >&2; tail -n 30 "$T/$f" >&2; }
	done
	exit 1
}

# start_fixture SCENARIO [fixture options…]: sets SRV, PORT and URL.
start_fixture() {
	local sc=$1
	shift
	: >"$T/port"
	"$FIXTURE_SERVER" --scenario "$sc" --log "$T/traffic" --durable-log "$T/durable" \
		--max-seconds 60 "$@" >"$T/port" 2>"$T/fixture.err" &
	SRV=$!
	await_port "$SRV" "the fixture"
}

# await_port PID NAME: waits for the server PID to print its port; sets PORT and URL.
await_port() {
	for _ in $(seq 400); do
		grep -q '^PORT ' "$T/port" && break
		kill -0 "$1" 2>/dev/null || fail "$2 exited: $(cat "$T/fixture.err")"
		sleep 0.025
	done
	PORT=$(sed -n 's/^PORT //p' "$T/port")
	[ -n "$PORT" ] || fail "$2 printed no port"
	URL="http://127.0.0.1:$PORT"
}

stop_fixture() {
	kill "$SRV" 2>/dev/null || true
	wait "$SRV" 2>/dev/null || true
	SRV=
}

# probe ARGS…: runs net_probe against URL; sets RC.
probe() {
	set +e
	"$NET_PROBE" --server "$URL" "$@" >"$T/out" 2>"$T/err"
	RC=$?
	set -e
}

session() { probe --conversation "$CONV" "$@"; }
count() { grep -c -- "$1" "${2:-$T/out}" || true; }
expect_rc() { [ "$RC" = "$1" ] || fail "net_probe exited $RC, expected $1"; }
expect_count() { # PATTERN N [FILE]
	local n
	n=$(count "$1" "${3:-$T/out}")
	[ "$n" = "$2" ] || fail "'$1' seen $n times, expected $2"
}
attempts() { count '^status connecting'; }

# The durable lines the probe printed, as "<seq> <id>".
printed_durables() { awk '$1 == "durable" { print $2, $3 }' "$T/out"; }

# Every reconnect asks for the seq of the last durable printed before it (cli.md Cursor),
# starting from the initial cursor -1.
check_reconnect_cursor() {
	awk 'BEGIN { cur = -1 }
		$1 == "durable" { cur = $2 }
		$1 == "status" && $2 == "connecting" && ++n > 1 && $5 != "after_seq=" cur {
			print "attempt " n ": " $5 ", want after_seq=" cur; bad = 1 }
		END { exit bad }' "$T/out" >"$T/cursor.check" ||
		fail "reconnect cursor: $(head -3 "$T/cursor.check")"
}

# Every started stream ends in exactly one terminal line; none is left open.
check_streams() {
	grep -q 'open_streams=0' "$T/out" || fail "streams left open"
	awk '
		$1 == "stream" && $2 == "started" { open[$3] = 1; started[$3] = 1 }
		$1 == "stream" && $2 != "started" {
			if (!open[$3]) { print "terminal line for a closed stream " $3; bad = 1 }
			open[$3] = 0; ended[$3]++
		}
		END { for (s in started) if (!ended[s]) { print "never ended " s; bad = 1 }; exit bad }' \
		"$T/out" >"$T/streams.check" || fail "streams: $(head -3 "$T/streams.check")"
}

key_absent() {
	local f
	for f in "$@"; do
		[ -f "$f" ] || continue
		if grep -qF -- "$KEY" "$f"; then fail "the key appears in $(basename "$f")"; fi
	done
}

# ------------------------------------------------------------------------------ cases

# (a) 1,000 events through 100 cuts between and inside frames, then streams cut mid-way:
# the probe ends with exactly the server's durable log, every reconnect resumes at the
# cursor, and every stream ends in exactly one terminal line.
case_resume() {
	start_fixture "$NET_DATA/resume.scenario"
	session --after-seq -1 --until-seq 1007 --max-retries 0 --stall-timeout 10
	expect_rc 0
	printed_durables >"$T/printed"
	cmp -s "$T/printed" "$T/durable" || fail "durable lines differ from the server's log: $(diff "$T/printed" "$T/durable" | head -5)"
	[ "$(wc -l <"$T/printed")" = 1008 ] || fail "expected 1008 durable events"
	cuts=$(count '^fault .* cut ' "$T/traffic")
	[ "$cuts" = 100 ] || fail "$cuts cuts happened, expected 100"
	for how in fin rst mid frag; do
		[ "$(count "^fault .* cut $how" "$T/traffic")" -gt 0 ] || fail "no $how cut"
	done
	expect_count '^fault .* drop ' 4 "$T/traffic"
	[ "$(attempts)" -gt 104 ] || fail "fewer connections than cuts"
	check_reconnect_cursor
	check_streams
	[ "$(count '^stream started')" -ge 8 ] || fail "streams were not seen"
	[ "$(count '^stream discarded')" -ge 4 ] || fail "cut streams were not discarded"
}

# (b) 4001 and 4004: one attempt, exit 3 and 4, whatever --max-retries says.
case_close_fatal() {
	start_fixture "$NET_DATA/close_4001.scenario"
	session --max-retries 5
	expect_rc 3
	[ "$(attempts)" = 1 ] || fail "4001 was retried"
	expect_count '^status failed .*exit=3' 1
	expect_count '^conn ' 1 "$T/traffic"
	stop_fixture
	start_fixture "$NET_DATA/close_4004.scenario"
	session --max-retries 0
	expect_rc 4
	[ "$(attempts)" = 1 ] || fail "4004 was retried"
	expect_count '^status closed .*code=4004' 1
	expect_count '^conn ' 1 "$T/traffic"
}

# (b) 1011 and 1013 are retried; the third connection syncs and the probe gets everything.
case_close_retry() {
	local code reason
	for code in 1011 1013; do
		reason=subscribe_failed
		[ $code = 1013 ] && reason=slow_consumer
		start_fixture "$NET_DATA/close_retry.scenario" --set code=$code --set "reason=$reason"
		session --until-seq 2 --max-retries 5
		expect_rc 0
		[ "$(attempts)" = 3 ] || fail "close $code: $(attempts) attempts, expected 3"
		expect_count "^status closed .*code=$code" 2
		expect_count '^status reconnecting' 2
		printed_durables >"$T/printed"
		cmp -s "$T/printed" "$T/durable" || fail "close $code: durable events differ"
		stop_fixture
	done
}

# (b) --max-retries N: N failed attempts in a row, then gave_up and exit 5.
case_gave_up() {
	start_fixture "$NET_DATA/retry_forever.scenario"
	session --max-retries 3
	expect_rc 5
	[ "$(attempts)" = 3 ] || fail "$(attempts) attempts, expected 3"
	expect_count '^status gave_up .*exit=5' 1
	expect_count '^conn ' 3 "$T/traffic"
	# backoff: the first wait is at most 1 s, then it grows
	awk '$2 == "reconnecting" { sub("retry_us=", "", $6); print $6 }' "$T/out" >"$T/waits"
	[ "$(sed -n 1p "$T/waits")" -le 1000000 ] || fail "first backoff over 1 s"
	[ "$(sed -n 2p "$T/waits")" -gt "$(sed -n 1p "$T/waits")" ] || fail "backoff does not grow"
}

# (b) HTTP status of a refused upgrade: 404 → exit 4 (and 401/403 → exit 3 when python3 can
# play the refusing server). A connection refused is said in words, retried (cli.md: the
# first connect counts too — a server may still be starting) and gives up.
case_http_status() {
	start_fixture "$NET_DATA/keepalive.scenario"
	URL="http://127.0.0.1:$PORT/no/such/base"
	session --max-retries 5
	expect_rc 4
	[ "$(attempts)" = 1 ] || fail "HTTP 404 was retried"
	stop_fixture
	URL="http://127.0.0.1:$PORT"
	session --max-retries 2
	expect_rc 5
	[ "$(attempts)" = 2 ] || fail "connection refused: $(attempts) attempts, expected 2"
	grep -q '^status closed .*reason=connection refused (no server is listening there)$' "$T/out" ||
		fail "connection refused not said in words: $(cat "$T/out")"
	if command -v python3 >/dev/null; then
		local code
		for code in 401 403; do
			start_stub status "$code"
			session --max-retries 5 --protocol session
			expect_rc 3
			[ "$(attempts)" = 1 ] || fail "HTTP $code was retried"
			grep -q "HTTP $code" "$T/out" || fail "HTTP $code not reported"
			# auto: upstream answers 403 where no route matches (issue 26), so a 403 on
			# the session socket is tried once on the events socket, whose refusal is final
			session --max-retries 5
			expect_rc 3
			local want=1
			[ "$code" = 403 ] && want=2
			[ "$(attempts)" = "$want" ] || fail "HTTP $code: $(attempts) attempts, expected $want"
			kill "$STUB"; wait "$STUB" 2>/dev/null || true; STUB=
		done
	fi
}

# start_stub MODE ARG: a python3 TCP server on 127.0.0.1: "status N" answers every request
# with HTTP N; "mute" accepts connections and never says anything.
start_stub() {
	python3 - "$1" "$2" >"$T/stub.port" <<'PY' &
import socket, sys, threading
mode, arg = sys.argv[1], sys.argv[2]
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
print("PORT", s.getsockname()[1], flush=True)
held = []
def serve(c):
    if mode == "mute":
        held.append(c); return
    data = b""
    while b"\r\n\r\n" not in data:
        d = c.recv(4096)
        if not d: break
        data += d
    c.sendall(b"HTTP/1.1 " + arg.encode() + b" Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    c.close()
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
PY
	STUB=$!
	for _ in $(seq 200); do grep -q '^PORT ' "$T/stub.port" && break; sleep 0.025; done
	URL="http://127.0.0.1:$(sed -n 's/^PORT //p' "$T/stub.port")"
}

# start_tls CERT KEY: openssl s_server -www (any request gets HTTP 200) on 127.0.0.1;
# sets STUB and PORT.
start_tls() {
	[ -n "$STUB" ] && { kill "$STUB" 2>/dev/null || true; wait "$STUB" 2>/dev/null || true; }
	openssl s_server -accept 127.0.0.1:0 -cert "$1" -key "$2" -www \
		>"$T/tls.out" 2>&1 </dev/null &
	STUB=$!
	for _ in $(seq 200); do grep -q '^ACCEPT ' "$T/tls.out" && break; sleep 0.025; done
	PORT=$(sed -n 's/^ACCEPT .*://p' "$T/tls.out")
	[ -n "$PORT" ] || fail "openssl s_server did not start: $(cat "$T/tls.out")"
}

make_cert() { # NAME SAN
	openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=tether-test \
		-addext "subjectAltName=$2" -keyout "$T/$1.key" -out "$T/$1.pem" 2>/dev/null ||
		fail "cannot make a test certificate"
}

# TLS: certificates are verified (chain and host name) unless --insecure. The trust store
# is pointed at a test CA through SSL_CERT_FILE, so the positive case is checked too.
case_tls() {
	command -v openssl >/dev/null || { echo "openssl missing: skipped"; exit 77; }
	make_cert good IP:127.0.0.1
	make_cert other DNS:other.invalid
	: >"$T/empty.pem"
	start_tls "$T/good.pem" "$T/good.key"
	URL="https://127.0.0.1:$PORT"
	SSL_CERT_FILE="$T/good.pem" probe --rest GET /x
	grep -q '^rest 200 ' "$T/out" || fail "a trusted certificate was refused: $(head -1 "$T/out")"
	SSL_CERT_FILE="$T/empty.pem" probe --rest GET /x
	grep -q '^rest error ' "$T/out" || fail "an untrusted certificate was accepted"
	SSL_CERT_FILE="$T/empty.pem" probe --rest GET /x --insecure
	grep -q '^rest 200 ' "$T/out" || fail "--insecure refused a self-signed certificate"
	# wss: past TLS the server answers the upgrade with 200 (it is no WebSocket server)
	URL="wss://127.0.0.1:$PORT"
	SSL_CERT_FILE="$T/good.pem" session --max-retries 1
	grep -q 'reason=HTTP 200 from the WebSocket handshake' "$T/out" || fail "wss with a trusted certificate"
	SSL_CERT_FILE="$T/empty.pem" session --max-retries 1
	grep -q 'reason=HTTP 200' "$T/out" && fail "wss accepted an untrusted certificate"
	SSL_CERT_FILE="$T/empty.pem" session --max-retries 1 --insecure
	grep -q 'reason=HTTP 200 from the WebSocket handshake' "$T/out" || fail "wss --insecure"
	start_tls "$T/other.pem" "$T/other.key"
	URL="https://127.0.0.1:$PORT"
	SSL_CERT_FILE="$T/other.pem" probe --rest GET /x
	grep -q '^rest error ' "$T/out" || fail "a certificate for another host name was accepted"
	SSL_CERT_FILE="$T/other.pem" probe --rest GET /x --insecure
	grep -q '^rest 200 ' "$T/out" || fail "--insecure refused a certificate for another name"
}

# The CA store is read at the first TLS connection, not at start: a plain http:// run never
# opens it (parsing it cost more CPU than the rest of start-up); an https:// one does, which
# shows that the check sees the store being read.
case_tls_lazy() {
	command -v openssl >/dev/null || { echo "openssl missing: skipped"; exit 77; }
	strace -o /dev/null true 2>/dev/null || { echo "strace missing or not allowed: skipped"; exit 77; }
	make_cert good IP:127.0.0.1
	start_fixture "$NET_DATA/auth_send.scenario" --set key=$KEY
	SSL_CERT_FILE="$T/good.pem" strace -f -e trace=open,openat -o "$T/strace" \
		"$NET_PROBE" --server "$URL" --rest GET "/api/conversations/$CONV" >"$T/out" 2>"$T/err" || true
	grep -q '^rest 401 ' "$T/out" || fail "http: $(head -1 "$T/out")"
	if grep -q 'good\.pem' "$T/strace"; then fail "a plain http:// run read the CA store"; fi
	start_tls "$T/good.pem" "$T/good.key"
	URL="https://127.0.0.1:$PORT"
	SSL_CERT_FILE="$T/good.pem" strace -f -e trace=open,openat -o "$T/strace" \
		"$NET_PROBE" --server "$URL" --rest GET /x >"$T/out" 2>"$T/err" || true
	grep -q '^rest 200 ' "$T/out" || fail "https: $(head -1 "$T/out")"
	grep -q 'good\.pem' "$T/strace" || fail "the https:// run never read the CA store"
}

# lws keeps tables for LOOP_FDS_MAX (1,024) descriptors, not ulimit -n (net/loop.c), and then
# finds a socket's connection by a scan: sockets numbered past 1,024, made and dropped over a
# hundred reconnects, still carry every durable event once.
case_high_fds() {
	local fd held=()
	[ "$(ulimit -n)" -ge 1200 ] || ulimit -n 1200 2>/dev/null ||
		{ echo "ulimit -n $(ulimit -n) and no room to raise it: skipped"; exit 77; }
	start_fixture "$NET_DATA/resume.scenario"
	# Every free number below 1,120 taken: the probe's descriptors are all numbered above.
	for ((fd = 3; fd < 1120; fd++)); do
		[ -e "/proc/$$/fd/$fd" ] || { eval "exec $fd</dev/null"; held+=("$fd"); }
	done
	session --after-seq -1 --until-seq 1007 --max-retries 0 --stall-timeout 10
	for fd in "${held[@]}"; do eval "exec $fd<&-"; done
	expect_rc 0
	printed_durables >"$T/printed"
	cmp -s "$T/printed" "$T/durable" || fail "durable lines differ from the server's log"
	[ "$(attempts)" -gt 104 ] || fail "fewer connections than cuts"
}

# (c) Silence with TCP open: detected and resumed (at the cursor) within stall-timeout + 1 s
# of the last frame. Pings are off here so that the last frame is the last thing received.
case_silence() {
	local slack=${NET_IT_SLACK:-0}
	start_fixture "$NET_DATA/silence.scenario"
	session --until-syncs 2 --stall-timeout 1.5 --ping-interval 0 --raw --max-retries 3
	expect_rc 0
	grep -q '^status closed .*reason=stalled' "$T/out" || fail "no stall was detected"
	[ "$(attempts)" = 2 ] || fail "$(attempts) attempts, expected 2"
	check_reconnect_cursor
	grep -q '^conn 2 after_seq=4 ' "$T/traffic" || fail "connection 2 did not resume at seq 4"
	awk -v limit="$(awk -v s="$slack" 'BEGIN { print 1.5 + 1 + s }')" '
		$1 == "raw" && !closed { sub("t=", "", $3); last = $3 }
		$1 == "status" && $2 == "closed" { closed = 1 }
		$1 == "sync" && closed { sub("t=", "", $NF); printf "resumed %.3f s after the last frame (limit %s)\n", $NF - last, limit
			exit ($NF - last > limit) }' "$T/out" >"$T/timing" || fail "$(cat "$T/timing")"
	cat "$T/timing"
}

# (c) A quiet but healthy connection stays up on pongs alone; without pings the same
# silence is declared a stall.
case_keepalive() {
	start_fixture "$NET_DATA/keepalive.scenario"
	session --stall-timeout 1.5 --ping-interval 0.3 --exit-after 3
	expect_rc 0
	[ "$(attempts)" = 1 ] || fail "a healthy quiet connection was dropped"
	expect_count '^status closed' 0
	session --stall-timeout 1.5 --ping-interval 0 --exit-after 3
	expect_rc 0
	grep -q '^status closed .*reason=stalled' "$T/out" || fail "no stall without pings"
}

# (c) A server that accepts TCP and never answers the handshake cannot hang the client.
case_stalled_handshake() {
	command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }
	start_stub mute 0
	session --stall-timeout 1 --max-retries 2
	expect_rc 5
	expect_count '^status closed .*reason=stalled' 2
}

# (d) The auth frame is the first frame of every connection, the user message follows it
# once (never re-sent after the drop), and the key is in no output or log.
case_auth() {
	start_fixture "$NET_DATA/auth_send.scenario" --set key=$KEY
	export PROBE_KEY=$KEY
	session --key-env PROBE_KEY --send "hello from the probe" --until-seq 4 --log "$T/lws.log"
	expect_rc 0
	grep -q '^conn 2 ' "$T/traffic" || fail "connection 1 was not cut (the scenario did not run)"
	for n in $(awk '$1 == "conn" { print $2 }' "$T/traffic"); do
		first=$(grep -m1 "^recv $n " "$T/traffic" || true)
		[ "$first" = "recv $n {\"type\":\"auth\",\"session_api_key\":\"***\"}" ] ||
			fail "connection $n: the first frame was: $first"
		grep -q "^conn $n .*auth=ok via=frame" "$T/traffic" || fail "connection $n not authenticated by frame"
	done
	expect_count '^recv .*hello from the probe' 1 "$T/traffic"
	expect_count '^recv 1 .*hello from the probe' 1 "$T/traffic"
	grep -q 'pending=0' "$T/out" || fail "the message is still queued"
	[ -s "$T/lws.log" ] || fail "the lws log is empty"
	key_absent "$T/out" "$T/err" "$T/lws.log" "$T/traffic"
	# a wrong key, and no key at all: 4001, one attempt, exit 3
	export PROBE_KEY=wrong-key
	session --key-env PROBE_KEY --max-retries 5
	expect_rc 3
	[ "$(attempts)" = 1 ] || fail "a wrong key was retried"
	session --max-retries 5
	expect_rc 3
	expect_count '^status closed .*code=4001' 1
}

# (e) REST on the same loop: the key travels as X-Session-API-Key, responses come back,
# a closed port is an error and not a hang.
case_rest() {
	start_fixture "$NET_DATA/auth_send.scenario" --set key=$KEY
	export PROBE_KEY=$KEY
	probe --key-env PROBE_KEY --rest POST "/api/conversations/$CONV/pause" --log "$T/lws.log"
	expect_rc 0
	grep -q '^rest 200 {"success":true}' "$T/out" || fail "pause: $(head -1 "$T/out")"
	grep -q "^rest POST /api/conversations/$CONV/pause 200" "$T/traffic" || fail "pause not in the traffic log"
	probe --key-env PROBE_KEY --rest GET "/api/conversations/$CONV"
	expect_rc 0
	grep -q "^rest 200 .*\"id\":\"$CONV\"" "$T/out" || fail "get: $(head -1 "$T/out")"
	probe --key-env PROBE_KEY --rest POST "/api/conversations/$CONV/events" \
		--body '{"role":"user","content":[{"type":"text","text":"via rest"}],"run":false}'
	grep -q '^rest 200 ' "$T/out" || fail "send via REST: $(head -1 "$T/out")"
	grep -q "^rest POST /api/conversations/$CONV/events 200 .*via rest" "$T/traffic" || fail "the body did not arrive"
	probe --rest POST "/api/conversations/$CONV/pause"
	grep -q '^rest 401 ' "$T/out" || fail "no key: $(head -1 "$T/out")"
	key_absent "$T/out" "$T/err" "$T/lws.log" "$T/traffic"
	stop_fixture
	probe --rest GET "/api/conversations/$CONV"
	expect_rc 1
	grep -q '^rest error ' "$T/out" || fail "closed port: $(head -1 "$T/out")"
}

# (f) A durable frame too large at the same cursor twice (closed 1013 by the server, or
# over the client's own limit): one placeholder, the seq skipped, no reconnect loop.
case_oversize() {
	local sc
	for sc in oversize_server oversize_client; do
		start_fixture "$NET_DATA/$sc.scenario"
		session --until-seq 6 --max-retries 0
		expect_rc 0
		expect_count '^bad frame_too_large 5 ' 1
		[ "$(attempts)" = 3 ] || fail "$sc: $(attempts) attempts, expected 3"
		[ "$(printed_durables | cut -d' ' -f1 | tr '\n' ' ')" = "0 1 2 3 4 6 " ] || fail "$sc: wrong durable seqs"
		stop_fixture
	done
	expect_count '^fault .* frame_too_large' 0 "$T/traffic"
}

# (f) An oversized frame that cannot move the cursor (a transient) is dropped and reported;
# the connection carries on.
case_oversize_transient() {
	local big
	big=$(head -c 6000 /dev/zero | tr '\0' 'x')
	cat >"$T/big.scenario" <<EOF
connect_snapshot none
message agent "before"
live:
transient {"id":"big-transient","timestamp":"2026-09-20T14:03:12.000001","source":"environment","key":"note","value":"$big","kind":"ConversationStateUpdateEvent"}
message agent "after"
EOF
	start_fixture "$T/big.scenario"
	session --until-seq 1 --max-message 4000
	expect_rc 0
	grep -q '^bad frame_too_large -1 a transient frame' "$T/out" || fail "the big transient was not reported"
	[ "$(attempts)" = 1 ] || fail "a big transient caused a reconnect"
	expect_count '^durable 1 ' 1
}

# (g) Frames that do not decode are reported and the connection carries on.
case_malformed() {
	start_fixture "$NET_DATA/malformed.scenario"
	session --until-seq 2
	expect_rc 0
	expect_count '^bad decode_error -1 ' 4
	[ "$(attempts)" = 1 ] || fail "a malformed frame caused a reconnect"
	expect_count '^durable 2 ' 1
}

# (h) Transient first, durable later (same id): one durable line; a second durable copy of
# the id under a new seq is dropped; replay gaps are accepted.
case_dedupe() {
	local id=11111111-2222-4333-8444-555555555555
	start_fixture "$NET_DATA/dedupe.scenario"
	session --after-seq -1 --until-seq 8
	expect_rc 0
	awk '$3 != "unreadable" && !seen[$2]++' "$T/durable" >"$T/expected"
	printed_durables >"$T/printed"
	cmp -s "$T/printed" "$T/expected" || fail "durable lines: $(diff "$T/printed" "$T/expected" | head -5)"
	grep -q ' unreadable' "$T/durable" || fail "the scenario has no gaps"
	expect_count "^durable .* $id" 1
	awk -v id="$id" '$1 == "transient" && $2 == id { t = NR } $1 == "durable" && $3 == id { d = NR }
		END { exit !(t && d && t < d) }' "$T/out" || fail "transient copy not seen before the durable one"
}

# session_stop: a normal close (1000) and no reconnect.
case_stop() {
	start_fixture "$NET_DATA/keepalive.scenario"
	session --stop-after-syncs 1 --max-retries 0
	expect_rc 0
	expect_count '^status closed attempt=1 code=1000 .*reason=closed by client' 1
	[ "$(attempts)" = 1 ] || fail "the session reconnected after session_stop"
	expect_count '^status reconnecting' 0
	expect_count '^conn ' 1 "$T/traffic"
}

# --no-history: no after_seq on the first connection; the reconnect resumes at through_seq.
case_no_history() {
	start_fixture "$NET_DATA/no_history.scenario"
	session --no-history --until-syncs 2
	expect_rc 0
	grep -q '^status connecting attempt=1 code=0 after_seq=none ' "$T/out" || fail "the first connection asked for history"
	grep -q '^conn 1 after_seq=none ' "$T/traffic" || fail "the server saw after_seq on connection 1"
	grep -q '^conn 2 after_seq=4 ' "$T/traffic" || fail "connection 2 did not resume at through_seq"
	expect_count '^durable ' 0
}

# A cursor past the log's end (--after-seq 1000 on a log of 5; an events/count that lied):
# sync's through_seq below it moves the cursor to the log's end, so the live events (seqs 5,
# 6) are delivered, not taken for ones seen.
case_past_end() {
	start_fixture "$NET_DATA/past_end.scenario"
	session --after-seq 1000 --until-seq 6 --max-retries 0 --exit-after 10
	expect_rc 0
	grep -q '^sync from=1000 through=4 ' "$T/out" || fail "no sync with through_seq 4: $(grep '^sync' "$T/out")"
	expect_count '^durable ' 2
	grep -q '^exit 0 cursor=6 ' "$T/out" || fail "the cursor did not end at 6: $(grep '^exit' "$T/out")"
}

# session_reconnect_now: each wait of a growing backoff is cut short (0.1 s in), every
# attempt resumes from the cursor (after_seq of the last durable), and while live it does
# nothing.
case_reconnect_now() {
	cat >"$T/reconnect.scenario" <<'SCENARIO'
message user "one"
message agent "two"
message agent "three"
conn 1 close 1011 "restarting" at=live
conn 2-5 close 1011 "restarting" at=open
SCENARIO
	start_fixture "$T/reconnect.scenario"
	session --reconnect-now --max-retries 0 --exit-after 3
	expect_rc 0
	expect_count '^conn ' 6 "$T/traffic"
	expect_count '^conn [2-6] after_seq=2 ' 5 "$T/traffic"
	# waits of about 0.5+1+2+4 s without it: the six connections took far less
	awk '$1 == "status" && $2 == "synced" { sub("t=", "", $8); t = $8 } END { exit !(t < 2.5) }' \
		"$T/out" || fail "the reconnects waited out the backoff: $(grep '^status synced' "$T/out")"
	expect_count '^reconnect_now 1 ' 4
	# live: nothing to cut short
	tail -n 2 "$T/out" | grep -q '^reconnect_now 0 ' || fail "reconnect_now while live did something"
	expect_count '^status synced' 2
}

# ---------------------------------------------------- the legacy events socket (issue 26)
# Against legacy_server.py (what upstream serves before the session socket), not the
# fixture: the session socket's upgrade is refused with 403 and auto takes the events socket.

# start_legacy [legacy_server options…]: sets STUB, PORT and URL; its log is $T/traffic.
start_legacy() {
	: >"$T/port"
	python3 "$(dirname "$0")/legacy_server.py" --log "$T/traffic" --max-seconds 60 "$@" \
		>"$T/port" 2>"$T/fixture.err" &
	STUB=$!
	await_port "$STUB" "the legacy server"
}

# The ids ev-0000… the server made, one a line with the seq they should get.
expected_ids() { for i in $(seq 0 $(($1 - 1))); do printf '%d ev-%04d\n' "$i" "$i"; done; }

# The tail through REST, then the events socket: every event once, seqs from 0, none lost to
# an event appended between the count and the walk.
case_legacy_catchup() {
	start_legacy --initial 7 --live 8 --append-on-count
	session --until-seq 15 --max-retries 2
	expect_rc 0
	printed_durables | sort -n >"$T/printed"
	expected_ids 16 >"$T/expected"
	cmp -s "$T/printed" "$T/expected" || fail "durables: $(diff "$T/printed" "$T/expected" | head -5)"
	expect_count '^ws /sockets/session/' 1 "$T/traffic"
	expect_count '^ws /sockets/events/' 1 "$T/traffic"
	grep -q '^rest .*/events/search$' "$T/traffic" || fail "no REST catch-up"
	awk '$1 == "sync" && !s { s = 1; if ($2 != "from=0") bad = 1 } END { exit bad || !s }' "$T/out" ||
		fail "first sync: $(grep '^sync' "$T/out" | head -1)"
}

# 100 cuts: each reconnect resends since the last durable's timestamp (>=, so the boundary
# event comes again) with live events interleaved; every event is delivered exactly once.
case_legacy_cuts() {
	start_legacy --initial 10 --live 290 --interval 0.005 --cut-after 3
	session --until-seq 299 --max-retries 0 --stall-timeout 10
	expect_rc 0
	printed_durables >"$T/printed"
	[ "$(wc -l <"$T/printed")" = 300 ] || fail "$(wc -l <"$T/printed") durables, expected 300"
	awk '$1 != NR - 1 { exit 1 }' "$T/printed" || fail "seqs not contiguous from 0"
	[ "$(awk '{ print $2 }' "$T/printed" | sort -u | wc -l)" = 300 ] || fail "an event came twice"
	cuts=$(count '^cut$' "$T/traffic")
	[ "$cuts" -ge 90 ] || fail "$cuts cuts happened, expected about 100"
	grep -q '^ws /sockets/events/' "$T/traffic" || fail "never on the events socket"
}

# Identity-less deltas: one preview per answer, ended when the answer lands; the delta dated
# before the answer that comes after it opens nothing (each preview has exactly two deltas).
case_legacy_preview() {
	start_legacy --initial 0 --live 12 --deltas
	session --until-seq 11 --max-retries 0
	expect_rc 0
	expect_count '^stream started preview-' 4
	expect_count '^stream aborted preview-' 4
	expect_count '^delta preview-[0-9]* 1 [01]$' 8
	expect_count '^delta preview-[0-9]* 1 2$' 0
	awk '$1 == "stream" && $2 == "aborted" { a = 1 } $1 == "durable" && a { a = 0; n++ }
		END { exit n != 4 }' "$T/out" || fail "an answer did not follow its preview's end"
}

# The key as each version takes it (research §5.1): first message from 1.22.1, the header
# from 1.12, the query before; a wrong key is a failure in words, not retried.
case_legacy_auth() {
	local v how
	export LEGACY_KEY=$KEY
	for v in 1.43.1:frame 1.20.0:header 1.11.0:query; do
		how=${v#*:}
		# event 3 is live: it comes only once the key was taken
		start_legacy --version "${v%%:*}" --key "$KEY" --initial 3 --live 1
		session --key-env LEGACY_KEY --until-seq 3 --max-retries 0
		expect_rc 0
		expect_count "^auth $how\$" 1 "$T/traffic"
		kill "$STUB"; wait "$STUB" 2>/dev/null || true; STUB=
	done
	export LEGACY_KEY=wrong-key
	start_legacy --version 1.43.1 --key "$KEY" --initial 3
	session --key-env LEGACY_KEY --max-retries 3
	expect_rc 3
	grep -q '^status failed .*reason=the history could not be read over REST (event count: Unauthorized)' \
		"$T/out" || fail "REST's 401 not said: $(grep '^status' "$T/out" | tail -1)"
	kill "$STUB"; wait "$STUB" 2>/dev/null || true; STUB=
	# the socket's own refusal: 4001 after the auth frame (1.22.1+), 403 before accept (header)
	for v in 1.43.1:'code=4001 .*reason=Authentication failed' 1.20.0:'reason=HTTP 403'; do
		start_legacy --version "${v%%:*}" --key "$KEY" --rest-open --initial 3
		session --key-env LEGACY_KEY --max-retries 3
		expect_rc 3
		[ "$(attempts)" = 2 ] || fail "${v%%:*}: $(attempts) attempts, expected 2 (session, events)"
		grep -q "^status failed .*${v#*:}" "$T/out" ||
			fail "${v%%:*}: refusal not said: $(grep '^status' "$T/out" | tail -1)"
		kill "$STUB"; wait "$STUB" 2>/dev/null || true; STUB=
	done
}

# --no-history: live from the log's end; the seqs still count the whole log (seq N is the
# log's event N), and nothing from before the start comes.
case_legacy_no_history() {
	start_legacy --initial 5 --live 3 --interval 0.2
	session --no-history --until-seq 7 --max-retries 0
	expect_rc 0
	printed_durables >"$T/printed"
	awk '{ n = $2; sub("ev-0*", "", n); if (n == "") n = 0; if (n + 0 != $1 || $1 < 5) bad = 1 }
		END { exit bad || NR < 1 }' "$T/printed" || fail "durables: $(head -3 "$T/printed")"
	grep -q '^durable 7 ev-0007$' "$T/out" || fail "the live events did not come"
}

# The real binary: previews pass through the same masking as any stream (a secret split
# across two deltas is hidden), and ndjson names the socket.
case_legacy_masked() {
	start_legacy --initial 0 --live 3 --deltas
	printf 'Hello\n' >"$T/mask"
	set +e
	HOME=$T XDG_CONFIG_HOME=$T timeout 5 "$TETHER" --headless --format ndjson --until never \
		--mask-file "$T/mask" --server "$URL" "$CONV" >"$T/out" 2>"$T/err"
	set -e
	grep -q '"state":"delta".*<secret-hidden>' "$T/out" || fail "no masked delta"
	expect_count '"content":"Hel"' 0
	expect_count '"state":"connecting","socket":"events"' 1
}

# A frame clock holds the reads (issue 28): 150 deltas paced at 200/s, with a 30 Hz frame due
# after each, are read at the ticks, several per turn of the loop, where unheld each would
# take its own turn; every delta still arrives, and once the stream ends nothing ticks on.
# While the stream comes in a tick does not poll to learn whether reads wait (the last had),
# and the loop sleeps until the tick in its own epoll_wait, not in lws's poll ("quiet").
case_frame_clock() {
	head -c 600 "$NET_DATA/../../../bench/answer.md" >"$T/answer"
	start_fixture "$NET_DATA/../../data/bench_answer.scenario" --set "answer=$T/answer" \
		--set start_delay=0.2
	session --frame-hz 30 --exit-after 2
	expect_rc 0
	expect_count '^delta ' 150
	awk '$1 == "frames" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "%d deltas in %d turns of the loop, %d ticks; %d waited for a tick; " \
			"%d ticks polled for reads waiting; %d read at once; %d FIONREADs; " \
			"%d quiet waits\n",
			v["deltas"], v["turns"], v["ticks"], v["waited"], v["checks"], v["direct"],
			v["ioctls"], v["quiet"]
		exit !(v["deltas"] == 150 && v["turns"] * 4 < v["deltas"] * 3 &&
		       v["waited"] * 2 > v["deltas"] && v["checks"] * 2 < v["ticks"] &&
		       v["direct"] * 3 > v["ticks"] * 2 && v["ioctls"] * 2 < v["ticks"] &&
		       v["quiet"] * 3 > v["ticks"] * 2) }' "$T/out" \
		>"$T/turns" || fail "$(cat "$T/turns")"
	cat "$T/turns"
	last_rx=$(sed -n 's/.* last_rx=//p' "$T/out")
	last_tick=$(sed -n 's/.* last_tick=//p' "$T/out")
	awk -v r="$last_rx" -v t="$last_tick" 'BEGIN { exit !(t <= r + 0.1) }' ||
		fail "a tick at $last_tick s, after the stream's last frame at $last_rx s"
}

# A tick that takes long (a slow paint) does not delay the next: the loop's wait after it
# counts from its end, not from the turn's start. With 15 ms of work in each 30 Hz tick, the
# 0.75 s stream takes 25 ticks; counted from the turn's start each came 15 ms late (19).
case_frame_clock_slow_tick() {
	head -c 600 "$NET_DATA/../../../bench/answer.md" >"$T/answer"
	start_fixture "$NET_DATA/../../data/bench_answer.scenario" --set "answer=$T/answer" \
		--set start_delay=0.2
	session --frame-hz 30 --tick-work-ms 15 --exit-after 2
	expect_rc 0
	expect_count '^delta ' 150
	awk '$1 == "frames" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "%d ticks of 15 ms for 150 deltas, %d quiet waits\n", v["ticks"], v["quiet"]
		exit !(v["ticks"] >= 22 && v["quiet"] > 0) }' "$T/out" >"$T/ticks" ||
		fail "$(cat "$T/ticks")"
	cat "$T/ticks"
}

# A replay's backlog is read as it comes, not one read per tick while frames are due: 2,000
# events of up to 8 KB (~3.5 MB) in a few ticks at most (one buffer a tick would need hundreds).
# A read takes up to 64 KB (NET_READ_BYTES), where lws's default is 4 KB: some turn of the
# loop takes far more than 4 KB. (How many turns it takes in all depends on whether the
# reader catches up with the fixture: 30-odd, or hundreds of small reads on a busy machine.)
# Nor does the loop sleep through it in its quiet wait: lws may hold part of a read (the
# first frames come in the read of the upgrade's answer), so only a stream's tick allows it.
case_frame_clock_backlog() {
	printf 'history 2000\n' >"$T/h.scenario"
	start_fixture "$T/h.scenario"
	session --frame-hz 30 --until-seq 1999
	expect_rc 0
	awk '$1 == "frames" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "%d durable events in %d ticks, %d turns of the loop (%d FIONREADs), " \
			"at most %d bytes in a turn, %d quiet waits\n",
			v["durables"], v["ticks"], v["turns"], v["ioctls"], v["most_in_a_turn"],
			v["quiet"]
		exit !(v["durables"] == 2000 && v["ticks"] * 10 < v["durables"] &&
		       v["most_in_a_turn"] > 16384 && v["quiet"] == 0) }' "$T/out" >"$T/ticks" ||
		fail "$(cat "$T/ticks")"
	cat "$T/ticks"
}

"case_$CASE"
echo "ok $CASE"
