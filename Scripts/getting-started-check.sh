#!/usr/bin/env bash
# Runs docs/GettingStarted.md as a new user would, from an empty temporary folder:
# writes every file the guide shows (its ```lang file=PATH blocks), points the package at
# this checkout instead of the URL (no network), builds, starts the server as the guide
# does, fetches the page, the browser client and /api/scenes, stops it with SIGTERM, and
# runs the guide's test. Exits non-zero at the first step that fails.
#
#     Scripts/getting-started-check.sh [--keep]     (--keep leaves the folder for a look)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOC="$ROOT/docs/GettingStarted.md"
SWIFT=${SWIFT:-swift}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bindery-getting-started.XXXXXX")
APP="$WORK/Hello"
server=""
cleanup() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -TERM "$server"; wait "$server" || true; fi
    if [ "${1:-}" != "--keep" ]; then rm -rf "$WORK"; else echo "getting-started: left $WORK"; fi
}
trap 'cleanup "${KEEP:-}"' EXIT
[ "${1:-}" = "--keep" ] && KEEP=--keep
step() { echo "getting-started: $*"; }
# A check that must hold: `expect WHAT COMMAND...` says WHAT when COMMAND succeeds and stops
# the run with a failure when it does not. (`cmd | grep -q x && step ...` would not: a
# failing left side of `&&` does not stop a `set -e` script, so the check was skipped.)
expect() {
    local what=$1; shift
    if "$@"; then step "$what"; return; fi
    echo "getting-started: FAILED: $what" >&2
    if [ -s "$WORK/server.log" ]; then echo "getting-started: server log:" >&2; cat "$WORK/server.log" >&2; fi
    exit 1
}

# 1. The files, exactly as the guide shows them.
mkdir -p "$APP"
python3 - "$DOC" "$APP" <<'PY'
import pathlib, re, sys
doc, app = pathlib.Path(sys.argv[1]).read_text(), pathlib.Path(sys.argv[2])
blocks = re.findall(r"^```\w+ file=(\S+)\n(.*?)^```$", doc, re.S | re.M)
if not blocks:
    sys.exit("no ```lang file=PATH blocks in the guide")
for path, text in blocks:
    target = app / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    print(f"getting-started: wrote {path}")
PY

# 2. Bindery from this checkout: the guide's `.package(url: ...)` line becomes a path.
grep -q '\.package(url: ' "$APP/Package.swift" || { echo "getting-started: no .package(url:) line in Package.swift" >&2; exit 1; }
sed -i -E "s|\.package\(url: [^)]*\)|.package(name: \"bindery\", path: \"$ROOT\")|" "$APP/Package.swift"
step "Package.swift depends on $ROOT"

# 3. Build, then start it as the guide says (swift run), on a free port.
# GETTING_STARTED_SCRATCH: a build folder to share (make test-examples passes the examples'
# one, so Bindery is not compiled again); by default the package's own .build.
cd "$APP"
if [ -n "${GETTING_STARTED_SCRATCH:-}" ]; then scratch=(--scratch-path "$GETTING_STARTED_SCRATCH"); else scratch=(); fi
step "swift build"
$SWIFT build "${scratch[@]}"
# The standard command line the guide mentions.
# Output is read whole before it is searched: `cmd | grep -q` stops reading at the first
# match, and under pipefail the writer's SIGPIPE then fails a check that passed.
output_has() { local text; text=$("${@:2}") || return 1; grep -qi -- "$1" <<< "$text"; }
help_lists_port() { output_has "--port" $SWIFT run --skip-build "${scratch[@]}" Hello --help; }
version_is() { output_has "$1" $SWIFT run --skip-build "${scratch[@]}" Hello --version; }
expect "Hello --help lists --port" help_lists_port
expect "Hello --version says 0.1.0" version_is "0.1.0"
if $SWIFT run --skip-build "${scratch[@]}" Hello --bogus > /dev/null 2>&1; then
    echo "getting-started: Hello --bogus was accepted" >&2; exit 1
fi
step "Hello --bogus is refused"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
step "swift run Hello --port $PORT"
$SWIFT run --skip-build "${scratch[@]}" Hello --port "$PORT" > "$WORK/server.log" 2>&1 &
server=$!
base="http://127.0.0.1:$PORT"
for _ in $(seq 100); do curl -sf "$base/healthz" > /dev/null && break; sleep 0.1; done

# 4. What the guide says you will see.
fetch() { curl -sf --max-time 10 "$base$1" || { echo "getting-started: GET $1 failed" >&2; return 1; }; }
# (A file the guide shows twice is written as it last shows it: main.swift serves both scenes.)
lists_scenes() { fetch /api/scenes | python3 -c 'import json, sys; names = [s["name"] for s in json.load(sys.stdin)]; assert {"hello", "groceries"} <= set(names), names'; }
is_page() { output_has '<html' fetch /scene/hello; }
is_groceries_page() { output_has '<html' fetch /scene/groceries; }
is_client() { output_has 'export function attach' fetch /bindery.js; }
expect "/api/scenes lists hello and groceries" lists_scenes
expect "/scene/hello is a page" is_page
expect "/scene/groceries is a page" is_groceries_page
expect "/bindery.js is the browser client (served from the library)" is_client

# 5. Stop it as Ctrl-C would; it exits by itself, with status 0.
kill -TERM "$server"
wait "$server" && status=0 || status=$?
server=""
[ "$status" = 0 ] || { echo "getting-started: the server exited with $status; log:" >&2; cat "$WORK/server.log" >&2; exit 1; }
step "stopped cleanly"

# 6. The guide's test.
step "swift test"
$SWIFT test "${scratch[@]}" 2>&1 | tee "$WORK/test.log" | grep -E "error|Executed|failed" || true
# Every test the guide shows ran and passed (not only: nothing failed).
for test in $(grep -rhoE 'func test[A-Za-z0-9_]+' Tests | sed 's/func //'); do
    grep -qE "$test' passed|$test\(\)' passed|$test passed" "$WORK/test.log" \
        || { echo "getting-started: the guide's test $test did not pass" >&2; tail -30 "$WORK/test.log" >&2; exit 1; }
done
grep -q "with 0 failures" "$WORK/test.log" && ! grep -q "error:" "$WORK/test.log" \
    || { echo "getting-started: swift test failed" >&2; tail -30 "$WORK/test.log" >&2; exit 1; }
step "OK"
