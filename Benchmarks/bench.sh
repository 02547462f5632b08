#!/usr/bin/env bash
# Full-stack benchmark (`make bench`): the bindery binary beside the peer servers of the
# shared bench kit (../shared/bench), then the colors scene's idle memory and a slow-reader
# scenario, all summarised in one Markdown report ($OUT/report.md). About 10 minutes.
# Needs a quiet machine (2 cores: server on one, load generator on the other), so CI
# never runs it.
#
# Environment (defaults in brackets):
#   OUT            results folder [/tmp/bindery-bench/<UTC time>]
#   LAT_RUNS [3] DUR [10] WARMUP [2] PIN [1] BASE_PORT [18400] IDLE_CONNS [10000]
#                  passed to the kit's run-all.sh (see its header)
#   SCENARIOS      subset of "lat thr pipe idle" for the peer run [all]
#   PEERS          peers of the first run [raw-limit lws-default lws-uv hummingbird bindery]
#   SLOW_READERS [8]  readers that never read, in the slow-reader scenario (0 skips it)
#   SKIP_COLORS=1  skip the colors idle run
#   TABLE_ONLY=1   only rebuild report.md from the results already in $OUT
#   BENCH_KIT      the kit [../shared/bench beside the repository]
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
SWIFT="${SWIFT:-swift}"
OUT="${OUT:-/tmp/bindery-bench/$(date -u +%Y%m%d-%H%M%S)}"
export LAT_RUNS="${LAT_RUNS:-3}" DUR="${DUR:-10}" WARMUP="${WARMUP:-2}" PIN="${PIN:-1}"
export BASE_PORT="${BASE_PORT:-18400}" IDLE_CONNS="${IDLE_CONNS:-10000}"
SERVER_CPU="${SERVER_CPU:-0}"; CLIENT_CPU="${CLIENT_CPU:-1}"
PEERS="${PEERS:-raw-limit lws-default lws-uv hummingbird bindery}"
SCENARIOS="${SCENARIOS:-lat thr pipe idle}"
SLOW_READERS="${SLOW_READERS:-8}"
if [[ -z "${BENCH_KIT:-}" ]]; then
    for kit in ../shared/bench ../../shared/bench; do [[ -x $kit/run-all.sh ]] && { BENCH_KIT="$(cd "$kit" && pwd)"; break; }; done
fi
[[ -n "${BENCH_KIT:-}" && -x "$BENCH_KIT/run-all.sh" ]] || {
    echo "bench.sh: the bench kit (run-all.sh) is not in ../shared/bench; set BENCH_KIT" >&2; exit 1; }
log() { echo "[bench $(date -u +%H:%M:%S)] $*" >&2; }

table() {
    python3 "$ROOT/Benchmarks/bench_table.py" "$OUT" >"$OUT/report.md"
    cat "$OUT/report.md"
    log "report: $OUT/report.md"
}
if [[ "${TABLE_ONLY:-0}" = 1 ]]; then table; exit 0; fi

mkdir -p "$OUT"
: >"$OUT/meta.tsv"
meta() { printf '%s\t%s\n' "$1" "$2" >>"$OUT/meta.tsv"; }
meta started "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
meta invoked "${BENCH_INVOKED:-Benchmarks/bench.sh}"
meta knobs "OUT=$OUT LAT_RUNS=$LAT_RUNS DUR=$DUR WARMUP=$WARMUP PIN=$PIN BASE_PORT=$BASE_PORT IDLE_CONNS=$IDLE_CONNS SLOW_READERS=$SLOW_READERS"
meta peers "$PEERS"
meta kit "$BENCH_KIT"
meta commit "$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
meta swift "$("$SWIFT" --version 2>&1 | head -1)"
meta cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
meta nproc "$(nproc)"
meta kernel "$(uname -srm)"

log "building bindery (release)"
"$SWIFT" build -c release --product bindery 2>&1 | tail -3 >&2
BINDERY="$ROOT/.build/release/bindery"
# Everything comes from 127.0.0.1, so the per-address session limit (100) must cover the
# 10,000-session idle run, as must the connection and WebSocket limits.
LIMITS="--max-sessions 20000 --max-sessions-per-address 20000 --max-websockets 20000 --max-connections 20000"
export BINDERY_CMD="$BINDERY --host 127.0.0.1 --port {port} --log-level error $LIMITS"
meta bindery_cmd "$BINDERY_CMD"

