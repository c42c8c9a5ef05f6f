#!/usr/bin/env bash
# The keyring's failure cases (stack.md §6 and P11-P14) and the keyring commands of
# tether, each in its own throwaway D-Bus session and HOME, so that no real keyring is
# touched. Every command runs under `timeout 20`: a hang or a crash is a failure.
# usage: keyring_cases.sh TETHER KEYRING_PROBE
set -u
tether=$1
probe=$2
for tool in dbus-run-session dbus-daemon gnome-keyring-daemon gdbus timeout; do
	command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed"; exit 77; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset TETHER_SERVER TETHER_SESSION_API_KEY DISPLAY WAYLAND_DISPLAY
export tether probe

failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# run NAME CMD...: runs CMD under timeout 20; stdout in $work/NAME.out, stderr in
# $work/NAME.err, status in $work/NAME.rc. A hang (124) or a signal (>= 128) fails here.
run() {
	local name=$1
	shift
	timeout 20 "$@" >"$work/$name.out" 2>"$work/$name.err"
	local rc=$?
	echo "$rc" >"$work/$name.rc"
	if [ "$rc" -eq 124 ]; then fail "$name: did not finish within 20 s"
	elif [ "$rc" -ge 128 ]; then fail "$name: killed by signal $((rc - 128))"
	elif [ "$rc" -ne 0 ] && [ ! -s "$work/$name.out" ] && [ ! -s "$work/$name.err" ]; then
		fail "$name: exit $rc without a word"
	fi
	[ "$rc" -ge 124 ] && sed 's/^/    /' "$work/$name.out" "$work/$name.err"
	return 0
}

# expect_probe NAME STATUS TEXT: the probe's first line is STATUS and its output has TEXT.
expect_probe() {
	local name=$1 status=$2 text=$3 out="$work/$1.out"
	if [ "$(head -n 1 "$out")" != "$status" ]; then
		fail "$name: wanted status $status, got:"
		sed 's/^/    /' "$out"
	elif ! grep -qF -- "$text" "$out"; then
		fail "$name: wanted a message with '$text', got:"
		sed 's/^/    /' "$out"
	fi
}

# expect_cli NAME RC TEXT: tether exited with RC and said TEXT ("" to skip that check).
expect_cli() {
	local name=$1 rc=$2 text=$3
	local got
	got=$(cat "$work/$name.rc")
	if [ "$got" != "$rc" ]; then
		fail "$name: wanted exit $rc, got $got:"
		cat "$work/$name".{out,err} 2>/dev/null | sed 's/^/    /'
	elif [ -n "$text" ] && ! cat "$work/$name".{out,err} 2>/dev/null | grep -qF -- "$text"; then
		fail "$name: wanted '$text' in the output, got:"
		cat "$work/$name".{out,err} 2>/dev/null | sed 's/^/    /'
	fi
}

# A fresh HOME/XDG tree for one scenario; prints its path.
new_home() {
	local h="$work/$1"
	mkdir -p "$h/share" "$h/config" "$h/run-a" "$h/run-b"
	chmod 700 "$h/run-a" "$h/run-b"
	echo "$h"
}

# session HOME RUNDIR: sets $session to the command that runs a bash script (its next
# argument) in a new session bus with that home.
session() {
	local h=$1 rundir=$2
	session=(env HOME="$h" XDG_DATA_HOME="$h/share" XDG_CONFIG_HOME="$h/config"
		 XDG_RUNTIME_DIR="$h/$rundir" work="$work" dbus-run-session -- bash -c)
}

# Started in a session script: a keyring unlocked (or not) with the password on stdin.
start_keyring='
	printf %s "$password" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
	gdbus wait --session --timeout 10 org.freedesktop.secrets
	gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
		--method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.secrets |
		sed -E "s/.*uint32 ([0-9]+).*/\1/" >"$work/keyring.pid"
'

# Ends a session script: the daemon started there (it would also go with the bus).
stop_keyring='
	kill "$(cat "$work/keyring.pid")" 2>/dev/null
	rm -f "$work/keyring.pid"
'

