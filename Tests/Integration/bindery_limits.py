"""Checks Bindery's resource limits over the wire against a server started with
--max-sessions-per-address 3, --max-websockets 2, --max-message-size 1024 and
--max-events-per-second 5 (the Swift test `ResourceLimitTests` starts one in-process).

usage: python bindery_limits.py http://127.0.0.1:PORT
Prints "OK <n> checks" and exits 0, or prints the failed check and exits 1.
"""
import asyncio
import json
import os
import sys
import urllib.request

import websockets

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Python"))
from bindery_client import Checks  # noqa: E402

BASE = sys.argv[1]
WS = BASE.replace("http://", "ws://")
TIMEOUT = 2.0
check = Checks()


def http(method, path, body=None):
    request = urllib.request.Request(BASE + path, method=method, data=body.encode() if body else None)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


async def recv(ws):
    return json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


async def upgrade_status(path):
    try:
        async with websockets.connect(WS + path) as ws:
            await ws.send(json.dumps({"type": "bye"}))  # ends its session: no leftover toward the limits
            return 101
    except websockets.InvalidStatus as error:
        return error.response.status_code


async def sessions_per_address():
    tokens = []
    for _ in range(3):
        status, body = http("POST", "/api/sessions", '{"scene":"echo"}')
        check(status == 201, f"session within the per-address limit: {status}")
        tokens.append(json.loads(body)["session"])
    status, body = http("POST", "/api/sessions", '{"scene":"echo"}')
    check(status == 429 and json.loads(body)["error"] == "too-many-sessions-for-address", f"4th session: {status} {body}")
    check(await upgrade_status("/ws/echo") == 429, "WebSocket beyond the per-address limit: 429")
    # A resume needs no new session, so it is allowed at the limit.
    async with websockets.connect(f"{WS}/ws/echo?session={tokens[0]}") as ws:
        check((await recv(ws))["resumed"] is True, "resume at the limit")
    for token in tokens:
        check(http("DELETE", f"/api/sessions/{token}")[0] == 200, "delete")


async def websocket_cap():
    async with websockets.connect(WS + "/ws/echo") as a, websockets.connect(WS + "/ws/echo") as b:
        await recv(a)
        await recv(b)
        check(await upgrade_status("/ws/echo") == 503, "third WebSocket beyond --max-websockets 2: 503")
        await a.send(json.dumps({"type": "bye"}))
        await b.send(json.dumps({"type": "bye"}))
    # Once one is gone, a new one is accepted (give the server a moment to see the close).
    for _ in range(20):
        status = await upgrade_status("/ws/echo")
        if status == 101:
            break
        await asyncio.sleep(0.1)
    check(status == 101, f"accepted again below the cap: {status}")


async def message_size():
    async with websockets.connect(WS + "/ws/echo", max_size=None) as ws:
        await recv(ws)
        small = {"type": "event", "seq": 1, "target": "input", "event": "editingChanged", "value": "x" * 900}
        await ws.send(json.dumps(small))
        check((await recv(ws))["ack"] == 1, "a message under 1024 bytes is handled")
        big = dict(small, seq=2, value="x" * 2000)
        await ws.send(json.dumps(big))
        try:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
            check(False, "an oversize message should close the connection")
        except websockets.ConnectionClosed as closed:
            check(closed.rcvd is not None and closed.rcvd.code == 1009, f"oversize: 1009, got {closed.rcvd}")


async def rate_limit():
    async with websockets.connect(WS + "/ws/echo") as ws:
        await recv(ws)
        for seq in range(1, 21):
            await ws.send(json.dumps({"type": "event", "seq": seq, "target": "input", "event": "editingChanged",
                                      "value": str(seq)}))
        answers = [await recv(ws) for _ in range(20)]
        check([a["ack"] for a in answers] == list(range(1, 21)), "one answer per event, in order")
        limited = [a for a in answers if a["type"] == "error"]
        check(all(a["code"] == "rate-limited" for a in limited), "only rate-limited errors")
        check(5 <= 20 - len(limited) <= 8, f"a burst of 5 (plus refill) passes: {20 - len(limited)} passed")
        await asyncio.sleep(1.1)
        await ws.send(json.dumps({"type": "event", "seq": 21, "target": "input", "event": "editingChanged", "value": "ok"}))
        answer = await recv(ws)
        check(answer["type"] == "patch" and answer["ack"] == 21, f"the same connection goes on after a pause: {answer}")


async def main():
    await sessions_per_address()
    await websocket_cap()
    await message_size()
    await rate_limit()


try:
    asyncio.run(asyncio.wait_for(main(), 25))
except Exception as error:  # noqa: BLE001 - report any failure
    print(f"FAILED after {check.count} checks: {type(error).__name__}: {error}")
    sys.exit(1)
print(f"OK {check.count} checks")
