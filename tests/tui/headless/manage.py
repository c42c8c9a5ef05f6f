#!/usr/bin/env python3
"""End-to-end tests of the conversation managers (issue 25: tether new, fork, rename, rm, ask,
compact, model, goal, policy, server-info) against the loopback fixture server: what each
prints (text, ndjson, json), its exit code, and the requests the server saw, exactly.

usage: manage.py TETHER FIXTURE_SERVER DATA_DIR TEST_NAME
"""
import json, os, subprocess, sys, time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import harness  # noqa: E402 (tests/harness.py)
from harness import TETHER, TMP  # noqa: E402

CONV = "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91"
OTHER = "0d0d0d0d-0000-4000-8000-000000000000"
ROUTE = "/api/conversations/" + CONV
ENV = dict(os.environ, LANG="C.UTF-8")
ENV.pop("TETHER_SESSION_API_KEY", None)
ENV["XDG_STATE_HOME"] = os.path.join(TMP, "state")


class Server(harness.Server):
    def rest(self):
        """The requests the server answered, without the version asked first by each."""
        return [l for l in self.traffic_lines()
                if l.startswith("rest ") and l != "rest GET /server_info 200"]


def tether(s, *args, env=None):
    p = subprocess.run([TETHER, "--server", s.url] + list(args), capture_output=True,
                       timeout=30, stdin=subprocess.DEVNULL, env=env or ENV)
    return p.returncode, p.stdout.decode(), p.stderr.decode().splitlines()


class Terminal:
    """A shell line run in a tmux pane, where tether's questions are asked."""

    def __init__(self, name):
        self.sock = ["tmux", "-L", "tether-%s-%d" % (name, os.getpid()), "-f", "/dev/null"]

    def run(self, line):
        subprocess.run(self.sock + ["new-session", "-d", "-x", "160", "-y", "12", "-e",
                                    "LANG=C.UTF-8", line + "; sleep 30"], check=True, env=ENV)

    def screen(self):
        return subprocess.run(self.sock + ["capture-pane", "-p", "-J"], capture_output=True,
                              text=True).stdout

    def wait_for(self, text, times=1):
        deadline = time.time() + 20
        while time.time() < deadline and self.screen().count(text) < times:
            time.sleep(0.1)
        assert self.screen().count(text) >= times, self.screen()

    def keys(self, *keys):
        subprocess.run(self.sock + ["send-keys"] + list(keys), check=True)

    def no_then_yes(self, question):
        """Answers n to the first of two runs asking question, y to the second; the screen."""
        self.wait_for(question)
        self.keys("n", "Enter")
        self.wait_for("EXIT=1")
        self.wait_for(question, 2)  # keys typed before the question are flushed by it
        self.keys("y", "Enter")
        self.wait_for("EXIT=0")
        return self.screen()

    def close(self):
        subprocess.run(self.sock + ["kill-server"], capture_output=True)


def test_new_prints_id():
    """tether new launches the active agent profile (the first list seeds default), in the
    working directory, with the message; --title is a PATCH after it (upstream's start has no
    title) and turns autotitle off. Text: the id alone; ndjson: one created line."""
    s = Server("control.scenario")
    rc, out, err = tether(s, "new", "--title", "Fix the parser", "--workdir", "/srv/app", "hi")
    rc2, out2, err2 = tether(s, "new", "--format", "ndjson")
    rc3, out3, err3 = tether(s, "new", "-q")
    s.stop()
    made = "c0000000-0000-4000-8000-000000000001"
    # -q silences what was done, never the id a script asked for
    assert (rc3, out3, err3) == (0, made[:-1] + "3\n", []), (rc3, out3, err3)
    assert (rc, out, err) == (0, made + "\n", []), (rc, out, err)
    assert rc2 == 0 and err2 == [], (rc2, err2)
    assert json.loads(out2) == {"type": "created", "id": made[:-1] + "2", "title": None}, out2
    profile = "a9000000-0000-4000-8000-000000000001"
    assert s.rest() == [
        "rest GET /api/agent-profiles 200",
        'rest POST /api/conversations 201 {"agent_profile_id":"%s","workspace":{"working_dir":'
        '"/srv/app"},"initial_message":{"role":"user","content":[{"type":"text","text":"hi"}],'
        '"run":true},"autotitle":false}' % profile,
        'rest PATCH /api/conversations/%s 200 {"title":"Fix the parser"}' % made,
        "rest GET /api/agent-profiles 200",
        'rest POST /api/conversations 201 {"agent_profile_id":"%s","workspace":{"working_dir":'
        '"%s"},"autotitle":true}' % (profile, os.getcwd()),
    ] + s.rest()[5:], s.rest()
    assert len(s.rest()) == 7, s.rest()


