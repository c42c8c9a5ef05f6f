#!/usr/bin/env bash
# meson install puts tether and its man page where README says, and README says how: the
# come-back line printed on exit names `tether`, which must be on PATH to work.
# usage: install.sh MESON BUILD_DIR README.md
set -u
MESON=$1 BUILD=$2 README=$3
DEST=$(mktemp -d /tmp/tether-install.XXXXXX)
trap 'rm -rf "$DEST"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$MESON" install -C "$BUILD" --no-rebuild --quiet --destdir "$DEST" >"$DEST.log" 2>&1 ||
	{ cat "$DEST.log" >&2; rm -f "$DEST.log"; fail "meson install failed"; }
rm -f "$DEST.log"
prefix=$("$MESON" introspect "$BUILD" --buildoptions |
	python3 -c 'import json,sys; print({o["name"]: o["value"] for o in json.load(sys.stdin)}["prefix"])')
bin="$DEST$prefix/bin/tether"
man="$DEST$prefix/share/man/man1/tether.1"
[ -x "$bin" ] || fail "no tether at $prefix/bin: $(cd "$DEST" && find . -type f)"
[ -f "$man" ] || fail "no man page at $prefix/share/man/man1: $(cd "$DEST" && find . -type f)"
"$bin" --version | grep -q '^tether ' || fail "the installed tether does not run"

# README's Install section names the build's binary, the command and where the files go.
section=$(sed -n '/^## Install$/,/^## /p' "$README")
[ -n "$section" ] || fail "README.md has no Install section"
for want in "build/app/tether" "meson install -C build" "$prefix/bin/tether" \
	"$prefix/share/man/man1/tether.1" "--prefix ~/.local" "PATH" "man tether"; do
	grep -qF -- "$want" <<<"$section" || fail "README.md's Install section does not say '$want'"
done
echo "installed: $prefix/bin/tether, $prefix/share/man/man1/tether.1"
