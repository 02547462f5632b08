#!/bin/sh
# RedisConnection (Sources/Redis) beside redis-benchmark, same machine, same redis-server,
# runs interleaved, medians of ROUNDS. Usage: Benchmarks/redis_bench.sh [ROUNDS]
set -eu
ROUNDS=${1:-5}
cd "$(dirname "$0")/.."
swift build -c release --product redis-bench >/dev/null
PORT=${REDIS_BENCH_PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")}
DIR=$(mktemp -d)
redis-server --port "$PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
    --dir "$DIR" --logfile "$DIR/log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DIR"' EXIT
for i in $(seq 50); do redis-cli -p "$PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
kill -0 $SERVER  # our own server, not another one on the port
OUT="$DIR/results"
# name requests clients pipeline
for round in $(seq "$ROUNDS"); do
    for spec in "P16c1 1000000 1 16" "P16c50 1000000 50 16" "P1c1 100000 1 1"; do
        set -- $spec
        .build/release/redis-bench "redis://127.0.0.1:$PORT" "$2" "$3" "$4" |
            sed -E "s/.*: ([0-9]+) requests\/s, p50 ([0-9.]+) ms.*/$1 bindery \1 \2/" >>"$OUT"
        redis-benchmark -p "$PORT" -t set -n "$2" -c "$3" -P "$4" -q 2>/dev/null | tr '\r' '\n' | grep 'requests per second' |
            sed -E "s/.*SET: ([0-9.]+) requests per second, p50=([0-9.]+) msec.*/$1 redis-benchmark \1 \2/" >>"$OUT"
    done
done
python3 - "$OUT" <<'PY'
import sys, statistics, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, who, rps, p50 = line.split()
    rows[(name, who)].append((float(rps), float(p50)))
print("| test | RedisConnection req/s | redis-benchmark req/s | ratio | RedisConnection p50 | redis-benchmark p50 | ratio |")
print("|---|---|---|---|---|---|---|")
for name in ["P16c1", "P16c50", "P1c1"]:
    b = rows[(name, "bindery")]; r = rows[(name, "redis-benchmark")]
    brps = statistics.median(x[0] for x in b); rrps = statistics.median(x[0] for x in r)
    bp = statistics.median(x[1] for x in b); rp = statistics.median(x[1] for x in r)
    print(f"| {name} | {brps:,.0f} | {rrps:,.0f} | {brps/rrps:.2f} | {bp*1000:.0f} µs | {rp*1000:.0f} µs | {bp/rp:.2f} |")
PY