def test_new_profiles():
    """--profile picks by name; an unknown one names those there (exit 4)."""
    s = Server("control.scenario", "--agent-profile", "coder", "--agent-profile", "reviewer")
    rc, out, err = tether(s, "new", "--profile", "reviewer")
    rc2, out2, err2 = tether(s, "new", "--profile", "nobody")
    s.stop()
    assert rc == 0 and out.strip() == "c0000000-0000-4000-8000-000000000001", (rc, out, err)
    assert '"agent_profile_id":"a9000000-0000-4000-8000-000000000002"' in s.rest()[1], s.rest()
    assert (rc2, out2) == (4, ""), (rc2, out2, err2)
    assert err2 == ["tether: new: the server has no agent profile nobody (it has: coder, "
                    "reviewer)"], err2


def test_new_then_runs():
    """tether new --send … --until …: the id, then a headless run on the new conversation."""
    s = Server("control.scenario")
    rc, out, err = tether(s, "new", "--send", "hello", "--until", "synced", "--format", "ndjson")
    s.stop()
    lines = [json.loads(l) for l in out.splitlines()]
    assert rc == 0 and lines[0]["type"] == "created", (rc, out, err)
    assert lines[-1]["type"] == "result", lines


def test_fork_rename_rm():
    """fork (titled; from an unknown event), rename, rm --yes: each says what the server did;
    rm without --yes and without a terminal refuses (exit 2) and sends nothing."""
    s = Server("control.scenario")
    rc, out, err = tether(s, "fork", CONV, "--title", "Try 2", "--format", "json")
    fork = json.loads(out)
    assert rc == 0 and fork["type"] == "forked" and fork["forked_from"] == CONV, (rc, out, err)
    assert fork["title"] == "Try 2", fork
    rc, out, err = tether(s, "fork", CONV, "--from", "evt-missing")
    assert rc == 1 and out == "", (rc, out, err)
    assert err == ["tether: fork: the server at %s says: Unknown from_event_id: evt-missing"
                   % s.url], err
    rc, out, err = tether(s, "rename", fork["id"], "A better name")
    assert (rc, out, err) == (0, "renamed: %s: A better name\n" % fork["id"], []), (rc, out, err)
    rc, out, err = tether(s, "rm", fork["id"])
    assert (rc, out) == (2, ""), (rc, out, err)
    assert err == ["tether: rm: refusing to delete without --yes when stdin is not a terminal"]
    rc, out, err = tether(s, "rm", fork["id"], "--yes")
    assert (rc, out, err) == (0, "deleted: %s (A better name)\n" % fork["id"], []), (rc, out, err)
    rc, out, err = tether(s, "rm", fork["id"], "--yes")
    s.stop()
    assert rc == 4 and err == ["tether: rm: conversation %s not found at %s; tether list shows "
                               "the conversations there" % (fork["id"], s.url)], (rc, err)
    made = "/api/conversations/" + fork["id"]
    assert s.rest() == [
        'rest POST %s/fork 201 {"reset_metrics":true,"title":"Try 2"}' % ROUTE,
        'rest POST %s/fork 404 {"reset_metrics":true,"from_event_id":"evt-missing"}' % ROUTE,
        'rest PATCH %s 200 {"title":"A better name"}' % made,
        "rest GET %s 200" % made,
        "rest DELETE %s 200" % made,
        "rest GET %s 404" % made,
    ], s.rest()


def test_rename_unknown_is_4():
    """Upstream answers PATCH of an unknown conversation 200 {"success":false}: not found."""
    s = Server("control.scenario")
    rc, out, err = tether(s, "rename", OTHER, "x")
    s.stop()
    assert rc == 4 and out == "", (rc, out, err)
    assert err == ["tether: rename: conversation %s not found at %s; tether list shows the "
                   "conversations there" % (OTHER, s.url)], err


