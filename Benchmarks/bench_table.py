#!/usr/bin/env python3
"""The `make bench` report: one Markdown document from the results folder bench.sh filled.

Usage: bench_table.py OUT

Reads OUT/meta.tsv (machine, commands), OUT/peers/results.tsv (every peer, every load
scenario + idle), OUT/colors/results.tsv (the colors scene, idle), OUT/slow-reader/
slow-reader.json, and the wsload outputs beside them. Missing files or peers are reported
as missing, never guessed. Python 3 standard library only.
"""
import csv
import json
import os
import re
import statistics
import sys

SCENARIOS = [("lat", "lat1x1", "1 connection, depth 1 (median over the repeats)"),
             ("thr", "thr64x1", "64 connections, depth 1"),
             ("pipe", "pipe64x16", "64 connections, depth 16")]


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def fmt(value, digits=0):
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def fx(value):
    return "-" if value is None else f"{value:.2f}×"


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def read_meta(out):
    meta = {}
    path = os.path.join(out, "meta.tsv")
    if os.path.exists(path):
        for line in open(path):
            key, _, val = line.rstrip("\n").partition("\t")
            meta.setdefault(key, []).append(val)
    return meta


def load_rows(rows, prefix):
    """Per peer: the rows of one scenario; median of each figure over the repeats."""
    by_peer = {}
    for row in rows:
        if row["scenario"].startswith(prefix):
            by_peer.setdefault(row["peer"], []).append(row)
    merged = {}
    for peer, runs in by_peer.items():
        def med(key):
            vals = [v for v in (num(r[key]) for r in runs) if v is not None]
            return statistics.median(vals) if vals else None
        others = [v for v in (num(r["other_cpu_pct"]) for r in runs) if v is not None]
        errors = [v for v in (num(r["errors"]) for r in runs) if v is not None]
        merged[peer] = {
            "runs": len(runs), "rate": med("msgs_per_s"), "p50": med("p50_us"), "p99": med("p99_us"),
            "cpu": med("server_cpu_us_per_msg"), "other": max(others) if others else None,
            # a run without a RESULT line has no figures at all: count it as failed
            "errors": sum(errors) if len(errors) == len(runs) else None,
        }
    return merged


def idle_time(path):
    """(established, requested, seconds) from wsload's `connected: N/M in X s` line."""
    if os.path.exists(path):
        m = re.search(r"^connected: (\d+)/(\d+) in ([\d.]+) s", open(path).read(), re.M)
        if m:
            return int(m.group(1)), int(m.group(2)), float(m.group(3))
    return None, None, None


