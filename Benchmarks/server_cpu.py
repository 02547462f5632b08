#!/usr/bin/env python3
"""User and system CPU per message of one echo server under wsload's pipe load.

    Benchmarks/server_cpu.py NAME WS_PATH COMMAND...    ({port} in COMMAND is replaced)
    Benchmarks/server_cpu.py main /ws/echo .build/release/bindery --host 127.0.0.1 --port {port} \
        --log-level error --max-sessions-per-address 20000
    Benchmarks/server_cpu.py lws-default /ws /tmp/peers/bin/lws_uv {port} --default-loop

Starts the server on CPU 0, warms it up 2 s, then runs `wsload --connections 64 --depth 16`
for 10 s on CPU 1 and reads the server's utime and stime from /proc/<pid>/stat around it.
Prints msgs/s and the user and system microseconds per message: which share of a server's
cost is its own code and which is the kernel's (the machine has no hardware counters).
Run peers back to back in one loop and compare per round; needs a quiet machine.
"""
import os
import re
import socket
import subprocess
import sys
import time

WSLOAD = os.environ.get("WSLOAD", "/tmp/peers/bin/wsload")
PORT = int(os.environ.get("PORT", "18555"))


def main():
    name, path, *cmd = sys.argv[1:]
    cmd = [c.replace("{port}", str(PORT)) for c in cmd]
    server = subprocess.Popen(["taskset", "-c", "0"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", PORT)).close()
                break
            except OSError:
                time.sleep(0.1)

        def cpu():
            fields = open(f"/proc/{server.pid}/stat").read().rsplit(")", 1)[1].split()
            return int(fields[11]), int(fields[12])

        load = ["taskset", "-c", "1", WSLOAD, "--url", f"127.0.0.1:{PORT}{path}", "--connections", "64", "--depth", "16",
                "--warmup", "0"]
        subprocess.run(load + ["--duration", "2", "--quiet"], stdout=subprocess.DEVNULL, check=True)
        user0, system0 = cpu()
        out = subprocess.run(load + ["--duration", "10"], capture_output=True, text=True, check=True).stdout
        user1, system1 = cpu()
    finally:
        server.terminate()
        server.wait()
    match = re.search(r"msgs_per_s=([\d.]+)", out)
    if not match:
        sys.exit(f"server_cpu.py: no RESULT line from wsload:\n{out}")
    rate = float(match.group(1))
    messages = rate * 10
    tick = os.sysconf("SC_CLK_TCK")
    print(f"{name}\tmsgs/s={rate:.0f}\tuser_us/msg={(user1 - user0) / tick * 1e6 / messages:.2f}"
          f"\tsys_us/msg={(system1 - system0) / tick * 1e6 / messages:.2f}")


if __name__ == "__main__":
    main()