def test_ask_aside():
    """ask: the answer on stdout, no event written; an unknown conversation (upstream's bare
    500) is found out by a GET: exit 4, never "HTTP 500"."""
    s = Server("control.scenario")
    rc, out, err = tether(s, "ask", CONV, "what is left?", "--format", "ndjson")
    rc2, out2, err2 = tether(s, "ask", OTHER, "hello?")
    s.stop()
    a = json.loads(out)
    assert rc == 0 and a["type"] == "answer" and "what is left?" in a["answer"], (rc, out, err)
    assert rc2 == 4 and not any("500" in l for l in err2), (rc2, err2)
    assert s.rest() == [
        'rest POST %s/ask_agent 200 {"question":"what is left?"}' % ROUTE,
        'rest POST /api/conversations/%s/ask_agent 500 {"question":"hello?"}' % OTHER,
        "rest GET /api/conversations/%s 404" % OTHER,
    ], s.rest()


def test_compact():
    """compact: condense; a server without a condenser says so in its words (exit 1)."""
    s = Server("control.scenario")
    rc, out, err = tether(s, "compact", CONV)
    s.stop()
    assert (rc, out, err) == (0, "compacted: %s (the server condensed its history)\n" % CONV,
                              []), (rc, out, err)
    s = Server("control.scenario", "--no-condenser")
    rc, out, err = tether(s, "compact", CONV)
    s.stop()
    assert rc == 1 and err == [
        "tether: compact: the server at %s failed the compact (HTTP 500): Cannot condense "
        "conversation: No condenser configured. Configure a condenser that handles "
        "condensation requests." % s.url], (rc, err)


def test_model():
    """model ID lists the LLM profiles (the server's default marked), json as one array;
    model ID PROFILE switches; an unknown profile is said in the server's words."""
    s = Server("control.scenario")
    rc, out, err = tether(s, "model", CONV)
    rc2, out2, err2 = tether(s, "model", CONV, "--format", "json")
    rc3, out3, err3 = tether(s, "model", CONV, "fast")
    rc4, out4, err4 = tether(s, "model", CONV, "slow")
    s.stop()
    assert (rc, err) == (0, []) and out == ("default\tanthropic/claude-sonnet-4-5\t(the server's "
                                            "default)\nfast\topenai/gpt-5-mini\n"), out
    profiles = json.loads(out2)
    assert [p["name"] for p in profiles] == ["default", "fast"] and profiles[0]["default"], out2
    assert (rc3, out3) == (0, "model: %s now uses the LLM profile fast\n" % CONV), (rc3, out3)
    assert rc4 == 1 and err4 == ["tether: model: the server at %s says: Profile 'slow' not "
                                 "found" % s.url], (rc4, err4)


def test_goal():
    """goal OBJECTIVE|stop|resume: 409 while a goal runs and 400 no_resumable_goal in the
    server's words; stop is fine with no loop."""
    s = Server("control.scenario")
    results = [tether(s, "goal", CONV, w) for w in ("resume", "tests pass", "again", "stop",
                                                      "stop", "resume")]
    s.stop()
    assert [r[0] for r in results] == [1, 0, 1, 0, 0, 0], results
    assert results[0][2] == ["tether: goal: the server at %s refused the goal resume: "
                             "no_resumable_goal" % s.url], results[0]
    assert results[1][1] == "goal set: %s: tests pass\n" % CONV, results[1]
    assert results[2][2] == ["tether: goal: the server at %s refused the goal: Conversation run "
                             "or goal loop already running." % s.url], results[2]
    # Each goal set or resumed reads the conversation's policy first (NeverConfirm: no question).
    get = "rest GET %s 200" % ROUTE
    assert s.rest() == [
        get, "rest POST %s/goal/resume 400" % ROUTE,
        get, 'rest POST %s/goal 200 {"objective":"tests pass"}' % ROUTE,
        get, 'rest POST %s/goal 409 {"objective":"again"}' % ROUTE,
        "rest POST %s/goal/stop 200" % ROUTE,
        "rest POST %s/goal/stop 200" % ROUTE,
        get, "rest POST %s/goal/resume 200" % ROUTE,
    ], s.rest()