def log_lines(path):
    """Lines the server wrote beyond its start/stop banner (it runs with --log-level error)."""
    if not os.path.exists(path):
        return []
    banner = re.compile(r"^(bindery: (listening on|SIGTERM|SIGINT|stopp)|.*msg=(\"listening on|stopping))")
    return [l.rstrip() for l in open(path) if l.strip() and not banner.match(l)]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    meta = read_meta(out)
    first = lambda key, default="?": meta.get(key, [default])[0]
    peers = first("peers", "raw-limit lws-default lws-uv hummingbird bindery").split()
    peer_rows = read_tsv(os.path.join(out, "peers", "results.tsv"))
    color_rows = read_tsv(os.path.join(out, "colors", "results.tsv"))
    lines = []
    p = lines.append
    targets = []  # (what, measured, met)

    p("# Bindery full-stack benchmark")
    p("")
    p(f"- date: {first('started')} to {first('finished', 'unfinished')}")
    p(f"- machine: {first('nproc')} CPUs, {first('cpu')}, {first('kernel')}")
    p(f"- {first('swift')}; bindery at {first('commit')}")
    p(f"- command: `{first('invoked')}` with {first('knobs')}")
    p("")
    p("Exact commands (`$bindery_cmd` below):")
    p("")
    p("```")
    p(f"bindery_cmd='{first('bindery_cmd')}'")
    for cmd in meta.get("run-all", []) + meta.get("slow-reader", []):
        p(cmd)
    p("```")
    p("")
    p("Server on CPU 0, load generator on CPU 1 (unless PIN=0). `×` is the ratio to raw-limit (the least-work "
      "single-threaded server: the ceiling of one event loop). `server CPU` is the server's CPU time per reply. "
      "`other CPU%` is what the rest of the machine used in the window (% of one core; for `lat` the worst "
      "repeat): a row with a high figure there was measured on a busy machine.")
    p("")

    missing = [peer for peer in peers if not any(r["peer"] == peer for r in peer_rows)]
    if missing:
        p(f"**No results for: {', '.join(missing)}** (see `{out}/peers/<peer>.server.log` and `run-all.log`).")
        # run-all.sh's own words on why (a failed build, a busy port, an exit at start)
        log = os.path.join(out, "peers", "run-all.log")
        why = re.compile(r"FAILED|already in use|exited at start|did not listen|unknown peer|set BINDERY_CMD|exited with")
        reasons = [l.strip() for l in open(log) if why.search(l)] if os.path.exists(log) else ["no run-all.log"]
        for reason in reasons[:10]:
            p(f"- `{reason}`")
        p("")

    summary_at = len(lines)  # the one-table summary goes here, once everything is read

    # (a) load scenarios
    loads = {}
    for short, prefix, title in SCENARIOS:
        data = load_rows(peer_rows, prefix)
        loads[short] = data
        p(f"## `{short}`: {title}")
        p("")
        p("| peer | msgs/s | ×raw-limit | p50 µs | × | p99 µs | × | server CPU µs/msg | × | other CPU% | errors |")
        p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        raw = data.get("raw-limit", {})
        for peer in peers:
            d = data.get(peer)
            if not d:
                p(f"| {peer} | no result | | | | | | | | | |")
                continue
            p(f"| {peer} | {fmt(d['rate'])} | {fx(ratio(d['rate'], raw.get('rate')))} "
              f"| {fmt(d['p50'], 1)} | {fx(ratio(d['p50'], raw.get('p50')))} "
              f"| {fmt(d['p99'], 1)} | {fx(ratio(d['p99'], raw.get('p99')))} "
              f"| {fmt(d['cpu'], 2)} | {fx(ratio(d['cpu'], raw.get('cpu')))} "
              f"| {fmt(d['other'])} | {'no RESULT' if d['errors'] is None else fmt(d['errors'])} |")
        p("")

    # (b) idle memory
    p(f"## Idle memory: {first('knobs').split('IDLE_CONNS=')[-1].split()[0] if 'IDLE_CONNS=' in first('knobs') else '10000'} "
      "connections held on a fresh server")
    p("")
    p("| peer | KiB per connection | RSS before KiB | RSS with them KiB | connected | time to open s | errors |")
    p("|---|---:|---:|---:|---:|---:|---:|")
    idle = {}
    sources = [(peer, peer, peer_rows, os.path.join(out, "peers")) for peer in peers if peer != "bindery"]
    if "bindery" in peers:
        sources.append(("bindery echo", "bindery", peer_rows, os.path.join(out, "peers")))
    sources.append(("bindery colors", "bindery", color_rows, os.path.join(out, "colors")))
    for label, peer, rows, folder in sources:
        row = next((r for r in rows if r["peer"] == peer and r["scenario"] == "idle"), None)
        est, req, secs = idle_time(os.path.join(folder, f"{peer}.idle.txt"))
        if row is None:
            p(f"| {label} | no result | | | | | |")
            continue
        d = {"per": num(row["kb_per_conn"]), "errors": num(row["errors"]), "est": est, "req": req, "secs": secs}
        idle[label] = d
        p(f"| {label} | {fmt(d['per'], 2)} | {fmt(num(row['rss_before_kb']))} | {fmt(num(row['rss_after_kb']))} "
          f"| {'-' if est is None else f'{est:,}/{req:,}'} | {fmt(secs, 2)} "
          f"| {'no RESULT' if d['errors'] is None else fmt(d['errors'])} |")
    p("")

    # The summary: every peer on one row, each figure as a ratio to raw-limit.
    def cell(short, key, digits):
        d, raw = loads.get(short, {}), loads.get(short, {}).get("raw-limit", {})
        return lambda peer: "" if not d.get(peer) else \
            f"{fmt(d[peer][key], digits)} ({fx(ratio(d[peer][key], raw.get(key)))})"
    columns = [("lat p50 µs", cell("lat", "p50", 1)), ("lat p99 µs", cell("lat", "p99", 1)),
               ("thr msgs/s", cell("thr", "rate", 0)), ("pipe msgs/s", cell("pipe", "rate", 0)),
               ("pipe p99 µs", cell("pipe", "p99", 1)), ("pipe server CPU µs/msg", cell("pipe", "cpu", 2))]
    summary = ["## All peers in one table", "",
               "Each figure with its ratio to raw-limit's in brackets (the per-scenario tables below have the rest).", "",
               "| peer | " + " | ".join(name for name, _ in columns) + " | idle KiB/conn |",
               "|---|" + "---:|" * (len(columns) + 1)]
    for peer in peers:
        label = "bindery echo" if peer == "bindery" else peer
        per = idle.get(label, {}).get("per")
        summary.append(f"| {peer} | " + " | ".join(get(peer) for _, get in columns) + f" | {fmt(per, 2)} |")
    if "bindery colors" in idle:
        summary.append("| bindery colors | " + " | ".join("" for _ in columns) + f" | {fmt(idle['bindery colors']['per'], 2)} |")
    summary.append("")
    lines[summary_at:summary_at] = summary

    # (c) slow reader
    sr_path = os.path.join(out, "slow-reader", "slow-reader.json")
    sr = json.load(open(sr_path)) if os.path.exists(sr_path) else {"error": "not run"}
    p("## Slow readers")
    p("")
    if "error" in sr:
        p(f"Not measured: {sr['error']}.")
    else:
        u, l, s = sr["unloaded"], sr["loaded"], sr["slow"]
        p(f"One measured client (wsload, 1 connection, depth 1, {sr['warmup_s']:g} s warm-up, {sr['duration_s']:g} s) "
          f"on the echo scene, alone and then while {sr['readers']} readers (SO_RCVBUF {sr['rcvbuf']}) send events "
          "as fast as their sockets accept and never read a byte. The server stops reading a socket whose output is "
          "backpressured, so their sends stall: expected. VmRSS sampled every 0.5 s over the loaded window.")
        p("")
        p("| | msgs/s | p50 µs | p99 µs | p99.9 µs | max µs | errors |")
        p("|---|---:|---:|---:|---:|---:|---:|")
        for name, r in (("alone", u), (f"beside {sr['readers']} slow readers", l)):
            p(f"| {name} | {fmt(r.get('msgs_per_s'))} | {fmt(r.get('p50_us'), 1)} | {fmt(r.get('p99_us'), 1)} "
              f"| {fmt(r.get('p999_us'), 1)} | {fmt(r.get('max_us'), 1)} "
              f"| {fmt(r.get('errors')) if r.get('ok') else 'no RESULT'} |")
        p("")
        p(f"- p99 beside the slow readers ÷ alone: **{fx(sr.get('p99_ratio'))}**")
        p(f"- server RSS: {fmt(sr['rss_before_kib'])} KiB before, max {fmt(sr['rss_max_kib'])} KiB, "
          f"{fmt(sr['rss_after_kib'])} KiB 2 s after the readers closed; max in the window's first half "
          f"{fmt(sr['rss_max_first_half_kib'])} KiB, second half {fmt(sr['rss_max_second_half_kib'])} KiB")
        p(f"- readers: {s['connected']}/{sr['readers']} connected"
          + (f" ({len(s['connect_errors'])} failed: {s['connect_errors'][0]})" if s["connect_errors"] else "")
          + f", {s['stalled']} held off by the server at the end (no byte accepted for 1 s), "
          f"{s['closed_by_server']} closed by the server"
          + (f" ({'; '.join(s['close_errors'])})" if s["close_errors"] else "")
          + f"; sent {fmt(sum(s['bytes_sent']) / 1048576, 1)} MiB in all before stalling "
          f"(last byte accepted {min(s['last_progress_s'], default=0):.1f}-{max(s['last_progress_s'], default=0):.1f} s "
          "into the window)")
    p("")

    # server logs: the bindery runs log at level error, so any line is worth a look
    logs, found = [], 0
    for folder in ("peers", "colors", "slow-reader"):
        path = os.path.join(out, folder, "bindery.server.log")
        found += os.path.exists(path)
        logs += [f"{folder}/bindery.server.log: {line}" for line in log_lines(path)]
    p("## Bindery's logs (level error)")
    p("")
    if logs:
        p(f"{len(logs)} lines; the first ones:")
        p("")
        p("```")
        for line in logs[:15]:
            p(line)
        p("```")
    elif found:
        p("Nothing logged besides start and stop.")
    else:
        p("No bindery log found.")
    p("")

    # (d) targets
    def target(what, value, shown, ok):
        targets.append((what, shown if value is not None else "no data", value is not None and ok))

    b = {k: loads[k].get("bindery") for k in loads}
    rl = {k: loads[k].get("raw-limit") for k in loads}
    pipe = b["pipe"] or {}
    v = pipe.get("cpu")
    target("echo `pipe` server CPU ≤ 3 µs/msg", v, f"{fmt(v, 2)} µs/msg", v is not None and v <= 3)
    for peer, want in (("raw-limit", 0.25), ("lws-default", 3), ("hummingbird", 5)):
        other = loads["pipe"].get(peer) or {}
        v = ratio(pipe.get("rate"), other.get("rate"))
        target(f"`pipe` throughput ≥ {want:g}× {peer}", v,
               f"{fx(v)} ({fmt(pipe.get('rate'))} vs {fmt(other.get('rate'))} msgs/s)", v is not None and v >= want)
    lat, rlat = b["lat"] or {}, rl["lat"] or {}
    v = ratio(lat.get("p50"), rlat.get("p50"))
    target("`lat` p50 ≤ 1.3× raw-limit's", v, f"{fx(v)} ({fmt(lat.get('p50'), 1)} vs {fmt(rlat.get('p50'), 1)} µs)",
           v is not None and v <= 1.3)
    v = ratio(lat.get("p99"), rlat.get("p99"))
    target("`lat` p99 ≤ 2× raw-limit's", v, f"{fx(v)} ({fmt(lat.get('p99'), 1)} vs {fmt(rlat.get('p99'), 1)} µs)",
           v is not None and v <= 2)
    for label, limit in (("bindery echo", 6), ("bindery colors", 16)):
        v = (idle.get(label) or {}).get("per")
        target(f"≤ {limit} KiB per idle {label.split()[1]} session", v, f"{fmt(v, 2)} KiB", v is not None and v <= limit)
    for label in ("bindery echo", "bindery colors"):
        d = idle.get(label) or {}
        ok = (d.get("est") is not None and d["est"] == d["req"] and d["req"] >= 10000 and d.get("errors") == 0
              and d.get("secs") is not None and d["secs"] < 5)
        shown = (f"{d['est']:,}/{d['req']:,} in {d['secs']:.2f} s, {fmt(d.get('errors'))} errors"
                 if d.get("est") is not None else None)
        target(f"10,000 {label.split()[1]} sessions opened in < 5 s, 0 errors", shown, shown, ok)
    if "error" in sr:
        for what in ("slow readers: others' p99 ≤ 2× alone", "slow readers: server RSS bounded",
                     "slow readers: measured client 0 errors"):
            target(what, None, None, False)
    else:
        v = sr.get("p99_ratio")
        target("slow readers: others' p99 ≤ 2× alone", v,
               f"{fx(v)} ({fmt(sr['loaded'].get('p99_us'), 1)} vs {fmt(sr['unloaded'].get('p99_us'), 1)} µs)",
               v is not None and v <= 2)
        # Bounded = the second half of the window adds nothing beyond noise (5% or 1 MiB) to the first half's peak.
        h1, h2 = sr["rss_max_first_half_kib"], sr["rss_max_second_half_kib"]
        target("slow readers: server RSS bounded (2nd-half max ≤ 1st-half max + max(5%, 1 MiB))", h1 or None,
               f"{fmt(h1)} → {fmt(h2)} KiB", bool(h1) and h2 <= h1 + max(0.05 * h1, 1024))
        e = [sr[k].get("errors") if sr[k].get("ok") else None for k in ("unloaded", "loaded")]
        target("slow readers: measured client 0 errors", 0 if None not in e else None,
               f"{e[0]} alone, {e[1]} beside the readers", e == [0, 0])

    p("## Targets")
    p("")
    p("| target | measured | |")
    p("|---|---|---|")
    for what, shown, ok in targets:
        p(f"| {what} | {shown} | {'met' if ok else '**NOT met**'} |")
    met = sum(1 for _, _, ok in targets if ok)
    p("")
    p(f"{met} of {len(targets)} met.")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
