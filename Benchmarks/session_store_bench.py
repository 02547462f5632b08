#!/usr/bin/env python3
"""Durable sessions on Redis: the journal's cap and the takeover hint.

Starts redis-server (Unix socket, no persistence) and `bindery --store` processes, then
reports, for echo sessions driven over HTTP (`POST /api/sessions/<id>/events` arrays of
up to 1,000 events) and WebSocket:

- memory: Redis memory of one session after N events (`MEMORY USAGE` of its hash and
  journal, and the `INFO` `used_memory` delta);
- takeover: the time of `GET /api/sessions/<token>` on another process after N events;
- hint: the takeover time of a session whose owner is alive with its WebSocket open
  (and when the old socket is closed 4001), SIGKILLed with its lease alive, and
  SIGKILLed with its lease expired.

    /tmp/bindery-test-venv/bin/python Benchmarks/session_store_bench.py \
        --binary .build/release/bindery [--events 1000 10000] [--runs 3]
"""
import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import websockets

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "Python"))
from bindery_client import Bindery, RedisServer, free_port  # noqa: E402


class Cluster:
    def __init__(self, binary):
        self.binary = binary
        self.redis = RedisServer(log=False)
        self.cli, self.used_memory = self.redis.cli, self.redis.used_memory
        self.servers = []

    def start(self):
        server = Bindery(self.binary, "--store", self.redis.url, port=free_port(), output=subprocess.DEVNULL)
        time.sleep(1.2)  # its process lease is written
        self.servers.append(server)
        return server.port, server.process

    def stop(self):
        for server in self.servers:
            server.stop()
        self.redis.stop(remove=True)


def post(port, path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode(), method="POST")
    return urllib.request.urlopen(request).read().decode()


def get(port, path):
    started = time.perf_counter()
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}{path}").read().decode()
    return (time.perf_counter() - started) * 1000, body


def session_with_events(port, count):
    token = json.loads(post(port, "/api/sessions", '{"scene":"echo"}'))["session"]
    seq = 0
    while seq < count:
        batch = []
        for _ in range(min(1000, count - seq)):
            seq += 1
            batch.append(json.dumps({"type": "event", "seq": seq, "target": "input", "event": "editingChanged",
                                     "value": f"text number {seq}"}))
        post(port, f"/api/sessions/{token}/events", "[" + ",".join(batch) + "]")
    return token


async def socket_session(port, count=100):
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/echo")
    token = json.loads(await ws.recv())["session"]
    for seq in range(1, count + 1):
        await ws.send(json.dumps({"type": "event", "seq": seq, "target": "input", "event": "editingChanged",
                                  "value": f"v{seq}"}))
        while json.loads(await ws.recv()).get("ack") != seq:
            pass
    return ws, token


def figures(values):
    return ", ".join("%.1f" % value if value != float("inf") else "none within 12 s" for value in values)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/bindery")
    parser.add_argument("--events", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    cluster = Cluster(options.binary)
    try:
        a, _ = cluster.start()
        b, _ = cluster.start()
        for count in options.events:
            before = cluster.used_memory()
            token = session_with_events(a, count)
            delta = cluster.used_memory() - before
            print(f"memory after {count} events: journal LLEN {cluster.cli('LLEN', f'bindery:s:{token}:log')}, "
                  f"MEMORY USAGE hash {cluster.cli('MEMORY', 'USAGE', f'bindery:s:{token}')} B + "
                  f"log {cluster.cli('MEMORY', 'USAGE', f'bindery:s:{token}:log') or 0} B, used_memory delta {delta} B")
            times, said = [], False
            for _ in range(options.runs):
                token = session_with_events(a, count)
                elapsed, body = get(b, f"/api/sessions/{token}")
                times.append(elapsed)
                said = '"restored":false' in body
            print(f"takeover after {count} events: {figures(times)} ms{' (restored: false)' if said else ''}")

        loop = asyncio.get_running_loop()
        live, closed = [], []
        for _ in range(options.runs):
            ws, token = await socket_session(a)

            async def until_closed(ws=ws):
                try:
                    while True:
                        await ws.recv()
                except websockets.ConnectionClosed as error:
                    return error.rcvd.code if error.rcvd else None

            started = time.perf_counter()
            closer = asyncio.ensure_future(until_closed())
            elapsed, _ = await loop.run_in_executor(None, get, b, f"/api/sessions/{token}")
            live.append(elapsed)
            try:
                code = await asyncio.wait_for(closer, 12)
                closed.append((time.perf_counter() - started) * 1000 if code == 4001 else float("inf"))
            except asyncio.TimeoutError:
                closed.append(float("inf"))
        print(f"hint, owner alive with its WebSocket open: takeover {figures(live)} ms; "
              f"old socket closed 4001 after {figures(closed)} ms")
        for wait, label in [(0, "lease alive"), (3.2, "lease expired")]:
            times = []
            for _ in range(options.runs):
                port, process = cluster.start()
                _, token = await socket_session(port)
                process.send_signal(signal.SIGKILL)
                process.wait()
                time.sleep(wait)
                elapsed, _ = await loop.run_in_executor(None, get, b, f"/api/sessions/{token}")
                times.append(elapsed)
            print(f"hint, owner SIGKILLed, {label}: takeover {figures(times)} ms")
    finally:
        cluster.stop()


if __name__ == "__main__":
    asyncio.run(main())
