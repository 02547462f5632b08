#!/usr/bin/env bash
# Instructions per event for every scenario, Bindery's RxCore beside OpenCombine, counted
# by valgrind's callgrind (instruction counts do not depend on machine load).
#
#   Benchmarks/callgrind.sh                    every scenario
#   Benchmarks/callgrind.sh a c d              only these (ids or names)
#
# Each scenario's peer runs twice, with N1 and N2 events; instructions per event is
# (Ir(N2) - Ir(N1)) / (N2 - N1), so process start-up and pipeline setup cancel out.
#
# Environment:
#   N1, N2          event counts (default 1000 and 101000)
#   SWIFT_FLAGS     extra `swift build` flags, e.g. "-Xswiftc -cross-module-optimization"
#   SCRATCH         build folder (default .build, or .build-cmo-<hash> when SWIFT_FLAGS is set)
#   OUT             where the callgrind.out files are kept (default $SCRATCH/callgrind);
#                   `callgrind_annotate $OUT/<id>-<peer>-<N2>.out` shows where the time goes
#   SKIP_BUILD=1    use the binary already in $SCRATCH
#   LOOP=1          install a current-thread MainRunLoop first (as the package-benchmark
#                   suite does for the Binder scenarios); default: none, on the main thread
set -euo pipefail
cd "$(dirname "$0")"

N1=${N1:-1000}
N2=${N2:-101000}
SWIFT_FLAGS=${SWIFT_FLAGS:-}
if [[ -z "${SCRATCH:-}" ]]; then
    if [[ -n "$SWIFT_FLAGS" ]]; then
        SCRATCH=.build-cmo-$(printf '%s' "$SWIFT_FLAGS" | cksum | cut -d' ' -f1)
    else
        SCRATCH=.build
    fi
fi
OUT=${OUT:-$SCRATCH/callgrind${LOOP:+-loop}}

# Swift's per-process random hash seed makes Set/Dictionary work (OpenCombine uses them)
# vary by a few instructions between runs; a fixed seed makes the counts repeatable.
export SWIFT_DETERMINISTIC_HASHING=1

command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind not found (Debian: apt-get install valgrind)" >&2; exit 1; }

# shellcheck disable=SC2086 # SWIFT_FLAGS is a list of words
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    echo "building: swift build -c release --product InstructionCounts --scratch-path $SCRATCH $SWIFT_FLAGS" >&2
    swift build -c release --product InstructionCounts --scratch-path "$SCRATCH" $SWIFT_FLAGS >&2
fi
# shellcheck disable=SC2086
BIN=$(swift build -c release --scratch-path "$SCRATCH" $SWIFT_FLAGS --show-bin-path)/InstructionCounts
mkdir -p "$OUT"

# Total instructions (Ir) of one run of `InstructionCounts <id> <peer> <n>`.
ir() {
    local id=$1 peer=$2 n=$3
    local file="$OUT/$id-$peer-$n.out"
    valgrind --tool=callgrind --callgrind-out-file="$file" "$BIN" "$id" "$peer" "$n" ${LOOP:+--installed-loop} >/dev/null 2>"$file.log" \
        || { cat "$file.log" >&2; return 1; }
    awk '/^(summary|totals):/ { print $2; exit }' "$file"
}

# Instructions per event, rounded to a whole instruction.
per_event() {
    local id=$1 peer=$2 a b
    a=$(ir "$id" "$peer" "$N1")
    b=$(ir "$id" "$peer" "$N2")
    awk -v a="$a" -v b="$b" -v n1="$N1" -v n2="$N2" 'BEGIN { printf "%.0f", (b - a) / (n2 - n1) }'
}

# 12345 -> 12,345
commas() { printf '%s' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|[^0-9]\)/\1,\2\3/;ta'; }

# x / y to two decimals, or "-"
ratio() { if [[ "$1" =~ ^[0-9]+$ && "$2" =~ ^[0-9]+$ && "$2" != 0 ]]; then awk -v x="$1" -v y="$2" 'BEGIN { printf "%.2f×", x / y }'; else printf -- '-'; fi; }

# Whether scenario ($1 id, $2 name) was asked for on the command line.
wanted() {
    local id=$1 name=$2 key
    for key in "${SELECTED[@]}"; do [[ "$key" == "$id" || "$key" == "$name" ]] && return 0; done
    return 1
}
SELECTED=("$@")

echo "swift: $(swift --version 2>/dev/null | head -1)" >&2
echo "flags: ${SWIFT_FLAGS:-(none)}; N1=$N1 N2=$N2; ${LOOP:+installed loop; }callgrind files in $OUT" >&2
echo
echo "| scenario | Bindery instr/event | OpenCombine instr/event | RxSwift 6.10.2 reference | target | met? |"
echo "|---|---:|---:|---:|---:|:---:|"
RATIOS=()
while IFS=$'\t' read -r id name peers rx _oc_quoted target _summary; do
    if [[ ${#SELECTED[@]} -gt 0 ]] && ! wanted "$id" "$name"; then continue; fi
    bindery=- other=- other_cell=-
    IFS=, read -r -a peer_list <<<"$peers"
    for peer in "${peer_list[@]}"; do
        echo "  $id $name $peer ..." >&2
        value=$(per_event "$id" "$peer")
        if [[ "$peer" == Bindery ]]; then
            bindery=$value
        else
            other=$value
            if [[ "$peer" == OpenCombine ]]; then other_cell=$(commas "$value"); else other_cell="$(commas "$value") ($peer)"; fi
        fi
    done
    if [[ "$target" =~ ^[0-9]+$ && "$bindery" =~ ^[0-9]+$ ]]; then
        if (( bindery <= target )); then met=yes; else met=no; fi
    else
        met=-
    fi
    rx_cell=$rx; [[ "$rx" =~ ^[0-9]+$ ]] && rx_cell=$(commas "$rx")
    target_cell=$target; [[ "$target" =~ ^[0-9]+$ ]] && target_cell=$(commas "$target")
    echo "| $id $name | $(commas "$bindery") | $other_cell | $rx_cell | $target_cell | $met |"
    RATIOS+=("| $id $name | $(ratio "$bindery" "$other") | $(ratio "$bindery" "$rx") | $(ratio "$bindery" "$target") |")
done < <("$BIN" --list)

echo
echo "| scenario | Bindery ÷ other peer | Bindery ÷ RxSwift | Bindery ÷ target |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${RATIOS[@]}"
