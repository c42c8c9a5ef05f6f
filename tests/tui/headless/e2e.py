#!/usr/bin/env python3
"""End-to-end tests of the headless contract (cli.md) against the loopback fixture server.

usage: e2e.py TETHER FIXTURE_SERVER DATA_DIR TEST_NAME
Each test starts its own fixture server on port 0 and runs the real tether binary.
"""
import json, os, re, signal, subprocess, sys, tempfile, time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import harness  # noqa: E402 (tests/harness.py)
from harness import TETHER, DATA, TMP  # noqa: E402


def tmux_kill_server(tmux):
    """Kills a private tmux server and waits for what ran in its panes to end: a tether that
    outlives its terminal (an ASan build's leak check at exit was seen spinning for minutes
    after SIGHUP) is killed, so no test leaves a process behind."""
    out = subprocess.run(tmux + ["list-panes", "-a", "-F", "#{pane_pid}"],
                         capture_output=True, text=True).stdout
    pids = [int(x) for x in out.split() if x.isdigit()]
    subprocess.run(tmux + ["kill-server"], capture_output=True)
    # A pane's command runs under `sh -c` ("tether …; sleep 30"), so tether is the shell's
    # child, not the pane's process: the pane's whole process group is waited for and killed
    # (the group outlives the shell while tether is in it).
    deadline = time.time() + 5
    for pid in pids:
        while time.time() < deadline:
            try:
                os.killpg(pid, 0)
            except (ProcessLookupError, PermissionError):
                break
            time.sleep(0.05)
        else:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

CONV = "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91"
# "At once": 1 s in the product build (meson scales it for sanitizer builds).
AT_ONCE = 1.0 * float(os.environ.get("TETHER_TIME_SCALE", "1"))
ENV = dict(os.environ, LANG="C.UTF-8")
ENV.pop("TETHER_SESSION_API_KEY", None)
ENV["XDG_STATE_HOME"] = os.path.join(TMP, "state")  # the TUI's input history stays here
# The socket the fixture offers (meson runs the tests that matter once per socket, issue 26):
# "session", or "events" — a server from before the session socket, with only the legacy
# events socket (tether finds that out by itself).
PROTOCOL = os.environ.get("TETHER_TEST_PROTOCOL", "session")
OLDER_SERVER = "1.40.0"


class Server(harness.Server):
    def __init__(self, scenario, *extra):
        # the test matrix: on the events socket the fixture is a server that only has it
        if PROTOCOL == "events" and not {"--server-version", "--older-server"} & set(extra):
            extra = extra + ("--older-server", OLDER_SERVER)
        super().__init__(scenario, *extra)

    def log(self):
        return [l.split()[:2] for l in open(self.durable) if l.strip() and "unreadable" not in l]


def run(server, *args, stdin=None, timeout=60, env=None, conv=CONV):
    cmd = [TETHER, "--headless", "--server", server.url] + list(args) + ([conv] if conv else [])
    p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout, env=env or ENV)
    return p.returncode, p.stdout, p.stderr


def run_until(server, marker, *args, timeout=100, fmt="ndjson"):
    """Runs tether --until never until marker shows in stdout (or marker(stdout) is true), then
    stops it with SIGINT. stderr goes to a file: a pipe nobody reads would block a client with
    a lot to say."""
    done = marker if callable(marker) else lambda o: marker in o
    errf = tempfile.TemporaryFile(dir=TMP)
    p = subprocess.Popen([TETHER, "--headless", "--format", fmt, "--until", "never",
                          "--server", server.url] + list(args) + [CONV],
                         stdout=subprocess.PIPE, stderr=errf, env=ENV)
    os.set_blocking(p.stdout.fileno(), False)
    out = b""
    deadline = time.time() + timeout
    while not done(out) and time.time() < deadline and p.poll() is None:
        chunk = p.stdout.read()
        if chunk:
            out += chunk
        else:
            time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    rest, _ = p.communicate(timeout=20)
    errf.seek(0)
    return p.returncode, out + (rest or b""), errf.read()


def ndjson(out):
    assert out.endswith(b"\n"), "ndjson must end with LF"
    assert b"\r" not in out, "LF only"
    return [json.loads(l) for l in out.decode("utf-8").split("\n") if l]


def check_invariants(lines, server_log=None):
    """Every durable seq once and ascending; every started stream ends once; result last."""
    assert lines and lines[-1]["type"] == "result", "result must be the last line"
    assert sum(1 for l in lines if l["type"] == "result") == 1
    seqs = [l["seq"] for l in lines if l["type"] == "durable"]
    assert seqs == sorted(set(seqs)), "durable seqs must be unique and ascending"
    if server_log is not None:
        ids = [(str(l["seq"]), l["event"]["id"]) for l in lines if l["type"] == "durable"]
        assert [tuple(x) for x in server_log] == ids, "durable lines must equal the server's log"
    open_streams = {}
    for l in lines:
        if l["type"] != "stream":
            continue
        st, item = l["state"], l["item_id"]
        if st == "started":
            open_streams[item] = True
        elif st in ("retired", "aborted", "discarded"):
            assert open_streams.pop(item, None), "stream %s ended without being open" % item
        elif st in ("delta", "stalled"):
            assert item in open_streams, "%s for a stream that is not open" % st
    assert not open_streams, "streams left open: %s" % list(open_streams)
    return seqs


def test_catch_up_exit_0():
    s = Server("headless_chat.scenario")
    rc, out, err = run(s, "--format", "ndjson")
    s.stop()
    assert rc == 0, (rc, err)
    lines = ndjson(out)
    check_invariants(lines, s.log())
    types = [l["type"] for l in lines]
    assert types[0] == "connection" and lines[0]["state"] == "connecting"
    assert "sync" in types
    assert lines[-1]["exit_code"] == 0


def test_send_streams_and_masks():
    mask = os.path.join(TMP, "mask")
    open(mask, "w").write("hunter2-local\n")
    s = Server("headless_chat.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--mask-file", mask, "--send", "first", "--send", "second")
    s.stop()
    assert rc == 0, (rc, err)
    assert b"hunter2-local" not in out and b"hunter2-local" not in err
    lines = ndjson(out)
    seqs = check_invariants(lines)
    # The client ends at the first idle after both sends went out; the server may go on with
    # the second message's run, so the client's durable lines are a prefix of the log.
    ids = [(str(l["seq"]), l["event"]["id"]) for l in lines if l["type"] == "durable"]
    assert ids == [tuple(x) for x in s.log()[:len(ids)]] and seqs
    deltas = "".join(l.get("content", "") for l in lines if l["type"] == "stream" and l["state"] == "delta")
    assert "<secret-hidden>" in deltas, "the split secret must be masked in deltas"
    # the durable message ends the stream: it retires the item, or on the events socket it
    # replaces the preview (deltas there name no item; protocol.md 10.3)
    if PROTOCOL == "events":
        assert any(l["type"] == "stream" and l["state"] == "aborted" and
                   l.get("reason") == "replaced" for l in lines), lines
    else:
        assert any(l["type"] == "stream" and l["state"] == "retired" for l in lines)
    recv = [l for l in s.traffic_lines() if l.startswith("recv ")]
    users = [json.loads(l.split(" ", 2)[2]) for l in recv]
    assert [u["content"][0]["text"] for u in users] == ["first", "second"], users
    assert lines[-1]["exit_code"] == 0


def test_send_stdin_lines():
    """--send -: one user message per stdin line (a pipe or a file), in order, exit at idle."""
    s = Server("headless_chat.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--send", "-", stdin=b"line one\r\nline two\n\nlast")
    assert rc == 0, (rc, err)
    path = os.path.join(TMP, "empty")
    open(path, "w").close()
    with open(path, "rb") as f:
        p = subprocess.run([TETHER, "--headless", "--send", "-", "--server", s.url, CONV],
                           stdin=f, capture_output=True, timeout=30, env=ENV)
    s.stop()
    assert p.returncode == 0, p.stderr
    recv = [json.loads(l.split(" ", 2)[2]) for l in s.traffic_lines() if l.startswith("recv ")]
    # On failure, everything both sides said: a rare loss must be explainable from the log.
    assert [r["content"][0]["text"] for r in recv] == ["line one", "line two", "last"], \
        (recv, out.decode(errors="replace"), err.decode(errors="replace"), s.traffic_lines())
    check_invariants(ndjson(out))


def test_split_secret_nowhere():
    """A secret split across deltas reaches no output: ndjson, text, record, log, stderr."""
    secret = b"hunter2-local"
    mask = os.path.join(TMP, "mask")
    open(mask, "w").write("hunter2-local\n")
    for fmt in ("ndjson", "text"):
        s = Server("headless_chat.scenario")
        log, rec = os.path.join(TMP, "log-" + fmt), os.path.join(TMP, "rec-" + fmt)
        rc, out, err = run(s, "--format", fmt, "--mask-file", mask, "--send", "go",
                           "--log", log, "--record", rec)
        s.stop()
        assert rc == 0, (rc, err)
        frames = [l for l in s.traffic_lines()]
        for name, blob in (("stdout", out), ("stderr", err), ("log", open(log, "rb").read()),
                           ("record", open(rec, "rb").read())):
            assert secret not in blob, "secret in %s (%s)" % (name, fmt)
        # The record is still complete: the deltas are there, masked and joined by the stream masker.
        recorded = [json.loads(l)["frame"] for l in open(rec)]
        # deltas as the socket sent them: session frames, or the legacy StreamingDeltaEvent
        text = "".join(f.get("content") or "" for f in recorded if isinstance(f, dict) and
                       (f.get("type") == "delta" or f.get("kind") == "StreamingDeltaEvent"))
        assert "<secret-hidden>" in text and "Here is the token: " in text, text
        if fmt == "text":
            assert b"<secret-hidden>" in out


def test_auth_first_and_key_hidden():
    key = "test-only-headless-9d2f"
    s = Server("headless_auth.scenario")
    env = dict(ENV, TETHER_SESSION_API_KEY=key)
    log = os.path.join(TMP, "log")
    rec = os.path.join(TMP, "rec")
    rc, out, err = run(s, "--format", "ndjson", "--send", "hi", "--log", log, "--record", rec, env=env)
    s.stop()
    assert rc == 0, (rc, err)
    traffic = s.traffic_lines()
    ok = [l.split()[1] for l in traffic if l.startswith("conn ") and "auth=ok" in l]
    assert ok and ok[0] == "1", traffic
    recv = [l for l in traffic if l.startswith("recv %s " % ok[0])]
    assert recv[0] == 'recv %s {"type":"auth","session_api_key":"***"}' % ok[0], recv[0]
    assert len(recv) == 2 and json.loads(recv[1].split(" ", 2)[2])["content"][0]["text"] == "hi"
    for blob in (out, err, open(log, "rb").read(), open(rec, "rb").read()):
        assert key.encode() not in blob


def test_exit_3_auth_failed():
    s = Server("headless_auth.scenario")
    rc, out, err = run(s, "--format", "ndjson", env=dict(ENV, TETHER_SESSION_API_KEY="wrong-key-123"))
    conns1 = [l for l in s.traffic_lines() if l.startswith("conn ")]
    rc2, out2, _ = run(s, "--format", "ndjson")
    s.stop()
    assert rc == 3 and rc2 == 3, (rc, rc2, err)
    for o in (out, out2):
        lines = ndjson(o)
        assert lines[-1]["type"] == "result" and lines[-1]["exit_code"] == 3
    # One socket attempt per run at most: REST's 401 may end a run before its socket's
    # auth is decided, and neither a 401 nor a 4001 is retried.
    conns = [l for l in s.traffic_lines() if l.startswith("conn ")]
    assert len(conns1) <= 1 and len(conns) - len(conns1) <= 1, "auth must not be retried: %s" % conns


def test_exit_4_not_found():
    s = Server("headless_chat.scenario")
    rc, out, err = run(s, "--format", "ndjson", conv="00000000-0000-4000-8000-000000000000")
    s.stop()
    assert rc == 4, (rc, err)
    assert ndjson(out)[-1]["exit_code"] == 4
    # one attempt; on the events socket the REST 404 may end the run before it opens
    conns = len([l for l in s.traffic_lines() if l.startswith("conn ")])
    assert conns == 1 or (PROTOCOL == "events" and conns == 0), "4004: one attempt"


def test_exit_5_gave_up():
    s = Server("headless_gaveup.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--max-retries", "3")
    s.stop()
    assert rc == 5, (rc, err)
    lines = ndjson(out)
    assert lines[-2]["type"] == "connection" and lines[-2]["state"] == "gave_up"
    assert lines[-1]["exit_code"] == 5
    assert len([l for l in s.traffic_lines() if l.startswith("conn ")]) == 3


def test_exit_6_run_error():
    s = Server("headless_error.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--send", "go")
    s.stop()
    assert rc == 6, (rc, err)
    assert ndjson(out)[-1]["exit_code"] == 6


def test_until_finished():
    s = Server("headless_finished.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--send", "go", "--until", "finished")
    s.stop()
    assert rc == 0, (rc, err)
    statuses = [l["execution_status"] for l in ndjson(out) if l["type"] == "status"]
    assert statuses[-1] == "finished" and "idle" in statuses[1:], statuses


def test_exit_130_sigint():
    s = Server("headless_chat.scenario")
    p = subprocess.Popen([TETHER, "--headless", "--format", "ndjson", "--until", "never",
                          "--server", s.url, CONV], stdout=subprocess.PIPE, env=ENV)
    deadline = time.time() + 20
    buf = b""
    while b'"sync"' not in buf and time.time() < deadline:
        buf += p.stdout.read1(65536)
    p.send_signal(signal.SIGINT)
    rest, _ = p.communicate(timeout=20)
    s.stop()
    assert p.returncode == 130, p.returncode
    lines = ndjson(buf + rest)
    assert lines[-1]["type"] == "result" and lines[-1]["exit_code"] == 130


def test_exit_2_usage():
    p = subprocess.run([TETHER, "--headless"], capture_output=True, env=ENV)
    assert p.returncode == 2 and b"CONVERSATION_ID" in p.stderr
    p = subprocess.run([TETHER, "--format", "yaml", "x"], capture_output=True, env=ENV)
    assert p.returncode == 2


def test_stalled_stream():
    """No delta for stream_stall seconds marks the item stalled; the connection stays; deltas
    resume and the item is retired normally."""
    cfg = os.path.join(TMP, "cfg")
    os.makedirs(os.path.join(cfg, "tether"), exist_ok=True)
    open(os.path.join(cfg, "tether", "config"), "w").write("stream_stall = 1\n")
    s = Server("stall.scenario", "--set", "stall=3")
    global ENV
    saved, ENV = ENV, dict(ENV, XDG_CONFIG_HOME=cfg)
    try:
        rc, out, err = run_until(s, b'"state":"retired"', "--ping-interval", "1", "--stall-timeout", "10")
    finally:
        ENV = saved
    s.stop()
    lines = ndjson(out)
    stream = [l for l in lines if l["type"] == "stream"]
    states = [l["state"] for l in stream]
    assert "stalled" in states, states
    k = states.index("stalled")
    assert "delta" in states[:k] and "delta" in states[k + 1:], states
    assert states[-1] == "retired" and states.count("stalled") == 1, states
    connects = [l for l in lines if l["type"] == "connection" and l["state"] == "connecting"]
    assert len(connects) == 1, "a stalled stream must not drop a live connection"
    check_invariants(lines, None)


def test_implicit_headless_text():
    """Without --headless, a stdout that is not a terminal gets headless text (as llm/aichat)."""
    s = Server("headless_chat.scenario")
    p = subprocess.run([TETHER, "--server", s.url, CONV], capture_output=True, timeout=30, env=ENV,
                       stdin=subprocess.DEVNULL)
    s.stop()
    assert p.returncode == 0, p.stderr
    assert b"All **42** tests pass." in p.stdout and b"$ pytest -q  \xe2\x86\x92 exit 0" in p.stdout, p.stdout
    assert b"\x1b" not in p.stdout


