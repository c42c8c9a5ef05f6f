#!/usr/bin/env bash
# The key file (issue 23 item 9): with no D-Bus session (unset, or pointing nowhere) `tether key
# set` stores the key in $XDG_CONFIG_HOME/tether/keys, mode 0600, with a warning, and a connect
# then finds it; a key file others may read, or a symbolic link, is refused in words; `key rm`
# empties it. Headless with no key fails at once with exit 3 (REST's 401), not after the
# socket's 10 s auth timeout.
# usage: key_file.sh TETHER FIXTURE_SERVER DATA_DIR
set -u
tether=$1
fixture=$2
data=$3
work=$(mktemp -d)
srv=
cleanup() {
	[ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
unset TETHER_SERVER TETHER_SESSION_API_KEY
export LANG=C.UTF-8 LC_ALL=C.UTF-8
KEY=test-only-headless-9d2f
CONV=5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91

failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

"$fixture" --scenario "$data/headless_auth.scenario" --log "$work/traffic" --max-seconds 120 \
	>"$work/port" 2>"$work/fixture.err" &
srv=$!
for _ in $(seq 200); do
	port=$(sed -n 's/^PORT //p' "$work/port")
	[ -n "$port" ] && break
	sleep 0.05
done
[ -n "$port" ] || { cat "$work/fixture.err"; echo "FAIL: the fixture did not start"; exit 1; }
url="http://127.0.0.1:$port"

# t NAME [ENV=VALUE...] -- CMD...: runs CMD with no D-Bus session and the config home of the
# test; output in $work/NAME.{out,err,rc}, its time in ms in $work/NAME.ms.
t() {
	local name=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	local t0 t1
	t0=$(date +%s%N)
	env -u DBUS_SESSION_BUS_ADDRESS HOME="$work/home" XDG_CONFIG_HOME="$work/config" "${envs[@]}" \
		timeout 20 "$@" <"${stdin:-/dev/null}" >"$work/$name.out" 2>"$work/$name.err"
	echo $? >"$work/$name.rc"
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000)) >"$work/$name.ms"
}

# expect NAME RC TEXT: exited with RC and said TEXT on stderr ("" to skip); never the key.
expect() {
	local name=$1 rc=$2 text=$3
	[ "$(cat "$work/$name.rc")" = "$rc" ] ||
		fail "$name: wanted exit $rc, got $(cat "$work/$name.rc"): $(cat "$work/$name.err")"
	[ -z "$text" ] || grep -qF -- "$text" "$work/$name.err" ||
		fail "$name: wanted '$text' on stderr, got: $(cat "$work/$name.err")"
	grep -qF -- "$KEY" "$work/$name.out" "$work/$name.err" && fail "$name: the key was printed"
	return 0
}

keyfile="$work/config/tether/keys"
headless=("$tether" --headless --server "$url" --format ndjson --until idle "$CONV")

# No key anywhere: exit 3 at once, in words.
t nokey -- "${headless[@]}"
expect nokey 3 "wants a session API key and none was given"
[ "$(cat "$work/nokey.ms")" -lt 3000 ] || fail "nokey: took $(cat "$work/nokey.ms") ms (the auth timeout is 10 s)"

# key set with no D-Bus session: the file, 0600, and a warning.
printf '%s\n' "$KEY" >"$work/key.in"
stdin="$work/key.in" t set_nobus -- "$tether" key set --server "$url/"
expect set_nobus 0 "warning: keyring: no D-Bus session bus"
grep -qF "stored in plain text in $keyfile (mode 0600)" "$work/set_nobus.err" ||
	fail "set_nobus: the file is not named: $(cat "$work/set_nobus.err")"
[ "$(stat -c %a "$keyfile" 2>/dev/null)" = 600 ] || fail "set_nobus: the key file is not 0600"
[ "$(stat -c %a "$work/config/tether" 2>/dev/null)" = 700 ] || fail "set_nobus: its directory is not 0700"
[ "$(grep -c . "$keyfile")" = 1 ] || fail "set_nobus: wanted one line in the key file"

# ... and a connect finds it (the socket authenticates with it).
t connect_nobus -- "${headless[@]}"
expect connect_nobus 0 ""
grep -qE "^conn [0-9]+ .*auth=ok" "$work/traffic" || fail "connect_nobus: the socket did not authenticate"

# A bus address that leads nowhere is no Secret Service either; set again replaces the line.
stdin="$work/key.in" t set_nowhere DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-such-socket" -- \
	"$tether" key set --server "$url"
expect set_nowhere 0 "warning: keyring: cannot reach the D-Bus session bus"
[ "$(grep -c . "$keyfile")" = 1 ] || fail "set_nowhere: the key is in the file twice"
t connect_nowhere DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-such-socket" -- "${headless[@]}"
expect connect_nowhere 0 ""

# A key file others may read is refused, in words, by a connect and by key set.
chmod 644 "$keyfile"
t wide -- "${headless[@]}"
expect wide 3 "has mode 0644: others may read it, so it is not used; chmod 600 it"
stdin="$work/key.in" t wide_set -- "$tether" key set --server "$url"
expect wide_set 1 "has mode 0644"
[ "$(stat -c %a "$keyfile")" = 644 ] || fail "wide_set: the refused file was changed"
chmod 600 "$keyfile"

# A symbolic link is refused too (it could point anywhere).
mv "$keyfile" "$work/elsewhere"
ln -s "$work/elsewhere" "$keyfile"
t link -- "${headless[@]}"
expect link 3 "is a symbolic link, so it is not used"
stdin="$work/key.in" t link_set -- "$tether" key set --server "$url"
expect link_set 1 "is a symbolic link"
[ -L "$keyfile" ] || fail "link_set: the link was replaced"
rm "$keyfile"
mv "$work/elsewhere" "$keyfile"

# key rm takes it out of the file; a second rm says there is none.
t rm_nobus -- "$tether" key rm --server "$url"
expect rm_nobus 0 "removed the session API key"
grep -qF "$KEY" "$keyfile" 2>/dev/null && fail "rm_nobus: the key is still in the file"
t rm_again -- "$tether" key rm --server "$url"
expect rm_again 1 "no session API key"
t after_rm -- "${headless[@]}"
expect after_rm 3 "wants a session API key"

grep -qF -- "$KEY" "$work/traffic" && fail "the fixture's log shows the key"
if [ "$failures" -ne 0 ]; then
	echo "$failures key file case(s) failed"
	exit 1
fi
echo "all key file cases passed"
