"""Browser tests of the example apps: Tests/Browser/harness.py (headless Chromium, waits,
Page) plus a server that is the example's own executable instead of `bindery`."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests/Browser"))

import harness  # noqa: E402  (Bindery's own browser harness)
from harness import WAIT, By, Page, free_port, new_driver, wait_http  # noqa: E402,F401


class ExampleServer:
    """An example's server executable on a free port of 127.0.0.1, serving `public`.

    Until the browser client ships inside the library, the page's directory is laid over a
    copy of the repository's public/ (for /bindery.js)."""

    def __init__(self, executable, public=None):
        self.port = free_port()
        self.tmp = None
        args = [str(executable), "--port", str(self.port)]
        client = ROOT / "public"
        if (client / "bindery.js").exists():
            self.tmp = tempfile.mkdtemp(prefix="bindery-example-")
            shutil.copytree(client, self.tmp, dirs_exist_ok=True)
            if public is not None:
                shutil.copytree(public, self.tmp, dirs_exist_ok=True)
            public = self.tmp
        if public is not None:
            args += ["--public", str(public)]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env={**os.environ, "TZ": "UTC"})
        self.base = f"http://127.0.0.1:{self.port}"
        try:
            wait_http(self.base + "/healthz")
        except Exception:
            self.stop()
            raise

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)


class ExampleCase(unittest.TestCase):
    """One example server and one browser per test class.

    Subclasses set `package` (the example's folder), `product` (its executable) and
    `public` (its page directory, relative to the package, or None)."""

    package = None
    product = None
    public = None

    @classmethod
    def setUpClass(cls):
        # `make test-examples` builds every example into one folder (EXAMPLES_SCRATCH).
        build = os.environ.get("BINDERY_EXAMPLES_BUILD") or cls.package / ".build/debug"
        executable = Path(build) / cls.product
        if harness.webdriver is None:
            raise unittest.SkipTest("selenium is not installed")
        if not os.path.exists(harness.CHROMEDRIVER):
            raise unittest.SkipTest("chromium-driver is not installed")
        if not executable.exists():
            raise unittest.SkipTest(f"no {executable} (swift build in {cls.package} first)")
        cls.server = ExampleServer(executable, cls.package / cls.public if cls.public else None)
        cls.addClassCleanup(cls.server.stop)
        cls.driver = new_driver()
        cls.addClassCleanup(cls.driver.quit)
        cls.page = Page(cls.driver, cls.server.base)
