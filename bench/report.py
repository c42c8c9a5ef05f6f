#!/usr/bin/env python3
"""The figures table of scripts/bench: reads what the run measured, sets each figure beside its
floor or peer from the same run (or the peers' published figures), prints the table, and
rewrites the "## Figures" section of README.md.

  report.py --results FILE --benchlog FILE --answer MD --peers MD [--readme README.md]
  report.py --check-answer ANSWER.md PAGE...   exit 0 when the pages hold the whole answer
"""
import argparse
import datetime
import json
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------- answer check

def words(text):
    """The runs of letters and digits: markdown markers and punctuation are dropped, so what a
    terminal shows compares with the markdown source, and a word a client hyphenates at the
    end of a row ("wrap-" / "around") still reads as the source's "wrap-around"."""
    return re.findall(r"[^\W_]+", text)


def check_answer(answer_path, pages):
    """Every word of the answer must appear on the pages, in order. Pages overlap as the view
    scrolls, so they are read from the top of the scrollback (the last page captured) down."""
    # A code fence's language ("```c") is markup: some clients draw the block without it.
    want = words(re.sub(r"^\s*```.*$", "", open(answer_path, encoding="utf-8").read(), flags=re.M))
    seen = []
    for page in sorted(pages, reverse=True):
        seen.extend(words(open(page, encoding="utf-8", errors="replace").read()))
    i = 0
    for w in seen:
        if i < len(want) and w == want[i]:
            i += 1
    if i < len(want):
        context = " ".join(want[i:i + 8])
        print(f"answer check: {i}/{len(want)} words found in order; missing from: {context}",
              file=sys.stderr)
        return 1
    return 0


# ----------------------------------------------------------------- inputs

def read_results(path):
    res = {}
    for line in open(path, encoding="utf-8"):
        key, _, val = line.rstrip("\n").partition(" ")
        if val:
            res.setdefault(key, []).append(val)
    return res


def read_benchlog(path):
    """figure name -> (value, unit) from every benchmark's stdout."""
    figs = {}
    if not os.path.exists(path):
        return figs
    for line in open(path, encoding="utf-8"):
        entry = json.loads(line)
        for out in (entry.get("stdout") or "").splitlines():
            if out.startswith("#"):
                continue
            parts = out.split()
            if len(parts) >= 2:
                try:
                    figs[parts[0]] = (float(parts[1]), " ".join(parts[2:]))
                except ValueError:
                    pass
    return figs


def read_peers(path):
    """([(client, cpu_s_per_1k, bytes_per_1k, rss_mb)], date) from the file's last table, the
    date being the last one written above it (a cell may hold "2.41 (2.31)": the first number;
    a row whose client is tether is not a peer)."""
    tables, rows, in_table, date = [], [], False, None
    for line in open(path, encoding="utf-8"):
        if not line.startswith("|"):
            if in_table and rows:
                tables.append((rows, date))
            rows, in_table = [], False
            m = re.search(r"\b(20\d\d-\d\d-\d\d)\b", line)
            if m and line.startswith("#"):
                date = m.group(1)
            continue
        in_table = True
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or cells[0].startswith("tether"):
            continue
        nums = [re.match(r"^([\d.,]+)", c) for c in cells[1:4]]
        if not all(nums):
            continue
        try:
            rows.append((cells[0],) + tuple(float(m.group(1).replace(",", "")) for m in nums))
        except ValueError:
            continue
    if in_table and rows:
        tables.append((rows, date))
    return tables[-1] if tables else ([], None)


PEER_NAMES = {"claude": "Claude Code", "codex": "Codex CLI", "opencode": "opencode"}


def run_peers(res, per_k):
    """[(client and version, cpu_s_per_1k, bytes_per_1k, rss_mb, whole, bytes_per_1k_all)]
    measured in this run (scripts/bench --peers), medians over its rounds; bytes while
    streaming, and all from the peer's start-up."""
    out = []
    for key, label in PEER_NAMES.items():
        cpu, nbytes = med(res, f"peer_{key}_cpu_s"), med(res, f"peer_{key}_bytes")
        if cpu is None:
            continue
        version = (res.get(f"peer_{key}_version") or ["?"])[0]
        whole = [int(v) for v in res.get(f"peer_{key}_whole", []) if v.isdigit()]
        nall = med(res, f"peer_{key}_bytes_all")
        out.append((f"{label} {version}", cpu * per_k,
                    nbytes * per_k if nbytes is not None else None,
                    mb(med(res, f"peer_{key}_hwm_kb")), f"{sum(whole)}/{len(whole)}",
                    nall * per_k if nall is not None else None))
    return out


