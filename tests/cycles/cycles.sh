#!/bin/sh
# The cycle checker on its fixture: ping.c and ping_back.c call each other inside one module
# (allowed); with pong.c, which ping_back.c calls and which calls ping, the two modules form a
# cycle that is reported with its symbols, named by library or by object file.
cycles=${1:?usage: cycles.sh CYCLES PING_LIB PONG_LIB}
ping=$2 pong=$3
out=$("$cycles" "$ping") || { echo "a cycle inside one module was reported:"; echo "$out"; exit 1; }
out=$("$cycles" "$ping" "$pong") && { echo "the cycle ping <-> pong was not reported:"; echo "$out"; exit 1; }
want="cycle of 2 modules: tests/cycles/ping tests/cycles/pong
  tests/cycles/ping -> tests/cycles/pong  (ping_back.c: pong)
  tests/cycles/pong -> tests/cycles/ping  (pong.c: ping)"
[ "$out" = "$want" ] || { printf 'got:\n%s\nwanted:\n%s\n' "$out" "$want"; exit 1; }
# The same with pong.c's object file named instead of its library (as for an executable's).
out=$("$cycles" "$ping" "$pong.p/pong.c.o") && { echo "the cycle through pong.c.o was not reported"; exit 1; }
[ "$out" = "$want" ] || { printf 'got:\n%s\nwanted:\n%s\n' "$out" "$want"; exit 1; }