def test_goal_asks_under_a_confirming_policy():
    """Under a policy that asks, the goal loop would run the actions it asks about: goal (set
    or resumed) asks on a terminal (n: nothing sent, exit 1; y: set), refuses without one
    (exit 2, nothing sent) and goes with --yes; stop never asks."""
    s = Server("control.scenario")
    term = Terminal("goal")
    try:
        tether(s, "rename", CONV, "Parser work")
        tether(s, "policy", CONV, "always")
        no_tty = [tether(s, "goal", CONV, w) for w in ("tests pass", "resume")]
        sent_before = [l for l in s.rest() if "/goal" in l]
        forced = tether(s, "goal", CONV, "tests pass", "--yes")
        stopped = tether(s, "goal", CONV, "stop")
        term.run("%s goal --server %s %s 'lint clean'; echo EXIT=$?; "
                 "%s goal --server %s %s 'lint clean'; echo EXIT=$?"
                 % (TETHER, s.url, CONV, TETHER, s.url, CONV))
        question = ("The goal loop runs the actions your policy would ask about without asking. "
                    "Set the goal on Parser work (%s)? [y/N]" % CONV)
        text = term.no_then_yes(question)
    finally:
        term.close()
        s.stop()
    assert [r[0] for r in no_tty] == [2, 2], no_tty
    assert no_tty[0][2] == ["tether: goal: refusing to set a goal without --yes when stdin is not "
                            "a terminal: under this conversation's confirmation policy the goal "
                            "loop runs the actions it would ask about"], no_tty[0]
    assert sent_before == [], sent_before
    assert forced[0] == 0 and forced[1] == "goal set: %s: tests pass\n" % CONV, forced
    assert stopped[0] == 0, stopped
    assert "tether: goal: no goal was set" in text, text
    assert "goal set: %s: lint clean" % CONV in text, text
    assert [l for l in s.rest() if "/goal" in l] == [
        'rest POST %s/goal 200 {"objective":"tests pass"}' % ROUTE,
        "rest POST %s/goal/stop 200" % ROUTE,
        'rest POST %s/goal 200 {"objective":"lint clean"}' % ROUTE,
    ], s.rest()


def test_policy():
    """policy always|never|risky [LEVEL] and the analyzer: the bodies upstream reads."""
    s = Server("control.scenario")
    outs = [tether(s, "policy", CONV, *w) for w in (["risky", "low"], ["never"],
                                                    ["analyzer", "pattern"], ["analyzer", "none"])]
    s.stop()
    assert all(r[0] == 0 for r in outs), outs
    assert outs[0][1] == ("policy: %s now asks at LOW risk and above (and unknown risk)\n"
                          % CONV), outs[0]
    assert s.rest() == [
        'rest POST %s/confirmation_policy 200 {"policy":{"kind":"ConfirmRisky","threshold":'
        '"LOW","confirm_unknown":true}}' % ROUTE,
        'rest POST %s/confirmation_policy 200 {"policy":{"kind":"NeverConfirm"}}' % ROUTE,
        'rest POST %s/security_analyzer 200 {"security_analyzer":{"kind":'
        '"PatternSecurityAnalyzer"}}' % ROUTE,
        'rest POST %s/security_analyzer 200 {"security_analyzer":null}' % ROUTE,
    ], s.rest()


def test_server_info():
    """server-info: the version, in text and json."""
    s = Server("control.scenario", "--server-version", "1.44.0rc1")
    rc, out, err = tether(s, "server-info")
    rc2, out2, _ = tether(s, "server-info", "--format", "json")
    s.stop()
    assert (rc, out, err) == (0, "%s: version 1.44.0rc1\n" % s.url, []), (rc, out, err)
    assert json.loads(out2) == {"type": "server", "url": s.url, "version": "1.44.0rc1",
                                "known": True}, out2