def peer_label(client):
    """ "Codex CLI 0.171.0 (TUI + its daemon)" → "Codex CLI 0.171.0" """
    return client.split(" (")[0]


def med(res, key, conv=float):
    vals = []
    for v in res.get(key, []):
        try:
            vals.append(conv(v))
        except ValueError:
            pass
    return statistics.median(vals) if vals else None


def stats_median(res, field):
    vals = []
    for line in res.get("stream_stats", []):
        try:
            vals.append(float(json.loads(line)[field]))
        except (ValueError, KeyError):
            pass
    return statistics.median(vals) if vals else None


def answer_deltas(answer_path):
    text = open(answer_path, encoding="utf-8").read()
    return math.ceil(len(text) / 4), len(text.encode("utf-8"))


# ----------------------------------------------------------------- the table

def fmt(v, digits=2):
    if v is None:
        return "—"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 100:
        return f"{v:.0f}"
    return f"{v:.{digits}f}"


class Table:
    def __init__(self):
        self.rows = []
        self.missed = []

    def add(self, key, figure, tether, base, ratio, target, met):
        verdict = "—" if met is None else ("yes" if met else "**no**")
        self.rows.append((figure, tether, base, ratio, target, verdict))
        if met is False:
            self.missed.append((key, figure))

    def markdown(self):
        out = ["| figure | tether | floor / peer | ratio | target | met |",
               "|---|---|---|---|---|---|"]
        out += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(out)


def mb(kib):
    """KiB (as /proc and getrusage give them) to MB of 10^6 bytes, as the peers' table has."""
    return kib * 1024 / 1e6 if kib is not None else None


def ratio(a, b):
    return a / b if a is not None and b else None