runall() { # out-dir peers...   (env: SCENARIOS, BINDERY_WS_PATH)
    local dir=$1; shift
    meta run-all "OUT=$dir LAT_RUNS=$LAT_RUNS DUR=$DUR WARMUP=$WARMUP PIN=$PIN BASE_PORT=$BASE_PORT IDLE_CONNS=$IDLE_CONNS SCENARIOS=\"$SCENARIOS\"${BINDERY_WS_PATH:+ BINDERY_WS_PATH=$BINDERY_WS_PATH} BINDERY_CMD=\"\$bindery_cmd\" $BENCH_KIT/run-all.sh $*"
    mkdir -p "$dir"
    # A failed peer is skipped by run-all and reported missing in the table.
    OUT="$dir" SCENARIOS="$SCENARIOS" "$BENCH_KIT/run-all.sh" "$@" >"$dir/run-all.out" 2> >(tee "$dir/run-all.log" >&2) ||
        log "run-all.sh exited with $? (see $dir/run-all.log)"
}

log "peers: $PEERS ($SCENARIOS) -> $OUT/peers"
# shellcheck disable=SC2086
runall "$OUT/peers" $PEERS

if [[ "${SKIP_COLORS:-0}" != 1 ]]; then
    log "bindery colors scene, idle memory -> $OUT/colors"
    SCENARIOS=idle BINDERY_WS_PATH=/ws/colors runall "$OUT/colors" bindery
fi

if [[ "$SLOW_READERS" -gt 0 ]]; then
    dir="$OUT/slow-reader"; mkdir -p "$dir"
    port=$((BASE_PORT + 50))
    pin_server=(); pin_client=()
    if [[ "$PIN" = 1 ]]; then pin_server=(taskset -c "$SERVER_CPU"); pin_client=(taskset -c "$CLIENT_CPU"); fi
    log "slow readers: $SLOW_READERS beside one measured client -> $dir"
    if ss -Hltn "sport = :$port" | grep -q .; then
        echo "{\"error\": \"port $port is in use\"}" >"$dir/slow-reader.json"
    else
        # Same start as run-all.sh: fd limit raised, server pinned, then exec (same PID).
        (ulimit -n "$(ulimit -Hn)"; exec "${pin_server[@]}" bash -c "exec ${BINDERY_CMD//\{port\}/$port}") >"$dir/bindery.server.log" 2>&1 &
        spid=$!
        trap 'kill -TERM $spid 2>/dev/null || true' EXIT
        for _ in $(seq 1 100); do ss -Hltn "sport = :$port" | grep -q . && break; sleep 0.1; done
        wsload_cmd="${pin_client[*]} /tmp/peers/bin/wsload"
        # The readers share the load generator's CPU, not the server's.
        sr=("${pin_client[@]}" python3 "$ROOT/Benchmarks/slow_reader.py" --port "$port" --pid "$spid" --wsload "$wsload_cmd"
            --readers "$SLOW_READERS" --duration "$DUR" --warmup "$WARMUP" --json "$dir/slow-reader.json" --log-dir "$dir")
        meta slow-reader "${pin_server[*]}${pin_server:+ }\$bindery_cmd  # port $port, then:"
        meta slow-reader "$(printf '%q ' "${sr[@]}")"
        if kill -0 "$spid" 2>/dev/null && ss -Hltn "sport = :$port" | grep -q .; then
            "${sr[@]}" >&2 || echo "{\"error\": \"slow_reader.py exited with $?\"}" >"$dir/slow-reader.json"
        else
            echo "{\"error\": \"bindery did not start (see bindery.server.log)\"}" >"$dir/slow-reader.json"
        fi
        kill -TERM "$spid" 2>/dev/null || true
        wait "$spid" 2>/dev/null || true
        trap - EXIT
    fi
fi
meta finished "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
table
