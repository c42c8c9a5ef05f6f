# The peers in the same run (scripts/bench --peers; sourced by scripts/bench, whose helpers
# and tmux server it uses): Claude Code, Codex CLI and opencode, pinned, installed from npm into
# a scratch folder outside the tree, each streamed bench/answer.md by bench/mock_provider.py in
# the API shape it speaks, at the pace and chunking of tether's fixture stream.
#
# A peer runs at 120x40 in the bench's private tmux server with HOME in the scratch folder (no
# real config is read or written); its config files skip onboarding, trust and login prompts
# and point it at the mock on loopback; npm's registry is set to a closed loopback port in that
# HOME, so a peer that installs packages at start (opencode) fails at once instead of reaching
# out. Each round: start the peer, wait for its prompt, type the prompt, and when the mock is
# about to send the first delta it samples the peer's whole process tree (bench/tree_probe:
# every descendant, and every process carrying the round's environment mark, which catches
# Codex's app-server daemon after it leaves the tree) and the terminal bytes so far
# (pipe-pane counts from the peer's first byte); the tree is sampled again once the answer's
# last words are on screen, then the pane's history and the peer's own scrollback (PgUp) are
# checked for the whole answer.
PEERS="claude codex opencode"
peers_dir=${TETHER_PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tether-bench-peers}
peer_prompt="Write the tether-bench-answer."
mpid=

peers_arch() { case $(uname -m) in x86_64) echo x64;; aarch64) echo arm64;; *) uname -m;; esac; }

peer_bin() { # name: the native binary its npm package runs (the JS wrappers only exec it)
	local nm=$peers_dir/node_modules a
	a=$(peers_arch)
	case $1 in
	claude) echo "$nm/@anthropic-ai/claude-code-linux-$a/claude" ;;
	codex) echo "$nm/@openai/codex-linux-$a/vendor/$(uname -m)-unknown-linux-musl/bin/codex" ;;
	opencode)
		# opencode's own postinstall picks the baseline build on CPUs without AVX2.
		if grep -qw avx2 /proc/cpuinfo; then echo "$nm/opencode-linux-$a/bin/opencode"
		else echo "$nm/opencode-linux-$a-baseline/bin/opencode"; fi ;;
	esac
}

peer_pkg() { # name: its npm package, pinned (the versions of bench/peers.md's tables)
	case $1 in
	claude) echo @anthropic-ai/claude-code@2.1.197 ;;
	codex) echo @openai/codex@0.171.0 ;;
	opencode) echo opencode-ai@1.18.33 ;;
	esac
}

peer_version() { # name: the installed version, from its package.json
	local pkg
	pkg=$(peer_pkg "$1")
	sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$peers_dir/node_modules/${pkg%@*}/package.json" \
		2>/dev/null | head -1
}

peer_name() { case $1 in claude) echo "Claude Code";; codex) echo "Codex CLI";; opencode) echo opencode;; esac; }

# Installs the pinned packages when they are not there yet (without their install scripts:
# those only copy the same native binary that peer_bin runs in place).
peers_install() {
	local p want missing=
	mkdir -p "$peers_dir/work"
	[ -f "$peers_dir/package.json" ] || echo '{"private": true}' >"$peers_dir/package.json"
	for p in $PEERS; do
		want=$(peer_pkg "$p")
		[ "$(peer_version "$p")" = "${want##*@}" ] && [ -x "$(peer_bin "$p")" ] || missing="$missing $want"
	done
	if [ -n "$missing" ]; then
		note "bench: installing the peers into $peers_dir:$missing (npm, a few hundred MB)…"
		(cd "$peers_dir" && npm install --no-audit --no-fund --no-update-notifier --ignore-scripts \
			--save-exact $missing >"$peers_dir/npm.log" 2>&1) ||
			{ note "bench: npm install failed (see $peers_dir/npm.log)"; return 1; }
	fi
	for p in $PEERS; do
		[ -x "$(peer_bin "$p")" ] || { note "bench: $(peer_bin "$p") is missing"; return 1; }
		put "peer_${p}_version" "$(peer_version "$p")"
	done
}

