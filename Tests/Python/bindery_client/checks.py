"""Counted checks for the scripts that print "OK <n> checks"."""


class Checks:
    def __init__(self):
        self.count = 0

    def __call__(self, condition, what):
        """Counts a passed check; raises AssertionError with `what` for a failed one."""
        if not condition:
            raise AssertionError(what)
        self.count += 1