def test_bad_mask_file():
    """An unreadable --mask-file is a usage error with a message; a too-short secret is refused
    by name of line, never echoed, and the run goes on."""
    s = Server("headless_chat.scenario")
    rc, out, err = run(s, "--mask-file", "/nonexistent/mask")
    assert rc == 2 and b"/nonexistent/mask" in err, (rc, err)
    mask = os.path.join(TMP, "shortmask")
    open(mask, "w").write("abc\nhunter2-local\n")
    rc, out, err = run(s, "--mask-file", mask, "--send", "go")
    s.stop()
    assert rc == 0, (rc, err)
    assert b":1:" in err and b"abc" not in err.replace(b"shortmask", b""), err
    assert b"hunter2-local" not in out


def test_list_10000_conversations():
    """tether list walks past 100 pages (was: stopped there, the rest not listed): a server
    with 10,201 conversations lists every one."""
    path = scenario_file("list_big.scenario", 'title "Main"\nlist_synth 10200\n')
    s = Server(None, "--scenario", path)
    p = subprocess.run([TETHER, "list", "--server", s.url], capture_output=True, env=ENV, timeout=60)
    s.stop()
    assert p.returncode == 0 and p.stderr == b"", (p.returncode, p.stderr)
    lines = p.stdout.decode().splitlines()
    assert len(lines) == 10201, len(lines)
    assert lines[-1].startswith("5e000000-0000-4000-8000-000000010199\tSynth 10199\t"), lines[-1]


def test_list():
    """tether list: one conversation per line (text) or per object (ndjson); honest exit codes."""
    s = Server("headless_chat.scenario")
    p = subprocess.run([TETHER, "list", "--server", s.url], capture_output=True, env=ENV, timeout=30)
    assert p.returncode == 0, p.stderr
    fields = p.stdout.decode().splitlines()[0].split("\t")
    assert fields[0] == CONV and fields[1] == "Headless chat" and fields[2] == "idle", fields
    p = subprocess.run([TETHER, "list", "--format", "ndjson", "--server", s.url], capture_output=True,
                       env=ENV, timeout=30)
    s.stop()
    assert p.returncode == 0, p.stderr
    item = ndjson(p.stdout)[0]
    assert item["id"] == CONV and item["title"] == "Headless chat" and item["status"] == "idle"
    assert item["updated_at"]
    # Titles cross the masker like every other output.
    mask = os.path.join(TMP, "listmask")
    open(mask, "w").write("Headless\n")
    s2 = Server("headless_chat.scenario")
    p = subprocess.run([TETHER, "list", "--mask-file", mask, "--server", s2.url],
                       capture_output=True, env=ENV, timeout=30)
    s2.stop()
    assert p.returncode == 0 and b"<secret-hidden> chat" in p.stdout and b"Headless" not in p.stdout, p.stdout
    a = Server("headless_auth.scenario")
    p = subprocess.run([TETHER, "list", "--server", a.url], capture_output=True, env=ENV, timeout=30)
    ok = subprocess.run([TETHER, "list", "--server", a.url], capture_output=True, timeout=30,
                        env=dict(ENV, TETHER_SESSION_API_KEY="test-only-headless-9d2f"))
    a.stop()
    assert p.returncode == 3, (p.returncode, p.stderr)
    assert ok.returncode == 0 and CONV.encode() in ok.stdout, ok.stderr


def test_exit_1_runtime():
    # Nothing listens on this port: `tether list` cannot reach the server.
    p = subprocess.run([TETHER, "list", "--server", "http://127.0.0.1:9"], capture_output=True,
                       env=ENV, timeout=60)
    assert p.returncode == 1, (p.returncode, p.stderr)


def test_ndjson_under_50_drops():
    # On the events socket the history comes through REST and the socket carries only the
    # live part: more of it live there, paced (a reconnect reads what it missed through REST).
    legacy = ["--set", "history=100", "--set", "rounds=100", "--set", "span=300", "--set", "wait=1",
              "--set", "gap=0.01"]
    s = Server("headless_drops.scenario", *(legacy if PROTOCOL == "events" else []))
    # The scenario ends with a marker message.
    rc, out, err = run_until(s, b"END-OF-DROPS")
    s.stop()
    lines = ndjson(out)
    cuts = sum(1 for l in s.traffic_lines() if l.startswith("fault ") and " cut " in l)
    assert cuts == 50, "the fixture must have cut 50 times, cut %d" % cuts
    check_invariants(lines, s.log())
    assert rc == 130 and lines[-1]["exit_code"] == 130


def test_record_replay_same_durables():
    rec = os.path.join(TMP, "record")
    s = Server("headless_chat.scenario")
    rc, out1, err = run(s, "--format", "ndjson", "--record", rec, "--send", "x")
    s.stop()
    assert rc == 0, (rc, err)
    d1 = [l for l in ndjson(out1) if l["type"] == "durable"]
    assert d1
    # The replayed client sends nothing, so it follows until the last recorded durable.
    r = Server(None, "--replay", rec, "--speed", "0")
    rc, out2, err = run_until(r, b'"seq":%d,' % d1[-1]["seq"])
    r.stop()
    assert rc == 130, (rc, err)
    d2 = [l for l in ndjson(out2) if l["type"] == "durable"]
    assert d1 == d2, "replayed durable lines differ"


def test_text_mode_clean():
    s = Server("headless_controls.scenario")
    rc, out, err = run(s)
    s.stop()
    assert rc == 0, (rc, err)
    assert out, "text mode printed nothing"
    for b in out:
        assert b in (9, 10) or b >= 0x20, "control byte %#x in text output" % b
        assert b != 0x7F
    text = out.decode("utf-8")
    for ch in text:
        assert not (0x80 <= ord(ch) <= 0x9F), "C1 control U+%04X in text output" % ord(ch)
    assert "$ printf" in text and "→ exit 1" in text
    assert "clearscreen" in text or "clear" in text


def test_ndjson_escapes_controls():
    s = Server("headless_controls.scenario")
    rc, out, err = run(s, "--format", "ndjson")
    s.stop()
    assert rc == 0
    for b in out:
        assert b == 10 or b >= 0x20, "raw control byte %#x in ndjson" % b
    text = out.decode("utf-8")
    for ch in text:
        assert ord(ch) != 0x7F and not (0x80 <= ord(ch) <= 0x9F), "raw U+%04X in ndjson" % ord(ch)


def test_tui_rest_fallback():
    """The TUI sends a message typed while the socket is down through REST, exactly once."""
    s = Server("outbox_rest.scenario")
    sock = "tether-e2e-%d" % os.getpid()
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]
    try:
        subprocess.run(tmux + ["new-session", "-d", "-x", "100", "-y", "30", "-e", "LANG=C.UTF-8",
                               "%s --server %s %s" % (TETHER, s.url, CONV)], check=True, env=ENV)
        # typed once the prompt is drawn: keys sent before the TUI reads them are lost
        deadline = time.time() + 20
        while time.time() < deadline and "message the agent" not in subprocess.run(
                tmux + ["capture-pane", "-p"], capture_output=True, text=True).stdout:
            time.sleep(0.1)
        subprocess.run(tmux + ["send-keys", "-l", "typed while down"], check=True)
        subprocess.run(tmux + ["send-keys", "Enter"], check=True)
        deadline = time.time() + 20
        posts = []
        while time.time() < deadline and not posts:
            time.sleep(0.2)
            posts = [l for l in s.traffic_lines() if l.startswith("rest POST") and "/events " in l]
        time.sleep(1.0)
        posts = [l for l in s.traffic_lines() if l.startswith("rest POST") and "/events " in l]
        assert len(posts) == 1, posts
        assert "typed while down" in posts[0] and '"run":true' in posts[0], posts[0]
        assert not [l for l in s.traffic_lines() if l.startswith("recv ")], "nothing over the socket"
    finally:
        tmux_kill_server(tmux)
        s.stop()


def test_tui_picker():
    """In a terminal without a conversation id, tether lists the server's conversations
    (sanitized) and opens the one the user picks."""
    s = Server("picker.scenario")
    sock = "tether-pick-%d" % os.getpid()
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]

    def screen():
        return subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True, text=True).stdout

    def wait_for(text):
        deadline = time.time() + 15
        while time.time() < deadline:
            if text in screen():
                return True
            time.sleep(0.1)
        return False
    try:
        subprocess.run(tmux + ["new-session", "-d", "-x", "100", "-y", "20", "-e", "LANG=C.UTF-8",
                               "%s --server %s; sleep 30" % (TETHER, s.url)], check=True, env=ENV)
        assert wait_for("Pick a conversation"), screen()
        assert wait_for("Older chat"), screen()
        assert "Picked conversation" in screen()
        # short id, title, status and how long ago it changed on each row
        row = [l for l in screen().splitlines() if "Picked conversation" in l][0]
        assert "idle" in row and re.search(r"just now|ago", row) and "5f2c9b7e" in row, row
        assert "↑/↓ move" in screen(), "UTF-8 must draw as UTF-8 (LC_CTYPE set in main)"
        title = subprocess.run(tmux + ["display", "-p", "#{pane_title}"], capture_output=True,
                               text=True).stdout
        assert "pwned" not in title
        subprocess.run(tmux + ["send-keys", "Enter"], check=True)
        assert wait_for("hello from the picked one"), screen()
    finally:
        tmux_kill_server(tmux)
        s.stop()


def assert_no_controls(data, what):
    """No terminal control byte but LF (and no C1 control) in a text output."""
    bad = [b for b in data if b < 0x20 and b != 0x0A or b == 0x7F]
    assert not bad, "%s carries control bytes %r" % (what, sorted(set(bad)))
    assert not any(c in data.decode("utf-8", "replace") for c in map(chr, range(0x80, 0xA0))), what


def test_hostile_frames():
    """Hostile frames (deltas for items never started, bad attempts and anchors, huge numbers,
    escape sequences, events without id or with a reused id, an orphan tool result, unknown
    frames, a 100 KB error detail, 3,000 open items, a 1 MB delta): no crash, the ndjson
    invariants hold, every string is sanitized, and text mode writes no control byte."""
    big = os.path.join(TMP, "big")
    with open(big, "w", encoding="utf-8") as f:
        f.write("x\x1b[31my\u00e9 " * 100000)  # 1 MB; 500 KB once the escapes are stripped
    s = Server("review_hostile.scenario", "--set", "big=" + big)
    rc, out, err = run_until(s, b"END-OF-HOSTILE")
    assert rc == 130, (rc, err[-2000:])
    lines = ndjson(out)
    check_invariants(lines)
    assert b"\\u001b" not in out and b"\\u009b" not in out, "escape sequences must be stripped"
    assert sum(1 for l in lines if l["type"] == "stream" and l["state"] == "started") >= 3000
    assert "xy\u00e9 " * 100000 in [l.get("content") for l in lines], "the 1 MB delta, whole"
    big_error = [l for l in lines if l["type"] == "error" and l["code"] == "Big"]
    assert big_error and len(big_error[0]["detail"]) == 100000, "the error detail is kept whole"
    assert any(l["type"] == "durable" and l["event"].get("id") == "obs1" for l in lines)
    assert b"ERROR: AddressSanitizer" not in err and b"runtime error" not in err, err[-2000:]
    s.stop()
    s = Server("review_hostile.scenario", "--set", "big=" + big)
    rc, out, err = run_until(s, b"END-OF-HOSTILE", fmt="text")
    s.stop()
    assert rc == 130, (rc, err[-2000:])
    assert_no_controls(out, "stdout")
    assert_no_controls(err, "stderr")
    assert b"$ ls\n" in out and b"[2J" not in out, out


def test_server_strings_masked():
    """A title, an execution status, an item_id and an action command from the server reach
    stdout, --record and the TUI only sanitized and masked; a tool whose result never comes is
    still printed in text mode."""
    mask = os.path.join(TMP, "statusmask")
    open(mask, "w").write("hunter2-local\n")
    rec = os.path.join(TMP, "status.rec")
    s = Server("review_status.scenario")
    rc, out, err = run(s, "--mask-file", mask)
    assert rc == 0, (rc, err)
    assert_no_controls(out, "stdout")
    assert b"$ echo <secret-hidden>; ls  \xe2\x86\x92 no result (run ended)\n" in out, out
    s.stop()
    s = Server("review_status.scenario")  # the live block runs once per server
    rc, out, err = run_until(s, b"END-OF-SCRIPT", "--mask-file", mask, "--record", rec)
    assert rc == 130, (rc, err)
    lines = ndjson(out)
    check_invariants(lines)
    for data, what in ((out, "stdout"), (err, "stderr"), (open(rec, "rb").read(), "record")):
        assert b"hunter2" not in data, what
    status = [l["execution_status"] for l in lines if l["type"] == "status"]
    # a C1 CSI (U+009B) goes alone: the "2J" after it is text
    assert "running <secret-hidden>2J" in status, status
    streams = {l["item_id"] for l in lines if l["type"] == "stream"}
    assert streams == {"id-<secret-hidden>"}, streams
    s.stop()
    s = Server("review_status.scenario")
    sock = "tether-mask-%d" % os.getpid()
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]
    try:
        subprocess.run(tmux + ["new-session", "-d", "-x", "120", "-y", "20", "-e", "LANG=C.UTF-8",
                               "%s --mask-file %s --server %s %s; sleep 30" % (TETHER, mask, s.url, CONV)],
                       check=True, env=ENV)
        screen = ""
        deadline = time.time() + 20
        while time.time() < deadline and "END-OF-SCRIPT" not in screen:
            time.sleep(0.2)
            screen = subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True, text=True).stdout
        status_line = [l for l in screen.splitlines() if " live · " in l]
        assert status_line and "Title <secret-hidden> red2J end" in status_line[0], screen
        assert "running <secret-hidden>" in status_line[0] and "[31m" not in screen, screen
        assert "hunter2" not in screen and "[2J" not in screen, screen
        # the terminal title carries the same clean title (and nothing that could end it)
        title = subprocess.run(tmux + ["display", "-p", "#{pane_title}"], capture_output=True,
                               text=True).stdout
        assert title.startswith("tether: Title <secret-hidden>"), title
        assert "hunter2" not in title and "pwned" not in title, title
    finally:
        tmux_kill_server(tmux)
        s.stop()


def test_tui_quit_with_requests_in_flight():
    """Quitting while REST calls and the connection hang (a server that accepts and never
    answers) exits 0 and frees everything (LeakSanitizer is on in the ASan build)."""
    import socket, threading
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(16)
    held = []
    stop = threading.Event()

    def accept_and_hold():
        lsock.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(lsock.accept()[0])
            except OSError:
                pass
    th = threading.Thread(target=accept_and_hold, daemon=True)
    th.start()
    url = "http://127.0.0.1:%d" % lsock.getsockname()[1]
    result = os.path.join(TMP, "quit-result")
    errf = os.path.join(TMP, "quit-stderr")
    sock = "tether-quit-%d" % os.getpid()
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]
    try:
        subprocess.run(tmux + ["new-session", "-d", "-x", "80", "-y", "24", "-e", "LANG=C.UTF-8",
                               "%s --server %s %s 2>%s; echo $? > %s; sleep 30"
                               % (TETHER, url, CONV, errf, result)], check=True, env=ENV)
        deadline = time.time() + 10
        while time.time() < deadline and len(held) < 2:
            time.sleep(0.1)
        assert len(held) >= 2, "the title request and the socket should both be hanging"
        subprocess.run(tmux + ["send-keys", "C-d"], check=True)
        deadline = time.time() + 15
        while time.time() < deadline and not (os.path.exists(result) and open(result).read().strip()):
            time.sleep(0.1)
        code = open(result).read().strip()
        err = open(errf).read()
        assert code == "0", (code, err[-2000:])
        assert "LeakSanitizer" not in err and "AddressSanitizer" not in err, err[-2000:]
    finally:
        stop.set()
        tmux_kill_server(tmux)
        for c in held:
            c.close()
        lsock.close()


def scenario_file(name, text):
    path = os.path.join(TMP, name)
    open(path, "w").write(text)
    return path


