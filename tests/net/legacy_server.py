#!/usr/bin/env python3
"""A legacy agent server for tests of net/'s events-socket adapter (issue 26): what
upstream's openhands-agent-server serves before the session socket (sockets.py events_socket
at v1.43.1, read, not copied): /server_info, events/count and events/search over REST, an
HTTP 403 for /sockets/session (no such route), and /sockets/events/{id} with the key by
version (first message from 1.22.1, header or query before; 4001 on a bad one), the
full_state snapshot right after subscribing, resend_mode all|since (timestamps >=) with live
events interleaved, StreamingDeltaEvents with no identity (one dated before its message that
comes after it), Message frames in (a ServerErrorEvent for a bad one).

usage: legacy_server.py [--version V] [--key K] [--initial N] [--live N] [--interval S]
                        [--cut-after N] [--deltas] [--log FILE] [--max-seconds S] [--rest-open]
                        [--append-on-count]
Prints "PORT <n>" once listening.
"""
import argparse, base64, hashlib, json, socket, struct, sys, threading, time
from urllib.parse import urlsplit, parse_qs

ap = argparse.ArgumentParser()
ap.add_argument("--version", default="1.43.1")
ap.add_argument("--key")
ap.add_argument("--rest-open", action="store_true", help="REST takes any key (the socket's own check)")
ap.add_argument("--append-on-count", action="store_true",
                help="one event appended right after the first events/count answer")
ap.add_argument("--initial", type=int, default=5)
ap.add_argument("--live", type=int, default=0)
ap.add_argument("--interval", type=float, default=0.02)
ap.add_argument("--cut-after", type=int, default=0)
ap.add_argument("--deltas", action="store_true")
ap.add_argument("--log")
ap.add_argument("--max-seconds", type=float, default=60)
A = ap.parse_args()
VER = tuple(int(x) for x in A.version.split(".")[:3])
LOCK = threading.Lock()
LOG, SUBS, STARTED = [], [], [False]
LOGF = open(A.log, "a", buffering=1) if A.log else None
N = [0]


def note(line):
    if LOGF:
        LOGF.write(line + "\n")


def ts(i, us=0):
    t = 1790000000 + i * 0.01 + us / 1e6
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%06d" % round((t % 1) * 1e6)


def event(i, source, text):
    return {"id": "ev-%04d" % i, "timestamp": ts(i), "source": source, "kind": "MessageEvent",
            "llm_message": {"role": "assistant" if source == "agent" else "user",
                            "content": [{"type": "text", "text": text}]}}


def send_frame(c, op, data):
    n = len(data)
    head = bytes([0x80 | op]) + (bytes([n]) if n < 126 else
                                 bytes([126]) + struct.pack(">H", n) if n < 65536 else
                                 bytes([127]) + struct.pack(">Q", n))
    c.sendall(head + data)


def recv_exact(c, n):
    b = b""
    while len(b) < n:
        d = c.recv(n - len(b))
        if not d:
            raise ConnectionError
        b += d
    return b


def recv_frame(c):
    h = recv_exact(c, 2)
    n = h[1] & 0x7F
    if n == 126:
        n = struct.unpack(">H", recv_exact(c, 2))[0]
    elif n == 127:
        n = struct.unpack(">Q", recv_exact(c, 8))[0]
    mask = recv_exact(c, 4) if h[1] & 0x80 else b"\0\0\0\0"
    data = bytes(b ^ mask[i % 4] for i, b in enumerate(recv_exact(c, n)))
    return h[0] & 0x0F, data


class Sub:
    def __init__(self, c):
        self.c, self.lock, self.sent, self.dead = c, threading.Lock(), 0, False

    def send(self, ev, counts=True):
        with self.lock:
            if self.dead:
                return
            try:
                send_frame(self.c, 1, json.dumps(ev).encode())
            except OSError:
                self.dead = True
                return
            self.sent += counts
            if A.cut_after and self.sent >= A.cut_after:
                note("cut")
                self.dead = True
                try:
                    self.c.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def publish(ev, logged=True):
    with LOCK:
        if logged:
            LOG.append(ev)
        subs = list(SUBS)
    for s in subs:
        s.send(ev, logged)


def agent_turn(i, text):
    """Deltas, then the message they became, then a late delta dated before it."""
    if A.deltas:
        for k, piece in enumerate(("Hel", "lo")):
            publish({"id": "d-%d-%d" % (i, k), "timestamp": ts(i - 1, 100 + k), "source": "agent",
                     "content": piece, "kind": "StreamingDeltaEvent"}, logged=False)
    publish(event(i, "agent", text))
    if A.deltas:
        publish({"id": "d-%d-late" % i, "timestamp": ts(i - 1, 900), "source": "agent",
                 "content": " (late)", "kind": "StreamingDeltaEvent"}, logged=False)


def next_index():
    with LOCK:
        N[0] += 1
        return N[0] - 1


def generate():
    for _ in range(A.live):
        time.sleep(A.interval)
        i = next_index()
        if i % 3 == 2:
            agent_turn(i, "answer %d" % i)
        else:
            publish(event(i, "user", "message %d" % i))


