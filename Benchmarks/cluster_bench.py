"""Cluster benchmarks (`make bench-cluster`): release bindery processes, a private
redis-server (unix socket, --save '' --appendonly yes), side by side in one run.

usage: python Benchmarks/cluster_bench.py .build/release/bindery [--seconds 10] [--only NAME,...]

  echo      echo p50/p99 at a fixed 5,000 events/s (open loop, 8 connections, one process),
            `--store redis+unix://...` beside no store; plus wsload's closed loop (1
            connection, depth 1) for both. Target: the store adds <= 0.3 ms to the p50.
  board     one shared board over 4 processes: writers spread over the 4 processes at a
            fixed 10,000 events/s, 1,000 viewers (250 per process) draining every patch;
            ack p50/p99 (target p99 <= 20 ms), events acknowledged per second.
            With --callgrind (and a rate valgrind keeps up with, e.g. --board-rates 150
            --board-viewers 4): instructions per acked event of the owner and of each
            edge, deterministic where the latencies are not (profiles left in
            /tmp/bindery-cluster-callgrind-*/cg.<pid>.1 for callgrind_annotate).
  resume    sessions with 1-100 acknowledged events each on one process; SIGKILL it;
            resume each on another process: time to the `scene`, p50/p99 (targets 20 /
            250 ms), and every one resumed:true with its last text.
  failover  writers on the board at 1,000 events/s; each process in turn is killed and
            restarted; the longest time without an ack on the survivors (the owner's
            kill shows the shared scene's failover; target <= 2 s).
  memory    Redis INFO used_memory before/after 1,000 idle sessions (scene only, closed,
            within the grace period), and after 10 events each; bytes per session.

Open-loop latency is measured from the send to the answer with that `ack` by a Python
client (its own overhead, ~50-100 µs, is in both columns alike); read the ratios.
"""
import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "Cluster"))
from cluster import HOST, Cluster  # noqa: E402  (puts Tests/Python on the path)
from bindery_client import ZERO_KEY, Client  # noqa: E402

