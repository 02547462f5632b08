#!/usr/bin/env python3
"""Slow readers beside a measured client, against a running bindery (started by bench.sh).

1. Unloaded: wsload, 1 connection, depth 1, on the echo scene.
2. Loaded: the same again; when its measured window opens, K slow readers connect to the
   echo scene and send events as fast as their sockets accept, never reading a byte.
   The server's VmRSS is sampled every 0.5 s over the window.

A reader that never reads makes the server's output to it back up; past the high-water
mark the server stops reading that socket, so the reader's sends stall in TCP: expected.
What is checked is that the other client does not notice (p99 loaded / unloaded) and that
the server's memory plateaus (max RSS of the window's second half against its first half).

Writes one JSON object (--json) and prints a summary. Python 3 standard library only.
"""
import argparse
import base64
import json
import os
import re
import selectors
import socket
import struct
import subprocess
import threading
import time

# The event wsload sends (value "hello <seq> " padded with letters to 32 bytes).
EVENT = '{"type":"event","target":"input","event":"editingChanged","value":"%s"}'


def value(seq, length=32):
    head = f"hello {seq} "
    return head + "".join(chr(97 + (seq + i * 7) % 26) for i in range(max(0, length - len(head))))


def frame(text):
    """One masked text frame (client frames must be masked)."""
    payload = text.encode()
    key = os.urandom(4)
    n = len(payload)
    head = struct.pack("!BB", 0x81, 0x80 | n) if n < 126 else struct.pack("!BBH", 0x81, 0x80 | 126, n)
    return head + key + bytes(b ^ key[i & 3] for i, b in enumerate(payload))


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class SlowReader:
    """One WebSocket that writes and never reads (after the handshake)."""

    def __init__(self, port, path, rcvbuf):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # Small receive buffer (set before connect so the window is small from the start):
        # the server's output backs up after a few KiB instead of megabytes.
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(5)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        # Consume exactly the response head (peek, then take up to the blank line); the
        # scene message after it stays unread like everything else.
        head = b""
        while b"\r\n\r\n" not in head:
            peeked = self.sock.recv(4096, socket.MSG_PEEK)
            if not peeked:
                raise ConnectionError("closed during the handshake")
            end = peeked.find(b"\r\n\r\n")
            head += self.sock.recv(end + 4 if end >= 0 else len(peeked))
        self.status = int(head.split(b" ", 2)[1])
        if self.status != 101:
            raise ConnectionError(f"handshake answered {self.status}")
        self.sock.setblocking(False)
        self.sent = 0
        self.offset = 0
        self.last_progress = time.monotonic()
        self.error = None


def push(readers, chunk, stop):
    """Write `chunk` over and over to every reader as fast as each socket accepts."""
    selector = selectors.DefaultSelector()
    for reader in readers:
        selector.register(reader.sock, selectors.EVENT_WRITE, reader)
    while not stop.is_set() and selector.get_map():
        for key, _ in selector.select(timeout=0.1):
            reader = key.data
            try:
                n = reader.sock.send(chunk[reader.offset:])
            except BlockingIOError:
                continue
            except OSError as error:  # the server closed it (e.g. 1008 over the output limit)
                reader.error = f"{type(error).__name__}: {error}"
                selector.unregister(reader.sock)
                continue
            reader.sent += n
            reader.offset = (reader.offset + n) % len(chunk)  # keeps frames whole across sends
            reader.last_progress = time.monotonic()
    selector.close()