def test_stdout_full_exit_1():
    """stdout on a full disk (/dev/full): said once on stderr, exit 1 (was: exit 0, output cut)."""
    s = Server("headless_chat.scenario")
    for fmt in ("ndjson", "text"):
        with open("/dev/full", "wb") as full:
            p = subprocess.run([TETHER, "--headless", "--format", fmt, "--server", s.url, CONV],
                               stdout=full, stderr=subprocess.PIPE, timeout=30, env=ENV)
        assert p.returncode == 1, (fmt, p.returncode, p.stderr)
        assert p.stderr.count(b"cannot write to standard output") == 1, p.stderr
        assert b"No space left on device" in p.stderr, p.stderr
    with open("/dev/full", "wb") as full:  # tether list too
        p = subprocess.run([TETHER, "list", "--server", s.url], stdout=full, stderr=subprocess.PIPE,
                           timeout=30, env=ENV)
    assert p.returncode == 1 and p.stderr.count(b"cannot write to standard output") == 1, p
    s.stop()


def test_record_full_exit_1():
    """--record on a full disk: said once, exit 1, and the result line is still the last line
    of stdout with exit_code 1. --log on a full disk is said once (a debug log does not end
    the run)."""
    s = Server("headless_chat.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--record", "/dev/full")
    assert rc == 1, (rc, err)
    assert err.count(b"--record /dev/full: cannot write") == 1, err
    lines = ndjson(out)
    check_invariants(lines)
    assert lines[-1]["exit_code"] == 1
    rc, out, err = run(s, "--format", "ndjson", "--log", "/dev/full")
    s.stop()
    assert rc == 0, (rc, err)
    assert err.count(b"--log /dev/full: cannot write") == 1, err
    check_invariants(ndjson(out))


def test_epipe_exit_141():
    """A reader that goes away (`| head -1`) under --until never: tether stops at once, quietly,
    with the shell's SIGPIPE status (was: writing into EPIPE forever)."""
    s = Server(None, "--scenario", scenario_file("big.scenario", 'title "big"\nhistory 20000\n'))
    for fmt in ("ndjson", "text"):
        cmd = "%s --headless --format %s --until never --server %s %s | head -1; exit ${PIPESTATUS[0]}" % (
            TETHER, fmt, s.url, CONV)
        p = subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=60, env=ENV)
        assert p.returncode == 141, (fmt, p.returncode, p.stderr[-2000:])
        assert len(p.stdout.splitlines()) == 1, p.stdout[:200]
        assert b"cannot write" not in p.stderr and b"Broken pipe" not in p.stderr, p.stderr
        assert b"AddressSanitizer" not in p.stderr and b"LeakSanitizer" not in p.stderr, p.stderr[-2000:]
    s.stop()


def test_record_unopenable_exit_2():
    """--record to a path that cannot be opened is a usage error (exit 2) like --log, said
    before anything connects; so is an empty conversation id and a blank --send."""
    s = Server("headless_chat.scenario")
    bad = [TMP, os.path.join(TMP, "no-such-dir", "rec")]
    if os.geteuid() != 0:  # root may write a read-only file
        ro = os.path.join(TMP, "read-only")
        open(ro, "w").close()
        os.chmod(ro, 0o400)
        bad.append(ro)
    for path in bad:
        for opt in ("--record", "--log"):
            rc, out, err = run(s, "--format", "ndjson", opt, path)
            assert rc == 2, (opt, path, rc, err)
            assert (opt + " " + path).encode() in err, err
            assert out == b"", out
    p = subprocess.run([TETHER, "--headless", "--server", s.url, ""], capture_output=True, env=ENV)
    assert p.returncode == 2 and b"conversation id is empty" in p.stderr, p
    for blank in ("", "   ", "\t\n"):
        rc, out, err = run(s, "--send", blank)
        assert rc == 2 and b"--send" in err, (blank, rc, err)
    s.stop()
    conns = [l for l in s.traffic_lines() if l.startswith("conn ")]
    assert not conns, "a usage error must not connect: %s" % conns


def test_files_created_0600():
    """--record, --log and $TETHER_STATS files are created 0600 whatever the umask (the copy
    file already was)."""
    s = Server("headless_chat.scenario")
    rec, log, stats = (os.path.join(TMP, n) for n in ("r.ndjson", "l.log", "stats"))
    old = os.umask(0o022)
    try:
        rc, out, err = run(s, "--record", rec, "--log", log, env=dict(ENV, TETHER_STATS=stats))
    finally:
        os.umask(old)
    s.stop()
    assert rc == 0, (rc, err)
    for path in (rec, log, stats):
        mode = os.stat(path).st_mode & 0o777
        assert mode == 0o600, "%s is %o" % (path, mode)


def test_files_no_symlink_and_0600():
    """--record, --log and $TETHER_STATS never follow a symbolic link (refused before anything
    connects, exit 2, said as a symbolic link, the target untouched), and an existing file of
    mode 0644 is appended to and ends 0600."""
    s = Server("headless_chat.scenario")
    target = os.path.join(TMP, "someone-elses")
    with open(target, "w") as f:
        f.write("theirs\n")
    os.chmod(target, 0o644)
    link = os.path.join(TMP, "link")
    os.symlink(target, link)
    cases = [(("--record", link), None, "--record " + link),
             (("--log", link), None, "--log " + link),
             ((), link, "$TETHER_STATS " + link)]
    for args, stats, said in cases:
        env = dict(ENV, TETHER_STATS=stats) if stats else ENV
        rc, out, err = run(s, "--format", "ndjson", *args, env=env)
        assert rc == 2, (said, rc, err)
        assert (said + ": a symbolic link").encode() in err, err
        assert out == b"", out
        assert open(target).read() == "theirs\n"
        assert os.stat(target).st_mode & 0o777 == 0o644
    conns = [l for l in s.traffic_lines() if l.startswith("conn ")]
    assert not conns, "a refused file must not connect: %s" % conns
    old = [os.path.join(TMP, n) for n in ("old.ndjson", "old.log", "old.stats")]
    for path in old:
        with open(path, "w") as f:
            f.write("before\n")
        os.chmod(path, 0o644)
    rc, out, err = run(s, "--record", old[0], "--log", old[1], env=dict(ENV, TETHER_STATS=old[2]))
    s.stop()
    assert rc == 0, (rc, err)
    for path in old:
        assert os.stat(path).st_mode & 0o777 == 0o600, "%s is %o" % (path, os.stat(path).st_mode)
        text = open(path).read()
        assert text.startswith("before\n") and len(text) > len("before\n"), (path, text[:200])


def test_result_last_and_closed_once():
    """Nothing after result, also when malformed frames arrive in the same batch as the
    status that ends the run; a fatal close prints one closed line (was two)."""
    path = scenario_file("late.scenario", 'title "late"\nhistory 3\nlive:\n'
                         '  raw this is not JSON\n  raw {"type":"durable","seq":"seven"}\n'
                         '  raw [1,2]\n')
    for _ in range(5):
        s = Server(None, "--scenario", path)
        rc, out, err = run(s, "--format", "ndjson")
        s.stop()
        assert rc == 0, (rc, err)
        check_invariants(ndjson(out))
    s = Server("close_4001.scenario")
    rc, out, err = run(s, "--format", "ndjson")
    assert rc == 3, (rc, err)
    lines = ndjson(out)
    check_invariants(lines)
    closed = [l for l in lines if l["type"] == "connection" and l["state"] == "closed"]
    assert len(closed) == 1, closed
    rc, out, err = run(s, "--format", "text")
    s.stop()
    assert rc == 3, (rc, err)
    assert err == ("tether: authentication failed at %s: the server wants a session API key and "
                   "none was given; set the key with tether key set or TETHER_SESSION_API_KEY\n"
                   % s.url).encode(), err


def test_stdin_nul_and_blank_lines():
    """--send -: a line with a NUL byte is not sent cut short, and says so; blank lines are
    not sent (said for a line of spaces); the other lines go in order."""
    s = Server("headless_chat.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--send", "-",
                       stdin=b"one\nbad\x00tail\n   \n\nlast\n")
    s.stop()
    assert rc == 0, (rc, err)
    recv = [json.loads(l.split(" ", 2)[2]) for l in s.traffic_lines() if l.startswith("recv ")]
    assert [r["content"][0]["text"] for r in recv] == ["one", "last"], recv
    assert b"line 2 contains a NUL byte" in err, err
    assert b"line 3 is blank" in err, err
    check_invariants(ndjson(out))


def test_config_long_lines():
    """A config line of any length is one line: one warning for a bad one, and a comment's
    tail is never applied as a setting (was: split at 1023 bytes, 978 warnings for 1 MB)."""
    cfg = os.path.join(TMP, "cfg-long")
    os.makedirs(os.path.join(cfg, "tether"), exist_ok=True)
    with open(os.path.join(cfg, "tether", "config"), "w") as f:
        f.write("# " + "x" * 1021 + "render_hz = 0\n")   # the tail would be a bad setting
        f.write("junk" * 250000 + "\n")                   # 1 MB without '='
        f.write("#" + "y" * 2000 + "server = http://127.0.0.1:1\n")
    p = subprocess.run([TETHER, "--headless", "--format", "none", CONV],
                       capture_output=True, timeout=30, env=dict(ENV, XDG_CONFIG_HOME=cfg))
    assert p.returncode == 2, p
    warnings = [l for l in p.stderr.splitlines() if b"config" in l]
    assert len(warnings) == 1 and b":2: expected key = value" in warnings[0], p.stderr[:2000]


def test_server_value_sanitized():
    """A --server value (or any echoed argument) reaches stderr without its escape sequences."""
    p = subprocess.run([TETHER, "--headless", "--server", "http://x\x1b]0;pwned\x07\x1b[2J", CONV],
                       capture_output=True, timeout=30, env=ENV)
    assert p.returncode == 2, p
    assert b"--server" in p.stderr and b"\x1b" not in p.stderr and b"\x07" not in p.stderr, p.stderr
    p = subprocess.run([TETHER, "--format", "x\x1b[2Jy", CONV], capture_output=True, env=ENV)
    assert p.returncode == 2 and b"\x1b" not in p.stderr, p.stderr


def test_endless_streams_bounded():
    """A server that starts 5,000 items and never ends them (issue 11, point 11): at most 64
    streams are open at any moment, the oldest each discarded with its terminal line, and each
    open stream that goes quiet is reported stalled once."""
    cfg = os.path.join(TMP, "cfg")
    os.makedirs(os.path.join(cfg, "tether"), exist_ok=True)
    open(os.path.join(cfg, "tether", "config"), "w").write("stream_stall = 1\n")
    s = Server("endless_streams.scenario", "--set", "n=5000", "--set", "hold=5")
    global ENV
    saved, ENV = ENV, dict(ENV, XDG_CONFIG_HOME=cfg)
    try:
        rc, out, err = run_until(s, b"Endless streams over.", "--ping-interval", "1")
    finally:
        ENV = saved
    s.stop()
    lines = ndjson(out)
    check_invariants(lines, None)
    stream = [l for l in lines if l["type"] == "stream"]
    open_now, most, stalled = set(), 0, {}
    for l in stream:
        if l["state"] == "started":
            open_now.add(l["item_id"])
            most = max(most, len(open_now))
        elif l["state"] in ("retired", "aborted", "discarded"):
            open_now.discard(l["item_id"])
        elif l["state"] == "stalled":
            stalled[l["item_id"]] = stalled.get(l["item_id"], 0) + 1
    started = sum(1 for l in stream if l["state"] == "started")
    assert started == 5000, started
    assert most <= 64, "%d streams open at once" % most
    assert sum(1 for l in stream if l["state"] == "discarded") == 5000
    assert 0 < len(stalled) <= 64, "%d streams reported stalled" % len(stalled)
    assert max(stalled.values()) == 1, "a stall was reported more than once"
    assert b"oldest are discarded" in err, err[-500:]


# ---------------------------------------------------------------- upstream shapes (issue 13)

UPSTREAM_EVENTS = os.path.join(DATA, "upstream", "events.jsonl")
FINISH_LAST = "All 7 tests pass, and the report tool now handles an empty CSV without crashing."


def upstream_events():
    return [json.loads(l) for l in open(UPSTREAM_EVENTS, encoding="utf-8") if l.strip()]


def kind_names(v, acc):
    """Every "kind" value at any depth: none of them may reach a reader as a raw name."""
    if isinstance(v, dict):
        if isinstance(v.get("kind"), str):
            acc.add(v["kind"])
        for x in v.values():
            kind_names(x, acc)
    elif isinstance(v, list):
        for x in v:
            kind_names(x, acc)
    return acc


def assert_nothing_raw(text):
    kinds = set()
    for e in upstream_events():
        kind_names(e, kinds)
    for k in sorted(kinds):
        assert k not in text, "raw kind name %s in the output" % k
    for bad in ("exit -1", "[UNKNOWN]", "<think>", "</think>", '{"'):
        assert bad not in text, "%r in the output" % bad


def text_of(scenario):
    """The whole conversation of scenario as headless text (the run must exit 0)."""
    s = Server(scenario)
    rc, out, err = run(s)
    s.stop()
    assert rc == 0, (rc, err)
    return out.decode("utf-8")


def test_edit_args_only_text():
    # An edit's result without the file before and after: the card keeps its arguments' diff
    # (where in the file is unknown: "-?"); with them it shows the result's, numbered.
    text = text_of("edit_args_only.scenario")
    for want in ("• file_editor str_replace /workspace/report/report/summary.py  → done",
                 "    @@ -?,2 +?,2 @@", "    +    return total / max(len(rows), 1)  # no rows: 0.0"):
        assert want in text, "missing %r in:\n%s" % (want, text)
    text = text_of("tui_diff.scenario")
    for want in ("    @@ -11,6 +11,6 @@", "         for row in rows:"):
        assert want in text, "missing %r in:\n%s" % (want, text)
    assert "@@ -?,2 +?,2 @@" not in text, text


def test_upstream_text():
    text = text_of("upstream.scenario")
    assert_nothing_raw(text)
    expect = [
        # the error observation: failed with its message, never "exit -1"
        "→ failed: Cannot execute multiple commands at once.",
        "    Please run each command separately OR chain them into a single command via && or ;",
        # the multi-line command keeps its lines
        '    echo "SESSION_URL=${SESSION_URL}"',
        "$ python -m report tests/fixtures/empty.csv  → exit 1",
        "$ python -m http.server 8000  → still running (no new output)",
        "$ sleep 600  → timed out",
        "• file_editor str_replace /workspace/report/report/summary.py  → done",
        # an edit is a unified diff (issue 27): its result's, numbered, with context, where
        # the result carries the file before and after (as the screen's card shows it)
        "    +        return Summary.empty()",
        "    @@ -1,2 +1,4 @@",
        "     def summarize(rows):",
        "    1. [x] Reproduce the crash",
        "    2. [~] Guard the empty case in summarize() (in progress)",
        "    2. raise a clear error",
        "• glob tests/**/*.py  → done",
        "• grep def summarize  → done",
        "    include: *.py",
        "• browser_navigate http://localhost:8000/report.html  → done",
        "• github_get_issue read the issue  → done",
        "    issue_number: 42",
        "• delegate spawn  → done",
        "    agent_types: default",
        "$ rm -rf build/ dist/  → rejected: Keep dist/, it has the release files.",
        "· hook PreToolUse (terminal): blocked (exit 2)",
        "$ git push --force origin main  → blocked by hook: Force pushes to main are blocked by policy.",
        "• str_replace_editor view  → failed: Tool 'str_replace_editor' not found.",
        "    path: /workspace/report/report/cli.py",
        "• Write tests/test_summary.py edit  → done",
        "    Wrote 2 lines to tests/test_summary.py",
        "$ pytest -q  → exit 0",
        "· plan review",
        "    score: 0.5",
        "## Summary",
        "- `tests/test_summary.py` covers the empty case",
    ]
    for want in expect:
        assert want in text, "missing %r in:\n%s" % (want, text)
    # The answer is whole and last: the final answer of the run.
    assert text.rstrip("\n").endswith(FINISH_LAST), text[-400:]
    assert text.count(FINISH_LAST) == 1, "the finish message is printed more than once"
    # Diagnostics the web client hides stay hidden.
    assert "1757015046" not in text
    # An ACP tool call emitted twice (in progress, then completed) is one call that ended.
    assert text.count("• Write tests/test_summary.py") == 1, text
    assert "no result" not in text


def keep_number_text(s):
    """JSON with every number kept as its text, so 0.0 and 0 are told apart."""
    return json.loads(s, parse_float=lambda t: ("number", t), parse_int=lambda t: ("number", t))


