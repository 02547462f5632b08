#!/usr/bin/env bash
# `make cluster`: a Bindery cluster on loopback for anyone to try. Starts, in the foreground:
#   redis-server  (unix socket only, no RDB snapshots, append-only file on: --save '' --appendonly yes)
#   N bindery     (127.0.0.1:BASE_PORT+1 ... BASE_PORT+N, each with --store redis+unix://...)
#   haproxy       (127.0.0.1:PORT, deploy/haproxy.cfg with the server list rewritten)
# prints the URL and stops everything on Ctrl-C (or when Redis or HAProxy dies). A bindery
# process that exits (try `kill -9 $(cat $DIR/bindery-2.pid)`) is restarted after 1 s, as a
# supervisor would: its sessions resume on the others meanwhile.
#
# Knobs (environment): N=4 PORT=8080 BASE_PORT=8080 CONFIG=debug|release GRACE=30
#   DIR=/tmp/bindery-cluster-<pid> (sockets, logs, the AOF) ARGS="more bindery flags"
#   SWIFT=swift  NO_BUILD=1 (use the existing binary)
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-4}
PORT=${PORT:-8080}
BASE_PORT=${BASE_PORT:-$PORT}
CONFIG=${CONFIG:-debug}
GRACE=${GRACE:-30}
SWIFT=${SWIFT:-swift}
DIR=${DIR:-/tmp/bindery-cluster-$$}
ARGS=${ARGS:-}

PATH=$PATH:/usr/sbin  # Debian's haproxy, off a non-root user's PATH
for tool in haproxy redis-server redis-cli; do
    command -v "$tool" >/dev/null || { echo "cluster: $tool not found (make test-deps installs it)" >&2; exit 1; }
done

if [ -z "${NO_BUILD:-}" ]; then
    "$SWIFT" build -c "$CONFIG" --product bindery
fi
BIN=$PWD/.build/$CONFIG/bindery
[ -x "$BIN" ] || { echo "cluster: $BIN missing" >&2; exit 1; }

mkdir -p "$DIR"
rm -f "$DIR/stopping"
SOCK=$DIR/redis.sock
pids=()
supervisors=()

stopped=""
stop_all() {
    trap - INT TERM EXIT
    stopped=1
    echo
    echo "cluster: stopping"
    touch "$DIR/stopping"
    # The proxy first, then the processes (they drain), then Redis.
    [ -n "${haproxy_pid:-}" ] && kill -TERM "$haproxy_pid" 2>/dev/null || true
    for f in "$DIR"/bindery-*.pid; do [ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null || true; done
    for pid in "${supervisors[@]}"; do wait "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    echo "cluster: stopped (logs in $DIR)"
}
trap stop_all INT TERM EXIT

redis-server --port 0 --unixsocket "$SOCK" --unixsocketperm 700 --save '' --appendonly yes \
    --dir "$DIR" --daemonize no >"$DIR/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do redis-cli -s "$SOCK" ping >/dev/null 2>&1 && break; sleep 0.05; done
redis-cli -s "$SOCK" ping >/dev/null || { echo "cluster: redis-server did not start (see $DIR/redis.log)" >&2; exit 1; }

store=(--store "redis+unix://$SOCK")
# Read whole, then searched: `| grep -q` under pipefail can fail on the writer's SIGPIPE.
help_text=$("$BIN" --help 2>&1 || true)
if ! grep -q -- '--store' <<< "$help_text"; then
    echo "cluster: WARNING: this bindery has no --store; each process keeps its own sessions" >&2
    store=()
fi

# Runs bindery number $1 on port $2 until the cluster stops, restarting it 1 s after it exits.
supervise() {
    local i=$1 port=$2
    while [ ! -e "$DIR/stopping" ]; do
        # shellcheck disable=SC2086
        "$BIN" --host 127.0.0.1 --port "$port" --grace "$GRACE" "${store[@]}" $ARGS >>"$DIR/bindery-$i.log" 2>&1 &
        echo $! >"$DIR/bindery-$i.pid"
        local status=0
        wait $! || status=$?
        [ -e "$DIR/stopping" ] && break
        echo "cluster: bindery-$i (port $port) exited with status $status; restarting in 1 s" >&2
        sleep 1
    done
}

servers=""
for i in $(seq "$N"); do
    port=$((BASE_PORT + i))
    supervise "$i" "$port" &
    supervisors+=($!)
    servers+="    server b$i 127.0.0.1:$port"$'\n'
done
for i in $(seq "$N"); do
    port=$((BASE_PORT + i))
    for _ in $(seq 100); do
        python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
        sleep 0.1
    done
done

# deploy/haproxy.cfg with this cluster's frontend port and server list.
python3 - "$DIR/haproxy.cfg" "$PORT" "$servers" <<'PY'
import re, sys
path, port, servers = sys.argv[1], sys.argv[2], sys.argv[3]
text = open("deploy/haproxy.cfg").read()
text = re.sub(r"bind 127\.0\.0\.1:\d+", f"bind 127.0.0.1:{port}", text)
text = re.sub(r"(# servers begin\n).*?(    # servers end)", lambda m: m.group(1) + servers + m.group(2), text, flags=re.S)
open(path, "w").write(text)
PY
haproxy -f "$DIR/haproxy.cfg" -db >"$DIR/haproxy.log" 2>&1 &
haproxy_pid=$!
pids+=($!)
for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1)" 2>/dev/null && break
    sleep 0.1
done

echo "cluster: redis-server on $SOCK, $N bindery processes on 127.0.0.1:$((BASE_PORT + 1))-$((BASE_PORT + N)), haproxy on :$PORT"
echo "cluster: open http://127.0.0.1:$PORT/   (logs in $DIR; Ctrl-C stops all)"
echo "cluster: crash one: kill -9 \$(cat $DIR/bindery-1.pid)   (restarted after 1 s)"
# Stop everything when Redis or HAProxy exits.
wait -n "${pids[@]}" || true
[ -n "$stopped" ] || echo "cluster: Redis or HAProxy exited; see $DIR" >&2
