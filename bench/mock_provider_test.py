#!/usr/bin/env python3
"""Checks bench/mock_provider.py: in each of its three API shapes the deltas of the answer,
read as each peer's SDK reads them, put together equal the answer file; a request without the
benchmark's prompt gets a short answer.

  mock_provider_test.py MOCK_PROVIDER.py ANSWER.md
"""
import json
import subprocess
import sys
import urllib.request

MARK = "tether-bench-answer"


def events(resp):
    """(event name, parsed data) of each SSE record, as the SDKs split them."""
    name, data = None, []
    for raw in resp:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line and data:
            text = "\n".join(data)
            yield name, None if text == "[DONE]" else json.loads(text)
            name, data = None, []


def anthropic(evs):
    out, stop = [], False
    for name, d in evs:
        assert name == d["type"], (name, d)
        if d["type"] == "content_block_delta":
            out.append(d["delta"]["text"])
        stop = stop or d["type"] == "message_stop"
    assert stop, "no message_stop"
    return "".join(out)


def responses(evs):
    out, done = [], None
    for name, d in evs:
        assert name == d["type"], (name, d)
        if d["type"] == "response.output_text.delta":
            out.append(d["delta"])
        if d["type"] == "response.completed":
            done = d["response"]["output"][0]["content"][0]["text"]
    assert done == "".join(out), "response.completed does not repeat the deltas"
    return done


def chat(evs):
    out, ended = [], False
    for _, d in evs:
        if d is None:
            ended = True
            continue
        out.append(d["choices"][0]["delta"].get("content") or "")
    assert ended, "no [DONE]"
    return "".join(out)


SHAPES = {"/v1/messages": anthropic, "/v1/responses": responses, "/v1/chat/completions": chat}


def ask(port, path, prompt, tools):
    body = {"model": "mock-model", "stream": True, "input": prompt, "tools": tools,
            "messages": [{"role": "user", "content": prompt}]}
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return SHAPES[path](events(resp))


def main():
    mock, answer_path = sys.argv[1], sys.argv[2]
    answer = open(answer_path, encoding="utf-8").read()
    proc = subprocess.Popen([sys.executable, mock, "--answer", answer_path, "--rate", "0"],
                            stdout=subprocess.PIPE, text=True)
    failed = 0
    try:
        port = int(proc.stdout.readline().split()[1])
        tool = [{"name": "bash", "type": "function"}]
        for path in SHAPES:
            got = ask(port, path, f"Write the {MARK}.", tool)
            side = ask(port, path, f"A title for: Write the {MARK}.", [])
            ok = got == answer and side == "OK"
            failed += not ok
            print(f"{'ok' if ok else 'FAIL'} {path}: {len(got)} of {len(answer)} characters"
                  f"{'' if got == answer else ' differ'}; side request {side[:20]!r}")
    finally:
        proc.terminate()
        proc.wait()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
