"""Nothing lost: connections killed at random points under load, then resumed.

usage: python nothing_lost.py BINDERY [--seconds 5] [--clients 16] [--seed N]

Against a real `bindery` (the demo scenes), for `--seconds`:
- `repos` clients tap "Load more" (pipelined) and have their TCP connection dropped at a
  random point: before reading the scene, after sending before any answer, between
  answers, or halfway through a frame. They resume with their token. Every resume must
  give the same session (`"resumed": true`), and its list must hold 20 rows per
  load-more the server applied: at least every tap it acknowledged with a patch, at most
  those plus the ones sent but never answered — never a page twice (ids repo-1...repo-N,
  in order, no duplicates). A session that reached 100 rows says `bye` and starts over.
- `counter` clients type unique texts the same way; after a resume the field holds the
  last acknowledged text or a later one sent (never an older one, never another client's),
  and the label counts it.
- Within each connection every client applies the patches to its own copy of the scene
  (list ops included); before each drop, and at the end, it asks for a `resync` and its
  copy must equal the server's scene: no patch was lost or misapplied.
- On the shared `board`, writers set the slider and are dropped; an observer that is never
  dropped applies every patch, and at the end its slider equals the server's.

Prints a summary line and "OK"; exits 1 with the first violation.
"""
import argparse
import asyncio
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Python"))
from bindery_client import Bindery, Client, Closed, Model, frame  # noqa: E402

HOST = "127.0.0.1"
violations = []
stats = {"kills": 0, "resumes": 0, "events": 0, "acked": 0, "resyncs": 0, "sessions": 0}


def fail(message):
    violations.append(message)
    raise AssertionError(message)


def launch(binary):
    return Bindery(binary, "--log-level", "error", "--grace", "30", cwd="/")


async def open_session(port, scene, token):
    client = await Client.connect(HOST, port, f"/ws/{scene}" + (f"?session={token}" if token else ""))
    if client.status != 101:
        fail(f"upgrade answered {client.status}")
    return client


async def check_resync(client, model, seq):
    """Asks for the whole scene; the client's patched copy must equal it."""
    client.send({"type": "resync", "seq": seq})
    while True:
        message = await client.recv()
        if message["type"] == "patch" and "ack" not in message:
            model.apply(message)
            continue
        if message.get("ack") != seq or message["type"] != "scene":
            fail(f"resync answered by {message}")
        stats["resyncs"] += 1
        if Model(message).props != model.props:
            fail(f"patched copy differs from the scene: {model.props} != {Model(message).props}")
        return


async def drop(client, rng, pending):
    """Kills the connection; sometimes in the middle of a frame."""
    if rng.random() < 0.3:
        half = frame(0x1, b'{"type":"event","seq":999999,"target":"x","event":"touchUpInside"}')
        client.writer.write(half[:rng.randrange(1, len(half))])
        await asyncio.sleep(0)
    client.abort()
    stats["kills"] += 1


async def repos_client(port, index, deadline):
    rng = random.Random(index)
    while time.monotonic() < deadline:
        token, seq, ok, unanswered, disabled_seen = None, 0, 0, 0, False
        stats["sessions"] += 1
        while time.monotonic() < deadline:
            client = await open_session(port, "repos", token)
            if token and rng.random() < 0.1:  # dropped before even reading the scene
                await drop(client, rng, 0)
                continue
            scene = await client.recv()
            if token:
                stats["resumes"] += 1
                if not scene["resumed"] or scene["session"] != token:
                    fail(f"repos {index}: resume gave another session")
            token = scene["session"]
            model = Model(scene)
            rows = model.props["repoList"]["items"]
            pages = len(rows) // 20
            if len(rows) % 20 or [r["id"] for r in rows] != [f"repo-{n}" for n in range(1, len(rows) + 1)]:
                fail(f"repos {index}: rows not whole pages in order: {[r['id'] for r in rows]}")
            if not ok <= pages <= ok + unanswered:
                fail(f"repos {index}: {pages} pages, but {ok} acknowledged and {unanswered} unanswered")
            ok = pages  # what the server applied is now known
            unanswered = 0
            if pages == 5:
                client.send({"type": "bye"})
                await client.close()
                break
            burst = rng.randint(1, 3)
            answers_before_kill = rng.randint(0, burst)
            for _ in range(burst):
                seq += 1
                client.send({"type": "event", "seq": seq, "target": "loadMoreButton", "event": "touchUpInside"})
                stats["events"] += 1
            answered = 0
            while answered < answers_before_kill:
                message = await client.recv()
                if "ack" not in message:
                    model.apply(message)
                    continue
                answered += 1
                stats["acked"] += 1
                if message["type"] == "patch":
                    ok += 1
                    model.apply(message)
                elif message.get("code") == "disabled":
                    disabled_seen = True
                else:
                    fail(f"repos {index}: unexpected answer {message}")
            unanswered = burst - answered
            if unanswered == 0 and rng.random() < 0.5:
                seq += 1
                await check_resync(client, model, seq)
            await drop(client, rng, unanswered)
        del disabled_seen


