#!/usr/bin/env bash
# Instructions per echo event through the whole server: the release `bindery` under
# callgrind, driven by the bench kit's wsload on /ws/echo. Counters are zeroed after a
# warm-up and dumped after the load, so start-up is left out (the 64 connections'
# handshakes are not: a few hundred instructions per event at these counts).
#
#   Benchmarks/callgrind-server.sh [CONNECTIONS=64] [DEPTH=16] [SECONDS=10]
#
# CACHE_SIM=1 adds callgrind's cache and branch simulation (D1/LL misses, mispredicted
# branches per event: where cycles go that instruction counts do not show). BIN= profiles
# a given binary instead of building this checkout's.
#
# Needs valgrind and the kit's wsload (/tmp/peers/bin/wsload: `make bench` or
# `BUILD_ONLY=1 ../shared/bench/run-all.sh` builds it). Prints the total, the events and
# Ir per event; the profile is left in $OUT for callgrind_annotate.
set -euo pipefail
CONNECTIONS=${1:-64} DEPTH=${2:-16} SECONDS_=${3:-10}
WSLOAD=${WSLOAD:-/tmp/peers/bin/wsload}
OUT=${OUT:-/tmp/bindery-callgrind}
PORT=${PORT:-18390}
mkdir -p "$OUT"
if [[ -z "${BIN:-}" ]]; then
    swift build -c release --product bindery >/dev/null
    BIN="$(swift build -c release --show-bin-path)/bindery"
fi
SIM=(${VALGRIND_ARGS:-})
[[ "${CACHE_SIM:-0}" = 1 ]] && SIM=(--cache-sim=yes --branch-sim=yes)
# valgrind 3.19 gives up on the DWARF of some dependencies (swift-argument-parser's,
# swift-prometheus's): profile a copy without debug info (the symbol table stays, so
# callgrind_annotate still names functions).
objcopy --strip-debug "$BIN" "$OUT/bindery"
BIN="$OUT/bindery"

valgrind --tool=callgrind "${SIM[@]}" --callgrind-out-file="$OUT/bindery.%p" --dump-instr=no \
    "$BIN" --host 127.0.0.1 --port "$PORT" --log-level error --max-sessions-per-address 100000 \
    >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill -INT $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do ss -Hltn "sport = :$PORT" | grep -q . && break; sleep 0.2; done

"$WSLOAD" --url "127.0.0.1:$PORT/ws/echo" --connections 4 --duration 1 --warmup 0 --quiet >/dev/null
events() { curl -s "127.0.0.1:$PORT/metrics" | awk '/^bindery_events_total/{print $2}'; }
before=$(events)
callgrind_control -z "$SERVER" >/dev/null
"$WSLOAD" --url "127.0.0.1:$PORT/ws/echo" --connections "$CONNECTIONS" --depth "$DEPTH" \
    --duration "$SECONDS_" --warmup 0 --quiet
callgrind_control -d "$SERVER" >/dev/null
after=$(events)
kill -INT "$SERVER"; wait "$SERVER" || true
trap - EXIT

profile=$(ls -t "$OUT"/bindery.*.1 | head -1)
count=$((after - before))
if [[ ${#SIM[@]} -gt 0 ]]; then
    # The profile's own events: and totals: lines (Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim).
    awk -v n="$count" -v p="$profile" '
        /^events:/{for (i = 2; i <= NF; i++) name[i] = $i}
        /^(totals|summary):/{printf "profile=%s events=%d", p, n
            for (i = 2; i <= NF; i++) printf " %s=%.1f", name[i], $i / n
            print " (per event)"; exit}' "$profile"
else
    total=$(callgrind_annotate "$profile" | awk '/PROGRAM TOTALS/{gsub(",", "", $1); print $1}')
    echo "profile=$profile events=$count Ir=$total Ir_per_event=$((total / count))"
fi
