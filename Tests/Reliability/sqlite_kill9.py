"""Durable sessions on one machine: one `bindery --store sqlite:PATH`, killed with SIGKILL
every few seconds under load and started again on the same port and file.

usage: python sqlite_kill9.py BINDERY [--seconds 20] [--clients 12] [--every 2.5] [--seed N]

`counter` clients type unique texts (each event acknowledged before the next), and on
every disconnect resume with their token. After each restart every resume must give the
same session (`"resumed": true`, the same token), and its field must hold the last text
the server acknowledged or one sent after it, never an older one (an acknowledged event
is on disk before its answer went out); the label must count that text. A client that
cannot get back in within 10 s of a restart fails the run, as does a server that does
not come back. Prints a summary line and "OK"; exits 1 with the first violation.
"""
import argparse
import asyncio
import os
import random
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Python"))
from bindery_client import Bindery, Client, Closed, Model, free_port  # noqa: E402

HOST = "127.0.0.1"
violations = []
stats = {"kills": 0, "resumes": 0, "events": 0, "acked": 0, "lost_answers": 0}


def fail(message):
    violations.append(message)
    raise AssertionError(message)


async def connect(port, token, deadline):
    """Opens /ws/counter (resuming `token`) once the server listens again."""
    while True:
        try:
            client = await Client.open(HOST, port, "counter", token, timeout=2)
            if client.status == 101:
                return client
            client.abort()
        except (OSError, asyncio.TimeoutError):
            pass
        if time.monotonic() > deadline:
            fail(f"no way back in (token {token})")
        await asyncio.sleep(0.05)


async def counter_client(port, index, stop_at):
    rng = random.Random(7000 + index)
    token, seq, last_acked = None, 0, 0
    texts = {0: ""}
    while time.monotonic() < stop_at:
        client = await connect(port, token, time.monotonic() + 10)
        try:
            scene = await client.recv(timeout=10)
        except (Closed, asyncio.TimeoutError, ConnectionError):
            continue  # killed before the scene: try again
        if token:
            stats["resumes"] += 1
            if not scene.get("resumed") or scene.get("session") != token:
                fail(f"counter {index}: resume of {token} gave {scene.get('session')} resumed={scene.get('resumed')}")
        token = scene["session"]
        model = Model(scene)
        text = model.props["textField"]["text"]
        held = [k for k, t in texts.items() if t == text]
        if not any(k >= last_acked for k in held):
            fail(f"counter {index}: field holds {text!r} after a restart; "
                 f"the server had acknowledged {texts[last_acked]!r}")
        if model.props["countLabel"]["text"] != f"{len(text)}개":
            fail(f"counter {index}: label {model.props['countLabel']['text']!r} for {text!r}")
        # Everything the field may hold from here on was sent after the resume's point.
        texts = {k: t for k, t in texts.items() if k >= last_acked}
        try:
            while time.monotonic() < stop_at:
                seq += 1
                texts[seq] = f"c{index}-{seq}-" + "x" * rng.randint(0, 12)
                client.send({"type": "event", "seq": seq, "target": "textField", "event": "editingChanged",
                             "value": texts[seq]})
                stats["events"] += 1
                while True:
                    message = await client.recv(timeout=10)
                    if message.get("ack") == seq:
                        break
                if message["type"] != "patch":
                    fail(f"counter {index}: answer {message}")
                last_acked = seq
                stats["acked"] += 1
                await asyncio.sleep(rng.random() * 0.02)
        except (Closed, asyncio.TimeoutError, ConnectionError):
            stats["lost_answers"] += 1  # killed mid-event: sent, maybe applied, never acknowledged
        finally:
            client.abort()


async def killer(server, every, stop_at):
    loop = asyncio.get_running_loop()
    while time.monotonic() + every < stop_at:
        await asyncio.sleep(every)
        server.kill(signal.SIGKILL)
        stats["kills"] += 1
        await loop.run_in_executor(None, server.start)  # same port, same file


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bindery")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--every", type=float, default=2.5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    folder = tempfile.mkdtemp(prefix="bindery-sqlite-kill9-")
    store = os.path.join(folder, "state", "sessions.db")
    server = Bindery(args.bindery, "--log-level", "error", "--grace", "60", "--store", f"sqlite:{store}",
                     port=free_port(), cwd="/")
    started = time.monotonic()
    stop_at = started + args.seconds
    try:
        results = await asyncio.gather(killer(server, args.every, stop_at),
                                       *(counter_client(server.port, i, stop_at) for i in range(args.clients)),
                                       return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException) and not violations:
                violations.append(f"{type(result).__name__}: {result}")
    finally:
        status = server.stop()
    print(f"sqlite_kill9: {stats['kills']} kills, {stats['resumes']} resumes, {stats['events']} events, "
          f"{stats['acked']} acknowledged, {stats['lost_answers']} answers lost to a kill, "
          f"{time.monotonic() - started:.0f} s")
    if stats["kills"] < 2 or stats["resumes"] < args.clients:
        violations.append(f"too little happened to tell: {stats['kills']} kills, {stats['resumes']} resumes")
    if status not in (0, -signal.SIGTERM):
        violations.append(f"the last server exited with {status}:\n{server.log_tail()}")
    if violations:
        print(f"FAILED: {violations[0]}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    asyncio.run(main())