def test_upstream_ndjson_events_as_sent():
    s = Server("upstream.scenario")
    rc, out, err = run(s, "--format", "ndjson")
    s.stop()
    assert rc == 0, (rc, err)
    sent = [keep_number_text(l) for l in open(UPSTREAM_EVENTS, encoding="utf-8") if l.strip()]
    durable = []
    for line in out.decode("utf-8").splitlines():
        if line.startswith('{"type":"durable"'):
            durable.append(line[line.index('"event":') + len('"event":'):-1])
    assert len(durable) == len(sent) >= 30, (len(durable), len(sent))
    for i, (got, want) in enumerate(zip(durable, sent)):
        assert keep_number_text(got) == want, "seq %d differs:\n%s\n%s" % (i, got, want)
    # The text of the stats numbers, literally.
    assert '"accumulated_cost":0.0' in out.decode("utf-8")
    assert '"timeout":5.0' in out.decode("utf-8")


def test_server_option_forms():
    """The command line through getopt_long: -sURL, --server=URL, -s URL and --server URL all
    reach the server, and so does the config file's server key, read through the same table."""
    s = Server("headless_chat.scenario")
    cfg = os.path.join(TMP, "cfg-server")
    os.makedirs(os.path.join(cfg, "tether"), exist_ok=True)
    open(os.path.join(cfg, "tether", "config"), "w").write("server = %s\n" % s.url)
    forms = [["-s" + s.url], ["--server=" + s.url], ["-s", s.url], ["--server", s.url], []]
    env = dict(ENV, XDG_CONFIG_HOME=cfg)
    env.pop("TETHER_SERVER", None)
    try:
        for form in forms:
            p = subprocess.run([TETHER, "--headless", "--format", "ndjson"] + form + [CONV],
                               capture_output=True, timeout=30, stdin=subprocess.DEVNULL,
                               env=env)
            assert p.returncode == 0, (form, p.returncode, p.stderr)
            assert b'"type":"sync"' in p.stdout, (form, p.stdout[:500])
    finally:
        s.stop()


def test_tui_picker_keys():
    """The picker reads keys through the TUI's decoder: a bracketed paste is text, never keys
    (a pasted "j", Enter and "q" neither move, open nor quit: its first line filters, as
    typing does); arrows move; Esc quits with 0."""
    socks = []

    def tmux(n):
        return ["tmux", "-L", "tether-pickkeys-%d-%d" % (os.getpid(), n), "-f", "/dev/null"]

    def screen(n):
        return subprocess.run(tmux(n) + ["capture-pane", "-p"], capture_output=True,
                              text=True).stdout

    def wait_for(n, text, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if text in screen(n):
                return True
            time.sleep(0.1)
        return False

    def start(n, s):
        socks.append(n)
        subprocess.run(tmux(n) + ["new-session", "-d", "-x", "100", "-y", "20", "-e",
                                  "LANG=C.UTF-8", "%s --server %s; echo EXIT=$?; sleep 30"
                                  % (TETHER, s.url)], check=True, env=ENV)
        assert wait_for(n, "Older chat"), screen(n)
    servers = [Server("picker.scenario"), Server("picker.scenario")]
    try:
        start(1, servers[0])
        subprocess.run(tmux(1) + ["set-buffer", "-b", "keys", "j\rq"], check=True)
        subprocess.run(tmux(1) + ["paste-buffer", "-p", "-b", "keys"], check=True)
        time.sleep(1)
        assert "Pick a conversation" in screen(1) and "EXIT=" not in screen(1), screen(1)
        # the paste's first line went to the filter, as typed text would
        assert "Filter: j" in screen(1), screen(1)
        subprocess.run(tmux(1) + ["send-keys", "C-u"], check=True)
        for key in ["Down", "Down", "Up"]:
            subprocess.run(tmux(1) + ["send-keys", key], check=True)
            time.sleep(0.2)
        subprocess.run(tmux(1) + ["send-keys", "Enter"], check=True)
        assert wait_for(1, "hello from the picked one"), screen(1)
        start(2, servers[1])
        subprocess.run(tmux(2) + ["send-keys", "Escape"], check=True)
        assert wait_for(2, "EXIT=0"), screen(2)
    finally:
        for n in socks:
            tmux_kill_server(tmux(n))
        for s in servers:
            s.stop()



# --until and --on-confirm (issue 14): cli.md "Precise semantics".

def timed_run(server, *args, **kw):
    t0 = time.time()
    rc, out, err = run(server, *args, **kw)
    return rc, out, err, time.time() - t0


def statuses(lines):
    return [l["execution_status"] for l in lines if l["type"] == "status"]


def has_agent_text(lines, text):
    return any(l["type"] == "durable" and text in json.dumps(l["event"]) for l in lines)


def test_until_idle_follows_a_running_conversation():
    """Nothing sent: an idle conversation is dumped and left at catch-up; a running one is
    followed to the first live status that ends its run (was: left at catch-up)."""
    s = Server("headless_until.scenario", "--set", "start=idle", "--set", "wait=3")
    rc, out, err, took = timed_run(s, "--format", "ndjson")
    s.stop()
    assert rc == 0 and took < 2.5, (rc, took, err)
    lines = ndjson(out)
    assert not has_agent_text(lines, "Run over."), "an idle conversation is left at catch-up"
    s = Server("headless_until.scenario")
    rc, out, err, took = timed_run(s, "--format", "ndjson")
    s.stop()
    assert rc == 0, (rc, err)
    lines = ndjson(out)
    check_invariants(lines, s.log())
    assert has_agent_text(lines, "Run over."), "a running conversation is followed to its end"
    assert statuses(lines)[-1] == "idle", statuses(lines)


def test_until_synced_never_waits():
    """--until synced: exit 0 at catch-up whatever the status (running here)."""
    s = Server("headless_until.scenario", "--set", "wait=3")
    rc, out, err, took = timed_run(s, "--format", "ndjson", "--until", "synced")
    s.stop()
    assert rc == 0 and took < 2.5, (rc, took, err)
    lines = ndjson(out)
    check_invariants(lines, s.log())
    assert not has_agent_text(lines, "Run over.")
    assert "running" in statuses(lines), statuses(lines)


def test_until_no_snapshot_catch_up_after_1s():
    """No connect snapshot: catch-up 1 s after the last replayed durable; the replayed status
    is the current one (running: followed; idle: left)."""
    s = Server("headless_until.scenario", "--set", "snapshot=none", "--set", "wait=2.5")
    rc, out, err, took = timed_run(s, "--format", "ndjson")
    s.stop()
    assert rc == 0 and took >= 2.4, (rc, took, err)
    assert has_agent_text(ndjson(out), "Run over.")
    s = Server("headless_until.scenario", "--set", "snapshot=none", "--set", "start=idle",
               "--set", "wait=4")
    rc, out, err, took = timed_run(s, "--format", "ndjson")
    s.stop()
    assert rc == 0 and 0.9 <= took < 3.5, (rc, took, err)
    assert not has_agent_text(ndjson(out), "Run over.")


def test_until_run_ends_stuck_error_paused():
    """Nothing sent, a running conversation: stuck and error end it with 6, paused with 0
    (was: exit 0 at catch-up)."""
    for end, code in (("stuck", 6), ("error", 6), ("paused", 0)):
        s = Server("headless_until.scenario", "--set", "end=" + end)
        rc, out, err = run(s, "--format", "ndjson")
        s.stop()
        assert rc == code, (end, rc, err)
        lines = ndjson(out)
        assert lines[-1]["exit_code"] == code and statuses(lines)[-1] == end, (end, statuses(lines))
    # Current at catch-up: an error status already there exits 6 at once.
    s = Server("headless_until.scenario", "--set", "start=error", "--set", "wait=3")
    rc, out, err = run(s, "--format", "ndjson")
    s.stop()
    assert rc == 6, (rc, err)


def test_until_finished_nothing_sent():
    """--until finished, nothing sent: finished current at catch-up exits 0 at once (was: a
    hang); a running conversation is followed past idle to finished."""
    s = Server("headless_until.scenario", "--set", "start=finished", "--set", "wait=3",
               "--set", "snapshot=none")
    rc, out, err, took = timed_run(s, "--format", "ndjson", "--until", "finished", timeout=20)
    s.stop()
    assert rc == 0 and took < 2.5, (rc, took, err)
    assert not has_agent_text(ndjson(out), "Run over.")
    s = Server(None, "--scenario", scenario_file("fin.scenario",
               'message user "go"\nstatus running\nlive:\n  sleep 0.5\n  status idle\n'
               '  sleep 0.3\n  status running\n  message agent "Really done."\n  status finished\n'))
    rc, out, err = run(s, "--format", "ndjson", "--until", "finished")
    s.stop()
    assert rc == 0, (rc, err)
    lines = ndjson(out)
    assert statuses(lines)[-1] == "finished" and "idle" in statuses(lines), statuses(lines)
    assert has_agent_text(lines, "Really done.")


def test_until_send_paused_ends_run():
    """--send: the idle of history and snapshot never ends the run; the message's run going
    running then paused ends it with 0 (was: paused never ended it: a hang)."""
    s = Server("headless_until_send.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--send", "go", timeout=20)
    s.stop()
    assert rc == 0, (rc, err)
    lines = ndjson(out)
    assert has_agent_text(lines, "Working.")
    assert statuses(lines)[-2:] == ["running", "paused"], statuses(lines)


def confirmation_lines(lines):
    return [l for l in lines if l["type"] == "confirmation"]


def test_on_confirm_exit_7():
    """Default --on-confirm exit: the pending action, masked, then exit 7; text mode says
    "needs confirmation", never "→ no result"."""
    mask = os.path.join(TMP, "mask")
    open(mask, "w").write("hunter7-confirm\n")
    s = Server("headless_confirm.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--mask-file", mask, "--send", "go")
    assert rc == 7, (rc, err)
    assert b"hunter7-confirm" not in out + err
    lines = ndjson(out)
    check_invariants(lines)
    conf = confirmation_lines(lines)
    assert len(conf) == 1 and len(conf[0]["actions"]) == 1, conf
    a = conf[0]["actions"][0]
    assert a["tool"] == "terminal" and a["risk"] == "HIGH" and a["tool_call_id"], a
    assert a["summary"] == "rm -rf build/<secret-hidden>", a
    assert lines[-1]["exit_code"] == 7
    # The same conversation still waits: at catch-up; its tool_call_id as a secret is masked.
    ids = os.path.join(TMP, "ids")
    open(ids, "w").write(a["tool_call_id"] + "\n")
    rc, out, err = run(s, "--format", "ndjson", "--mask-file", ids)
    assert rc == 7 and a["tool_call_id"].encode() not in out, (rc, err)
    assert confirmation_lines(ndjson(out))[0]["actions"][0]["tool_call_id"] == "<secret-hidden>"
    # Text mode.
    rc, out, err = run(s, "--mask-file", mask)
    s.stop()
    assert rc == 7, (rc, err)
    text = out.decode()
    assert "needs confirmation: terminal rm -rf build/<secret-hidden> [HIGH]" in text, text
    assert "no result" not in text and "waiting for confirmation" in text, text


def test_confirmation_whole_command():
    """Issue 23: the summary of a long command is cut, but the confirmation record carries the
    whole command, masked (ndjson "arguments"; text: indented lines after the summary line), so
    a script that looks for "rm -rf" at the end of a command sees it."""
    mask = os.path.join(TMP, "mask")
    open(mask, "w").write("hunter7-tail\n")
    s = Server("headless_confirm_long.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--mask-file", mask, "--send", "go")
    assert rc == 7, (rc, err)
    assert b"hunter7-tail" not in out + err
    a = confirmation_lines(ndjson(out))[0]["actions"][0]
    assert a["summary"].endswith("…") and "rm -rf" not in a["summary"], a
    assert a["arguments"].startswith("command: cd /srv/app && pip install"), a
    assert a["arguments"].endswith("&& rm -rf /var/cache/app/* <secret-hidden>"), a
    rc, out, err = run(s, "--mask-file", mask)
    s.stop()
    assert rc == 7, (rc, err)
    lines = out.decode().splitlines()
    i = next(i for i, l in enumerate(lines) if l.startswith("needs confirmation: terminal cd "))
    assert lines[i].endswith("… [HIGH]"), lines[i]
    assert lines[i + 1].startswith("  command: cd /srv/app && pip install"), lines
    assert lines[i + 1].endswith("&& rm -rf /var/cache/app/* <secret-hidden>"), lines
    assert b"hunter7-tail" not in out + err


def test_on_confirm_synced_exits_0():
    """--until synced exits 0 at catch-up also while actions wait (and says which)."""
    s = Server("headless_confirm.scenario")
    rc, _, err = run(s, "--format", "ndjson", "--send", "go")
    assert rc == 7, (rc, err)
    rc, out, err = run(s, "--format", "ndjson", "--until", "synced")
    s.stop()
    assert rc == 0, (rc, err)
    lines = ndjson(out)
    assert len(confirmation_lines(lines)) == 1 and lines[-1]["exit_code"] == 0


def answers(server):
    return [l for l in server.traffic_lines() if "respond_to_confirmation" in l]


def test_send_waits_for_confirmation_first():
    """--send to a conversation whose actions already wait: the message is held (sent, it would
    allow them), --on-confirm exit says so and exits 7 without sending it; accept answers
    first and only then sends it."""
    s = Server("headless_confirm.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--send", "go")
    assert rc == 7, (rc, err)
    rc, out, err = run(s, "--format", "ndjson", "--send", "second")
    texts = [json.loads(l.split(" ", 2)[2])["content"][0]["text"]
             for l in s.traffic_lines() if l.startswith("recv ")]
    assert rc == 7 and texts == ["go"], (rc, texts, err)
    assert ("tether: --send: 1 message was not sent (actions wait for confirmation, and a message "
            "would allow them)") in err.decode().splitlines(), err
    assert ndjson(out)[-1]["exit_code"] == 7
    rc, out, err = run(s, "--format", "ndjson", "--send", "third", "--on-confirm", "accept")
    s.stop()
    assert rc == 0, (rc, err)
    traffic = s.traffic_lines()
    first_answer = next(i for i, l in enumerate(traffic) if "respond_to_confirmation" in l)
    third = next(i for i, l in enumerate(traffic) if l.startswith("recv ") and '"third"' in l)
    assert first_answer < third, traffic


def test_on_confirm_accept():
    """--on-confirm accept: each waiting period answered once through REST, said, and the run
    followed to its end."""
    s = Server("headless_confirm.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--send", "go", "--on-confirm", "accept")
    s.stop()
    assert rc == 0, (rc, err)
    lines = ndjson(out)
    check_invariants(lines)
    conf = confirmation_lines(lines)
    said = [l for l in lines if l["type"] == "confirmation_answer"]
    assert len(conf) == 2 and len(said) == 2, (conf, said)
    assert [l["answer"] for l in said] == ["accept", "accept"]
    assert [c["actions"][0]["risk"] for c in conf] == ["HIGH", "LOW"], conf
    assert said[0]["tool_call_ids"] == [conf[0]["actions"][0]["tool_call_id"]], said
    assert has_agent_text(lines, "Allowed one.") and has_agent_text(lines, "Allowed two.")
    got = answers(s)
    assert len(got) == 2 and all('"accept":true' in l for l in got), got


def test_on_confirm_reject_text():
    """--on-confirm reject, text mode: what was rejected is printed; the run goes on."""
    s = Server("headless_confirm.scenario")
    rc, out, err = run(s, "--send", "go", "--on-confirm", "reject")
    s.stop()
    assert rc == 0, (rc, err)
    text = out.decode()
    assert text.count("needs confirmation: terminal") == 2, text
    assert text.count("\nrejected: ") == 2 and "Rejected two." in text, text
    got = answers(s)
    assert len(got) == 2 and all('"accept":false' in l for l in got), got


def test_on_confirm_wait():
    """--on-confirm wait: the actions are printed and tether keeps waiting while another
    client answers."""
    import urllib.request
    s = Server("headless_confirm.scenario")
    p = subprocess.Popen([TETHER, "--headless", "--format", "ndjson", "--on-confirm", "wait",
                          "--send", "go", "--server", s.url, CONV],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    os.set_blocking(p.stdout.fileno(), False)
    out = b""
    for n in (1, 2):
        deadline = time.time() + 20
        while out.count(b'"type":"confirmation"') < n and time.time() < deadline:
            chunk = p.stdout.read()
            out += chunk or b""
            if not chunk:
                time.sleep(0.05)
        assert out.count(b'"type":"confirmation"') == n, out
        assert p.poll() is None, "tether must keep waiting"
        req = urllib.request.Request(
            s.url + "/api/conversations/%s/events/respond_to_confirmation" % CONV,
            data=b'{"accept":true}', headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=10).read()
    rest, err = p.communicate(timeout=20)
    s.stop()
    assert p.returncode == 0, (p.returncode, err)
    lines = ndjson(out + rest)
    assert len(confirmation_lines(lines)) == 2 and has_agent_text(lines, "Allowed two.")
    assert not [l for l in lines if l["type"] == "confirmation_answer"]


def test_quiet_only_fatal():
    """-q: notices (a blank --send - line, --insecure) leave stderr empty; a fatal one stays."""
    s = Server("headless_chat.scenario")
    rc, out, err = run(s, "--send", "-", "--insecure", stdin=b"hi\n \n")
    assert rc == 0 and b"blank" in err and b"insecure" in err, (rc, err)
    rc, out, err = run(s, "-q", "--send", "-", "--insecure", stdin=b"hi\n \n")
    assert rc == 0 and err == b"", (rc, err)
    rc, out, err = run(s, "--quiet", conv="00000000-0000-4000-8000-000000000000")
    s.stop()
    assert rc == 4 and b"not found" in err, (rc, err)


def tether(*args, env=None, timeout=30):
    """Runs tether with exactly args (no --headless, no id added)."""
    p = subprocess.run([TETHER] + list(args), capture_output=True, timeout=timeout,
                       stdin=subprocess.DEVNULL, env=env or ENV)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace").splitlines()


def rest_lines(server):
    return [l for l in server.traffic_lines() if l.startswith("rest ")]


def test_confirm_reject_once():
    """tether confirm|reject answer the pending confirmation once (exit 0, what was answered
    on stdout); with nothing pending: exit 1 and exactly one line, and no answer is sent."""
    route = "/api/conversations/" + CONV
    search = "%s/events/search?limit=100&sort_order=TIMESTAMP_DESC" % route
    s = Server("control.scenario")
    rc, out, err = tether("confirm", "--server", s.url, CONV)
    assert rc == 0 and out.startswith(b"accepted: terminal [HIGH] "), (rc, out, err)
    rc2, out2, err2 = tether("confirm", "--server", s.url, CONV)
    rc3, _, err3 = tether("reject", "--server", s.url, CONV, "--reason", "too late")
    s.stop()
    assert rc2 == 1 and out2 == b"", (rc2, err2)
    line = "tether: nothing is waiting for confirmation in " + CONV
    assert line in err2 and rc3 == 1 and line in err3, (err2, err3)
    assert rest_lines(s) == [
        "rest GET %s 200" % route,
        "rest GET %s 200" % search,
        'rest POST %s/events/respond_to_confirmation 200 {"accept":true}' % route,
        "rest GET %s 200" % route,
        "rest GET %s 200" % route], rest_lines(s)
    s = Server("control.scenario")
    rc, out, err = tether("reject", "--reason", "not now", "--server", s.url, CONV)
    s.stop()
    assert rc == 0 and out.startswith(b"rejected: terminal [HIGH] "), (rc, out, err)
    assert rest_lines(s)[-1] == ('rest POST %s/events/respond_to_confirmation 200 '
                                 '{"accept":false,"reason":"not now"}' % route), rest_lines(s)


def test_confirm_says_what_it_answered():
    """Issue 23: confirm and reject print what they answered: the tool, its risk, its
    tool_call_id and the whole command (masked, never cut), so a changed action is not answered
    unseen; --quiet prints nothing and still answers."""
    mask = os.path.join(TMP, "mask")
    open(mask, "w").write("hunter7-tail\n")
    for cmd, verb in (("confirm", "accepted"), ("reject", "rejected")):
        s = Server("control_long.scenario")
        rc, out, err = tether(cmd, "--server", s.url, "--mask-file", mask, CONV)
        s.stop()
        assert rc == 0 and err == [], (cmd, rc, out, err)
        lines = out.decode().splitlines()
        assert len(lines) == 2, lines
        assert re.match(r"^%s: terminal \[HIGH\] \S+$" % verb, lines[0]), lines
        assert lines[1] == ("  command: cd /srv/app && pip install --no-cache-dir --upgrade -r "
                            "requirements/production.txt -r requirements/extras.txt && python "
                            "manage.py migrate --noinput && python manage.py collectstatic "
                            "--noinput --clear && rm -rf /var/cache/app/* <secret-hidden>"), lines
    s = Server("control_long.scenario")
    rc, out, err = tether("confirm", "--quiet", "--server", s.url, CONV)
    s.stop()
    assert (rc, out, err) == (0, b"", []), (rc, out, err)
    assert len(answers(s)) == 1, rest_lines(s)


def test_confirm_expect():
    """Issue 23: --expect TOOL_CALL_ID answers only when exactly those actions wait; another
    set is refused (exit 1, one line naming what waits), and nothing is answered."""
    s = Server("control_long.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--until", "synced")
    assert rc == 0, (rc, err)
    waiting = confirmation_lines(ndjson(out))[0]["actions"][0]["tool_call_id"]
    for expect in (["call_other"], [waiting, "call_other"]):
        args = sum((["--expect", e] for e in expect), [])
        rc, out, err = tether("confirm", "--server", s.url, CONV, *args)
        assert rc == 1 and out == b"", (rc, out, err)
        assert err == ["tether: confirm: the actions waiting in %s are not the ones expected; "
                       "nothing was answered (waiting: %s (terminal); --expect: %s)"
                       % (CONV, waiting, ", ".join(expect))], err
    assert answers(s) == [], rest_lines(s)
    rc, out, err = tether("reject", "--server", s.url, CONV, "--expect", waiting)
    s.stop()
    assert rc == 0 and out.decode().startswith("rejected: terminal [HIGH] %s\n" % waiting), (rc, out, err)
    assert len(answers(s)) == 1 and '"accept":false' in answers(s)[0], rest_lines(s)
    rc, _, err = tether("pause", "--expect", waiting, "--server", s.url, CONV)
    assert rc == 2 and "--expect goes only with tether confirm or tether reject" in err[0], (rc, err)


def test_pause_resume_interrupt():
    """pause, resume (POST …/run) and interrupt exit 0; a 409 (already running) is success for
    resume."""
    route = "/api/conversations/" + CONV
    s = Server("control.scenario")
    results = []
    for cmd in ("confirm", "resume", "pause", "resume", "interrupt"):
        rc, out, err = tether(cmd, "--server", s.url, CONV)
        results.append((cmd, rc, out))
    # Issue 23: each says what it did (-q: nothing).
    rc, out, err = tether("pause", "-q", "--server", s.url, CONV)
    s.stop()
    assert (rc, out, err) == (0, b"", []), (rc, out, err)
    assert all(rc == 0 for _, rc, _ in results), results
    assert [out.decode() for _, _, out in results[1:]] == [
        "resumed: %s (a run was already under way)\n" % CONV,
        "paused: %s (the run stops after the current step)\n" % CONV,
        "resumed: %s (a run started)\n" % CONV,
        "interrupted: %s (the run stopped)\n" % CONV], results
    assert rest_lines(s)[3:-1] == [
        "rest POST %s/run 409" % route, "rest POST %s/pause 200" % route,
        "rest POST %s/run 200" % route, "rest POST %s/interrupt 200" % route], rest_lines(s)


def test_control_failures():
    """Other failures: 3 for auth, 4 for an unknown conversation, 1 for an unreachable server,
    each one line naming the server and the conversation."""
    other = "00000000-0000-4000-8000-000000000000"
    s = Server("control.scenario")
    rc, _, err = tether("pause", "--server", s.url, other)
    s.stop()
    assert rc == 4, (rc, err)
    assert ("tether: pause: conversation %s not found at %s; tether list shows the conversations "
            "there" % (other, s.url)) in err, err
    a = Server("headless_auth.scenario")
    rc, _, err = tether("confirm", "--server", a.url, CONV,
                        env=dict(ENV, TETHER_SESSION_API_KEY="wrong-key-123"))
    a.stop()
    assert rc == 3, (rc, err)
    assert ("tether: confirm: authentication failed at %s: the server refused the session API key; "
            "set the key with tether key set or TETHER_SESSION_API_KEY" % a.url) in err, err
    assert not any("wrong-key-123" in l for l in err)
    # Another status: its code and the server's words (line breaks as spaces), one line; an
    # answer that does not parse says so.
    lines = {}
    for status, cmd in (("500", "pause"), ("200", "confirm")):
        path = os.path.join(TMP, "front%s.scenario" % status)
        open(path, "w").write("front status %s\n" % status)
        f = Server(path)
        rc, _, err = tether(cmd, "--server", f.url, CONV)
        f.stop()
        assert rc == 1, (status, rc, err)
        lines[status] = ([l for l in err if l.startswith("tether: " + cmd)], f.url)
    assert lines["500"][0] == ["tether: pause: the server at %s answered HTTP 500 for conversation "
                               "%s: no" % (lines["500"][1], CONV)], lines
    assert lines["200"][0] == ["tether: confirm: unexpected answer from %s about conversation "
                               "%s: malformed JSON at byte 0 of 3" % (lines["200"][1], CONV)], lines
    rc, _, err = tether("interrupt", "--server", "http://127.0.0.1:9", CONV)
    assert rc == 1, (rc, err)
    assert [l for l in err if "interrupt:" in l] == [
        "tether: interrupt: cannot reach the server at http://127.0.0.1:9: connection refused (no "
        "server is listening there); choose another server with --server URL or TETHER_SERVER"], err


def test_bad_id_usage():
    """A word in the id's place that is no UUID is a usage error at once (no connection
    attempt); a near-miss of a command names the commands."""
    cmds = ("the commands are list, key, secret, confirm, reject, pause, resume, interrupt, watch, "
            "new, fork, rename, rm, ask, compact, model, goal, policy, server-info, usage (tether --help)")
    cases = [
        (["lsit"], "tether: 'lsit' is neither a command nor a conversation id (did you mean "
                   "list?); " + cmds),
        (["help"], "tether: 'help' is neither a command nor a conversation id; " + cmds),
        (["--headless", "conv-1"], "tether: 'conv-1' is not a conversation id: ids are UUIDs, "
                                   "hyphenated or as 32 hex digits (tether list shows them)"),
        (["resume", "resmue"], "tether: resume: 'resmue' is neither a command nor a "
                               "conversation id (did you mean resume?); " + cmds),
        (["reject", CONV[:-1]], "tether: reject: '%s' is not a conversation id: ids are UUIDs, "
                                "hyphenated or as 32 hex digits (tether list shows them)" % CONV[:-1]),
    ]
    for args, line in cases:
        start = time.time()
        rc, out, err = tether("--server", "http://127.0.0.1:9", *args, timeout=20)
        assert (rc, out, err) == (2, b"", [line]), (args, rc, err)
        assert time.time() - start < 5, "a usage error must not wait for anything"
    # 32 hex digits are an id too: it reaches the server.
    s = Server("control.scenario")
    rc, _, err = tether("pause", "--server", s.url, CONV.replace("-", ""))
    s.stop()
    assert rc == 4 and rest_lines(s) == ["rest POST /api/conversations/%s/pause 404"
                                         % CONV.replace("-", "")], (rc, err, rest_lines(s))


def test_list_json():
    """--format json: one JSON array of the ndjson objects; piped text and ndjson keep their
    forms (no header, the server's timestamps)."""
    s = Server("list_times.scenario")
    rc, out, err = tether("list", "--format", "json", "--server", s.url)
    rc2, nd, _ = tether("list", "--format", "ndjson", "--server", s.url)
    rc3, text, _ = tether("list", "--server", s.url)
    s.stop()
    assert (rc, rc2, rc3) == (0, 0, 0), (rc, rc2, rc3, err)
    items = json.loads(out)
    assert isinstance(items, list) and out.endswith(b"]\n"), out
    objects = ndjson(nd)
    strip = lambda l: [{k: v for k, v in o.items() if k != "updated_at"} for o in l]
    assert strip(items) == strip(objects), (items, objects)
    assert [o["id"] for o in items] == [CONV] + [str(d) * 8 + "-2222-4333-8444-555555555555"
                                                 for d in (1, 2, 4, 5)], items
    lines = text.decode().splitlines()
    assert len(lines) == 5 and lines[0].split("\t")[:3] == [CONV, "Just now", "idle"], lines
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}", l.split("\t")[3])
               for l in lines), lines
    rc, out, _ = tether("list", "--format", "json", "--server", "http://127.0.0.1:9")
    assert rc == 1 and out == b"", (rc, out)


