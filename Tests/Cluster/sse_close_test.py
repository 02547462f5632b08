"""An SSE viewer who leaves stops counting in the shared board's "N online" within 2 s, on
every process, also through HAProxy (issue 13: "N online" equals the real number of viewers
within 2 s). The board stays quiet meanwhile: no event, so no write to the departed stream
tells anyone it is gone; only its EOF can (HAProxy forwards it with `option abortonclose`).

    python Tests/Cluster/sse_close_test.py .build/debug/bindery

For each way of leaving (close, kill -9 of curl, half-close) and each path (direct, through
HAProxy): open a board session's event stream, wait until every process's observer counts
it, leave, and time until every observer's count is back. Exits 1 if any took 2 s or more.
"""
import os
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from cluster import HOST, Cluster  # noqa: E402  (puts Tests/Python on the path)
from bindery_client import request_sync  # noqa: E402

LIMIT = 2.0


def online(port, token):
    """The board's "N online" as a process's own copy of the scene shows it."""
    for _ in range(50):
        status, _, scene = request_sync(HOST, port, "GET", f"/api/sessions/{token}")
        if status == 200:
            return next(w["props"]["text"] for w in scene["widgets"] if w["id"] == "viewers")
        time.sleep(0.1)  # 503 store-unavailable: the mirror is catching up
    raise SystemExit(f"FAILED: GET /api/sessions/{token} on :{port} answered {status}")


def wait_all(observers, want, limit):
    start = time.monotonic()
    while True:
        texts = [online(port, token) for port, token in observers]
        if all(t == want for t in texts):
            return time.monotonic() - start, texts
        if time.monotonic() - start > limit:
            return None, texts
        time.sleep(0.02)


class RawStream:
    """An SSE client on a plain socket, so it can close or half-close exactly."""

    def __init__(self, port, token):
        self.sock = socket.create_connection((HOST, port), 5)
        self.sock.sendall(f"GET /api/sessions/{token}/events HTTP/1.1\r\nHost: x\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        got = b""
        while b"event: scene" not in got:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise SystemExit(f"FAILED: event stream of {token} closed before its scene: {got[:200]!r}")
            got += chunk

    def leave(self, how):
        if how == "half-close":
            self.sock.shutdown(socket.SHUT_WR)  # still reading, as a client that only stops sending
        else:
            self.sock.close()


class CurlStream:
    def __init__(self, port, token):
        self.proc = subprocess.Popen(["curl", "-sN", f"http://{HOST}:{port}/api/sessions/{token}/events"],
                                     stdout=subprocess.PIPE)
        self.proc.stdout.readline()  # the scene is on its way: the stream is open

    def leave(self, how):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/bindery"
    cluster = Cluster(binary, n=2)
    failures = []
    try:
        cluster.start_all()
        observers = []
        for port in cluster.ports:
            status, _, body = request_sync(HOST, port, "POST", "/api/sessions", {"scene": "board"})
            assert status == 201, status
            observers.append((port, body["session"]))
        base_text = online(*observers[0])
        paths = [("haproxy", cluster.proxy_port)] + [(f"direct b{i + 1}", p) for i, p in enumerate(cluster.ports)]
        for path, port in paths:
            for client, how in [(RawStream, "close"), (RawStream, "half-close"), (CurlStream, "kill -9")]:
                status, _, body = request_sync(HOST, port, "POST", "/api/sessions", {"scene": "board"})
                assert status == 201, status
                token = body["session"]
                stream = client(port, token)
                n = int(base_text.split()[0])
                counted, texts = wait_all(observers, f"{n + 1} online", 5)
                if counted is None:
                    failures.append(f"{path} {how}: the viewer was never counted: {texts}")
                    stream.leave("close")
                    continue
                stream.leave(how)
                took, texts = wait_all(observers, base_text, LIMIT)
                line = f"{path:10} {how:10}: counted on every process, gone from every count after "
                print(line + (f"{took:.3f} s" if took is not None else f"more than {LIMIT} s ({texts})"), flush=True)
                if took is None:
                    failures.append(f"{path} {how}: still counted {LIMIT} s after leaving: {texts}")
                    wait_all(observers, base_text, 40)  # let it go before the next one
                request_sync(HOST, port, "DELETE", f"/api/sessions/{token}")
    finally:
        cluster.stop_all(keep_dir=bool(failures))
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures) + f"\n  (logs in {cluster.dir})")
        sys.exit(1)
    print("sse_close_test: OK")


if __name__ == "__main__":
    main()