# ------------------------------------------------------------------ no session bus
run nobus_probe env -u DBUS_SESSION_BUS_ADDRESS "$probe" get http://nobus.example
expect_probe nobus_probe NO_BUS "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset)"
run nobus_lookup_list env -u DBUS_SESSION_BUS_ADDRESS "$probe" list
expect_probe nobus_lookup_list NO_BUS "no D-Bus session bus"
run nowhere_probe env DBUS_SESSION_BUS_ADDRESS=unix:path="$work/no-such-socket" "$probe" set http://x k-123456
expect_probe nowhere_probe NO_BUS "cannot reach the D-Bus session bus"
run nobus_cli_list env -u DBUS_SESSION_BUS_ADDRESS "$tether" secret list
expect_cli nobus_cli_list 1 "no D-Bus session bus"
run nobus_cli_add bash -c 'printf value-1234 | env -u DBUS_SESSION_BUS_ADDRESS "$tether" secret add name'
expect_cli nobus_cli_add 1 "no D-Bus session bus"

# ------------------------------------------------- a bus without any Secret Service
mkdir -p "$work/no-services"
cat >"$work/session.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=$work</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$work/no-services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
run noservice_probe dbus-run-session --config-file="$work/session.conf" -- "$probe" get http://x
expect_probe noservice_probe NO_SERVICE "no Secret Service on the session bus"
run noservice_cli dbus-run-session --config-file="$work/session.conf" -- "$tether" key rm --server http://x
expect_cli noservice_cli 1 "no Secret Service on the session bus"

# ------------------------- gnome-keyring auto-started, no login keyring, no prompter
h=$(new_home nologin)
session "$h" run-a
run nologin_store "${session[@]}" '"$probe" set http://nologin.example k-123456'
expect_probe nologin_store NO_SERVICE "no default collection"

# ------------------------------------------------------------ a locked keyring
h=$(new_home locked)
session "$h" run-a
run locked_setup "${session[@]}" "password=pw1; $start_keyring"'
	"$probe" set http://locked.example k-123456
	"$probe" add locked-secret value-123456
	'"$stop_keyring"
[ "$(grep -c '^OK$' "$work/locked_setup.out")" = 2 ] || { fail "locked_setup:"; cat "$work/locked_setup.out"; }
# A second daemon on the same files, unlocked with the wrong password, stays locked.
session "$h" run-b
run locked_session "${session[@]}" "password=WRONG; $start_keyring"'
	"$probe" set http://other.example k-123456 >"$work/locked_store.out"
	"$probe" get http://locked.example >"$work/locked_lookup.out"
	"$probe" rm http://locked.example >"$work/locked_rm.out"
	"$probe" list >"$work/locked_list.out"
	"$tether" secret list >"$work/locked_cli_list.out" 2>&1; echo $? >"$work/locked_cli_list.rc"
	printf value-123456 | "$tether" secret add x >"$work/locked_cli_add.out" 2>&1
	echo $? >"$work/locked_cli_add.rc"
	'"$stop_keyring"
expect_probe locked_store LOCKED "locked"
expect_probe locked_lookup LOCKED "locked"
expect_probe locked_rm LOCKED "locked"
expect_probe locked_list LOCKED "locked"
expect_cli locked_cli_list 1 "locked"
expect_cli locked_cli_add 1 "locked"

# ------------------------------------------- a Secret Service that stops answering
h=$(new_home hung)
session "$h" run-a
run hung_session "${session[@]}" "password=pw; $start_keyring"'
	pid=$(cat "$work/keyring.pid")
	kill -STOP "$pid"
	timeout 15 "$probe" --timeout-ms 1500 get http://hung.example >"$work/hung_lookup.out"
	kill -CONT "$pid"
	'"$stop_keyring"
expect_probe hung_lookup ERROR "did not answer within 1.5 s"