WSLOAD_SRC = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "bench", "wsload", "wsload.c")
for candidate in [WSLOAD_SRC, "/work/shared/bench/wsload/wsload.c"]:
    if os.path.exists(candidate):
        WSLOAD_SRC = candidate
        break


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def cpu_seconds(pid):
    """User + system CPU time of `pid` so far (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def cpu_snapshot(groups):
    """{group: CPU seconds} for {group: [pid, ...]}."""
    return {name: sum(cpu_seconds(pid) for pid in pids) for name, pids in groups.items()}


def ms(seconds):
    return f"{seconds * 1000:.2f}"


# ------------------------------------------------------------------------ a lean client

async def open_conn(port, path):
    """A WebSocket past its scene (a zero mask, a 4 MiB read buffer): (conn, scene, the
    bytes of every later message)."""
    conn = await Client.connect(HOST, port, path, timeout=10, limit=1 << 22, key=ZERO_KEY)
    if conn.status != 101:
        raise ConnectionError(f"HTTP {conn.status}")
    scene = await conn.recv(timeout=10)
    return conn, scene, conn.payloads()


async def open_loop(conns, rate, seconds, make_event, warmup=1.0):
    """Sends `rate` events/s spread over `conns` (each already past its scene), records
    send→ack latency of the events sent after `warmup`. Returns (latencies, sent, acked)."""
    sent_at = {}
    latencies = []
    counts = {"sent": 0, "acked": 0, "errors": 0}
    measure_from = time.monotonic() + warmup
    stop_at = measure_from + seconds

    async def reader(index, gen):
        async for payload in gen:
            if b'"ack"' not in payload:
                continue
            message = json.loads(payload)
            key = (index, message["ack"])
            t = sent_at.pop(key, None)
            if t is None:
                continue
            if message.get("type") != "patch":
                counts["errors"] += 1
                code = message.get("code", message.get("type"))
                counts.setdefault("codes", {})
                counts["codes"][code] = counts["codes"].get(code, 0) + 1
                continue
            counts["acked"] += 1
            if t >= measure_from:
                latencies.append(time.monotonic() - t)

    readers = [asyncio.ensure_future(reader(i, gen)) for i, (conn, gen) in enumerate(conns)]
    seq = [0] * len(conns)
    start = time.monotonic()
    sent = 0
    while True:
        now = time.monotonic()
        if now >= stop_at:
            break
        due = int((now - start) * rate) - sent
        for _ in range(due):
            i = sent % len(conns)
            seq[i] += 1
            conn = conns[i][0]
            sent_at[(i, seq[i])] = time.monotonic()
            conn.send(make_event(i, seq[i]))
            sent += 1
        await asyncio.sleep(0.0005)
    await asyncio.sleep(1.0)  # the last answers
    for r in readers:
        r.cancel()
    counts["sent"] = sent
    counts["unanswered"] = len(sent_at)
    return latencies, counts


def echo_event(i, seq):
    return {"type": "event", "seq": seq, "target": "input", "event": "editingChanged", "value": f"hello {seq}"}


# ------------------------------------------------------------------------------- scenarios

def build_wsload():
    out = "/tmp/bindery-cluster-bench/wsload"
    if not os.path.exists(out) and os.path.exists(WSLOAD_SRC):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run(["gcc", "-O2", "-Wall", "-o", out, WSLOAD_SRC, "-lpthread"], check=True)
    return out if os.path.exists(out) else None


def wsload(port, seconds):
    tool = build_wsload()
    if not tool:
        return None
    result = subprocess.run([tool, "--url", f"{HOST}:{port}/ws/echo", "--connections", "1", "--depth", "1",
                             "--duration", str(seconds), "--warmup", "1", "--quiet"], capture_output=True, text=True)
    line = [l for l in result.stdout.splitlines() if l.startswith("RESULT")]
    return dict(kv.split("=") for kv in line[-1].split()[1:]) if line else None


async def echo(binary, seconds, rate=5000):
    """The echo path without a store, with Redis (unix socket) and with SQLite (a file in a
    fresh temporary folder): each store's cost on the p50 against none, measured in one run."""
    folder = tempfile.mkdtemp(prefix="bindery-echo-sqlite-")
    stores = [("none", False, ()), ("redis (unix socket)", True, ()),
              ("sqlite (file)", False, ("--store", f"sqlite:{os.path.join(folder, 'sessions.db')}"))]
    rows = []
    for name, redis, extra in stores:
        cluster = Cluster(binary, n=1, store=redis, extra_args=extra)
        cluster.start_redis()
        cluster.start(0)
        try:
            port = cluster.ports[0]
            conns = []
            for _ in range(8):
                conn, _, gen = await open_conn(port, "/ws/echo")
                conns.append((conn, gen))
            latencies, counts = await open_loop(conns, rate, seconds, echo_event)
            for conn, _ in conns:
                conn.abort()
            closed = await asyncio.to_thread(wsload, port, min(seconds, 5))
            rows.append((name, latencies, counts, closed))
        finally:
            cluster.stop_all()
    print(f"\n### echo at {rate} events/s, one process, open loop ({seconds:.0f} s, 8 connections)\n")
    print("| store | events/s acked | p50 ms | p99 ms | p99.9 ms | unanswered | wsload 1x1 p50 µs | p99 µs | msgs/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, lat, counts, closed in rows:
        c = closed or {}
        print(f"| {name} | {len(lat) / seconds:,.0f} | {ms(pct(lat, 50))} | "
              f"{ms(pct(lat, 99))} | {ms(pct(lat, 99.9))} | {counts['unanswered']} | {c.get('p50_us', '-')} | "
              f"{c.get('p99_us', '-')} | {c.get('msgs_per_s', '-')} |")
    base = rows[0][1]
    for name, lat, _, _ in rows[1:]:
        if base and lat:
            print(f"\n{name} adds {ms(pct(lat, 50) - pct(base, 50))} ms to the p50 (ratio {pct(lat, 50) / pct(base, 50):.2f}); "
                  f"p99 ratio {pct(lat, 99) / pct(base, 99):.2f}; target: +<= 0.30 ms p50")


async def board(binary, seconds, rate=10000, viewers=1000, callgrind=False):
    if callgrind:
        callgrind = callgrind_wrapper(os.path.abspath(binary))
        binary = os.path.join(callgrind, "bindery")
    cluster = Cluster(binary, n=4)
    cluster.start_all()
    try:
        # Viewers: wsload --idle (C, its own process), 1/4 on each process; they read and
        # drop every patch, so the Python writers below are not starved.
        tool = build_wsload()
        holders = []
        for port in cluster.ports:
            holders.append(subprocess.Popen([tool, "--url", f"{HOST}:{port}/ws/board", "--idle", "--connections",
                                             str(viewers // 4), "--duration", str(int(seconds + 8))],
                                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        ready = 0
        for holder in holders:
            for line in holder.stdout:
                if line.startswith("IDLE_READY"):
                    ready += int(line.split("conns=")[1])
                    break
        conns = []
        for i in range(8):
            conn, _, gen = await open_conn(cluster.ports[i % 4], "/ws/board")
            conns.append((conn, gen))
        value = [0]

        def board_event(i, seq):
            value[0] += 1
            return {"type": "event", "seq": seq, "target": "sharedSlider", "event": "valueChanged",
                    "value": round((value[0] % 1000) / 1000, 3)}

        groups = {"bindery": [p.pid for p in cluster.procs], "redis": [cluster.redis.pid],
                  "viewers": [h.pid for h in holders], "writers": [os.getpid()]}
        if callgrind:
            for p in cluster.procs:
                subprocess.run(["callgrind_control", "-z", str(p.pid)], capture_output=True)
        cpu_before, wall_before = cpu_snapshot(groups), time.monotonic()
        latencies, counts = await open_loop(conns, rate, seconds, board_event)
        cpu_after, wall = cpu_snapshot(groups), time.monotonic() - wall_before
        instructions = [callgrind_dump(p.pid, callgrind) for p in cluster.procs] if callgrind else []
        for conn, _ in conns:
            conn.abort()
        results = []
        for holder in holders:
            out = holder.communicate()[0]
            results += [line for line in out.splitlines() if line.startswith("RESULT")]
        print(f"\n### one shared board over 4 processes, {rate:,} events/s offered by 8 writers (2 per process), "
              f"{viewers:,} viewers ({seconds:.0f} s)\n")
        print("| events/s acked | ack p50 ms | p99 ms | p99.9 ms | unanswered | errors | viewers connected |")
        print("|---|---|---|---|---|---|---|")
        print(f"| {len(latencies) / seconds:,.0f} | {ms(pct(latencies, 50))} | {ms(pct(latencies, 99))} | "
              f"{ms(pct(latencies, 99.9))} | {counts['unanswered']} | {counts['errors']} {counts.get('codes', '')} | {ready} |")
        # Where the 2 cores went meanwhile (CPU seconds per wall second; the rest of the
        # machine's load is not in it).
        print("\nCPU (cores busy) during the run: " + ", ".join(
            f"{name} {(cpu_after[name] - cpu_before[name]) / wall:.2f}" for name in groups) +
            f"; load average {os.getloadavg()[0]:.1f}")
        if instructions and latencies:
            # Deterministic CPU work, unlike the latencies: instructions (callgrind's Ir) of
            # each process per acknowledged event. The owner applies every event, so it is
            # the largest; the other three are edges.
            per = sorted(((n / len(latencies), port) for n, port in zip(instructions, cluster.ports)), reverse=True)
            print("\nIr per acked event: owner " + f"{per[0][0]:,.0f}" + ", edges " +
                  ", ".join(f"{n:,.0f}" for n, _ in per[1:]) +
                  f"; all four {sum(n for n, _ in per):,.0f} ({len(latencies):,} events)")
    finally:
        cluster.stop_all()


def callgrind_wrapper(binary):
    """A directory holding `bindery`: a script running a copy of `binary` (without debug
    info, which valgrind cannot always read) under callgrind, one profile per process."""
    out = tempfile.mkdtemp(prefix="bindery-cluster-callgrind-")
    subprocess.run(["objcopy", "--strip-debug", binary, os.path.join(out, "bindery.real")], check=True)
    script = os.path.join(out, "bindery")
    with open(script, "w") as f:
        f.write(f"#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file={out}/cg.%p --dump-instr=no "
                f"{out}/bindery.real \"$@\" 2>>{out}/valgrind.log\n")
    os.chmod(script, 0o755)
    return out


def callgrind_dump(pid, out):
    """Instructions `pid` (a process under callgrind) ran since its counters were zeroed."""
    subprocess.run(["callgrind_control", "-d", str(pid)], capture_output=True)
    total = 0
    for name in os.listdir(out):
        if name.startswith(f"cg.{pid}.") and name[len(f"cg.{pid}."):].isdigit():
            with open(os.path.join(out, name)) as f:
                for line in f:
                    if line.startswith("totals:") or line.startswith("summary:"):
                        total = max(total, int(line.split()[1]))
    return total


async def resume(binary, seconds, sessions=200):
    cluster = Cluster(binary, n=2)
    cluster.start_all()
    try:
        rng = random.Random(1)
        tokens = []
        for s in range(sessions):
            conn, scene, gen = await open_conn(cluster.ports[0], "/ws/echo")
            k = rng.randint(1, 100)
            for seq in range(1, k + 1):
                conn.send({"type": "event", "seq": seq, "target": "input", "event": "editingChanged",
                           "value": f"s{s}-{seq}"})
            async for payload in gen:
                if f'"ack":{k}'.encode() in payload:
                    break
            tokens.append((scene["session"], f"s{s}-{k}", k, conn))
        cluster.kill(0)
        times, good = [], 0
        for token, text, k, old in tokens:
            old.abort()
            t = time.monotonic()
            conn, scene, _ = await open_conn(cluster.ports[1], f"/ws/echo?session={token}")
            times.append(time.monotonic() - t)
            props = {w["id"]: w["props"] for w in scene["widgets"]}
            good += scene.get("resumed") is True and scene["session"] == token and props["input"]["text"] == text
            conn.abort()
        print(f"\n### resume after owner death ({sessions} echo sessions with 1-100 acknowledged events; "
              "owner SIGKILLed; each resumed on another process, one at a time)\n")
        print("| resumed with their state | p50 ms | p99 ms | max ms |")
        print("|---|---|---|---|")
        print(f"| {good} of {sessions} | {ms(pct(times, 50))} | {ms(pct(times, 99))} | {ms(max(times))} |")
    finally:
        cluster.stop_all()


async def failover(binary, seconds):
    cluster = Cluster(binary, n=4)
    cluster.start_all()
    try:
        worst = {}
        for victim in range(4):
            survivors = [i for i in range(4) if i != victim]
            conns = []
            for i in survivors:
                conn, _, gen = await open_conn(cluster.ports[i], "/ws/board")
                conns.append((conn, gen))
            last_ack = {i: time.monotonic() for i in range(len(conns))}
            gaps = {i: 0.0 for i in range(len(conns))}

            async def reader(i, gen):
                async for payload in gen:
                    if b'"ack"' in payload and b'"patch"' in payload:
                        now = time.monotonic()
                        gaps[i] = max(gaps[i], now - last_ack[i])
                        last_ack[i] = now

            readers = [asyncio.ensure_future(reader(i, gen)) for i, (_, gen) in enumerate(conns)]
            seq = 0
            kill_at = time.monotonic() + 1.0
            end = kill_at + 4.0
            killed = False
            while time.monotonic() < end:
                seq += 1
                for conn, _ in conns:
                    conn.send({"type": "event", "seq": seq, "target": "sharedSlider", "event": "valueChanged",
                               "value": round(random.random(), 3)})
                if not killed and time.monotonic() >= kill_at:
                    cluster.kill(victim)
                    killed = True
                    for i in gaps:
                        gaps[i] = 0.0
                        last_ack[i] = time.monotonic()
                await asyncio.sleep(1 / 333)
            await asyncio.sleep(0.5)
            for r in readers:
                r.cancel()
            for conn, _ in conns:
                conn.abort()
            worst[victim] = max(max(gaps.values()), time.monotonic() - 0.5 - min(last_ack.values()) if killed else 0)
            cluster.start(victim)
            await asyncio.sleep(1.0)
        print("\n### shared board failover (1,000 events/s from the other three processes; each process killed once)\n")
        print("| killed | longest time without an ack on the survivors, ms |")
        print("|---|---|")
        for victim, gap in worst.items():
            print(f"| bindery {victim} | {gap * 1000:.0f} |")
        print(f"\nworst (the owner's kill): {max(worst.values()) * 1000:.0f} ms; target <= 2,000 ms")
    finally:
        cluster.stop_all()


async def memory(binary, seconds, sessions=1000):
    cluster = Cluster(binary, n=1)
    cluster.start_redis()
    cluster.start(0)
    try:
        def used():
            info = cluster.redis_cli("info", "memory")
            return int(info.split("used_memory:")[1].split()[0])

        await asyncio.sleep(0.5)
        before = used()
        conns = []
        for s in range(sessions):
            conn, scene, gen = await open_conn(cluster.ports[0], "/ws/echo")
            conns.append((conn, gen, scene["session"]))
        await asyncio.sleep(1.0)
        idle_connected = used()
        for conn, gen, _ in conns:
            conn.abort()
        await asyncio.sleep(1.0)
        idle = used()
        keys = cluster.redis_cli("dbsize")
        for conn, gen, token in conns[:200]:
            conn, _, gen = await open_conn(cluster.ports[0], f"/ws/echo?session={token}")
            for seq in range(1, 11):
                conn.send({"type": "event", "seq": seq, "target": "input", "event": "editingChanged", "value": f"hello {seq}"})
            async for payload in gen:
                if b'"ack":10' in payload:
                    break
            conn.abort()
        await asyncio.sleep(1.0)
        with_events = used()
        print(f"\n### Redis memory per session ({sessions:,} echo sessions)\n")
        print("| state | Redis used_memory | per session |")
        print("|---|---|---|")
        print(f"| before | {before:,} B | |")
        print(f"| {sessions:,} idle sessions, connected | {idle_connected:,} B | {(idle_connected - before) / sessions:,.0f} B |")
        print(f"| {sessions:,} idle sessions, disconnected (in grace) | {idle:,} B | {(idle - before) / sessions:,.0f} B ({keys} keys) |")
        print(f"| 200 of them with 10 more events each | {with_events:,} B | {(with_events - idle) / 200 / 10:,.0f} B per journalled event |")
    finally:
        cluster.stop_all()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bindery", nargs="+", help="one binary, or several (before, after) run side by side")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--only", default="echo,board,resume,failover,memory")
    parser.add_argument("--board-rates", default="2000,10000", help="board: events/s to offer (comma-separated)")
    parser.add_argument("--callgrind", action="store_true",
                        help="board: the processes under callgrind; instructions per acked event of each "
                             "(use a low rate, e.g. --board-rates 500 --board-viewers 4)")
    parser.add_argument("--board-viewers", default="4,1000", help="board: viewer counts (comma-separated)")
    parser.add_argument("--runs", type=int, default=1, help="repeat each scenario (binaries alternate)")
    args = parser.parse_args()
    for binary in args.bindery:
        probe = Cluster(binary, n=1)
        if not probe.supports_store:
            print(f"WARNING: {binary} has no --store; the 'redis' rows run without it")
    print(f"cluster benchmarks: {' vs '.join(args.bindery)}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    scenarios = {"echo": echo, "board": board, "resume": resume, "failover": failover, "memory": memory}
    for name in args.only.split(","):
        for run in range(args.runs):
            for binary in args.bindery:
                if len(args.bindery) > 1 or args.runs > 1:
                    print(f"\n## {name}: {binary} (run {run + 1} of {args.runs}, load average {os.getloadavg()[0]:.1f})")
                if name == "board":
                    # the knee, and the fan-out's cost (4 viewers beside 1,000)
                    for rate in (int(r) for r in args.board_rates.split(",")):
                        for viewers in (int(v) for v in args.board_viewers.split(",")):
                            await board(binary, args.seconds, rate=rate, viewers=viewers, callgrind=args.callgrind)
                    continue
                await scenarios[name](binary, args.seconds)


asyncio.run(main())
