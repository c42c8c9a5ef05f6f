#!/usr/bin/env python3
"""A local model provider for the peers' benchmark (scripts/bench --peers): streams one answer
in the three API shapes the peers speak, at the pace and chunking of tether's fixture stream.

  mock_provider.py --answer MD [--rate 200] [--chunk 4] [--marker TEXT] [--on-start CMD]
                   [--log FILE]

Prints "PORT n" once it listens on 127.0.0.1 (port 0: the kernel picks one), then serves:
  POST /v1/messages          Anthropic Messages (SSE when "stream" is true)    Claude Code
  POST /v1/responses         OpenAI Responses SSE                              Codex
  POST /v1/chat/completions  OpenAI chat completions (SSE when "stream")       opencode
  GET  /v1/models            one model
A request whose body holds --marker (the benchmark's prompt) and tools gets the answer, cut
into --chunk code points, one event per write, --rate per second (0: as fast as it can); the
shell command --on-start runs to its end just before the first delta (scripts/bench samples
the peer's CPU there). Any other request (a client's title, summary or quota probe) gets a
one-word answer at once, so that side requests neither stall a peer nor stream the answer twice.
"""
import argparse
import http.server
import json
import socket
import subprocess
import sys
import threading
import time

ARGS = None
LOG_LOCK = threading.Lock()
SEQ = [0]


def log(line):
    if ARGS.log:
        with LOG_LOCK, open(ARGS.log, "a", encoding="utf-8") as f:
            f.write(f"{time.time():.3f} {line}\n")


def next_id(prefix):
    with LOG_LOCK:
        SEQ[0] += 1
        return f"{prefix}_{SEQ[0]:06d}"


def pieces(text, chunk):
    return [text[i:i + chunk] for i in range(0, len(text), chunk)]


# ----------------------------------------------------------------- the three shapes
# Each shape is (head events, one event per delta, tail events); an event is the bytes of one
# SSE record. All are built from the text, so the tail can repeat it whole where the API does.

def sse(data, event=None):
    head = f"event: {event}\n" if event else ""
    return (head + "data: " + json.dumps(data, separators=(",", ":")) + "\n\n").encode()