# --------------------------------------------------- the CLI on a working keyring
h=$(new_home cli)
session "$h" run-a
run cli_session "${session[@]}" "password=pw; $start_keyring"'
	cli() { # name, command line...: output and exit code into $work
		local name=$1; shift
		"$@" >"$work/$name.out" 2>&1; echo $? >"$work/$name.rc"
	}
	cli cli_add bash -c "printf \"cli-value-4242\n\" | \"\$tether\" secret add cli-name"
	cli cli_list "$tether" secret list
	cli cli_argv "$tether" secret add cli-argv cli-value-on-argv
	cli cli_list2 "$tether" secret list
	cli cli_short bash -c "printf abc | \"\$tether\" secret add cli-short"
	cli cli_empty bash -c "printf \"\n\" | \"\$tether\" secret add cli-empty"
	cli cli_two_lines bash -c "printf \"one-line\ntwo-lines\n\" | \"\$tether\" secret add cli-two"
	cli cli_list3 "$tether" secret list
	cli cli_rm "$tether" secret rm cli-name
	cli cli_rm_again "$tether" secret rm cli-name
	cli cli_key_set bash -c "printf \"key-abc-123\r\n\" | \"\$tether\" key set --server http://Cli.Example:9000/"
	cli cli_key_get "$probe" get http://cli.example:9000
	cli cli_key_rm "$tether" key rm --server ws://cli.example:9000
	cli cli_key_rm_again "$tether" key rm --server http://cli.example:9000
	cli cli_key_empty bash -c "printf \"\" | \"\$tether\" key set --server http://cli.example:9000"
	c1name=$(printf "c1\302\2332Jname\342\200\256x")
	cli cli_c1_add bash -c "printf \"value-c1-9999\n\" | \"\$tether\" secret add \"$c1name\""
	cli cli_c1_list "$tether" secret list
	cli cli_c1_rm "$tether" secret rm "$c1name"
	G_MESSAGES_DEBUG=all "$tether" secret list >"$work/cli_glib_quiet.out" 2>"$work/cli_glib_quiet.err"
	'"$stop_keyring"
expect_cli cli_add 0 ""
expect_cli cli_list 0 "cli-name"
grep -qF cli-value-4242 "$work/cli_list.out" && fail "cli_list: printed a secret value"
grep -qF cli-value-4242 "$work/cli_add.out" && fail "cli_add: printed the secret value"
expect_cli cli_argv 2 "never taken from the command line"
grep -qF cli-argv "$work/cli_list2.out" && fail "cli_argv: a value on argv was stored"
expect_cli cli_short 2 "shorter than 4 characters"
expect_cli cli_empty 2 "empty"
expect_cli cli_two_lines 2 "one line"
for name in cli-short cli-empty cli-two; do
	grep -qxF "$name" "$work/cli_list3.out" && fail "cli: refused secret $name was stored"
done
expect_cli cli_rm 0 ""
expect_cli cli_rm_again 1 "no secret named cli-name"
expect_cli cli_key_set 0 ""
expect_probe cli_key_get OK "key=key-abc-123"
grep -qxF "key=key-abc-123" "$work/cli_key_get.out" || fail "cli_key_get: the CR was not stripped"
expect_cli cli_key_rm 0 ""
expect_cli cli_key_rm_again 1 "no session API key"
expect_cli cli_key_empty 2 "empty"
# A name stored with a C1 CSI and a bidi override in it is echoed and listed without them.
expect_cli cli_c1_add 0 "stored secret c12Jnamex"
expect_cli cli_c1_list 0 "c12Jnamex"
expect_cli cli_c1_rm 0 "removed secret c12Jnamex"
for name in cli_c1_add cli_c1_list cli_c1_rm; do
	grep -q $'\xc2\x9b\\|\xe2\x80\xae' "$work/$name.out" && fail "$name: a control character reached the terminal"
done
# glib logs (here its debug lines, which glib writes to stdout) never reach the terminal;
# every secret is gone by now, so the list prints nothing at all.
if [ -s "$work/cli_glib_quiet.out" ] || [ -s "$work/cli_glib_quiet.err" ]; then
	fail "cli_glib_quiet: wanted no output, got:"
	cat "$work/cli_glib_quiet.out" "$work/cli_glib_quiet.err"
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures keyring case(s) failed"
	exit 1
fi
echo "all keyring cases passed"