def test_list_tty():
    """tether list with stdout a terminal: the server and its version (issue 25), a header
    row, aligned columns, relative times."""
    s = Server("list_times.scenario")
    sock = ["tmux", "-L", "tether-listtty-%d" % os.getpid(), "-f", "/dev/null"]
    errf = os.path.join(TMP, "list-err")
    try:
        subprocess.run(sock + ["new-session", "-d", "-x", "120", "-y", "20", "-e", "LANG=C.UTF-8",
                               "%s list --server %s 2>%s; echo EXIT=$?; sleep 30"
                               % (TETHER, s.url, errf)], check=True, env=ENV)
        deadline = time.time() + 20
        screen = ""
        while time.time() < deadline and "EXIT=" not in screen:
            time.sleep(0.1)
            screen = subprocess.run(sock + ["capture-pane", "-p"], capture_output=True,
                                    text=True).stdout
    finally:
        tmux_kill_server(sock)
        s.stop()
    row = "%-36s  %-8s  %-10s  %s"
    want = ["%s, version 1.43.1" % s.url,
            row % ("ID", "STATUS", "UPDATED", "TITLE"),
            row % (CONV, "idle", "just now", "Just now"),
            row % ("11111111-2222-4333-8444-555555555555", "finished", "2 h ago", "Two hours"),
            row % ("22222222-2222-4333-8444-555555555555", "idle", "yesterday", "Yesterday"),
            row % ("44444444-2222-4333-8444-555555555555", "running", "3 min ago", "Minutes"),
            row % ("55555555-2222-4333-8444-555555555555", "paused", "3 days ago", "Days"),
            "EXIT=0"]
    got = [l for l in screen.splitlines() if l.strip()]
    assert got == want, (got, open(errf).read())


# ---------------------------------------------------------------- messages (issue 14)
# Each diagnostic is matched as a whole line: what failed, the cause in words, the next step.

NEXT_SERVER = "; choose another server with --server URL or TETHER_SERVER"
NEXT_KEY = "; set the key with tether key set or TETHER_SESSION_API_KEY"


def closed_port_url():
    import socket
    so = socket.socket()
    so.bind(("127.0.0.1", 0))
    port = so.getsockname()[1]
    so.close()
    return "http://127.0.0.1:%d" % port


def timed(cmd, env=None, stdin=None):
    """Runs cmd; returns (rc, stdout, stderr lines as text, wall seconds)."""
    t0 = time.monotonic()
    p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=60, env=env or ENV)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace").splitlines(), time.monotonic() - t0


