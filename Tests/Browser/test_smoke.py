"""Browser smoke test of the browser client (Sources/BinderyServer/Client: bindery.js, scene.html,
index.html) in headless Chromium.

Runs against BINDERY_URL if set (e.g. http://127.0.0.1:8080), else starts
.build/debug/bindery (or .build/release/bindery) on a free port with --public public (the examples, over the client).
Needs Debian's chromium + chromium-driver and Selenium (pip install selenium);
skips when they are missing.

    /tmp/bindery-test-venv/bin/python -m unittest Tests/Browser/test_smoke.py -v
"""

import os
import unittest

from harness import CHROMEDRIVER, CHROMIUM, Server, binary, wait_http, webdriver

try:
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover
    pass


@unittest.skipIf(webdriver is None, "selenium is not installed")
@unittest.skipIf(not os.path.exists(CHROMEDRIVER), "chromium-driver is not installed")
class BrowserSmokeTest(unittest.TestCase):
    server = None

    @classmethod
    def setUpClass(cls):
        cls.base = os.environ.get("BINDERY_URL")
        if not cls.base:
            if binary() is None:
                raise unittest.SkipTest("no bindery binary (swift build first) and no BINDERY_URL")
            cls.server = Server()
            cls.base = cls.server.base
        else:
            wait_http(cls.base + "/", timeout=20)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,900"):
            options.add_argument(arg)
        cls.driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "driver", None):
            cls.driver.quit()
        if cls.server:
            cls.server.stop()

    # -- helpers -------------------------------------------------------------------------

    def until(self, predicate, timeout=5, message=""):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda d: predicate(), message)

    def setUp(self):
        # Each test starts a fresh session: sessionStorage would otherwise resume the last one.
        self.driver.get(self.base + "/")
        self.js("sessionStorage.clear()")

    def open_scene(self, name):
        self.driver.get(f"{self.base}/scene/{name}")
        self.until(lambda: self.js("return document.documentElement.dataset.binderyState") == "connected",
                   message="never connected")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def widget(self, wid):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-widget="{wid}"]')

    def style(self, wid, prop):
        return self.js(f"return getComputedStyle(arguments[0]).{prop}", self.widget(wid))

    def set_slider(self, wid, value):
        self.js("const e = arguments[0]; e.value = arguments[1]; e.dispatchEvent(new Event('input', {bubbles: true}))",
                self.widget(wid), value)

    # -- tests ---------------------------------------------------------------------------

    def test_index_lists_scenes(self):
        self.driver.get(self.base + "/")
        self.until(lambda: self.driver.find_elements(By.CSS_SELECTOR, "a.bd-scene-link"))
        hrefs = [a.get_attribute("href") for a in self.driver.find_elements(By.CSS_SELECTOR, "a.bd-scene-link")]
        self.assertIn(f"{self.base}/scene/colors", hrefs)

    def test_colors_renders_kinds(self):
        self.open_scene("colors")
        kinds = {wid: self.widget(wid).get_attribute("data-kind")
                 for wid in ("picker", "valueLabel", "whiteSlider", "canvas", "resetButton")}
        self.assertEqual(kinds, {"picker": "segmentedControl", "valueLabel": "label", "whiteSlider": "slider",
                                 "canvas": "view", "resetButton": "button"})
        self.assertEqual(self.widget("valueLabel").text, "Red")
        self.assertEqual(self.style("canvas", "backgroundColor"), "rgb(128, 128, 128)")

    def test_colors_segment_slider_reset(self):
        self.open_scene("colors")
        self.widget("picker").find_elements(By.TAG_NAME, "button")[2].click()
        self.until(lambda: self.widget("valueLabel").text == "Blue")
        self.assertEqual(self.style("valueLabel", "color"), "rgb(0, 0, 255)")
        self.set_slider("whiteSlider", "0.25")
        self.until(lambda: self.style("canvas", "backgroundColor") == "rgb(64, 64, 64)")
        self.widget("resetButton").click()
        self.until(lambda: self.style("canvas", "backgroundColor") == "rgb(128, 128, 128)")
        self.until(lambda: self.widget("whiteSlider").get_attribute("value") == "0.5")

    def test_reload_and_dropped_connection_resume_the_session(self):
        self.open_scene("colors")
        token = self.js("return bindery.conn.token")
        self.widget("picker").find_elements(By.TAG_NAME, "button")[1].click()
        self.until(lambda: self.widget("valueLabel").text == "Green")
        self.driver.refresh()  # sessionStorage keeps the token: same session, same state
        self.until(lambda: self.js("return document.documentElement.dataset.binderyState") == "connected")
        self.assertEqual(self.js("return bindery.conn.token"), token)
        self.until(lambda: self.widget("valueLabel").text == "Green")
        # A dropped connection: the page says so, reconnects and resumes. (The states are
        # recorded as they change: "reconnecting" lasts only the first backoff delay.)
        self.js("window.states = []; new MutationObserver(() => states.push(document.documentElement.dataset.binderyState))"
                ".observe(document.documentElement, {attributes: true, attributeFilter: ['data-bindery-state']});"
                "bindery.conn.ws.close()")
        self.until(lambda: self.js("return states.at(-1)") == "connected")
        self.assertEqual(self.js("return states"), ["reconnecting", "connected"])
        self.assertEqual(self.js("return bindery.conn.token"), token)
        self.assertEqual(self.widget("picker").find_element(By.CSS_SELECTOR, '[aria-checked="true"]').text, "Green")

    def test_fast_typing_is_never_overwritten(self):
        self.open_scene("echo")
        field = self.widget("input")
        field.click()
        field.send_keys("the quick brown fox")
        self.until(lambda: self.widget("output").text == "THE QUICK BROWN FOX")
        self.assertEqual(field.get_attribute("value"), "the quick brown fox")
        self.assertEqual(self.js("return arguments[0].selectionStart", field), len("the quick brown fox"))
        self.assertEqual(self.js("return bindery.lastAck === bindery.seq"), True)

    def test_list_rows_arrive_keyed(self):
        self.open_scene("repos")
        self.widget("loadMoreButton").click()
        rows = lambda: self.widget("repoList").find_elements(By.CSS_SELECTOR, "[data-row]")
        self.until(lambda: len(rows()) == 20)
        self.assertEqual(rows()[0].get_attribute("data-row"), "repo-1")
        self.assertEqual(rows()[0].find_element(By.CSS_SELECTOR, '[data-field="name"]').text, "repo-1")
        self.assertEqual(rows()[0].find_element(By.CSS_SELECTOR, '[data-field="author"]').text, "author-1")

    def test_error_is_a_toast_with_its_code(self):
        self.open_scene("colors?dev=1")  # stable codes are shown in developer mode
        self.js("bindery.send('noSuchWidget', 'touchUpInside')")
        toast = self.until(lambda: self.driver.find_elements(By.CSS_SELECTOR, ".bd-toast code"))
        self.assertEqual(toast[0].get_attribute("textContent"), "unknown-target")
        self.assertEqual(self.js("return document.documentElement.dataset.binderyState"), "connected")

    def test_attach_mode_example(self):
        self.driver.get(self.base + "/examples/colors.html")  # attach mode: the page's own markup
        self.until(lambda: self.js("return document.documentElement.dataset.binderyState") == "connected")
        self.widget("picker").find_elements(By.TAG_NAME, "button")[2].click()
        self.until(lambda: self.driver.find_element(By.CSS_SELECTOR, '[data-bind="valueLabel"]').text == "Blue")
        self.js("const e = document.querySelector('input[data-bind=whiteSlider]'); e.value = '1';"
                "e.dispatchEvent(new Event('input', {bubbles: true}))")
        self.until(lambda: self.js("return getComputedStyle(document.querySelector('[data-bind=canvas]')).backgroundColor")
                   == "rgb(255, 255, 255)")
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, 'output[data-bind="whiteSlider"]').text, "1")


if __name__ == "__main__":
    unittest.main()
