"""Issue 12's upload, driven as a person would: pick real files through the page's file
input (Selenium's send_keys on input[type=file]), watch each row's progress, and find
them in the table (a text file's first line, an image's thumbnail); a file over the
scene's 1 MiB cap is refused by the server (upload-too-large) before its bytes go up, and
the page says so. Screenshots go to /tmp/bindery-screenshots/upload-*.png."""

import base64
import json
import os
import shutil
import tempfile
import unittest
from pathlib import Path

from harness import BrowserCase, By, SCREENSHOTS, axe_source

AXE = axe_source()

# A 2×2 red PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==")


class UploadCase(BrowserCase):
    """The upload scene's page, and files made for it in a temporary directory."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tmp = Path(tempfile.mkdtemp(prefix="bindery-upload-"))
        cls.addClassCleanup(shutil.rmtree, cls.tmp, ignore_errors=True)

    def file(self, name, data):
        path = self.tmp / name
        path.write_bytes(data)
        return str(path)

    def open(self):
        self.page.open_scene("upload")
        self.page.until(lambda: self.input().is_displayed())

    def input(self):
        return self.page.widget("picker").find_element(By.CSS_SELECTOR, "input[type=file]")

    def table_rows(self):
        return self.page.js(
            "return [...arguments[0].querySelectorAll('[role=row][data-row]')].map(r => ["
            " r.querySelector('.bd-cell-text')?.textContent ?? '',"
            " r.querySelector('.bd-cell-detail')?.textContent ?? '',"
            " Boolean(r.querySelector('img'))])",
            self.page.widget("files"))

    def upload_rows(self):
        return self.page.js(
            "return [...arguments[0].querySelectorAll('.bd-upload')].map(li => ({"
            " name: li.querySelector('.bd-upload-name').textContent,"
            " size: li.querySelector('.bd-upload-size').textContent,"
            " status: li.querySelector('.bd-upload-status').textContent,"
            " value: li.querySelector('progress').value,"
            " error: li.querySelector('.bd-upload-error').hidden ? null : li.querySelector('.bd-upload-error').textContent,"
            " code: li.querySelector('.bd-upload-error').dataset.code ?? null}))",
            self.page.widget("picker"))


class UploadTests(UploadCase):
    def test_a_text_file_goes_up_and_shows_in_the_table(self):
        self.open()
        # 200 KiB: seven chunks of 32 KiB, so the progress really moves.
        body = ("Hello from a browser upload\n" + "x" * 79 + "\n") * 1900
        path = self.file("notes.txt", body.encode())
        self.input().send_keys(path)
        self.page.until(lambda: any(r[0] == "notes.txt" for r in self.table_rows()), message="no table row")
        row = next(r for r in self.table_rows() if r[0] == "notes.txt")
        self.assertIn("text/plain", row[1])
        self.assertIn("“Hello from a browser upload”", row[1])
        self.assertIn(f"{len(body) / 1024:.1f} KiB", row[1])
        self.page.until(lambda: self.upload_rows()[-1]["status"] == "Uploaded")
        up = self.upload_rows()[-1]
        self.assertEqual((up["name"], up["value"], up["error"]), ("notes.txt", 1, None))
        self.assertEqual(self.page.text("status"), "Received notes.txt.")
        # The server's picker holds nothing once the file is in.
        self.page.until(lambda: self.page.settled())
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot("upload-text")

    def test_an_oversize_file_is_refused_with_a_clear_error(self):
        self.open()
        path = self.file("big.bin", os.urandom((1 << 20) + 1))
        self.input().send_keys(path)
        self.page.until(lambda: self.upload_rows() and self.upload_rows()[-1]["error"], message="no error shown")
        up = self.upload_rows()[-1]
        self.assertEqual(up["code"], "upload-too-large")
        self.assertEqual(up["status"], "Too large")
        self.assertIn("big.bin", up["error"])
        self.assertIn("1048577 bytes", up["error"])
        self.assertIn("1 MiB", up["error"])
        self.page.until(lambda: self.page.text("status").startswith("Not uploaded:"))
        self.assertIn("the largest file allowed is 1 MiB", self.page.text("status"))
        self.assertFalse(any(r[0] == "big.bin" for r in self.table_rows()))
        self.page.screenshot("upload-too-large")

    def test_at_phone_width_a_rows_file_name_is_whole_and_the_input_fits(self):
        size = self.driver.get_window_size()
        self.driver.set_window_size(390, 844)
        self.addCleanup(self.driver.set_window_size, size["width"], size["height"])
        self.open()
        self.input().send_keys(self.file("quarterly-report-final.txt", b"figures\n"))
        self.page.until(lambda: self.upload_rows() and self.upload_rows()[-1]["status"] == "Uploaded")
        name = self.page.js("const n = [...arguments[0].querySelectorAll('.bd-upload-name')].at(-1);"
                            "return [n.scrollWidth, n.clientWidth, n.getBoundingClientRect().height]",
                            self.page.widget("picker"))
        self.assertLessEqual(name[0], name[1], f"the file name is cut: {name}")
        overflow = self.page.js("const i = arguments[0].querySelector('input[type=file]'), b = i.closest('.bd-drop');"
                                "return i.getBoundingClientRect().right - b.getBoundingClientRect().right",
                                self.page.widget("picker"))
        self.assertLessEqual(overflow, 0, "the file input sticks out of its box")
        self.page.screenshot("upload-phone")

    def test_several_files_at_once_and_an_image_thumbnail(self):
        self.open()
        paths = [self.file("red.png", PNG), self.file("list.csv", b"name,size\na,1\n"), self.file("c.txt", b"third\n")]
        self.input().send_keys("\n".join(paths))
        self.page.until(lambda: {r[0] for r in self.table_rows()} >= {"red.png", "list.csv", "c.txt"},
                        message="not all three rows")
        rows = {r[0]: r for r in self.table_rows()}
        self.assertTrue(rows["red.png"][2], "the image row has a thumbnail")
        self.assertIn("image/png", rows["red.png"][1])
        self.assertIn("“name,size”", rows["list.csv"][1])
        self.assertEqual(self.page.text("status"), "Received 3 files.")
        self.page.screenshot("upload-several")

    def test_a_dropped_file_goes_up_like_a_picked_one(self):
        self.open()
        drop = self.page.widget("picker").find_element(By.CSS_SELECTOR, ".bd-drop")
        self.page.js(
            "const zone = arguments[0], data = new DataTransfer();"
            "data.items.add(new File(['dropped here\\nsecond line'], 'dropped.txt', {type: 'text/plain'}));"
            "zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: data, bubbles: true, cancelable: true}));"
            "window.overClass = zone.classList.contains('bd-drop-over');"
            "zone.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));", drop)
        self.assertTrue(self.page.js("return window.overClass"), "the drop target shows it is one")
        self.page.until(lambda: any(r[0] == "dropped.txt" for r in self.table_rows()), message="no row for the dropped file")
        row = next(r for r in self.table_rows() if r[0] == "dropped.txt")
        self.assertIn("“dropped here”", row[1])
        self.assertNotIn("bd-drop-over", drop.get_attribute("class"))

    def test_the_picker_is_a_labelled_keyboard_control(self):
        self.open()
        field = self.input()
        self.assertEqual(field.get_attribute("aria-label"), "Files to upload")
        self.assertTrue(field.get_attribute("multiple") is not None)
        self.page.js("arguments[0].focus()", field)
        self.assertEqual(self.page.js("return document.activeElement"), field)
        self.assertIn("up to 1.0 MiB each", self.page.widget("picker").text)

    def test_no_serious_accessibility_violation_with_rows_and_an_error(self):
        if AXE is None:
            self.skipTest("axe-core is not installed (make test-deps)")
        self.open()
        self.input().send_keys("\n".join([self.file("ok.txt", b"fine\n"), self.file("huge.bin", b"0" * ((1 << 20) + 5))]))
        self.page.until(lambda: len(self.upload_rows()) == 2 and self.upload_rows()[1]["error"], message="no error")
        bad = [v for v in self.page.axe(AXE) if v[1] in ("serious", "critical")]
        self.assertEqual(bad, [], json.dumps(bad))
        # The failed last file still delivers the pick's first one.
        self.page.until(lambda: any(r[0] == "ok.txt" for r in self.table_rows()))


class UploadInterruptionTests(UploadCase):
    """Cancel and a dropped connection mid-upload, through a proxy that can hold the
    server's answers (so the upload is caught in the middle) or cut the connection."""

    proxy_delay_ms = 0

    def tearDown(self):
        self.proxy.release_downstream()
        super().tearDown()

    def test_cancel_mid_upload_stops_it_and_the_server_says_so(self):
        self.open()
        self.proxy.hold_downstream()
        self.input().send_keys(self.file("slow.bin", os.urandom(600_000)))
        self.page.until(lambda: self.upload_rows())
        self.page.widget("picker").find_element(By.CSS_SELECTOR, ".bd-upload-cancel").click()
        self.page.until(lambda: self.upload_rows()[-1]["status"] == "Cancelled")
        self.assertIsNone(self.upload_rows()[-1]["error"], "a cancel is not an error")
        self.proxy.release_downstream()
        self.page.until(lambda: self.page.text("status") == "Upload cancelled.", message="the server's cancel")
        self.assertEqual(self.table_rows(), [])
        self.page.screenshot("upload-cancelled")

    def test_a_dropped_connection_aborts_the_upload_on_both_sides(self):
        self.open()
        self.proxy.hold_downstream()
        self.input().send_keys(self.file("cut.bin", os.urandom(600_000)))
        self.page.until(lambda: self.upload_rows())
        self.proxy.cut()
        self.page.until(lambda: self.upload_rows()[-1]["code"] == "upload-aborted", message="the row did not stop")
        self.assertEqual(self.upload_rows()[-1]["status"], "Stopped")
        self.proxy.release_downstream()
        self.page.wait_connected()
        self.page.until(lambda: "was aborted (its connection closed)" in self.page.text("status"),
                        message="the server aborted the upload when the connection went")
        self.page.screenshot("upload-aborted")


if __name__ == "__main__":
    unittest.main()
