#!/usr/bin/env python3
"""One shared `board` spread over several `bindery --store redis://...` processes.

Starts redis-server and N bindery processes on loopback, connects clients to every
process, moves the shared slider at a fixed total rate and reports the events/s reached
and the ack latency (send -> ack, p50/p99). With --kill-owner, SIGKILLs the process that
owns the board halfway and reports the failover: the longest time without any ack on the
surviving processes, and whether every viewer ends on the same value.

    /tmp/bindery-test-venv/bin/python Benchmarks/shared_scene_bench.py \
        --binary .build/release/bindery --processes 4 --rate 2000 --duration 10 [--kill-owner]
"""
import argparse
import asyncio
import json
import os
import signal
import sys
import time

import websockets

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "Python"))
from bindery_client import Bindery, RedisServer  # noqa: E402


class Process(Bindery):
    """One `bindery --store` process; `owner_since`: when it became the board's owner."""

    def __init__(self, binary, store, index):
        self.index, self.owner_since = index, None
        super().__init__(binary, "--store", store, cwd="/", on_line=self.watch)

    def watch(self, line):
        if "owner now" in line:
            self.owner_since = time.monotonic()
        if "no longer owner" in line:
            self.owner_since = None


class Client:
    def __init__(self, port, index):
        self.port = port
        self.index = index
        self.sent = {}
        self.latencies = []
        self.ack_times = []
        self.errors = 0
        self.value = None
        self.seq = 0

    async def run(self, rate, stop_at, values):
        async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws/board", max_queue=None) as ws:
            scene = json.loads(await ws.recv())
            for widget in scene["widgets"]:
                if widget["id"] == "sharedSlider":
                    self.value = widget["props"].get("value")

            async def reader():
                async for text in ws:
                    message = json.loads(text)
                    now = time.monotonic()
                    ack = message.get("ack")
                    if message["type"] == "error":
                        self.errors += 1
                        self.sent.pop(ack, None)
                        continue
                    for change in message.get("changes", []):
                        if change["target"] == "sharedSlider" and change["prop"] == "value":
                            self.value = change["value"]
                    if ack is not None and ack in self.sent:
                        sent_at, value = self.sent.pop(ack)
                        self.latencies.append(now - sent_at)
                        self.ack_times.append(now)
                        self.value = value
            task = asyncio.create_task(reader())
            interval = 1.0 / rate
            next_at = time.monotonic()
            while time.monotonic() < stop_at:
                self.seq += 1
                value = next(values)
                self.sent[self.seq] = (time.monotonic(), value)
                try:
                    await ws.send(json.dumps({"type": "event", "seq": self.seq, "target": "sharedSlider",
                                              "event": "valueChanged", "value": value}))
                except websockets.ConnectionClosed:
                    break
                next_at += interval
                delay = next_at - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            await asyncio.sleep(2.5)  # the last answers, and the final patches
            task.cancel()


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/bindery")
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--clients", type=int, default=4, help="clients per process")
    parser.add_argument("--rate", type=float, default=2000, help="events/s in total")
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--kill-owner", action="store_true")
    args = parser.parse_args()

    redis = RedisServer(tcp=True)
    servers = []
    try:
        servers = [Process(args.binary, f"redis://127.0.0.1:{redis.port}", i) for i in range(args.processes)]
        await asyncio.sleep(1.0)
        clients = [Client(server.port, i) for i, server in enumerate(servers) for _ in range(args.clients)]
        counter = iter(range(1, 10**9))
        values = (((n % 997) + 1) / 1000 for n in counter)
        per_client = args.rate / len(clients)
        start = time.monotonic()
        stop_at = start + args.duration
        killed = {}

        async def killer():
            await asyncio.sleep(args.duration / 2)
            owners = [s for s in servers if s.owner_since is not None]
            if len(owners) != 1:
                print(f"owners before the kill: {[s.index for s in owners]}")
            if owners:
                victim = owners[0]
                killed["at"] = time.monotonic()
                killed["server"] = victim
                victim.process.send_signal(signal.SIGKILL)
        tasks = [asyncio.create_task(c.run(per_client, stop_at, values)) for c in clients]
        if args.kill_owner:
            tasks.append(asyncio.create_task(killer()))
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for result in results:
            if isinstance(result, Exception) and not isinstance(result, websockets.ConnectionClosed):
                print(f"client failed: {result!r}")

        victim = killed.get("server")
        survivors = [c for c in clients if victim is None or c.port != victim.port]
        latencies = [l for c in survivors for l in c.latencies]
        acked = len(latencies)
        sent = sum(c.seq for c in survivors)
        print(f"processes {args.processes}, clients {len(clients)}, target {args.rate:.0f} events/s for {args.duration:.0f} s")
        print(f"acked {acked} of {sent} sent by surviving clients; {acked / args.duration:.0f} events/s; errors {sum(c.errors for c in survivors)}")
        print(f"ack latency p50 {percentile(latencies, 0.5) * 1000:.2f} ms, p99 {percentile(latencies, 0.99) * 1000:.2f} ms, "
              f"max {max(latencies, default=0) * 1000:.1f} ms")
        if victim is not None:
            times = sorted(t for c in survivors for t in c.ack_times if t > killed["at"] - 0.2)
            pause = max((b - a for a, b in zip(times, times[1:])), default=float("nan"))
            new_owner = [s.index for s in servers if s is not victim and s.owner_since is not None]
            print(f"killed owner (process {victim.index}); longest pause in acks on the survivors {pause * 1000:.0f} ms "
                  f"(the failover); new owner {new_owner}")
        finals = {c.value for c in survivors}
        print(f"final slider values on surviving clients: {sorted(finals)} ({'agree' if len(finals) == 1 else 'DISAGREE'})")
    finally:
        for server in servers:
            server.stop(timeout=5)
        redis.stop(remove=True)


if __name__ == "__main__":
    asyncio.run(main())
