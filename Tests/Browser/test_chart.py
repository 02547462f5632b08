"""The `chart` scene driven as a person would: watch the live chart grow (points in the
SVG over time, a frame-batched redraw), open its data table (rows = points, and they
keep in step while it streams), pause it (the SVG, the table and the server agree), cast
votes (the bars grow, their labels and the table follow), narrow the window (the chart
follows its container). axe-core: no serious or critical violation in either theme.
Saves screenshots to $BINDERY_SCREENSHOT_DIR (/tmp/bindery-screenshots): chart-desktop,
chart-phone, chart-dark."""

import json
import re
import time
import unittest

from harness import BrowserCase, By, axe_source, new_driver, Page, PAGES, SCREENSHOTS

try:
    from selenium.webdriver.common.action_chains import ActionChains
except ImportError:  # the harness skips the class
    ActionChains = None

AXE = axe_source()


class ChartTests(BrowserCase):
    def open(self):
        self.page.open_scene("chart")
        self.page.until(lambda: self.line_points("loadChart", "cpu") > 0, message="the live chart never drew")

    def line_points(self, chart, series):
        """Points the SVG path of a line series goes through (its M and L commands)."""
        d = self.page.js(
            "const p = arguments[0].querySelector(`g[data-series='${arguments[1]}'] path.bd-chart-line`);"
            "return p ? p.getAttribute('d') : ''", self.page.widget(chart), series)
        return len(re.findall(r"[ML]", d or ""))

    def table_rows(self, chart):
        return self.page.js("return [...arguments[0].querySelectorAll('.bd-chart-table tbody tr')]"
                            ".map(r => [...r.children].map(c => c.textContent))", self.page.widget(chart))

    def open_table(self, chart):
        summary = self.page.widget(chart).find_element(By.CSS_SELECTOR, ".bd-chart-data > summary")
        summary.click()
        self.page.until(lambda: len(self.table_rows(chart)) > 0, message="the data table stayed empty")

    def bar_heights(self):
        return self.page.js("return Object.fromEntries([...arguments[0].querySelectorAll('rect.bd-chart-bar')]"
                            ".map(r => [r.dataset.key, +r.getAttribute('height')]))", self.page.widget("votesChart"))

    def token(self):
        return self.page.js("return Object.entries(sessionStorage).find(([k]) => k.includes('chart'))?.[1]")

    def test_the_live_chart_grows_and_its_table_keeps_in_step(self):
        p = self.page
        self.open()
        svg = p.widget("loadChart").find_element(By.CSS_SELECTOR, "svg")
        self.assertEqual(svg.get_attribute("role"), "img")
        start = self.line_points("loadChart", "cpu")
        self.assertGreaterEqual(start, 10, "the scene opens with 10 samples of history")
        # A point every 500 ms: watch it grow by three, in order, redrawn as it goes.
        seen = {start}
        p.until(lambda: seen.add(self.line_points("loadChart", "cpu")) or max(seen) >= start + 3, message="the chart did not grow")
        self.assertGreater(len(seen), 2, f"it grew step by step, not at once: {sorted(seen)}")
        label = svg.get_attribute("aria-label")
        self.assertTrue(label.startswith("Server load. CPU: line, "), label)
        self.assertIn("latest", label)
        self.assertEqual(self.line_points("loadChart", "memory"), self.line_points("loadChart", "cpu"))
        # The data table: one row per sample (time, CPU, memory), in step while it streams.
        self.open_table("loadChart")
        head = p.js("return [...arguments[0].querySelectorAll('.bd-chart-table thead th')].map(c => c.textContent)", p.widget("loadChart"))
        self.assertEqual(head, ["Time", "CPU", "Memory"])
        before = len(self.table_rows("loadChart"))
        p.until(lambda: len(self.table_rows("loadChart")) > before, message="the open table did not follow the stream")
        first = self.table_rows("loadChart")[0]
        self.assertRegex(first[0], r"^\d\d:\d\d:\d\d$")
        self.assertRegex(first[1], r"^\d+(\.\d)?%$")

        # Pause: the stream stops; the SVG, the table and the server hold the same points.
        p.widget("pauseButton").click()
        p.until(lambda: p.text("statusLabel") == "Paused")
        p.until(lambda: p.widget("pauseButton").text == "Resume")
        server = [pt for pt in self.server_props(self.token(), "loadChart")["points"] if pt["series"] == "cpu"]
        p.until(lambda: self.line_points("loadChart", "cpu") == len(server), message="the SVG did not settle on the server's points")
        self.assertEqual(len(self.table_rows("loadChart")), len(server))
        held = self.line_points("loadChart", "cpu")
        time.sleep(1.2)
        self.assertEqual(self.line_points("loadChart", "cpu"), held, "nothing streams while paused")
        p.widget("pauseButton").click()
        p.until(lambda: self.line_points("loadChart", "cpu") > held or held >= 40, message="Resume did not restart the stream")

    def test_votes_grow_the_bars_and_the_table_follows(self):
        p = self.page
        self.open()
        self.assertEqual(self.bar_heights(), {"votes/Apples": 0, "votes/Pears": 0, "votes/Plums": 0})
        for _ in range(3):
            p.widget("pearsButton").click()
        p.widget("plumsButton").click()
        p.until(lambda: p.settled() and self.bar_heights()["votes/Pears"] > 0)
        p.until(lambda: "Pears 3" in p.widget("votesChart").find_element(By.CSS_SELECTOR, "svg").get_attribute("aria-label"))
        heights = self.bar_heights()
        self.assertEqual(heights["votes/Apples"], 0)
        self.assertAlmostEqual(heights["votes/Pears"] / heights["votes/Plums"], 3, delta=0.05)
        values = p.js("return [...arguments[0].querySelectorAll('.bd-chart-value')].map(t => t.textContent)", p.widget("votesChart"))
        self.assertEqual(values, ["0", "3", "1"])
        self.open_table("votesChart")
        self.assertEqual(self.table_rows("votesChart"), [["Apples", "0"], ["Pears", "3"], ["Plums", "1"]])
        p.widget("resetButton").click()
        p.until(lambda: self.table_rows("votesChart") == [["Apples", "0"], ["Pears", "0"], ["Plums", "0"]])
        self.assertEqual(set(self.bar_heights().values()), {0})

    def test_the_scatter_and_the_legend(self):
        p = self.page
        self.open()
        dots = lambda: len(p.widget("latencyChart").find_elements(By.CSS_SELECTOR, "circle.bd-chart-dot"))
        start = dots()
        self.assertGreaterEqual(start, 10)
        p.until(lambda: dots() > start, message="the scatter did not fill")
        legend = [e.text for e in p.widget("loadChart").find_elements(By.CSS_SELECTOR, ".bd-chart-legend li")]
        self.assertEqual(legend, ["CPU", "Memory"])
        self.assertFalse(p.widget("votesChart").find_element(By.CSS_SELECTOR, ".bd-chart-legend").is_displayed(),
                         "showsLegend = false hides it")
        # Each series its own theme colour.
        colours = p.js("return [...arguments[0].querySelectorAll('g.bd-chart-series')].map(g => getComputedStyle(g).color)", p.widget("loadChart"))
        self.assertEqual(len(set(colours)), 2, colours)

    def test_a_pointer_over_a_bar_shows_its_value(self):
        p = self.page
        self.open()
        p.widget("pearsButton").click()
        p.until(lambda: self.bar_heights()["votes/Pears"] > 0)
        bar = p.widget("votesChart").find_element(By.CSS_SELECTOR, 'rect[data-key="votes/Pears"]')
        ActionChains(self.driver).move_to_element(bar).perform()
        tip = p.widget("votesChart").find_element(By.CSS_SELECTOR, ".bd-chart-tip")
        p.until(lambda: tip.is_displayed(), message="no tip on hover")
        self.assertEqual(tip.text.split("\n"), ["Pears", "Votes", "1"])
        self.assertEqual(tip.get_attribute("aria-hidden"), "true", "the data table is the accessible way to the values")
        ActionChains(self.driver).move_to_element(p.widget("pauseButton")).perform()
        p.until(lambda: not tip.is_displayed(), message="the tip stayed after the pointer left")

    def test_a_full_window_scrolls_smoothly(self):
        p = self.page
        self.open()
        p.until(lambda: self.line_points("loadChart", "cpu") == 40, timeout=60, message="the window never filled")
        shifts = set()
        for _ in range(40):
            shifts.add(p.js("return new DOMMatrix(getComputedStyle(arguments[0].querySelector('.bd-chart-slide')).transform).e",
                            p.widget("loadChart")))
            time.sleep(0.03)
        moving = [x for x in shifts if x > 0.5]
        self.assertGreaterEqual(len(moving), 3, f"each new sample slides the line in, not a jump: {sorted(shifts)}")
        self.assertEqual(self.line_points("loadChart", "cpu"), 40, "the window holds 40 points")

    def test_it_follows_its_containers_width(self):
        driver = new_driver(390, 900)
        try:
            page = Page(driver, self.page.base)
            page.open_scene("chart")
            width = lambda: int(page.js("return document.querySelector('[data-widget=loadChart] svg').getAttribute('width') ?? 0"))
            plot = lambda: page.js("return document.querySelector('[data-widget=loadChart] .bd-chart-plot').clientWidth")
            page.until(lambda: width() > 0)
            narrow = width()
            self.assertLess(narrow, 520)  # (headless Chromium's narrowest window is about 500 px)
            self.assertAlmostEqual(narrow, plot(), delta=1, msg="drawn at its container's width")
            driver.set_window_size(1200, 900)
            page.until(lambda: width() > 600, message="the chart did not widen with the window")
            self.assertAlmostEqual(width(), plot(), delta=1)
            overflow = page.js("return document.documentElement.scrollWidth > document.documentElement.clientWidth")
            self.assertFalse(overflow, "no sideways scrolling")
        finally:
            driver.quit()

    def test_tick_formats(self):
        self.open()
        got = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/bindery/renderers/chartView.js').then(({ formatValue: f }) => done([
              f(0.42, 'percent', 0.2), f(0.425, 'percent'), f(12.6, 'integer'), f(3.14159, 'decimal:2'),
              f(15300, 'auto'), f(2500000, 'auto'), f(0.25, 'auto', 0.05), f(12, 'auto', 2), f(null, 'auto'),
              f('Mon', 'percent'), f(new Date(2024, 4, 1, 14, 5, 30).getTime() / 1000, 'time')]));""")
        self.assertEqual(got, ["42%", "42.5%", "13", "3.14", "15.3k", "2.5M", "0.25", "12", "–", "Mon", "14:05:30"])

    @unittest.skipIf(AXE is None, "axe-core is not installed (make test-deps)")
    def test_axe_light_and_dark_with_the_tables_open(self):
        p = self.page
        self.open()
        self.open_table("loadChart")
        self.open_table("votesChart")
        for theme in ("light", "dark"):
            with self.subTest(theme=theme):
                p.js("document.documentElement.dataset.theme = arguments[0]", theme)
                time.sleep(0.5)  # buttons fade to the theme's colours (CSS transitions)
                bad = [v for v in p.axe(AXE) if v[1] in ("serious", "critical")]
                self.assertEqual(bad, [], f"axe on chart ({theme}): {json.dumps(bad)}")

    def test_screenshots(self):
        for width, suffix, theme in ((1280, "desktop", "light"), (390, "phone", "light"), (1280, "dark", "dark")):
            driver = new_driver(width, 1100)
            try:
                page = Page(driver, self.page.base)
                page.open_scene("chart")
                page.js("document.documentElement.dataset.theme = arguments[0]", theme)
                for _ in range(2):
                    page.widget("pearsButton").click()
                page.widget("applesButton").click()
                page.until(lambda: page.settled())
                time.sleep(2.5)  # a few more samples
                page.screenshot(f"chart-{suffix}")
                self.assertTrue((SCREENSHOTS / f"chart-{suffix}.png").exists())
            finally:
                driver.quit()


class ChartAttachTests(BrowserCase):
    """Attach mode: the page's own element becomes the chart and keeps the page's name."""

    server_options = {"extra_pages": [PAGES / "chart-attach.html"]}

    def test_a_pages_element_becomes_the_chart(self):
        p = self.page
        p.fresh()
        self.driver.get(p.base + "/chart-attach.html")
        p.wait_connected()
        chart = self.driver.find_element(By.CSS_SELECTOR, "section.panel")
        p.until(lambda: len(chart.find_elements(By.CSS_SELECTOR, "rect.bd-chart-bar")) == 3, message="no bars in the page's element")
        self.assertEqual(chart.get_attribute("aria-labelledby"), "heading", "the page's name is kept")
        self.assertIsNone(chart.get_attribute("aria-label"))
        self.driver.find_element(By.CSS_SELECTOR, "button[data-bind=plumsButton]").click()
        p.until(lambda: "Plums 1" in chart.find_element(By.CSS_SELECTOR, "svg").get_attribute("aria-label"))


if __name__ == "__main__":
    unittest.main()
