"""Durable sessions across real `bindery` processes sharing one redis-server.

Starts redis-server on a Unix socket and two `bindery --store redis+unix://...` processes,
then, with Python `websockets`:

1. Fencing: B takes a session over (HTTP) while A holds its WebSocket: A's next event
   is refused by Redis (`store-unavailable`) and A closes the socket 4001 "session moved".
   SIGKILL: types into an echo session on A (every event acknowledged), SIGKILLs A,
   resumes the token on B: `scene` with `"resumed": true`, the same token and the typed
   text; B's `101` carries `X-Bindery-Session`; typing goes on.
2. Drain: a date session on B (encoded restoration) and an echo session; SIGTERM to B
   while connected: `bye` "shutdown", close 1001, B exits 0 and leaves its sessions
   released in Redis (owner ""), its lease deleted (A's expires by itself); a new process C resumes both
   (the date shows the same time: not replayed).
3. Ended sessions leave no keys (`bye`).

usage: python cluster_resume.py [PATH/TO/bindery]
Exits 0 printing "OK <n> checks"; skipped (exit 0, "SKIP ...") without redis-server.
"""
import asyncio
import json
import os
import shutil
import signal
import sys
import time
import urllib.request

import websockets

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Python"))
from bindery_client import Bindery, Checks, RedisServer  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, ".build", "debug", "bindery")
TIMEOUT = 3.0
check = Checks()


def start_bindery(store):
    """A `bindery --store` process, once it has reached its store."""
    server = Bindery(BINARY, "--store", store, "--grace", "30", "--log-level", "info", timeout=10)
    deadline = time.monotonic() + 10
    while "session store connected" not in "\n".join(server.log):
        if time.monotonic() > deadline:
            raise AssertionError(f"bindery did not reach its store: {server.log}")
        time.sleep(0.05)
    return server


async def recv(ws):
    return json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


async def open_scene(server, scene, token=None):
    url = f"{server.ws}/ws/{scene}" + (f"?session={token}" if token else "")
    ws = await websockets.connect(url, open_timeout=TIMEOUT)
    header = ws.response.headers.get("X-Bindery-Session")
    first = await recv(ws)
    check(first["type"] == "scene", f"first message is a scene: {first}")
    check(header == first["session"], f"X-Bindery-Session {header} names the session {first['session']}")
    return ws, first


def prop(scene, widget, name):
    return next(w for w in scene["widgets"] if w["id"] == widget)["props"][name]


async def type_text(ws, text, seq):
    await ws.send(json.dumps({"type": "event", "seq": seq, "target": "input", "event": "editingChanged", "value": text}))
    answer = await recv(ws)
    check(answer.get("ack") == seq and answer["type"] == "patch", f"event {seq} acknowledged: {answer}")


