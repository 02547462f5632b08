"""Slowloris with many connections, against a real `bindery` process.

usage: python slowloris.py BINDERY [--seconds 30] [--attackers 400] [--overflow-seconds 14]

1. Under the limit: `--attackers` raw TCP connections (default 400, below the default
   `--max-connections 1024`) each trickle a request head one byte every 2-3 s
   (randomised) and never finish it. The server allows a head 10 s from the
   connection's start (`HTTPServer.Configuration.headerReadTimeout`, not reset by each
   byte; `bindery` has no flag for it, so this is the default), answers `408` and
   closes; a cut-off attacker reconnects at once, so the pressure stays at N. Every
   cut-off is counted with its time since connect: it must come at 10 s (from 9.5 s:
   in a burst of hundreds of connects this script notes a connect only when its own
   loop gets to it, up to ~0.1 s after the server accepted it) and never much later
   (at most 12 s), so the timeout holds under load. Meanwhile, timed: `GET
   /healthz` on fresh connections, and a WebSocket client on `/ws/echo` that connects
   (handshake + scene timed), types 20 `editingChanged` events on `input`, each waiting
   for its patch (`ack`), says `bye` and starts over. Every healthy request must
   succeed, the slowest within 1 s (a debug build answers these in a few ms when idle;
   a server starved by the attackers would take seconds or the full 10 s). The phase
   lasts `--seconds`, but at least 13 s, so every attacker of the first wave is cut
   off at least once. Afterwards the attackers close: the server's open descriptors
   (/proc/<pid>/fd) and `bindery_http_connections` must return to their idle values,
   RSS stay bounded, and the process keep answering.

2. Over the limit: a second server with `--max-connections 64`, a WebSocket opened
   before the attack, then 100 attackers (more than the limit; each reconnects at once
   when dropped) for `--overflow-seconds` (default 14, past one header timeout), while
   a healthy client asks `/healthz` every 100 ms on fresh connections. At the limit the
   server drops a connection it is only waiting on to admit the new one: a stalled
   request head first (an attacker that trickled a byte), then one idle between
   requests, then one silent for 100 ms, oldest first; a connection younger than that
   which has sent nothing is left alone (its request may be on its way), and when
   every slot holds one, the newcomer gets a prompt `503` with `Retry-After: 1`.
   Refused connections linger until the client hangs up, at most as many as the limit:
   past that the oldest is closed, so a newcomer still gets its 503 (a refused client
   that had not read its answer by then sees a reset). Attackers churn among themselves
   and the healthy client gets in: every probe must end within 1 s, at least 90 % of
   them with a `200` and never a second without one; the rest a `503` with
   `Retry-After: 1` or, at most 10 %, a close without an answer (a build as slow as
   AddressSanitizer's falls behind the attackers' reconnects and closes about 5 %; a
   debug build gets 1-2 % `503`s and no closes).
   Upgraded WebSockets do not count against the limit, so the one opened before the
   attack must keep answering; after the attack `/healthz` answers 200.

Prints one summary line per phase and "OK"; exits 1 with the reason otherwise.
"""
import argparse
import asyncio
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Python"))
from bindery_client import Bindery, Client, Closed, http_get, metrics  # noqa: E402
from bindery_client import fds as server_fds, rss_kib as server_rss_kib  # noqa: E402

HOST = "127.0.0.1"
GRACE = 2
HEADER_TIMEOUT = 10.0  # HTTPServer.Configuration's default; bindery does not change it
LATE = 2.0             # a cut-off later than HEADER_TIMEOUT + LATE fails
SLOWEST = 1.0          # a healthy request slower than this fails
# Never finished: after the request line and Host, one header whose value never ends.
HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10_000


def launch(binary, *extra):
    return Bindery(binary, "--log-level", "error", "--grace", str(GRACE), *extra, cwd="/")