def http(c, status, body, ctype="application/json"):
    """One answer; the connection stays for the next request (lws queues on it)."""
    data = body.encode()
    c.sendall(("HTTP/1.1 %d X\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
               "\r\n" % (status, ctype, len(data))).encode() + data)
    return True


def rest(c, path, q, headers):
    if path == "/server_info":
        return http(c, 200, json.dumps({"title": "OpenHands Agent Server", "version": A.version}))
    if A.key and not A.rest_open and headers.get("x-session-api-key") != A.key:
        return http(c, 401, '{"detail":"Unauthorized"}')
    with LOCK:
        log = list(LOG)
    if path.endswith("/events/count"):
        http(c, 200, str(len(log)))
        if A.append_on_count:
            A.append_on_count = False
            publish(event(next_index(), "user", "appended after the count"))
        return True
    if path.endswith("/events/search"):
        if q.get("sort_order", [""])[0] == "TIMESTAMP_DESC":
            log.reverse()
        start = 0
        if "page_id" in q:
            start = [e["id"] for e in log].index(q["page_id"][0])
        limit = int(q.get("limit", ["100"])[0])
        page = log[start:start + limit]
        nxt = log[start + limit]["id"] if start + limit < len(log) else None
        return http(c, 200, json.dumps({"items": page, "next_page_id": nxt}))
    return http(c, 404, '{"detail":"Not Found"}')


def events_socket(c, q, headers, req_key):
    given = q.get("session_api_key", [None])[0]
    if given is None and VER >= (1, 12, 0):
        given = headers.get("x-session-api-key")
    first_message = VER >= (1, 18, 1)
    if A.key and given is not None and given != A.key:
        return http(c, 403, "")           # closed before accept: 403 on the upgrade
    if A.key and given is None and not first_message:
        return http(c, 403, "")
    accept = base64.b64encode(hashlib.sha1((req_key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")
                                           .encode()).digest()).decode()
    c.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
    if A.key and given is None:
        op, data = recv_frame(c)
        try:
            msg = json.loads(data)
        except ValueError:
            msg = {}
        if not isinstance(msg, dict) or msg.get("type") != "auth" or msg.get("session_api_key") != A.key:
            note("auth refused")
            send_frame(c, 8, struct.pack(">H", 4001) + b"Authentication failed")
            return c.close()
        note("auth frame")
    elif given is not None:
        note("auth query" if "session_api_key" in q else "auth header")
    sub = Sub(c)
    with LOCK:
        SUBS.append(sub)
        log = list(LOG)
        first = not STARTED[0]
        STARTED[0] = True
    if first:       # live events begin with the first subscriber: after its key was taken
        threading.Thread(target=generate, daemon=True).start()
    sub.send({"id": "snap", "timestamp": ts(0), "source": "environment",
              "kind": "ConversationStateUpdateEvent", "key": "full_state",
              "value": {"execution_status": "idle"}}, counts=False)
    mode = q.get("resend_mode", ["all" if q.get("resend_all") else None])[0]
    since = q.get("after_timestamp", [None])[0]
    for ev in log:
        if mode == "all" or (mode == "since" and since and ev["timestamp"] >= since):
            sub.send(ev)
    try:
        while not sub.dead:
            op, data = recv_frame(c)
            if op == 8:
                break
            if op != 1:
                continue
            try:
                msg = json.loads(data)
                if msg.get("type") == "auth":
                    continue
                text = msg["content"][0]["text"]
                assert msg["role"] == "user"
            except (ValueError, KeyError, IndexError, TypeError, AssertionError) as e:
                sub.send({"source": "environment", "code": "ValidationError", "detail": str(e),
                          "kind": "ServerErrorEvent"}, counts=False)
                continue
            note("message " + text)
            publish(event(next_index(), "user", text))
            i = next_index()
            agent_turn(i, "echo " + text)
    except (ConnectionError, OSError):
        pass
    with LOCK:
        if sub in SUBS:
            SUBS.remove(sub)


def serve(c):
    data = b""
    try:
        while True:
            while b"\r\n\r\n" not in data:
                d = c.recv(4096)
                if not d:
                    return c.close()
                data += d
            req, data = data.split(b"\r\n\r\n", 1)
            if not serve_one(c, req):
                return c.close()
    except (ConnectionError, OSError):
        c.close()


def serve_one(c, req):
    """False when the connection is done (a socket, or a refused upgrade)."""
    head = req.decode("latin-1").split("\r\n")
    method, target = head[0].split(" ")[:2]
    headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in head[1:] if ":" in l)}
    u = urlsplit(target)
    q = parse_qs(u.query)
    note("%s %s" % ("ws" if "sec-websocket-key" in headers else "rest", u.path))
    if "sec-websocket-key" in headers:
        if u.path.startswith("/sockets/events/"):
            events_socket(c, q, headers, headers["sec-websocket-key"])
        else:
            http(c, 403, "")           # no such route: upstream refuses with 403
        return False
    return rest(c, u.path, q, headers)


for i in range(A.initial):
    N[0] += 1
    LOG.append(event(i, "agent" if i % 3 == 2 else "user", "history %d" % i))
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(64)
print("PORT", s.getsockname()[1], flush=True)
threading.Timer(A.max_seconds, lambda: __import__("os")._exit(0)).start()
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