async def main(redis):
    store = redis.url
    a, b = start_bindery(store), start_bindery(store)

    # 1. SIGKILL of the owner: the session resumes on the other process.
    ws, scene = await open_scene(a, "echo")
    token = scene["session"]
    check(scene["resumed"] is False, "a new session")
    text = ""
    for seq, char in enumerate("durable", start=1):
        text += char
        await type_text(ws, text, seq)
    # A takeover by B while A is alive and has the WebSocket: B asks A to release it
    # (the hint); A closes the socket 4001 "session moved" before B loads the journal.
    wh, handed = await open_scene(a, "echo")
    await type_text(wh, "x", 1)
    with urllib.request.urlopen(f"{b.base}/api/sessions/{handed['session']}", timeout=TIMEOUT) as response:
        body = json.loads(response.read())
        check(body["resumed"] is True and prop(body, "output", "text") == "X", f"B took the session over: {body}")
    try:
        await asyncio.wait_for(wh.recv(), TIMEOUT)
        check(False, "A's socket closes")
    except websockets.ConnectionClosed as closed:
        check(closed.rcvd is not None and closed.rcvd.code == 4001 and closed.rcvd.reason == "session moved",
              f"closed 4001 session moved: {closed.rcvd}")
    # The same with A paused (SIGSTOP): B waits for it at most 200 ms, then raises the
    # epoch. Woken, A either reads B's late hint first (its release is fenced) or has
    # its next write fenced by Redis (answered store-unavailable): either way the socket
    # is closed 4001 "session moved" and nothing A writes lands.
    wf, moving = await open_scene(a, "echo")
    await type_text(wf, "x", 1)
    a.process.send_signal(signal.SIGSTOP)
    try:
        with urllib.request.urlopen(f"{b.base}/api/sessions/{moving['session']}", timeout=TIMEOUT) as response:
            check(json.loads(response.read())["resumed"] is True, "B took the session over through the API")
    finally:
        a.process.send_signal(signal.SIGCONT)
    try:
        await wf.send(json.dumps({"type": "event", "seq": 2, "target": "input", "event": "editingChanged", "value": "xy"}))
        refused = await recv(wf)
        check(refused.get("code") == "store-unavailable" and refused.get("ack") == 2, f"the fenced write: {refused}")
        await asyncio.wait_for(wf.recv(), TIMEOUT)
        check(False, "the stale socket closes")
    except websockets.ConnectionClosed as closed:
        check(closed.rcvd is not None and closed.rcvd.code == 4001 and closed.rcvd.reason == "session moved",
              f"closed 4001 session moved: {closed.rcvd}")
    check(redis.cli("LLEN", f"bindery:s:{moving['session']}:log") == "1", "the fenced write never landed")

    check(a.kill() == -signal.SIGKILL, "A was SIGKILLed")
    ws2, resumed = await open_scene(b, "echo", token)
    check(resumed["resumed"] is True, f"resumed on B: {resumed}")
    check(resumed["session"] == token, "the same token")
    check(prop(resumed, "input", "text") == "durable", f"the typed text: {prop(resumed, 'input', 'text')}")
    check(prop(resumed, "output", "text") == "DURABLE", "the scene's state, replayed")
    check(redis.cli("HGET", f"bindery:s:{token}", "epoch") == "2", "the epoch was raised")
    await type_text(ws2, "durable!", 100)

    # 2. SIGTERM drain of B with two sessions open.
    wd, date = await open_scene(b, "date")
    await wd.send(json.dumps({"type": "event", "seq": 1, "target": "nowButton", "event": "touchUpInside"}))
    answer = await recv(wd)
    shown = next(c["value"] for c in answer["changes"] if c["target"] == "dateField" and c["prop"] == "text")
    b.process.send_signal(signal.SIGTERM)
    for socket in (ws2, wd):
        bye = await recv(socket)
        check(bye == {"type": "bye", "reason": "shutdown"}, f"bye shutdown: {bye}")
        try:
            await asyncio.wait_for(socket.recv(), TIMEOUT)
            check(False, "the socket closes")
        except websockets.ConnectionClosed as closed:
            check(closed.rcvd is not None and closed.rcvd.code == 1001, f"closed with 1001: {closed.rcvd}")
    check(b.process.wait(10) == 0, "B exited 0 after SIGTERM")
    check(redis.cli("HGET", f"bindery:s:{token}", "owner") == "", "B released the session")
    leases = redis.cli("KEYS", "bindery:proc:*").split()
    check(not any(key.endswith(f"-{b.process.pid}") for key in leases), f"B's process lease is gone: {leases}")
    c = start_bindery(store)
    _, again = await open_scene(c, "echo", token)
    check(again["resumed"] is True and prop(again, "input", "text") == "durable!", f"resumed on C: {again}")
    wd2, date_again = await open_scene(c, "date", date["session"])
    check(prop(date_again, "dateField", "text") == shown, "the date scene's own state, not a replayed tap")

    # 3. An ended session leaves no keys.
    await wd2.send(json.dumps({"type": "bye"}))
    check((await recv(wd2))["type"] == "bye", "bye")
    deadline = time.monotonic() + 5
    while redis.cli("EXISTS", f"bindery:s:{date['session']}") != "0" and time.monotonic() < deadline:
        time.sleep(0.05)
    check(redis.cli("EXISTS", f"bindery:s:{date['session']}", f"bindery:s:{date['session']}:log") == "0", "keys deleted")
    c.kill(signal.SIGTERM)


if __name__ == "__main__":
    if not shutil.which("redis-server") or not shutil.which("redis-cli"):
        print("SKIP no redis-server")
        sys.exit(0)
    redis = RedisServer(log=False)
    try:
        asyncio.run(main(redis))
    except AssertionError as failure:
        print(f"FAILED after {check.count} checks: {failure}")
        sys.exit(1)
    finally:
        redis.stop(signal.SIGKILL, remove=True)
    print(f"OK {check.count} checks")