class Attack:
    """`count` slowloris connections, each replaced at once when the server ends it."""

    def __init__(self, port, count, seed):
        self.port, self.count = port, count
        self.rng = random.Random(seed)
        self.cutoffs = []     # seconds from connect to the 408, per cut-off
        self.answers = {}     # first status code (or "close", "reset") the server sent -> count
        self.stopping = False
        self.writers = set()

    async def attacker(self):
        while not self.stopping:
            try:
                reader, writer = await asyncio.open_connection(HOST, self.port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            self.writers.add(writer)
            connected = time.monotonic()
            sent = 0
            try:
                while not self.stopping:
                    writer.write(HEAD[sent:sent + 1])
                    sent += 1
                    try:
                        data = await asyncio.wait_for(reader.read(256), self.rng.uniform(2.0, 3.0))
                    except asyncio.TimeoutError:
                        continue  # nothing from the server: the next byte
                    elapsed = time.monotonic() - connected
                    status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/1.1 ") else "close"
                    self.answers[status] = self.answers.get(status, 0) + 1
                    if status == "408":
                        self.cutoffs.append(elapsed)
                    break
            except ConnectionError:
                if not self.stopping:
                    self.answers["reset"] = self.answers.get("reset", 0) + 1
            finally:
                self.writers.discard(writer)
                writer.close()

    def start(self):
        self.tasks = [asyncio.create_task(self.attacker()) for _ in range(self.count)]

    async def stop(self):
        self.stopping = True
        for writer in list(self.writers):
            writer.transport.abort()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def healthy_http(port, deadline, latencies, errors):
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            status, _ = await http_get(HOST, port, "/healthz", timeout=HEADER_TIMEOUT + 5)
            if status != 200:
                errors.append(f"/healthz answered {status}")
        except (OSError, asyncio.TimeoutError, IndexError, ValueError) as error:
            errors.append(f"/healthz: {type(error).__name__} {error}")
        latencies.append(time.monotonic() - started)
        await asyncio.sleep(0.02)


async def healthy_ws(port, deadline, latencies, errors):
    seq = 0
    while time.monotonic() < deadline:
        try:
            started = time.monotonic()
            client = await Client.connect(HOST, port, "/ws/echo", timeout=HEADER_TIMEOUT + 5)
            if client.status != 101:
                errors.append(f"/ws/echo upgrade answered {client.status}")
                await client.close()
                return
            scene = await client.recv(timeout=HEADER_TIMEOUT + 5)
            latencies.append(time.monotonic() - started)
            if scene.get("type") != "scene":
                errors.append(f"first message {scene}")
            for _ in range(20):
                seq += 1
                started = time.monotonic()
                client.send({"type": "event", "seq": seq, "target": "input", "event": "editingChanged",
                             "value": f"v{seq}"})
                answer = await client.recv(timeout=HEADER_TIMEOUT + 5)
                latencies.append(time.monotonic() - started)
                if answer.get("type") != "patch" or answer.get("ack") != seq:
                    errors.append(f"answer {answer} for seq {seq}")
                await asyncio.sleep(0.02)
            client.send({"type": "bye"})
            try:
                while True:
                    await client.recv(timeout=5)
            except Closed:
                pass
            await client.close()
        except (Closed, OSError, asyncio.TimeoutError, EOFError, IndexError, ValueError) as error:
            errors.append(f"/ws/echo: {type(error).__name__} {error}")
            await asyncio.sleep(0.1)


async def settle(port, pid, baseline_fds, timeout):
    """Waits (bounded) for the descriptors and HTTP connections to return to idle."""
    deadline = time.monotonic() + timeout
    while True:
        values = await metrics(HOST, port)
        fds = server_fds(pid)
        # 1: the /metrics request itself.
        clean = fds <= baseline_fds and values.get("bindery_http_connections") == 1 \
            and values.get("bindery_sessions") == 0
        if clean or time.monotonic() > deadline:
            return clean, values, fds
        await asyncio.sleep(0.25)


async def under_limit(binary, seconds, attackers):
    process = launch(binary)
    port = process.port
    try:
        # Warm up the lazy structures (a scene, a few requests), then the baseline.
        await healthy_ws(port, time.monotonic() + 0.3, [], [])
        for _ in range(5):
            await http_get(HOST, port, "/healthz")
        clean, values, baseline = await settle(port, process.pid, 10_000, GRACE + 10)
        if not clean:
            raise SystemExit(f"FAILED: did not settle after warm-up: {values}")
        rss_before = server_rss_kib(process.pid)

        attack = Attack(port, attackers, seed=1)
        attack.start()
        try:
            await under_attack(port, process.pid, attack, seconds, baseline, rss_before)
        finally:
            await attack.stop()
    finally:
        process.stop_cleanly()


async def under_attack(port, pid, attack, seconds, baseline, rss_before):
    """The healthy clients' run while `attack` holds the server, then the checks."""
    attackers = attack.count
    duration = max(seconds, HEADER_TIMEOUT + 3)
    started = time.monotonic()
    deadline = started + duration
    http_latencies, ws_latencies, errors = [], [], []
    peak = {"rss": rss_before, "fds": 0}

    async def sample():
        while time.monotonic() < deadline:
            peak["rss"] = max(peak["rss"], server_rss_kib(pid))
            peak["fds"] = max(peak["fds"], server_fds(pid))
            await asyncio.sleep(0.5)

    await asyncio.sleep(1)  # let the attackers connect first
    try:
        under_load = (await metrics(HOST, port)).get("bindery_http_connections", 0)
    except (OSError, asyncio.TimeoutError, IndexError, ValueError):
        under_load = 0  # refused or unanswered: the healthy clients will say why
    await asyncio.gather(healthy_http(port, deadline, http_latencies, errors),
                         healthy_http(port, deadline, http_latencies, errors),
                         healthy_ws(port, deadline, ws_latencies, errors), sample())
    elapsed = time.monotonic() - started
    await attack.stop()
    clean, values, fds = await settle(port, pid, baseline, GRACE + 10)
    rss_after = server_rss_kib(pid)
    alive, _ = await http_get(HOST, port, "/healthz")

    latencies = http_latencies + ws_latencies
    cutoffs = attack.cutoffs
    print(f"slowloris: {attackers} attackers for {elapsed:.1f} s ({under_load} HTTP connections open), "
          f"{len(cutoffs)} cut off after {min(cutoffs, default=0):.2f}-{max(cutoffs, default=0):.2f} s "
          f"(answers {dict(sorted(attack.answers.items()))}); healthy: {len(latencies)} requests "
          f"({len(http_latencies)} /healthz, {len(ws_latencies)} WebSocket handshakes and events), "
          f"p50 {percentile(latencies, 0.5) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} ms, "
          f"max {max(latencies) * 1000:.1f} ms, {len(errors)} failed; fds {baseline} -> peak {peak['fds']} -> "
          f"{fds}; RSS {rss_before // 1024} -> peak {peak['rss'] // 1024} -> {rss_after // 1024} MiB")
    if errors:
        raise SystemExit(f"FAILED: {len(errors)} healthy requests failed, first: {errors[:3]}")
    if max(latencies) > SLOWEST:
        raise SystemExit(f"FAILED: the slowest healthy request took {max(latencies):.2f} s (> {SLOWEST} s)")
    if len(cutoffs) < attackers:
        raise SystemExit(f"FAILED: only {len(cutoffs)} attackers were cut off (of {attackers})")
    if min(cutoffs) < HEADER_TIMEOUT - 0.5 or max(cutoffs) > HEADER_TIMEOUT + LATE:
        raise SystemExit(f"FAILED: cut-offs {min(cutoffs):.2f}-{max(cutoffs):.2f} s, expected "
                         f"{HEADER_TIMEOUT:.0f}-{HEADER_TIMEOUT + LATE:.0f} s")
    if set(attack.answers) - {"408"}:
        raise SystemExit(f"FAILED: attackers got {attack.answers}, expected 408 only")
    if under_load < attackers * 0.9:
        raise SystemExit(f"FAILED: only {under_load} connections open under attack")
    if not clean:
        raise SystemExit(f"FAILED: not back to idle: fds {fds} (idle {baseline}), {values}")
    if peak["rss"] - rss_before > 128 * 1024:
        raise SystemExit("FAILED: RSS grew by more than 128 MiB")
    if alive != 200:
        raise SystemExit(f"FAILED: /healthz answered {alive} afterwards")


async def probe(port):
    """One /healthz on a fresh connection: (status, headers, seconds); status "close"
    when the server closed without an answer, or why there was no answer at all."""
    started = time.monotonic()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), 5)
    except (OSError, asyncio.TimeoutError) as error:
        return f"connect failed: {type(error).__name__}", "", time.monotonic() - started
    try:
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode())
        data = await asyncio.wait_for(reader.read(-1), 5)
    except ConnectionError:
        data = b""
    except asyncio.TimeoutError:
        return "no answer in 5 s", "", time.monotonic() - started
    finally:
        writer.close()
    head = data.partition(b"\r\n\r\n")[0].decode()
    status = head.split(" ", 2)[1] if head.startswith("HTTP/1.1 ") else "close"
    return status, head.lower(), time.monotonic() - started