def tui_timed(url, *args, env_extra=(), give_up_key=False):
    """Runs tether in a terminal (tmux) until it exits; returns (rc, stderr lines, seconds).
    give_up_key: waits for the question for a session API key and answers an empty line;
    the seconds are then those until the question showed."""
    sock = "tether-msg-%d" % os.getpid()
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]
    errf, rcf = os.path.join(TMP, "tui.err"), os.path.join(TMP, "tui.rc")
    for f in (errf, rcf):
        if os.path.exists(f):
            os.unlink(f)
    cmd = " ".join([TETHER, "--server", url] + list(args))
    envs = []
    for kv in ("LANG=C.UTF-8",) + tuple(env_extra):
        envs += ["-e", kv]
    t0 = time.monotonic()
    try:
        subprocess.run(tmux + ["new-session", "-d", "-x", "100", "-y", "20"] + envs +
                       ["%s 2>%s; echo $? >%s; sleep 30" % (cmd, errf, rcf)], check=True, env=ENV)
        asked = None
        while give_up_key and asked is None:
            assert time.monotonic() - t0 < 30, "tether did not ask for the key"
            screen = subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True, text=True).stdout
            if "session API key for %s (hidden; empty to give up):" % url in screen:
                asked = time.monotonic() - t0
                subprocess.run(tmux + ["send-keys", "Enter"], check=True)
            time.sleep(0.02)
        while not os.path.exists(rcf) or not open(rcf).read().strip():
            assert time.monotonic() - t0 < 30, "tether did not exit"
            time.sleep(0.02)
        took = asked if give_up_key else time.monotonic() - t0
    finally:
        tmux_kill_server(tmux)
    return int(open(rcf).read()), open(errf, errors="replace").read().splitlines(), took


def unreachable_run(url, env=None):
    """A headless run that gives up after its first attempt: (rc, stderr lines, seconds). The
    cause is said at the first failure; the give-up line follows (cli.md: the first connect is
    an attempt like any other, exit 5)."""
    rc, out, err, took = timed([TETHER, "--headless", "--max-retries", "1", "--server", url, CONV],
                               env=env)
    return rc, err, took


def gave_up_line(url, why):
    return ("tether: gave up connecting to %s after 1 failed attempt in a row (--max-retries): %s"
            % (url, why))


def test_msg_server_down():
    """tether list, the picker and a headless run against a closed port: the URL, the cause and
    how to choose another server (was "list: request failed: Unable to connect", and 8
    reconnect lines over a minute), within 1 s."""
    url = closed_port_url()
    want = "tether: cannot reach the server at %s: connection refused (no server is listening there)%s" % (url, NEXT_SERVER)
    rc, out, err, took = timed([TETHER, "list", "--server", url])
    assert (rc, err) == (1, [want]) and took < AT_ONCE, (rc, err, took)
    rc, err, took = unreachable_run(url)
    why = "connection refused (no server is listening there)"
    assert (rc, err) == (5, [want, gave_up_line(url, why)]) and took < AT_ONCE, (rc, err, took)
    rc, err, took = tui_timed(url)
    assert (rc, err) == (1, [want]), (rc, err, took)


def test_msg_never_connected_not_lost():
    """Issue 23: a retry after an attempt that never connected says "could not connect" with
    the reason, and the give-up says "connecting" (was "connection lost: connection refused …;
    reconnecting" for a connection never made); a connection made and then lost says so."""
    url = closed_port_url()
    why = "connection refused (no server is listening there)"
    rc, out, err, took = timed([TETHER, "--headless", "--max-retries", "3", "--server", url, CONV])
    assert rc == 5 and len(err) == 4, (rc, err)
    assert not any("connection lost" in l or "reconnecting" in l for l in err), err
    for n, line in ((2, err[1]), (3, err[2])):
        assert re.fullmatch(r"tether: could not connect: %s; trying again in \d+\.\d s "
                            r"\(attempt %d\)" % (re.escape(why), n), line), err
    assert err[3] == ("tether: gave up connecting to %s after 3 failed attempts in a row "
                      "(--max-retries): %s" % (url, why)), err
    # Connected, then the server goes away: the drop is a lost connection, the retries that
    # find nobody listening are attempts that could not connect.
    s = Server("headless_chat.scenario")
    errf = tempfile.TemporaryFile(dir=TMP)
    p = subprocess.Popen([TETHER, "--headless", "--until", "never", "--max-retries", "2",
                          "--server", s.url, CONV], stdout=subprocess.PIPE, stderr=errf, env=ENV)
    os.set_blocking(p.stdout.fileno(), False)
    read_until(p, bytearray(), b"All **42** tests pass.")
    s.proc.kill()
    s.proc.wait(10)
    try:
        p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()
    errf.seek(0)
    err = errf.read().decode(errors="replace").splitlines()
    assert p.returncode == 5, (p.returncode, err)
    assert re.fullmatch(r"tether: connection lost(: .*)?; reconnecting in \d+\.\d s \(attempt \d\)",
                        err[0]), err
    rest = [l for l in err[1:-1] if "cannot reach the server" not in l]
    # The first retry goes at once and can meet the dying server, whose kernel still completes
    # a TCP handshake and then closes it: said as such; every later one finds nobody there.
    dying = "the connection failed or closed before a WebSocket handshake answer"
    attempt = r"tether: could not connect: %s; trying again in \d+\.\d s \(attempt \d\)"
    assert rest and all(re.fullmatch(attempt % re.escape(why), l) or
                        (k == 0 and re.fullmatch(attempt % re.escape(dying), l))
                        for k, l in enumerate(rest)), err
    assert err[-1].startswith("tether: gave up reconnecting to %s after 2 failed attempts" % s.url), err


def test_msg_server_starting_is_met():
    """tether started before its server (a CI job, a container coming up): the refusal is
    said within 1 s, once, and tether keeps trying until the server listens (cli.md: the first
    connect counts as an attempt), then does its job and exits 0."""
    url = closed_port_url()
    port = int(url.rsplit(":", 1)[1])
    errf = tempfile.TemporaryFile(dir=TMP)
    t0 = time.monotonic()
    p = subprocess.Popen([TETHER, "--headless", "--until", "synced", "--server", url, CONV],
                         stdout=subprocess.PIPE, stderr=errf, env=ENV)
    said = None
    while time.monotonic() - t0 < 3 and said is None:
        errf.seek(0)
        if b"cannot reach the server" in errf.read():
            said = time.monotonic() - t0
        time.sleep(0.02)
    s = Server("headless_chat.scenario", "--port", str(port))
    try:
        out, _ = p.communicate(timeout=30)
    finally:
        s.stop()
    errf.seek(0)
    err = errf.read().decode().splitlines()
    assert said is not None and said < AT_ONCE, (said, err)
    assert p.returncode == 0, (p.returncode, err)
    assert sum("cannot reach the server" in l for l in err) == 1, err
    assert b"All **42** tests pass." in out, out


def test_msg_dns_failure_at_once():
    """A name that does not exist: said in words at the first failure."""
    url = "http://nonexistent.invalid:8000"
    rc, err, took = unreachable_run(url)
    assert rc == 5 and took < AT_ONCE, (rc, err, took)
    assert len(err) == 2 and err[0].startswith(
        "tether: cannot reach the server at %s: DNS lookup of nonexistent.invalid: " % url) \
        and err[0].endswith(NEXT_SERVER), err


def test_msg_not_found_once():
    """A close 4004 (and a REST 404) is said once, with the id and tether list (was
    "connection closed: Conversation not found" and "conversation not found on this server")."""
    s = Server("close_4004.scenario")
    rc, out, err, took = timed([TETHER, "--headless", "--server", s.url, CONV])
    s.stop()
    assert (rc, err) == (4, ["tether: conversation %s not found at %s; tether list shows the "
                             "conversations there" % (CONV, s.url)]) and took < AT_ONCE, (rc, err, took)


def test_msg_no_session_socket():
    """A server whose REST finds the conversation but whose socket is 404: an older server."""
    s = Server("no_session_socket.scenario")
    rc, out, err, took = timed([TETHER, "--headless", "--server", s.url, CONV])
    other = "00000000-0000-4000-8000-000000000000"
    rc2, _, err2, _ = timed([TETHER, "--headless", "--server", s.url, other])
    s.stop()
    assert (rc, err) == (1, ["tether: the server at %s has conversation %s but no session socket "
                             "(HTTP 404 on /sockets/session); --protocol events uses the events "
                             "socket of agent-servers before 1.44" % (s.url, CONV)]) and took < AT_ONCE, (rc, err, took)
    assert (rc2, err2) == (4, ["tether: conversation %s not found at %s; tether list shows the "
                               "conversations there" % (other, s.url)]), (rc2, err2)


def test_msg_auth_at_once():
    """A 401 from REST ends the run as an authentication failure at once, headless and in the
    TUI (the socket alone waited for the server's 10 s auth timeout)."""
    s = Server("headless_auth.scenario")
    want = "tether: authentication failed at %s: the server wants a session API key and none was given%s" % (s.url, NEXT_KEY)
    rc, out, err, took = timed([TETHER, "--headless", "--server", s.url, CONV])
    assert (rc, err) == (3, [want]) and took < AT_ONCE, (rc, err, took)
    # The TUI asks for the key at once (issue 23); given none, it ends the same way.
    rc, err, took = tui_timed(s.url, CONV, give_up_key=True)
    assert (rc, err) == (3, [want]) and took < 3.0, (rc, err, took)
    rc, out, err, took = timed([TETHER, "list", "--server", s.url])
    assert (rc, err) == (3, [want]) and took < AT_ONCE, (rc, err, took)
    rc, out, err, took = timed([TETHER, "--headless", "--server", s.url, CONV],
                               env=dict(ENV, TETHER_SESSION_API_KEY="wrong-key-4242"))
    s.stop()
    assert (rc, err) == (3, ["tether: authentication failed at %s: the server refused the session "
                             "API key%s" % (s.url, NEXT_KEY)]) and took < AT_ONCE, (rc, err, took)


def make_cert(name, subj_alt, days="1"):
    key, pem = os.path.join(TMP, name + ".key"), os.path.join(TMP, name + ".pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", days,
                    "-subj", "/CN=tether-test", "-addext", "subjectAltName=" + subj_alt,
                    "-keyout", key, "-out", pem], check=True, capture_output=True)
    return key, pem


def make_expired_cert(name):
    """A certificate for 127.0.0.1 that expired in 2020 (openssl req cannot back-date; openssl
    ca signs it with explicit dates)."""
    d = os.path.join(TMP, name)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "index.txt"), "w").close()
    open(os.path.join(d, "serial"), "w").write("01\n")
    open(os.path.join(d, "ca.cnf"), "w").write(
        "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n"
        "default_md = sha256\npolicy = p\ncopy_extensions = copy\n[p]\ncommonName = supplied\n")
    subprocess.run(["openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "x.key",
                    "-out", "x.csr", "-subj", "/CN=tether-test", "-addext",
                    "subjectAltName=IP:127.0.0.1"], cwd=d, check=True, capture_output=True)
    subprocess.run(["openssl", "ca", "-config", "ca.cnf", "-batch", "-selfsign", "-keyfile", "x.key",
                    "-in", "x.csr", "-out", "x.pem", "-startdate", "20200101000000Z", "-enddate",
                    "20200102000000Z"], cwd=d, check=True, capture_output=True)
    return os.path.join(d, "x.key"), os.path.join(d, "x.pem")


