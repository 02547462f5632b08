"""Browser tests of the example apps: Tests/Browser/harness.py (headless Chromium, waits,
Page) plus a server that is the example's own executable instead of `bindery`."""

import os
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests/Browser"))

import harness  # noqa: E402  (Bindery's own browser harness)
from harness import WAIT, By, Page, free_port, new_driver, wait_http  # noqa: E402,F401


def serious_axe_violations(page):
    """axe-core's serious and critical WCAG 2.1 A/AA violations on the page (harness's
    `Page.axe`): [(rule, impact, [targets])]."""
    script = harness.axe_source()
    if script is None:
        raise unittest.SkipTest("axe-playwright-python (axe-core) is not installed: make test-deps")
    return [v for v in page.axe(script) if v[1] in ("serious", "critical")]


def focus_is_visible(page):
    """Whether the focused element shows a focus indicator (an outline or a box shadow)."""
    return page.js("const s = getComputedStyle(document.activeElement);"
                   "return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none'")


def screenshots(page, name):
    """Saves <name>-desktop.png and <name>-phone.png (390 px wide) where the harness
    keeps screenshots (BINDERY_SCREENSHOT_DIR)."""
    size = page.driver.get_window_size()
    page.screenshot(f"{name}-desktop")
    page.driver.set_window_size(390, 844)
    try:
        page.screenshot(f"{name}-phone")
    finally:
        page.driver.set_window_size(size["width"], size["height"])


class ExampleServer:
    """An example's server executable on a free port of 127.0.0.1 (`--port`), with
    `--public DIR` when the example has a page directory."""

    def __init__(self, executable, public=None):
        self.port = free_port()
        args = [str(executable), "--port", str(self.port)]
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
