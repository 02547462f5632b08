"""Expenses in headless Chromium against the example's server: the auto-rendered form,
a save with its progress, the list, and a refused save.

Run from the repository: `python -m unittest discover -s Examples/Expenses/Tests/Browser`
(after `swift build` in Examples/Expenses)."""

import sys
import unittest
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PACKAGE.parent))

from browser_harness import By, ExampleCase  # noqa: E402
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
        self.page.screenshot("expenses")

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


if __name__ == "__main__":
    unittest.main()
