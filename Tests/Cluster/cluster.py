"""A Bindery cluster on loopback for the cluster test and benchmarks: one redis-server (unix
socket, `--save '' --appendonly yes`), N bindery processes with `--store redis+unix://...`,
and HAProxy with deploy/haproxy.cfg (its frontend port and server list rewritten). Every
process is started in the foreground and stopped by its PID; each can be killed, paused,
stopped and started again one at a time, which is what the fault phases do.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Python"))
from bindery_client import HOST, ROOT, RedisServer, fds, free_port, redis_cli, rss_kib, wait_port  # noqa: E402,F401


class Cluster:
    """redis-server + N bindery + haproxy; `store=False` runs bindery without `--store`
    (today's behaviour) for side-by-side benchmarks."""

    def __init__(self, binary, n=4, grace=30, store=True, extra_args=(), log_level="error"):
        self.binary = os.path.abspath(binary)
        self.n = n
        self.grace = grace
        self.extra_args = list(extra_args)
        self.log_level = log_level
        self.dir = tempfile.mkdtemp(prefix="bindery-cluster-")
        self.sock = os.path.join(self.dir, "redis.sock")
        self.supports_store = "--store" in subprocess.run([self.binary, "--help"], capture_output=True,
                                                           text=True).stdout + \
            subprocess.run([self.binary, "--help"], capture_output=True, text=True).stderr
        self.store = store and self.supports_store
        self.ports = [free_port() for _ in range(n)]
        self.proxy_port = free_port()
        self.redis = None
        self.proxy = None
        self.procs = [None] * n
        self.baseline = [None] * n  # (fds, rss KiB) when idle after each start
        self.starts = [0] * n

    # -- redis ---------------------------------------------------------------------------

    def redis_cli(self, *args, timeout=5):
        return redis_cli(self.sock, *args, timeout=timeout)

    def start_redis(self):
        """Started again after stop_redis, it reloads the append-only file."""
        self.redis = RedisServer(self.dir, appendonly=True)

    def stop_redis(self, sig=signal.SIGTERM):
        """SIGTERM: Redis fsyncs the append-only file and exits (a restart loses nothing)."""
        if self.redis:
            self.redis.stop(sig)
        self.redis = None

    # -- bindery -------------------------------------------------------------------------

    def bindery_args(self, i):
        args = [self.binary, "--host", HOST, "--port", str(self.ports[i]), "--grace", str(self.grace),
                "--log-level", self.log_level, "--max-sessions-per-address", "100000",
                "--max-sessions", "100000", "--max-websockets", "100000", "--max-connections", "20000"]
        if self.store:
            args += ["--store", f"redis+unix://{self.sock}"]
        return args + self.extra_args

    def start(self, i, wait=True):
        log = open(os.path.join(self.dir, f"bindery-{i}.log"), "a")
        self.procs[i] = subprocess.Popen(self.bindery_args(i), stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        self.starts[i] += 1
        if wait:
            self.wait_up(i)

    def wait_up(self, i, timeout=20):
        if not wait_port(self.ports[i], timeout):
            raise SystemExit(f"FAILED: bindery {i} did not start (log {self.dir}/bindery-{i}.log)")
        time.sleep(0.2)
        pid = self.procs[i].pid
        self.baseline[i] = (fds(pid), rss_kib(pid))

    def alive(self, i):
        return self.procs[i] is not None and self.procs[i].poll() is None

    def signal(self, i, sig):
        if self.alive(i):
            os.kill(self.procs[i].pid, sig)

    def kill(self, i):
        self.signal(i, signal.SIGKILL)
        if self.procs[i]:
            self.procs[i].wait()

    def term(self, i, timeout=15):
        """SIGTERM (drain); returns the exit status."""
        self.signal(i, signal.SIGTERM)
        try:
            return self.procs[i].wait(timeout)
        except subprocess.TimeoutExpired:
            self.procs[i].kill()
            self.procs[i].wait()
            return "timeout"

    # -- haproxy -------------------------------------------------------------------------

    def haproxy_config(self):
        text = open(os.path.join(ROOT, "deploy", "haproxy.cfg")).read()
        text = re.sub(r"bind 127\.0\.0\.1:\d+", f"bind {HOST}:{self.proxy_port}", text)
        servers = "".join(f"    server b{i + 1} {HOST}:{port}\n" for i, port in enumerate(self.ports))
        text = re.sub(r"(# servers begin\n).*?(    # servers end)", lambda m: m.group(1) + servers + m.group(2),
                      text, flags=re.S)
        text = text.replace("log stderr format short local0 notice", "log stderr format short local0 warning")
        path = os.path.join(self.dir, "haproxy.cfg")
        with open(path, "w") as f:
            f.write(text)
        return path

    def start_proxy(self):
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"  # Debian's, off a user's PATH
        self.proxy = subprocess.Popen([haproxy, "-f", self.haproxy_config(), "-db"],
                                      stdout=open(os.path.join(self.dir, "haproxy.log"), "a"),
                                      stderr=subprocess.STDOUT)
        if not wait_port(self.proxy_port, 10):
            raise SystemExit("FAILED: haproxy did not start")

    def stop_proxy(self):
        if self.proxy and self.proxy.poll() is None:
            self.proxy.terminate()  # hard stop: every connection through it closes
            self.proxy.wait(10)
        self.proxy = None

    # -- all -----------------------------------------------------------------------------

    def start_all(self):
        self.start_redis()
        for i in range(self.n):
            self.start(i, wait=False)
        for i in range(self.n):
            self.wait_up(i)
        self.start_proxy()
        time.sleep(0.5)  # first health checks

    def stop_all(self, keep_dir=False):
        self.stop_proxy()
        for i in range(self.n):
            if self.procs[i] and self.procs[i].poll() is None:
                self.signal(i, signal.SIGCONT)
                self.term(i)
        self.stop_redis()
        if not keep_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def log_tail(self, i, chars=3000):
        try:
            return open(os.path.join(self.dir, f"bindery-{i}.log"), errors="replace").read()[-chars:]
        except OSError:
            return ""
