"""A client that survives restarts (issue 14): the real server is stopped with SIGTERM (it
says `bye shutdown` and closes) and started again on the same port; the open page keeps
trying, reconnects without a reload, and a fresh session gets back what the user had
entered (form recovery) with a notice. While the server is away, controls that need it are
inert and text fields keep what is typed. Leaving a page closes its socket (pagehide): the
shared board's viewer count drops at once, and coming back reconnects.
"""

import time
import unittest

from harness import BrowserCase, By, Page, axe_source, new_driver

AXE = axe_source()

RESTART_WITHIN_S = 3   # the server is started again this soon after it exited
CONNECTED_WITHIN_S = 15


class RestartTests(BrowserCase):

    def restart_server(self, while_down=None):
        """SIGTERM, wait for the exit, optionally act while it is down, start it again."""
        self.server.sigterm()
        stopped = time.monotonic()
        if while_down:
            while_down()
        left = RESTART_WITHIN_S - (time.monotonic() - stopped)
        self.assertGreater(left, 0, "the test took too long while the server was down")
        self.server.start()
        return time.monotonic()

    def test_sigterm_and_start_again_the_page_reconnects_and_keeps_what_was_typed(self):
        p = self.page
        p.open_scene("login")
        p.js("window.notReloaded = true")
        old_token = p.js("return bindery.conn.token")
        email, password, button = p.widget("email"), p.widget("password"), p.widget("loginButton")
        email.click()
        email.send_keys("user@example.com")
        password.click()
        password.send_keys("hun")
        p.until(p.settled)
        self.assertFalse(button.is_enabled())

        def while_down():
            p.until(lambda: p.state() in ("reconnecting", "offline"), timeout=5, message="the page never noticed")
            # Controls that need the server are inert; the text field still takes typing.
            self.assertIsNotNone(p.widget("loginButton").get_attribute("aria-disabled"))
            password.send_keys("ter2")

        started = self.restart_server(while_down)
        p.wait_connected(timeout=CONNECTED_WITHIN_S)
        self.assertLess(time.monotonic() - started, CONNECTED_WITHIN_S)
        self.assertTrue(p.js("return window.notReloaded === true"), "the page was reloaded")
        token = p.js("return bindery.conn.token")
        self.assertNotEqual(token, old_token, "a restarted server cannot have kept the session")
        # Form recovery: the new session has what the user had entered, typed offline too.
        self.assertEqual(email.get_attribute("value"), "user@example.com")
        self.assertEqual(password.get_attribute("value"), "hunter2")
        p.until(p.settled)
        self.assertEqual(self.server_props(token, "email")["text"], "user@example.com")
        self.assertEqual(self.server_props(token, "password")["text"], "hunter2")
        p.until(lambda: button.is_enabled(), message="the recovered form never enabled Sign in")
        notice = self.driver.find_element(By.CSS_SELECTOR, ".bd-toasts").get_attribute("textContent")
        self.assertIn("What you entered has been restored", notice)
        button.click()
        p.until(lambda: p.text("status") == "Signed in as user@example.com")

    def test_a_long_outage_then_the_network_coming_back_retries_at_once(self):
        p = self.page
        p.open_scene("counter")
        field = p.widget("textField")
        field.click()
        field.send_keys("kept")
        p.until(lambda: p.text("countLabel") == "4개")
        self.server.sigterm()
        # Long enough for the backoff to reach seconds: the next try is 4 to 8 s away.
        p.until(lambda: p.js("return bindery.conn.failures") >= 6, timeout=30)
        self.assertEqual(p.state(), "offline")
        self.assertIn("Retry now", self.driver.find_element(By.CSS_SELECTOR, "[data-bindery-status]").text)
        p.js("new MutationObserver(() => { if (document.documentElement.dataset.binderyState === 'connected')"
             "  window.connectedAt ??= Date.now(); })"
             ".observe(document.documentElement, {attributes: true, attributeFilter: ['data-bindery-state']})")
        self.server.start()
        # The browser says the network is back: the page tries at once, not when its timer says.
        retry_at, state = p.js("const at = bindery.conn.retryAt, s = bindery.state;"
                               "window.dispatchEvent(new Event('online')); return [at, s]")
        self.assertNotEqual(state, "connected", "the timer fired while the server started: no proof")
        p.wait_connected(timeout=CONNECTED_WITHIN_S)
        self.assertLess(p.js("return window.connectedAt"), retry_at, "it waited for the backoff timer")
        p.until(lambda: p.text("countLabel") == "4개")
        self.assertEqual(field.get_attribute("value"), "kept")


    def test_a_deleted_session_is_not_resumed_and_the_page_offers_a_new_one(self):
        import urllib.request
        p = self.page
        p.open_scene("counter")
        token = p.js("return bindery.conn.token")
        urllib.request.urlopen(urllib.request.Request(f"{self.server.base}/api/sessions/{token}", method="DELETE"), timeout=10)
        p.until(lambda: p.state() == "ended", message="the page never said the session ended")
        status = self.driver.find_element(By.CSS_SELECTOR, "[data-bindery-status]")
        self.assertIn("Session ended", status.text)
        time.sleep(1)  # it does not try to resume a deleted session
        self.assertEqual(p.state(), "ended")
        status.find_element(By.TAG_NAME, "button").click()  # "Start a new session"
        p.wait_connected()
        self.assertNotEqual(p.js("return bindery.conn.token"), token)

    def test_a_session_not_restored_exactly_says_so_in_a_banner_until_dismissed(self):
        """A takeover whose saved state could not be read back answers the resume with
        `"resumed": true, "restored": false` (PROTOCOL.md, Durable sessions): the page tells
        the user plainly, in a banner (role=alert) that stays until dismissed, once per
        session. The flag is put on the resumed `scene` by a hook on the page's WebSocket
        (set by sessionStorage), as a clustered server sends it."""
        hook = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
          const Native = window.WebSocket;
          window.WebSocket = class extends Native {
            get onmessage() { return super.onmessage; }
            set onmessage(handler) {
              super.onmessage = (e) => {
                let data = e.data;
                if (sessionStorage.getItem("bdTestNotRestored") && data.startsWith('{"type":"scene"')) {
                  const m = JSON.parse(data);
                  if (m.resumed) { m.restored = false; data = JSON.stringify(m); }
                }
                handler.call(this, new MessageEvent("message", { data }));
              };
            }
          };"""})
        self.addCleanup(self.driver.execute_cdp_cmd, "Page.removeScriptToEvaluateOnNewDocument",
                        {"identifier": hook["identifier"]})
        p = self.page
        banners = lambda: self.driver.find_elements(By.CSS_SELECTOR, '[data-banner="not-restored"]')
        p.open_scene("echo")
        field = p.widget("input")
        field.click()
        field.send_keys("kept")
        p.until(p.settled)
        # An exact resume (a reload: "resumed": true, no "restored") shows no banner.
        self.driver.refresh()
        p.wait_connected()
        p.until(lambda: p.widget("input").get_attribute("value") == "kept")
        self.assertEqual(banners(), [])

        token = p.js("return bindery.conn.token")
        p.js("sessionStorage.setItem('bdTestNotRestored', '1')")
        self.driver.refresh()
        p.wait_connected()
        p.until(lambda: len(banners()) == 1, message="no banner for \"restored\": false")
        self.assertEqual(p.js("return bindery.conn.token"), token, "the same session, resumed")
        banner = banners()[0]
        self.assertEqual(banner.get_attribute("role"), "alert")
        self.assertTrue(banner.is_displayed())
        self.assertIn("could not be fully restored after a server restart", banner.text)
        self.assertIn("started afresh", banner.text)
        close = banner.find_element(By.TAG_NAME, "button")
        self.assertEqual(close.get_attribute("aria-label"), "Dismiss this notice")
        # Under the page's header, not over the scene.
        header_bottom = p.js("return document.querySelector('.bd-topbar').getBoundingClientRect().bottom")
        self.assertGreaterEqual(banner.rect["y"], header_bottom)
        p.screenshot("not-restored-banner")
        p.js("document.documentElement.dataset.theme = 'dark'")
        p.screenshot("not-restored-banner-dark")
        if AXE:  # WCAG A/AA on the banner (its contrast in both themes, the button's name)
            for theme in ("light", "dark"):
                p.js("document.documentElement.dataset.theme = arguments[0]", theme)
                bad = [v for v in p.axe(AXE) if any("bd-banner" in t for t in v[2])]
                self.assertEqual(bad, [], f"axe on the banner ({theme})")
            p.js("delete document.documentElement.dataset.theme")

        # Dismissed, it goes, and a later scene of the same session (a resync) does not bring it back.
        close.click()
        p.until(lambda: banners() == [])
        p.js("bindery.resync()")
        p.until(p.settled)
        time.sleep(0.3)
        self.assertEqual(banners(), [])
        self.assertEqual(p.state(), "connected")


class PagehideTests(BrowserCase):

    def test_leaving_the_board_drops_the_viewer_at_once_and_coming_back_reconnects(self):
        a = self.page
        a.open_scene("board")
        a.until(lambda: a.text("viewers") == "1 online")
        driver_b = new_driver()
        self.addCleanup(driver_b.quit)
        b = Page(driver_b, self.page.base)
        b.open_scene("board")
        a.until(lambda: a.text("viewers") == "2 online")
        token_b = b.js("return bindery.conn.token")

        driver_b.get(self.page.base + "/")  # B navigates away to another page
        t = time.monotonic()
        a.until(lambda: a.text("viewers") == "1 online", timeout=5, message="the viewer who left is still counted")
        self.assertLess(time.monotonic() - t, 2.0)

        driver_b.back()  # from the back/forward cache, or reloaded: either way connected again
        b.wait_connected()
        a.until(lambda: a.text("viewers") == "2 online", message="coming back did not reconnect")
        self.assertEqual(b.js("return bindery.conn.token"), token_b, "coming back should resume the session")


if __name__ == "__main__":
    unittest.main()
