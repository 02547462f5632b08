"""The cluster under faults: real redis-server, HAProxy and 4 bindery processes on loopback.

usage: python cluster_test.py BINDERY [--seconds 8] [--processes 4] [--seed N] [--keep]

Browser-like clients talk to HAProxy (deploy/haproxy.cfg) the whole time:
- `echo` typists send unique texts (seq/ack, 1-3 pipelined) and resume with their token
  whenever the connection closes (4001, 1001, EOF) or stalls for 2 s;
- `repos` clients tap "Load more" and say bye at 80 rows, then start a new session;
- the shared `board`: writers move the slider to ever larger values one acknowledged
  event at a time; an observer pinned to every process applies every patch; two SSE
  viewers through HAProxy;
- HTTP API clients type into `counter` with POST .../events, read it back with GET, and
  watch it on an SSE stream.
Faults, one at a time and then mixed, CLUSTER phase = --seconds each: SIGKILL of a random
process every ~5 s and a restart 1 s later; a rolling SIGTERM deploy of all of them;
SIGSTOP of one for 3 s then SIGCONT; a HAProxy restart; a Redis restart (SIGTERM, down
1.5 s, the append-only file reloaded).

Invariants, each counted (checks / violations) and printed:
  resume    every resume of an unexpired session answers resumed:true, same token
  acked     the resumed (or read back) state holds every acknowledged event, once:
            no acknowledged event lost or applied twice; answers in order, one per seq
  board     board observers on every process end each phase on the same value, the last
            acknowledged one; every observer's values never go back (no patch lost or
            reordered); its patched copy equals the scene it resumes
  viewers   "N online" equals the real number of board viewers within 2 s of settling
            (plus the 3 s liveness lease when a process died or was paused)
  owner     no token owned by two processes: an old connection (stalled, its process
            paused) never acknowledges an event missing from the new owner's state, and
            is closed (4001 or by its process's death)
  sse       SSE streams end on their session's state
  cleanup   after bye / DELETE, Redis holds no keys of those sessions (bindery:s:<token>*)
  idle      afterwards every process has no sessions (at once, or at the latest when the grace
            period after the last fault is over: a request a fault cut off after its process
            answered it leaves a session whose token never arrived, which rightly lives that
            long), fds back to idle, RSS near idle
Exits 1 on any violation.
"""
import argparse
import asyncio
import collections
import json
import os
import random
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from cluster import HOST, Cluster, fds, rss_kib  # noqa: E402  (puts Tests/Python on the path)
from bindery_client import Client, Closed, EventStream, HTTPFailed, apply_patch, request, scene_props  # noqa: E402

STALL = 2.0          # no answer for this long: the connection is given up and the session resumed
RECONNECT = 30.0     # a client that cannot reconnect for this long is a violation
LEASE = 3.0          # a process's liveness lease (CLUSTER.md): a dead process's viewers count until it lapses
ZOMBIE_WATCH = 12.0  # how long an abandoned connection is watched for late acks


class Invariants:
    NAMES = ["resume", "acked", "board", "viewers", "owner", "sse", "cleanup", "idle"]

    def __init__(self):
        self.checks = collections.Counter()
        self.violations = collections.Counter()
        self.examples = collections.defaultdict(list)
        self.where = collections.defaultdict(collections.Counter)

    def check(self, name, ok, detail=""):
        self.checks[name] += 1
        if not ok:
            self.violations[name] += 1
            head = detail.split(":")[0]
            who = head.split("#")[0].split("@")[0] if ":" in detail and " " not in head else "cluster"
            self.where[name][f"{who} in {phase.name}"] += 1
            if len(self.examples[name]) < 4:
                self.examples[name].append(f"[{phase.name}] {detail}")
        return ok

    def report(self):
        for name in self.NAMES:
            v, c = self.violations[name], self.checks[name]
            print(f"  {name:8} {c - v:6} of {c:6} checks passed" + (f", {v} VIOLATIONS" if v else ""))
            if v:
                print("           where: " + ", ".join(f"{k} {n}" for k, n in self.where[name].most_common()))
            for example in self.examples[name]:
                print(f"           e.g. {example}")
        return sum(self.violations.values())


abandoned = []  # (token, time): sessions a client had to give up (its resume gave another session)


def resumed_ok(name, token, scene):
    """The resume invariant for one answer; a session given up is remembered (it may still
    live on its old process until its grace period ends)."""
    ok = scene.get("resumed") is True and scene["session"] == token
    if not ok:
        abandoned.append((token, time.monotonic()))
    return inv.check("resume", ok, f"{name}: resume of {token} answered resumed={scene.get('resumed')} "
                                   f"session={scene['session']}")


class Phase:
    name = "start"
    last_disruption = 0.0   # monotonic time a process last died / was paused / Redis went away
    last_fault = 0.0        # monotonic time the last fault ended (HAProxy restarts too): a request it
                            # cut off may have made a session no client knows, which lives its grace period
    writers_paused = False


inv = Invariants()
phase = Phase()
events = collections.Counter()  # what happened (not invariants)
stopping = asyncio.Event()


async def ws_connect(port, path, give_up=RECONNECT):
    """Connects until the upgrade answers 101 (HAProxy may be restarting, no server up...)."""
    deadline = time.monotonic() + give_up
    last = None
    while True:
        try:
            client = await Client.connect(HOST, port, path, timeout=3)
            if client.status == 101:
                return client
            last = f"HTTP {client.status}"
            await client.close()
        except Exception as error:  # noqa: BLE001 - refused, reset, timed out: try again
            if isinstance(error, asyncio.CancelledError):
                raise
            last = repr(error)
        if time.monotonic() > deadline:
            raise ConnectionError(f"no WebSocket to {path} for {give_up:.0f} s: {last}")
        events["connect retries"] += 1
        await asyncio.sleep(0.1)


async def delete_session(port, token):
    """Ends a session with DELETE, tried again until it is answered 200, or 404 (ended
    already); that status, or None if it never was."""
    for _ in range(20):
        try:
            status, _, _ = await request(HOST, port, "DELETE", f"/api/sessions/{token}")
            if status in (200, 404):
                return status
        except HTTPFailed:
            events["DELETE unanswered"] += 1
        await asyncio.sleep(0.1)
    return None