def build(args):
    res = read_results(args.results)
    figs = read_benchlog(args.benchlog)
    ndeltas, answer_bytes = answer_deltas(args.answer)
    per_k = 1000.0 / ndeltas
    peers = run_peers(res, per_k)
    if peers:
        seen = "peers measured in this run, " + today()
    else:
        peers, when = read_peers(args.peers)
        seen = f"from bench/peers.md ({when or 'undated'}), not this run"
    t = Table()
    fig = lambda name: figs.get(name, (None, ""))[0]

    # 1. streaming in the real TUI
    cpu = med(res, "stream_cpu_s")
    fcpu = med(res, "floor_cpu_s")
    cpu_k = cpu * per_k if cpu is not None else None
    fcpu_k = fcpu * per_k if fcpu is not None else None
    r = ratio(cpu_k, fcpu_k)
    boot = med(res, "stream_startup_cpu_s")
    t.add("stream_cpu", "1. streaming: CPU s per 1k deltas (while streaming)", fmt(cpu_k, 3),
          f"{fmt(fcpu_k, 3)} (ws_floor); tether start-up {fmt(boot, 3)} s, not included",
          f"{fmt(r)}×", "≤ 1.5× floor", None if r is None else r <= 1.5)
    if peers and cpu_k:
        best = min(peers, key=lambda p: p[1])
        below = best[1] / cpu_k
        t.add("stream_cpu_peer", "1. streaming: CPU vs best peer", fmt(cpu_k, 3),
              f"{best[1]:.2f} ({peer_label(best[0])}; "
              + ", ".join(f"{peer_label(p[0])} {p[1]:.2f}" for p in peers if p is not best)
              + f"; {seen})", f"{fmt(below, 0)}× below", "≥ 30× below", below >= 30)
    nbytes = med(res, "stream_bytes")
    bytes_k = nbytes * per_k if nbytes is not None else None
    answer_k = answer_bytes * per_k
    rb = ratio(bytes_k, answer_k)
    t.add("stream_bytes", "1. streaming: terminal bytes per 1k deltas", fmt(bytes_k),
          f"{fmt(answer_k)} (the answer's own bytes)", f"{fmt(rb)}×", "≤ 12,000 (3× the answer)",
          None if bytes_k is None else bytes_k <= 12000)
    # Like with like: the peers measured in this run count their bytes from the first delta,
    # so tether's are counted from there too; the stored table counted whole windows.
    live = med(res, "stream_bytes_live") if peers and len(peers[0]) > 4 else None
    peer_bytes_k = live * per_k if live is not None else bytes_k
    if peers and peer_bytes_k and all(p[2] for p in peers):
        best = min(peers, key=lambda p: p[2])
        below = best[2] / peer_bytes_k
        t.add("stream_bytes_peer", "1. streaming: terminal bytes vs best peer"
              + (" (while streaming)" if live is not None else ""), fmt(peer_bytes_k),
              f"{best[2]:,.0f} ({peer_label(best[0])}; "
              + ", ".join(f"{peer_label(p[0])} {p[2]:,.0f}" for p in peers if p is not best)
              + f"; {seen})", f"{fmt(below, 1)}× below", "≥ 3× below", below >= 3)
    hwm = med(res, "stream_hwm_kb")
    frss = med(res, "floor_rss_kb")
    t.add("stream_rss", "1. streaming: peak RSS (MB)", fmt(mb(hwm), 1),
          f"{fmt(mb(frss), 1)} (ws_floor)", f"{fmt(ratio(hwm, frss))}×",
          "< 16 MB", None if hwm is None else mb(hwm) < 16)
    whole = [int(v) for v in res.get("stream_whole", []) if v.isdigit()]
    peers_whole = ", ".join(f"{peer_label(p[0]).rsplit(' ', 1)[0]} {p[4]}" for p in peers
                            if len(p) > 4) or "peers 3/3 (bench/peers.md)"
    t.add("stream_whole", "1. streaming: whole answer on screen", f"{sum(whole)}/{len(whole)}",
          peers_whole, "—", "every run", None if not whole else sum(whole) == len(whole))
    t.peers = peers if peers and len(peers[0]) > 4 else []
    t.tether_stream = (cpu_k, bytes_k, mb(hwm), f"{sum(whole)}/{len(whole)}")

    # 2. paint cost against history
    p100, p10k, p100k = fig("paint_cpu_us_100"), fig("paint_cpu_us_10000"), fig("paint_cpu_us_100000")
    pr = fig("paint_ratio")
    t.add("paint", "2. paint: CPU µs per frame, 100,000 items vs 100", fmt(p100k, 1),
          f"{fmt(p100, 1)} (100 items); 10,000: {fmt(p10k, 1)}", f"{fmt(pr)}×", "≤ 1.2×",
          None if pr is None else pr <= 1.2)

    # 3. latency
    p50, p99, hz = (stats_median(res, f) for f in ("latency_p50_ms", "latency_p99_ms", "render_hz"))
    if hz:
        tick = 1000.0 / hz
        t.add("latency", "3. latency: delta → painted frame, p99 (ms)", fmt(p99, 1),
              f"tick {fmt(tick, 1)} at {hz:.0f} Hz; p50 {fmt(p50, 1)}", f"{fmt(ratio(p99, tick))} ticks",
              f"≤ {fmt(tick + 5, 1)} (tick + 5 ms)", None if p99 is None else p99 <= tick + 5)
    else:
        t.add("latency", "3. latency: delta → painted frame, p99 (ms)", "—",
              "no $TETHER_STATS line", "—", "≤ tick + 5 ms", None)

    # 4. replay
    json_b = med(res, "replay_json_bytes")
    rt = med(res, "replay_tui_s")
    rf = med(res, "replay_floor_s")
    rh = med(res, "replay_headless_s")
    t.add("replay_time", "4. replay 100k events: TUI, wall s to last event on screen", fmt(rt, 2),
          f"{fmt(rf, 2)} (ws_floor receives them); headless {fmt(rh, 2)}",
          f"{fmt(ratio(rt, rf))}×", "< 1 s", None if rt is None else rt < 1)
    rc = med(res, "replay_tui_cpu_s")
    rfc = med(res, "replay_floor_cpu_s")
    t.add("replay_cpu", "4. replay 100k events: TUI, tether's CPU s", fmt(rc, 2),
          f"{fmt(rfc, 2)} (ws_floor's CPU)", f"{fmt(ratio(rc, rfc))}×", "< 1 s",
          None if rc is None else rc < 1)
    ia, il = fig("replay_apply_s"), fig("replay_layout_all_s")
    t.add("replay_inproc", "4. replay in process: apply / apply + lay out every row (s)",
          f"{fmt(ia, 2)} / {fmt(il, 2)}", "—", "—", "< 1 s",
          None if ia is None else ia < 1)
    th = med(res, "replay_tui_hwm_kb")
    hh = med(res, "replay_headless_rss_kb")
    json_mb = json_b / 1e6 if json_b else None
    rr = ratio(mb(th), json_mb)
    t.add("replay_rss", "4. replay: TUI peak RSS (MB) vs the events' JSON", fmt(mb(th), 1),
          f"{fmt(json_mb, 1)} MB of JSON; headless {fmt(mb(hh), 1)} MB",
          f"{fmt(rr)}×", "< 3×", None if rr is None else rr < 3)

    # 5. ingest
    ir = fig("ingest_ratio")
    t.add("ingest", "5. ingest: delta frames/s, decode → mask → transcript",
          fmt(fig("ingest_path_fps"), 0), f"{fmt(fig('ingest_parse_fps'), 0)} (cJSON parse only)",
          f"{fmt(ir)}×", "≥ 0.5×", None if ir is None else ir >= 0.5)

    # 6. masking (bench_mask, the keyring engineer's): MB/s in one buffer and in 64-byte feeds
    mem = fig("memcpy_MBps")
    for n in (10, 1000):
        v, v64 = fig(f"mask_{n}_secrets_MBps"), fig(f"mask_{n}_secrets_64B_feeds_MBps")
        t.add(f"mask_{n}", f"6. masking: MB/s with {n:,} secrets (64-byte feeds)",
              f"{fmt(v, 0)} ({fmt(v64, 0)})", f"{fmt(mem, 0)} (memcpy)", f"{fmt(ratio(v, mem), 3)}×",
              "> 100 MB/s" if n == 1000 else "—",
              (None if v is None else v > 100) if n == 1000 else None)

    # 7. paste: 5 MB bracketed, in the real TUI and in process (keys → editor → input layout)
    pt = med(res, "paste_tui_s")
    pt_ms = pt * 1000 if pt is not None else None
    p5, p1, pmb = fig("paste_5MB_ms"), fig("paste_1MB_ms"), fig("paste_5MB_MBps")
    t.add("paste", "7. paste: 5 MB bracketed paste, ms until on screen (TUI)", fmt(pt_ms, 0),
          f"in process {fmt(p5, 0)} ms ({fmt(pmb, 0)} MB/s); 1 MB {fmt(p1, 0)} ms",
          f"{fmt(ratio(pt_ms, p5))}×", "< 1,000 ms", None if pt_ms is None else pt_ms < 1000)

    # 8. headless window (issue 16): a dump holds a short tail, not the history
    h100, h100k = med(res, "hwin_rss_kb_100"), med(res, "hwin_rss_kb_100000")
    t.add("headless_rss", "8. headless dump: peak RSS (MB), 100,000 events",
          fmt(mb(h100k), 1), f"{fmt(mb(h100), 1)} (100 events)", f"{fmt(ratio(h100k, h100))}×",
          "< 24 MB", None if h100k is None else mb(h100k) < 24)
    hw, hf = med(res, "hwin_wall_s_100000"), med(res, "hwin_floor_s")
    hc, hfc = med(res, "hwin_cpu_s_100000"), med(res, "hwin_floor_cpu_s")
    tw, tc = med(res, "hwin_text_wall_s"), med(res, "hwin_text_cpu_s")
    hr = ratio(hw, hf)
    t.add("headless_throughput", "8. headless dump of 100,000 events: wall s (CPU s)",
          f"ndjson {fmt(hw, 2)} ({fmt(hc, 2)}); text {fmt(tw, 2)} ({fmt(tc, 2)})",
          f"{fmt(hf, 2)} ({fmt(hfc, 2)}) ws_floor", f"{fmt(hr)}× (text {fmt(ratio(tw, hf))}×)",
          "≤ 1.5× floor", None if hr is None else hr <= 1.5)

    # 9. TUI window (issue 16): open on the tail, page older history in, bounded memory
    o100, o100k = med(res, "twin_open_s_100"), med(res, "twin_open_s_100000")
    orr = ratio(o100k, o100)
    t.add("tui_open", "9. open a conversation: s until its newest event is on screen, 100,000 events",
          fmt(o100k, 3), f"{fmt(o100, 3)} (100 events); no count asked: {fmt(med(res, 'twin_open_s_nocount_100000'), 3)}; "
          f"the method alone (tmux's start, the poll): {fmt(med(res, 'twin_open_s_method'), 3)}",
          f"{fmt(orr)}×", "≤ 1.3× and < 0.150 s",
          None if orr is None else (orr <= 1.3 and o100k < 0.150))
    p100, p100k = med(res, "twin_open_s_paced_100"), med(res, "twin_open_s_paced_100000")
    t.add("tui_open_paced", "9. the same over a link paced at 10 MB/s",
          fmt(p100k, 3), f"{fmt(p100, 3)} (100 events)", f"{fmt(ratio(p100k, p100))}×",
          "< 0.300 s", None if p100k is None else p100k < 0.300)
    hwm, pages, top = med(res, "twin_top_back_hwm_kb"), med(res, "twin_pages"), med(res, "twin_to_top_s")
    t.add("tui_top_rss", "9. TUI peak RSS (MB) after Ctrl-Home to the very top of 100,000 events and back",
          fmt(mb(hwm), 1), f"top in {fmt(top, 2)} s, then {fmt(pages, 0)} pages", "—", "< 40 MB",
          None if hwm is None else mb(hwm) < 40)
    p50, p99 = med(res, "twin_page_p50_ms"), med(res, "twin_page_p99_ms")
    t.add("tui_page", "9. one page back into history not loaded: ms from asked to painted, p99",
          fmt(p99, 1), f"p50 {fmt(p50, 1)} (a render tick is 33.3)", "—", "< 100 ms",
          None if p99 is None else p99 < 100)

    # 10. History (issue 23): what one search and one Ctrl-Home cost the server
    sr, sc = med(res, "history_search_requests"), med(res, "history_search_conns")
    t.add("history_search", "10. Ctrl-R \"(turn 12)\" typed in 100,000 events: REST requests / TCP connections",
          f"{fmt(sr, 0)} / {fmt(sc, 0)}", "232 / 234 before issue 23 (same run)", "—",
          "≤ 20 over ≤ 2",
          None if sr is None or sc is None else (sr <= 20 and sc <= 2))
    ts, tr, tc = med(res, "history_top_s"), med(res, "history_top_requests"), med(res, "history_top_conns")
    t.add("history_top", "10. one Ctrl-Home to the first of 100,000 events: s (REST requests / connections)",
          f"{fmt(ts, 3)} ({fmt(tr, 0)} / {fmt(tc, 0)})", "before: not reached in 10 s (a page a press)", "—", "< 1 s",
          None if ts is None else ts < 1)

    # 11. Start-up (issue 28): exec to the newest event on screen, from tether's terminal bytes
    s100, s100k = med(res, "startup_ms_100"), med(res, "startup_ms_100000")
    c100, c100k = med(res, "startup_cpu_ms_100"), med(res, "startup_cpu_ms_100000")
    sr = ratio(s100k, s100)
    t.add("startup", "11. start-up: ms from exec to the newest event of a 100-event conversation on screen (CPU ms)",
          f"{fmt(s100, 0)} ({fmt(c100, 0)})", f"100,000 events: {fmt(s100k, 0)} ({fmt(c100k, 0)})",
          f"{fmt(sr)}× (100,000 / 100)", "< 100 ms; 100,000 ≤ 1.1×",
          None if s100 is None or sr is None else (s100 < 100 and sr <= 1.1))
    return t