def test_older_server_has_no():
    """A server older than a route: "this server (version X) has no …", exit 1, the call
    never sent; fork from an event is refused before 1.31 (the server would fork it all)."""
    s = Server("control.scenario", "--server-version", "1.20.0")
    cases = [(["new"], "has no agent profiles"), (["goal", CONV, "stop"], "has no goal stop"),
             (["model", CONV], "has no LLM profiles"),
             (["fork", CONV, "--from", "e1"], "has no fork from an event (it would copy the "
              "whole conversation; 1.31 and later fork from an event)")]
    results = [tether(s, *args) for args, _ in cases]
    s.stop()
    for (args, words), (rc, out, err) in zip(cases, results):
        assert (rc, out) == (1, ""), (args, rc, out, err)
        assert err == ["tether: %s: this server (version 1.20.0) %s" % (args[0], words)], err
    assert s.rest() == [], s.rest()


def test_bare_404_route_missing():
    """A server whose version says nothing ("unknown") answers a route it lacks with a bare
    404: the conversation's GET finds it, so the route is missing, said in words (exit 1);
    for a conversation it does not have, the same 404 is exit 4."""
    s = Server("control.scenario", "--server-version", "1.20.0", "--version-text", "unknown")
    rc, out, err = tether(s, "goal", CONV, "stop")
    rc2, out2, err2 = tether(s, "goal", OTHER, "stop")
    s.stop()
    assert (rc, out) == (1, ""), (rc, out, err)
    assert err == ["tether: goal: this server (version unknown) has no goal stop"], err
    assert rc2 == 4 and "conversation %s not found" % OTHER in err2[0], (rc2, err2)
    assert s.rest() == [
        "rest POST %s/goal/stop 404" % ROUTE, "rest GET %s 200" % ROUTE,
        "rest POST /api/conversations/%s/goal/stop 404" % OTHER,
        "rest GET /api/conversations/%s 404" % OTHER], s.rest()


def test_known_route_404_is_the_conversation():
    """A route the server's version has (confirmation_policy is in every release) answering a
    bare 404 means the conversation is gone, not the route: exit 4 in words, no GET asked."""
    s = Server("control.scenario")
    rc, _, err = tether(s, "rm", "--yes", CONV)
    rc2, out2, err2 = tether(s, "policy", CONV, "always")
    rc3, _, err3 = tether(s, "goal", CONV, "stop")
    s.stop()
    assert rc == 0, (rc, err)
    assert (rc2, out2) == (4, ""), (rc2, out2, err2)
    assert "conversation %s not found" % CONV in err2[0] and "has no" not in err2[0], err2
    assert rc3 == 4 and "has no" not in err3[0], (rc3, err3)
    assert s.rest()[-2:] == [
        'rest POST %s/confirmation_policy 404 {"policy":{"kind":"AlwaysConfirm"}}' % ROUTE,
        "rest POST %s/goal/stop 404" % ROUTE], s.rest()


def test_version_in_log():
    """The server's version goes to --log (tether list, the managers)."""
    s = Server("control.scenario", "--server-version", "1.40.2")
    logs = [os.path.join(TMP, "list.log"), os.path.join(TMP, "compact.log")]
    rc, _, err = tether(s, "list", "--log", logs[0])
    rc2, _, err2 = tether(s, "compact", CONV, "--log", logs[1])
    s.stop()
    assert (rc, rc2) == (0, 0), (err, err2)
    for path in logs:
        text = open(path).read()
        assert "server version: 1.40.2\n" in text, (path, text)


def test_rm_asks_on_a_terminal():
    """rm on a terminal asks, naming the title; n deletes nothing (exit 1), y deletes."""
    s = Server("control.scenario")
    term = Terminal("rm")
    try:
        tether(s, "rename", CONV, "Parser work")
        term.run("%s rm --server %s %s; echo EXIT=$?; %s rm --server %s %s; echo EXIT=$?"
                 % (TETHER, s.url, CONV, TETHER, s.url, CONV))
        text = term.no_then_yes("Delete the conversation Parser work (%s)? [y/N]" % CONV)
    finally:
        term.close()
        s.stop()
    assert "tether: rm: nothing was deleted" in text, text
    assert "deleted: %s (Parser work)" % CONV in text, text
    assert [l for l in s.rest() if " DELETE " in l] == ["rest DELETE %s 200" % ROUTE], s.rest()


harness.main(globals())