def board_props(name, scene):
    """A board scene's widgets; a scene without them (a mirror not loaded yet) is a violation."""
    props = scene_props(scene)
    inv.check("board", "sharedSlider" in props and "viewers" in props,
              f"{name}: board scene without its widgets: {[w['id'] for w in scene['widgets']]}")
    return props


def slider(props):
    return props.get("sharedSlider", {}).get("value")


def online(props):
    return props.get("viewers", {}).get("text")


class Zombie:
    """A connection given up on (stalled): watched for late acks and for how it ends."""

    def __init__(self, owner, conn, base):
        self.owner, self.conn, self.base = owner, conn, base
        self.acks, self.code, self.successor, self.ended = [], "open", None, False


async def watch_zombie(zombie):
    events["abandoned connections"] += 1
    end = time.monotonic() + ZOMBIE_WATCH
    try:
        while time.monotonic() < end:
            try:
                message = await zombie.conn.recv(timeout=max(0.1, end - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if "ack" in message and message["type"] == "patch":
                zombie.acks.append(message["ack"])
    except Closed as closed:
        zombie.code = closed.code
    except (OSError, ValueError):
        zombie.code = None
    zombie.ended = True
    await zombie.conn.close()
    if zombie.code == 4001:
        events["old connections closed 4001 (fenced)"] += 1
    # Wait for the session's next scene (its new owner's state), then judge the late acks.
    for _ in range(100):
        if zombie.successor is not None or stopping.is_set():
            break
        await asyncio.sleep(0.1)
    if zombie.successor is None:
        events["abandoned connections never judged"] += 1
        return
    ok, detail = zombie.owner.judge_zombie(zombie)
    inv.check("owner", ok, detail)
    inv.check("owner", zombie.code != "open",
              f"{zombie.owner.name}: its old connection still open {ZOMBIE_WATCH:.0f} s after it resumed elsewhere")


class WSSession:
    """A browser tab on a per-connection scene through HAProxy; subclasses say what to type
    and what the state must be."""

    scene = ""

    def __init__(self, index, proxy_port, rng):
        self.index, self.port, self.rng = index, proxy_port, rng
        self.name = f"{self.scene}#{index}"
        self.token = None
        self.seq = 0
        self.pending = []        # seqs sent on this connection, not answered yet
        self.zombies = []
        self.ended_tokens = []

    def path(self):
        return f"/ws/{self.scene}" + (f"?session={self.token}" if self.token else "")

    async def run(self, deadline):
        attempts_after_stop = 0
        while attempts_after_stop < 3:
            attempts_after_stop += stopping.is_set()
            try:
                conn = await ws_connect(self.port, self.path())
            except ConnectionError as error:
                if stopping.is_set():
                    return
                inv.check("resume", False, f"{self.name}: {error}")
                continue
            try:
                scene = await conn.recv(timeout=STALL * 2)
            except (Closed, asyncio.TimeoutError, OSError):
                conn.abort()
                events["lost before the scene"] += 1
                continue
            if scene.get("type") != "scene":
                inv.check("resume", False, f"{self.name}: first message {scene}")
                conn.abort()
                continue
            self.on_scene(scene)
            for zombie in self.zombies:
                if zombie.successor is None:
                    zombie.successor = self.successor_state()
            self.zombies = [z for z in self.zombies if not z.ended]
            try:
                await self.converse(conn)
            except Closed as closed:
                events[f"closed {closed.code}"] += 1
                self.pending = []
                continue
            except asyncio.TimeoutError:
                events["stalled (no answer in 2 s)"] += 1
                zombie = Zombie(self, conn, self.zombie_base())
                self.zombies.append(zombie)
                asyncio.ensure_future(watch_zombie(zombie))
                self.pending = []
                continue
            # converse returned: stopping; say bye.
            try:
                conn.send({"type": "bye"})
                while (await conn.recv(timeout=3)).get("type") != "bye":
                    pass
                self.ended_tokens.append((self.token, self.name, phase.name))
            except (Closed, asyncio.TimeoutError, OSError):
                # Ended by DELETE instead (a resume could find it ended by the bye after all).
                events["bye unanswered"] += 1
                if await delete_session(self.port, self.token) == 200:
                    self.ended_tokens.append((self.token, self.name, phase.name))
            await conn.close()
            return

    def on_scene(self, scene):
        fresh = self.token is None
        if not fresh:
            events["resumes"] += 1
            if not resumed_ok(self.name, self.token, scene):
                self.reset()
                fresh = True
        self.token = scene["session"]
        self.check_state(scene_props(scene), fresh=fresh)

    async def answer(self, conn):
        """Reads until the next answer (a message with `ack`)."""
        while True:
            message = await conn.recv(timeout=STALL)
            if "ack" in message:
                return message
            self.on_push(message)

    def on_push(self, message):
        pass


class Typist(WSSession):
    """`echo`: types unique texts; the state is the last text applied."""

    scene = "echo"

    def reset(self):
        self.texts, self.last_acked, self.last_sent = {0: ""}, 0, 0

    def __init__(self, *args):
        super().__init__(*args)
        self.reset()

    def check_state(self, props, fresh=False):
        text = props["input"]["text"]
        candidates = [s for s in range(self.last_acked, self.last_sent + 1) if self.texts.get(s) == text]
        if not inv.check("acked", bool(candidates) or (fresh and text == ""),
                         f"{self.name}: field holds {text!r}, acknowledged up to seq {self.last_acked} "
                         f"({self.texts[self.last_acked]!r}), sent up to {self.last_sent}"):
            known = [s for s, t in self.texts.items() if t == text]
            self.last_acked = max(known) if known else self.last_sent
        else:
            self.last_acked = max(candidates) if candidates else 0
        inv.check("acked", props["output"]["text"] == text.upper(),
                  f"{self.name}: output {props['output']['text']!r} for input {text!r}")
        self.state_seq = self.last_acked

    def successor_state(self):
        return self.state_seq

    def zombie_base(self):
        return None

    def judge_zombie(self, zombie):
        late = [k for k in zombie.acks if k > zombie.successor]
        return not late, (f"{self.name}: an old connection acknowledged seq {late} after the session resumed "
                          f"elsewhere at seq {zombie.successor} (two owners)")

    async def converse(self, conn):
        while not stopping.is_set():
            burst = self.rng.randint(1, 3)
            for _ in range(burst):
                self.seq += 1
                self.texts[self.seq] = f"t{self.index}-{self.seq}-{self.rng.randrange(10**6)}"
                conn.send({"type": "event", "seq": self.seq, "target": "input", "event": "editingChanged",
                           "value": self.texts[self.seq]})
                self.pending.append(self.seq)
                self.last_sent = self.seq
                events["events sent"] += 1
            while self.pending:
                message = await self.answer(conn)
                ack = message["ack"]
                if not inv.check("acked", ack == self.pending[0],
                                 f"{self.name}: answer for seq {ack}, expected {self.pending[0]}"):
                    if ack not in self.pending:
                        continue
                    self.pending = self.pending[self.pending.index(ack):]
                self.pending.pop(0)
                if message["type"] == "patch":
                    events["events acknowledged"] += 1
                    self.last_acked = ack
                    changes = {(c["target"], c["prop"]): c.get("value") for c in message["changes"]}
                    inv.check("acked", changes.get(("output", "text")) == self.texts[ack].upper(),
                              f"{self.name}: ack {ack} carries {message['changes']}")
                elif message.get("code") == "store-unavailable":
                    events[f"store-unavailable answers ({phase.name})"] += 1
                else:
                    inv.check("acked", False, f"{self.name}: answer {message}")
            await asyncio.sleep(self.rng.uniform(0.02, 0.1))


class Loader(WSSession):
    """`repos`: taps Load more; 20 rows per applied tap, pages in order, never one twice;
    bye at 80 rows and a new session."""

    scene = "repos"

    def reset(self):
        self.ok, self.maybe = 0, 0

    def __init__(self, *args):
        super().__init__(*args)
        self.reset()
        self.pages = 0

    def check_state(self, props, fresh=False):
        self.props = props
        rows = props["repoList"]["items"]
        ids = [r["id"] for r in rows]
        pages = len(rows) // 20
        inv.check("acked", len(rows) % 20 == 0 and ids == [f"repo-{n}" for n in range(1, len(rows) + 1)],
                  f"{self.name}: rows are not whole pages in order: {ids[:3]}...{ids[-3:]} ({len(ids)})")
        inv.check("acked", self.ok <= pages <= self.ok + self.maybe,
                  f"{self.name}: {pages} pages, but {self.ok} acknowledged and {self.maybe} unanswered "
                  f"({'lost' if pages < self.ok else 'applied twice'})")
        self.ok, self.maybe, self.pages = pages, 0, pages

    def successor_state(self):
        return self.pages

    def on_push(self, message):
        """A `scene` without `ack` (sent once the store is back after store trouble, or
        after a slow read) replaces the client's state (PROTOCOL.md, "Store trouble"): it
        must hold every acknowledged tap, and the taps still unanswered may or may not
        be applied after it. (Ignored, the rows' index-based ops were applied to a stale
        copy: a tap answered store-unavailable but stored after all showed up as rows
        out of order at the next acknowledged tap.)"""
        if message.get("type") == "scene":
            self.check_state(scene_props(message))
            self.maybe = len(self.pending)
        elif message.get("type") == "patch":
            apply_patch(self.props, message)

    def zombie_base(self):
        return self.ok

    def judge_zombie(self, zombie):
        return zombie.base + len(zombie.acks) <= zombie.successor, (
            f"{self.name}: an old connection acknowledged {len(zombie.acks)} taps after {zombie.base} pages, "
            f"the new owner has {zombie.successor} (two owners)")

    async def converse(self, conn):
        while not stopping.is_set():
            if self.pages >= 4:
                conn.send({"type": "bye"})
                try:
                    while (await conn.recv(timeout=STALL)).get("type") != "bye":
                        pass
                    ended = True
                    events["repos sessions ended with bye"] += 1
                except (Closed, asyncio.TimeoutError, OSError):
                    # The bye may have ended it and only its answer been lost to a fault: a
                    # resume could rightly be answered resumed:false. Ended by DELETE (404 if
                    # the bye did it) and a new session begun.
                    events["bye unanswered"] += 1
                    ended = await delete_session(self.port, self.token) is not None
                if ended:
                    self.ended_tokens.append((self.token, self.name, phase.name))
                await conn.close()
                self.token = None
                self.reset()
                raise Closed("bye")
            burst = self.rng.randint(1, 2)
            for _ in range(burst):
                self.seq += 1
                conn.send({"type": "event", "seq": self.seq, "target": "loadMoreButton", "event": "touchUpInside"})
                self.pending.append(self.seq)
                self.maybe += 1
                events["events sent"] += 1
            while self.pending:
                message = await self.answer(conn)
                ack = message["ack"]
                inv.check("acked", ack == self.pending[0], f"{self.name}: answer for seq {ack}, expected {self.pending[0]}")
                if ack in self.pending:
                    self.pending = self.pending[self.pending.index(ack) + 1:]
                if message["type"] == "patch":
                    events["events acknowledged"] += 1
                    apply_patch(self.props, message)
                    ids = [r["id"] for r in self.props["repoList"]["items"]]
                    inv.check("acked", ids == [f"repo-{n}" for n in range(1, (self.pages + 1) * 20 + 1)],
                              f"{self.name}: a tap acknowledged after {self.pages} pages gives rows "
                              f"{ids[:2]}...{ids[-2:]} ({len(ids)})")
                    self.ok += 1
                    self.maybe -= 1
                    self.pages += 1
                elif message.get("code") == "store-unavailable":
                    events[f"store-unavailable answers ({phase.name})"] += 1
                elif message.get("code") == "disabled":
                    self.maybe -= 1
                else:
                    inv.check("acked", False, f"{self.name}: answer {message}")
            await asyncio.sleep(self.rng.uniform(0.05, 0.2))


class Board:
    """The shared board: writers, an observer pinned to every process, SSE viewers."""

    def __init__(self, cluster, writers, sse_viewers):
        self.cluster = cluster
        self.lock = asyncio.Lock()
        self.next_value = 0
        self.acked = 0.0          # the largest value acknowledged to a writer
        self.sent = 0.0           # the largest value sent
        self.writers = writers
        self.sse_viewers = sse_viewers
        self.connected = {}       # viewer name -> bool
        self.seen = {}            # observer name -> (value, viewers text)
        self.ended_tokens = []

    def value(self):
        """Ever larger, above the board's initial 0.5: an observer's values never go back."""
        self.next_value += 1
        return round(0.5 + self.next_value / 10_000_000, 7)

    async def writer(self, index):
        name, token, seq = f"board-writer#{index}", None, 0
        rng = random.Random(7000 + index)
        attempts_after_stop = 0
        while attempts_after_stop < 3:
            attempts_after_stop += stopping.is_set()
            self.connected[name] = False
            acked_before = self.acked
            try:
                conn = await ws_connect(self.cluster.proxy_port, "/ws/board" + (f"?session={token}" if token else ""))
            except ConnectionError as error:
                if not stopping.is_set():
                    inv.check("resume", False, f"{name}: {error}")
                continue
            try:
                scene = await conn.recv(timeout=STALL * 2)
                if token:
                    events["resumes"] += 1
                    resumed_ok(name, token, scene)
                token = scene["session"]
                value = slider(board_props(name, scene))
                inv.check("acked", value is not None and acked_before <= value <= max(self.sent, 0.5),
                          f"{name}: board slider {value} after {acked_before} was acknowledged")
                self.connected[name] = True
                while not stopping.is_set():
                    if phase.writers_paused:
                        await asyncio.sleep(0.05)
                        continue
                    async with self.lock:
                        seq += 1
                        v = self.value()
                        self.sent = v
                        conn.send({"type": "event", "seq": seq, "target": "sharedSlider", "event": "valueChanged", "value": v})
                        events["board events sent"] += 1
                        while True:
                            message = await conn.recv(timeout=STALL)
                            if message.get("ack") == seq:
                                break
                        if message["type"] == "patch":
                            self.acked = v
                            events["board events acknowledged"] += 1
                        elif message.get("code") == "store-unavailable":
                            events[f"store-unavailable answers ({phase.name})"] += 1
                        else:
                            inv.check("acked", False, f"{name}: answer {message}")
                    await asyncio.sleep(rng.uniform(0.01, 0.05))
                conn.send({"type": "bye"})
                await asyncio.wait_for(conn.recv(), 3)
                self.ended_tokens.append((token, name, phase.name))
                await conn.close()
                break
            except Closed as closed:
                events[f"closed {closed.code}"] += 1
            except asyncio.TimeoutError:
                events["stalled (no answer in 2 s)"] += 1
                conn.abort()
            except OSError:
                pass
            await conn.close()
        self.connected.pop(name, None)

    async def observer(self, i):
        """Pinned to process i (straight to its port, not through HAProxy)."""
        name, token = f"board-observer@{i}", None
        port = self.cluster.ports[i]
        attempts_after_stop = 0
        while attempts_after_stop < 3:
            attempts_after_stop += stopping.is_set()
            self.connected[name] = False
            try:
                conn = await ws_connect(port, "/ws/board" + (f"?session={token}" if token else ""), give_up=60)
            except ConnectionError as error:
                if not stopping.is_set():
                    inv.check("board", False, f"{name}: {error}")
                continue
            try:
                scene = await conn.recv(timeout=STALL * 2)
                if token:
                    events["resumes"] += 1
                    resumed_ok(name, token, scene)
                token = scene["session"]
                props = board_props(name, scene)
                last = slider(props)
                self.seen[name] = (last, online(props))
                self.connected[name] = True
                while not stopping.is_set():
                    try:
                        message = await conn.recv(timeout=0.5)
                    except asyncio.TimeoutError:
                        continue
                    if message["type"] == "scene":  # a slow-reader resync
                        props = board_props(name, message)
                        last = None
                    elif message["type"] == "patch":
                        apply_patch(props, message)
                        events["board patches observed"] += 1
                    value = slider(props)
                    if value != last and value is not None and last is not None:
                        inv.check("board", value > last, f"{name}: slider went back from {last} to {value}")
                    last = value
                    self.seen[name] = (value, online(props))
                conn.send({"type": "bye"})
                await asyncio.wait_for(conn.recv(), 3)
                self.ended_tokens.append((token, name, phase.name))
                await conn.close()
                break
            except Closed as closed:
                events[f"closed {closed.code}"] += 1
            except (asyncio.TimeoutError, OSError):
                pass
            self.connected[name] = False
            await conn.close()
        self.connected.pop(name, None)

    async def sse_viewer(self, index):
        name, token = f"board-sse#{index}", None
        port = self.cluster.proxy_port
        while not stopping.is_set():
            self.connected[name] = False
            stream = None
            try:
                if token is None:
                    status, _, body = await request(HOST, port, "POST", "/api/sessions", {"scene": "board"})
                    if status != 201:
                        await asyncio.sleep(0.1)
                        continue
                    token = body["session"]
                stream = await EventStream.open(HOST, port, f"/api/sessions/{token}/events")
                if stream.status == 404:
                    inv.check("resume", False, f"{name}: SSE on {token} answered 404")
                    abandoned.append((token, time.monotonic()))
                    stream.close()
                    token = None
                    continue
                if stream.status != 200:
                    stream.close()
                    await asyncio.sleep(0.1)
                    continue
                kind, scene = await stream.next(timeout=STALL * 2)
                events["resumes"] += 1
                inv.check("resume", kind == "scene" and scene["session"] == token,
                          f"{name}: SSE of {token} began with {kind} {scene.get('session')}")
                props = board_props(name, scene)
                self.connected[name] = True
                self.seen[name] = (slider(props), online(props))
                while not stopping.is_set():
                    try:
                        kind, message = await stream.next(timeout=0.5)
                    except asyncio.TimeoutError:
                        continue
                    if kind == "scene":
                        props = board_props(name, message)
                    elif kind == "patch":
                        apply_patch(props, message)
                    self.seen[name] = (slider(props), online(props))
                stream.close()
                status, _, _ = await request(HOST, port, "DELETE", f"/api/sessions/{token}")
                if status == 200:
                    self.ended_tokens.append((token, name, phase.name))
            except (HTTPFailed, asyncio.TimeoutError, OSError, KeyError, TypeError) as error:
                events[f"SSE viewers gave up ({type(error).__name__} {str(error)[:60]})"] += 1
                if stream is not None:
                    stream.close()  # given up: a stream left open is a viewer the server rightly counts
                await asyncio.sleep(0.1)
            self.connected[name] = False
        self.connected.pop(name, None)
        for _ in range(20):
            if token is None or any(t == token for t, _, _ in self.ended_tokens):
                break
            try:
                status, _, _ = await request(HOST, port, "DELETE", f"/api/sessions/{token}")
                if status in (200, 404):
                    self.ended_tokens.append((token, name, phase.name))
            except HTTPFailed:
                await asyncio.sleep(0.1)


class APIClient:
    """HTTP API on `counter`: POST events, GET the session back, an SSE stream watching it."""

    def __init__(self, index, port):
        self.index, self.port, self.name = index, port, f"api#{index}"
        self.token, self.seq = None, 0
        self.texts, self.last_acked, self.last_sent = {0: ""}, 0, 0
        self.sse_text = None
        self.ended_tokens = []

    async def new_session(self):
        while True:
            try:
                status, _, body = await request(HOST, self.port, "POST", "/api/sessions", {"scene": "counter"})
                if status == 201:
                    self.token = body["session"]
                    self.texts, self.last_acked, self.last_sent = {0: ""}, 0, 0
                    return
            except HTTPFailed:
                pass
            await asyncio.sleep(0.1)

    def check(self, scene):
        text = scene_props(scene)["textField"]["text"]
        candidates = [s for s in range(self.last_acked, self.last_sent + 1) if self.texts.get(s) == text]
        if inv.check("acked", bool(candidates),
                     f"{self.name}: GET shows {text!r}, acknowledged up to {self.texts[self.last_acked]!r}"):
            self.last_acked = max(candidates)
        label = scene_props(scene)["countLabel"]["text"]
        inv.check("acked", label == f"{len(text)}개", f"{self.name}: label {label!r} for {text!r}")

    async def run(self):
        rng = random.Random(9000 + self.index)
        await self.new_session()
        watcher = asyncio.ensure_future(self.watch())
        while not stopping.is_set():
            self.seq += 1
            text = f"a{self.index}-{self.seq}"
            self.texts[self.seq] = text
            self.last_sent = self.seq
            try:
                status, _, answer = await request(HOST, self.port, "POST", f"/api/sessions/{self.token}/events",
                                                  {"type": "event", "seq": self.seq, "target": "textField",
                                                   "event": "editingChanged", "value": text})
                events["events sent"] += 1
                if status == 200 and answer.get("type") == "patch":
                    inv.check("acked", answer.get("ack") == self.seq, f"{self.name}: answer {answer}")
                    self.last_acked = self.seq
                    events["events acknowledged"] += 1
                elif status == 200 and answer.get("code") == "store-unavailable":
                    events[f"store-unavailable answers ({phase.name})"] += 1
                elif status == 404:
                    inv.check("resume", False, f"{self.name}: POST events on {self.token}: 404 (session lost)")
                    await self.new_session()
                elif status == 200:
                    inv.check("acked", False, f"{self.name}: answer {answer}")
            except HTTPFailed:
                events["API requests without answer"] += 1
            if self.seq % 4 == 0:
                try:
                    status, _, scene = await request(HOST, self.port, "GET", f"/api/sessions/{self.token}")
                    if status == 200:
                        events["resumes"] += 1
                        inv.check("resume", scene.get("resumed") is True and scene["session"] == self.token,
                                  f"{self.name}: GET answered {scene.get('session')} resumed={scene.get('resumed')}")
                        self.check(scene)
                    elif status == 404:
                        inv.check("resume", False, f"{self.name}: GET {self.token}: 404 (session lost)")
                        await self.new_session()
                except HTTPFailed:
                    pass
            await asyncio.sleep(rng.uniform(0.03, 0.1))
        # Final state; the SSE stream must follow it within 3 s.
        for _ in range(50):
            try:
                status, _, scene = await request(HOST, self.port, "GET", f"/api/sessions/{self.token}")
                if status == 200:
                    self.check(scene)
                    text = scene_props(scene)["textField"]["text"]
                    for _ in range(30):
                        if self.sse_text == text:
                            break
                        await asyncio.sleep(0.1)
                    inv.check("sse", self.sse_text == text, f"{self.name}: SSE shows {self.sse_text!r}, session {text!r}")
                    break
            except HTTPFailed:
                pass
            await asyncio.sleep(0.1)
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        if await delete_session(self.port, self.token) == 200:
            self.ended_tokens.append((self.token, self.name, phase.name))

    async def watch(self):
        while True:
            token = self.token
            stream = None
            try:
                stream = await EventStream.open(HOST, self.port, f"/api/sessions/{token}/events")
                if stream.status != 200:
                    stream.close()
                    await asyncio.sleep(0.1)
                    continue
                while token == self.token:
                    try:
                        kind, message = await stream.next(timeout=0.5)
                    except asyncio.TimeoutError:
                        continue
                    if kind == "scene":
                        self.sse_text = scene_props(message)["textField"]["text"]
                    elif kind == "patch":
                        for change in message.get("changes", []):
                            if change["target"] == "textField" and change["prop"] == "text":
                                self.sse_text = change["value"]
                stream.close()
            except (HTTPFailed, OSError, KeyError):
                if stream is not None:
                    stream.close()  # given up: not left open (the server would count it)
                await asyncio.sleep(0.1)
            except asyncio.CancelledError:
                if stream is not None:
                    stream.close()  # the run is over: the stream goes with it
                raise


# ---------------------------------------------------------------------------------- faults

async def fault_kill(cluster, rng, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        i = rng.randrange(cluster.n)
        print(f"    SIGKILL bindery {i}", flush=True)
        cluster.kill(i)
        events["SIGKILL"] += 1
        phase.last_disruption = phase.last_fault = time.monotonic()
        await asyncio.sleep(1.0)
        cluster.start(i, wait=False)
        await asyncio.to_thread(cluster.wait_up, i)
        phase.last_fault = time.monotonic()
        await asyncio.sleep(max(0.0, min(4.0, end - time.monotonic())))


async def fault_rolling(cluster, rng, seconds):
    for i in range(cluster.n):
        print(f"    SIGTERM bindery {i} (drain), restart", flush=True)
        status = await asyncio.to_thread(cluster.term, i)
        events["SIGTERM"] += 1
        phase.last_disruption = phase.last_fault = time.monotonic()
        if status != 0:
            print(f"    bindery {i} exited with {status} on SIGTERM:\n{cluster.log_tail(i, 1500)}")
            events["SIGTERM exits not 0"] += 1
        cluster.start(i, wait=False)
        await asyncio.to_thread(cluster.wait_up, i)
        phase.last_fault = time.monotonic()
        await asyncio.sleep(0.5)


async def fault_pause(cluster, rng, seconds):
    held = await sessions_held(cluster)  # the busiest process, so that clients are caught in the pause
    i = max(range(cluster.n), key=lambda k: held[k] or 0)
    print(f"    SIGSTOP bindery {i} (holding {held[i]} sessions) for 3 s", flush=True)
    cluster.signal(i, signal.SIGSTOP)
    events["SIGSTOP"] += 1
    await asyncio.sleep(3.0)
    cluster.signal(i, signal.SIGCONT)
    phase.last_disruption = phase.last_fault = time.monotonic()
    await asyncio.sleep(max(0.0, seconds - 3.0))


async def fault_proxy(cluster, rng, seconds):
    print("    HAProxy restart", flush=True)
    await asyncio.to_thread(cluster.stop_proxy)
    events["HAProxy restarts"] += 1
    await asyncio.sleep(0.5)
    await asyncio.to_thread(cluster.start_proxy)
    phase.last_fault = time.monotonic()
    await asyncio.sleep(max(0.0, seconds - 0.5))


async def fault_redis(cluster, rng, seconds):
    print("    Redis restart (SIGTERM, 1.5 s down, append-only file reloaded)", flush=True)
    await asyncio.to_thread(cluster.stop_redis)
    events["Redis restarts"] += 1
    phase.last_disruption = phase.last_fault = time.monotonic()
    await asyncio.sleep(1.5)
    await asyncio.to_thread(cluster.start_redis)
    phase.last_disruption = phase.last_fault = time.monotonic()
    await asyncio.sleep(max(0.0, seconds - 1.5))


async def fault_mixed(cluster, rng, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        fault = rng.choice([fault_kill, fault_kill, fault_pause, fault_proxy, fault_redis])
        await fault(cluster, rng, 0.5)
        await asyncio.sleep(rng.uniform(0.5, 1.5))


# --------------------------------------------------------------------------------- checks

async def settle_board(cluster, board, clients):
    """Phase end: writers pause; every board viewer connected; observers on every process
    agree on the last acknowledged value; "N online" right within 2 s."""
    phase.writers_paused = True
    async with board.lock:
        pass
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(board.connected.values()):
        await asyncio.sleep(0.05)
    connected_at = time.monotonic()
    if not all(board.connected.values()):
        inv.check("board", False, f"viewers not reconnected after 30 s: {board.connected}")
    expected_viewers = len(board.connected)
    # Every observer reaches the last acknowledged value (or the last sent one).
    end = time.monotonic() + 5
    while time.monotonic() < end:
        values = {name: seen[0] for name, seen in board.seen.items()}
        if all(v in (board.acked, board.sent) for v in values.values()) and len(set(values.values())) == 1:
            break
        await asyncio.sleep(0.05)
    values = {name: seen[0] for name, seen in board.seen.items()}
    for name, value in values.items():
        inv.check("board", value in (board.acked, board.sent),
                  f"{name}: slider {value}, last acknowledged {board.acked} (sent {board.sent})")
    inv.check("board", len(set(values.values())) == 1, f"processes disagree: {values}")
    # "N online" within 2 s of the reference time.
    reference = max(connected_at, phase.last_disruption + LEASE)
    want = f"{expected_viewers} online"
    end = reference + 2.0
    while True:
        texts = {name: seen[1] for name, seen in board.seen.items()}
        if all(t == want for t in texts.values()):
            events["viewer counts right after settling (worst, s)"] = max(
                events["viewer counts right after settling (worst, s)"], round(time.monotonic() - connected_at, 2))
            inv.check("viewers", True)
            break
        if time.monotonic() > end:
            inv.check("viewers", False, f"want {want!r} within 2 s, observers show {texts}")
            break
        await asyncio.sleep(0.05)
    phase.writers_paused = False
    held = await sessions_held(cluster)
    print(f"    settled: board viewers {expected_viewers}, sessions held per process {held} for "
          f"{len(clients) + len(board.connected)} client sessions", flush=True)


async def sessions_held(cluster):
    held = []
    for port in cluster.ports:
        try:
            _, _, text = await request(HOST, port, "GET", "/metrics", timeout=2)
            held.append(int(float(text.split("\nbindery_sessions ")[1].split()[0])))
        except (HTTPFailed, IndexError, ValueError, AttributeError):
            held.append(None)
    return held


def session_records(cluster):
    """The sessions Redis knows (`bindery:s:<token>` hashes): one per token, whoever owns it."""
    keys = cluster.redis_cli("--scan", "--pattern", "bindery:s:*").split("\n")
    return sum(1 for k in keys if k and not k.endswith(":log"))


OWNERS_LUA = ("local r = {} for _, k in ipairs(redis.call('KEYS', 'bindery:s:*')) do "
              "if not string.find(k, ':log$') then r[#r + 1] = redis.call('HGET', k, 'owner') or '' end end return r")


def records_owned(cluster):
    """Per process, how many `bindery:s:<token>` records name it as owner (`host-pid:run`)."""
    owners = [o for o in cluster.redis_cli("EVAL", OWNERS_LUA, "0").split("\n") if o]
    pids = [cluster.procs[i].pid if cluster.alive(i) else None for i in range(cluster.n)]
    return [sum(1 for o in owners if pid and o.split(":")[0].endswith(f"-{pid}")) for pid in pids]


async def settle_owners(cluster, clients):
    """No token held by two processes: within 12 s (a stale owner learns of a takeover at
    its next refresh) the processes together hold no more sessions than there are tokens:
    the clients' sessions and those given up, or, with a store, the records in Redis — which
    also count sessions made by requests whose answer the faults cut off (a client that never
    got its token cannot end them; they expire with the grace period)."""
    start = time.monotonic()
    while True:
        given_up = sum(1 for _, t in abandoned if time.monotonic() - t < cluster.grace)
        records = session_records(cluster) if cluster.store else 0
        live = max(clients + given_up, records)
        held = await sessions_held(cluster)
        owned = records_owned(cluster) if cluster.store else held
        total = sum(h or 0 for h in held)
        unowned = [max(0, (h or 0) - o) for h, o in zip(held, owned)]
        if (total <= live and not any(unowned)) or time.monotonic() - start > 12:
            break
        await asyncio.sleep(0.25)
    print(f"    sessions held per process {held} (sum {total}) for {clients} client sessions + {given_up} given up "
          f"within the grace period, {records} session records in Redis, after {time.monotonic() - start:.1f} s",
          flush=True)
    inv.check("owner", total <= live, f"processes hold {total} sessions for {clients} client sessions, {given_up} "
              f"given up and {records} records in Redis, 12 s after the faults: {held} "
              f"(tokens held twice, or kept after a takeover)")
    # Per process: every session it holds is one whose record names it as owner (a copy
    # fenced by a takeover elsewhere, or one Redis has no record of, is not).
    print(f"    records owned per process {owned}", flush=True)
    for i, extra in enumerate(unowned):
        inv.check("owner", extra == 0, f"bindery {i} holds {held[i]} sessions but owns {owned[i]} records in Redis "
                                       f"12 s after the faults (stale copies, or sessions without a record)")


async def wrong_scene_resume(cluster, typists):
    """`/ws/board?session=<an echo session's token>` is refused as an unknown token would be
    (a new board session, resumed false) and leaves the echo session alone (same epoch)."""
    typist = next((t for t in typists if t.token), None)
    if typist is None or not cluster.store:
        return
    token = typist.token
    before = cluster.redis_cli("HGET", f"bindery:s:{token}", "epoch")
    # Through ws_connect: right after the faults a shared scene's upgrade may be answered 503
    # store-unavailable (its mirror is catching up; the client tries again), as any client's.
    conn = await ws_connect(cluster.proxy_port, f"/ws/board?session={token}", give_up=10)
    scene = await conn.recv(timeout=5)
    conn.send({"type": "bye"})  # the new board session ends at once (the idle check follows)
    try:
        while (await conn.recv(timeout=STALL)).get("type") != "bye":
            pass
    except (Closed, asyncio.TimeoutError):
        pass
    await conn.close()
    after = cluster.redis_cli("HGET", f"bindery:s:{token}", "epoch")
    ok = scene.get("resumed") is False and scene.get("session") != token and before == after
    print(f"    /ws/board with {typist.name}'s echo token: resumed {scene.get('resumed')}, "
          f"{'a new token' if scene.get('session') != token else 'the same token'}; echo epoch {before} -> {after}",
          flush=True)
    inv.check("resume", ok, f"{typist.name}: a board resume with its echo token answered resumed={scene.get('resumed')} "
                            f"session={scene.get('session')}, echo epoch {before} -> {after} (taken over by another scene)")


async def final_checks(cluster, ended):
    print("  after the run:", flush=True)
    # Redis: no keys of the sessions that ended.
    if cluster.store:
        await asyncio.sleep(1.0)
        left = []
        for _ in range(50):
            keys = set(filter(None, cluster.redis_cli("--scan", "--pattern", "bindery:s:*").split("\n")))
            left = [t for t, _, _ in ended if f"bindery:s:{t}" in keys or f"bindery:s:{t}:log" in keys]
            if not left:
                break
            await asyncio.sleep(0.1)
        # A deletion the store could not take (Redis was down) is retried by its process; if
        # that process was SIGKILLed meanwhile, the keys are left to their TTL (grace + 10 s):
        # no process can delete them. Those are listed, not counted as violations.
        pids = [cluster.procs[i].pid for i in range(cluster.n) if cluster.alive(i)]
        orphaned = []
        for token in left:
            owner = cluster.redis_cli("HGET", f"bindery:s:{token}", "owner").split(":")[0]
            ttl = int(cluster.redis_cli("PTTL", f"bindery:s:{token}") or -1)
            if owner and not any(owner.endswith(f"-{pid}") for pid in pids) and 0 < ttl <= (cluster.grace + 10) * 1000:
                orphaned.append(token)
        if orphaned:
            print(f"    Redis: {len(orphaned)} ended sessions' keys left to their TTL: their process died "
                  f"before it could delete them ({orphaned[:3]})")
        left = [t for t in left if t not in orphaned]
        for token, who, when in ended:
            inv.check("cleanup", token not in left,
                      f"{who}: Redis still holds bindery:s:{token}* after its bye/DELETE in phase {when!r} "
                      f"(expires in {cluster.redis_cli('pttl', f'bindery:s:{token}')} ms)")
        others = [k for k in keys if not any(t in k for t, _, _ in ended)]
        print(f"    Redis: {len(keys)} bindery:s:* keys left; {len(others)} of sessions not ended by a client"
              + (f" (e.g. {others[:3]})" if others else ""))
        print(f"    Redis: {cluster.redis_cli('info', 'memory').split('used_memory_human:')[1].split()[0]} used; "
              f"{cluster.redis_cli('dbsize')} keys")
    else:
        inv.check("cleanup", False, "no --store: nothing is kept in Redis (bindery has no --store)")
    # Processes back to idle (HAProxy stopped first: it keeps idle connections to them).
    await asyncio.to_thread(cluster.stop_proxy)
    # A session no client knows of (made by a request a fault cut off after the process had
    # answered it, so its token went out but never arrived) rightly lives its grace period
    # after the last fault; every other one ends at once. So: at least 15 s (an owner learns
    # of a takeover at its next refresh), and until the grace period after the last fault.
    started = time.monotonic()
    deadline = max(started + 15, phase.last_fault + cluster.grace + 3)
    for i in range(cluster.n):
        if not cluster.alive(i):
            inv.check("idle", False, f"bindery {i} is not running: {cluster.log_tail(i, 800)}")
            continue
        pid = cluster.procs[i].pid
        base_fds, base_rss = cluster.baseline[i]
        sessions = None
        while True:
            try:
                status, _, text = await request(HOST, cluster.ports[i], "GET", "/metrics")
                values = {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines()
                          if line and not line.startswith("#") and "{" not in line}
                sessions = values.get("bindery_sessions")
                sockets = values.get("bindery_websocket_connections")
            except (HTTPFailed, ValueError, IndexError, AttributeError):
                sessions = sockets = None
            if (sessions == 0 and sockets == 0 and fds(pid) <= base_fds + 2) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        now_fds, now_rss = fds(pid), rss_kib(pid)
        print(f"    bindery {i}: sessions {sessions}, WebSockets {sockets}, fds {base_fds} -> {now_fds}, "
              f"RSS {base_rss // 1024} -> {now_rss // 1024} MiB (started {cluster.starts[i]} times), "
              f"{time.monotonic() - started:.1f} s after the clients, {time.monotonic() - phase.last_fault:.1f} s "
              f"after the last fault", flush=True)
        if sessions:
            print("      " + "\n      ".join(held_sessions(cluster, i, ended)))
        elif time.monotonic() - started > 2:  # what it waited for (with --log-level info)
            waited = [line for line in cluster.log_tail(i, 200_000).splitlines()[-400:] if "ended (" in line]
            print("      " + "\n      ".join(line[:160] for line in waited[-4:]))
        inv.check("idle", sessions == 0, f"bindery {i} still holds {sessions} sessions "
                                         f"{time.monotonic() - phase.last_fault:.0f} s after the last fault")
        inv.check("idle", sockets == 0, f"bindery {i} still holds {sockets} WebSockets")
        inv.check("idle", now_fds <= base_fds + 2, f"bindery {i}: fds {base_fds} idle, {now_fds} after")
        inv.check("idle", now_rss <= base_rss * 2 + 32 * 1024,
                  f"bindery {i}: RSS {base_rss // 1024} MiB idle, {now_rss // 1024} MiB after")


def held_sessions(cluster, i, ended):
    """What Redis says bindery i owns (token, scene, TTL, whether a client ended it), and
    its log lines about them (with --log-level info): to track a session kept too long down."""
    pid = cluster.procs[i].pid
    names = {t: f"{who} (ended in {when!r})" for t, who, when in ended}
    lines = []
    for key in filter(None, cluster.redis_cli("--scan", "--pattern", "bindery:s:*").split("\n")):
        if key.endswith(":log"):
            continue
        owner, scene = cluster.redis_cli("HMGET", key, "owner", "scene").split("\n")[:2]
        if not owner.split(":")[0].endswith(f"-{pid}"):
            continue
        token = key.split(":", 2)[2]
        lines.append(f"record {token} ({scene}) owned here, PTTL {cluster.redis_cli('PTTL', key)} ms, "
                     f"{names.get(token, 'not ended by a client')}")
        lines += [f"  {line[:200]}" for line in cluster.log_tail(i, 10 ** 7).splitlines() if token[:6] in line][-12:]
    return lines or ["(no record in Redis names it as owner)"]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bindery")
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("CLUSTER_SECONDS", 8)))
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--typists", type=int, default=6)
    parser.add_argument("--loaders", type=int, default=4)
    parser.add_argument("--api", type=int, default=3)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--keep", action="store_true", help="keep the cluster's folder (logs, AOF)")
    parser.add_argument("--log-level", default="error", help="bindery's --log-level (info logs every session)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cluster = Cluster(args.bindery, n=args.processes, log_level=args.log_level)
    if not cluster.supports_store:
        print("WARNING: this bindery has no --store: every process keeps its own sessions; expect violations")
    started = time.monotonic()
    try:
        cluster.start_all()
    except BaseException:
        cluster.stop_all(keep_dir=True)
        raise
    print(f"cluster: redis-server {cluster.sock}, {cluster.n} bindery on {cluster.ports}, haproxy :{cluster.proxy_port}"
          f" (seed {args.seed}, {args.seconds:.0f} s per phase, folder {cluster.dir})", flush=True)
    board = Board(cluster, writers=2, sse_viewers=2)
    typists = [Typist(i, cluster.proxy_port, random.Random(rng.random())) for i in range(args.typists)]
    loaders = [Loader(i, cluster.proxy_port, random.Random(rng.random())) for i in range(args.loaders)]
    api = [APIClient(i, cluster.proxy_port) for i in range(args.api)]
    tasks = [asyncio.ensure_future(c.run(None)) for c in typists + loaders]
    tasks += [asyncio.ensure_future(c.run()) for c in api]
    tasks += [asyncio.ensure_future(board.observer(i)) for i in range(cluster.n)]
    tasks += [asyncio.ensure_future(board.writer(i)) for i in range(board.writers)]
    tasks += [asyncio.ensure_future(board.sse_viewer(i)) for i in range(board.sse_viewers)]
    phases = [("no faults", None), ("SIGKILL + restart", fault_kill), ("rolling SIGTERM deploy", fault_rolling),
              ("SIGSTOP 3 s", fault_pause), ("HAProxy restart", fault_proxy), ("Redis restart", fault_redis),
              ("mixed", fault_mixed)]
    failed = False
    try:
        for name, fault in phases:
            phase.name = name
            print(f"  phase: {name}", flush=True)
            crashed = [t for t in tasks if t.done()]
            if crashed:
                crashed[0].result()
            if fault:
                await fault(cluster, rng, args.seconds)
            else:
                await asyncio.sleep(min(args.seconds, 3))
            await settle_board(cluster, board, typists + loaders)
        phase.name = "end"
        await settle_owners(cluster, len(typists) + len(loaders) + len(api) + len(board.connected))
        await wrong_scene_resume(cluster, typists)
        stopping.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        ended = [t for c in typists + loaders + api + [board] for t in c.ended_tokens]
        await final_checks(cluster, ended)
    except (Exception, asyncio.TimeoutError) as error:  # noqa: BLE001 - report, then fail
        import traceback
        traceback.print_exc()
        print(f"FAILED: the harness stopped: {type(error).__name__}: {error}")
        failed = True
    finally:
        stopping.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # The folder (logs, AOF) is kept when anything failed, to track it down.
        kept = args.keep or failed or sum(inv.violations.values()) > 0
        await asyncio.to_thread(cluster.stop_all, kept)
    print(f"cluster test: {time.monotonic() - started:.0f} s, {cluster.n} processes, "
          f"{len(typists)} typists, {len(loaders)} loaders, {len(api)} API clients, board with "
          f"{cluster.n} observers + {board.writers} writers + {board.sse_viewers} SSE viewers")
    print("  what happened: " + ", ".join(f"{k} {v}" for k, v in sorted(events.items())))
    print("  invariants:")
    violations = inv.report()
    total = sum(inv.checks.values())
    if failed or violations:
        print(f"FAILED: {violations} violations (cluster folder kept: {cluster.dir})")
        print(f"test-cluster: FAILED, {violations} of {total} invariant checks violated"
              + (" (the harness stopped)" if failed else ""))
        sys.exit(1)
    print("OK")
    print(f"test-cluster: OK, {total} invariant checks, 0 violated, {time.monotonic() - started:.0f} s")


asyncio.run(main())
