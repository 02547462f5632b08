#!/usr/bin/env bash
# RSS per idle echo session: a fresh release `bindery` per run, N WebSockets on /ws/echo
# held by the bench kit's `wsload --idle` (handshake and `scene`, then nothing), and
# (RSS with them − RSS before) / N, read from /proc once they have been idle 13 s.
#
#   Benchmarks/idle-memory.sh [N=10000] [RUNS=3]
#
# Needs the kit's wsload (/tmp/peers/bin/wsload: `make bench` builds it, or
# `gcc -O2 -o /tmp/peers/bin/wsload ../shared/bench/wsload/wsload.c -lpthread`).
# Prints each run and the median; BIN=path measures another build.
set -euo pipefail
N=${1:-10000} RUNS=${2:-3}
WSLOAD=${WSLOAD:-/tmp/peers/bin/wsload}
PORT=${PORT:-18777}
if [ -z "${BIN:-}" ]; then
    swift build -c release --product bindery >/dev/null
    BIN="$(swift build -c release --show-bin-path)/bindery"
fi
ulimit -n "$(ulimit -Hn)"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
results=()
for run in $(seq 1 "$RUNS"); do
    "$BIN" --host 127.0.0.1 --port "$PORT" --log-level error --max-sessions $((N * 2)) \
        --max-sessions-per-address $((N * 10)) --max-websockets $((N * 2)) --max-connections $((N * 2)) \
        >"$OUT/server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do ss -Hltn "sport = :$PORT" | grep -q . && break; sleep 0.1; done
    sleep 1
    rss() { awk '/VmRSS/{print $2}' "/proc/$server/status"; }
    before=$(rss)
    "$WSLOAD" --url "127.0.0.1:$PORT/ws/echo" --idle --connections "$N" --duration 15 >"$OUT/wsload.txt" 2>&1 &
    load=$!
    for _ in $(seq 1 900); do grep -q '^IDLE_READY' "$OUT/wsload.txt" && break; kill -0 $load 2>/dev/null || break; sleep 0.1; done
    sleep 13
    after=$(rss)
    wait $load || true
    kill -TERM $server; wait $server 2>/dev/null || true
    bytes=$(( (after - before) * 1024 / N ))
    echo "run $run: $N idle sessions, RSS $before -> $after kB: $bytes B per session"
    results+=("$bytes")
done
printf '%s\n' "${results[@]}" | sort -n | awk '{a[NR]=$1} END {print "median: " a[int((NR+1)/2)] " B per session"}'
