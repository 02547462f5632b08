"""CI summary: one row per step from .ci/run's steps.tsv, counts from each step's reports.

usage: results.py OUT_DIR        (prints the table and `ci: N passed, M failed`; exit 1 on any failure)

steps.tsv rows: tier, step, how it is counted, exit status, seconds. Counting:
  xml       every *.xml in OUT_DIR/<step>/ (XCTest xUnit, Swift Testing, JUnit from
            .ci/junit_unittest.py or node): one test per <testcase>; a <failure> or <error>
            fails it, <skipped> skips it. No report at all is a failure.
  xml?      as xml, but a step that wrote no report counts as one test by its exit status.
  exit      one test, passed if the step exited 0.
  setup     not a test: nothing when it exits 0, one failure otherwise.
  cluster   the `test-cluster: OK|FAILED` line of Tests/Cluster/cluster_test.py: one test.
  autobahn  the cases of Autobahn's index.json, judged as ../shared/conformance/summarize.py does.
  skipped   the step did not apply (its make target is absent): no count.
Whatever the counting, a step that exits non-zero is failed, and if its reports showed no
failure it adds one failed test, so every failure printed makes CI red.
"""
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

# As ../shared/conformance/summarize.py judges a case.
AUTOBAHN_PASS = {"OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED"}
AUTOBAHN_CLOSE_PASS = {"OK", "INFORMATIONAL", "UNIMPLEMENTED"}


def xml_counts(directory):
    passed = failed = skipped = 0
    reports = sorted(glob.glob(os.path.join(directory, "**", "*.xml"), recursive=True))
    for path in reports:
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            failed += 1  # a truncated report: the run died while writing it
            continue
        for case in root.iter("testcase"):
            children = {child.tag for child in case}
            if children & {"failure", "error"}:
                failed += 1
            elif "skipped" in children:
                skipped += 1
            else:
                passed += 1
    return reports, passed, failed, skipped


def log_text(directory):
    try:
        with open(os.path.join(directory, "log"), errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def note_for(step, directory, log):
    """A short extra column from the log (information only, never the verdict)."""
    if step.startswith("fuzz-"):
        runs = re.findall(r"stat::number_of_executed_units: (\d+)", log)
        if runs:
            return f"{int(runs[-1]):,} inputs"
    m = re.search(r"test-cluster: \w+, (\d+) invariant checks", log)
    if m:
        return f"{int(m.group(1)):,} invariant checks"
    return ""


def main():
    out = sys.argv[1]
    rows = []
    with open(os.path.join(out, "steps.tsv")) as f:
        for line in f:
            tier, step, how, rc, seconds = line.rstrip("\n").split("\t")
            rows.append((tier, step, how, int(rc), int(seconds)))

    total_passed = total_failed = 0
    any_failed = False
    table = []
    tier_seconds = {}
    for tier, step, how, rc, seconds in rows:
        directory = os.path.join(out, step)
        log = log_text(directory)
        passed = failed = skipped = 0
        note = ""
        if how == "skipped":
            verdict = "skip"
            note = "not run (its make target is absent)"
        else:
            if how in ("xml", "xml?"):
                reports, passed, failed, skipped = xml_counts(directory)
                if not reports:
                    if how == "xml":
                        failed, note = 1, "no report written"
                    else:
                        passed, failed = (1, 0) if rc == 0 else (0, 1)
                        note = "no report: counted by exit status"
            elif how == "exit":
                passed, failed = (1, 0) if rc == 0 else (0, 1)
            elif how == "setup":
                failed = 0 if rc == 0 else 1
            elif how == "cluster":
                verdicts = re.findall(r"^test-cluster: (OK|FAILED)", log, re.M)
                passed = sum(v == "OK" for v in verdicts)
                failed = sum(v == "FAILED" for v in verdicts)
            elif how == "autobahn":
                index = os.path.join(directory, "report", "index.json")
                try:
                    with open(index) as f:
                        cases = [case for agent in json.load(f).values() for case in agent.values()]
                    failed = sum(case.get("behavior") not in AUTOBAHN_PASS
                                 or case.get("behaviorClose") not in AUTOBAHN_CLOSE_PASS for case in cases)
                    passed = len(cases) - failed
                except (OSError, ValueError):
                    note = "no index.json"
            if rc != 0 and failed == 0:
                failed = 1  # the step failed in a way its reports do not show (a build, a crash)
            verdict = "FAIL" if failed else "ok"
            note = note or note_for(step, directory, log)
            if rc != 0:
                note = (note + "; " if note else "") + f"exit {rc}"
        any_failed |= verdict == "FAIL"
        total_passed += passed
        total_failed += failed
        tier_seconds[tier] = tier_seconds.get(tier, 0) + seconds
        table.append((tier, step, verdict, passed, failed, skipped, seconds, note))

    header = ("tier", "step", "result", "passed", "failed", "skipped", "time", "note")
    cells = [header] + [(t, s, v, str(p), str(f), str(k), f"{sec // 60}:{sec % 60:02d}", n)
                        for t, s, v, p, f, k, sec, n in table]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header) - 1)]
    print()
    for row in cells:
        print("  ".join(cell.ljust(widths[i]) if i < len(widths) else cell for i, cell in enumerate(row)).rstrip())
    print("tiers: " + ", ".join(f"{tier} {sec // 60}:{sec % 60:02d}" for tier, sec in tier_seconds.items()))
    print(f"ci: {total_passed} passed, {total_failed} failed")
    sys.exit(1 if any_failed or total_failed or total_passed == 0 else 0)


if __name__ == "__main__":
    main()
