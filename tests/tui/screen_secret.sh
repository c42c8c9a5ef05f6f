#!/usr/bin/env bash
# A secret from the mask list never reaches the terminal — not in any capture taken while it
# streams in split across deltas, not in the durable message, not in any byte written.
. "$(dirname "$0")/lib.sh" "$@"

secret=tok-Zq9VX7wKpL3mN8rT
printf '%s\n' "$secret" >"$WORK/mask"
start_fixture "$DATA/tui_secret.scenario" --set "secret=$secret"
start_tether 80 30 --mask-file "$WORK/mask" "$CONV"
done=0
for _ in $(seq 600); do
	s=$(screen)
	for part in "$secret" "Zq9VX7wKpL3" "pL3mN8rT"; do
		grep -qF -- "$part" <<<"$s" && fail "the secret (or part of it: $part) is on screen"
	done
	if grep -qF "Secret test done." <<<"$s"; then
		done=1
		break
	fi
	pause 0.05
done
[ "$done" = 1 ] || fail "the conversation did not finish"
s=$(screen)
grep -qF "the token is <secret-hidden> and more text after it" <<<"$s" ||
	fail "the streamed secret is not masked in place"
grep -qF "durable copy <secret-hidden> end" <<<"$s" || fail "the durable secret is not masked"
grep -aqF -e "$secret" -e "Zq9VX7wKpL3" -e "pL3mN8rT" "$WORK/bytes" &&
	fail "the secret was written to the terminal"
no_sanitizer_report
echo ok
