"""What the end-to-end scripts share (tests/tui/headless/e2e.py and manage.py,
tests/net/hostile.py): their arguments, a fixture server of their own, and the run of the
one test named.

A script runs as SCRIPT TETHER FIXTURE_SERVER DATA_DIR TEST_NAME (TEST_NAME --list: the names)
and imports this file from the tests folder of the source tree.
"""
import os, signal, subprocess, sys, tempfile

# meson ends a test at its timeout with SIGTERM and SIGKILL 0.5 s later. Python's default
# SIGTERM ends the script at once; as an exception the tests' finally blocks run first and
# stop the tmux servers they started (outside the test's process group: they would stay).
signal.signal(signal.SIGTERM, lambda signo, frame: sys.exit(128 + signo))

TETHER, FIXTURE, DATA, NAME = sys.argv[1:5]
# tether-e2e-…, tether-manage-…, tether-hostile-…: the script's own files
TMP = tempfile.mkdtemp(prefix="tether-%s-" % os.path.splitext(os.path.basename(sys.argv[0]))[0])


class Server:
    """A fixture server on port 0 with scenario (a file of DATA; None: none) and extra
    arguments; its traffic and durable logs in TMP."""

    def __init__(self, scenario, *extra):
        self.traffic = os.path.join(TMP, "traffic")
        self.durable = os.path.join(TMP, "durable")
        args = [FIXTURE, "--log", self.traffic, "--durable-log", self.durable,
                "--max-seconds", "60"]
        if scenario:
            args += ["--scenario", os.path.join(DATA, scenario)]
        self.proc = subprocess.Popen(args + list(extra), stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("PORT "), "fixture did not start: %r" % line
        self.port = int(line.split()[1])
        self.url = "http://127.0.0.1:%d" % self.port

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)

    def traffic_lines(self):
        return open(self.traffic).read().splitlines()


def main(names):
    """Runs the test called NAME among the test_* functions of names (a script's globals):
    exit 0 and "ok NAME", or exit 1 and what failed."""
    tests = {k[5:]: v for k, v in list(names.items()) if k.startswith("test_")}
    if NAME == "--list":
        print("\n".join(tests))
        sys.exit(0)
    try:
        tests[NAME]()
    except AssertionError as e:
        print("FAIL:", e)
        sys.exit(1)
    print("ok", NAME)
