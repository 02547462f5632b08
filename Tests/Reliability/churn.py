"""Connection churn and a reader that never reads, against a real `bindery` process.

usage: python churn.py BINDERY [--seconds 30] [--rate 1000] [--workers 64] [--slow-readers 8]

1. Churn: `--workers` clients connect to /ws/echo and disconnect as fast as `--rate`
   allows, for `--seconds`, each cycle one of: a new session ended with `bye`; a resume
   of the worker's own token with one event then a dropped TCP connection (no close
   frame: the session goes into its grace period); a resume closed with a close frame.
   (A `bye` cycle resumes the worker's session too, so each worker holds one session.)
   Before and after (once the grace period has passed): the server's open file
   descriptors (/proc/<pid>/fd) and, from /metrics, sessions, WebSockets and clients.
   Fails on any leak, any unexpected answer, or a server that stops answering.
2. Slow readers: `--slow-readers` clients join the shared board and never read, while a
   writer moves the slider 10,000 times (each move is broadcast to them) and each of them
   asks for 2,000 full scenes it never reads. The server must drop their patches or cut
   them off (bounded buffers), its RSS must stay bounded, and /healthz must answer
   meanwhile.

3. Floods: one text message in 200,000 one-byte fragments (past the 64 KiB message
   limit: close 1009) and 50,000 pings whose pongs are never read, while an honest client
   types; its answers must keep coming, RSS bounded, nothing left over.

Prints one summary line per phase and "OK"; exits 1 with the reason otherwise.
"""
import argparse
import asyncio
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Python"))
from bindery_client import Bindery, Client, Closed, frame, http_get, metrics  # noqa: E402
from bindery_client import fds as server_fds, rss_kib as server_rss_kib  # noqa: E402

HOST = "127.0.0.1"
GRACE = 2


def launch(binary):
    return Bindery(binary, "--log-level", "error", "--grace", str(GRACE), cwd="/")


async def churn(port, seconds, rate, workers):
    counts = {"bye": 0, "drop": 0, "close": 0, "refused": 0}
    errors = []
    deadline = time.monotonic() + seconds
    interval = workers / rate  # each worker's share of the rate
    start = time.monotonic()

    async def worker(index):
        token = None
        rng = random.Random(index)
        next_at = time.monotonic() + rng.random() * interval
        seq = 0
        while time.monotonic() < deadline and not errors:
            delay = next_at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            next_at = max(next_at + interval, time.monotonic() - interval)
            kind = rng.choices(["bye", "drop", "close"], [2, 2, 1])[0]
            path = "/ws/echo" + (f"?session={token}" if token else "")
            try:
                client = await Client.connect(HOST, port, path)
                if client.status != 101:
                    counts["refused"] += 1
                    errors.append(f"upgrade answered {client.status}")
                    await client.close()
                    return
                scene = await client.recv()
                if scene.get("type") != "scene":
                    errors.append(f"first message {scene}")
                if token and (not scene["resumed"] or scene["session"] != token):
                    errors.append(f"worker {index} lost its session: {scene['session']} != {token}")
                token = scene["session"]
                if kind == "bye":
                    client.send({"type": "bye"})
                    assert (await client.recv())["type"] == "bye"
                    token = None
                    try:
                        await client.recv()
                    except Closed:
                        pass
                    await client.close()
                elif kind == "drop":
                    seq += 1
                    client.send({"type": "event", "seq": seq, "target": "input", "event": "editingChanged",
                                 "value": f"w{index}-{seq}"})
                    answer = await client.recv()
                    if answer.get("ack") != seq:
                        errors.append(f"answer {answer} for seq {seq}")
                    client.abort()
                else:
                    client.send_close()
                    try:
                        await client.recv()
                    except Closed:
                        pass
                    await client.close()
                counts[kind] += 1
            except (Closed, OSError, asyncio.TimeoutError, AssertionError) as error:
                errors.append(f"worker {index}: {type(error).__name__} {error}")

    await asyncio.gather(*(worker(i) for i in range(workers)))
    return counts, errors, time.monotonic() - start


async def settle(port, pid, baseline_fds):
    """Waits (bounded) until the sessions expired and the descriptors are back."""
    deadline = time.monotonic() + GRACE + 15
    while True:
        values = await metrics(HOST, port)
        fds = server_fds(pid)
        clean = (values.get("bindery_sessions") == 0 and values.get("bindery_websocket_connections") == 0
                 and values.get("bindery_clients") == 0 and fds <= baseline_fds)
        if clean or time.monotonic() > deadline:
            return clean, values, fds
        await asyncio.sleep(0.25)


async def slow_readers(port, pid, count):
    """`count` clients join the shared board and never read; a writer moves the slider
    10,000 times (each move is broadcast to all of them), and each slow reader also asks
    for 2,000 full scenes without reading the answers. Returns RSS before and at peak,
    how many /healthz probes answered and the slowest one."""
    before = server_rss_kib(pid)
    readers = []
    for _ in range(count):
        client = await Client.connect(HOST, port, "/ws/board")
        await client.recv()
        readers.append(client)
    one = frame(0x1, b'{"type":"resync"}')
    for client in readers:
        client.writer.write(one * 2_000)
    writer = await Client.connect(HOST, port, "/ws/board")
    await writer.recv()
    done = asyncio.Event()
    peak, healthy, slowest = before, 0, 0.0

    async def write():
        # Pipelined 50 at a time, reading the answers: an honest, fast client.
        seq = 0
        while seq < 10_000:
            for _ in range(50):
                seq += 1
                writer.send({"type": "event", "seq": seq, "target": "sharedSlider", "event": "valueChanged",
                             "value": (seq % 1000) / 1000})
            while (await writer.recv(timeout=30)).get("ack") != seq:
                pass
        done.set()

    task = asyncio.create_task(write())
    while not done.is_set() or healthy == 0:
        peak = max(peak, server_rss_kib(pid))
        started = time.monotonic()
        status, _ = await http_get(HOST, port, "/healthz", timeout=30)
        slowest = max(slowest, time.monotonic() - started)
        healthy += status == 200
        await asyncio.sleep(0.2)
        if task.done() and task.exception():
            raise task.exception()
    await task
    peak = max(peak, server_rss_kib(pid))
    for client in readers + [writer]:
        client.abort()
    return before, peak, healthy, slowest


