"""Shared pieces of the browser suite: the real `bindery` binary, a latency/cut proxy,
headless Chromium through Selenium, and explicit waits.

Everything listens on 127.0.0.1. Each test class starts what it needs in setUpClass
and stops it in tearDownClass (addClassCleanup), so a failing test leaves nothing behind.
"""

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Python"))
from bindery_client import Bindery, free_port, wait_http  # noqa: E402,F401  (wait_http: for Examples/)

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover
    webdriver = None
    By = None

ROOT = Path(__file__).resolve().parents[2]
PAGES = Path(__file__).resolve().parent / "pages"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Tests keep their screenshots out of the tree (docs/screenshots is made by screenshots.py).
SCREENSHOTS = Path(os.environ.get("BINDERY_SCREENSHOT_DIR", "/tmp/bindery-screenshots"))
DOC_SCREENSHOTS = ROOT / "docs/screenshots"
# Waits are generous: CI is a loaded 2-core machine. They end as soon as the condition holds.
WAIT = float(os.environ.get("BINDERY_BROWSER_WAIT", "20"))


def binary():
    return next((p for p in (ROOT / ".build/debug/bindery", ROOT / ".build/release/bindery") if p.exists()), None)


def axe_source():
    """axe-core's axe.min.js as shipped in PyPI's axe-playwright-python wheel (installed with
    --no-deps by `make test-deps`), or None."""
    try:
        import axe_playwright_python
    except ImportError:
        return None
    path = Path(axe_playwright_python.__file__).parent / "axe.min.js"
    return path.read_text() if path.exists() else None


def skip_reason():
    if webdriver is None:
        return "selenium is not installed"
    if not os.path.exists(CHROMEDRIVER):
        return "chromium-driver is not installed"
    if binary() is None:
        return "no bindery binary (swift build first)"
    return None


class Server(Bindery):
    """The real bindery binary on a free port of 127.0.0.1.

    `public`: the app's directory, served over the browser client the binary carries
    (default public/, the examples); `extra_pages`: files copied, next to public/'s own,
    into a temporary public directory (attach-mode pages written by tests).
    """

    def __init__(self, public=None, extra_pages=(), grace=None, env=None, port=None):
        self.tmp = None
        # BINDERY_PUBLIC: files served over the client (e.g. a deliberately broken bindery.js).
        public = Path(public or os.environ.get("BINDERY_PUBLIC") or ROOT / "public")
        if extra_pages:
            self.tmp = tempfile.mkdtemp(prefix="bindery-public-")
            shutil.copytree(public, self.tmp, dirs_exist_ok=True)
            for page in extra_pages:
                shutil.copy(page, Path(self.tmp) / Path(page).name)
            public = Path(self.tmp)
        args = ["--public", str(public)] + ([] if grace is None else ["--grace", str(grace)])
        super().__init__(binary(), *args, port=port or free_port(), env={**os.environ, "TZ": "UTC", **(env or {})},
                         output=subprocess.DEVNULL, timeout=30)

    def sigterm(self, timeout=10):
        """A normal stop: SIGTERM, then wait for the process to exit."""
        self.process.terminate()
        self.process.wait(timeout)

    def stop(self):
        super().stop()
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)


class Proxy:
    """A TCP proxy on 127.0.0.1 between the browser and bindery, on its own asyncio thread.

    Bytes are forwarded unchanged (HTTP and WebSocket alike) after `delay_ms` in each
    direction: every chunk is stamped when read and written once its time comes, so the
    delay does not add up and order is kept. `cut()` aborts every connection (both sides,
    as a dying network or server would); `pause()` stops accepting (connections are
    refused) until `resume()`, on the same port.
    """

    def __init__(self, upstream_port, delay_ms=0):
        self.upstream_port = upstream_port
        self.delay = delay_ms / 1000
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.loop = asyncio.new_event_loop()
        self.server = None
        self.writers = set()
        self.accepted = 0
        self.downstream_open = None  # an asyncio.Event, made on the proxy's loop
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="bindery-test-proxy")
        self.thread.start()
        self.call(self._listen())

    def call(self, coro, timeout=10):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _listen(self):
        if self.downstream_open is None:
            self.downstream_open = asyncio.Event()
            self.downstream_open.set()
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", self.port, reuse_address=True)

    async def _handle(self, client_reader, client_writer):
        self.accepted += 1
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            client_writer.transport.abort()
            return
        self.writers |= {client_writer, up_writer}

        async def pump(reader, writer, downstream):
            queue = asyncio.Queue()

            async def deliver():
                while True:
                    due, data = await queue.get()
                    if data is None:
                        break
                    wait = due - self.loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    if downstream:
                        await self.downstream_open.wait()
                    writer.write(data)
                    await writer.drain()
                if writer.can_write_eof():
                    writer.write_eof()

            sender = asyncio.ensure_future(deliver())
            try:
                while True:
                    data = await reader.read(65536)
                    queue.put_nowait((self.loop.time() + self.delay, data or None))
                    if not data:
                        break
                await sender
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                sender.cancel()

        try:
            await asyncio.gather(pump(client_reader, up_writer, False), pump(up_reader, client_writer, True))
        except (Exception, asyncio.CancelledError):  # a cut or the proxy's shutdown: just end
            pass
        finally:
            for w in (client_writer, up_writer):
                self.writers.discard(w)
                w.transport.abort()

    async def _cut(self):
        for w in list(self.writers):
            w.transport.abort()
        self.writers.clear()

    async def _pause(self):
        self.server.close()
        await self.server.wait_closed()

    def cut(self):
        """Aborts every open connection (TCP reset both ways)."""
        self.call(self._cut())

    def pause(self):
        """Stops accepting: new connections are refused until resume()."""
        self.call(self._pause())

    def resume(self):
        self.call(self._listen())

    def hold_downstream(self):
        """Holds every byte from the server to the browser (in order) until release_downstream()."""
        self.loop.call_soon_threadsafe(self.downstream_open.clear)

    def release_downstream(self):
        self.loop.call_soon_threadsafe(self.downstream_open.set)

    def set_delay(self, delay_ms):
        self.delay = delay_ms / 1000

    async def _shutdown(self):
        await self._cut()
        if self.server.is_serving():
            await self._pause()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def stop(self):
        self.release_downstream()
        try:
            self.call(self._shutdown())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            if not self.thread.is_alive():
                self.loop.close()