def tls_server(key, pem):
    p = subprocess.Popen(["openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", pem, "-key", key,
                          "-www"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, text=True)
    for line in p.stdout:
        if line.startswith("ACCEPT "):
            return p, int(line.rsplit(":", 1)[1])
    raise AssertionError("openssl s_server did not start")


def test_msg_tls_in_words():
    """TLS failures in words (was "connect SSL err 1: error:00000001:lib(0)::reason(1)" for
    all of them, retried for a minute): https to a plain-HTTP port, a self-signed certificate,
    a certificate for another name, an expired one; each within 1 s."""
    s = Server("headless_chat.scenario")
    url = s.url.replace("http://", "https://")
    rc, err, took = unreachable_run(url)
    rc2, out2, err2, _ = timed([TETHER, "list", "--server", url])
    s.stop()
    want = ("tether: cannot reach the server at %s: TLS handshake failed: the server does not "
            "speak TLS there (a plain-HTTP server is reached with http:// or ws://)" % url)
    assert (rc, err[:1]) == (5, [want]) and len(err) == 2 and took < AT_ONCE, (rc, err, took)
    assert (rc2, err2) == (1, [want]), (rc2, err2)
    if subprocess.run(["sh", "-c", "command -v openssl"], capture_output=True).returncode:
        print("openssl missing: certificate cases skipped")
        return
    key, pem = make_cert("self", "IP:127.0.0.1")
    okey, opem = make_cert("other", "DNS:other.invalid")
    empty = os.path.join(TMP, "empty.pem")
    open(empty, "w").close()
    cases = [((key, pem), empty, "the server's certificate is self-signed, not trusted here "
              "(--insecure skips the check)"),
             ((okey, opem), opem, "the server's certificate is for another address")]
    ekey, epem = make_expired_cert("expired")
    cases.append(((ekey, epem), epem, "the server's certificate has expired"))
    for (k, p), trust, words in cases:
        srv, port = tls_server(k, p)
        try:
            url = "https://127.0.0.1:%d" % port
            rc, err, took = unreachable_run(url, env=dict(ENV, SSL_CERT_FILE=trust))
        finally:
            srv.terminate()
            srv.wait(10)
        assert (rc, err[:1]) == (5, ["tether: cannot reach the server at %s: TLS handshake failed: "
                                     "%s" % (url, words)]) and took < AT_ONCE, (rc, err, took)


def test_msg_gave_up_in_words():
    """Giving up names the server, the attempts and the last failure, without internal names
    (was "connection gave_up: …" then "gave up reconnecting (--max-retries exhausted)")."""
    s = Server("headless_gaveup.scenario")
    rc, out, err, took = timed([TETHER, "--headless", "--max-retries", "2", "--server", s.url, CONV])
    s.stop()
    assert rc == 5, (rc, err)
    assert len(err) == 2 and re.fullmatch(r"tether: connection lost: subscribe_failed; reconnecting "
                                          r"in \d+\.\d s \(attempt 2\)", err[0]), err
    assert err[1] == ("tether: gave up reconnecting to %s after 2 failed attempts in a row "
                      "(--max-retries): close 1011: subscribe_failed" % s.url), err


def test_msg_keyring_only_when_needed():
    """Without a D-Bus session bus: no keyring line unless the server wants a key (then the
    authentication failure says why the keyring gave none), and tether key set stores the key
    in the key file with a warning (issue 23)."""
    url = closed_port_url()
    nobus = {k: v for k, v in ENV.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    down = "tether: cannot reach the server at %s: connection refused (no server is listening there)%s" % (url, NEXT_SERVER)
    rc, out, err, _ = timed([TETHER, "list", "--server", url], env=dict(nobus, TETHER_SESSION_API_KEY="k-123"))
    assert (rc, err) == (1, [down]), (rc, err)
    # The key was looked up and not found, but this server never asked for one: no line.
    rc, out, err, _ = timed([TETHER, "list", "--server", url], env=nobus)
    assert (rc, err) == (1, [down]), (rc, err)
    # A server that wants a key: the failure says why the keyring gave none, once.
    s = Server("headless_auth.scenario")
    rc, out, err, _ = timed([TETHER, "--headless", "--server", s.url, CONV], env=nobus)
    s.stop()
    assert (rc, err) == (3, ["tether: authentication failed at %s: the server wants a session API "
                             "key and none was given (keyring: no D-Bus session bus "
                             "(DBUS_SESSION_BUS_ADDRESS unset)); set the key with tether key set or "
                             "TETHER_SESSION_API_KEY" % s.url]), (rc, err)
    conf = os.path.join(TMP, "nobus-config")
    rc, out, err, _ = timed([TETHER, "key", "set", "--server", url], stdin=b"key-abc-123\n",
                            env=dict(nobus, XDG_CONFIG_HOME=conf))
    keys = os.path.join(conf, "tether", "keys")
    assert (rc, err) == (0, ["tether: warning: keyring: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS "
                             "unset); the session API key for %s is stored in plain text in %s "
                             "(mode 0600)" % (url, keys)]), (rc, err)
    assert os.stat(keys).st_mode & 0o777 == 0o600


# ------------------------------------------------------------ issue 16: bounded headless dumps

def dump_history(events, fmt="ndjson"):
    """tether --headless dumps `events` generated events (outputs up to 8 KB) and a last
    message; returns (exit code, output path, peak RSS in KB, server). The peak is VmHWM,
    read until it exits (ru_maxrss would count the forking Python's pages). ASan's
    quarantine is held small so that freed memory is not counted as held."""
    scen = scenario_file("dump%d.scenario" % events,
                         "history %d obs_max=8192\nmessage agent \"DUMP-END\"\n" % events)
    s = Server(scen)
    out_path = os.path.join(TMP, "dump%d.%s" % (events, fmt))
    env = dict(ENV)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=4").lstrip(":")
    with open(out_path, "wb") as out, open(out_path + ".err", "wb") as err:
        p = subprocess.Popen([TETHER, "--headless", "--format", fmt, "--server", s.url, CONV],
                             stdout=out, stderr=err, env=env)
        hwm = 0
        while p.poll() is None:
            try:
                with open("/proc/%d/status" % p.pid) as st:
                    for line in st:
                        if line.startswith("VmHWM:"):
                            hwm = max(hwm, int(line.split()[1]))
            except OSError:
                pass
            time.sleep(0.01)
    s.stop()
    return p.returncode, out_path, hwm, s


def test_dump_20000_complete_rss_bounded():
    """A 20,000-event dump is complete and in order, and holding it is not what the client
    does: its peak RSS stays within a few MB of a 200-event dump's (it grew ~40 MB before the
    controller dropped what headless had written)."""
    rc, small_path, small_kb, _ = dump_history(200)
    assert rc == 0, (rc, open(small_path + ".err").read())
    rc, path, big_kb, s = dump_history(20000)
    assert rc == 0, (rc, open(path + ".err").read())
    with open(path, "rb") as f:
        lines = ndjson(f.read())
    check_invariants(lines, s.log())
    durables = [l for l in lines if l["type"] == "durable"]
    assert len(durables) == 20001, len(durables)
    assert durables[-1]["event"]["llm_message"]["content"][0]["text"] == "DUMP-END"
    why = "peak RSS %d KB, %d KB for 200 events" % (big_kb, small_kb)
    assert big_kb < small_kb + 16 * 1024 and big_kb < 64 * 1024, why



def test_rewrite_golden():
    """The ndjson rewrite of every event string (sanitize, mask, escape) writes exactly the
    bytes it wrote before it was made faster: escapes of every kind, raw and escaped unicode,
    lone surrogates and NUL, terminal controls, invisible characters, and secrets whole,
    escaped, hidden behind controls, doubled and split across fields; with and without
    secrets to mask. tests/data/rewrite/expected*.ndjson were written by the client before
    issue 16's throughput work."""
    base = os.path.join(DATA, "rewrite")
    for extra, golden in (((), "expected.ndjson"),
                          (("--mask-file", os.path.join(base, "mask")), "expected_masked.ndjson")):
        s = Server("rewrite.scenario")
        rc, out, err = run(s, "--format", "ndjson", "--until", "idle", *extra)
        s.stop()
        assert rc == 0, (rc, err)
        got = [l for l in out.split(b"\n") if b'"id":"00000000-0000-4000-8000-' in l]
        want = open(os.path.join(base, golden), "rb").read().split(b"\n")[:-1]
        assert len(got) == len(want) == 10, (golden, len(got), len(want))
        for g, w in zip(got, want):
            assert g == w, "%s: line differs:\n got %r\nwant %r" % (golden, g, w)


# tether watch (issue 17): every conversation's status changes, polled over REST.
WATCH_MAIN = "5f2c9b7e"
EM, ARROW = "\u2014", "\u2192"


def watch(url, *args, timeout=30):
    """Runs tether watch to its end: (rc, stdout text lines, stderr text lines, seconds)."""
    rc, out, err, took = timed([TETHER, "watch", "--server", url] + list(args))
    assert b"AddressSanitizer" not in out, out
    return rc, out.decode("utf-8").splitlines(), err, took


def watch_mask():
    path = os.path.join(TMP, "watch.mask")
    open(path, "w").write("watch-secret-42\n")
    return path


def test_watch_text_lines_exit_7():
    """Text: a line per conversation at start (from "—"), then a line per change (one that
    finished, one that disappeared); the conversation going to waiting_for_confirmation after
    3 s is printed, then tether exits 7 within one interval of it."""
    s = Server("watch.scenario")
    rc, out, err, took = watch(s.url, "--interval", "0.5", "--mask-file", watch_mask())
    s.stop()
    assert rc == 7, (rc, out, err)
    # Issue 23: why it exits 7, and the next step.
    aaaa = "aaaa0001-1111-4111-8111-111111111111"
    assert err == ["tether: watch: conversation %s (Build the docs) waits for confirmation; "
                   "exit 7 (answer with tether confirm|reject %s; --on-confirm wait keeps "
                   "watching)" % (aaaa, aaaa)], err
    assert out[:5] == [
        "%s Main conversation: %s %s idle" % (WATCH_MAIN, EM, ARROW),
        "aaaa0001 Build the docs: %s %s running" % (EM, ARROW),
        "bbbb0002 Run the tests: %s %s running" % (EM, ARROW),
        "cccc0003 Old experiment: %s %s paused" % (EM, ARROW),
        "dddd0004 evil red <secret-hidden>: %s %s idle" % (EM, ARROW)], out
    assert out[5:] == [
        "bbbb0002 Run the tests: running %s finished" % ARROW,
        "cccc0003 Old experiment: paused %s gone" % ARROW,
        "aaaa0001 Build the docs: running %s waiting_for_confirmation" % ARROW], out
    assert took < 3 + 0.5 + AT_ONCE, took


def test_watch_10000_conversations():
    """A server with more than 10,000 conversations (was: given up past 100 pages, said as an
    unexpected answer): every one is listed at start, the changes among the newest are seen,
    and only the first poll walks every page — the others ask the newest page, and the next
    one only when the first changed."""
    text = open(os.path.join(DATA, "watch.scenario")).read() + "list_synth 10200\n"
    s = Server(None, "--scenario", scenario_file("watch_big.scenario", text))
    rc, out, err, took = watch(s.url, "--interval", "0.5", "--mask-file", watch_mask())
    s.stop()
    assert rc == 7, (rc, out[-5:], err)
    assert len(err) == 1 and err[0].startswith("tether: watch: conversation aaaa0001-") \
        and "waits for confirmation; exit 7" in err[0], err
    assert len(out) == 5 + 10200 + 3, (len(out), out[-5:])
    assert out[5 + 10199] == "5e000000 Synth 10199: %s %s idle" % (EM, ARROW), out[5 + 10199]
    assert out[-3:] == [
        "bbbb0002 Run the tests: running %s finished" % ARROW,
        "cccc0003 Old experiment: paused %s gone" % ARROW,
        "aaaa0001 Build the docs: running %s waiting_for_confirmation" % ARROW], out[-3:]
    asks = [l for l in s.traffic_lines() if l.startswith("rest GET /api/conversations/search")]
    assert all("sort_order=UPDATED_AT_DESC" in l for l in asks), asks[:3]
    polls = sum(1 for l in asks if "page_id=" not in l)
    # At least one poll after the first walk (a sanitizer build under load walks the 103
    # pages slowly, so the number of polls before the exit is not fixed).
    assert polls >= 2, asks
    assert len(asks) <= 103 + 2 * (polls - 1), (polls, len(asks))


def test_watch_ndjson_lines():
    """ndjson: {"type":"status","id","title","from","to","at"}; from null at start, "gone"
    for a conversation that disappeared; --on-confirm wait goes on past the confirmation."""
    s = Server("watch.scenario")
    p = subprocess.Popen([TETHER, "watch", "--format", "ndjson", "--on-confirm", "wait",
                          "--interval", "0.3", "--server", s.url], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=ENV)
    time.sleep(4.5)
    assert p.poll() is None, "--on-confirm wait must not exit"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=10)
    s.stop()
    assert p.returncode == 130, (p.returncode, err)
    lines = ndjson(out)
    for l in lines:
        assert set(l) == {"type", "id", "title", "from", "to", "at"}, l
        assert l["type"] == "status" and re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", l["at"]), l
    got = [(l["id"][:8], l["from"], l["to"]) for l in lines]
    assert got == [(WATCH_MAIN, None, "idle"), ("aaaa0001", None, "running"),
                   ("bbbb0002", None, "running"), ("cccc0003", None, "paused"),
                   ("dddd0004", None, "idle"), ("bbbb0002", "running", "finished"),
                   ("cccc0003", "paused", "gone"),
                   ("aaaa0001", "running", "waiting_for_confirmation")], got
    assert lines[1]["title"] == "Build the docs" and lines[1]["id"] == "aaaa0001-1111-4111-8111-111111111111"


def test_watch_hostile_title_clean_masked():
    """A title with escape sequences and a local secret (--mask-file) is printed clean and
    masked in both formats."""
    for fmt in ("text", "ndjson"):
        s = Server("watch.scenario")
        rc, out, err, took = timed([TETHER, "watch", "--format", fmt, "--server", s.url,
                                    "--mask-file", watch_mask()])
        s.stop()
        assert rc == 7, (fmt, rc, err)
        assert b"watch-secret-42" not in out and b"<secret-hidden>" in out, out
        assert_no_controls(out.replace(b"\n", b""), "watch " + fmt)
        assert b"pwned" not in out, out


def test_watch_until_idle():
    """--until idle: exit 0 once nothing runs or waits; 6 when then any ended in error or
    stuck."""
    for then, want in (("finished", 0), ("error", 6), ("stuck", 6)):
        path = scenario_file("watch_idle.scenario", 'list_extra aaaa0001-1111-4111-8111-111111111111 '
                             'running "Build" then=%s after=1\n' % then)
        s = Server(None, "--scenario", path)
        rc, out, err, took = watch(s.url, "--until", "idle", "--interval", "0.3")
        s.stop()
        assert rc == want, (then, rc, out, err)
        assert out[-1] == "aaaa0001 Build: running %s %s" % (ARROW, then), out
        # Issue 23: an exit 6 names the conversation and how it ended; 0 says nothing.
        why = {"finished": [], "error": ["ended in error"], "stuck": ["is stuck"]}[then]
        assert err == ["tether: watch: no conversation runs or waits, and conversation "
                       "aaaa0001-1111-4111-8111-111111111111 (Build) %s; exit 6" % w
                       for w in why], (then, err)
        assert took < 1 + 0.3 + AT_ONCE, took


def test_watch_auth_3():
    """A server that refuses the key: said at once, exit 3."""
    s = Server("headless_auth.scenario")
    rc, out, err, took = watch(s.url)
    s.stop()
    assert rc == 3 and out == [] and len(err) == 1 and "authentication failed" in err[0], (rc, out, err)
    assert took < AT_ONCE, took


def test_watch_server_down_recovers():
    """No server at the first poll: one line within 1 s; when the server comes up, "answers
    again", and the watch goes on (here to the waiting conversation: exit 7)."""
    url = closed_port_url()
    want = "tether: watch: cannot reach the server at %s: connection refused (no server is listening there)%s" % (url, NEXT_SERVER)
    rc, out, err, took = watch(url, "--max-retries", "1")
    why = "connection refused (no server is listening there)"
    assert (rc, err) == (5, [want, "tether: watch: " + gave_up_line(url, why)[8:]]), (rc, err)
    errf = os.path.join(TMP, "watch.err")
    t0 = time.monotonic()
    p = subprocess.Popen([TETHER, "watch", "--server", url], stdout=subprocess.PIPE,
                         stderr=open(errf, "w"), env=ENV)
    while "cannot reach" not in open(errf).read():
        assert time.monotonic() - t0 < AT_ONCE, "the refusal was not said at once"
        time.sleep(0.02)
    path = scenario_file("watch_wait.scenario", 'list_extra aaaa0001-1111-4111-8111-111111111111 '
                         'waiting_for_confirmation "Build"\n')
    s = Server(None, "--scenario", path, "--port", url.rsplit(":", 1)[1])
    out, _ = p.communicate(timeout=30)
    s.stop()
    err = open(errf).read().splitlines()
    assert p.returncode == 7, (p.returncode, out, err)
    assert want == "tether: watch: cannot reach the server at %s: connection refused (no server is listening there)%s" % (url, NEXT_SERVER)
    assert err[:2] == [want, "tether: watch: the server at %s answers again" % url], err
    assert len(err) == 3 and "waits for confirmation; exit 7" in err[2], err
    assert out.decode().splitlines()[-1] == "aaaa0001 Build: %s %s waiting_for_confirmation" % (EM, ARROW)


def test_watch_epipe_141():
    """`tether watch | head -1`: the next write finds the reader gone: exit 141, quietly."""
    s = Server("watch.scenario")
    for fmt in ("text", "ndjson"):
        cmd = "%s watch --format %s --on-confirm wait --interval 0.3 --server %s | head -1; exit ${PIPESTATUS[0]}" % (
            TETHER, fmt, s.url)
        p = subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=30, env=ENV)
        assert p.returncode == 141, (fmt, p.returncode, p.stderr)
        assert len(p.stdout.splitlines()) == 1 and p.stderr == b"", (p.stdout, p.stderr)
    s.stop()


def test_watch_usage_2():
    """Usage errors are one line and exit 2; --help lists the command."""
    for args in (["--bogus"], ["--interval", "0"], ["--interval", "abc"], ["--interval", "0.01"],
                 ["--until", "finished"], ["--on-confirm", "accept"], ["--format", "json"],
                 ["extra"], ["--send", "hi"]):
        rc, out, err, took = timed([TETHER, "watch", "--server", "http://127.0.0.1:1"] + args)
        assert rc == 2 and out == b"" and len(err) == 1, (args, rc, out, err)
    rc, out, err, took = timed([TETHER, "--interval", "1", CONV])
    assert rc == 2 and err == ["tether: --interval goes only with tether watch"], (rc, err)
    p = subprocess.run([TETHER, "--help"], capture_output=True, env=ENV)
    assert b"tether watch" in p.stdout and b"--interval" in p.stdout
    rc, out, err, took = timed([TETHER, "wacth"])
    assert rc == 2 and "(did you mean watch?)" in err[0], (rc, err)


# Issue 17 (flaky send_stdin_lines): --until idle with --send ends at a run's end only when a
# running status or the message's echo came after the last message went out.
def read_until(p, out, marker, timeout=20):
    """Reads p's stdout (non-blocking) into out (a bytearray) until marker is in it."""
    deadline = time.time() + timeout
    while marker not in out and time.time() < deadline and p.poll() is None:
        chunk = p.stdout.read()
        if chunk:
            out += chunk
        else:
            time.sleep(0.02)
    assert marker in out, (marker, bytes(out))


def send_lines_during_run(s, before, during, timeout):
    """Runs `tether --headless --format ndjson --send -` against s: writes the lines before,
    waits for the first running status, writes the lines during and closes stdin. Returns
    (exit code, stderr, stdout) once tether exits (killed after timeout s)."""
    errf = tempfile.TemporaryFile(dir=TMP)
    p = subprocess.Popen([TETHER, "--headless", "--format", "ndjson", "--send", "-",
                          "--server", s.url, CONV], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=errf, env=ENV)
    os.set_blocking(p.stdout.fileno(), False)
    out = bytearray()
    p.stdin.write(before)
    p.stdin.flush()
    read_until(p, out, b'{"type":"status","execution_status":"running"}')
    p.stdin.write(during)
    p.stdin.close()
    try:
        p.wait(timeout)
    finally:
        if p.poll() is None:
            p.kill()
    out += p.stdout.read() or b""
    s.stop()
    errf.seek(0)
    return p.returncode, errf.read(), bytes(out)


def test_send_stdin_second_run():
    """The second line goes out while the first run goes on; the server reads it only after
    that run's idle (as upstream's state lock can): tether stays for the second run."""
    s = Server("headless_send_after_run.scenario", "--echo-after-run")
    code, err, out = send_lines_during_run(s, b"line one\n", b"line two\n", 30)
    assert code == 0, (code, err)
    recv = [json.loads(l.split(" ", 2)[2]) for l in s.traffic_lines() if l.startswith("recv ")]
    assert [r["content"][0]["text"] for r in recv] == ["line one", "line two"], recv
    lines = ndjson(out)
    check_invariants(lines)
    texts = [json.dumps(l) for l in lines]
    echo = [i for i, t in enumerate(texts) if '"text": "line two"' in t and '"durable"' in t]
    assert echo, ("the echo of line two", texts)
    answered = [i for i, t in enumerate(texts) if '"text": "answered"' in t and '"durable"' in t]
    assert len(answered) == 2 and answered[1] > echo[0], texts
    statuses = [l["execution_status"] for l in lines if l["type"] == "status"]
    assert statuses[-1] == "idle" and statuses.count("running") == 2, statuses


