"""Every demo scene driven as a person would (clicks, typing, slider drags), asserting what
the page shows: text, computed colours, enabled state, list rows. Each test saves its
scene's screenshot to /tmp/bindery-screenshots/<scene>.png (BINDERY_SCREENSHOT_DIR overrides).

    /tmp/bindery-test-venv/bin/python -m unittest discover -s Tests/Browser -p 'test_*.py' -v
"""

import datetime
import unittest

from harness import BrowserCase, By, grey, rgb

try:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
except ImportError:  # pragma: no cover
    pass


def drag_slider(driver, slider, fraction):
    """Drags the slider's thumb (from the middle, where it starts) to `fraction` of its width."""
    width = slider.size["width"]
    ActionChains(driver).click_and_hold(slider).move_by_offset(int((fraction - 0.5) * width), 0).pause(0.05) \
        .move_by_offset(1, 0).release().perform()


class SceneTests(BrowserCase):

    def test_colors(self):
        p = self.page
        p.open_scene("colors")
        self.assertEqual(p.text("valueLabel"), "Red")
        self.assertEqual(p.style(p.widget("valueLabel"), "color"), rgb("#ff0000ff"))
        self.assertEqual(p.style(p.widget("canvas"), "backgroundColor"), grey(0.5))
        picker = p.widget("picker")
        segments = picker.find_elements(By.TAG_NAME, "button")
        self.assertEqual([b.text for b in segments], ["Red", "Green", "Blue"])
        for index, (name, colour) in enumerate([("Green", "#00ff00ff"), ("Blue", "#0000ffff"), ("Red", "#ff0000ff")]):
            segments[(index + 1) % 3].click()
            p.until(lambda: p.text("valueLabel") == name, message=f"label never said {name}")
            self.assertEqual(p.style(p.widget("valueLabel"), "color"), rgb(colour))
            self.assertEqual(picker.find_element(By.CSS_SELECTOR, '[aria-checked="true"]').text, name)
        # Drag the slider thumb to the right: the canvas becomes the slider's grey, and the
        # readout shows the slider's value.
        slider = p.widget("whiteSlider")
        drag_slider(self.driver, slider, 0.85)
        p.until(p.settled, message="slider events never acked")
        value = p.js("return arguments[0].valueAsNumber", slider)
        self.assertGreater(value, 0.7)
        p.until(lambda: p.style(p.widget("canvas"), "backgroundColor") == grey(value),
                message=f"canvas is not grey({value})")
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, ".bd-readout").text, f"{value:.2f}")
        drag_slider(self.driver, slider, 0.1)
        p.until(p.settled)
        value = p.js("return arguments[0].valueAsNumber", slider)
        self.assertLess(value, 0.3)
        p.until(lambda: p.style(p.widget("canvas"), "backgroundColor") == grey(value))
        # Arrow keys on the focused slider are input events too.
        slider.send_keys(Keys.ARROW_RIGHT)
        p.until(p.settled)
        value = p.js("return arguments[0].valueAsNumber", slider)
        p.until(lambda: p.style(p.widget("canvas"), "backgroundColor") == grey(value))
        # Reset: mid grey on both the canvas and the slider (a server write to the slider).
        p.widget("resetButton").click()
        p.until(lambda: p.style(p.widget("canvas"), "backgroundColor") == grey(0.5))
        p.until(lambda: p.js("return arguments[0].valueAsNumber", slider) == 0.5)
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, ".bd-readout").text, "0.50")
        segments[2].click()
        p.until(lambda: p.text("valueLabel") == "Blue")
        p.screenshot("colors")

    def test_counter(self):
        p = self.page
        p.open_scene("counter")
        field = p.widget("textField")
        self.assertEqual(field.get_attribute("placeholder"), "Type something")
        self.assertEqual(p.text("countLabel"), "0개")
        field.click()
        field.send_keys("안녕하세요 Bindery")  # characters, not bytes
        p.until(lambda: p.text("countLabel") == "13개", message="count never 13")
        field.send_keys(Keys.BACKSPACE * 8)
        p.until(lambda: p.text("countLabel") == "5개")
        self.assertEqual(field.get_attribute("value"), "안녕하세요")
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.DELETE)
        p.until(lambda: p.text("countLabel") == "0개")
        field.send_keys("hello, world")
        p.until(lambda: p.text("countLabel") == "12개")
        p.screenshot("counter")

    def test_date(self):
        p = self.page
        p.open_scene("date")
        field = p.widget("dateField")
        self.assertEqual(field.get_attribute("value"), "")
        before = datetime.datetime.now(datetime.timezone.utc)
        p.widget("nowButton").click()
        p.until(lambda: field.get_attribute("value") != "", message="the date never arrived")
        after = datetime.datetime.now(datetime.timezone.utc)
        shown = field.get_attribute("value")
        # yyyy년 MM월 dd일 HH:mm in the server's time zone (the harness runs it with TZ=UTC).
        allowed = {t.strftime("%Y년 %m월 %d일 %H:%M") for t in (before, after)}
        self.assertIn(shown, allowed)
        p.screenshot("date")

    def test_login(self):
        p = self.page
        p.open_scene("login")
        email, password, button = p.widget("email"), p.widget("password"), p.widget("loginButton")
        self.assertEqual(password.get_attribute("type"), "password")
        self.assertFalse(button.is_enabled())
        self.assertEqual(p.text("status"), "")
        email.click()
        email.send_keys("user@example.com")
        password.click()
        password.send_keys("hun")
        p.until(p.settled)
        self.assertFalse(button.is_enabled(), "enabled with a 3-character password")
        password.send_keys("ter2")
        p.until(lambda: button.is_enabled(), message="never enabled")
        email.send_keys(Keys.BACKSPACE * 7)  # "user@exam": 9 characters
        p.until(lambda: not button.is_enabled(), message="still enabled with a 9-character email")
        email.send_keys("ple.com")
        p.until(lambda: button.is_enabled())
        button.click()
        p.until(lambda: p.text("status") == "Signing in…", message="never signing in")
        self.assertFalse(button.is_enabled(), "enabled while executing")
        p.until(lambda: p.text("status") == "Signed in as user@example.com", message="never signed in")
        p.until(lambda: button.is_enabled())
        self.assertEqual(email.get_attribute("value"), "user@example.com")
        self.assertEqual(password.get_attribute("value"), "hunter2")
        p.screenshot("login")

    def test_repos(self):
        p = self.page
        p.open_scene("repos")
        button = p.widget("loadMoreButton")
        self.assertEqual(p.rows("repoList"), [])
        for n in range(1, 6):
            self.assertTrue(button.is_enabled())
            button.click()
            p.until(lambda: len(p.rows("repoList")) == 20 * n, message=f"never {20 * n} rows")
        self.assertEqual(p.rows("repoList"), [f"repo-{i}" for i in range(1, 101)])
        last = p.widget("repoList").find_element(By.CSS_SELECTOR, '[data-row="repo-100"]')
        self.assertEqual(last.find_element(By.CSS_SELECTOR, '[data-field="name"]').text, "repo-100")
        self.assertEqual(last.find_element(By.CSS_SELECTOR, '[data-field="author"]').text, "author-100")
        p.until(lambda: not button.is_enabled(), message="still enabled at 100 rows")
        button.click()  # a disabled button sends nothing
        p.until(p.settled)
        self.assertEqual(len(p.rows("repoList")), 100)
        self.driver.execute_script("window.scrollTo(0, 0)")
        p.screenshot("repos")

    def test_echo(self):
        p = self.page
        p.open_scene("echo")
        field = p.widget("input")
        field.click()
        field.send_keys("Hello, Bindery")
        p.until(lambda: p.text("output") == "HELLO, BINDERY")
        field.send_keys(Keys.HOME, ">> ")
        p.until(lambda: p.text("output") == ">> HELLO, BINDERY")
        self.assertEqual(p.js("return arguments[0].selectionStart", field), 3)  # the caret stayed
        self.assertEqual(field.get_attribute("value"), ">> Hello, Bindery")
        p.screenshot("echo")

    def test_board(self):
        p = self.page
        p.open_scene("board")
        p.until(lambda: p.text("viewers") == "1 online")
        slider = p.widget("sharedSlider")
        drag_slider(self.driver, slider, 0.25)
        p.until(p.settled)
        value = p.js("return arguments[0].valueAsNumber", slider)
        self.assertLess(value, 0.4)
        token = p.js("return bindery.conn.token")
        self.assertAlmostEqual(self.server_props(token, "sharedSlider")["value"], value, places=5)
        p.screenshot("board")


if __name__ == "__main__":
    unittest.main()
