"""Drives a running Bindery server (with the test scenes echo, widgets, board) through
Python `websockets` and `websocat`, checking the wire protocol of PROTOCOL.md.

usage: python bindery_protocol.py http://127.0.0.1:PORT
Exits 0 and prints "OK <n> checks" on success; prints the failed check and exits 1.
Every wait is bounded (2 s per message, 20 s overall via the caller's timeout).
"""
import asyncio
import json
import os
import subprocess
import sys

import websockets

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Python"))
from bindery_client import Checks  # noqa: E402

BASE = sys.argv[1]
WS = BASE.replace("http://", "ws://")
TIMEOUT = 2.0
check = Checks()


async def recv(ws):
    return json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


async def send(ws, message):
    await ws.send(message if isinstance(message, str) else json.dumps(message))


async def event(ws, seq, target, name, value=None):
    message = {"type": "event", "seq": seq, "target": target, "event": name}
    if value is not None:
        message["value"] = value
    await send(ws, message)
    return await recv(ws)


async def echo_scene():
    async with websockets.connect(WS + "/ws/echo") as ws:
        scene = await recv(ws)
        check(scene["type"] == "scene" and scene["protocol"] == 1 and scene["scene"] == "echo", f"scene message: {scene}")
        check(scene["resumed"] is False and len(scene["session"]) == 22, "fresh session with a 22-char token")
        check([w["id"] for w in scene["widgets"]] == ["input", "output"], "flat widget list")
        check(scene["widgets"][0]["kind"] == "textField", "kinds")

        answer = await event(ws, 1, "input", "editingChanged", "hello 123")
        check(answer == {"type": "patch", "ack": 1, "changes": [{"target": "output", "prop": "text", "value": "HELLO 123"}]},
              f"patch with ack, no echo of the sender's own value: {answer}")

        # The benchmark's event (no seq): one patch, no ack.
        await send(ws, {"type": "event", "target": "input", "event": "editingChanged", "value": "x"})
        answer = await recv(ws)
        check("ack" not in answer and answer["changes"] == [{"target": "output", "prop": "text", "value": "X"}], f"bench: {answer}")

        # Pipelined: one answer each, in order.
        for seq, text in [(2, "a"), (3, "b"), (4, "c")]:
            await send(ws, {"type": "event", "seq": seq, "target": "input", "event": "editingChanged", "value": text})
        answers = [await recv(ws) for _ in range(3)]
        check([a["ack"] for a in answers] == [2, 3, 4], f"pipelined acks in order: {answers}")
        check(answers[2]["changes"][0]["value"] == "C", "last pipelined value")

        # Bad input never ends the session.
        await send(ws, "{nope")
        check((await recv(ws))["code"] == "bad-json", "bad-json")
        await send(ws, "[1,2]")
        check((await recv(ws))["code"] == "bad-message", "bad-message")
        await send(ws, {"type": "dance", "seq": 5})
        answer = await recv(ws)
        check(answer["code"] == "unknown-type" and answer["ack"] == 5, f"unknown-type with ack: {answer}")
        answer = await event(ws, 6, "nope", "touchUpInside")
        check(answer["code"] == "unknown-target" and answer["ack"] == 6 and answer["target"] == "nope", f"unknown-target: {answer}")
        check((await event(ws, 7, "output", "touchUpInside"))["code"] == "unknown-event", "label sends no events")
        check((await event(ws, 8, "input", "jump"))["code"] == "unknown-event", "unknown event name")
        check((await event(ws, 9, "input", "editingChanged", 42))["code"] == "bad-value", "bad-value")
        await ws.send(b"\x00\x01")
        check((await recv(ws))["code"] == "binary-not-supported", "binary frame is an error")
        answer = await event(ws, 10, "input", "editingChanged", "still here")
        check(answer["ack"] == 10 and answer["changes"][0]["value"] == "STILL HERE", "the session went on")

        # resync
        await send(ws, {"type": "resync", "seq": 11})
        answer = await recv(ws)
        check(answer["type"] == "scene" and answer["resumed"] is True and answer["ack"] == 11, f"resync: {answer}")
        return scene["session"]


async def widgets_scene():
    async with websockets.connect(WS + "/ws/widgets") as ws:
        await recv(ws)
        answer = await event(ws, 1, "slider", "valueChanged", 1.5)
        check({"target": "slider", "prop": "value", "value": 1} in answer["changes"], f"clamped value sent back: {answer}")
        answer = await event(ws, 2, "slider", "valueChanged", 0.25)
        check(answer["changes"] == [{"target": "valueLabel", "prop": "text", "value": "0.25"}], f"in range: not echoed: {answer}")
        check((await event(ws, 3, "slider", "valueChanged", "loud"))["code"] == "bad-value", "bad-value type")
        check((await event(ws, 4, "picker", "valueChanged", 5))["code"] == "bad-value", "segment out of range")
        check((await event(ws, 5, "picker", "valueChanged", -1))["type"] == "patch", "segment -1 is none")
        check((await event(ws, 6, "off", "touchUpInside"))["code"] == "disabled", "disabled")
        check((await event(ws, 7, "boom", "touchUpInside"))["code"] == "binding-failed", "binding-failed")
        check((await event(ws, 8, "slider", "valueChanged", 0.5))["ack"] == 8, "goes on after a binding error")


