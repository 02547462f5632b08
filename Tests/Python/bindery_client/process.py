"""Child processes on loopback: the `bindery` binary and `redis-server`, each started in
the foreground and stopped by its PID; free ports and waits; /proc readings."""
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request

HOST = "127.0.0.1"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_port(port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection((HOST, port), 0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def wait_http(url, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except Exception:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer")


def fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Bindery:
    """The `bindery` binary on 127.0.0.1: `--port 0` (it picks one and logs it) unless
    `port` is given; a restart keeps the port. Its output is read by a thread into `log`
    (`on_line` sees each line), or goes to `output` (a file, or DEVNULL)."""

    def __init__(self, binary, *arguments, port=0, env=None, cwd=ROOT, output=None, on_line=None,
                 timeout=20):
        self.binary = os.path.abspath(binary)
        self.arguments, self.port, self.env, self.cwd = list(arguments), port, env, cwd
        self.output, self.on_line, self.timeout = output, on_line, timeout
        self.process = None
        self.log = []
        self.start()

    @property
    def pid(self):
        return self.process.pid

    @property
    def base(self):
        return f"http://{HOST}:{self.port}"

    @property
    def ws(self):
        return f"ws://{HOST}:{self.port}"

    def start(self):
        """Starts the binary (again) and returns once it is listening."""
        self.terminated = False
        args = [self.binary, "--host", HOST, "--port", str(self.port), *self.arguments]
        if self.output is not None:
            self.process = subprocess.Popen(args, stdout=self.output, stderr=subprocess.STDOUT, env=self.env,
                                            cwd=self.cwd)
            if not wait_port(self.port, self.timeout):
                self.stop()
                raise RuntimeError(f"bindery did not listen on {self.port}")
            return
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        env=self.env, cwd=self.cwd)
        listening = threading.Event()
        self.reader = threading.Thread(target=self._drain, args=(self.process, listening), daemon=True)
        self.reader.start()
        if not listening.wait(self.timeout):
            self.stop()
            raise RuntimeError(f"bindery did not start: {self.log[-20:]}")

    def _drain(self, process, listening):
        for line in process.stdout:
            self.log.append(line.rstrip("\n"))
            if not listening.is_set():
                match = re.search(r"listening on http://[^ \"]+:(\d+)", line)
                if match:
                    self.port = int(match.group(1))
                    listening.set()
            if self.on_line:
                self.on_line(line)

    def log_tail(self, chars=4000):
        return "\n".join(self.log)[-chars:]

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def send_signal(self, sig):
        if self.alive():
            self.process.send_signal(sig)

    def terminate(self):
        """SIGTERM once (a second one during shutdown may meet the default handler)."""
        if not self.terminated and self.alive():
            self.terminated = True
            self.process.send_signal(signal.SIGTERM)

    def kill(self, sig=signal.SIGKILL):
        self.process.send_signal(sig)
        return self.process.wait(10)

    def stop(self, timeout=10):
        """SIGTERM, SIGKILL after `timeout`; the exit status (negative: the signal), or
        "killed after SIGTERM timed out", once the output is read to its end."""
        status = None
        if self.alive():
            self.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
                status = "killed after SIGTERM timed out"
        if self.output is None:
            self.reader.join(5)  # the last lines may still be in the pipe
        return status if status is not None else self.process.returncode

    def stop_cleanly(self):
        """Stops with SIGTERM, a graceful stop (exit 0); anything else (a crash, a
        sanitizer report when the binary is instrumented) fails the run."""
        status = self.stop()
        if status != 0:
            print(f"FAILED: bindery exited with {status}:\n{self.log_tail()}")
            raise SystemExit(1)


def redis_cli(sock, *args, timeout=5):
    """`redis-cli -s sock args`: its output, trimmed."""
    result = subprocess.run(["redis-cli", "-s", sock, *args], capture_output=True, text=True, timeout=timeout)
    return result.stdout.strip()


class RedisServer:
    """redis-server in the foreground on a Unix socket in `directory` (a new temporary one
    by default, removed by `stop(remove=True)`), no RDB snapshots; `tcp`: also on a free
    port of 127.0.0.1; `appendonly`: the append-only file kept, so a restart keeps the data."""

    def __init__(self, directory=None, tcp=False, appendonly=False, log=True):
        self.own_directory = directory is None
        self.dir = directory or tempfile.mkdtemp(prefix="bindery-redis-")
        self.sock = os.path.join(self.dir, "redis.sock")
        self.port = free_port() if tcp else 0
        self.appendonly, self.log = appendonly, log
        self.process = None
        self.start()

    @property
    def url(self):
        return f"redis+unix://{self.sock}"

    @property
    def pid(self):
        return self.process.pid

    def cli(self, *args, timeout=5):
        return redis_cli(self.sock, *args, timeout=timeout)

    def start(self):
        args = ["redis-server", "--port", str(self.port), "--unixsocket", self.sock, "--unixsocketperm", "700",
                "--save", "", "--appendonly", "yes" if self.appendonly else "no", "--dir", self.dir,
                "--daemonize", "no"]
        if self.port:
            args += ["--bind", HOST]
        output = open(os.path.join(self.dir, "redis.log"), "a") if self.log else subprocess.DEVNULL
        self.process = subprocess.Popen(args, stdout=output, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if self.cli("ping", timeout=1) == "PONG":
                    return
            except subprocess.TimeoutExpired:
                pass
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self, sig=signal.SIGTERM, remove=False):
        """SIGTERM: Redis fsyncs the append-only file and exits (a restart loses nothing)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(10)
        self.process = None
        if remove and self.own_directory:
            shutil.rmtree(self.dir, ignore_errors=True)

    def used_memory(self):
        line = next(l for l in self.cli("INFO", "memory").splitlines() if l.startswith("used_memory:"))
        return int(line.split(":")[1])
