# Screen tests: helpers shared by tests/tui/screen_*.sh (bash).
#
# Each test runs tether inside a private tmux server (its own socket, no config file) at a
# fixed size, against the fixture server on a port the OS chose, and reads the screen with
# capture-pane. Usage at the top of a test:  . "$(dirname "$0")/lib.sh" "$@"
# Arguments: the tether binary, the fixture server, the tests/data directory.

TETHER=$1
FIXTURE=$2
DATA=$3
if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux is not installed: skipped"
	exit 77
fi
[ -x "$TETHER" ] && [ -x "$FIXTURE" ] && [ -d "$DATA" ] || {
	echo "usage: $0 TETHER FIXTURE_SERVER DATA_DIR" >&2
	exit 2
}

CONV=5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tether-screen.XXXXXX")
SOCKET="tether-screen-$$"
SRV=
PORT=
mkdir -p "$WORK/home" "$WORK/config" "$WORK/run"
chmod 700 "$WORK/run"

# Waiting and polling without a process each time: four tests at once poll the screen 10–20
# times a second, and forking sleep, seq, awk and grep for it was half of the suite's CPU
# (perf, 2026-12-05), on a machine where the suite is CPU-bound.
# pause SECONDS: sleeps (read times out on a fifo that nobody writes; opened read-write, so
# the open does not block, and per call, so no process started here inherits it).
mkfifo "$WORK/pause"
pause() { read -r -t "$1" <>"$WORK/pause" || :; }
# poll_count SECONDS PER_SECOND: sets POLLS to how many polls at PER_SECOND fit in SECONDS (≥ 1).
poll_count() {
	local i=${1%%.*} f=${1#*.}
	[ "$f" != "$1" ] || f=
	f=${f}000
	POLLS=$((((10#${i:-0} * 1000 + 10#${f:0:3}) * $2 + 500) / 1000))
	[ "$POLLS" -gt 0 ] || POLLS=1
}
# shows TEXT: the screen shows TEXT (no grep: the match is the shell's, TEXT literal);
# hides TEXT: it does not.
shows() {
	local s
	s=$(screen)
	[[ $s == *"$1"* ]]
}
hides() { ! shows "$1"; }

T() { tmux -L "$SOCKET" "$@"; }

# kill-server returns before the server has gone, and a new-session meanwhile can reach the
# dying one ("server exited unexpectedly", seen under load): wait until its process is gone.
tmux_stop() {
	local p i
	p=$(T display -p '#{pid}' 2>/dev/null)
	T kill-server >/dev/null 2>&1
	[ -n "$p" ] || return 0
	for ((i = 0; i < 250; i++)); do kill -0 "$p" 2>/dev/null || return 0; pause 0.02; done
}

# tether goes with its terminal; one still there after 5 s must not outlive the test (an ASan
# build's leak check at exit was seen spinning forever once its tty was gone).
reap_tether() {
	local p i
	p=$(cat "$WORK/pid" 2>/dev/null)
	[ -n "$p" ] || return 0
	for ((i = 0; i < 50; i++)); do kill -0 "$p" 2>/dev/null || return 0; pause 0.1; done
	kill -KILL "$p" 2>/dev/null
}

cleanup() {
	tmux_stop
	reap_tether
	if [ -n "$SRV" ]; then
		kill "$SRV" 2>/dev/null
		wait "$SRV" 2>/dev/null
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
# However this test ends, nothing of it may stay. meson ends a test at its timeout with SIGTERM
# to its process group and SIGKILL 0.5 s later: under load a trap had not even started its
# cleanup by then (CI, 2026-12-05). tmux, and tether in its pane, are outside that group. So
# from the start a watcher in a session of its own waits for this shell to go and, unless
# cleanup has already removed WORK, ends the tmux server and tether and removes WORK once the
# server has gone (its pane's shell writes its last files into WORK as it dies).
setsid -f sh -c 'tail -f /dev/null --pid="$1" -s 0.2 2>/dev/null
	[ -e "$2" ] || exit 0
	sp=$(tmux -L "$3" display -p "#{pid}" 2>/dev/null)
	tmux -L "$3" kill-server; p=$(cat "$2/pid" 2>/dev/null)
	[ -z "$p" ] || kill -KILL "$p"
	for _ in $(seq 200); do [ -n "$sp" ] && kill -0 "$sp" 2>/dev/null || break; sleep 0.05; done
	for _ in $(seq 50); do rm -rf "$2" 2>/dev/null; [ -e "$2" ] || break; sleep 0.2; done
	' sh "$$" "$WORK" "$SOCKET" </dev/null >/dev/null 2>&1
on_signal() {
	trap - EXIT
	exit 1
}
trap on_signal INT TERM

screen() { T capture-pane -p -t main; }

fail() {
	echo "FAIL: $*" >&2
	echo "--- screen:" >&2
	screen >&2 2>/dev/null
	echo "--- tether stderr:" >&2
	cat "$WORK/stderr" >&2 2>/dev/null
	exit 1
}

# start_fixture SCENARIO [ARG...]: starts the fixture server and sets PORT. With
# TETHER_TEST_PROTOCOL=events it is a server from before the session socket (issue 26).
start_fixture() {
	local scenario=$1
	shift
	if [ "${TETHER_TEST_PROTOCOL:-session}" = events ]; then
		case " $* " in
		*" --server-version "* | *" --older-server "*) ;;
		*) set -- "$@" --older-server 1.40.0 ;;
		esac
	fi
	rm -f "$WORK/port"
	"$FIXTURE" --scenario "$scenario" --log "$WORK/traffic" --durable-log "$WORK/durable" \
		--max-seconds 120 "$@" >"$WORK/port" 2>"$WORK/fixture.err" &
	SRV=$!
	PORT=$(fixture_port "$WORK/port" "$SRV") && return 0
	cat "$WORK/fixture.err" >&2
	fail "the fixture server did not start"
}

# start_tether COLS ROWS [TETHER ARG...]: opens the tmux session "main" with tether in it
# (connected to the fixture, on CONV unless the arguments say otherwise). The pane records
# the tty mode before and after, tether's pid, stderr and exit status in WORK, and stays
# open after tether exits. Every byte written to the pane goes to WORK/bytes.
start_tether() {
	local cols=$1 rows=$2
	shift 2
	{
		echo '#!/bin/sh'
		printf 'W=%q\n' "$WORK"
		# Ctrl-C reaches the whole process group: the shell must outlive it to record
		# tether's exit, yet not ignore SIGINT, which tether would inherit.
		echo 'trap : INT'
		echo 'while [ ! -e "$W/go" ]; do sleep 0.02; done'
		echo 'stty -g > "$W/stty_before"'
		printf 'sh -c '\''echo $$ > "$1"; shift; exec "$@"'\'' sh "$W/pid" %q -s %q' \
			"$TETHER" "http://127.0.0.1:$PORT"
		[ $# -eq 0 ] || printf ' %q' "$@"
		echo ' 2> "$W/stderr"'
		echo 'echo $? > "$W/rc.tmp"; mv "$W/rc.tmp" "$W/rc"'
		# whole or not there: the redirection makes the file before stty writes it
		echo 'stty -g > "$W/stty_after.tmp"; mv "$W/stty_after.tmp" "$W/stty_after"'
		echo 'exec sleep 600'
	} >"$WORK/run.sh"
	chmod +x "$WORK/run.sh"
	rm -f "$WORK/go" "$WORK/rc" "$WORK/pid" "$WORK/stty_before" "$WORK/stty_after"
	T -f /dev/null new-session -d -s main -x "$cols" -y "$rows" \
		-e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 -e HOME="$WORK/home" \
		-e XDG_CONFIG_HOME="$WORK/config" -e XDG_RUNTIME_DIR="$WORK/run" \
		-e XDG_STATE_HOME="$WORK/state" \
		-e TETHER_OSC52= -e NO_COLOR= -e TETHER_SESSION_API_KEY= "$WORK/run.sh" ||
		fail "tmux did not start"
	T set -g remain-on-exit on
	T pipe-pane -o -t main "cat >> '$WORK/bytes'"
	: >"$WORK/go"
}

# wait_for TEXT [SECONDS]: until the screen shows TEXT.
wait_for() {
	wait_every 10 "${2:-30}" shows "$1"
}

# wait_gone TEXT [SECONDS]: until the screen no longer shows TEXT.
wait_gone() {
	wait_every 10 "${2:-30}" hides "$1"
}

# wait_traffic PATTERN [SECONDS]: until the fixture's traffic log has a line matching PATTERN.
wait_traffic() {
	wait_every 10 "${2:-30}" grep -qE -- "$1" "${WORK_TRAFFIC:-$WORK/traffic}" 2>/dev/null
}

# wait_exit [SECONDS]: until tether has exited (sets RC).
wait_exit() {
	local i
	wait_every 10 "${1:-30}" test -e "$WORK/rc" || return 1
	RC=$(<"$WORK/rc")
	for ((i = 0; i < 50; i++)); do [ -e "$WORK/stty_after" ] && break; pause 0.05; done
	return 0
}

# wait_for_text TEXT [SECONDS]: until the screen shows TEXT; fails (the screen printed) if it
# does not within SECONDS (default 30).
wait_for_text() {
	wait_for "$1" "${2:-30}" || fail "waited ${2:-30} s for '$1'"
}

# wait_until SECONDS COMMAND [ARG...]: until COMMAND succeeds, polled every 0.05 s; returns 1
# if it has not within SECONDS.
wait_until() { wait_every 20 "$@"; }

# wait_every PER_SECOND SECONDS COMMAND [ARG...]: wait_until at another pace (2–1000 a second).
wait_every() {
	local i POLLS pace
	printf -v pace '0.%03d' $((1000 / $1))
	poll_count "$2" "$1"
	shift 2
	for ((i = 0; i < POLLS; i++)); do
		"$@" && return 0
		pause "$pace"
	done
	return 1
}

# hold SECONDS: a fixed wait, on purpose, for a test that checks something does NOT happen (a
# message wrongly sent, a second bell, a poll too soon): the time it is given to happen; or
# to wait out a time tether itself counts. Each use says why that long. Everything else
# waits on a condition.
hold() { pause "$1"; }

# screen_is TEXT: the screen is TEXT, whole.
screen_is() { [ "$(screen)" = "$1" ]; }

# quiet_for SECONDS: tether wrote nothing to the pane for SECONDS and the screen read at the
# start and end is the same (how a test knows a key's effect is painted, when no text tells).
quiet_for() {
	local a b s1 s2
	a=$(stat -c %s "$WORK/bytes" 2>/dev/null || echo 0)
	s1=$(screen)
	pause "$1"
	b=$(stat -c %s "$WORK/bytes" 2>/dev/null || echo 0)
	s2=$(screen)
	[ "$a" = "$b" ] && [ "$s1" = "$s2" ]
}

# wait_until_stable [SECONDS]: until the screen has been still for 0.2 s (see quiet_for);
# fails, the screen printed, if it is not still within SECONDS (default 10).
wait_until_stable() {
	local end=$((SECONDS + ${1:-10}))
	while [ "$SECONDS" -le "$end" ]; do
		quiet_for 0.2 && return 0
	done
	fail "the screen did not settle within ${1:-10} s"
}

# golden NAME [-e]: the whole screen, once it is still, is tests/tui/golden/NAME.txt (with -e,
# NAME.ansi: colours and attributes kept in the canonical form of sgr_canon.py); a
# difference prints a unified diff and fails. TETHER_GOLDEN_UPDATE=1 rewrites the file instead
# (tests/tui/golden/README.md). GOLDEN_SCRUB, a sed expression, blanks what a clock decides
# first; the fixture's port reads PORT.
GOLDEN_DIR=$(cd "$(dirname "$0")" && pwd)/golden
golden() {
	local name=$1 file got
	wait_until_stable
	if [ "${2:-}" = -e ]; then
		file="$GOLDEN_DIR/$name.ansi"
		T capture-pane -p -e -t main | python3 "$GOLDEN_DIR/../sgr_canon.py" >"$WORK/golden.$name"
	else
		file="$GOLDEN_DIR/$name.txt"
		screen >"$WORK/golden.$name"
	fi
	[ -z "${GOLDEN_SCRUB:-}" ] || sed -i -e "$GOLDEN_SCRUB" "$WORK/golden.$name"
	[ -z "${PORT:-}" ] || sed -i -e "s/127\.0\.0\.1:$PORT\b/127.0.0.1:PORT/g" "$WORK/golden.$name"
	if [ "${TETHER_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$WORK/golden.$name" "$file"
		echo "golden: wrote $file"
		return 0
	fi
	[ -f "$file" ] || fail "no golden file $file (TETHER_GOLDEN_UPDATE=1 writes it)"
	got=$(diff -u --label "$file" --label "screen" "$file" "$WORK/golden.$name") || {
		echo "$got" >&2
		fail "the screen differs from $file"
	}
}

# count TEXT: how many screen lines contain TEXT.
count() { screen | grep -cF -- "$1"; }

# rest METHOD PATH: one HTTP request to the fixture (bash's /dev/tcp), body discarded.
rest() {
	exec 9<>"/dev/tcp/127.0.0.1/$PORT" || fail "cannot reach the fixture"
	printf '%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n' \
		"$1" "$2" >&9
	cat <&9 >/dev/null
	exec 9<&-
}

# no_sanitizer_report: tether's stderr holds no ASan/UBSan/LSan report.
no_sanitizer_report() {
	if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$WORK/stderr" 2>/dev/null; then
		cat "$WORK/stderr" >&2
		fail "a sanitizer reported a problem"
	fi
}

# fresh_tmux: ends the tmux server and uses a new socket for the next start_tether (a new
# session on the socket of a server still shutting down fails: "server exited unexpectedly").
fresh_tmux() {
	tmux_stop
	reap_tether
	FRESH_TMUX=$((${FRESH_TMUX:-0} + 1))
	SOCKET="tether-screen-$$-$FRESH_TMUX"
}

# stop_run: ends the tmux server and the fixture, for the next start_fixture and start_tether.
stop_run() {
	tmux_stop
	reap_tether
	kill "$SRV" 2>/dev/null
	wait "$SRV" 2>/dev/null
	SRV=
}

# quit_and_stop: tether quits on Ctrl-C twice within 10 s, then stop_run.
quit_and_stop() {
	T send-keys -t main C-c C-c
	wait_exit 10 || fail "tether did not quit"
	stop_run
}

# ------------------------------------------------------------ several conversations (issue 17)
# start_fixtures NAME=SCENARIO[,VAR=VALUE…]…: one fixture server per conversation (SCENARIO
# relative to DATA unless absolute; each VAR=VALUE is a --set for that one), and in front of
# them a router: a fixture server whose `route` settings send every request naming one of
# their conversations to its server (tests/fixture/README.md, "Several conversations"). The
# router's list (/api/conversations/search) names each conversation with its title and status
# at start. Sets PORT to the router's (start_tether and rest use it), URL, and for each NAME:
# ID_NAME (its conversation id), PORT_NAME, and LOG_NAME = WORK/log_NAME, its traffic log; the
# router's is WORK/log_router (also WORK/traffic, for wait_traffic). The first NAME's
# conversation is the router's own (so the list names it once); its own requests still go to
# its server. Each conversation's log starts with the one search request start_fixtures makes.
# With FIXTURES_KEY set, that request sends it (scenarios with `key`) and the router needs it too.
# Durable logs: WORK/durable_NAME. Example:
#   start_fixtures a=multi_a.scenario b=multi_b.scenario,confirm_after=5 c=multi_c.scenario
#   start_tether 100 30 "$ID_a"; …; [ "$(log_count b respond_to_confirmation)" = 1 ]
FIXTURE_PIDS=
start_fixtures() {
	local spec name scen sets p v port routes=() older=()
	command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed: skipped"; exit 77; }
	[ $# -gt 0 ] || fail "start_fixtures: no NAME=SCENARIO given"
	trap 'stop_fixtures; cleanup' EXIT
	for spec in "$@"; do
		name=${spec%%=*}
		scen=${spec#*=}
		[[ $spec == *=* && $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ && $name != router ]] ||
			fail "start_fixtures: '$spec' is not NAME=SCENARIO (NAME a shell name, not router)"
		sets=()
		IFS=, read -r -a p <<<"$scen"
		scen=${p[0]}
		for v in "${p[@]:1}"; do sets+=(--set "$v"); done
		[ "${scen#/}" != "$scen" ] || scen="$DATA/$scen"
		# issue 26: TETHER_TEST_PROTOCOL=events makes every server one from before the
		# session socket, =mixed only the first (one TUI on both sockets)
		case "${TETHER_TEST_PROTOCOL:-session}:${#routes[@]}" in
		events:* | mixed:0) older=(--older-server 1.40.0) ;;
		*) older=() ;;
		esac
		rm -f "$WORK/port_$name"
		"$FIXTURE" --scenario "$scen" --log "$WORK/log_$name" \
			--durable-log "$WORK/durable_$name" --max-seconds 120 "${sets[@]}" "${older[@]}" \
			>"$WORK/port_$name" 2>"$WORK/fixture_$name.err" &
		FIXTURE_PIDS="$FIXTURE_PIDS $!"
		port=$(fixture_port "$WORK/port_$name" $!) || {
			cat "$WORK/fixture_$name.err" >&2
			fail "the fixture server '$name' did not start"
		}
		printf -v "PORT_$name" '%s' "$port"
		printf -v "LOG_$name" '%s' "$WORK/log_$name"
		routes+=("$name" "$port")
	done
	# The router's scenario: the conversations' own list entries, read from their servers.
	python3 - "$WORK/router.scenario" "${routes[@]}" <<'PY' || fail "cannot write the router scenario"
import json, os, sys, urllib.error, urllib.request
out, pairs = sys.argv[1], sys.argv[2:]
key = os.environ.get("FIXTURES_KEY", "")
lines, own, ids = ([f"key {json.dumps(key)}"] if key else []), None, []
for name, port in zip(pairs[::2], pairs[1::2]):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/conversations/search",
                                 headers={"X-Session-API-Key": key} if key else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            items = json.load(r)["items"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"start_fixtures: '{name}' did not list its conversation ({e});"
                 " a scenario with `key` needs FIXTURES_KEY")
    if not items:
        sys.exit(f"start_fixtures: '{name}' lists no conversation")
    ids.append(f"{name} {items[0]['id']}")
    lines.append(f"route {items[0]['id']} {port}")
    for i, it in enumerate(items):
        if own is None:
            own = it
            lines += [f"conversation {it['id']}", f"title {json.dumps(it['title'])}",
                      f"initial_status {it['execution_status']}"]
        else:
            lines.append(f"list_extra {it['id']} {it['execution_status']} {json.dumps(it['title'])}")
open(out, "w").write("# written by start_fixtures (tests/tui/lib.sh)\n" + "\n".join(lines) + "\n")
open(out + ".ids", "w").write("\n".join(ids) + "\n")
PY
	while read -r name id; do printf -v "ID_$name" '%s' "$id"; done <"$WORK/router.scenario.ids"
	rm -f "$WORK/port_router"
	"$FIXTURE" --scenario "$WORK/router.scenario" --log "$WORK/log_router" --max-seconds 120 \
		>"$WORK/port_router" 2>"$WORK/fixture_router.err" &
	FIXTURE_PIDS="$FIXTURE_PIDS $!"
	PORT=$(fixture_port "$WORK/port_router" $!) || {
		cat "$WORK/fixture_router.err" >&2
		fail "the router did not start"
	}
	ln -sf "$WORK/log_router" "$WORK/traffic"
	URL="http://127.0.0.1:$PORT"
	LOG_router="$WORK/log_router"
	export URL
}

# fixture_port PORTFILE PID: waits for the PORT line of a fixture server started in the
# background (its PORTFILE removed before, so that an earlier server's line is not read);
# prints the port.
fixture_port() {
	local line i
	for ((i = 0; i < 200; i++)); do
		[ -e "$1" ] && while read -r line; do
			[[ $line == "PORT "* ]] && { echo "${line#PORT }"; return 0; }
		done <"$1"
		kill -0 "$2" 2>/dev/null || return 1
		pause 0.05
	done
	return 1
}

# stop_fixtures: ends the servers start_fixtures started.
stop_fixtures() {
	local p
	for p in $FIXTURE_PIDS; do kill "$p" 2>/dev/null; done
	for p in $FIXTURE_PIDS; do wait "$p" 2>/dev/null; done
	FIXTURE_PIDS=
}

# wait_log NAME PATTERN [SECONDS]: until NAME's traffic log (or the router's: NAME=router) has
# a line matching PATTERN.
wait_log() {
	WORK_TRAFFIC="$WORK/log_$1" wait_traffic "$2" "${3:-30}"
}

# log_count NAME PATTERN: how many lines of NAME's traffic log match PATTERN.
log_count() { grep -cE -- "$2" "$WORK/log_$1" 2>/dev/null; }
