"""A raw asyncio WebSocket client for Bindery's /ws/<scene>: raw sockets, so a test can
connect and vanish mid-handshake, never read, write half a frame or drop the TCP
connection without a close frame — things a polite client library will not do."""
import asyncio
import base64
import json
import os
import struct

from .model import Model

ZERO_KEY = b"\0\0\0\0"
_NO_VALUE = object()


class Closed(Exception):
    """The server closed the connection (code and reason, if it sent a close frame)."""

    def __init__(self, code=None, reason=""):
        super().__init__(f"closed ({code})")
        self.code, self.reason = code, reason


def frame(opcode, payload, key=None):
    """One masked client frame; `key` None: a random mask (ZERO_KEY skips the XOR)."""
    key = os.urandom(4) if key is None else key
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n <= 0xFFFF:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    if key != ZERO_KEY:
        payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return head + key + payload


class Client:
    """One WebSocket to a Bindery scene.

    `status` and `headers` are the upgrade's answer. `seq` numbers the events sent with
    `event()`; `answer()` waits for the one acknowledging an event. After `scene()`,
    `model` is the client's copy of the scene, every patch received applied to it."""

    def __init__(self, reader, writer, status, headers, key=None):
        self.reader, self.writer, self.status, self.headers = reader, writer, status, headers
        self.key = key
        self.buffer, self.offset = bytearray(), 0
        self.seq = 0
        self.token = None
        self.model = None

    @classmethod
    async def connect(cls, host, port, path, timeout=5.0, headers=None, limit=2 ** 16, key=None):
        """`headers`: extra request headers ({"Origin": ...}); `limit`: the StreamReader's
        buffer (a client that never reads holds about twice that before TCP pushes back);
        `key`: the frames' mask (None: random per frame)."""
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=limit), timeout)
        nonce = base64.b64encode(os.urandom(16)).decode()
        extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {nonce}\r\nSec-WebSocket-Version: 13\r\n"
                      f"{extra}\r\n").encode())
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        except BaseException:
            # Given up: close the socket, as a browser does. (Left open, a server that
            # answers late, e.g. woken from SIGSTOP, holds a WebSocket nobody reads.)
            writer.transport.abort()
            raise
        lines = head.decode("latin-1").split("\r\n")
        fields = dict(line.partition(":")[::2] for line in lines[1:] if line)
        return cls(reader, writer, int(lines[0].split(" ", 2)[1]),
                   {name.strip().lower(): value.strip() for name, value in fields.items()}, key)

    @classmethod
    async def open(cls, host, port, scene, token=None, **options):
        """/ws/<scene>, resuming `token` when given."""
        return await cls.connect(host, port, f"/ws/{scene}" + (f"?session={token}" if token else ""), **options)

    # -- sending --------------------------------------------------------------------------

    def send(self, message):
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        self.writer.write(frame(0x1, text.encode(), self.key))

    def send_binary(self, payload):
        self.writer.write(frame(0x2, payload, self.key))

    def send_close(self, code=1000):
        self.writer.write(frame(0x8, struct.pack("!H", code), self.key))

    def event(self, target, name, value=_NO_VALUE):
        """Sends an event with the next `seq`; returns that seq."""
        self.seq += 1
        message = {"type": "event", "seq": self.seq, "target": target, "event": name}
        if value is not _NO_VALUE:
            message["value"] = value
        self.send(message)
        return self.seq

    # -- receiving ------------------------------------------------------------------------

    def _frame(self):
        """(opcode, payload) of the next whole frame in the buffer, or None. Frames are
        read past by an offset: a bulk read may hold thousands."""
        buf, i = self.buffer, self.offset
        if len(buf) - i < 2:
            return None
        n, at = buf[i + 1] & 0x7F, i + 2
        if n == 126:
            if len(buf) - i < 4:
                return None
            (n,), at = struct.unpack_from("!H", buf, i + 2), i + 4
        elif n == 127:
            if len(buf) - i < 10:
                return None
            (n,), at = struct.unpack_from("!Q", buf, i + 2), i + 10
        if len(buf) < at + n:
            return None
        self.offset = at + n
        return buf[i] & 0x0F, bytes(buf[at:at + n])

    async def recv_raw(self, timeout=5.0):
        """The next text message's bytes; answers pings; raises Closed on a close frame or
        EOF, asyncio.TimeoutError when nothing came for `timeout` (None: no limit; the
        stream stays good)."""
        while True:
            got = self._frame()
            if got is None:
                del self.buffer[:self.offset]
                self.offset = 0
                try:
                    data = await asyncio.wait_for(self.reader.read(1 << 20), timeout)
                except ConnectionError as error:
                    raise Closed() from error
                if not data:
                    raise Closed()
                self.buffer += data
                continue
            opcode, payload = got
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise Closed(code, payload[2:].decode(errors="replace"))
            if opcode == 0x9:
                self.writer.write(frame(0xA, payload, self.key))
            elif opcode == 0x1:
                return payload

    async def payloads(self):
        """Yields every text message's bytes, without a timeout, until the connection ends."""
        try:
            while True:
                yield await self.recv_raw(timeout=None)
        except Closed:
            return

    async def recv(self, timeout=5.0):
        """The next text message as JSON (see recv_raw)."""
        return json.loads(await self.recv_raw(timeout))

    async def scene(self, timeout=5.0):
        """The first message, which must be a `scene`: sets `token` and `model`."""
        scene = await self.recv(timeout)
        if scene.get("type") != "scene":
            raise AssertionError(f"first message {scene}")
        self.token, self.model = scene["session"], Model(scene)
        return scene

    async def answer(self, seq=None, timeout=5.0):
        """The message acknowledging `seq` (default: the last event sent). Patches without
        an ack on the way, and a patch answer, are applied to `model` when there is one."""
        seq = self.seq if seq is None else seq
        while True:
            message = await self.recv(timeout)
            if self.model is not None and message.get("type") == "patch":
                self.model.apply(message)
            if message.get("ack") == seq:
                return message

    # -- ending ---------------------------------------------------------------------------

    def abort(self):
        """Drops the TCP connection without a close frame."""
        self.writer.transport.abort()

    async def close(self):
        self.writer.close()
        try:
            await asyncio.wait_for(self.writer.wait_closed(), 2)
        except (asyncio.TimeoutError, ConnectionError):
            pass
