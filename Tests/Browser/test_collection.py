"""Issue 12's gallery scene driven as a person would: a grid of photos (click a tile →
selected; arrow keys move between tiles, Enter selects), Refresh (the button above the
grid: a spinner, then a new photo), the page dots (click, arrow keys), swipes (Shift+arrow,
the keyboard's alternative, and a synthesized pointer stroke), and the focus moved by the
server (Rename focuses the caption field; Return renames and ends editing; Done blurs).
axe-core: no serious or critical violation. Screenshots in /tmp/bindery-screenshots."""

import json
import unittest

from harness import PAGES, BrowserCase, By, axe_source

try:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
except ImportError:  # the harness skips the class
    ActionChains = Keys = None

AXE = axe_source()


class GalleryTests(BrowserCase):
    def open(self):
        self.page.open_scene("gallery")
        self.page.until(lambda: "Sunset" in self.tile_texts())

    def tile_texts(self):
        return self.page.js(
            "return [...document.querySelectorAll('[data-widget=photoGrid] [data-item] .bd-collection-text')]"
            ".map(e => e.textContent)")

    def tile(self, key):
        return self.page.widget("photoGrid").find_element(By.CSS_SELECTOR, f'[data-item="{key}"]')

    def active(self):
        return self.page.js("const a = document.activeElement; return a.dataset.widget || a.dataset.item || a.dataset.page || a.tagName")

    def label(self, wid):
        return self.page.widget(wid).text

    def test_grid_layout_click_and_keyboard_selection(self):
        p = self.page
        self.open()
        grid = p.widget("photoGrid")
        self.assertEqual(grid.get_attribute("role"), "listbox")
        self.assertEqual(self.tile_texts(), ["Sunset", "Shells", "Waves", "Palm"])
        self.assertEqual(grid.find_element(By.CSS_SELECTOR, ".bd-collection-header").text.upper(), "BEACH")
        size = self.tile("Sunset").size
        self.assertEqual((size["width"], size["height"]), (120, 96), "the flow layout's itemSize")
        # Tiles of a line share a top; columns are 120 + 8 apart.
        a, b = self.tile("Sunset").location, self.tile("Shells").location
        self.assertEqual(a["y"], b["y"])
        self.assertEqual(b["x"] - a["x"], 128)
        self.tile("Waves").click()
        p.until(lambda: self.tile("Waves").get_attribute("aria-selected") == "true")
        p.until(lambda: self.label("selectionLabel") == "Selected: Waves")
        # Keyboard: the clicked tile holds the tab stop; Right, then Enter.
        self.assertEqual(self.tile("Waves").get_attribute("tabindex"), "0")
        self.tile("Waves").send_keys(Keys.ARROW_RIGHT)
        p.until(lambda: self.active() == "Palm")
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        p.until(lambda: self.label("selectionLabel") == "Selected: Palm")
        self.assertEqual(self.tile("Waves").get_attribute("aria-selected"), "false", "single selection")
        p.screenshot("gallery-selected")

    def test_alt_arrows_move_a_photo(self):
        p = self.page
        self.open()
        self.assertEqual(self.tile("Sunset").get_attribute("aria-keyshortcuts"), "Alt+ArrowLeft Alt+ArrowRight")
        self.tile("Sunset").click()
        p.until(lambda: self.label("selectionLabel") == "Selected: Sunset")
        self.driver.switch_to.active_element.send_keys(Keys.ALT + Keys.ARROW_RIGHT)
        p.until(lambda: self.tile_texts() == ["Shells", "Sunset", "Waves", "Palm"], message="Alt+Right did not move")
        p.until(lambda: self.active() == "Sunset", message="the focus stays on the moved photo")
        self.driver.switch_to.active_element.send_keys(Keys.ALT + Keys.ARROW_RIGHT)
        p.until(lambda: self.tile_texts() == ["Shells", "Waves", "Sunset", "Palm"])
        self.assertEqual(self.tile("Sunset").get_attribute("aria-selected"), "true", "the selection moves with it")

    def test_refresh_shows_a_spinner_then_a_new_photo(self):
        p = self.page
        self.open()
        button = self.driver.find_element(By.CSS_SELECTOR, ".bd-refresh-button")
        # The bar sits right above the grid.
        self.assertLess(button.location["y"], p.widget("photoGrid").location["y"])
        button.click()
        p.until(lambda: p.widget("photoGrid").get_attribute("aria-busy") == "true", message="no busy state")
        spinner = self.driver.find_element(By.CSS_SELECTOR, ".bd-refresh-spinner")
        self.assertTrue(spinner.is_displayed())
        p.screenshot("gallery-refreshing")
        p.until(lambda: self.tile_texts()[:1] == ["Boat"], message="the new photo never came")
        p.until(lambda: not spinner.is_displayed())
        self.assertEqual(p.widget("photoGrid").get_attribute("aria-busy"), "false")
        self.assertEqual(self.label("albumLabel"), "Beach · 5 photos")
        p.screenshot("gallery-refreshed")

    def test_page_dots_click_and_arrow_keys(self):
        p = self.page
        self.open()
        dots = p.widget("albumPages").find_elements(By.CSS_SELECTOR, "[data-page]")
        self.assertEqual(len(dots), 3)
        self.assertEqual(dots[0].get_attribute("aria-current"), "page")
        dots[1].click()
        p.until(lambda: "Summit" in self.tile_texts(), message="the dot did not turn the page")
        self.assertEqual(self.label("albumLabel"), "Mountains · 3 photos")
        self.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        p.until(lambda: "Tram" in self.tile_texts())
        p.until(lambda: p.widget("albumPages").find_element(By.CSS_SELECTOR, '[data-page="2"]').get_attribute("aria-current") == "page")
        self.assertEqual(self.active(), "2", "the focus follows the current dot")
        p.screenshot("gallery-page3")

    def test_swipe_by_keyboard_and_by_pointer(self):
        p = self.page
        self.open()
        # Keyboard alternative: Shift+Left on a tile = swipe left = next album.
        self.tile("Sunset").send_keys(Keys.SHIFT + Keys.ARROW_LEFT)
        p.until(lambda: "Summit" in self.tile_texts(), message="Shift+Left did not swipe")
        self.assertIn("Shift+ArrowLeft", p.widget("photoGrid").get_attribute("aria-keyshortcuts"))
        # A mouse stroke to the right across the grid = swipe right = previous album.
        grid = p.widget("photoGrid")
        ActionChains(self.driver).move_to_element_with_offset(grid, -100, 0).click_and_hold() \
            .move_by_offset(150, 0).release().perform()
        p.until(lambda: "Sunset" in self.tile_texts(), message="the pointer swipe did not turn the page back")
        p.until(lambda: p.widget("albumPages").find_element(By.CSS_SELECTOR, '[data-page="0"]').get_attribute("aria-current") == "page")

    def test_server_moves_the_focus(self):
        p = self.page
        self.open()
        self.tile("Shells").click()
        p.until(lambda: p.widget("renameButton").is_enabled())
        p.widget("renameButton").click()
        p.until(lambda: self.active() == "captionField", message="becomeFirstResponder did not focus the field")
        field = p.widget("captionField")
        self.assertEqual(field.get_attribute("value"), "Shells")
        p.screenshot("gallery-renaming")
        field.send_keys(Keys.CONTROL + "a")
        field.send_keys("Seashells" + Keys.ENTER)
        p.until(lambda: "Seashells" in self.tile_texts(), message="Return did not rename")
        p.until(lambda: self.active() != "captionField", message="endEditing did not blur the field")
        p.until(lambda: self.label("selectionLabel") == "Selected: Seashells")
        # Done ends editing too.
        field.click()
        p.until(lambda: self.active() == "captionField")
        p.widget("doneButton").click()
        p.until(lambda: self.active() != "captionField", message="Done did not end editing")
        p.until(p.settled)
        # The server's idea of the focus matches the browser's.
        token = p.js("return bindery.conn.token")
        self.assertEqual(self.server_props(token, "captionField")["focused"], False)

    def test_accessibility(self):
        if AXE is None:
            self.skipTest("axe-core not installed")
        self.open()
        self.tile("Sunset").click()
        self.page.until(lambda: self.label("selectionLabel") == "Selected: Sunset")
        for theme in ("light", "dark"):
            with self.subTest(theme=theme):
                self.page.js("document.documentElement.dataset.theme = arguments[0]", theme)
                bad = [v for v in self.page.axe(AXE) if v[1] in ("serious", "critical")]
                self.assertEqual(bad, [], json.dumps(bad))
                self.page.screenshot(f"gallery-{theme}")


