"""Issue 22's view tree, driven as a person would: the review scene is built in code
(stack views, a RatingView component twice, guest fields added at run time). Rate each
part, add a guest and type a name, remove one; the fields sit inside their stacks, and
the page passes axe. Screenshots: /tmp/bindery-screenshots/review-*.png."""

import unittest

from harness import BrowserCase, By, axe_source

AXE = axe_source()


class ViewTreeTests(BrowserCase):
    def parent_widget(self, wid):
        return self.page.js(
            "return arguments[0].closest('[data-bindery-field]').parentElement.closest('[data-widget]')?.dataset.widget ?? null",
            self.page.widget(wid))

    def guests(self):
        return self.page.js(
            "return [...arguments[0].querySelectorAll('input')].map(i => i.dataset.widget)",
            self.page.widget("guests"))

    def test_components_are_independent_and_guests_come_and_go(self):
        self.page.open_scene("review")
        self.assertEqual(self.parent_widget("food.stars"), "food.row")
        self.assertEqual(self.parent_widget("food.row"), "food")
        self.assertEqual(self.parent_widget("food"), "content")
        self.assertEqual(self.page.text("summary"), "Food 3 of 5, service 3 of 5.")
        self.page.widget("food.more").click()
        self.page.widget("food.more").click()
        self.page.widget("service.less").click()
        self.page.until(lambda: self.page.text("summary") == "Food 5 of 5, service 2 of 5.")
        self.assertEqual(self.page.text("food.stars"), "★★★★★")
        self.assertEqual(self.page.text("service.stars"), "★★☆☆☆")

        self.assertEqual(len(self.guests()), 1)
        self.page.widget("addGuest").click()
        self.page.until(lambda: len(self.guests()) == 2)
        second = self.guests()[1]
        self.page.widget(second).send_keys("Grace")
        self.page.until(self.page.settled)
        self.assertEqual(self.server_props(self.token(), second)["text"], "Grace")
        self.page.screenshot("review-desktop")
        self.assertEqual(self.page.axe(AXE), [])

        self.page.widget("removeGuest").click()
        self.page.until(lambda: len(self.guests()) == 1)
        self.assertEqual(self.page.driver.find_elements(By.CSS_SELECTOR, f'[data-widget="{second}"]'), [])

    def token(self):
        return self.page.js("return Object.entries(sessionStorage).find(([k]) => k.includes('review'))?.[1]")

    def test_phone_width(self):
        size = self.driver.get_window_size()
        self.driver.set_window_size(390, 844)
        self.addCleanup(self.driver.set_window_size, size["width"], size["height"])
        page = self.page
        page.open_scene("review")
        page.widget("addGuest").click()
        page.until(lambda: len(page.js("return [...document.querySelectorAll('[data-widget=guests] input')]")) == 2)
        page.screenshot("review-phone")
        width, client = page.js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        self.assertLessEqual(width, client, "the page scrolls sideways at phone width")


if __name__ == "__main__":
    unittest.main()
