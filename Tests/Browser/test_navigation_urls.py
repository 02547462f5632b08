"""Issue 12, item 4's URLs: scenes opened with parameters (/scene/team?member=chen-wei
lands on Chen Wei's screen; a bad one shows the scene's error), the URL naming the pushed
screen (#/chen-wei, from the screen's restorationIdentifier), a reload or a new session
(a copied link, an expired session) landing on the same screen, Back popping; and attach
mode: a host page whose element holds the navigation stack, and one showing an alert
(Escape = its cancel action). Screenshots in /tmp/bindery-screenshots (nav-*.png)."""

import time
import unittest

from harness import PAGES, BrowserCase, By, Page

try:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
except ImportError:  # the harness skips the class
    ActionChains = Keys = None


class NavCase(BrowserCase):
    def nav_title(self):
        return self.page.js("return document.querySelector('.bd-nav-title')?.textContent ?? null")

    def row(self, name):
        return self.page.widget("tableView").find_element(By.CSS_SELECTOR, f'[data-row="{name}"]')

    def url_tail(self):
        """The URL after the origin: path, query and hash."""
        return self.driver.current_url[len(self.page.base):]

    def token(self):
        return self.page.js("return bindery.conn.token")

    def open_url(self, tail, fresh=True):
        if fresh:
            self.page.fresh()
        self.driver.get(self.page.base + tail)
        self.page.wait_connected()


class NavigationURLTests(NavCase):
    def test_a_link_with_a_parameter_opens_the_detail_screen_and_back_goes_to_the_list(self):
        p = self.page
        self.open_url("/scene/team?member=chen-wei")
        p.until(lambda: self.nav_title() == "Chen Wei", message="the link did not open Chen Wei's screen")
        p.until(lambda: "Role: Server engineer" in self.driver.page_source)
        self.assertEqual(self.url_tail(), "/scene/team?member=chen-wei#/chen-wei", "the URL names the screen")
        session = self.token()
        self.assertEqual(self.api(f"/api/sessions/{session}")["session"], session)
        edit = p.widget("screen-1.rightBarButtonItem")
        self.assertFalse(edit.is_displayed(), "the list's Edit button is not shown on the member's screen")
        p.screenshot("nav-opened-by-link")
        self.driver.back()
        p.until(lambda: self.nav_title() == "Team", message="Back did not go to the list")
        p.until(lambda: self.page.widget("tableView").is_displayed())
        p.until(lambda: edit.is_displayed(), message="the list's Edit button is not in the bar")
        self.assertTrue(p.js("return !!arguments[0].closest('.bd-navbar')", edit))
        self.assertEqual(self.url_tail(), "/scene/team?member=chen-wei")
        p.until(p.settled)
        screens = self.server_props(session, "navigation")["screens"]
        self.assertEqual(len(screens), 1, "the server popped too")

    def test_a_row_click_pushes_the_url_names_the_screen_reload_stays_and_back_pops(self):
        p = self.page
        self.open_url("/scene/team")
        p.until(lambda: self.nav_title() == "Team")
        self.assertEqual(self.url_tail(), "/scene/team", "the root screen has no hash")
        self.row("Dara Okafor").click()
        p.until(lambda: self.nav_title() == "Dara Okafor", message="the row click did not push")
        p.until(lambda: self.url_tail() == "/scene/team#/dara-okafor", message=f"URL: {self.url_tail()}")
        p.screenshot("nav-pushed-by-row")
        session = self.token()
        self.driver.refresh()
        p.wait_connected()
        p.until(lambda: self.nav_title() == "Dara Okafor", message="a reload did not land on the same screen")
        self.assertEqual(self.token(), session, "the reload resumed the session")
        self.assertEqual(self.url_tail(), "/scene/team#/dara-okafor")
        self.driver.back()
        p.until(lambda: self.nav_title() == "Team", message="Back did not pop after the reload")
        self.assertEqual(self.url_tail(), "/scene/team")
        # The bar's Back button too.
        self.row("Ada Park").click()
        p.until(lambda: self.url_tail() == "/scene/team#/ada-park")
        self.driver.find_element(By.CSS_SELECTOR, ".bd-nav-back").click()
        p.until(lambda: self.nav_title() == "Team")
        p.until(lambda: self.url_tail() == "/scene/team")

    def test_a_copied_link_opens_a_new_session_on_the_same_screen(self):
        p = self.page
        self.open_url("/scene/team")
        self.row("Fatima Haddad").click()
        p.until(lambda: self.url_tail() == "/scene/team#/fatima-haddad")
        copied = self.driver.current_url
        first = self.token()
        # A new tab: no stored token, so a new session, built on the screen the URL names.
        p.fresh()
        self.driver.get(copied)
        p.wait_connected()
        p.until(lambda: self.nav_title() == "Fatima Haddad", message="the copied link did not land on the screen")
        self.assertNotEqual(self.token(), first, "a new session")
        self.assertEqual(self.url_tail(), "/scene/team#/fatima-haddad")
        p.screenshot("nav-copied-link")
        # Back from a screen the page opened on goes to the list (history was rebuilt).
        self.driver.back()
        p.until(lambda: self.nav_title() == "Team", message="Back did not go to the list")
        p.until(lambda: self.url_tail() == "/scene/team")

    def test_a_bad_parameter_shows_the_scenes_error_and_no_retry(self):
        p = self.page
        p.fresh()
        self.driver.get(self.page.base + "/scene/team?member=nobody")
        p.until(lambda: p.state() == "ended", message="the page did not stop")
        notice = self.driver.find_element(By.CSS_SELECTOR, '[data-bindery-error="bad-parameter"]')
        self.assertIn("parameter 'member': nobody in the team goes by 'nobody'", notice.text)
        self.assertEqual(notice.get_attribute("role"), "alert")
        self.assertEqual(self.driver.find_element(By.ID, "title").text, "This page cannot open")
        self.assertEqual(self.driver.title, "This page cannot open")
        p.screenshot("nav-bad-parameter")
        link = notice.find_element(By.TAG_NAME, "a")
        link.click()
        p.wait_connected()
        p.until(lambda: self.nav_title() == "Team", message="the link without parameters did not open the list")


