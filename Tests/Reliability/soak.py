"""Soak: mixed load against a real `bindery` for a long time, RSS and descriptors sampled.

usage: python soak.py BINDERY [--seconds 1800] [--interval 10] [--csv /tmp/bindery-soak.csv]

Load, all at once, paced (not a flood: the point is hours of ordinary traffic):
- 8 typists on `echo` and `counter`: one keystroke every 50 ms each (the text grows to
  120 characters, then starts again), every answer checked;
- 8 reconnectors: every 100 ms a resume of their own session (or a new one) on a random
  per-connection scene, a few events, then a drop, a close or a `bye`;
- the shared `board`: 12 viewers that stay, 2 writers moving the slider every 100 ms, and
  viewers joining and leaving;
- `repos`: load more up to 100 rows, then `bye` and again.
Every `--interval` seconds one CSV row: elapsed seconds, RSS (KiB), open descriptors,
sessions, WebSockets, clients, events so far. At the end the load stops, the grace period
(5 s here) passes, and it prints the curve and checks: sessions and WebSockets back to 0,
descriptors back to what the idle server had, RSS over the second half growing less than
1 MiB per minute. Exits 1 on any failed check or unexpected answer.
"""
import argparse
import asyncio
import csv
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Python"))
from bindery_client import Bindery, Client, Closed, metrics  # noqa: E402
from bindery_client import fds as server_fds, rss_kib as server_rss_kib  # noqa: E402

HOST = "127.0.0.1"
GRACE = 5
errors = []


def note(message):
    if len(errors) < 20:
        errors.append(message)


async def expect_ack(client, seq):
    message = await client.answer(seq, timeout=10)
    if message["type"] == "error" and message["code"] not in ("disabled",):
        note(f"error answer {message}")
    return message


async def typist(port, index, stop):
    scene = "echo" if index % 2 == 0 else "counter"
    target = "input" if scene == "echo" else "textField"
    client = await Client.connect(HOST, port, f"/ws/{scene}")
    await client.recv()
    seq, text = 0, ""
    while not stop.is_set():
        seq += 1
        text = "" if len(text) >= 120 else text + random.choice("abcdef ")
        client.send({"type": "event", "seq": seq, "target": target, "event": "editingChanged", "value": text})
        answer = await expect_ack(client, seq)
        if scene == "echo" and answer["changes"] and answer["changes"][0]["value"] != text.upper():
            note(f"echo answered {answer} for {text!r}")
        await asyncio.sleep(0.05)
    await client.close()


async def reconnector(port, index, stop):
    rng = random.Random(index)
    tokens, left_at = {}, {}
    while not stop.is_set():
        scene = rng.choice(["echo", "counter", "colors", "login", "date"])
        token = tokens.get(scene)
        client = await Client.connect(HOST, port, f"/ws/{scene}" + (f"?session={token}" if token else ""))
        if client.status != 101:
            note(f"reconnect answered {client.status}")
            await client.close()
            await asyncio.sleep(0.5)
            continue
        first = await client.recv()
        # Within the grace period (with a second's margin) a resume must succeed; after it,
        # a fresh session is the right answer.
        if token and not first["resumed"] and time.monotonic() - left_at[scene] < GRACE - 1:
            note(f"{scene} session {token[:6]} not resumed")
        tokens[scene] = first["session"]
        events = {"echo": ("input", "editingChanged", "hi"), "counter": ("textField", "editingChanged", "abc"),
                  "colors": ("whiteSlider", "valueChanged", 0.3), "login": ("email", "editingChanged", "a@b.c"),
                  "date": ("nowButton", "touchUpInside", None)}
        target, name, value = events[scene]
        for seq in range(1, rng.randint(1, 4) + 1):
            message = {"type": "event", "seq": seq, "target": target, "event": name}
            if value is not None:
                message["value"] = value
            client.send(message)
            await expect_ack(client, seq)
        ending = rng.random()
        if ending < 0.5:
            client.abort()
        elif ending < 0.8:
            client.send_close()
            try:
                await client.recv()
            except Closed:
                pass
            await client.close()
        else:
            client.send({"type": "bye"})
            tokens.pop(scene)
            try:
                while True:
                    await client.recv()
            except Closed:
                pass
            await client.close()
        left_at[scene] = time.monotonic()
        await asyncio.sleep(0.1)


async def board_viewer(port, stop, stays):
    while not stop.is_set():
        client = await Client.connect(HOST, port, "/ws/board")
        until = time.monotonic() + (1e9 if stays else random.uniform(1, 5))
        try:
            while not stop.is_set() and time.monotonic() < until:
                try:
                    await client.recv(timeout=0.5)
                except asyncio.TimeoutError:
                    pass
        finally:
            client.abort()
        if stays:
            return


async def board_writer(port, stop):
    client = await Client.connect(HOST, port, "/ws/board")
    await client.recv()
    seq = 0
    while not stop.is_set():
        seq += 1
        client.send({"type": "event", "seq": seq, "target": "sharedSlider", "event": "valueChanged",
                     "value": random.random()})
        await expect_ack(client, seq)
        await asyncio.sleep(0.1)
    await client.close()


