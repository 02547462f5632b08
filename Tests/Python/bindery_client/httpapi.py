"""Plain HTTP/1.1 for the session API (POST /api/sessions, GET /api/sessions/<id>, POST
.../events, DELETE) and a Server-Sent Events reader (GET .../events): one connection per
request (`Connection: close`), chunked bodies decoded, so they work the same straight to
a bindery process and through HAProxy."""
import asyncio
import json
import socket


class HTTPFailed(Exception):
    """No HTTP answer: refused, reset or timed out (the request may or may not have run)."""


def _split_head(head):
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


def _dechunk(body):
    out, rest = b"", body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out += rest[:size]
        rest = rest[size + 2:]
    return out


def _request_bytes(host, port, method, path, body):
    data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
    return (f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data


def _answer(raw):
    head, sep, payload = raw.partition(b"\r\n\r\n")
    if not sep:
        raise HTTPFailed(f"no answer ({len(raw)} bytes)")
    status, headers = _split_head(head)
    if headers.get("transfer-encoding", "").lower() == "chunked":
        payload = _dechunk(payload)
    text = payload.decode(errors="replace")
    try:
        return status, headers, json.loads(text) if text else None
    except ValueError:
        return status, headers, text


async def request(host, port, method, path, body=None, timeout=5.0):
    """(status, headers, JSON body or text); raises HTTPFailed when no answer came."""
    writer = None
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        writer.write(_request_bytes(host, port, method, path, body))
        raw = await asyncio.wait_for(reader.read(-1), timeout)
        writer.close()
    except (OSError, asyncio.TimeoutError) as error:
        if writer is not None:
            writer.transport.abort()
        raise HTTPFailed(repr(error)) from error
    return _answer(raw)


def request_sync(host, port, method, path, body=None, timeout=5.0):
    """`request` on a blocking socket, for scripts without an event loop."""
    with socket.create_connection((host, port), timeout) as s:
        s.sendall(_request_bytes(host, port, method, path, body))
        raw = b""
        while chunk := s.recv(65536):
            raw += chunk
    return _answer(raw)


async def http_get(host, port, path, timeout=5.0):
    """A bare GET over a fresh connection; returns (status, body text). Errors are the
    socket's own (OSError, asyncio.TimeoutError), not HTTPFailed."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
    data = await asyncio.wait_for(reader.read(-1), timeout)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body.decode()


def parse_metrics(text):
    """/metrics text as a dict of the unlabelled samples."""
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#") and "{" not in line:
            name, value = line.rsplit(" ", 1)
            values[name] = int(float(value))
    return values


async def metrics(host, port):
    """/metrics as a dict of the unlabelled samples."""
    _, body = await http_get(host, port, "/metrics")
    return parse_metrics(body)


class EventStream:
    """`GET /api/sessions/<id>/events`: yields (event, data) pairs."""

    def __init__(self, reader, writer, status, chunked):
        self.reader, self.writer, self.status, self.chunked = reader, writer, status, chunked
        self.buffer = b""
        self.raw = b""  # chunked: bytes read, not decoded yet

    @classmethod
    async def open(cls, host, port, path, timeout=5.0):
        writer = None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
            if writer is not None:
                writer.transport.abort()  # given up: a stream answered late would count a viewer nobody is
            raise HTTPFailed(repr(error)) from error
        status, headers = _split_head(head[:-4])
        return cls(reader, writer, status, headers.get("transfer-encoding", "").lower() == "chunked")

    async def _more(self, timeout):
        """Reads what came within `timeout`: asyncio.TimeoutError when nothing did (the
        stream is still good: a quiet scene sends nothing), HTTPFailed when it ended.

        One plain read per call, the chunked framing decoded from what was read so far:
        a timeout cancels only that read, so no half-read chunk is lost. (In Python 3.11
        asyncio.TimeoutError is an OSError: it is let through first, or a quiet stream
        would count as a broken one and its viewer reconnect every half second.)"""
        try:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
        except asyncio.TimeoutError:
            raise
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
            raise HTTPFailed(repr(error)) from error
        if not data:
            raise HTTPFailed("stream ended")
        if not self.chunked:
            self.buffer += data
            return
        self.raw += data
        while True:
            size_line, sep, rest = self.raw.partition(b"\r\n")
            if not sep:
                return
            try:
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
            except ValueError as error:
                raise HTTPFailed(f"bad chunk size {size_line[:20]!r}") from error
            if size == 0:
                raise HTTPFailed("stream ended")
            if len(rest) < size + 2:
                return
            self.buffer += rest[:size]
            self.raw = rest[size + 2:]

    async def next(self, timeout=30.0):
        """The next event; asyncio.TimeoutError when none came in `timeout`, HTTPFailed at the end."""
        while True:
            self.buffer = self.buffer.replace(b"\r\n", b"\n")
            block, sep, rest = self.buffer.partition(b"\n\n")
            if sep:
                self.buffer = rest
                event, data = "message", []
                for line in block.decode(errors="replace").split("\n"):
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].lstrip())
                if data:
                    return event, json.loads("\n".join(data))
                continue  # a comment (keep-alive)
            await self._more(timeout)

    def close(self):
        self.writer.transport.abort()