async def resume_and_takeover(token):
    # Resume after the drop: same token, full scene, state kept.
    async with websockets.connect(f"{WS}/ws/echo?session={token}") as ws:
        scene = await recv(ws)
        check(scene["resumed"] is True and scene["session"] == token, f"resumed: {scene['resumed']}")
        output = [w for w in scene["widgets"] if w["id"] == "output"][0]
        check(output["props"]["text"] == "STILL HERE", "state kept across the drop")
        # Taken over by a second connection with the same token: the first gets 4001.
        async with websockets.connect(f"{WS}/ws/echo?session={token}") as second:
            check((await recv(second))["resumed"] is True, "second connection resumes")
            try:
                await asyncio.wait_for(ws.recv(), TIMEOUT)
                check(False, "the old connection should have been closed")
            except websockets.ConnectionClosed as closed:
                check(closed.rcvd is not None and closed.rcvd.code == 4001, f"closed with 4001: {closed.rcvd}")
    # A token of another scene: a fresh session; unknown token: fresh too.
    async with websockets.connect(f"{WS}/ws/widgets?session={token}") as ws:
        scene = await recv(ws)
        check(scene["resumed"] is False and scene["session"] != token, "another scene's token gets a fresh session")
    async with websockets.connect(f"{WS}/ws/echo?session=nope") as ws:
        check((await recv(ws))["resumed"] is False, "unknown token gets a fresh session")
    # The original is still there.
    async with websockets.connect(f"{WS}/ws/echo?session={token}") as ws:
        check((await recv(ws))["resumed"] is True, "the other session was left untouched")
        await send(ws, {"type": "bye"})
        check((await recv(ws))["type"] == "bye", "bye answered")
        try:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
        except websockets.ConnectionClosed as closed:
            check(closed.rcvd is not None and closed.rcvd.code == 1000, "closed with 1000 after bye")
    async with websockets.connect(f"{WS}/ws/echo?session={token}") as ws:
        check((await recv(ws))["resumed"] is False, "after bye the token is gone")


async def shared_board():
    async with websockets.connect(WS + "/ws/board") as a, websockets.connect(WS + "/ws/board") as b:
        await recv(a)
        await recv(b)

        async def until(ws, predicate):
            while True:
                message = await recv(ws)
                if predicate(message):
                    return message

        await until(a, lambda m: any(c.get("value") == "2 online" for c in m.get("changes", [])))
        await send(a, {"type": "event", "seq": 1, "target": "sharedSlider", "event": "valueChanged", "value": 0.75})
        own = await until(a, lambda m: m.get("ack") == 1)
        check(own["changes"] == [], f"the sender is not echoed: {own}")
        other = await until(b, lambda m: any(c["target"] == "sharedSlider" for c in m.get("changes", [])))
        check("ack" not in other and other["changes"][0]["value"] == 0.75, f"broadcast to the other client: {other}")
    async with websockets.connect(WS + "/ws/board") as c:
        scene = await recv(c)
        slider = [w for w in scene["widgets"] if w["id"] == "sharedSlider"][0]
        check(slider["props"]["value"] == 0.75, "shared state seen by a newcomer")


async def refusals():
    try:
        async with websockets.connect(WS + "/ws/nope"):
            check(False, "unknown scene accepted")
    except websockets.InvalidStatus as error:
        check(error.response.status_code == 404, "unknown scene: 404 at the upgrade")
    try:
        async with websockets.connect(WS + "/ws/echo", origin="http://evil.example"):
            check(False, "foreign origin accepted")
    except websockets.InvalidStatus as error:
        check(error.response.status_code == 403, "foreign origin: 403")
    port = BASE.rsplit(":", 1)[1]
    async with websockets.connect(WS + "/ws/echo", origin=f"http://localhost:{port}") as ws:
        check((await recv(ws))["type"] == "scene", "localhost origin allowed")


def websocat_session():
    websocat = os.path.join(os.path.dirname(sys.executable), "websocat")
    process = subprocess.Popen([websocat, "-n", WS + "/ws/echo"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        scene = json.loads(process.stdout.readline())
        check(scene["type"] == "scene", "websocat: scene")
        process.stdin.write('{"type":"event","seq":1,"target":"input","event":"editingChanged","value":"ws"}\n')
        process.stdin.flush()
        answer = json.loads(process.stdout.readline())
        check(answer == {"type": "patch", "ack": 1, "changes": [{"target": "output", "prop": "text", "value": "WS"}]},
              f"websocat: patch {answer}")
        process.stdin.write('{"type":"event","seq":2,"target":"zzz","event":"touchUpInside"}\n')
        process.stdin.flush()
        check(json.loads(process.stdout.readline())["code"] == "unknown-target", "websocat: error")
    finally:
        process.kill()
        process.wait(timeout=5)


async def main():
    token = await echo_scene()
    await widgets_scene()
    await resume_and_takeover(token)
    await shared_board()
    await refusals()
    await asyncio.get_running_loop().run_in_executor(None, websocat_session)


try:
    asyncio.run(asyncio.wait_for(main(), 20))
except Exception as error:  # noqa: BLE001 - report any failure
    print(f"FAILED after {check.count} checks: {type(error).__name__}: {error}")
    sys.exit(1)
print(f"OK {check.count} checks")