async def floods(port, pid):
    """Hostile frames at the Bindery endpoint while an honest client types: a fragment
    flood (one text message in 200,000 one-byte fragments, far past the 64 KiB message
    limit) and a ping flood (50,000 pings of 125 bytes whose pongs are never read). Returns (close codes seen, the
    honest client's slowest answer, RSS before and at peak)."""
    before = server_rss_kib(pid)
    honest = await Client.connect(HOST, port, "/ws/echo")
    await honest.recv()
    fragments = await Client.connect(HOST, port, "/ws/echo")
    await fragments.recv()
    pinger = await Client.connect(HOST, port, "/ws/echo")
    await pinger.recv()
    # Masked with a zero key: a non-final text frame "{", then continuations of one space.
    fragments.writer.write(bytes([0x01, 0x81]) + b"\0\0\0\0" + b"{")
    fragments.writer.write((bytes([0x00, 0x81]) + b"\0\0\0\0" + b" ") * 200_000)
    pinger.writer.write(frame(0x9, b"p" * 125) * 50_000)
    slowest, peak = 0.0, before
    for seq in range(1, 41):
        started = time.monotonic()
        honest.send({"type": "event", "seq": seq, "target": "input", "event": "editingChanged", "value": f"v{seq}"})
        answer = await honest.recv(timeout=10)
        if answer.get("ack") != seq:
            raise SystemExit(f"FAILED: the honest client got {answer}")
        slowest = max(slowest, time.monotonic() - started)
        peak = max(peak, server_rss_kib(pid))
        await asyncio.sleep(0.05)

    async def close_code(client):
        try:
            while True:
                await client.recv(timeout=10)
        except Closed as closed:
            return closed.code
        except asyncio.TimeoutError:
            return "open"

    codes = (await close_code(fragments), await close_code(pinger))
    for client in (honest, fragments, pinger):
        client.abort()
    return codes, slowest, before, peak


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bindery")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rate", type=float, default=1000)
    parser.add_argument("--workers", type=int, default=64)
    parser.add_argument("--slow-readers", type=int, default=8)
    args = parser.parse_args()

    process = launch(args.bindery)
    port = process.port
    try:
        # Warm up (first connections allocate the loop's lazy structures), then the baseline.
        await churn(port, 0.5, 100, 4)
        clean, values, baseline = await settle(port, process.pid, 10_000)
        if not clean:
            raise SystemExit(f"FAILED: did not settle after warm-up: {values}")
        rss_before = server_rss_kib(process.pid)
        counts, errors, elapsed = await churn(port, args.seconds, args.rate, args.workers)
        cycles = counts["bye"] + counts["drop"] + counts["close"]
        rss_after_churn = server_rss_kib(process.pid)
        clean, values, fds = await settle(port, process.pid, baseline)
        print(f"churn: {cycles} connect/disconnect cycles in {elapsed:.1f} s ({cycles / elapsed:.0f}/s; "
              f"{counts['bye']} bye, {counts['drop']} dropped, {counts['close']} closed), {args.workers} workers; "
              f"fds {baseline} -> {fds}; sessions {values.get('bindery_sessions')}, WebSockets "
              f"{values.get('bindery_websocket_connections')}, clients {values.get('bindery_clients')}; "
              f"RSS {rss_before // 1024} -> {rss_after_churn // 1024} MiB")
        if errors:
            raise SystemExit(f"FAILED: {len(errors)} errors, first: {errors[:3]}")
        if not clean:
            raise SystemExit("FAILED: leaked sessions, sockets or descriptors")

        if args.slow_readers:
            before, peak, healthy, slowest = await slow_readers(port, process.pid, args.slow_readers)
            clean, values, fds = await settle(port, process.pid, baseline)
            print(f"slow readers: {args.slow_readers} board clients that never read, 10,000 broadcast slider moves and "
                  f"2,000 unread resyncs each; RSS {before // 1024} -> peak {peak // 1024} MiB; /healthz answered "
                  f"{healthy} times meanwhile (slowest {slowest:.2f} s); fds {baseline} -> {fds}")
            if peak - before > 256 * 1024:
                raise SystemExit("FAILED: RSS grew by more than 256 MiB")
            if healthy == 0:
                raise SystemExit("FAILED: /healthz did not answer while the slow readers held the server")
            if not clean:
                raise SystemExit(f"FAILED: slow readers leaked: {values}, fds {fds}")
        codes, slowest, before, peak = await floods(port, process.pid)
        clean, values, fds = await settle(port, process.pid, baseline)
        print(f"floods: 200,000 one-byte fragments -> close {codes[0]}; 50,000 unread pings -> {codes[1]} "
              f"(backpressured: the server stops reading); honest "
              f"client's slowest answer {slowest:.2f} s; RSS {before // 1024} -> peak {peak // 1024} MiB; fds {fds}")
        if codes[0] != 1009:
            raise SystemExit("FAILED: the fragment flood was not closed with 1009 (message too big)")
        if peak - before > 256 * 1024 or not clean:
            raise SystemExit(f"FAILED: floods left {values}, fds {fds}, RSS peak {peak // 1024} MiB")
        print("OK")
    finally:
        process.stop_cleanly()


asyncio.run(main())