def run_wsload(args):
    cmd = args.wsload_cmd + ["--url", f"127.0.0.1:{args.port}{args.path}", "--connections", "1", "--depth", "1",
                             "--warmup", str(args.warmup), "--duration", str(args.duration)]
    return cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def parse_wsload(text):
    result = {}
    line = next((l for l in text.splitlines() if l.startswith("RESULT")), "")
    for key, val in re.findall(r"(\w+)=([^ ]+)", line):
        result[key] = float(val)
    m = re.search(r"errors: total=(\d+)", text)
    if m:
        result["errors"] = int(m.group(1))
    result["ok"] = bool(line)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's PID (VmRSS)")
    parser.add_argument("--wsload", required=True, help="wsload command, e.g. 'taskset -c 1 /tmp/peers/bin/wsload'")
    parser.add_argument("--path", default="/ws/echo")
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--rcvbuf", type=int, default=4096)
    parser.add_argument("--json", required=True)
    parser.add_argument("--log-dir", required=True, help="where the wsload outputs go")
    args = parser.parse_args()
    args.wsload_cmd = args.wsload.split()
    out = {"readers": args.readers, "duration_s": args.duration, "warmup_s": args.warmup, "rcvbuf": args.rcvbuf}

    # 1. unloaded
    cmd, proc = run_wsload(args)
    text = proc.communicate()[0]
    open(os.path.join(args.log_dir, "slow-reader.unloaded.txt"), "w").write(" ".join(cmd) + "\n" + text)
    out["unloaded"] = parse_wsload(text)
    out["wsload_cmd"] = " ".join(cmd)

    # 2. loaded
    out["rss_before_kib"] = rss_kib(args.pid)
    chunk = b"".join(frame(EVENT % value(seq)) for seq in range(600))
    cmd, proc = run_wsload(args)
    time.sleep(args.warmup)
    t0 = time.monotonic()
    readers, connect_errors = [], []
    for _ in range(args.readers):
        try:
            readers.append(SlowReader(args.port, args.path, args.rcvbuf))
        except OSError as error:
            connect_errors.append(str(error))
    stop = threading.Event()
    pusher = threading.Thread(target=push, args=(readers, chunk, stop), daemon=True)
    pusher.start()
    samples = []
    while proc.poll() is None:
        samples.append((round(time.monotonic() - t0, 2), rss_kib(args.pid)))
        time.sleep(0.5)
    text = proc.communicate()[0]
    stop.set()
    pusher.join()
    end = time.monotonic()
    open(os.path.join(args.log_dir, "slow-reader.loaded.txt"), "w").write(" ".join(cmd) + "\n" + text)
    out["loaded"] = parse_wsload(text)
    out["rss_samples"] = samples
    out["slow"] = {
        "connected": len(readers),
        "connect_errors": connect_errors,
        "closed_by_server": sum(1 for r in readers if r.error),
        "close_errors": sorted({r.error for r in readers if r.error}),
        "bytes_sent": [r.sent for r in readers],
        # a reader whose socket took nothing for its last second is held off by the server
        "stalled": sum(1 for r in readers if not r.error and end - r.last_progress >= 1.0),
        "last_progress_s": [round(r.last_progress - t0, 2) for r in readers],
    }
    for reader in readers:
        reader.sock.close()
    time.sleep(2)  # let the server see the closes
    out["rss_after_kib"] = rss_kib(args.pid)

    window = [s for s in samples if s[0] <= args.duration]
    half = args.duration / 2
    first = [kib for t, kib in window if t < half]
    second = [kib for t, kib in window if t >= half]
    out["rss_max_kib"] = max((kib for _, kib in samples), default=0)
    out["rss_max_first_half_kib"] = max(first, default=0)
    out["rss_max_second_half_kib"] = max(second, default=0)
    u, l = out["unloaded"].get("p99_us", 0), out["loaded"].get("p99_us", 0)
    out["p99_ratio"] = l / u if u else None

    with open(args.json, "w") as f:
        json.dump(out, f, indent=1)
    s = out["slow"]
    print(f"slow-reader: unloaded p99 {u:.1f} us, loaded p99 {l:.1f} us"
          + (f" ({out['p99_ratio']:.2f}x)" if out["p99_ratio"] else "")
          + f"; RSS {out['rss_before_kib']} -> max {out['rss_max_kib']} -> after {out['rss_after_kib']} KiB"
          + f" (halves {out['rss_max_first_half_kib']} / {out['rss_max_second_half_kib']})"
          + f"; readers {s['connected']}/{args.readers} connected, {s['stalled']} stalled, "
          + f"{s['closed_by_server']} closed by the server, sent {sum(s['bytes_sent']) / 1048576:.1f} MiB")


if __name__ == "__main__":
    main()