def peers_table(t, runs):
    """The same-run peers as a table for bench/peers.md, with tether's row from the same rounds."""
    out = [f"## Measured {today()} by `scripts/bench --peers` (same run as tether; medians of {runs} rounds)",
           "",
           "| client | CPU s / 1k deltas (while streaming) | bytes to the terminal / 1k deltas: "
           "while streaming (from start-up) | peak RSS | whole answer on screen |",
           "|---|---|---|---|---|"]
    rows = [(f"{p[0]}{' (TUI + its daemon)' if p[0].startswith('Codex') else ''}", p[1],
             f"{fmt(p[2])} ({fmt(p[5])})", p[3], p[4]) for p in t.peers]
    c, b, r, w = t.tether_stream
    rows.append(("tether (the same rounds)", c, f"— ({fmt(b)})", r, w))
    for client, cpu, nbytes, rss, whole in rows:
        out.append(f"| {client} | {fmt(cpu, 3 if cpu is not None and cpu < 1 else 2)} | "
                   f"{nbytes} | {fmt(rss, 1 if rss is not None and rss < 100 else 0)} MB | {whole} |")
    return "\n".join(out)


def causes_for(missed):
    """Profiled causes, by figure key, from bench/causes.md (### key ... paragraphs)."""
    path = os.path.join(HERE, "causes.md")
    if not os.path.exists(path):
        return []
    blocks, key, buf = {}, None, []
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^### (\S+)", line)
        if m:
            if key:
                blocks[key] = " ".join(buf).strip()
            key, buf = m.group(1), []
        elif key:
            buf.append(line.strip())
    if key:
        blocks[key] = " ".join(buf).strip()
    return [(fig, blocks.get(k)) for k, fig in missed]


