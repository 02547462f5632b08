"""A minimal asyncio WebSocket client for the reliability scripts: raw sockets, so a
script can connect and vanish mid-handshake, never read, or drop the TCP connection
without a close frame — things a polite client library will not do. Loopback only.
"""
import asyncio
import base64
import json
import os
import re
import struct
import subprocess


def launch(binary, *arguments, host="127.0.0.1"):
    """Starts `bindery` on a free port with `arguments`; returns (process, port)."""
    process = subprocess.Popen([os.path.abspath(binary), "--host", host, "--port", "0", *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd="/")
    line = process.stdout.readline()
    match = re.search(r"listening on http://[^ \"]+:(\d+)", line)
    if not match:
        process.kill()
        raise SystemExit(f"FAILED: bindery did not start: {line!r}")
    return process, int(match.group(1))


def stop(process):
    """Stops `bindery` with SIGTERM, a graceful stop (exit 0); anything else (a crash, a
    sanitizer report when the binary is instrumented) fails the run."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.returncode != 0:
        print(f"FAILED: bindery exited with {process.returncode}:\n{process.stdout.read()[-4000:]}")
        raise SystemExit(1)


class Closed(Exception):
    """The server closed the connection (code, if it sent a close frame)."""

    def __init__(self, code=None):
        super().__init__(f"closed ({code})")
        self.code = code


def frame(opcode, payload):
    """One masked client frame."""
    key = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n <= 0xFFFF:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


class Client:
    """One WebSocket to a Bindery scene."""

    def __init__(self, reader, writer, status):
        self.reader, self.writer, self.status = reader, writer, status

    @classmethod
    async def connect(cls, host, port, path, timeout=5.0):
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        except BaseException:
            # Given up: close the socket, as a browser does. (Left open, a server that
            # answers late, e.g. woken from SIGSTOP, holds a WebSocket nobody reads.)
            writer.transport.abort()
            raise
        return cls(reader, writer, int(head.split(b" ", 2)[1]))

    def send(self, message):
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        self.writer.write(frame(0x1, text.encode()))

    def send_close(self, code=1000):
        self.writer.write(frame(0x8, struct.pack("!H", code)))

    async def recv(self, timeout=5.0):
        """The next text message as JSON; answers pings; raises Closed on a close frame or EOF."""
        while True:
            try:
                b0, b1 = await asyncio.wait_for(self.reader.readexactly(2), timeout)
                n = b1 & 0x7F
                if n == 126:
                    (n,) = struct.unpack("!H", await self.reader.readexactly(2))
                elif n == 127:
                    (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
                payload = await asyncio.wait_for(self.reader.readexactly(n), timeout)
            except (asyncio.IncompleteReadError, ConnectionError) as error:
                raise Closed() from error
            opcode = b0 & 0x0F
            if opcode == 0x8:
                raise Closed(struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None)
            if opcode == 0x9:
                self.writer.write(frame(0xA, payload))
                continue
            if opcode == 0x1:
                return json.loads(payload)

    def abort(self):
        """Drops the TCP connection without a close frame."""
        transport = self.writer.transport
        transport.abort()

    async def close(self):
        self.writer.close()
        try:
            await asyncio.wait_for(self.writer.wait_closed(), 2)
        except (asyncio.TimeoutError, ConnectionError):
            pass


def server_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def server_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def http_get(host, port, path, timeout=5.0):
    """GET over a fresh connection; returns (status, body)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
    data = await asyncio.wait_for(reader.read(-1), timeout)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body.decode()


async def metrics(host, port):
    """/metrics as a dict of the unlabelled samples."""
    _, body = await http_get(host, port, "/metrics")
    values = {}
    for line in body.splitlines():
        if line and not line.startswith("#") and "{" not in line:
            name, value = line.rsplit(" ", 1)
            values[name] = int(float(value))
    return values
