"""The typing race: the page talks to bindery through a proxy that delays every byte by
LATENCY_MS in each direction, and a long string is typed quickly. The field must end
with exactly what was typed, the caret must never jump (it is checked mid-way, after
each chunk, and after every message the page applies), and the labels must converge to
the server's answer for the full text.

Mid-way, another connection of the same session (the HTTP API, as a second device would)
writes the field: the page gets that value in a patch without `ack` while its own edits
are unanswered, and must ignore it (PROTOCOL.md, seq/ack rule 6); the typist's next
keystroke then wins on the server too. So that this holds however loaded the machine is,
the proxy holds the server-to-page direction from just before that write until the page
has sent more keystrokes (whose answers come after the foreign value), then releases it. A client that applied every server value would
show the foreign text and move the caret.
"""

import json
import urllib.request

import unittest

from harness import BrowserCase

LATENCY_MS = 200

# Every message the page applies: is the field still showing a prefix of what is being
# typed, with the caret at its end? (A client that applied a stale echo would show an
# older text, or put the caret elsewhere.)
MONITOR = """
const [field, target] = arguments;
window.snapshots = [];
const record = (kind) => snapshots.push({kind, value: field.value, start: field.selectionStart, end: field.selectionEnd});
bindery.hooks.onPatch = () => record('patch');
bindery.hooks.onScene = () => record('scene');
"""


class TypingRaceTests(BrowserCase):
    proxy_delay_ms = LATENCY_MS

    def write_from_elsewhere(self, token, target, value):
        body = json.dumps({"type": "event", "target": target, "event": "editingChanged", "value": value}).encode()
        request = urllib.request.Request(f"{self.server.base}/api/sessions/{token}/events", data=body, method="POST")
        with urllib.request.urlopen(request, timeout=10) as r:
            self.assertEqual(json.load(r)["type"], "patch")

    def type_in_chunks(self, field, text, chunk=16, interfere=None):
        p = self.page
        typed = ""
        for i in range(0, len(text), chunk):
            if i == chunk * 2 and interfere:
                self.proxy.hold_downstream()
                self.addCleanup(self.proxy.release_downstream)
                interfere()
            if i == chunk * 3:
                self.proxy.release_downstream()
            part = text[i:i + chunk]
            field.send_keys(part)
            typed += part
            # Mid-way: the events of this chunk are still in flight (LATENCY_MS each way).
            value, start, end, pending = p.js(
                "const f = arguments[0]; return [f.value, f.selectionStart, f.selectionEnd, bindery.seq - bindery.lastAck]",
                field)
            self.assertEqual(value, typed, "the field lost or changed a keystroke")
            self.assertEqual((start, end), (len(typed), len(typed)), "the caret moved")
        return pending

    def check_snapshots(self, text):
        snapshots = self.page.js("return snapshots")
        self.assertTrue(snapshots, "no message was applied during the race")
        for s in snapshots:
            self.assertTrue(text.startswith(s["value"]), f"the field showed {s['value']!r} after a {s['kind']}")
            self.assertEqual((s["start"], s["end"]), (len(s["value"]),) * 2, f"the caret jumped: {s}")

    def test_counter_typing_race(self):
        p = self.page
        p.open_scene("counter")
        field = p.widget("textField")
        field.click()
        p.js(MONITOR, field, "textField")
        text = "The quick brown fox jumps over the lazy dog; 다람쥐 헌 쳇바퀴에 타고파. " * 2
        token = p.js("return bindery.conn.token")
        pending = self.type_in_chunks(field, text,
                                      interfere=lambda: self.write_from_elsewhere(token, "textField", "FOREIGN"))
        self.assertGreater(pending, 0, "no event was in flight: the latency did not bite")
        p.until(p.settled, message="events never all acked")
        p.until(lambda: p.text("countLabel") == f"{len(text)}개", message="count never converged")
        self.assertEqual(field.get_attribute("value"), text)
        self.assertEqual(p.js("return [arguments[0].selectionStart, arguments[0].selectionEnd]", field),
                         [len(text), len(text)])
        self.check_snapshots(text)
        self.assertEqual(self.server_props(token, "textField")["text"], text)
        self.assertEqual(self.server_props(token, "countLabel")["text"], f"{len(text)}개")

    def test_login_typing_race(self):
        p = self.page
        p.open_scene("login")
        email, password, button = p.widget("email"), p.widget("password"), p.widget("loginButton")
        email.click()
        p.js(MONITOR, email, "email")
        address = "a.very.long.address.typed.quickly+bindery-typing-race@subdomain.example.com"
        token = p.js("return bindery.conn.token")
        pending = self.type_in_chunks(email, address,
                                      interfere=lambda: self.write_from_elsewhere(token, "email", "someone@else.example"))
        self.assertGreater(pending, 0, "no event was in flight: the latency did not bite")
        password.click()  # blur sends editingDidEnd with the full text
        password.send_keys("correct horse battery staple")
        p.until(lambda: button.is_enabled(), message="the button never enabled")
        p.until(p.settled, message="events never all acked")
        self.assertEqual(email.get_attribute("value"), address)
        self.assertEqual(password.get_attribute("value"), "correct horse battery staple")
        self.check_snapshots(address)
        self.assertEqual(self.server_props(token, "email")["text"], address)
        self.assertEqual(self.server_props(token, "password")["text"], "correct horse battery staple")
        button.click()
        p.until(lambda: p.text("status") == f"Signed in as {address}", message="status never converged")
        self.assertEqual(email.get_attribute("value"), address)


if __name__ == "__main__":
    unittest.main()
