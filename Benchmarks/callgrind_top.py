#!/usr/bin/env python3
"""Where one event's instructions go: per-function Ir per event from callgrind.sh's two runs.

    Benchmarks/callgrind_top.py c Bindery                 # exclusive (self) cost
    Benchmarks/callgrind_top.py c Bindery --inclusive     # inclusive cost
    Benchmarks/callgrind_top.py c Bindery --dir .build-cmo-123/callgrind --top 40

Runs callgrind_annotate on <dir>/<id>-<peer>-<N1>.out and -<N2>.out and prints, for each
function, (Ir(N2) - Ir(N1)) / (N2 - N1): start-up and setup cancel out, as in the table.
Swift symbols are demangled with `swift demangle --simplified` when it is on PATH.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

LINE = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+(.*)$")


def costs(path, inclusive):
    args = ["callgrind_annotate", "--auto=no", "--threshold=100", f"--inclusive={'yes' if inclusive else 'no'}", path]
    text = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    table = {}
    started = False
    for line in text.splitlines():
        if "file:function" in line:
            started = True
            continue
        if not started:
            continue
        match = LINE.match(line)
        if not match:
            continue
        ir = int(match.group(1).replace(",", ""))
        name = match.group(2)
        name = re.sub(r"\s*\[[^\]]*\]\s*$", "", name)  # drop the object file
        name = name.split(":", 1)[1] if ":" in name and not name.startswith("???") else name.replace("???:", "")
        if "PROGRAM TOTALS" in name:
            continue
        table[name] = table.get(name, 0) + ir
    return table


def demangle(names):
    tool = shutil.which("swift-demangle") or shutil.which("swift")
    if not tool:
        return {n: n for n in names}
    args = [tool, "--simplified"] if tool.endswith("swift-demangle") else [tool, "demangle", "--simplified"]
    out = subprocess.run(args, input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
    return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario")
    parser.add_argument("peer")
    parser.add_argument("--dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".build", "callgrind"))
    parser.add_argument("--n1", type=int, default=int(os.environ.get("N1", 1000)))
    parser.add_argument("--n2", type=int, default=int(os.environ.get("N2", 101000)))
    parser.add_argument("--inclusive", action="store_true")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--width", type=int, default=150)
    options = parser.parse_args()

    first = costs(os.path.join(options.dir, f"{options.scenario}-{options.peer}-{options.n1}.out"), options.inclusive)
    second = costs(os.path.join(options.dir, f"{options.scenario}-{options.peer}-{options.n2}.out"), options.inclusive)
    span = options.n2 - options.n1
    per_event = {name: (second.get(name, 0) - first.get(name, 0)) / span for name in set(first) | set(second)}
    total = sum(v for v in per_event.values()) if not options.inclusive else None
    rows = sorted(((v, n) for n, v in per_event.items() if v >= 0.5), reverse=True)[: options.top]
    readable = demangle([n for _, n in rows])
    kind = "inclusive" if options.inclusive else "self"
    print(f"{options.scenario} {options.peer}: {kind} instructions per event (N1={options.n1}, N2={options.n2})")
    if total is not None:
        print(f"{total:10.0f}  total")
    for value, name in rows:
        print(f"{value:10.1f}  {readable.get(name, name)[: options.width]}")


if __name__ == "__main__":
    sys.exit(main())