async def repos(port, stop):
    while not stop.is_set():
        client = await Client.connect(HOST, port, "/ws/repos")
        await client.recv()
        for seq in range(1, 7):
            client.send({"type": "event", "seq": seq, "target": "loadMoreButton", "event": "touchUpInside"})
            await expect_ack(client, seq)
            await asyncio.sleep(0.2)
        client.send({"type": "bye"})
        try:
            while True:
                await client.recv()
        except Closed:
            pass
        await client.close()


async def guarded(coroutine):
    try:
        await coroutine
    except (Closed, OSError, asyncio.TimeoutError, KeyError) as error:
        note(f"{type(error).__name__}: {error}")


def sparkline(values):
    bars = "▁▂▃▄▅▆▇█"
    low, high = min(values), max(values)
    return "".join(bars[int((v - low) / (high - low) * 7) if high > low else 0] for v in values)


def slope_per_minute(points):
    """Least-squares slope of (seconds, value) points, per minute."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    var = sum((p[0] - mx) ** 2 for p in points)
    return 60 * sum((p[0] - mx) * (p[1] - my) for p in points) / var if var else 0.0


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bindery")
    parser.add_argument("--seconds", type=float, default=1800)
    parser.add_argument("--interval", type=float, default=10)
    parser.add_argument("--csv", default="/tmp/bindery-soak.csv")
    args = parser.parse_args()
    process = Bindery(args.bindery, "--log-level", "error", "--grace", str(GRACE), cwd="/")
    port = process.port
    pid = process.pid
    await asyncio.sleep(0.5)
    baseline_fds = server_fds(pid)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(guarded(c)) for c in
             [typist(port, i, stop) for i in range(8)] + [reconnector(port, i, stop) for i in range(8)]
             + [board_viewer(port, stop, True) for _ in range(12)] + [board_viewer(port, stop, False) for _ in range(3)]
             + [board_writer(port, stop) for _ in range(2)] + [repos(port, stop)]]
    rows = []
    start = time.monotonic()
    try:
        with open(args.csv, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["seconds", "rss_kib", "fds", "sessions", "websockets", "clients", "events_total"])
            while time.monotonic() - start < args.seconds and not errors:
                await asyncio.sleep(min(args.interval, max(0.1, args.seconds - (time.monotonic() - start))))
                values = await metrics(HOST, port)
                row = [round(time.monotonic() - start, 1), server_rss_kib(pid), server_fds(pid),
                       values.get("bindery_sessions"), values.get("bindery_websocket_connections"),
                       values.get("bindery_clients"), values.get("bindery_events_total")]
                writer.writerow(row)
                out.flush()
                rows.append(row)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        await asyncio.sleep(GRACE + 3)  # sessions expire; closed sockets finish lingering (2 s)
        end_fds, end_rss = server_fds(pid), server_rss_kib(pid)  # before our own /metrics connection
        values = await metrics(HOST, port)
    finally:
        process.stop_cleanly()

    rss = [r[1] for r in rows]
    fds = [r[2] for r in rows]
    second_half = [(r[0], r[1] / 1024) for r in rows[len(rows) // 2:]]
    slope = slope_per_minute(second_half)
    events = rows[-1][6] if rows else 0
    print(f"soak: {rows[-1][0] if rows else 0:.0f} s, {events} events ({events / max(1, rows[-1][0]):.0f}/s), "
          f"{len(rows)} samples in {args.csv}")
    print(f"  RSS MiB  first {rss[0] / 1024:.1f}  min {min(rss) / 1024:.1f}  max {max(rss) / 1024:.1f}  "
          f"last {rss[-1] / 1024:.1f}  second-half slope {slope:+.2f} MiB/min  {sparkline(rss)}")
    print(f"  fds      idle {baseline_fds}  first {fds[0]}  min {min(fds)}  max {max(fds)}  last {fds[-1]}  {sparkline(fds)}")
    print(f"  sessions under load {min(r[3] for r in rows)}..{max(r[3] for r in rows)}, WebSockets "
          f"{min(r[4] for r in rows)}..{max(r[4] for r in rows)}")
    print(f"  after the load and the grace period: sessions {values.get('bindery_sessions')}, WebSockets "
          f"{values.get('bindery_websocket_connections')}, clients {values.get('bindery_clients')}, fds {end_fds}, "
          f"RSS {end_rss / 1024:.1f} MiB")
    failures = list(errors)
    if values.get("bindery_sessions") != 0 or values.get("bindery_websocket_connections") != 0:
        failures.append("sessions or WebSockets left after the load")
    if end_fds != baseline_fds:
        failures.append(f"descriptors: {baseline_fds} before the load, {end_fds} after it")
    if len(rows) >= 6 and slope > 1.0:
        failures.append(f"RSS still growing over the second half: {slope:+.2f} MiB/min")
    if failures:
        print(f"FAILED: {failures[:5]}")
        sys.exit(1)
    print("OK")


asyncio.run(main())