class ExpiredSessionTests(NavCase):
    server_options = {"grace": "1"}

    def test_a_reload_after_the_session_expired_lands_on_the_same_screen(self):
        p = self.page
        self.open_url("/scene/team")
        self.row("Bo Lindqvist").click()
        p.until(lambda: self.url_tail() == "/scene/team#/bo-lindqvist")
        old = self.token()
        url = self.driver.current_url
        self.driver.get(self.page.base + "/healthz")  # the page goes: its socket closes
        # (Polling /api/sessions/<id> would keep it alive: /healthz counts sessions.)
        deadline = time.time() + 10
        while self.api("/healthz")["sessions"] > 0:
            self.assertLess(time.time(), deadline, "the session never expired")
            time.sleep(0.3)
        self.driver.get(url)  # sessionStorage still holds the expired token
        p.wait_connected()
        p.until(lambda: self.nav_title() == "Bo Lindqvist", message="the new session did not land on the screen")
        self.assertNotEqual(self.token(), old)


class AttachModeNavigationTests(NavCase):
    server_options = {"extra_pages": [PAGES / "team-attach.html", PAGES / "feedback-attach.html"]}

    def test_the_stack_renders_inside_the_host_element_and_history_is_opt_in(self):
        p = self.page
        self.open_url("/team-attach.html")
        app = self.driver.find_element(By.ID, "app")
        p.until(lambda: self.nav_title() == "Team")
        self.assertTrue(app.find_element(By.CSS_SELECTOR, ".bd-navbar").is_displayed(), "the bar is inside #app")
        self.assertIn("Everyone at Example Corp", app.text, "the page's own content is the root screen")
        table = app.find_element(By.CSS_SELECTOR, '[data-widget="tableView"]')
        self.assertTrue(table.is_displayed(), "the table is rendered inside #app")
        self.assertEqual(app.find_element(By.CSS_SELECTOR, '[data-widget="screen-1.rightBarButtonItem"]').text, "Edit")
        length = p.js("return history.length")
        self.row("Chen Wei").click()
        p.until(lambda: self.nav_title() == "Chen Wei", message="the row did not push in attach mode")
        role = app.find_element(By.CSS_SELECTOR, '[data-widget="screen-2.roleLabel"]')
        p.until(lambda: role.text == "Role: Server engineer")
        self.assertFalse(table.is_displayed(), "the list is hidden under the pushed screen")
        self.assertEqual(self.url_tail(), "/team-attach.html", "the host page's URL is left alone")
        self.assertEqual(p.js("return history.length"), length, "no history entry without history: true")
        p.screenshot("nav-attach-pushed")
        back = app.find_element(By.CSS_SELECTOR, ".bd-nav-back")
        back.click()
        p.until(lambda: self.nav_title() == "Team", message="the bar's Back did not pop in attach mode")
        p.until(lambda: table.is_displayed())
        self.assertIn("Everyone at Example Corp", app.text)
        # Opted in: the URL names the screen and the browser's Back pops.
        self.open_url("/team-attach.html?history=1")
        p.until(lambda: self.nav_title() == "Team")
        self.row("Eli Navarro").click()
        p.until(lambda: self.url_tail() == "/team-attach.html?history=1#/eli-navarro")
        self.driver.back()
        p.until(lambda: self.nav_title() == "Team", message="browser Back did not pop with history on")

    def test_an_alert_shows_in_the_host_page_and_escape_cancels(self):
        p = self.page
        self.open_url("/feedback-attach.html")
        find = lambda css: self.driver.find_element(By.CSS_SELECTOR, css)
        p.until(lambda: find("#said").text == "Nothing sent yet.")
        find("#rate").click()
        p.until(lambda: self.driver.find_elements(By.CSS_SELECTOR, "dialog.bd-alert[open]"),
                message="no dialog in attach mode")
        dialog = find("dialog.bd-alert[open]")
        self.assertTrue(p.js("return document.getElementById('form').contains(arguments[0])", dialog),
                        "the dialog is inside the attached element")
        self.assertEqual(dialog.find_element(By.CSS_SELECTOR, ".bd-alert-title").text, "How was it?")
        actions = [b.text for b in dialog.find_elements(By.CSS_SELECTOR, ".bd-alert-action")]
        self.assertEqual(actions, ["Loved it", "It was fine", "Not great", "Cancel"])
        p.until(lambda: p.js("return arguments[0].contains(document.activeElement)", dialog), message="focus is not in the dialog")
        p.screenshot("nav-attach-alert")
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        p.until(lambda: find("#said").text == "Rating cancelled.", message="Escape did not choose the cancel action")
        p.until(lambda: not self.driver.find_elements(By.CSS_SELECTOR, "dialog.bd-alert"), message="the dialog stayed")
        self.assertEqual(p.js("return document.activeElement.id"), "rate", "focus returns to the button")
        # Again, choosing an action this time: its handler runs on the server.
        find("#rate").click()
        p.until(lambda: self.driver.find_elements(By.CSS_SELECTOR, "dialog.bd-alert[open]"))
        loved = [b for b in find("dialog.bd-alert[open]").find_elements(By.CSS_SELECTOR, ".bd-alert-action") if b.text == "Loved it"]
        loved[0].click()
        p.until(lambda: find("#rating").text == "Rating: Loved it", message="the action did not run on the server")
        p.until(lambda: not self.driver.find_elements(By.CSS_SELECTOR, "dialog.bd-alert"))
        # An alert with a text field: typed into, Return chooses its preferred action.
        find("#comment").click()
        p.until(lambda: self.driver.find_elements(By.CSS_SELECTOR, "dialog.bd-alert[open] input"),
                message="the alert's text field is not in the dialog")
        field = find("dialog.bd-alert[open] input")
        p.until(lambda: p.js("return document.activeElement === arguments[0]", field), message="the field is not focused")
        field.send_keys("More colours")
        field.send_keys(Keys.RETURN)
        p.until(lambda: find("#commented").text == "Comment: More colours", message="the comment did not arrive")
        p.until(lambda: not self.driver.find_elements(By.CSS_SELECTOR, "dialog.bd-alert"))
        self.assertEqual(p.js("return document.querySelector('.bd-attach-added').children.length"), 0,
                         "the dismissed alert's elements are gone")

if __name__ == "__main__":
    unittest.main()
