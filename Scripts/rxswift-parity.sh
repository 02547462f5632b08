#!/usr/bin/env bash
# The RxSwift parity measure of issue 15: RxSwift 6's own Tests/RxSwiftTests compiled against
# Bindery's RxCore, RxTesting (and RxBlocking when Bindery has it) with only import lines
# changed, run as on Linux, plus a -DTRACE_RESOURCES build for the resource-leak checks.
#
#   Scripts/rxswift-parity.sh [RXSWIFT_TESTS_DIR] [BINDERY_DIR] [-- extra options]
#
# RXSWIFT_TESTS_DIR (default /tmp/rxswift-tests) holds RxSwift's test sources as laid out in
# RxSwift's repository (Tests/RxSwiftTests/**, the shared helpers in Tests/*.swift, Platform/);
# they are never copied into this repository. BINDERY_DIR defaults to this checkout.
# The throwaway SwiftPM package is built in RXMEASURE_PKG (default /tmp/rxmeasure-pkg), which
# keeps its build folders between runs. No network is needed once Bindery's own dependencies
# (none today) are resolved.
#
# What is rewritten, how tests are counted, which internal-test files are left out and why:
# see the header of Scripts/rxswift_parity.py and docs/RxSwiftParity.md.
#
# Extra options (after the two paths): --json FILE (all results), --markdown FILE (report by
# owner), --label TEXT (what was measured), --no-trace (skip the
# TRACE_RESOURCES build), --no-run (compile only).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tests="${1:-/tmp/rxswift-tests}"
bindery="${2:-$(cd "$here/.." && pwd)}"
shift $(( $# >= 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
exec python3 "$here/rxswift_parity.py" --tests "$tests" --bindery "$bindery" \
    --pkg "${RXMEASURE_PKG:-/tmp/rxmeasure-pkg}" "$@"