mock_start() { # on-start command, log: sets mport and mpid
	python3 "$root/bench/mock_provider.py" --answer "$answer" --on-start "$1" \
		--log "$2" >"$work/mport" 2>>"$2" &
	mpid=$!
	mport=
	for _ in $(seq 300); do
		mport=$(sed -n 's/^PORT //p' "$work/mport" 2>/dev/null)
		[ -n "$mport" ] && return 0
		sleep 0.05
	done
	note "bench: the mock provider did not start:"; cat "$2" >&2; return 1
}
mock_stop() {
	if [ -n "$mpid" ]; then kill "$mpid" 2>/dev/null || true; wait "$mpid" 2>/dev/null || true; fi
	mpid=
}

# Each peer's config in its HOME, pointed at the mock on port $1; prints the environment and
# the text its screen shows once it takes input.
peer_setup() { # name port home
	local name=$1 port=$2 home=$3 wd=$peers_dir/work
	mkdir -p "$home"
	printf 'registry=http://127.0.0.1:9/\noffline=true\n' >"$home/.npmrc"
	case $name in
	claude)
		cat >"$home/.claude.json" <<-EOF
		{"hasCompletedOnboarding": true, "theme": "dark", "numStartups": 5,
		 "projects": {"$wd": {"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}}}
		EOF
		echo "ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_AUTH_TOKEN=mock"
		echo "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1"
		echo "READY ? for shortcuts" ;;
	codex)
		mkdir -p "$home/.codex"
		cat >"$home/.codex/config.toml" <<-EOF
		model = "mock-model"
		model_provider = "mock"
		check_for_update_on_startup = false
		[model_providers.mock]
		name = "mock"
		base_url = "http://127.0.0.1:$port/v1"
		wire_api = "responses"
		env_key = "MOCK_API_KEY"
		[projects."$wd"]
		trust_level = "trusted"
		EOF
		# The bundled bubblewrap on PATH, or a start-up warning takes the first keys.
		local bin res
		bin=$(peer_bin codex); res=$(dirname "$(dirname "$bin")")/codex-resources
		echo "MOCK_API_KEY=mock CODEX_MANAGED_BY_NPM=1 CODEX_MANAGED_PACKAGE_ROOT=$peers_dir/node_modules/@openai/codex"
		echo "PATH=$res:$PATH"
		echo "READY Ask Codex to do anything" ;;
	opencode)
		mkdir -p "$home/.config/opencode"
		cat >"$home/.config/opencode/opencode.json" <<-EOF
		{"\$schema": "https://opencode.ai/config.json", "autoupdate": false, "share": "disabled",
		 "model": "mock/mock-model", "small_model": "mock/mock-model",
		 "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
		   "options": {"baseURL": "http://127.0.0.1:$port/v1", "apiKey": "mock"},
		   "models": {"mock-model": {"name": "Mock model"}}}}}
		EOF
		echo "OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1"
		echo "READY Ask anything" ;;
	esac
}

