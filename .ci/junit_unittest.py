"""`python -m unittest discover` that also writes a JUnit XML report (no pytest needed).

usage: junit_unittest.py --xml FILE [-s START] [-p PATTERN] [-t TOP] [-v]

Runs like `python -m unittest discover -s START -p PATTERN -v` (same output, same exit
status) and writes one <testcase> per test to FILE, so .ci/run counts from the XML. A
module that fails to import is a failed test case too (unittest reports it as one).
"""
import argparse
import os
import sys
import time
import unittest
import xml.etree.ElementTree as ET


class RecordingResult(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.records = []  # (test id, seconds, outcome, message)
        self._started = {}

    def startTest(self, test):
        self._started[test.id()] = time.monotonic()
        super().startTest(test)

    def _record(self, test, outcome, message=""):
        started = self._started.pop(test.id(), time.monotonic())
        self.records.append((test.id(), time.monotonic() - started, outcome, message))

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "failure", self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "error", self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, "skipped", reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record(test, "passed")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, "failure", "unexpected success")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            kind = "failure" if issubclass(err[0], test.failureException) else "error"
            message = (self.failures if kind == "failure" else self.errors)[-1][1]
            self.records.append((subtest.id(), 0.0, kind, message))


def write_xml(path, name, records, seconds):
    counts = {k: sum(1 for r in records if r[2] == k) for k in ("failure", "error", "skipped")}
    suite = ET.Element("testsuite", name=name, tests=str(len(records)), failures=str(counts["failure"]),
                       errors=str(counts["error"]), skipped=str(counts["skipped"]), time=f"{seconds:.3f}")
    for test_id, duration, outcome, message in records:
        classname, _, method = test_id.rpartition(".")
        case = ET.SubElement(suite, "testcase", classname=classname, name=method, time=f"{duration:.3f}")
        if outcome != "passed":
            ET.SubElement(case, outcome, message=message.strip().splitlines()[-1][:500] if message else "").text = message
    root = ET.Element("testsuites")
    root.append(suite)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--xml", required=True)
    parser.add_argument("-s", "--start-directory", default=".")
    parser.add_argument("-p", "--pattern", default="test*.py")
    parser.add_argument("-t", "--top-level-directory", default=None)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    # As `python -m unittest`: the working folder first on the path, not this script's.
    sys.path[0] = os.getcwd()
    suite = unittest.defaultTestLoader.discover(args.start_directory, args.pattern, args.top_level_directory)
    runner = unittest.TextTestRunner(verbosity=2 if args.verbose else 1, resultclass=RecordingResult)
    started = time.monotonic()
    result = runner.run(suite)
    write_xml(args.xml, args.start_directory, result.records, time.monotonic() - started)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
