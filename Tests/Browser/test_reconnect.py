"""Reconnecting: the page reaches bindery through a proxy that can cut every connection
(TCP reset, as a dying server or network would) and stop accepting for a while. The page
must show that it is reconnecting, resume the same session (same token), keep its state
(slider position, typed text, list rows), and neither lose nor repeat an acknowledged event.
"""

import time
import unittest

from harness import BrowserCase, By, grey
from test_scenes import drag_slider

OUTAGE_S = 3  # how long the proxy refuses connections


class ReconnectTests(BrowserCase):
    proxy_delay_ms = 20

    def drop(self, outage=OUTAGE_S):
        """Cuts the page's connection and keeps the network path down for `outage` seconds."""
        p = self.page
        p.track_states()
        self.proxy.pause()
        self.proxy.cut()
        p.until(lambda: p.state() in ("reconnecting", "offline"), message="the page never noticed")
        time.sleep(outage)  # the outage itself (not a wait for a condition)
        self.assertNotEqual(p.state(), "connected")
        self.proxy.resume()
        # Backoff after a few refused tries is up to ~4 s; the page then resumes.
        p.wait_connected(timeout=30)
        states, texts = p.js("return [states, statusTexts]")
        self.assertEqual(states[0], "reconnecting")
        self.assertIn("Reconnecting", texts[0])  # what the page showed
        self.assertEqual(states[-1], "connected")
        self.assertIn("Connected", texts[-1])

    def test_colors_state_survives_a_drop(self):
        p = self.page
        p.open_scene("colors")
        token = p.js("return bindery.conn.token")
        p.widget("picker").find_elements(By.TAG_NAME, "button")[2].click()
        slider = p.widget("whiteSlider")
        drag_slider(self.driver, slider, 0.8)
        p.until(p.settled)
        value = p.js("return arguments[0].valueAsNumber", slider)
        p.until(lambda: p.style(p.widget("canvas"), "backgroundColor") == grey(value))
        self.drop()
        self.assertEqual(p.js("return bindery.conn.token"), token)
        p.until(p.settled)
        self.assertEqual(p.js("return arguments[0].valueAsNumber", slider), value)
        self.assertEqual(p.text("valueLabel"), "Blue")
        self.assertEqual(p.style(p.widget("canvas"), "backgroundColor"), grey(value))
        self.assertAlmostEqual(self.server_props(token, "whiteSlider")["value"], value, places=5)
        # And it still works.
        drag_slider(self.driver, slider, 0.2)
        p.until(p.settled)
        value = p.js("return arguments[0].valueAsNumber", slider)
        p.until(lambda: p.style(p.widget("canvas"), "backgroundColor") == grey(value))

    def test_typed_text_survives_a_drop_and_edits_made_offline_are_sent(self):
        p = self.page
        p.open_scene("counter")
        token = p.js("return bindery.conn.token")
        field = p.widget("textField")
        field.click()
        field.send_keys("before the drop")
        p.until(lambda: p.text("countLabel") == "15개")
        p.track_states()
        self.proxy.pause()
        self.proxy.cut()
        p.until(lambda: p.state() != "connected")
        field.send_keys(", typed offline")  # the scene is dimmed but usable
        self.proxy.resume()
        p.wait_connected(timeout=30)
        self.assertEqual(p.js("return bindery.conn.token"), token)
        text = "before the drop, typed offline"
        p.until(lambda: p.text("countLabel") == f"{len(text)}개", message="the offline edit never arrived")
        p.until(p.settled)
        self.assertEqual(field.get_attribute("value"), text)
        self.assertEqual(p.js("return arguments[0].selectionStart", field), len(text))
        self.assertEqual(self.server_props(token, "textField")["text"], text)

    def test_list_rows_no_tap_lost_or_repeated(self):
        p = self.page
        p.open_scene("repos")
        token = p.js("return bindery.conn.token")
        button = p.widget("loadMoreButton")
        rows = lambda: p.rows("repoList")
        taps = 0
        for _ in range(2):
            button.click()
            taps += 1
            p.until(lambda: len(rows()) == 20 * taps)
        self.drop()
        self.assertEqual(p.js("return bindery.conn.token"), token)
        self.assertEqual(rows(), [f"repo-{i}" for i in range(1, 20 * taps + 1)])
        for _ in range(2):
            button.click()
            taps += 1
            p.until(lambda: len(rows()) == 20 * taps)
        p.until(p.settled)
        self.assertEqual(rows(), [f"repo-{i}" for i in range(1, 81)])
        self.assertEqual([r["id"] for r in self.server_props(token, "repoList")["items"]], rows())

    def test_tap_in_flight_at_the_drop_is_applied_at_most_once(self):
        # A tap whose answer never came may or may not have reached the server; either way,
        # after the resume the page shows exactly the server's rows, each once.
        self.proxy.set_delay(300)
        self.addCleanup(self.proxy.set_delay, 20)
        p = self.page
        p.open_scene("repos")
        token = p.js("return bindery.conn.token")
        button = p.widget("loadMoreButton")
        button.click()
        p.until(lambda: len(p.rows("repoList")) == 20)
        button.click()
        self.drop(outage=1)
        p.until(p.settled)
        server_rows = [r["id"] for r in self.server_props(token, "repoList")["items"]]
        self.assertIn(len(server_rows), (20, 40))
        self.assertEqual(p.rows("repoList"), server_rows)
        self.assertEqual(server_rows, [f"repo-{i}" for i in range(1, len(server_rows) + 1)])


if __name__ == "__main__":
    unittest.main()