def machine():
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}"


def today():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")


def section(t, runs):
    date = today()
    lines = [
        "## Figures", "",
        f"Measured {date} on {machine()} (shared and noisy), `build-bench` (release), by",
        "`scripts/bench`, which runs every benchmark and rewrites this section (2–4 minutes).",
        f"Live figures are medians of {runs} rounds; each is set against a floor measured in the",
        "same run, or against the peers (`--peers`: in the same run; otherwise the last table of",
        "`bench/peers.md`, same answer, same machine kind, as the row says). Absolute numbers are",
        "for information; the ratios are the figures.", "",
        t.markdown(), "",
        "How each is measured:", "",
        "- **Streaming**: the fixture server streams `bench/answer.md` as 2,086 deltas of 4",
        "  characters at 200/s; tether runs at 120x40 in tmux. CPU is tether's process CPU clock,",
        "  sampled once its start-up is over (before the stream) and when the answer's last word is",
        "  on screen; peak RSS is its VmHWM then; bytes are everything tmux `pipe-pane` saw from",
        "  tether's first byte until then. The floor is `bench/ws_floor` on the same stream in the",
        "  same round: it reassembles and discards messages (no JSON, no screen), CPU from the first",
        "  delta. Per 1k deltas = per 1,000 of the 2,086.",
        "  \"Whole answer\": the TUI's own scrollback is paged back and every word of the answer must",
        "  be found on the pages, in order.",
        "- **Peers** (row 1; `scripts/bench --peers`): Claude Code, Codex CLI and opencode, pinned",
        "  (`bench/peers.sh`), installed from npm into a scratch folder outside the tree",
        "  (`~/.cache/tether-bench-peers`), each run in the same tmux at 120x40 with HOME there and",
        "  streamed the same answer at the same pace by `bench/mock_provider.py` in the API it speaks",
        "  (Anthropic Messages, OpenAI Responses, chat completions), in every streaming round after",
        "  tether. CPU is the peer's whole process tree (every descendant, and Codex's app-server",
        "  daemon, which leaves the tree: `bench/tree_probe`), sampled when the mock sends the first",
        "  delta and when the answer's last word is on screen; bytes are counted from the first delta",
        "  (tether's from its start-up); peak RSS is the sum of the tree's VmHWM. The whole answer is",
        "  looked for in the pane's history, else paged back in the peer's own view.",
        "- **Paint**: `bench/bench_paint` calls the TUI's `paint_frame` at 120x40 on an ncurses screen",
        "  (`tmux-256color`, output to a file) while a stream grows by 7 deltas per frame, with 100,",
        "  10,000 and 100,000 items of generated history in the transcript; CPU per frame of reveal +",
        "  paint, median of 5 interleaved rounds of 400 frames.",
        "- **Latency**: tether's own counter (`$TETHER_STATS`): for every delta, the time from its",
        "  arrival to the end of the frame that painted it.",
        "- **Replay**: the fixture's `history 100000` (outputs up to 8 KB, `bench/replay.scenario`);",
        "  the TUI is timed from the start of its tmux session until the marker event after the",
        "  history is on screen (polled every 20 ms), its peak RSS is VmHWM then; JSON bytes are what",
        "  the floor received. `bench/bench_replay` does the same in process (decode → sanitize →",
        "  mask → transcript) and also lays out every row of every item at width 120.",
        "- **Ingest**: `bench/bench_ingest`, 200,000 delta frames (answer.md plus CJK/emoji, 20 secrets",
        "  woven in), the controller's per-delta path against `cJSON_Parse` + `cJSON_Delete` alone.",
        "- **Masking**: `bench/bench_mask` (the masker's own benchmark).",
        "- **Paste**: 5 MB of text lines pasted by tmux `paste-buffer -p` (bracketed, LF sent as CR)",
        "  into the TUI's empty input at 120x40, timed until its last line is on screen (polled every",
        "  20 ms); in process, `bench/bench_paste` feeds 1 MB and 5 MB pastes in 64 KiB reads through",
        "  the key decoder, the editor and the input's layout (best of 3).",
        "- **Headless dump** (8): `tether --headless` over the same 100,000 generated events, ndjson",
        "  and text to /dev/null, peak RSS (VmHWM) against a 100-event dump, wall and CPU against",
        "  `ws_floor` receiving the same bytes.",
        "- **Open and page** (9; also row 4's TUI figures since issue 16): the TUI opens on the tail",
        "  (`events/count`, then a screenful of events by socket, the rest of `history_window` = 200 by",
        "  pages after the first frame); timed from the tmux session's",
        "  start until the newest event is on screen (polled every 10 ms; timed the same way, a program",
        "  that prints at once is \"the method alone\"), at 100 and 100,000 events,",
        "  then with the fixture pacing socket and REST bytes at 10 MB/s; then Ctrl-Home to the very top",
        "  (the oldest page asked directly since issue 23; before, a page per press), 60 PgDn into the",
        "  history not loaded below it and End back, peak RSS",
        "  then; pages timed by tether from asking a page to the frame that shows it (`$TETHER_STATS`).",
        "- **Start-up** (11): the fixture's generated history of 100 and of 100,000 events (the newest",
        "  event last); the pane's shell notes the clock and execs tether, and `bench/stamp`, fed every",
        "  byte tether writes by tmux `pipe-pane`, notes the clock and tether's CPU clock when the newest",
        "  event's text arrives (no polling of the screen); median of at least 5 rounds.",
    ]
    missed = causes_for(t.missed)
    if missed:
        lines += ["", "Targets missed, and why (found with perf; see `bench/causes.md`):", ""]
        for fig, cause in missed:
            lines.append(f"- {fig}: {cause or 'not profiled yet.'}")
    return "\n".join(lines) + "\n"


def rewrite_readme(path, text):
    old = open(path, encoding="utf-8").read()
    m = re.search(r"^## Figures\n.*?(?=^## |\Z)", old, flags=re.S | re.M)
    new = old[:m.start()] + text + ("\n" + old[m.end():] if m.end() < len(old) else "") if m \
        else old.rstrip("\n") + "\n\n" + text
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--check-answer":
        return check_answer(sys.argv[2], sys.argv[3:])
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--benchlog", required=True)
    ap.add_argument("--answer", required=True)
    ap.add_argument("--peers", required=True)
    ap.add_argument("--readme")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    t = build(args)
    print(t.markdown())
    if t.peers:
        print("\n" + peers_table(t, args.runs))
    if t.missed:
        print("\nmissed: " + "; ".join(f for _, f in t.missed))
    if args.readme:
        rewrite_readme(args.readme, section(t, args.runs))
        print(f"\n{args.readme}: \"## Figures\" rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