peer_kill() { # pids…: TERM, then KILL what is left after 3 s
	[ $# -gt 0 ] || return 0
	kill "$@" 2>/dev/null || true
	for _ in $(seq 30); do kill -0 "$@" 2>/dev/null || return 0; sleep 0.1; done
	kill -9 "$@" 2>/dev/null || true
}

# What a round leaves if the bench is stopped in it: its mock and the peer's marked processes.
peers_cleanup() {
	mock_stop
	# shellcheck disable=SC2046
	[ -n "${peer_mark:-}" ] && peer_kill $("$root/$B/bench/tree_probe" 0 "$peer_mark" 2>/dev/null |
		sed -n "s/^pids //p" || true)
	return 0
}

peer_round() { # name round
	local name=$1 home=$peers_dir/home/$1 mark="TETHER_BENCH_PEER=$1-$$-$2"
	peer_mark=$mark
	local tp="$root/$B/bench/tree_probe" pre="$work/peer.$1.$2" env ready ok=1 whole=0
	: >"$pre.bytes"
	rm -f "$pre.probe0"
	# At the first delta: the tree's CPU so far, and the bytes written until then.
	mock_start "$tp \$(cat $pre.pid) $mark >$pre.probe0; wc -c <$pre.bytes >$pre.bytes0" "$pre.mock" ||
		return 0
	env=$(peer_setup "$name" "$mport" "$home")
	ready=$(sed -n 's/^READY //p' <<<"$env")
	env=$(grep -v '^READY ' <<<"$env" | tr '\n' ' ')
	$T new-session -d -s bench -x 120 -y 40 -e LANG=C.UTF-8 -e TERM=tmux-256color \
		-c "$peers_dir/work" "sleep 0.3; exec env HOME=$home $mark $env $(peer_bin "$name")"
	$T pipe-pane -o -t bench "cat >> $pre.bytes"
	local pid
	pid=$($T display -p -t bench '#{pane_pid}' 2>/dev/null) || pid=
	echo "$pid" >"$pre.pid"
	if [ -z "$pid" ] || ! wait_screen "$ready" 1800 0.1; then
		note "bench: $name never showed its prompt"; ok=0
	else
		sleep 1                          # a peer may still be laying out its first screen
		$T send-keys -t bench -l "$peer_prompt"
		wait_screen "$peer_prompt" 100 0.05 || note "bench: $name did not echo the prompt"
		sleep 0.3
		$T send-keys -t bench Enter
		# A start-up notice may take the first Enter: once more if no request came in 30 s.
		# Under load opencode takes a minute between its title request and the answer's.
		for k in $(seq 1800); do
			[ -s "$pre.probe0" ] && break
			[ "$k" = 300 ] && ! grep -q POST "$pre.mock" && $T send-keys -t bench Enter
			sleep 0.1
		done
		[ -s "$pre.probe0" ] || { note "bench: $name never asked the mock for the answer"; ok=0; }
	fi
	if [ "$ok" = 1 ]; then
		wait_screen "$end_words" 600 0.1 || { ok=0; note "bench: $name never showed the answer's end"; }
		sleep 0.2
		$tp "$pid" "$mark" >"$pre.probe1" || true
		$T pipe-pane -t bench
		sleep 0.1
		local c0 c1
		c0=$(value cpu_s "$pre.probe0"); c1=$(value cpu_s "$pre.probe1")
		put "peer_${name}_cpu_s" "$(echo "$c1 ${c0:-0}" | awk '{printf "%.3f", $1 - $2}')"
		local b0 b1
		b0=$(cat "$pre.bytes0"); b1=$(wc -c <"$pre.bytes")
		put "peer_${name}_bytes" "$((b1 - b0))"
		put "peer_${name}_bytes_all" "$b1"
		put "peer_${name}_hwm_kb" "$(value hwm_kb "$pre.probe1")"
		put "peer_${name}_procs" "$(value procs "$pre.probe1")"
		# The whole answer: in the pane's history (peers that print above their prompt), or
		# paged back in the peer's own view (opencode draws on the alternate screen).
		$T capture-pane -p -J -S - -t bench >"$pre.hist"
		if python3 "$root/bench/report.py" --check-answer "$answer" "$pre.hist" 2>/dev/null; then
			whole=1
		else
			$T capture-pane -p -t bench >"$pre.page.00"
			for k in $(seq -w 1 40); do
				screen_has "$first_words" && break
				$T send-keys -t bench PPage
				sleep 0.2
				$T capture-pane -p -t bench >"$pre.page.$k"
			done
			python3 "$root/bench/report.py" --check-answer "$answer" "$pre".page.* && whole=1
		fi
	fi
	put "peer_${name}_whole" "$whole"            # a round that never streamed counts as a miss
	local pids
	pids=$($tp "$pid" "$mark" 2>/dev/null | sed -n "s/^pids //p") || true
	$T kill-server 2>/dev/null || true
	# shellcheck disable=SC2086
	peer_kill $pids $($tp 0 "$mark" 2>/dev/null | sed -n "s/^pids //p" || true)
	mock_stop
	peer_mark=
}
