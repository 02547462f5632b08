"""Two browser windows on the shared `board` scene, and the attach mode: a hand-written
page (Tests/Browser/pages/colors-attach.html, its own markup and data-bind attributes)
served by bindery as a front end for `colors`.
"""

import unittest

from harness import PAGES, BrowserCase, By, Page, grey, new_driver, rgb
from test_scenes import drag_slider

try:
    from selenium.webdriver.support.ui import Select
except ImportError:  # pragma: no cover
    pass


class BoardTwoWindowsTests(BrowserCase):

    def test_two_windows_see_each_others_slider_and_the_viewer_count(self):
        a = self.page
        a.open_scene("board")
        a.until(lambda: a.text("viewers") == "1 online")
        driver_b = new_driver()
        self.addCleanup(driver_b.quit)
        b = Page(driver_b, self.page.base)
        b.open_scene("board")
        for p in (a, b):
            p.until(lambda: p.text("viewers") == "2 online", message="the count never reached 2")
        self.assertNotEqual(a.js("return bindery.conn.token"), b.js("return bindery.conn.token"))
        value_of = lambda p: p.js("return arguments[0].valueAsNumber", p.widget("sharedSlider"))
        self.assertEqual(value_of(a), value_of(b))

        drag_slider(a.driver, a.widget("sharedSlider"), 0.15)
        a.until(a.settled)
        moved = value_of(a)
        self.assertLess(moved, 0.35)
        b.until(lambda: value_of(b) == moved, message="B never saw A's move")
        self.assertEqual(b.driver.find_element(By.CSS_SELECTOR, ".bd-readout").text, f"{moved:.2f}")

        drag_slider(b.driver, b.widget("sharedSlider"), 0.9)
        b.until(b.settled)
        moved = value_of(b)
        self.assertGreater(moved, 0.7)
        a.until(lambda: value_of(a) == moved, message="A never saw B's move")

        b.js("bindery.end()")  # B leaves: A's count drops
        a.until(lambda: a.text("viewers") == "1 online", message="the count never dropped to 1")
        driver_b.quit()


class AttachModeTests(BrowserCase):
    server_options = {"extra_pages": [PAGES / "colors-attach.html"]}

    def test_hand_written_page_is_a_front_end_for_colors(self):
        p = self.page
        p.fresh()
        self.driver.get(p.base + "/colors-attach.html")
        p.wait_connected()
        find = lambda css: self.driver.find_element(By.CSS_SELECTOR, css)
        self.assertEqual(find("#status").get_attribute("data-state"), "connected")
        self.assertEqual(find("#name").text, "Red")
        self.assertEqual(p.style(find("#name"), "color"), rgb("#ff0000ff"))
        self.assertEqual(p.style(find("#chip"), "color"), rgb("#ff0000ff"))
        self.assertEqual(p.style(find("#swatch"), "backgroundColor"), grey(0.5))

        picker = Select(find("#picker"))
        self.assertEqual([o.text for o in picker.options], ["Red", "Green", "Blue"])
        picker.select_by_visible_text("Green")
        p.until(lambda: find("#name").text == "Green")
        self.assertEqual(p.style(find("#name"), "color"), rgb("#00ff00ff"))
        self.assertEqual(p.style(find("#chip"), "color"), rgb("#00ff00ff"))

        drag_slider(self.driver, find("#white"), 0.9)
        p.until(p.settled)
        value = p.js("return document.getElementById('white').valueAsNumber")
        self.assertGreater(value, 0.75)
        p.until(lambda: p.style(find("#swatch"), "backgroundColor") == grey(value))
        self.assertAlmostEqual(float(find("#white-value").get_attribute("value")), value, places=5)

        find("#reset").click()
        p.until(lambda: p.style(find("#swatch"), "backgroundColor") == grey(0.5))
        p.until(lambda: p.js("return document.getElementById('white').valueAsNumber") == 0.5)
        self.assertTrue(self.driver.current_url.endswith("/colors-attach.html"), "the link navigated")
        token = p.js("return bindery.conn.token")
        props = self.server_props(token, "picker")
        self.assertEqual(props["selectedSegmentIndex"], 1)
        p.screenshot("colors-attach")


if __name__ == "__main__":
    unittest.main()
