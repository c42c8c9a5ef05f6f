#!/bin/sh
# Each primitive has one copy, in base/ (issue 12, point 5): the UTF-8 well-formedness table,
# the wipe of secrets and the ASCII case-insensitive match. Fails naming every other copy.
root=${1:?usage: one_primitive.sh SOURCE_ROOT}
cd "$root" || exit 1
# Every directory of the tree that meson builds, so a new library is checked without a word here.
dirs=$(for d in */; do [ -f "$d/meson.build" ] && echo "${d%/}"; done)
bad=0
check() {
	# $1: what, $2: extended regex; hits outside base/ are copies
	hits=$(grep -rnE --include='*.c' --include='*.h' "$2" $dirs | grep -v '^base/')
	if [ -n "$hits" ]; then
		echo "another $1 outside base/:"
		echo "$hits"
		bad=1
	fi
}
# The second-byte bounds that only a UTF-8 decoder needs (E0 A0, ED 9F, F0 90, F4 8F).
check "UTF-8 well-formedness table" '0x[Ee][Dd]\b|0x9[Ff]\b.*0x[Ee][Dd]|0xF4, 0xF4|c >= 0xF0 && c <= 0xF4'
# Secrets are wiped by mem_wipe/str_wipe_free only: no explicit_bzero, volatile loop or
# memset of a key.
check "wipe" 'explicit_bzero|volatile unsigned char \*|memset\([a-z_>.-]*(key|secret|value)'
check "ASCII case fold" '\|= 0x20|\| 0x20\)|c \+ 32\)'
exit $bad
