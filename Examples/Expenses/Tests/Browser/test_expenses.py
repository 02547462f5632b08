"""Expenses in headless Chromium against the example's server: the auto-rendered form,
a save with its progress, the list, and a refused save.

Run from the repository: `python -m unittest discover -s Examples/Expenses/Tests/Browser`
(after `swift build` in Examples/Expenses)."""

import sys
import unittest
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PACKAGE.parent))

from browser_harness import By, ExampleCase, focus_is_visible, screenshots, serious_axe_violations  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


class ExpensesTests(ExampleCase):
    package = PACKAGE
    product = "ExpensesServer"

    def field(self, wid):
        return self.page.widget(wid)

    def type_into(self, wid, text):
        el = self.field(wid)
        el.send_keys(Keys.CONTROL, "a")
        el.send_keys(Keys.BACKSPACE)
        el.send_keys(text)

    def assert_shows_the_app(self):
        """axe-core finds no serious or critical WCAG 2.1 A/AA violation, and no widget id
        or kind is visible. Skipped with the browser client from before issue 14 item 3,
        whose captions are the ids and kinds (in a grey of 2.7:1)."""
        if self.page.js("return document.querySelector('.bd-caption-kind') !== null"):
            self.skipTest("this browser client captions widgets with their ids and kinds")
        self.assertEqual(serious_axe_violations(self.page), [])
        visible = self.driver.find_element(By.TAG_NAME, "body").text
        for word in ["titleField", "amountField", "categoryPicker", "saveButton", "expenseList",
                     "textField", "segmentedControl", "listView"]:
            self.assertNotIn(word, visible)

    def row_titles(self):
        return self.page.js("return [...arguments[0].querySelectorAll('[data-row] [data-field=title]')]"
                            ".map(e => e.textContent)", self.field("expenseList"))

    def test_save_shows_progress_then_the_row(self):
        self.page.open_scene("expenses")
        save = self.field("saveButton")
        self.assertFalse(save.is_enabled(), "an empty form cannot be saved")
        self.type_into("titleField", "Team lunch")
        self.type_into("amountField", "42.50")
        self.field("categoryPicker").find_element(By.XPATH, ".//button[text()='Office']").click()
        self.page.until(save.is_enabled, message="Save never became enabled")
        save.click()
        self.page.until(lambda: "Saving" in self.page.text("statusLabel"), message="no progress shown")
        self.assertFalse(self.field("titleField").is_enabled(), "the form is locked while saving")
        self.page.until(lambda: self.row_titles() == ["Team lunch"], timeout=15, message="the row never came")
        self.assertEqual(self.page.text("totalLabel"), "Total: 42.50")
        self.assertEqual(self.field("titleField").get_attribute("value"), "", "the form starts over")
        screenshots(self.page, "expenses")

    def test_a_refused_save_keeps_the_form(self):
        self.page.open_scene("expenses")
        self.type_into("titleField", "New laptop")
        self.type_into("amountField", "2400")
        self.page.until(self.field("saveButton").is_enabled)
        self.field("amountField").send_keys(Keys.ENTER)  # Return saves too
        self.page.until(lambda: "Couldn't save" in self.page.text("statusLabel"), timeout=15)
        self.assertEqual(self.field("titleField").get_attribute("value"), "New laptop")
        self.assertEqual(self.field("amountField").get_attribute("value"), "2400")
        self.assertEqual(self.row_titles(), [])

    def test_keyboard_only(self):
        self.page.open_scene("expenses")
        active = lambda: self.driver.switch_to.active_element  # noqa: E731

        def tab_to(wid, limit=30):
            for _ in range(limit):
                active().send_keys(Keys.TAB)
                if self.page.js("return document.activeElement.closest('[data-widget]')?.dataset.widget") == wid:
                    self.assertTrue(focus_is_visible(self.page), f"{wid} shows focus")
                    return active()
            self.fail(f"Tab never reached {wid}")

        self.driver.find_element(By.TAG_NAME, "body").click()
        tab_to("titleField").send_keys("Bus ticket")
        tab_to("amountField").send_keys("2.80")
        tab_to("categoryPicker").send_keys(Keys.ARROW_RIGHT)  # Food → Travel
        self.page.until(lambda: self.page.js(
            "return document.querySelector('[data-widget=categoryPicker] [aria-checked=true]')?.textContent") == "Travel")
        tab_to("saveButton").send_keys(Keys.ENTER)
        self.page.until(lambda: self.row_titles() == ["Bus ticket"], timeout=15, message="the row never came")
        self.assertEqual(self.page.js("return document.querySelector('[data-widget=expenseList] [data-row]')"
                                      ".textContent.includes('Travel')"), True)

    def test_the_page_shows_the_app_accessibly(self):
        self.page.open_scene("expenses")
        self.assert_shows_the_app()  # an empty list
        self.type_into("titleField", "Coffee")
        self.type_into("amountField", "3.20")
        self.page.until(self.field("saveButton").is_enabled)
        self.field("saveButton").click()
        self.page.until(lambda: self.row_titles() == ["Coffee"], timeout=15)
        self.type_into("amountField", "x")
        self.page.until(lambda: self.page.text("amountHint") != "")
        self.assert_shows_the_app()  # a row, a hint


if __name__ == "__main__":
    unittest.main()