def new_driver(width=1100, height=900):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_script_timeout(30)
    driver.set_page_load_timeout(60)
    return driver


class Page:
    """One browser window on a Bindery page, with the waits and look-ups the tests use."""

    def __init__(self, driver, base):
        self.driver = driver
        self.base = base

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def until(self, predicate, timeout=WAIT, message=""):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda d: predicate(), message)

    def state(self):
        return self.js("return document.documentElement.dataset.binderyState")

    def fresh(self):
        """Forgets stored session tokens, so the next scene page starts a new session."""
        self.driver.get(self.base + "/healthz")
        self.js("sessionStorage.clear()")

    def open_scene(self, name, fresh=True):
        if fresh:
            self.fresh()
        self.driver.get(f"{self.base}/scene/{name}")
        self.wait_connected()

    def wait_connected(self, timeout=WAIT):
        self.until(lambda: self.state() == "connected", timeout, message="never connected")

    def widget(self, wid):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-widget="{wid}"]')

    def bound(self, wid, extra=""):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-bind="{wid}"]{extra}')

    def style(self, el, prop):
        return self.js(f"return getComputedStyle(arguments[0]).{prop}", el)

    def text(self, wid):
        return self.widget(wid).text

    def rows(self, wid):
        return self.js("return [...arguments[0].querySelectorAll('[data-row]')].map(r => r.dataset.row)", self.widget(wid))

    def settled(self):
        """Every event sent has been answered."""
        return self.js("return bindery.lastAck === bindery.seq && !bindery.resyncing")

    def track_states(self):
        """Records every change of the connection state from now on (window.states), and
        what the status element said then (window.statusTexts)."""
        self.js("window.states = []; window.statusTexts = [];"
                "new MutationObserver(() => { states.push(document.documentElement.dataset.binderyState);"
                "  statusTexts.push(document.querySelector('[data-bindery-status]')?.textContent ?? null); })"
                ".observe(document.documentElement, {attributes: true, attributeFilter: ['data-bindery-state']})")

    def axe(self, axe_js):
        """axe-core's WCAG 2.1 A/AA violations on the current page: [(id, impact, [targets])]."""
        self.js(axe_js)
        result = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
            "  .then((r) => done(r.violations.map((v) => [v.id, v.impact, v.nodes.map((n) => n.target.join(' '))])))"
            "  .catch((e) => done(String(e)))")
        if isinstance(result, str):
            raise AssertionError(f"axe failed: {result}")
        return result

    def screenshot(self, name):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def rgb(color):
    """'#rrggbbaa' → the computed style form 'rgb(r, g, b)'."""
    n = int(color[1:7], 16)
    return f"rgb({n >> 16}, {(n >> 8) & 255}, {n & 255})"


def grey(v):
    c = round(v * 255)
    return f"rgb({c}, {c}, {c})"


class BrowserCase(unittest.TestCase):
    """A test class with one bindery server (optionally behind a proxy) and one browser."""

    proxy_delay_ms = None  # a number: the page talks to the server through a Proxy
    server_options = {}

    @classmethod
    def setUpClass(cls):
        reason = skip_reason()
        if reason:
            raise unittest.SkipTest(reason)
        cls.server = Server(**cls.server_options)
        cls.addClassCleanup(cls.server.stop)
        cls.proxy = None
        base = cls.server.base
        if cls.proxy_delay_ms is not None:
            cls.proxy = Proxy(cls.server.port, cls.proxy_delay_ms)
            cls.addClassCleanup(cls.proxy.stop)
            base = cls.proxy.base
        cls.driver = new_driver()
        cls.addClassCleanup(cls.driver.quit)
        cls.page = Page(cls.driver, base)

    def api(self, path):
        """GET on the server itself (not through the proxy), JSON."""
        import json
        with urllib.request.urlopen(self.server.base + path, timeout=10) as r:
            return json.load(r)

    def server_props(self, token, wid):
        scene = self.api(f"/api/sessions/{token}")
        return next(w["props"] for w in scene["widgets"] if w["id"] == wid)
