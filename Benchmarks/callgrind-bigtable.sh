#!/usr/bin/env bash
# Instructions per keyed change of a 10,000-row table through the whole server: the
# release `bindery` under callgrind, the demo's `bigtable` scene driven over a WebSocket
# by bigtable_driver.py. Each operation is a button tap whose answer is one patch:
# socket → event → Rx → RxTableViewSectionedAnimatedDataSource → TableView →
# change record → PatchDiff → encoder → socket.
#
#   Benchmarks/callgrind-bigtable.sh [TAPS=20]
#
# For each operation (insert = addButton, delete = removeButton, move = moveButton: the
# last row to the top, update = starButton) the counters are zeroed, TAPS taps run
# (each waits for its answer), the counters are dumped: Ir per operation = total / TAPS.
# Scene opening and start-up are left out. Also prints, per operation, the inclusive
# cost of the data source (`RxTableViewSectionedAnimatedDataSource.show`) and of the
# rows' keyed diff (`ListRow.changesWithFewestMoves`, inside the patch building), and the
# answer's size in bytes. Needs valgrind and the test venv (websockets).
set -euo pipefail
TAPS=${1:-20}
OUT=${OUT:-/tmp/bindery-callgrind-bigtable}
PORT=${PORT:-18391}
PYTHON=${PYTHON:-/tmp/bindery-test-venv/bin/python}
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$OUT"
rm -f "$OUT"/bindery.*
swift build -c release --product bindery >/dev/null
BIN="$(swift build -c release --show-bin-path)/bindery"
# valgrind 3.19 gives up on the DWARF of some dependencies: profile a stripped copy
# (the symbol table stays, so callgrind_annotate still names functions).
objcopy --strip-debug "$BIN" "$OUT/bindery"
BIN="$OUT/bindery"

SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$OUT/bindery.%p" --dump-instr=no \
    "$BIN" --host 127.0.0.1 --port "$PORT" --log-level error \
    >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill -INT $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do ss -Hltn "sport = :$PORT" | grep -q . && break; sleep 0.2; done

# Warm up each path once, then measure each operation in its own dump.
{
    for button in addButton removeButton moveButton starButton; do echo "$button 2"; done
    for button in addButton removeButton moveButton starButton; do
        echo zero; echo "$button $TAPS"; echo dump
    done
} | "$PYTHON" "$HERE/bigtable_driver.py" "ws://127.0.0.1:$PORT/ws/bigtable" "$SERVER" >"$OUT/driver.log"
kill -INT "$SERVER"; wait "$SERVER" || true
trap - EXIT

grep scene "$OUT/driver.log"
echo
echo "| operation (10,000 rows) | Ir per operation | of which the data source | of which the rows' diff | answer bytes |"
echo "|---|---:|---:|---:|---:|"
mapfile -t profiles < <(ls "$OUT"/bindery.*.[0-9]* | sort -t. -k3 -n)
names=(insert delete move update)
buttons=(addButton removeButton moveButton starButton)
for i in 0 1 2 3; do
    profile=${profiles[$i]}
    annotated=$(callgrind_annotate --inclusive=yes --threshold=100 "$profile" 2>/dev/null | swift demangle --simplified)
    total=$(awk '/PROGRAM TOTALS/{gsub(",", "", $1); print $1}' <<<"$annotated")
    # Largest inclusive figure of the first matching symbol (demangled names).
    cost() { grep -E "$1" <<<"$annotated" | head -1 | awk '{gsub(",", "", $1); print $1}'; }
    show=$(cost 'RxTableViewSectionedAnimatedDataSource\.show\(' || true)
    patch=$(cost 'ListRow\.changesWithFewestMoves\(' || true)
    bytes=$(grep "^${buttons[$i]} $TAPS" "$OUT/driver.log" | awk '{print $4}')
    printf '| %s | %s | %s | %s | %s |\n' "${names[$i]}" "$((total / TAPS))" \
        "$(( ${show:-0} / TAPS ))" "$(( ${patch:-0} / TAPS ))" "$bytes"
done