def test_send_joins_run():
    """A line sent while a run goes on, echoed during it, with no second running (as
    upstream's agent takes it into the run): the run's end (finished, as upstream's) ends
    tether, exit 0."""
    s = Server("headless_send_joins_run.scenario")
    code, err, out = send_lines_during_run(s, b"", b"join this\n", 20)
    assert code == 0, (code, err, out)
    lines = ndjson(out)
    check_invariants(lines)
    texts = [json.dumps(l) for l in lines]
    assert any('"text": "join this"' in t for t in texts), texts
    assert [l["execution_status"] for l in lines if l["type"] == "status"][-1] == "finished"


# Issue 23: --until idle with --send ends only after the answer to the last message sent.
def both_lines_answered(s, first="first", second="second", args=False):
    """`printf 'first\nsecond\n' | tether --send -`: both lines go out at once; tether must
    stay until the run that answers the second has ended (was: it left at the first idle).
    With args, the two messages are `--send first --send second`."""
    if args:
        rc, out, err = run(s, "--format", "ndjson", "--send", first, "--send", second, timeout=30)
    else:
        rc, out, err = run(s, "--format", "ndjson", "--send", "-",
                           stdin=("%s\n%s\n" % (first, second)).encode(), timeout=30)
    s.stop()
    assert rc == 0, (rc, err)
    recv = [json.loads(l.split(" ", 2)[2]) for l in s.traffic_lines() if l.startswith("recv ")]
    assert [r["content"][0]["text"] for r in recv] == [first, second], recv
    lines = ndjson(out)
    check_invariants(lines)
    texts = [json.dumps(l) for l in lines]
    echo = [i for i, t in enumerate(texts) if '"text": "%s"' % second in t and '"durable"' in t]
    answered = [i for i, t in enumerate(texts) if '"text": "answered"' in t and '"durable"' in t]
    assert echo and len(answered) == 2 and answered[1] > echo[-1], texts
    statuses = [l["execution_status"] for l in lines if l["type"] == "status"]
    assert statuses[-1] == "idle" and statuses.count("running") == 2, statuses


def test_send_stdin_both_new_run():
    """The server reads the second line only after the first run's idle, then runs it."""
    both_lines_answered(Server("headless_send_after_run.scenario", "--echo-after-run"))


def test_send_stdin_both_queued():
    """The server shows the second line during the first run (queued), ends that run idle,
    then answers the second in a run of its own."""
    both_lines_answered(Server("headless_send_after_run.scenario"))


def test_send_twice_queued():
    """The class, not the instance: `--send first --send second` go out together too."""
    both_lines_answered(Server("headless_send_after_run.scenario"), args=True)


def test_send_stdin_same_line_twice():
    """The same line twice, queued: the first echo is the first line's, not the last's."""
    both_lines_answered(Server("headless_send_after_run.scenario"), "again", "again")


# Issue 17: a secret split across two content parts of one event (message, thought,
# observation) is masked: the parts are one text to the reader.
SPLIT_PIECES = (b"parts-se", b"cret-77")


def split_mask():
    path = os.path.join(TMP, "split.mask")
    open(path, "w").write("parts-secret-77\n")
    return path


def test_split_parts_secret_nowhere():
    """Headless text and ndjson, --record and --log: neither piece of the secret, and the
    parts read as one masked text."""
    for fmt in ("text", "ndjson"):
        s = Server("split_parts.scenario")
        log, rec = os.path.join(TMP, "split-log-" + fmt), os.path.join(TMP, "split-rec-" + fmt)
        rc, out, err = run(s, "--format", fmt, "--mask-file", split_mask(), "--log", log,
                           "--record", rec)
        s.stop()
        assert rc == 0, (fmt, rc, err)
        for name, blob in (("stdout", out), ("stderr", err), ("log", open(log, "rb").read()),
                           ("record", open(rec, "rb").read())):
            for piece in SPLIT_PIECES:
                assert piece not in blob, "%r in %s (%s): %r" % (piece, name, fmt, blob)
        if fmt == "text":
            assert b"the key is <secret-hidden> ok" in out and b"using <secret-hidden> now" in out, out
        else:
            events = [l["event"] for l in ndjson(out) if l["type"] == "durable"]
            msg = [e for e in events if e.get("kind") == "MessageEvent"][0]
            assert [p["text"] for p in msg["llm_message"]["content"]] == \
                ["the key is <secret-hidden> ok", ""], msg
            obs = [e for e in events if e.get("kind") == "ObservationEvent"][0]
            assert obs["observation"]["content"][0]["text"] == "out <secret-hidden> end", obs


def test_tui_split_parts_secret():
    """The TUI shows the message, the thought and the output as one text each, masked."""
    s = Server("split_parts.scenario")
    sock = "tether-split-%d" % os.getpid()
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]

    def screen():
        return subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True, text=True).stdout

    try:
        subprocess.run(tmux + ["new-session", "-d", "-x", "100", "-y", "30", "-e", "LANG=C.UTF-8",
                               "%s --mask-file %s --server %s %s; sleep 30" % (
                                   TETHER, split_mask(), s.url, CONV)], check=True, env=ENV)
        deadline = time.time() + 15
        while time.time() < deadline and "using <secret-hidden> now" not in screen():
            time.sleep(0.1)
        text = screen()
        assert "the key is <secret-hidden> ok" in text and "using <secret-hidden> now" in text, text
        assert "out <secret-hidden> end" in text, text
        for piece in SPLIT_PIECES:
            assert piece.decode() not in text, text
    finally:
        tmux_kill_server(tmux)
        s.stop()


USAGE_SECRET = "sk-usage-secret-4242"
USAGE_REPORT = (
    "anthropic/claude-sonnet-4-5 (agent): $0.42\n"
    "  182,340 in (150,112 cache read, 20,480 cache write) · 5,120 out\n"
    "openai/gpt-5-<secret-hidden> (ask-agent-llm): $0.01\n"
    "  900 in · 40 out\n"
    "context: 48,211 of 200,000 tokens (24%)\n"
    "total: $0.43 · 188,400 tokens\n")


def check_usage(u):
    assert u["model"] == "anthropic/claude-sonnet-4-5", u
    assert abs(u["cost"] - 0.4334) < 1e-9 and u["tokens"] == 188400, u
    assert (u["context_used"], u["context_window"]) == (48211, 200000), u
    assert [x["usage_id"] for x in u["usage"]] == ["agent", "ask-agent-llm"], u
    agent, ask = u["usage"]
    assert (agent["prompt_tokens"], agent["completion_tokens"], agent["cache_read_tokens"],
            agent["cache_write_tokens"], agent["per_turn_tokens"]) == (182340, 5120, 150112, 20480, 48211), agent
    assert ask["model"] == "openai/gpt-5-<secret-hidden>", ask


def test_usage_line():
    """Issue 25: headless ndjson says the usage when the stats change (a `usage` line after the
    stats update; the snapshot repeating them adds none), cleaned and masked."""
    mask = scenario_file("usage.mask", USAGE_SECRET + "\n")
    s = Server("usage.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--until", "synced", "--mask-file", mask)
    s.stop()
    assert rc == 0, (rc, err)
    assert USAGE_SECRET.encode() not in out and b"\x1b" not in out and b"\\u001b" not in out, out
    lines = ndjson(out)
    check_invariants(lines, s.log())
    usage = [l for l in lines if l["type"] == "usage"]
    assert len(usage) == 1, usage
    check_usage(usage[0])
    # right after the durable stats update that carried it
    at = lines.index(usage[0])
    assert lines[at - 1]["type"] == "durable" and lines[at - 1]["event"]["key"] == "stats", lines[at - 1]
    # text mode: no usage line
    s = Server("usage.scenario")
    rc, out, err = run(s, "--format", "text", "--until", "synced", "--mask-file", mask)
    s.stop()
    assert rc == 0 and b"usage" not in out and b"$0.4" not in out, (rc, out)


def test_usage_command():
    """tether usage ID: the conversation's usage from its ConversationInfo (GET), per model in
    text, one object in json and ndjson; the server's strings cleaned; a missing conversation
    exit 4 in words; a conversation without stats says so."""
    mask = scenario_file("usage.mask", USAGE_SECRET + "\n")
    s = Server("usage.scenario")
    rc, out, err = tether("usage", "--mask-file", mask, "--server", s.url, CONV)
    assert (rc, err) == (0, []), (rc, err)
    assert out.decode() == USAGE_REPORT, out.decode()
    rc, out, err = tether("usage", "--format", "json", "--mask-file", mask, "--server", s.url, CONV)
    assert rc == 0, (rc, err)
    u = json.loads(out)
    assert u["id"] == CONV and u["reported"] is True, u
    check_usage(u)
    rc, out, err = tether("usage", "--format", "ndjson", "--mask-file", mask, "--server", s.url, CONV)
    assert rc == 0 and out.count(b"\n") == 1, (rc, out, err)
    u = json.loads(out)
    assert u["type"] == "usage" and u["id"] == CONV, u
    check_usage(u)
    other = "00000000-0000-4000-8000-000000000000"
    rc, out, err = tether("usage", "--server", s.url, other)
    s.stop()
    assert (rc, out) == (4, b""), (rc, out, err)
    assert err == ["tether: usage: conversation %s not found at %s; tether list shows the "
                   "conversations there" % (other, s.url)], err
    assert rest_lines(s)[-4:] == ["rest GET /api/conversations/%s 200" % CONV] * 3 + [
        "rest GET /api/conversations/%s 404" % other], rest_lines(s)
    # a server whose answer has no stats
    s = Server("headless_chat.scenario")
    rc, out, err = tether("usage", "--server", s.url, CONV)
    rc2, out2, _ = tether("usage", "--format", "json", "--server", s.url, CONV)
    s.stop()
    assert (rc, rc2) == (0, 0), (rc, err)
    assert out == b"no usage yet: no LLM call was reported\n", out
    u = json.loads(out2)
    assert u["reported"] is True and u["usage"] == [] and u["cost"] == 0, u
    rc, out, err = tether("usage", "--server", s.url)
    assert (rc, err) == (2, ["tether: usage: tether usage CONVERSATION_ID"]), (rc, err)


def durable_ids(lines):
    return [l["event"]["id"] for l in lines if l["type"] == "durable"]


def test_resume_100_cuts():
    """1,000 durable events with the socket cut at 100 random points (between frames and inside
    them): every durable event reaches the output exactly once — on the legacy socket too,
    which has no seq (resend since the last durable's timestamp, deduplicated by id)."""
    # On the events socket the history, and on each reconnect what was missed, comes through
    # REST and the socket carries only the live part, where each connection is cut only after
    # an event it had not got: more of the 1,000 events are live there (900), so that 100
    # connections see one each; the cuts among the first 600 frames.
    legacy = ["--set", "history=99", "--set", "rounds=150", "--set", "span=600"]
    s = Server("resume1000.scenario", *(legacy if PROTOCOL == "events" else []))

    def caught_up(out):
        n = open(s.durable).read().count("\n")
        return n == 1000 and out.count(b'"type":"durable"') >= n
    rc, out, err = run_until(s, caught_up, timeout=120)
    s.stop()
    assert rc == 130, (rc, err[-2000:])
    cuts = sum(1 for l in s.traffic_lines() if l.startswith("fault ") and " cut " in l)
    assert cuts == 100, "the fixture must have cut 100 times, cut %d" % cuts
    lines = ndjson(out)
    check_invariants(lines)
    ids, log = durable_ids(lines), [i for _, i in s.log()]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    assert not dup, "durable events twice: %s" % dup[:5]
    missing = [i for i in log if i not in set(ids)]
    assert not missing, "%d durable events lost, first %s" % (len(missing), missing[:3])
    assert ids == log, "durable events out of the log's order"


def test_until_finished_after_reconnect():
    """The run ends while the connection is down: --until finished ends only after the events
    that ended it are out (on the events socket the snapshot that says finished comes before
    the resend of what was missed)."""
    s = Server("until_after_drop.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--until", "finished", timeout=30)
    s.stop()
    assert rc == 0, (rc, err)
    lines = ndjson(out)
    check_invariants(lines)
    assert durable_ids(lines) == [i for _, i in s.log()], "events missing at the end"
    assert has_agent_text(lines, "LAST-WORDS")


def test_fallback_silent():
    """--protocol auto against an older server: the refused session upgrade moves the same
    attempt to the events socket in silence (nothing on stderr, no reconnect), named only in
    the ndjson connection lines."""
    s = Server("headless_chat.scenario")
    rc, out, err = run(s, "--format", "ndjson", "--until", "synced")
    s.stop()
    assert rc == 0 and err == b"", (rc, err)
    lines = ndjson(out)
    conns = [(l["state"], l.get("socket"), l["attempt"]) for l in lines if l["type"] == "connection"]
    tried = [("connecting", "session", 1)] + ([("connecting", "events", 1)] if PROTOCOL == "events" else [])
    assert conns == tried + [("open", PROTOCOL, 1)], conns
    assert lines[-1]["type"] == "result" and lines[-1]["reconnects"] == 0, lines[-1]


def socket_close_in_words(scenario, rc_want, line):
    """--protocol events against a socket that closes every connection: the exit code, the
    cause in words as the last line, no second attempt."""
    s = Server(scenario)
    rc, out, err = run(s, "--format", "text", "--protocol", "events")
    s.stop()
    err = err.decode().splitlines()
    assert rc == rc_want and err and err[-1] == line % s.url, (rc, err)
    conns = [l for l in s.traffic_lines() if l.startswith("conn ")]
    assert len(conns) == 1 and " events " in conns[0], conns


def test_socket_4001_in_words():
    """The events socket's close 4001 (its key check after accept): exit 3, said in words."""
    socket_close_in_words("close_4001.scenario", 3, "tether: authentication failed at %s: the "
                          "server wants a session API key and none was given" + NEXT_KEY)


def test_socket_4004_in_words():
    """The events socket's close 4004 (another conversation): exit 4, said in words."""
    socket_close_in_words("close_4004.scenario", 4, "tether: conversation " + CONV + " not "
                          "found at %s; tether list shows the conversations there")


def test_nulls_from_a_1_30_server():
    """A server before 1.31.2 sends unset optional fields as null on the events socket: read as
    absent — the same text as from a newer server, every durable once."""
    texts = []
    for version in ("1.30.0", OLDER_SERVER):
        s = Server("headless_chat.scenario", "--older-server", version)
        rc, out, err = run(s, "--format", "text")
        rc2, out2, err2 = run(s, "--format", "ndjson")
        s.stop()
        assert (rc, rc2) == (0, 0), (version, rc, err, rc2, err2)
        lines = ndjson(out2)
        check_invariants(lines)
        assert durable_ids(lines) == [i for _, i in s.log()], version
        texts.append(out)
    assert b"null" not in texts[0] and texts[0] == texts[1], texts


def test_late_delta_never_shown():
    """A delta that arrives after the durable message it became (the legacy socket sends deltas
    apart from durable events): the stream is retired by the message and the late delta is
    dropped — not shown again, no new stream."""
    for fmt in ("ndjson", "text"):
        s = Server("late_delta.scenario")
        rc, out, err = run(s, "--format", fmt, "--send", "go")
        s.stop()
        assert rc == 0, (rc, err)
        if fmt == "text":
            text = out.decode()
            assert text.count("Hello world") == 1 and "LATE-END" in text, text
            after = text.split("Hello world", 1)[1].split("LATE-END", 1)[0]
            assert "ld" not in after, "the late delta was shown: %r" % after
            continue
        lines = ndjson(out)
        check_invariants(lines)
        streams = [l for l in lines if l["type"] == "stream"]
        assert [l["state"] for l in streams].count("started") == 1, streams
        i = next(k for k, l in enumerate(lines) if l["type"] == "durable" and
                 "Hello world" in json.dumps(l["event"]))
        late = [l for l in lines[i:] if l["type"] == "stream" and l["state"] != "retired"]
        assert not late, "stream lines after the durable message: %s" % late
        assert has_agent_text(lines, "Hello world") and has_agent_text(lines, "LATE-END")


harness.main(globals())