def anthropic(model, text, parts):
    mid = next_id("msg")
    usage = {"input_tokens": 12, "output_tokens": 1, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 0}
    head = [
        sse({"type": "message_start", "message": {
            "id": mid, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": usage}}, "message_start"),
        sse({"type": "content_block_start", "index": 0,
             "content_block": {"type": "text", "text": ""}}, "content_block_start"),
    ]
    deltas = (sse({"type": "content_block_delta", "index": 0,
                   "delta": {"type": "text_delta", "text": p}}, "content_block_delta")
              for p in parts)
    tail = [
        sse({"type": "content_block_stop", "index": 0}, "content_block_stop"),
        sse({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
             "usage": {"output_tokens": len(parts)}}, "message_delta"),
        sse({"type": "message_stop"}, "message_stop"),
    ]
    whole = {"id": mid, "type": "message", "role": "assistant", "model": model,
             "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
             "stop_sequence": None, "usage": dict(usage, output_tokens=len(parts))}
    return head, deltas, tail, whole


def responses(model, text, parts):
    rid, mid = next_id("resp"), next_id("msg")
    now = int(time.time())
    seq = iter(range(1 << 30))

    def ev(kind, **fields):
        return sse(dict({"type": kind, "sequence_number": next(seq)}, **fields), kind)

    def resp(status, output, usage=None):
        r = {"id": rid, "object": "response", "created_at": now, "status": status,
             "model": model, "output": output}
        if usage:
            r["usage"] = usage
        return r

    item = {"id": mid, "type": "message", "status": "in_progress", "role": "assistant",
            "content": []}
    part = {"type": "output_text", "text": "", "annotations": []}
    head = [ev("response.created", response=resp("in_progress", [])),
            ev("response.in_progress", response=resp("in_progress", [])),
            ev("response.output_item.added", output_index=0, item=item),
            ev("response.content_part.added", item_id=mid, output_index=0, content_index=0,
               part=part)]
    deltas = (ev("response.output_text.delta", item_id=mid, output_index=0, content_index=0,
                 delta=p) for p in parts)

    def tail_events():
        done_part = dict(part, text=text)
        done_item = dict(item, status="completed", content=[done_part])
        usage = {"input_tokens": 12, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": len(parts), "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 12 + len(parts)}
        return [ev("response.output_text.done", item_id=mid, output_index=0, content_index=0,
                   text=text),
                ev("response.content_part.done", item_id=mid, output_index=0, content_index=0,
                   part=done_part),
                ev("response.output_item.done", output_index=0, item=done_item),
                ev("response.completed", response=resp("completed", [done_item], usage))]
    return head, deltas, tail_events, None


def chat(model, text, parts):
    cid, now = next_id("chatcmpl"), int(time.time())

    def chunk(delta, finish=None, usage=None):
        c = {"id": cid, "object": "chat.completion.chunk", "created": now, "model": model,
             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        if usage:
            c["usage"] = usage
        return sse(c)
    usage = {"prompt_tokens": 12, "completion_tokens": len(parts), "total_tokens": 12 + len(parts)}
    head = [chunk({"role": "assistant", "content": ""})]
    deltas = (chunk({"content": p}) for p in parts)
    tail = [chunk({}, "stop", usage), b"data: [DONE]\n\n"]
    whole = {"id": cid, "object": "chat.completion", "created": now, "model": model,
             "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                          "finish_reason": "stop"}], "usage": usage}
    return head, deltas, tail, whole


ROUTES = {"/v1/messages": anthropic, "/v1/responses": responses, "/v1/chat/completions": chat}


# ----------------------------------------------------------------- HTTP

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # One event, one segment: Nagle would bundle deltas and change the pace a peer sees.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt, *args):
        pass

    def reply_json(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0].rstrip("/")
        log(f"GET {self.path}")
        if path.endswith("/models"):
            self.reply_json(200, {"object": "list", "data": [
                {"id": "mock-model", "object": "model", "created": 0, "owned_by": "mock",
                 "type": "model", "display_name": "Mock"}]})
        else:
            self.reply_json(404, {"error": {"type": "not_found", "message": self.path}})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        path = self.path.split("?")[0].rstrip("/")
        shape = next((f for p, f in ROUTES.items() if path.endswith(p.removeprefix("/v1"))), None)
        try:
            req = json.loads(raw or b"{}")
        except ValueError:
            req = {}
        # The main turn carries the client's tools; its title or summary requests quote the
        # prompt too, but without tools.
        main = ARGS.marker.encode() in raw and bool(req.get("tools"))
        log(f"POST {self.path} bytes={len(raw)} stream={req.get('stream')} "
            f"tools={len(req.get('tools') or [])} answer={int(main)}")
        if ARGS.log_bodies and ARGS.log:
            log("BODY " + raw.decode("utf-8", "replace")[:4000])
        if path.endswith("/count_tokens"):
            self.reply_json(200, {"input_tokens": 12})
            return
        if shape is None:
            self.reply_json(404, {"error": {"type": "not_found", "message": self.path}})
            return
        text = ARGS.text if main else "OK"
        parts = pieces(text, ARGS.chunk)
        head, deltas, tail, whole = shape(req.get("model") or "mock-model", text, parts)
        if not req.get("stream") and shape is not responses:
            self.reply_json(200, whole)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        gap = 1.0 / ARGS.rate if ARGS.rate > 0 and main else 0
        try:
            for ev in head:
                self.chunked(ev)
            if main and ARGS.on_start:
                subprocess.run(ARGS.on_start, shell=True, check=False)
            t0 = time.monotonic()
            for i, ev in enumerate(deltas):
                if gap:
                    wait = t0 + i * gap - time.monotonic()
                    if wait > 0:
                        time.sleep(wait)
                self.chunked(ev)
            for ev in (tail() if callable(tail) else tail):
                self.chunked(ev)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            log(f"DONE {self.path} deltas={len(parts)}")
        except (BrokenPipeError, ConnectionResetError):
            log(f"GONE {self.path}")
            self.close_connection = True

    def chunked(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answer", required=True)
    ap.add_argument("--rate", type=float, default=200)
    ap.add_argument("--chunk", type=int, default=4)
    ap.add_argument("--marker", default="tether-bench-answer")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--on-start")
    ap.add_argument("--log")
    ap.add_argument("--log-bodies", action="store_true")
    ARGS = ap.parse_args()
    ARGS.text = open(ARGS.answer, encoding="utf-8").read()
    srv = Server(("127.0.0.1", ARGS.port), Handler)
    print(f"PORT {srv.server_address[1]}", flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
