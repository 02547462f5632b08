"""TodoMVC's specification driven in headless Chromium against the example's server.

Run from the repository: `python -m unittest discover -s Examples/TodoMVC/Tests/Browser`
(after `swift build` in Examples/TodoMVC)."""

import sys
import unittest
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PACKAGE.parent))

from browser_harness import By, ExampleCase, focus_is_visible, screenshots, serious_axe_violations  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


class TodoMVCTests(ExampleCase):
    package = PACKAGE
    product = "TodoMVCServer"
    public = "Public"

    # Helpers -----------------------------------------------------------------------------

    def open(self, path="/", fresh=True):
        if fresh:
            self.page.fresh()
        self.driver.get(self.page.base + path)
        self.page.wait_connected()

    def settle(self):
        self.page.until(self.page.settled, message="events unanswered")

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def titles(self):
        return self.page.js("return [...document.querySelectorAll('.todo-list li[data-row]')]"
                            ".map(li => li.querySelector('label').textContent)")

    def wait_titles(self, expected):
        self.page.until(lambda: self.titles() == expected, message=f"rows never became {expected}: {self.titles()}")

    def row(self, title):
        return self.driver.find_element(By.XPATH, f"//ul[@class='todo-list']/li[.//label[text()='{title}']]")

    def add(self, *titles):
        field = self.find(".new-todo")
        for title in titles:
            field.send_keys(title, Keys.ENTER)
            self.settle()

    def count_text(self):
        return self.find(".todo-count").text

    def shown(self, css):
        return self.find(css).is_displayed()

    def start_editing(self, title):
        ActionChains(self.driver).double_click(self.row(title).find_element(By.CSS_SELECTOR, "label")).perform()
        self.page.until(lambda: self.page.js("return document.activeElement.matches('li.editing .edit')"),
                        message="the edit field never got focus")
        return self.driver.switch_to.active_element

    # The specification -------------------------------------------------------------------

    def test_1_no_todos_hides_main_and_footer(self):
        self.open()
        self.assertFalse(self.shown(".main"))
        self.assertFalse(self.shown(".footer"))
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("class"), "new-todo", "autofocus")

    def test_2_new_todo_trimmed_cleared_never_empty(self):
        self.open()
        self.add("  buy some cheese  ")
        self.wait_titles(["buy some cheese"])
        self.assertEqual(self.find(".new-todo").get_attribute("value"), "")
        self.assertTrue(self.shown(".main"))
        self.assertTrue(self.shown(".footer"))
        self.add("   ")
        self.assertEqual(self.titles(), ["buy some cheese"], "a blank todo is not added")
        self.add("feed the cat", "book a doctors appointment")
        self.wait_titles(["buy some cheese", "feed the cat", "book a doctors appointment"])
        self.assertEqual(self.count_text(), "3 items left")

    def test_3_toggle_counter_and_clear_completed(self):
        self.open()
        self.add("one", "two")
        self.assertFalse(self.shown(".clear-completed"), "nothing completed yet")
        self.row("two").find_element(By.CSS_SELECTOR, ".toggle").click()
        self.settle()
        self.page.until(lambda: "completed" in self.row("two").get_attribute("class"))
        self.assertTrue(self.row("two").find_element(By.CSS_SELECTOR, ".toggle").is_selected())
        self.assertEqual(self.count_text(), "1 item left")
        self.assertTrue(self.shown(".clear-completed"))
        self.find(".clear-completed").click()
        self.wait_titles(["one"])
        self.page.until(lambda: not self.shown(".clear-completed"))

    def test_4_toggle_all(self):
        self.open()
        self.add("one", "two")
        self.find(".toggle-all + label").click()
        self.settle()
        self.page.until(lambda: self.count_text() == "0 items left")
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".todo-list li.completed")), 2)
        self.assertTrue(self.find(".toggle-all").is_selected())
        # Un-completing one unchecks "toggle all"; checking it again completes it.
        self.row("one").find_element(By.CSS_SELECTOR, ".toggle").click()
        self.page.until(lambda: not self.find(".toggle-all").is_selected())
        self.find(".toggle-all + label").click()
        self.page.until(lambda: self.count_text() == "0 items left")
        self.find(".toggle-all + label").click()
        self.page.until(lambda: self.count_text() == "2 items left")
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".todo-list li.completed")), 0)

    def test_5_edit_enter_blur_escape_and_empty(self):
        self.open()
        self.add("one", "two", "three")
        edit = self.start_editing("one")
        self.assertEqual(edit.get_attribute("value"), "one")
        self.assertFalse(self.row("one").find_element(By.CSS_SELECTOR, ".toggle").is_displayed(),
                         "the row's other controls hide while editing")
        edit.send_keys(Keys.CONTROL, "a")
        edit.send_keys("  one, edited  ", Keys.ENTER)
        self.wait_titles(["one, edited", "two", "three"])

        edit = self.start_editing("two")
        edit.send_keys(" (blurred)")
        self.find(".new-todo").click()  # leaving the field saves
        self.wait_titles(["one, edited", "two (blurred)", "three"])

        edit = self.start_editing("three")
        edit.send_keys(" never saved", Keys.ESCAPE)
        self.page.until(lambda: not self.driver.find_elements(By.CSS_SELECTOR, "li.editing"))
        self.settle()
        self.assertEqual(self.titles(), ["one, edited", "two (blurred)", "three"], "Escape cancels")

        edit = self.start_editing("three")
        edit.send_keys(Keys.CONTROL, "a")
        edit.send_keys(Keys.BACKSPACE, Keys.ENTER)
        self.wait_titles(["one, edited", "two (blurred)"])

        # Keyboard only: Enter on a focused title starts editing too.
        self.row("one, edited").find_element(By.CSS_SELECTOR, "label").send_keys(Keys.ENTER)
        self.page.until(lambda: self.page.js("return document.activeElement.matches('li.editing .edit')"))
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.settle()

    def test_6_destroy(self):
        self.open()
        self.add("one", "two")
        row = self.row("one")
        ActionChains(self.driver).move_to_element(row).perform()
        row.find_element(By.CSS_SELECTOR, ".destroy").click()
        self.wait_titles(["two"])
        row = self.row("two")
        ActionChains(self.driver).move_to_element(row).perform()
        row.find_element(By.CSS_SELECTOR, ".destroy").click()
        self.wait_titles([])
        self.page.until(lambda: not self.shown(".main") and not self.shown(".footer"))

    def test_7_filters_follow_the_url(self):
        self.open()
        self.add("one", "two", "three")
        self.row("two").find_element(By.CSS_SELECTOR, ".toggle").click()
        self.settle()
        self.driver.find_element(By.LINK_TEXT, "Active").click()
        self.wait_titles(["one", "three"])
        self.assertTrue(self.driver.current_url.endswith("#/active"))
        self.assertIn("selected", self.driver.find_element(By.LINK_TEXT, "Active").get_attribute("class"))
        self.driver.find_element(By.LINK_TEXT, "Completed").click()
        self.wait_titles(["two"])
        self.driver.back()  # the browser's Back button goes back to #/active
        self.wait_titles(["one", "three"])
        self.driver.find_element(By.LINK_TEXT, "All").click()
        self.wait_titles(["one", "two", "three"])
        # Opening a filter's URL (same session, reloaded) shows that filter.
        self.open("/?reload#/completed", fresh=False)
        self.wait_titles(["two"])
        self.assertIn("selected", self.driver.find_element(By.LINK_TEXT, "Completed").get_attribute("class"))
        self.assertEqual(self.count_text(), "2 items left", "the count is over every todo")

    def test_8_accessible_and_keyboard_only(self):
        self.open()
        self.assertEqual(serious_axe_violations(self.page), [], "empty list")
        active = lambda: self.driver.switch_to.active_element  # noqa: E731
        # Everything below with the keyboard alone, from the autofocused new-todo field.
        active().send_keys("walk the dog", Keys.ENTER)
        self.settle()
        active().send_keys("water the plants", Keys.ENTER)
        self.wait_titles(["walk the dog", "water the plants"])
        self.assertTrue(focus_is_visible(self.page), "the new-todo field shows focus")

        def tab_to(css, limit=20):
            for _ in range(limit):
                active().send_keys(Keys.TAB)
                if self.page.js("return document.activeElement.matches(arguments[0])", css):
                    self.assertTrue(focus_is_visible(self.page), f"{css} shows focus")
                    return active()
            self.fail(f"Tab never reached {css}")

        tab_to(".toggle-all").send_keys(Keys.SPACE)  # toggle all
        self.page.until(lambda: self.count_text() == "0 items left")
        tab_to(".toggle-all").send_keys(Keys.SPACE)
        self.page.until(lambda: self.count_text() == "2 items left")
        tab_to("li[data-row] .toggle").send_keys(Keys.SPACE)  # the first row's checkbox
        self.page.until(lambda: self.count_text() == "1 item left")
        tab_to("li[data-row] label").send_keys(Keys.ENTER)  # edit the first title
        self.page.until(lambda: self.page.js("return document.activeElement.matches('li.editing .edit')"))
        active().send_keys(" now", Keys.ENTER)
        self.wait_titles(["walk the dog now", "water the plants"])
        tab_to(".filters a[href='#/completed']").send_keys(Keys.ENTER)
        self.wait_titles(["walk the dog now"])
        self.assertEqual(serious_axe_violations(self.page), [], "a completed todo, a filter")
        tab_to(".filters a[href='#/']").send_keys(Keys.ENTER)
        self.wait_titles(["walk the dog now", "water the plants"])
        tab_to(".clear-completed").send_keys(Keys.ENTER)
        self.wait_titles(["water the plants"])
        tab_to("li[data-row] .destroy").send_keys(Keys.ENTER)
        self.wait_titles([])
        self.page.until(lambda: not self.shown(".main"))

    def test_9_screenshots(self):
        self.open()
        self.add("buy some cheese", "feed the cat", "book a doctors appointment")
        self.row("feed the cat").find_element(By.CSS_SELECTOR, ".toggle").click()
        self.page.until(lambda: self.count_text() == "2 items left")
        self.find(".new-todo").click()
        self.assertEqual(serious_axe_violations(self.page), [])
        screenshots(self.page, "todomvc")


if __name__ == "__main__":
    unittest.main()