async def over_limit(binary, seconds, limit=64, attackers=100):
    process = launch(binary, "--max-connections", str(limit))
    port = process.port
    try:
        early = await Client.connect(HOST, port, "/ws/echo")
        await early.recv()
        attack = Attack(port, attackers, seed=2)
        attack.start()
        last_ok = time.monotonic()  # the lockout counts from the attack's start
        try:
            await asyncio.sleep(1)
            started = time.monotonic()
            statuses, slowest, seq, ws_slowest = {}, 0.0, 0, 0.0
            longest_out, problems = 0.0, []
            while time.monotonic() - started < seconds:
                status, head, took = await probe(port)
                statuses[status] = statuses.get(status, 0) + 1
                slowest = max(slowest, took)
                now = time.monotonic()
                if status == "200":
                    last_ok = now
                longest_out = max(longest_out, now - last_ok)
                if status == "503" and "retry-after: 1" not in head:
                    problems.append(f"503 without Retry-After: {head!r}")
                elif status not in ("200", "503", "close"):
                    problems.append(f"/healthz answered {status} after {took:.2f} s")
                elif took > SLOWEST:
                    problems.append(f"/healthz took {took:.2f} s ({status})")
                # The WebSocket opened before the attack must keep answering.
                seq += 1
                sent = time.monotonic()
                early.send({"type": "event", "seq": seq, "target": "input", "event": "editingChanged",
                            "value": f"e{seq}"})
                answer = await early.recv(timeout=5)
                ws_slowest = max(ws_slowest, time.monotonic() - sent)
                if answer.get("ack") != seq:
                    problems.append(f"early WebSocket got {answer}")
                await asyncio.sleep(0.1)
            elapsed = time.monotonic() - started
        finally:
            await attack.stop()
        await asyncio.sleep(0.5)
        after, _, _ = await probe(port)
        early.abort()
        print(f"over the limit: --max-connections {limit}, {attackers} attackers for {elapsed:.1f} s "
              f"({attack.answers.get('close', 0)} dropped to make room, {attack.answers.get('503', 0)} refused, "
              f"{len(attack.cutoffs)} cut off at 10 s); healthy /healthz every 0.1 s: "
              f"{dict(sorted(statuses.items()))}, slowest {slowest * 1000:.0f} ms, longest without a 200 "
              f"{longest_out:.1f} s from the attack's start; WebSocket opened before: {seq} events answered, slowest "
              f"{ws_slowest * 1000:.0f} ms; after the attack /healthz {after}")
        if problems:
            raise SystemExit(f"FAILED: {problems[:3]}")
        answered = sum(statuses.values())
        if statuses.get("200", 0) < 0.9 * answered:
            raise SystemExit(f"FAILED: only {statuses.get('200', 0)} of {answered} /healthz were a 200")
        if statuses.get("close", 0) > 0.1 * answered:
            raise SystemExit(f"FAILED: {statuses['close']} of {answered} /healthz closed without an answer")
        if longest_out > SLOWEST:
            raise SystemExit(f"FAILED: {longest_out:.1f} s without a 200 over the limit")
        if attack.answers.get("close", 0) == 0:
            raise SystemExit("FAILED: the attack never filled the server (no attacker was dropped)")
        if slowest > SLOWEST:
            raise SystemExit(f"FAILED: a /healthz took {slowest:.2f} s over the limit")
        if after != "200":
            raise SystemExit(f"FAILED: /healthz answered {after} after the attack")
    finally:
        process.stop_cleanly()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bindery")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--attackers", type=int, default=400)
    parser.add_argument("--overflow-seconds", type=float, default=HEADER_TIMEOUT + 4)
    args = parser.parse_args()
    await under_limit(args.bindery, args.seconds, args.attackers)
    if args.overflow_seconds > 0:
        await over_limit(args.bindery, args.overflow_seconds)
    print("OK")


asyncio.run(main())
