#!/usr/bin/env python3
"""Drives the demo's `bigtable` scene for Benchmarks/callgrind-bigtable.sh.

Opens /ws/bigtable, waits for the scene, then for each step asked on stdin ("zero",
"dump", "<button> <count>") either runs a callgrind control command or taps the button
`count` times, each tap waiting for its answer (the patch with its `ack`). Prints one line
per tap batch: the button, the taps, the bytes of the last answer.
"""
import asyncio
import json
import subprocess
import sys

import websockets


async def main(url, pid):
    async with websockets.connect(url, max_size=None) as ws:
        scene = await ws.recv()
        print(f"scene {len(scene)} bytes", flush=True)
        seq = 0
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] in ("zero", "dump"):
                flag = "-z" if words[0] == "zero" else "-d"
                subprocess.run(["callgrind_control", flag, str(pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                continue
            button, count = words[0], int(words[1])
            size = 0
            for _ in range(count):
                seq += 1
                await ws.send(json.dumps({"type": "event", "seq": seq, "target": button, "event": "touchUpInside"}))
                while True:
                    answer = await ws.recv()
                    message = json.loads(answer)
                    if message.get("ack") == seq:
                        size = len(answer)
                        break
            print(f"{button} {count} last-answer {size} bytes", flush=True)


asyncio.run(main(sys.argv[1], int(sys.argv[2])))