class RefreshOnTableTests(BrowserCase):
    """`tableView.refreshControl = refresh`: the bar above the table, its event, its spinner."""

    server_options = {"extra_pages": [PAGES / "refresh-table.html"]}

    def test_the_bar_sits_above_the_table_and_reports_the_pull(self):
        p = self.page
        self.driver.get(p.base + "/refresh-table.html")
        p.until(lambda: p.js("return document.documentElement.dataset.rendered") == "yes")
        table = p.widget("mail")
        button = p.until(lambda: self.driver.find_element(By.CSS_SELECTOR, ".bd-refresh-button"))
        self.assertLess(button.location["y"], table.location["y"])
        self.assertFalse(p.widget("refreshControl-1").is_displayed(), "its own field is hidden")
        button.click()
        self.assertEqual(p.js("return window.sent"), [["refreshControl-1", "valueChanged", None]])
        p.js("setProp('refreshControl-1', 'isRefreshing', true)")
        self.assertEqual(table.get_attribute("aria-busy"), "true")
        self.assertFalse(button.is_enabled(), "no second pull while refreshing")
        self.assertTrue(self.driver.find_element(By.CSS_SELECTOR, ".bd-refresh-spinner").is_displayed())
        p.screenshot("refresh-table")
        p.js("setProp('refreshControl-1', 'isRefreshing', false)")
        self.assertEqual(table.get_attribute("aria-busy"), "false")
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, ".bd-refresh-status").text, "Updated.")
        if AXE is not None:
            bad = [v for v in p.axe(AXE) if v[1] in ("serious", "critical")]
            self.assertEqual(bad, [], json.dumps(bad))
        # Pull to refresh on a touch screen: a finger dragged down from the table's top.
        from selenium.webdriver.common.actions import interaction
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput
        actions = ActionBuilder(self.driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        rect = table.rect
        x, y = int(rect["x"] + rect["width"] / 2), int(rect["y"] + 10)
        actions.pointer_action.move_to_location(x, y).pointer_down().move_to_location(x, y + 50) \
            .move_to_location(x, y + 100).pointer_up()
        actions.perform()
        p.until(lambda: len(p.js("return window.sent")) == 2, message="the pull was not reported")
        self.assertEqual(p.js("return window.sent")[1], ["refreshControl-1", "valueChanged", None])


if __name__ == "__main__":
    unittest.main()