async def counter_client(port, index, deadline):
    rng = random.Random(1000 + index)
    token, seq, last_acked, last_sent = None, 0, 0, 0
    texts = {0: ""}
    stats["sessions"] += 1
    while time.monotonic() < deadline:
        client = await open_session(port, "counter", token)
        scene = await client.recv()
        if token:
            stats["resumes"] += 1
            if not scene["resumed"] or scene["session"] != token:
                fail(f"counter {index}: resume gave another session")
        token = scene["session"]
        model = Model(scene)
        text = model.props["textField"]["text"]
        matches = [k for k, t in texts.items() if t == text]
        if not any(last_acked <= k <= last_sent for k in matches):
            fail(f"counter {index}: field holds {text!r}; acked up to {texts[last_acked]!r}, sent up to {texts[last_sent]!r}")
        if model.props["countLabel"]["text"] != f"{len(text)}개":
            fail(f"counter {index}: label {model.props['countLabel']['text']!r} for {text!r}")
        burst = rng.randint(1, 4)
        answers_before_kill = rng.randint(0, burst)
        for _ in range(burst):
            seq += 1
            texts[seq] = f"c{index}-" + "x" * seq
            client.send({"type": "event", "seq": seq, "target": "textField", "event": "editingChanged", "value": texts[seq]})
            stats["events"] += 1
            last_sent = seq
        answered = 0
        while answered < answers_before_kill:
            message = await client.recv()
            if "ack" not in message:
                model.apply(message)
                continue
            if message["type"] != "patch":
                fail(f"counter {index}: unexpected answer {message}")
            answered += 1
            stats["acked"] += 1
            last_acked = message["ack"]
            model.apply(message)
            model.props["textField"]["text"] = texts[last_acked]  # the sender's own value is not echoed
        if answered == burst and rng.random() < 0.5:
            seq += 1
            texts[seq] = texts[last_acked]
            await check_resync(client, model, seq)
            last_sent = max(last_sent, seq)
            last_acked = seq
        await drop(client, rng, burst - answered)


async def board(port, deadline, writers):
    observer = await open_session(port, "board", None)
    model = Model(await observer.recv())

    async def observe():
        try:
            while True:
                model.apply(await observer.recv(timeout=60))
        except asyncio.CancelledError:
            pass

    watcher = asyncio.create_task(observe())

    async def writer(index):
        rng = random.Random(5000 + index)
        token, seq = None, 0
        while time.monotonic() < deadline:
            client = await open_session(port, "board", token)
            scene = await client.recv()
            token = scene["session"]
            for _ in range(rng.randint(1, 3)):
                seq += 1
                client.send({"type": "event", "seq": seq, "target": "sharedSlider", "event": "valueChanged",
                             "value": round(rng.random(), 3)})
                stats["events"] += 1
            if rng.random() < 0.5:
                while (await client.recv()).get("ack") != seq:
                    pass
            await drop(client, rng, 0)
            await asyncio.sleep(0.01)

    await asyncio.gather(*(writer(i) for i in range(writers)))
    await asyncio.sleep(0.5)  # the last changes reach the observer
    watcher.cancel()
    await asyncio.gather(watcher, return_exceptions=True)
    fresh = await open_session(port, "board", None)
    truth = Model(await fresh.recv())
    await fresh.close()
    if truth.props["sharedSlider"]["value"] != model.props["sharedSlider"]["value"]:
        fail(f"board observer has {model.props['sharedSlider']['value']}, server {truth.props['sharedSlider']['value']}")
    await observer.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bindery")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--clients", type=int, default=16)
    args = parser.parse_args()
    process = launch(args.bindery)
    port = process.port
    start = time.monotonic()
    deadline = start + args.seconds
    try:
        await asyncio.wait_for(asyncio.gather(
            *(repos_client(port, i, deadline) for i in range(args.clients)),
            *(counter_client(port, i, deadline) for i in range(args.clients)),
            board(port, deadline, max(2, args.clients // 4)),
        ), args.seconds + 30)
    except (AssertionError, Closed, OSError, asyncio.TimeoutError) as error:
        print(f"FAILED: {violations[0] if violations else f'{type(error).__name__}: {error}'}")
        print(f"stats: {stats}")
        if not process.alive():
            print(f"bindery exited with {process.process.returncode}:\n{process.log_tail()}")
        sys.exit(1)
    finally:
        process.stop_cleanly()
    elapsed = time.monotonic() - start
    print(f"nothing lost: {stats['events']} events ({stats['acked']} acknowledged before a drop), {stats['kills']} "
          f"connections killed at random points, {stats['resumes']} resumes, {stats['resyncs']} resync comparisons, "
          f"{stats['sessions']} sessions, {2 * args.clients + max(2, args.clients // 4) + 1} concurrent clients, "
          f"{elapsed:.1f} s")
    print("OK")


asyncio.run(main())
